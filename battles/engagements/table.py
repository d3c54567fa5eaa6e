"""Battles fought on the table (issue 15): holding one back in phase 4, checking the result a group
enters, applying it exactly as the dice's result would be, and falling back to the dice.

* :func:`table_claim` — called by phase 4 when an engagement comes to a battle (both sides can form a
  line; for a besieged port, after the contact roll brought them to action): the first battle at a
  place marked "to the table", or any battle with more ships than the house rule ``table.above_ships``,
  is held back. Its engagement goes ``at_table``; the zone's later engagements wait behind it.
* :func:`table_result_check` — a result as entered (each ship's fate, who captured it, the admirals
  lost, who held the field) turned into the fates :func:`~battles.engagements.applying.fates_apply`
  writes, or refused with a :class:`TableResultRefused` naming what cannot be.
* :func:`table_result_apply` — the approved result written through the same writer as a battle
  fought by the dice (:mod:`battles.results` underneath): prizes, lost admirals, retreats, the
  Battle row and the turn-report events; the engagement is then fought.
* :func:`table_fall_back` — the GM's choice to fight it with the usual dice after all: the engagement
  is pending again, and phase 4 fights it exactly as if it had never gone to the table (same seed).

The side that held the field is the winner; the other side retires with what it has left (beaten if
nothing is left that is not sunk, disabled or captured); neither: no winner, and both stay (§5 "if
both held ... no winner").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from battles.engagements.applying import ShipFate, fates_apply
from battles.engagements.loading import FightingSide, ZoneState, battle_side_json, engagement_sides_load
from battles.engagements.ordering import BEATEN, HELD, LEAVING, RETIRED
from battles.models import Battle, Engagement, TabletopBattle
from battles.results import battle_record
from battles.selectors import alliances_now
from fleets.models import Admiral, Ship
from rules.ruleset import Ruleset

#: The fates a table's result may give a ship.
FATES = ("intact", "damaged", "disabled", "sunk", "captured")
#: The conditions a prize may come in.
TAKEN_IN = ("ready", "damaged", "disabled")
#: The keys of a result and of each ship's entry in it: anything else is refused, never stored.
RESULT_KEYS = ("ships", "admirals_lost", "held_field")
SHIP_KEYS = ("ship", "fate", "captured_by", "taken_in")


class TableResultRefused(ValueError):
    """A result that cannot be: ``field`` names the part (``ships[2].captured_by``), the message says
    what was wrong and what is allowed. Nothing was changed."""

    def __init__(self, message: str, *, field: str, code: str = "invalid") -> None:
        super().__init__(message)
        self.field = field
        self.code = code


def table_rows_lock(*, turn_id: int, engagements: Sequence[Engagement]) -> list[TabletopBattle]:
    """The turn's table markings at the places of ``engagements`` (their zones' keys and ports), locked
    for :func:`table_claim`: one query for a batch of zones, and only those places, so that battle
    tasks of one turn fighting other zones do not wait for each other.

    Only the markings are locked (``of=("self",)``) and they are ordered by their own columns: the
    model's default ordering joins the turn, and a plain FOR UPDATE over that join also locked the turn
    row, which every battle task holds FOR KEY SHARE — two table battles in one turn deadlocked."""
    places = {e.place for e in engagements} | {e.port.key for e in engagements if e.port is not None}
    return list(
        TabletopBattle.objects.select_for_update(of=("self",))
        .filter(turn_id=turn_id, kind=TabletopBattle.Kind.BATTLE, place__in=sorted(places))
        .order_by("place", "pk")
    )


def table_claim(e: Engagement, sides: Sequence[FightingSide], ruleset: Ruleset, marked: list[TabletopBattle]) -> bool:
    """Hold ``e`` back for the table if its place is marked (and nothing there went to the table yet)
    or the battle is larger than the house rule allows (RULES.md has no table; issue 15). ``marked``:
    the rows :func:`table_rows_lock` read for the batch; a row made here by the house rule joins it."""
    # A port's marking covers every engagement at that port, a sally too (recorded at its zone's key).
    places = [e.place] + ([e.port.key] if e.port is not None and e.port.key != e.place else [])
    rows = [r for r in marked if r.place in places]
    row = min(rows, key=lambda r: (r.status != TabletopBattle.Status.MARKED, r.place != e.place), default=None)
    above = ruleset["table.above_ships"]
    large = bool(above) and sum(len(s.all_ships()) for s in sides) > above
    if row is None:
        if not large:
            return False
        row = TabletopBattle(
            campaign_id=e.campaign_id,
            turn_id=e.turn_id,
            place=e.place,
            sea_zone_id=e.sea_zone_id,
            port_id=e.port_id,
            origin=TabletopBattle.Origin.HOUSE_RULE,
            status=TabletopBattle.Status.MARKED,
        )
        marked.append(row)
    elif large and row.status in (TabletopBattle.Status.REQUESTED, TabletopBattle.Status.DECLINED):
        row.status = TabletopBattle.Status.MARKED
        row.note = f"More than {above} ships: to the table by the house rule."
    if row.status != TabletopBattle.Status.MARKED or row.engagement_id is not None:
        return False
    row.engagement = e
    if e.port_id is not None:
        row.port_id = e.port_id  # a fight at a port (a sally too): inshore, whatever the marking named
    row.status = TabletopBattle.Status.WAITING
    row.save()
    return True


def engagements_at_table(*, turn_id: int) -> bool:
    """Whether a battle of the turn is held at the table (phase 4 waits for it)."""
    return Engagement.objects.filter(turn_id=turn_id, status=Engagement.Status.AT_TABLE).exists()


@dataclass
class TableBattleSides:
    """A held-back battle's two sides as they stand, with what the zone's earlier fights changed."""

    engagement: Engagement
    sides: list[FightingSide]
    state: ZoneState
    where: str

    def ships(self) -> list[tuple[FightingSide, Ship]]:
        """Every ship of both sides, side 0 first, line first (the order the results are written)."""
        return [(side, ship) for side in self.sides for ship in [*side.line, *side.others]]

    def admirals(self) -> list[tuple[FightingSide, Admiral]]:
        out = []
        for side in self.sides:
            for fleet in side.fleets:
                admiral = fleet.admiral
                if admiral is not None and admiral.status == Admiral.Status.ACTIVE:
                    out.append((side, admiral))
        return out


def table_sides(engagement: Engagement) -> TableBattleSides:
    """Load a held-back engagement's sides as phase 4 would fight them now."""
    campaign = engagement.turn.campaign
    state = ZoneState(alliances=alliances_now(campaign=campaign))
    earlier = Engagement.objects.filter(
        turn_id=engagement.turn_id, sea_zone_id=engagement.sea_zone_id, status=Engagement.Status.FOUGHT
    )
    for fought in earlier:
        state.worsted |= {int(f) for f, d in fought.result.get("fleets", {}).items() if d["outcome"] in LEAVING}
    sides = engagement_sides_load(engagement, state, campaign.ruleset)
    where = engagement.port.name if engagement.port is not None else engagement.sea_zone.name
    return TableBattleSides(engagement, sides, state, where)


