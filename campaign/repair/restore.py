"""Putting a campaign's live rows back as a turn's snapshot holds them, in place (issue 11, revert).

A snapshot (``Turn.snapshot``) is the campaign's export as the turn opened (campaign.backup). The
restore keeps every row that existed then under its own id — fleets and ships are never deleted by a
turn, so a fleet named in an order, a report or an old battle is still that fleet — and writes back its
fields; rows made after the snapshot (a ship laid down, a fleet formed, a unit raised) are deleted.
Treasuries, ports, relations, admirals, offers and blockades come back with them. The ledger keeps
its lines up to the snapshot's last one.

The caller (campaign.repair.services) holds the transaction and the campaign's lock, has archived
what is removed, and deals with the turns, orders, battles and reports themselves.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any, TypeVar

from django.db import models
from django.db.models import Max

from campaign.models import Campaign, DiplomaticOffer, LedgerEntry, Nation, Relation
from fleets.models import Admiral, Blockade, Fleet, Ship
from ports.models import LandUnit, Port, SeaZone

M = TypeVar("M", bound=models.Model)


class RestoreError(ValueError):
    """The snapshot cannot be laid over the campaign as it stands (it names what does not fit)."""


class IdMap(dict[int, int]):
    """A snapshot's id of a row → the id the row has now (the same, unless it had to be re-made)."""

    def of(self, doc_id: int | None) -> int | None:
        return None if doc_id is None else self.get(doc_id, doc_id)

    @property
    def identity(self) -> bool:
        return all(k == v for k, v in self.items())


def state_restore(*, campaign: Campaign, snapshot: dict[str, Any]) -> tuple[IdMap, IdMap]:
    """Lay the snapshot's state over the campaign's rows; returns the fleet and ship id maps (for the
    orders the caller keeps, whose bodies name fleets and ships by id)."""
    nations = {n.code: n for n in Nation.objects.filter(campaign=campaign)}
    missing = sorted({n["code"] for n in snapshot["nations"]} - set(nations))
    if missing:
        raise RestoreError(f"the snapshot has nations this campaign no longer has: {', '.join(missing)}.")
    zones = {z.key: z.pk for z in SeaZone.objects.filter(campaign=campaign)}
    ports = {p.key: p for p in Port.objects.filter(campaign=campaign)}
    missing = sorted({p["key"] for p in snapshot["ports"]} - set(ports)) + sorted(
        {z["key"] for z in snapshot["sea_zones"]} - set(zones)
    )
    if missing:
        raise RestoreError(f"the snapshot has places this campaign no longer has: {', '.join(missing)}.")
    port_ids = {key: p.pk for key, p in ports.items()}

    def port_id(key: str | None) -> int | None:
        return port_ids[key] if key else None

    def zone_id(key: str | None) -> int | None:
        return zones[key] if key else None

    code = {c: n.pk for c, n in nations.items()}
    _restore_campaign_row(campaign, snapshot)
    _restore_nations(snapshot, nations)
    _restore_relations(campaign, snapshot, code)
    _restore_ports(snapshot, ports, code)

    units = _upsert(
        LandUnit,
        campaign,
        snapshot["land_units"],
        lambda u: {
            "campaign_id": campaign.pk,
            "nation_id": code[u["nation"]],
            "siege_train": u["siege_train"],
            "state": u["state"],
            "port_id": port_id(u["port"]),
            "out_of_supply_turns": u["out_of_supply_turns"],
            "raised_turn": u["raised_turn"],
        },
    )
    fleets = _upsert(
        Fleet,
        campaign,
        snapshot["fleets"],
        lambda f: {
            "campaign_id": campaign.pk,
            "nation_id": code[f["nation"]],
            "name": f["name"],
            "admiral_id": None,  # given back below, once every admiral is where the snapshot has him
            "sea_zone_id": zones[f["sea_zone"]],
            "port_id": port_id(f["port"]),
            "crew": f["crew"],
            "posture": f["posture"],
            "blockade_port_id": port_id(f["blockade_port"]),
            "after_battle": f["after_battle"],
            "retreat_port_id": port_id(f["retreat_port"]),
            "retreat_zone_id": zone_id(f["retreat_zone"]),
            "left_port_turn": f["left_port_turn"],
            "in_supply": f["in_supply"],
            "out_of_supply_turns": f["out_of_supply_turns"],
            "created_turn": f["created_turn"],
        },
    )
    cargo = {u["transport"]: units.of(u["id"]) for u in snapshot["land_units"] if u["transport"] is not None}
    ships = _upsert(
        Ship,
        campaign,
        snapshot["ships"],
        lambda s: {
            "campaign_id": campaign.pk,
            "name": s["name"],
            "ship_class": s["class"],
            "nation_id": code[s["nation"]],
            "original_nation_id": code[s["original_nation"]],
            "condition": s["condition"],
            "in_ordinary": s["in_ordinary"],
            "crew": s["crew"],
            "fleet_id": fleets.of(s["fleet"]),
            "building_turns_left": s["building_turns_left"],
            "building_port_id": port_id(s["building_port"]),
            "line_position": s["line_position"],
            "repair_port_id": port_id(s.get("repair_port")),
            "repair_ready_turn": s.get("repair_ready_turn"),
            "cargo_id": cargo.get(s["id"]),
            "laid_down_turn": s["laid_down_turn"],
            "lost_turn": s["lost_turn"],
            "source": s["source"],
        },
    )
    # Rows made after the snapshot go, ships first (a ship holds its fleet and its cargo).
    Ship.objects.filter(campaign=campaign).exclude(pk__in=set(ships.values())).delete()
    Blockade.objects.filter(campaign=campaign).delete()  # put back from the snapshot below
    Fleet.objects.filter(campaign=campaign).exclude(pk__in=set(fleets.values())).delete()
    LandUnit.objects.filter(campaign=campaign).exclude(pk__in=set(units.values())).delete()
    _restore_admirals(campaign, snapshot, code, port_id, fleets)
    _restore_offers(campaign, snapshot, code)
    Blockade.objects.bulk_create(
        [
            Blockade(
                campaign=campaign,
                turn=b["turn"],
                port_id=port_ids[b["port"]],
                fleet_id=fleets.of(b["fleet"]) or 0,
                lifted=b["lifted"],
            )
            for b in snapshot.get("blockades", [])
        ]
    )
    _restore_ledger(campaign, snapshot, code)
    return fleets, ships


