"""Writing a checked campaign document's rows: the second half of ``import_campaign``.

:func:`campaign_rows_restore` trusts its document: :func:`campaign.backup.document.campaign_import` has
checked it in full first (campaign.backup.schemas.checks). Rows are written in one fixed order, so ids
come out in the order of the document and a restored campaign exports as it was exported.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from django.contrib.auth.models import User
from django.utils.dateparse import parse_datetime

from battles.models import Battle
from campaign.backup.dispatches import DocumentPeople, dispatches_restore
from campaign.backup.rows import (
    RowRefs,
    admiral_state_fields,
    blockade,
    diplomatic_offer,
    fleet_fields,
    land_unit_fields,
    ledger_entry,
    nation_state_fields,
    port_state_fields,
    ship_fields,
)
from campaign.backup.snapshots import ImportedIds, order_body_renamed, snapshot_renamed
from campaign.backup.tabletop import TableRefs, table_battles_restore
from campaign.models import (
    DISPATCH_OPTIONS,
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
    refs = RowRefs(
        campaign_id=campaign.pk,
        nation={code: n.pk for code, n in nations.items()},
        zone={key: z.pk for key, z in zones.items()},
        port={key: p.pk for key, p in ports.items()},
    )
    refs, ship_ids = _restore_forces(doc, refs)
    turns, battle_ids = _restore_ledger_and_turns(doc, campaign, refs, ship_ids)
    _import_history(doc, campaign, nations, refs, turns, ship_ids)
    # Issues 15 and 16, in files written since (older ones have none: read as none).
    dispatches_restore(doc, refs=refs, people=DocumentPeople(doc=doc, gm=gm, players=players))
    admirals = dict(Admiral.objects.filter(campaign=campaign).values_list("name", "pk"))
    table_battles_restore(
        doc,
        refs=TableRefs(
            rows=refs,
            turn={number: t.pk for number, t in turns.items()},
            battle=battle_ids,
            ship=ship_ids,
            admiral=admirals,
        ),
    )
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
        **{name: c.get(name, default) for name, default in DISPATCH_OPTIONS.items()},
        settings=doc["ruleset"],
    )
    # In bulk (ids in the document's order, as one by one): a statement per kind, not per row.
    nations = {
        n["code"]: Nation(
            campaign=campaign,
            code=n["code"],
            name=n["name"],
            navy=n["navy"],
            player=players.get(n["code"]),
            color=n["color"],
            **nation_state_fields(n),
        )
        for n in doc["nations"]
    }
    Nation.objects.bulk_create(nations.values())
    relations = []
    for r in doc["relations"]:
        a, b = sorted((nations[r["a"]], nations[r["b"]]), key=lambda n: n.pk)
        relations.append(Relation(campaign=campaign, a=a, b=b, state=r["state"]))
    Relation.objects.bulk_create(relations)
    return campaign, nations


def _restore_map(
    doc: dict[str, Any], campaign: Campaign, nations: dict[str, Nation]
) -> tuple[dict[str, SeaZone], dict[str, Port]]:
    """Sea zones, their adjacency and the ports."""
    zones = {
        z["key"]: SeaZone(
            campaign=campaign,
            key=z["key"],
            name=z["name"],
            type=z["type"],
            x=z["x"],
            y=z["y"],
            lon=z.get("lon"),
            lat=z.get("lat"),
        )
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
    nation_refs = RowRefs(campaign_id=campaign.pk, nation={c: n.pk for c, n in nations.items()}, zone={}, port={})
    ports = {
        p["key"]: Port(
            campaign=campaign,
            key=p["key"],
            name=p["name"],
            sea_zone=zones[p["sea_zone"]],
            x=p["x"],
            y=p["y"],
            lon=p.get("lon"),
            lat=p.get("lat"),
            **port_state_fields(p, nation_refs),
        )
        for p in doc["ports"]
    }
    Port.objects.bulk_create(ports.values())
    capitals = [n for n in doc["nations"] if n.get("capital")]
    for n in capitals:
        nations[n["code"]].capital = ports[n["capital"]]
    Nation.objects.bulk_update([nations[n["code"]] for n in capitals], ["capital"])
    return zones, ports


def _restore_forces(doc: dict[str, Any], refs: RowRefs) -> tuple[RowRefs, dict[int, int]]:
    """Land units, admirals, fleets (each with its admiral) and ships (with their cargo); returns the
    references with the fleets and land units added (the document's id → the new one) and the ships'
    id map."""
    units = {u["id"]: LandUnit(**land_unit_fields(u, refs)) for u in doc["land_units"]}
    LandUnit.objects.bulk_create(units.values())
    cargo = {u["transport"]: units[u["id"]].pk for u in doc["land_units"] if u["transport"] is not None}
    # The admirals in the document's order (their ids follow it), written before the fleets so that
    # each fleet is written with its admiral: one statement for all, instead of an INSERT per
    # admiral and an UPDATE per fleet commanded (~130 statements for europe-1805).
    admirals = Admiral.objects.bulk_create(
        [
            Admiral(
                campaign_id=refs.campaign_id,
                nation_id=refs.nation[a["nation"]],
                name=a["name"],
                **admiral_state_fields(a, refs),
            )
            for a in doc["admirals"]
        ]
    )
    commander = {a["fleet"]: row.pk for a, row in zip(doc["admirals"], admirals, strict=True) if a["fleet"] is not None}
    fleets = {f["id"]: Fleet(**{**fleet_fields(f, refs), "admiral_id": commander.get(f["id"])}) for f in doc["fleets"]}
    Fleet.objects.bulk_create(fleets.values())
    refs = replace(
        refs,
        fleet={doc_id: fleet.pk for doc_id, fleet in fleets.items()},
        land_unit={doc_id: unit.pk for doc_id, unit in units.items()},
    )
    ship_rows = Ship.objects.bulk_create(
        [Ship(**ship_fields(s, refs, cargo_id=cargo.get(s["id"]))) for s in doc["ships"]]
    )
    ship_ids = {s["id"]: row.pk for s, row in zip(doc["ships"], ship_rows, strict=True)}
    return refs, ship_ids


def _restore_ledger_and_turns(
    doc: dict[str, Any], campaign: Campaign, refs: RowRefs, ship_ids: dict[int, int]
) -> tuple[dict[int, Turn], dict[int, int]]:
    """The ledger, the turns (with their snapshots and re-fight seeds) and the battles; returns the
    turns by number and the document's battle ids mapped to the new ones. Each snapshot is written
    once the battles are: it quotes the rows this import wrote (campaign.backup.snapshots)."""
    LedgerEntry.objects.bulk_create([ledger_entry(e, refs) for e in doc["ledger"]])
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
            reseeds=t.get("reseeds", {}),  # absent from files written before re-fights (issue 11)
        )
        for t in doc["turns"]
    }
    battles = Battle.objects.bulk_create(
        [
            Battle(
                campaign=campaign,
                turn=turns[b["turn"]],
                kind=b["type"],
                sea_zone_id=refs.zone[b["sea_zone"]],
                port_id=refs.port_id(b["port"]),
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
    battle_ids = {b["id"]: row.pk for b, row in zip(doc["battles"], battles, strict=True)}
    ids = ImportedIds(fleet=refs.fleet, ship=ship_ids, land_unit=refs.land_unit, battle=battle_ids)
    snapshots = doc.get("snapshots", {})
    with_snapshot = [t for number, t in turns.items() if str(number) in snapshots]
    for turn in with_snapshot:
        turn.snapshot = snapshot_renamed(snapshots[str(turn.number)], ids)
    Turn.objects.bulk_update(with_snapshot, ["snapshot"], batch_size=20)
    return turns, battle_ids


def _nations_of_sides(sides: list[Any]) -> list[str]:
    """Who sees a battle from a file written before ``seen_by`` was exported: the nations that fought."""
    return sorted({code for side in sides if isinstance(side, dict) for code in side.get("nations") or []})


def _import_history(
    doc: dict[str, Any],
    campaign: Campaign,
    nations: dict[str, Nation],
    refs: RowRefs,
    turns: dict[int, Turn],
    ship_ids: dict[int, int],
) -> None:
    """Orders (their ids remapped), offers, readiness, phase records, reports and blockades."""
    fleet_ids = dict(refs.fleet)
    Order.objects.bulk_create(
        [
            Order(
                campaign=campaign,
                turn=turns[o["turn"]],
                nation=nations[o["nation"]],
                position=o["position"],
                kind=o["kind"],
                body=order_body_renamed(o["body"], fleet_ids, ship_ids),
                fleet_id=refs.fleet_id(o["fleet"]),
                outcome=o["outcome"],
                outcome_note=o["outcome_note"],
                late_by=o.get("late_by", ""),
                late_reason=o.get("late_reason", ""),
            )
            for o in doc.get("orders", [])
        ]
    )
    DiplomaticOffer.objects.bulk_create([diplomatic_offer(o, refs) for o in doc.get("offers", [])])
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
    Blockade.objects.bulk_create([blockade(b, refs) for b in doc.get("blockades", [])])