@dataclass(frozen=True)
class CheckedResult:
    """A result that can be: each ship's fate, the admirals lost, each side's outcome, the winner."""

    fates: dict[int, ShipFate]
    admirals_lost: set[int]
    outcome: tuple[str, str]
    winner: int | None


def table_result_check(battle: TableBattleSides, body: Mapping[str, Any]) -> CheckedResult:
    """Check a result as entered against the battle as it stands; raise :class:`TableResultRefused`."""
    _result_keys_check(body)
    fates = _ship_fates_check(battle, body.get("ships"))
    held = body.get("held_field")
    standing = _held_field_check(battle, held, fates)
    lost = body.get("admirals_lost") or []
    _admirals_lost_check(battle, lost)
    outcome = [HELD, HELD]
    if held is not None:
        loser = 1 - held
        outcome[loser] = RETIRED if standing[loser] else BEATEN
    return CheckedResult(fates, set(lost), (outcome[0], outcome[1]), held)


def _result_keys_check(body: Mapping[str, Any]) -> None:
    """Refuse a result that is not an object or has keys a result does not have (never stored)."""
    if not isinstance(body, Mapping):
        raise TableResultRefused("A result is an object with ships, admirals_lost and held_field.", field="result")
    unknown = sorted(str(k) for k in body if k not in RESULT_KEYS)
    if unknown:
        raise TableResultRefused(
            f"{', '.join(unknown)}: not part of a result; a result has only {', '.join(RESULT_KEYS)}.",
            field=unknown[0],
            code="unknown_key",
        )