def _restore_campaign_row(campaign: Campaign, snapshot: dict[str, Any]) -> None:
    """The calendar goes back; the GM's settings (status, seed, ruleset, house options) stay as they are
    now: they are the GM's to change, not the game's state."""
    c = snapshot["campaign"]
    Campaign.objects.filter(pk=campaign.pk).update(year=c["year"], season=c["season"], turn_number=c["turn"])
    campaign.year, campaign.season, campaign.turn_number = c["year"], c["season"], c["turn"]


def _restore_nations(snapshot: dict[str, Any], nations: dict[str, Nation]) -> None:
    rows = []
    for n in snapshot["nations"]:
        nation = nations[n["code"]]
        nation.treasury = n["treasury"]
        nation.base_income = n["base_income"]
        nation.crew = n["crew"]
        nation.unpaid_upkeep_turn = n.get("unpaid_upkeep_turn")
        rows.append(nation)
    Nation.objects.bulk_update(rows, ["treasury", "base_income", "crew", "unpaid_upkeep_turn"])


def _restore_relations(campaign: Campaign, snapshot: dict[str, Any], code: dict[str, int]) -> None:
    """Each pair as the snapshot has it; a pair with no row then (a war declared since) loses its row."""
    current = {frozenset((r.a_id, r.b_id)): r for r in Relation.objects.filter(campaign=campaign)}
    for r in snapshot["relations"]:
        a, b = sorted((code[r["a"]], code[r["b"]]))
        row = current.pop(frozenset((a, b)), None)
        if row is None:
            Relation.objects.create(campaign=campaign, a_id=a, b_id=b, state=r["state"])
        elif row.state != r["state"]:
            Relation.objects.filter(pk=row.pk).update(state=r["state"])
    Relation.objects.filter(pk__in=[row.pk for row in current.values()]).delete()


def _restore_ports(snapshot: dict[str, Any], ports: dict[str, Port], code: dict[str, int]) -> None:
    fields = [
        "owner_id",
        "fortification",
        "capacity",
        "ep_value",
        "dockyard",
        "gibraltar",
        "batteries",
        "commander",
        "taken_turn",
        "captor_id",
        "siege_turns",
    ]
    rows = []
    for p in snapshot["ports"]:
        port = ports[p["key"]]
        port.owner_id = code[p["owner"]]
        port.fortification = p["fortification"]
        port.capacity = p["capacity"]
        port.ep_value = p["ep_value"]
        port.dockyard = p["dockyard"]
        port.gibraltar = p["gibraltar"]
        port.batteries = p["batteries"]
        port.commander = p["commander"] or ""
        port.taken_turn = p["taken_turn"]
        port.captor_id = code[p["captor"]] if p["captor"] else None
        port.siege_turns = p["siege_turns"]
        rows.append(port)
    Port.objects.bulk_update(rows, fields)


