"""Putting a campaign's live rows back as a turn's snapshot holds them, in place (issue 11, revert).

A snapshot (``Turn.snapshot``) is the campaign's export as the turn opened (campaign.backup.document). The
restore keeps every row that existed then under its own id — fleets and ships are never deleted by a
turn, so a fleet named in an order, a report or an old battle is still that fleet — and writes back its
fields; rows made after the snapshot (a ship laid down, a fleet formed, a unit raised) are deleted.
Treasuries, ports, relations, admirals, offers and blockades come back with them. The ledger keeps
its lines up to the snapshot's last one.

The caller (campaign.gm.repair.services) holds the transaction and the campaign's lock, has archived
what is removed, and deals with the turns, orders, battles and reports themselves; it puts the turn's
table battles back as they were at its deadline with :func:`table_battles_reopened`. Dispatches are
the players' own words, not the game's state: a revert leaves them as they are.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any, TypeVar

from django.db import models
from django.db.models import Max, Q

from battles.models import TabletopBattle
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
from campaign.models import Campaign, DiplomaticOffer, LedgerEntry, Nation, Relation, Turn
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
    orders the caller keeps, whose bodies name fleets and ships by id). Every row is rebuilt from its
    record by the import's own builders (campaign.backup.rows)."""
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
    refs = RowRefs(
        campaign_id=campaign.pk,
        nation={c: n.pk for c, n in nations.items()},
        zone=zones,
        port={key: p.pk for key, p in ports.items()},
    )
    _restore_campaign_row(campaign, snapshot)
    _restore_nations(snapshot, nations)
    _restore_relations(campaign, snapshot, refs.nation)
    _restore_ports(snapshot, ports, refs)

    units = _upsert(LandUnit, campaign, snapshot["land_units"], lambda u: land_unit_fields(u, refs))
    fleets = _upsert(Fleet, campaign, snapshot["fleets"], lambda f: fleet_fields(f, refs))
    refs = replace(refs, fleet=fleets)
    cargo = {u["transport"]: units.of(u["id"]) for u in snapshot["land_units"] if u["transport"] is not None}
    ships = _upsert(Ship, campaign, snapshot["ships"], lambda s: ship_fields(s, refs, cargo_id=cargo.get(s["id"])))
    # Rows made after the snapshot go, ships first (a ship holds its fleet and its cargo).
    Ship.objects.filter(campaign=campaign).exclude(pk__in=set(ships.values())).delete()
    Blockade.objects.filter(campaign=campaign).delete()  # put back from the snapshot below
    Fleet.objects.filter(campaign=campaign).exclude(pk__in=set(fleets.values())).delete()
    LandUnit.objects.filter(campaign=campaign).exclude(pk__in=set(units.values())).delete()
    _restore_admirals(campaign, snapshot, refs)
    DiplomaticOffer.objects.filter(campaign=campaign).delete()
    DiplomaticOffer.objects.bulk_create([diplomatic_offer(o, refs) for o in snapshot.get("offers", [])])
    Blockade.objects.bulk_create([blockade(b, refs) for b in snapshot.get("blockades", [])])
    _restore_ledger(campaign, snapshot, refs)
    return fleets, ships


def _restore_campaign_row(campaign: Campaign, snapshot: dict[str, Any]) -> None:
    """The calendar goes back; the GM's settings (status, seed, ruleset, house options) stay as they are
    now: they are the GM's to change, not the game's state."""
    c = snapshot["campaign"]
    Campaign.objects.filter(pk=campaign.pk).update(year=c["year"], season=c["season"], turn_number=c["turn"])
    campaign.year, campaign.season, campaign.turn_number = c["year"], c["season"], c["turn"]


def _restore_nations(snapshot: dict[str, Any], nations: dict[str, Nation]) -> None:
    rows = []
    fields: dict[str, Any] = {}
    for n in snapshot["nations"]:
        nation = nations[n["code"]]
        fields = nation_state_fields(n)
        for name, value in fields.items():
            setattr(nation, name, value)
        rows.append(nation)
    Nation.objects.bulk_update(rows, list(fields))


def _restore_relations(campaign: Campaign, snapshot: dict[str, Any], code: Mapping[str, int]) -> None:
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