def _ship_fates_check(battle: TableBattleSides, rows: object) -> dict[int, ShipFate]:
    """The result's ``ships``: one entry for each ship of the battle, each a known ship given once with
    a fate it can have; returns the fates by ship id."""
    present = battle.ships()
    by_id = {ship.pk: (side, ship) for side, ship in present}
    if not isinstance(rows, list):
        raise TableResultRefused("ships: give a list with one entry for each ship in the battle.", field="ships")
    if len(rows) > len(present):
        raise TableResultRefused(
            f"ships: {len(rows)} ships given, but only {len(present)} fought in this battle.", field="ships"
        )
    fates: dict[int, ShipFate] = {}
    for i, row in enumerate(rows):
        where = f"ships[{i}]"
        ref = _ship_entry_check(row, where, by_id, fates)
        side, ship = by_id[ref]
        fates[ref] = _fate(battle, side, ship, row, where)
    missing = [s.name for _, s in present if s.pk not in fates]
    if missing:
        raise TableResultRefused(
            f"ships: no fate given for {', '.join(missing)}; every ship in the battle needs one.",
            field="ships",
            code="missing",
        )
    return fates


def _ship_entry_check(
    row: object, where: str, by_id: Mapping[int, tuple[FightingSide, Ship]], fates: Mapping[int, ShipFate]
) -> int:
    """One entry of ``ships`` (at ``where``): its keys, a ship of the battle not given before, a known
    fate; returns the ship's id."""
    if not isinstance(row, Mapping):
        raise TableResultRefused(f"{where}: each entry is an object with ship and fate.", field=where)
    extra = sorted(str(k) for k in row if k not in SHIP_KEYS)
    if extra:
        raise TableResultRefused(
            f"{where}.{extra[0]}: not part of a ship's entry; it has only {', '.join(SHIP_KEYS)}.",
            field=f"{where}.{extra[0]}",
            code="unknown_key",
        )
    ref = row.get("ship")
    if isinstance(ref, bool) or not isinstance(ref, int) or ref not in by_id:
        names = ", ".join(s.name for _, s in by_id.values())
        raise TableResultRefused(
            f"{where}.ship: {ref!r} is not a ship of this battle; its ships are {names}.",
            field=f"{where}.ship",
            code="unknown_ship",
        )
    _, ship = by_id[ref]
    if ref in fates:
        raise TableResultRefused(f"{where}.ship: {ship.name} is given twice.", field=f"{where}.ship", code="twice")
    fate = row.get("fate")
    if fate not in FATES:
        raise TableResultRefused(
            f"{where}.fate: {fate!r} is not a fate; use one of {', '.join(FATES)}.", field=f"{where}.fate"
        )
    return ref