def _upsert(model: type[M], campaign: Campaign, docs: Iterable[dict[str, Any]], values: Any) -> IdMap:
    """Each snapshot row written back under its id; a row that is gone is made again — under its old id
    when that id is free and below the table's highest (so the id sequence never hands it out again),
    otherwise (a snapshot from a file imported from another database) under a new one."""
    docs = list(docs)
    ours = set(model._default_manager.filter(campaign=campaign).values_list("pk", flat=True))
    ids = IdMap()
    gone = [d for d in docs if d["id"] not in ours]
    if gone:
        taken = set(model._default_manager.filter(pk__in=[d["id"] for d in gone]).values_list("pk", flat=True))
        highest = model._default_manager.aggregate(top=Max("pk"))["top"] or 0
        for d in gone:
            reuse = d["id"] not in taken and d["id"] <= highest
            row = model._default_manager.create(**({"pk": d["id"]} if reuse else {}), **values(d))
            ids[d["id"]] = row.pk
    # Written in a second pass: a value may name a row re-made above (a ship's fleet).
    kept = [d for d in docs if d["id"] in ours]
    rows = []
    for d in kept:
        ids[d["id"]] = d["id"]
        row = model(pk=d["id"], **values(d))
        rows.append(row)
    if rows:
        fields = [f.attname for f in model._meta.concrete_fields if not f.primary_key]
        model._default_manager.bulk_update(rows, fields, batch_size=500)
    return ids


def _restore_admirals(
    campaign: Campaign, snapshot: dict[str, Any], code: dict[str, int], port_id: Any, fleets: IdMap
) -> None:
    """Admirals carry no id in a snapshot: matched by nation and name, in the order of their ids (a turn
    never makes or deletes one); each put back in his port or in command of his fleet."""
    current: dict[tuple[int, str], list[Admiral]] = defaultdict(list)
    for admiral in Admiral.objects.filter(campaign=campaign).order_by("pk"):
        current[(admiral.nation_id, admiral.name)].append(admiral)
    kept: set[int] = set()
    commands: list[tuple[int, int]] = []
    for a in snapshot["admirals"]:
        same = current[(code[a["nation"]], a["name"])]
        admiral = same.pop(0) if same else Admiral(campaign=campaign, nation_id=code[a["nation"]], name=a["name"])
        admiral.grade = a["grade"]
        admiral.status = a["status"]
        admiral.port_id = port_id(a["port"])
        admiral.save()
        kept.add(admiral.pk)
        if a["fleet"] is not None:
            commands.append((fleets.of(a["fleet"]) or 0, admiral.pk))
    Admiral.objects.filter(campaign=campaign).exclude(pk__in=kept).delete()
    for fleet_id, admiral_id in commands:
        Fleet.objects.filter(pk=fleet_id).update(admiral_id=admiral_id)


def _restore_offers(campaign: Campaign, snapshot: dict[str, Any], code: dict[str, int]) -> None:
    DiplomaticOffer.objects.filter(campaign=campaign).delete()
    DiplomaticOffer.objects.bulk_create(
        [
            DiplomaticOffer(
                campaign=campaign,
                from_nation_id=code[o["from"]],
                to_nation_id=code[o["to"]],
                kind=o["kind"],
                turn=o["turn"],
            )
            for o in snapshot.get("offers", [])
        ]
    )


def _ledger_line(nation: str, turn: int, kind: str, amount: int, balance: int) -> tuple[str, int, str, int, int]:
    return (nation, turn, kind, amount, balance)


def _restore_ledger(campaign: Campaign, snapshot: dict[str, Any], code: dict[str, int]) -> None:
    """The ledger is append-only: the snapshot's lines are the first ones of today's, and the lines after
    them are what the revert takes back (archived by the caller). If they ever differ (a ledger edited
    by hand), the snapshot's lines are written afresh."""
    names = {pk: c for c, pk in code.items()}
    lines = list(LedgerEntry.objects.filter(campaign=campaign).order_by("id"))
    wanted = [_ledger_line(e["nation"], e["turn"], e["kind"], e["amount"], e["balance"]) for e in snapshot["ledger"]]
    head = [_ledger_line(names[e.nation_id], e.turn, e.kind, e.amount, e.balance) for e in lines[: len(wanted)]]
    if head == wanted:
        LedgerEntry.objects.filter(pk__in=[e.pk for e in lines[len(wanted) :]]).delete()
        return
    LedgerEntry.objects.filter(campaign=campaign).delete()
    LedgerEntry.objects.bulk_create(
        [
            LedgerEntry(
                campaign=campaign,
                nation_id=code[e["nation"]],
                turn=e["turn"],
                kind=e["kind"],
                amount=e["amount"],
                reason=e["reason"],
                balance=e["balance"],
                unpaid=e["unpaid"],
            )
            for e in snapshot["ledger"]
        ]
    )
