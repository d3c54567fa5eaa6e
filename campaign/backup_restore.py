"""Writing a checked campaign document's rows: the second half of ``import_campaign``.

:func:`campaign_rows_restore` trusts its document: :func:`campaign.backup.campaign_import` has
checked it in full first (campaign.schemas.checks). Rows are written in one fixed order, so ids
come out in the order of the document and a restored campaign exports as it was exported.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.utils.dateparse import parse_datetime

from battles.models import Battle
from campaign.models import (
    AuditEntry,
    Campaign,
    DiplomaticOffer,
    LedgerEntry,
    Nation,
    NationTurn,
    Order,
    Relation,
    Turn,
    TurnPhase,
    TurnReport,
)
from fleets.models import Admiral, Blockade, Fleet, Ship
from ports.models import LandUnit, Port, SeaZone


def campaign_rows_restore(doc: dict[str, Any], *, slug: str, gm: User | None, players: Mapping[str, User]) -> Campaign:
    """Write every row of ``doc`` as campaign ``slug``; the caller holds the transaction."""
    campaign, nations = _restore_campaign(doc, slug, gm, players)
    zones, ports = _restore_map(doc, campaign, nations)
    fleet_ids, ship_ids = _restore_forces(doc, campaign, nations, zones, ports)
    turns = _restore_ledger_and_turns(doc, campaign, nations, zones, ports)
    _import_history(doc, campaign, nations, ports, turns, fleet_ids, ship_ids)
    _restore_audit(doc, campaign)
    return campaign


def _restore_audit(doc: dict[str, Any], campaign: Campaign) -> None:
    """The audit log as it was, under the campaign's new slug: the names and times of the file are a
    record of who did what, and no account is linked to an entry (people never come from the file)."""
    AuditEntry.objects.bulk_create(
        AuditEntry(
            campaign=campaign,
            campaign_slug=campaign.slug,
            actor=None,
            actor_name=e["actor"],
            created_at=e["at"],  # checked as a date and time with its offset (schemas.checks)
            turn=e["turn"],
            action=e["action"],
            summary=e["summary"],
            before=e["before"],
            after=e["after"],
            reason=e["reason"],
        )
        for e in doc.get("audit", [])
    )


def _restore_campaign(
    doc: dict[str, Any], slug: str, gm: User | None, players: Mapping[str, User]
) -> tuple[Campaign, dict[str, Nation]]:
    """The campaign row, its nations (with the players given) and their relations."""
    c = doc["campaign"]
    campaign = Campaign.objects.create(
        slug=slug,
        name=c["name"],
        scenario=c.get("scenario", ""),
        gm=gm,
        start_year=c["start_year"],
        year=c["year"],
        season=c["season"],
        turn_number=c["turn"],
        status=c["status"],
        seed=c["seed"],
        last_turn=c.get("last_turn"),
        show_readiness=c.get("show_readiness", True) is not False,
        settings=doc["ruleset"],
    )
    nations = {
        n["code"]: Nation.objects.create(
            campaign=campaign,
            code=n["code"],
            name=n["name"],
            navy=n["navy"],
            treasury=n["treasury"],
            player=players.get(n["code"]),
            base_income=n["base_income"],
            crew=n["crew"],
            color=n["color"],
            unpaid_upkeep_turn=n.get("unpaid_upkeep_turn"),
        )
        for n in doc["nations"]
    }
    for r in doc["relations"]:
        a, b = sorted((nations[r["a"]], nations[r["b"]]), key=lambda n: n.pk)
        Relation.objects.create(campaign=campaign, a=a, b=b, state=r["state"])
    return campaign, nations


def _restore_map(
    doc: dict[str, Any], campaign: Campaign, nations: dict[str, Nation]
) -> tuple[dict[str, SeaZone], dict[str, Port]]:
    """Sea zones, their adjacency and the ports."""
    zones = {
        z["key"]: SeaZone(campaign=campaign, key=z["key"], name=z["name"], type=z["type"], x=z["x"], y=z["y"])
        for z in doc["sea_zones"]
    }
    SeaZone.objects.bulk_create(zones.values())
    through = SeaZone.adjacent.through
    through.objects.bulk_create(
        [
            through(from_seazone_id=zones[z["key"]].pk, to_seazone_id=zones[o].pk)
            for z in doc["sea_zones"]
            for o in z["adjacent"]
        ]
    )
    ports = {
        p["key"]: Port(
            campaign=campaign,
            key=p["key"],
            name=p["name"],
            sea_zone=zones[p["sea_zone"]],
            owner=nations[p["owner"]],
            x=p["x"],
            y=p["y"],
            fortification=p["fortification"],
            capacity=p["capacity"],
            ep_value=p["ep_value"],
            dockyard=p["dockyard"],
            gibraltar=p["gibraltar"],
            batteries=p["batteries"],
            commander=p["commander"] or "",
            taken_turn=p["taken_turn"],
            captor=nations[p["captor"]] if p["captor"] else None,
            siege_turns=p["siege_turns"],
        )
        for p in doc["ports"]
    }
    Port.objects.bulk_create(ports.values())
    return zones, ports


def _restore_forces(
    doc: dict[str, Any],
    campaign: Campaign,
    nations: dict[str, Nation],
    zones: dict[str, SeaZone],
    ports: dict[str, Port],
) -> tuple[dict[int, int], dict[int, int]]:
    """Land units, fleets, ships (with their cargo) and admirals, written in that order; the
    document's fleet and ship ids mapped to the new ones."""
    cargo = _restore_land_units(doc, campaign, nations, ports)
    fleets = _restore_fleets(doc, campaign, nations, zones, ports)
    ship_ids = _restore_ships(doc, campaign, nations, ports, fleets, cargo)
    _restore_admirals(doc, campaign, nations, ports, fleets)
    fleet_ids = {doc_id: fleet.pk for doc_id, fleet in fleets.items()}
    return fleet_ids, ship_ids