def _held_field_check(battle: TableBattleSides, held: Any, fates: Mapping[int, ShipFate]) -> list[bool]:
    """The result's ``held_field`` (0, 1 or None), refused if that side has nothing left standing;
    returns whether each side has a ship left standing."""
    if held is not None and (isinstance(held, bool) or held not in (0, 1)):
        raise TableResultRefused(
            "held_field: 0 (the first side), 1 (the second side) or null (neither: no winner).", field="held_field"
        )
    standing = [_left_standing(battle.sides[k], fates) for k in (0, 1)]
    if held is not None and not standing[held]:
        raise TableResultRefused(
            f"held_field: the {battle.sides[held].label} side has no ship left that is not sunk, disabled or "
            "captured; it cannot have held the field.",
            field="held_field",
            code="impossible",
        )
    return standing


def _admirals_lost_check(battle: TableBattleSides, lost: object) -> None:
    """The result's ``admirals_lost``: a list of the battle's admirals' ids, each once."""
    admirals = {a.pk: a for _, a in battle.admirals()}
    if not isinstance(lost, list):
        raise TableResultRefused("admirals_lost: a list of the admirals' ids.", field="admirals_lost")
    for j, ref in enumerate(lost):
        if isinstance(ref, bool) or not isinstance(ref, int) or ref not in admirals:
            known = ", ".join(f"{a.name} ({pk})" for pk, a in admirals.items()) or "none"
            raise TableResultRefused(
                f"admirals_lost[{j}]: {ref!r} is not an admiral in this battle; its admirals are {known}.",
                field=f"admirals_lost[{j}]",
                code="unknown_admiral",
            )
        if ref in lost[:j]:
            raise TableResultRefused(
                f"admirals_lost[{j}]: {admirals[ref].name} is listed twice; list each admiral lost once.",
                field=f"admirals_lost[{j}]",
                code="twice",
            )


def _fate(battle: TableBattleSides, side: FightingSide, ship: Ship, row: Mapping[str, Any], where: str) -> ShipFate:
    fate = str(row["fate"])
    by, taken = row.get("captured_by"), row.get("taken_in")
    if fate != "captured":
        if by not in (None, ""):
            raise TableResultRefused(
                f"{where}.captured_by: only a captured ship has a captor ({ship.name} is {fate}).",
                field=f"{where}.captured_by",
            )
        # A ship that started damaged and came through unhurt is still damaged (as the dice report it).
        if fate == "intact" and ship.condition == Ship.Condition.DAMAGED and ship in side.line:
            fate = "damaged"
        if fate == "damaged" and ship.condition == Ship.Condition.DISABLED:
            raise TableResultRefused(
                f"{where}.fate: {ship.name} was already disabled; it cannot come out merely damaged.",
                field=f"{where}.fate",
                code="impossible",
            )
        return ShipFate(fate)
    enemy = battle.sides[1 - side.index]
    present = {f.nation.code: f.nation.name for f in enemy.fleets}
    codes = sorted(present)
    if by not in codes:
        there = " or ".join(f"{present[c]} ({c})" for c in codes)
        own = f" ({by} fought on its own side)" if by in {f.nation.code for f in side.fleets} else ""
        raise TableResultRefused(
            f"{where}.captured_by: {ship.name} can only be captured by a nation of the other side that was there: "
            f"{there}; {by!r} was not{own}.",
            field=f"{where}.captured_by",
            code="captor_not_there",
        )
    if taken not in (None, "") and taken not in TAKEN_IN:
        raise TableResultRefused(
            f"{where}.taken_in: {taken!r}; a prize is taken in one of {', '.join(TAKEN_IN)} (empty: as it started).",
            field=f"{where}.taken_in",
        )
    lead_code = enemy.lead.nation.code
    fleet = enemy.lead if by == lead_code else next(f for f in enemy.fleets if f.nation.code == by)
    return ShipFate("captured", enemy.index, fleet.pk, str(taken) if taken else None)


def _left_standing(side: FightingSide, fates: Mapping[int, ShipFate]) -> bool:
    return any(fates[s.pk].fate in ("intact", "damaged") for s in side.all_ships())