def _restore_ports(snapshot: dict[str, Any], ports: dict[str, Port], refs: RowRefs) -> None:
    rows = []
    fields: dict[str, Any] = {}
    for p in snapshot["ports"]:
        port = ports[p["key"]]
        fields = port_state_fields(p, refs)
        for name, value in fields.items():
            setattr(port, name, value)
        rows.append(port)
    Port.objects.bulk_update(rows, list(fields))


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
            # A negative id is a row the snapshot's campaign had lost before it was imported
            # (campaign.backup.snapshots): it is made afresh.
            reuse = 0 < d["id"] <= highest and d["id"] not in taken
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


def _restore_admirals(campaign: Campaign, snapshot: dict[str, Any], refs: RowRefs) -> None:
    """Admirals carry no id in a snapshot: matched by nation and name, in the order of their ids (a turn
    never makes or deletes one); each put back in his port or in command of his fleet."""
    current: dict[tuple[int, str], list[Admiral]] = defaultdict(list)
    for admiral in Admiral.objects.filter(campaign=campaign).order_by("pk"):
        current[(admiral.nation_id, admiral.name)].append(admiral)
    kept: set[int] = set()
    commands: list[tuple[int, int]] = []
    for a in snapshot["admirals"]:
        nation_id = refs.nation[a["nation"]]
        same = current[(nation_id, a["name"])]
        admiral = same.pop(0) if same else Admiral(campaign=campaign, nation_id=nation_id, name=a["name"])
        for name, value in admiral_state_fields(a, refs).items():
            setattr(admiral, name, value)
        admiral.save()
        kept.add(admiral.pk)
        if a["fleet"] is not None:
            commands.append((refs.fleet[a["fleet"]], admiral.pk))
    Admiral.objects.filter(campaign=campaign).exclude(pk__in=kept).delete()
    for fleet_id, admiral_id in commands:
        Fleet.objects.filter(pk=fleet_id).update(admiral_id=admiral_id)


def _ledger_line(nation: str, turn: int, kind: str, amount: int, balance: int) -> tuple[str, int, str, int, int]:
    return (nation, turn, kind, amount, balance)


def _restore_ledger(campaign: Campaign, snapshot: dict[str, Any], refs: RowRefs) -> None:
    """The ledger is append-only: the snapshot's lines are the first ones of today's, and the lines after
    them are what the revert takes back (archived by the caller). If they ever differ (a ledger edited
    by hand), the snapshot's lines are written afresh."""
    names = {pk: c for c, pk in refs.nation.items()}
    lines = list(LedgerEntry.objects.filter(campaign=campaign).order_by("id"))
    wanted = [_ledger_line(e["nation"], e["turn"], e["kind"], e["amount"], e["balance"]) for e in snapshot["ledger"]]
    head = [_ledger_line(names[e.nation_id], e.turn, e.kind, e.amount, e.balance) for e in lines[: len(wanted)]]
    if head == wanted:
        LedgerEntry.objects.filter(pk__in=[e.pk for e in lines[len(wanted) :]]).delete()
        return
    LedgerEntry.objects.filter(campaign=campaign).delete()
    LedgerEntry.objects.bulk_create([ledger_entry(e, refs) for e in snapshot["ledger"]])


def table_battles_reopened(*, turn: Turn) -> None:
    """The table battles as they stood at turn ``turn``'s deadline, before phase 4 took any up (issue 15).

    Those of later turns go (their turns go too); of this turn, those the house rule sent go (phase 4
    made them, and will again), and each one phase 4 held at the table or found without a battle is
    marked again, without the result, confirmations, dispute and pack dice its resolution gave it (the
    revert's archived export keeps them). What was decided before the deadline — asked for, declined,
    to be fought by the dice — stays. Called before the turn's engagements are deleted: a battle held
    at the table may not lose its engagement (``tabletop_at_table_has_its_engagement``).
    """
    TabletopBattle.objects.filter(campaign_id=turn.campaign_id, turn__number__gt=turn.number).delete()
    TabletopBattle.objects.filter(turn=turn, origin=TabletopBattle.Origin.HOUSE_RULE).delete()
    TabletopBattle.objects.filter(turn=turn).filter(
        Q(engagement__isnull=False) | Q(status=TabletopBattle.Status.NO_BATTLE)
    ).update(
        status=TabletopBattle.Status.MARKED,
        engagement=None,
        result={},
        entered_by="",
        confirmed=[],
        dispute="",
        pack={},
        note="",
    )