def _restore_land_units(
    doc: dict[str, Any], campaign: Campaign, nations: dict[str, Nation], ports: dict[str, Port]
) -> dict[int, LandUnit]:
    """The land units; returns the unit each transport carries, by the document's ship id."""
    units = {
        u["id"]: LandUnit(
            campaign=campaign,
            nation=nations[u["nation"]],
            siege_train=u["siege_train"],
            state=u["state"],
            port=ports[u["port"]] if u["port"] else None,
            out_of_supply_turns=u["out_of_supply_turns"],
            raised_turn=u["raised_turn"],
        )
        for u in doc["land_units"]
    }
    LandUnit.objects.bulk_create(units.values())
    return {u["transport"]: units[u["id"]] for u in doc["land_units"] if u["transport"] is not None}


def _restore_fleets(
    doc: dict[str, Any],
    campaign: Campaign,
    nations: dict[str, Nation],
    zones: dict[str, SeaZone],
    ports: dict[str, Port],
) -> dict[int, Fleet]:
    """The fleets (without their admirals, who are written after them), by the document's fleet id."""
    fleets = {
        f["id"]: Fleet(
            campaign=campaign,
            nation=nations[f["nation"]],
            name=f["name"],
            sea_zone=zones[f["sea_zone"]],
            port=ports[f["port"]] if f["port"] else None,
            crew=f["crew"],
            posture=f["posture"],
            blockade_port=ports[f["blockade_port"]] if f["blockade_port"] else None,
            after_battle=f["after_battle"],
            retreat_port=ports[f["retreat_port"]] if f["retreat_port"] else None,
            retreat_zone=zones[f["retreat_zone"]] if f["retreat_zone"] else None,
            left_port_turn=f["left_port_turn"],
            in_supply=f["in_supply"],
            out_of_supply_turns=f["out_of_supply_turns"],
            created_turn=f["created_turn"],
        )
        for f in doc["fleets"]
    }
    Fleet.objects.bulk_create(fleets.values())
    return fleets


def _restore_ships(
    doc: dict[str, Any],
    campaign: Campaign,
    nations: dict[str, Nation],
    ports: dict[str, Port],
    fleets: dict[int, Fleet],
    cargo: dict[int, LandUnit],
) -> dict[int, int]:
    """The ships, each in its fleet and with its cargo; the document's ship ids mapped to the new ones."""
    ship_rows = Ship.objects.bulk_create(
        [
            Ship(
                campaign=campaign,
                name=s["name"],
                ship_class=s["class"],
                nation=nations[s["nation"]],
                original_nation=nations[s["original_nation"]],
                condition=s["condition"],
                in_ordinary=s["in_ordinary"],
                crew=s["crew"],
                fleet=fleets[s["fleet"]] if s["fleet"] is not None else None,
                building_turns_left=s["building_turns_left"],
                building_port=ports[s["building_port"]] if s["building_port"] else None,
                line_position=s["line_position"],
                repair_port=ports[s["repair_port"]] if s.get("repair_port") else None,
                repair_ready_turn=s.get("repair_ready_turn"),
                cargo=cargo.get(s["id"]),
                laid_down_turn=s["laid_down_turn"],
                lost_turn=s["lost_turn"],
                source=s["source"],
            )
            for s in doc["ships"]
        ]
    )
    return {s["id"]: row.pk for s, row in zip(doc["ships"], ship_rows, strict=True)}


def _restore_admirals(
    doc: dict[str, Any],
    campaign: Campaign,
    nations: dict[str, Nation],
    ports: dict[str, Port],
    fleets: dict[int, Fleet],
) -> None:
    """The admirals, in the document's order (their ids follow it), each put in command of their fleet."""
    for a in doc["admirals"]:
        admiral = Admiral.objects.create(
            campaign=campaign,
            nation=nations[a["nation"]],
            name=a["name"],
            grade=a["grade"],
            status=a["status"],
            port=ports[a["port"]] if a["port"] else None,
        )
        if a["fleet"] is not None:
            Fleet.objects.filter(pk=fleets[a["fleet"]].pk).update(admiral=admiral)