@transaction.atomic
def table_result_apply(*, table: TabletopBattle, body: Mapping[str, Any], note: str = "") -> Battle:
    """Write an approved result: the Battle row, every ship's fate, the admirals lost and the
    retreats, through the writer the dice's results use; the engagement is fought. Raises
    :class:`TableResultRefused` (nothing written) if the result no longer fits the battle."""
    if table.engagement_id is None:
        raise TableResultRefused("This battle was never held at the table.", field="result", code="not_waiting")
    engagement = (
        Engagement.objects.select_for_update(of=("self",))
        .select_related("turn__campaign", "sea_zone", "port")
        .get(pk=table.engagement_id)
    )
    if engagement.status != Engagement.Status.AT_TABLE:
        raise TableResultRefused("This battle is no longer waiting at the table.", field="result", code="not_waiting")
    loaded = table_sides(engagement)
    checked = table_result_check(loaded, body)
    sides = loaded.sides
    fought = {code for side in sides for code in side.nations}
    report = _table_report(table, engagement, loaded, checked, note)
    battle = battle_record(
        campaign_id=engagement.campaign_id,
        turn_id=engagement.turn_id,
        kind=Battle.Kind.FLEET_ACTION,
        sea_zone_id=engagement.sea_zone_id,
        port_id=engagement.port_id,
        place=engagement.place,
        sequence=engagement.sequence,
        seed=None,
        sides=[battle_side_json(s) for s in sides],
        winner=checked.winner,
        report=report,
        seen_by=fought | {ally for code in fought for ally in loaded.state.alliances.get(code, ())},
    )
    engagement.battle = battle
    engagement.result = {
        "events": list(engagement.result.get("events", [])),
        "strategic_dice": list(engagement.result.get("strategic_dice", [])),
        "fleets": {},
        "outcome": None,
        "winner": None,
        "table": engagement.result.get("table") or {},
    }
    fates_apply(
        engagement,
        sides,
        outcome=checked.outcome,
        winner=checked.winner,
        days=1,
        fates=checked.fates,
        admirals_lost=checked.admirals_lost,
        battle=battle,
        state=loaded.state,
        where=loaded.where,
    )
    engagement.status = Engagement.Status.FOUGHT
    engagement.fought_at = timezone.now()
    engagement.fought_by = "table"
    engagement.save(update_fields=["status", "fought_at", "fought_by", "battle", "result"])
    return battle


@transaction.atomic
def table_fall_back(*, table: TabletopBattle) -> None:
    """The battle is fought by the usual dice instead: its engagement is pending again (phase 4
    fights it with the seed it always had), and the place is no longer marked."""
    if table.engagement_id is not None:
        Engagement.objects.filter(pk=table.engagement_id, status=Engagement.Status.AT_TABLE).update(
            status=Engagement.Status.PENDING, result={}
        )


def _table_report(
    table: TabletopBattle, engagement: Engagement, loaded: TableBattleSides, checked: CheckedResult, note: str
) -> dict[str, Any]:
    """The stored report of a battle fought on the table (``TabletopReport`` in the API's schema)."""
    return {
        "type": "tabletop",
        "seed": None,
        "rounds": 0,
        "winner": checked.winner,
        "outcome": list(checked.outcome),
        "engagement": engagement.kind,
        "contact": (engagement.result.get("table") or {}).get("contact"),
        "ships": [
            {
                "side": side.index,
                "name": ship.name,
                "ref": ship.pk,
                "class": ship.ship_class,
                "crew": ship.crew,
                "fate": checked.fates[ship.pk].fate,
                "exploded": False,
                "captured_by": checked.fates[ship.pk].captor,
                # The line as phase 4 forms it: a frigate beside ships of the line is not in it (issue 29).
                "in_line": ship in side.line,
            }
            for side, ship in loaded.ships()
        ],
        "dice": list((table.pack or {}).get("dice", [])),
        # Who entered, confirmed and disputed the result, and what the GM decided (issue 29).
        "tabletop": {"entered_by": table.entered_by, "note": note, "history": list(table.history or [])},
    }