def _restore_ledger_and_turns(
    doc: dict[str, Any],
    campaign: Campaign,
    nations: dict[str, Nation],
    zones: dict[str, SeaZone],
    ports: dict[str, Port],
) -> dict[int, Turn]:
    """The ledger, the turns (with their snapshots) and the battles."""
    LedgerEntry.objects.bulk_create(
        [
            LedgerEntry(
                campaign=campaign,
                nation=nations[e["nation"]],
                turn=e["turn"],
                kind=e["kind"],
                amount=e["amount"],
                reason=e["reason"],
                balance=e["balance"],
                unpaid=e["unpaid"],
            )
            for e in doc["ledger"]
        ]
    )
    turns = {
        t["number"]: Turn.objects.create(
            campaign=campaign,
            number=t["number"],
            year=t["year"],
            season=t["season"],
            deadline=parse_datetime(t["deadline"]) if t["deadline"] else None,
            status=t["status"],
            resolved_at=parse_datetime(t["resolved_at"]) if t["resolved_at"] else None,
            paused_at=parse_datetime(t["paused_at"]) if t["paused_at"] else None,
            dice_log=t["dice_log"],
            snapshot=doc.get("snapshots", {}).get(str(t["number"])),
        )
        for t in doc["turns"]
    }
    Battle.objects.bulk_create(
        [
            Battle(
                campaign=campaign,
                turn=turns[b["turn"]],
                kind=b["type"],
                sea_zone=zones[b["sea_zone"]],
                port=ports[b["port"]] if b["port"] else None,
                place=b["place"],
                sequence=b["sequence"],
                seed=b["seed"],
                winner=b["winner"],
                sides=b["sides"],
                report=b["report"],
                seen_by=b.get("seen_by", _nations_of_sides(b["sides"])),
            )
            for b in doc["battles"]
        ]
    )
    return turns


def _nations_of_sides(sides: list[Any]) -> list[str]:
    """Who sees a battle from a file written before ``seen_by`` was exported: the nations that fought."""
    return sorted({code for side in sides if isinstance(side, dict) for code in side.get("nations") or []})


# Keys of order bodies that hold database ids (README "Orders JSON"): remapped on restore.
_FLEET_KEYS = ("fleet", "to_fleet", "into")
_SHIP_KEYS = ("ship",)


def _order_body(body: dict[str, Any], fleet_ids: dict[int, int], ship_ids: dict[int, int]) -> dict[str, Any]:
    out = dict(body)
    for key in _FLEET_KEYS:
        if isinstance(out.get(key), int):
            out[key] = fleet_ids.get(out[key], out[key])
    for key in _SHIP_KEYS:
        if isinstance(out.get(key), int):
            out[key] = ship_ids.get(out[key], out[key])
    if isinstance(out.get("ships"), list):
        out["ships"] = [ship_ids.get(i, i) if isinstance(i, int) else i for i in out["ships"]]
    return out


def _import_history(
    doc: dict[str, Any],
    campaign: Campaign,
    nations: dict[str, Nation],
    ports: dict[str, Port],
    turns: dict[int, Turn],
    fleet_ids: dict[int, int],
    ship_ids: dict[int, int],
) -> None:
    """Orders (their ids remapped), offers, readiness, phase records, reports and blockades."""
    Order.objects.bulk_create(
        [
            Order(
                campaign=campaign,
                turn=turns[o["turn"]],
                nation=nations[o["nation"]],
                position=o["position"],
                kind=o["kind"],
                body=_order_body(o["body"], fleet_ids, ship_ids),
                fleet_id=fleet_ids[o["fleet"]] if o["fleet"] is not None else None,
                outcome=o["outcome"],
                outcome_note=o["outcome_note"],
            )
            for o in doc.get("orders", [])
        ]
    )
    DiplomaticOffer.objects.bulk_create(
        [
            DiplomaticOffer(
                campaign=campaign,
                from_nation=nations[o["from"]],
                to_nation=nations[o["to"]],
                kind=o["kind"],
                turn=o["turn"],
            )
            for o in doc.get("offers", [])
        ]
    )
    NationTurn.objects.bulk_create(
        [
            NationTurn(
                turn=turns[t["turn"]],
                nation=nations[t["nation"]],
                ready=t["ready"],
                submitted_at=parse_datetime(t["submitted_at"]) if t["submitted_at"] else None,
            )
            for t in doc.get("nation_turns", [])
        ]
    )
    TurnPhase.objects.bulk_create(
        [TurnPhase(turn=turns[p["turn"]], phase=p["phase"], summary=p["summary"]) for p in doc.get("phases", [])]
    )
    TurnReport.objects.bulk_create(
        [
            TurnReport(
                turn=turns[r["turn"]],
                nation=nations[r["nation"]],
                body=r["body"],
                emailed_at=parse_datetime(r["emailed_at"]) if r["emailed_at"] else None,
            )
            for r in doc.get("reports", [])
        ]
    )
    Blockade.objects.bulk_create(
        [
            Blockade(
                campaign=campaign,
                turn=b["turn"],
                port=ports[b["port"]],
                fleet_id=fleet_ids[b["fleet"]],
                lifted=b["lifted"],
            )
            for b in doc.get("blockades", [])
        ]
    )
