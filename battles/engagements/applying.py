"""Applying a fought engagement's results: the ships' fates, prizes, lost admirals, retreats, and
the events the turn reports will show (RULES.md §4 "After a battle", "Sally"; §0; §7). The writes
themselves are :mod:`battles.results`'s, shared with the port actions of phase 5.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from battles.engagements.loading import FightingSide, ZoneState
from battles.engagements.ordering import BEATEN, BROKE, HELD, LEAVING
from battles.engine import EngagementReport
from battles.models import Battle, Engagement
from battles.port_results import boarding_winners
from battles.results import (
    CAPTURE_FIELDS,
    CONDITION_FIELDS,
    SINK_FIELDS,
    admirals_lose,
    fleets_save,
    ship_capture,
    ship_sink,
    ships_save,
)
from battles.selectors import sol_count
from fleets.models import Admiral, Fleet, Ship
from ports.models import Port, SeaZone
from rules.turn_events import BattleFought, BattleShip, EngagementNoted, FleetNoted, SideCaptured, TurnEvent, counted


def _taken_conditions(report: EngagementReport, start: dict[int, str], names: dict[int, str]) -> dict[int, str]:
    """The condition each line ship was in when it was taken (§4 "in the condition they were taken
    in"): its starting condition worsened by every damaging or disabling die that hit it before."""
    by_name = {name: ref for ref, name in names.items()}
    cond = dict(start)
    for day in report.days:
        for d in day.report.dice():
            effect = d.get("effect")
            if effect in ("damaged", "disabled") and d.get("target") in by_name:
                cond[by_name[d["target"]]] = effect
    return cond


@dataclass(frozen=True, slots=True)
class ShipFate:
    """What became of one ship of a fight, however it was decided (the engine's dice or a table's
    result): ``fate`` is intact, damaged, disabled, sunk or captured; a captured ship went to side
    ``captor``, into its fleet ``captor_fleet`` (None: that side's lead fleet), in the condition
    ``taken_in`` (None: the one it started in)."""

    fate: str
    captor: int | None = None
    captor_fleet: int | None = None
    taken_in: str | None = None


def results_apply(
    e: Engagement,
    sides: list[FightingSide],
    report: EngagementReport,
    names: dict[int, str],
    battle: Battle,
    state: ZoneState,
    where: str,
) -> None:
    """Write a fought engagement's results (module docstring of :mod:`battles.engagements`, "After
    the battle") and its events for the turn reports into ``e.result``."""
    fates = _fates_from_report(sides, report, names)
    gone = {ref for ref, f in fates.items() if f.fate in ("sunk", "captured")}
    lost = _admirals_lost(sides, report, gone)
    fates_apply(
        e,
        sides,
        outcome=report.outcome,
        winner=report.winner,
        days=len(report.days),
        fates=fates,
        admirals_lost=lost,
        battle=battle,
        state=state,
        where=where,
    )


def fates_apply(
    e: Engagement,
    sides: list[FightingSide],
    *,
    outcome: tuple[str, str] | list[str],
    winner: int | None,
    days: int,
    fates: dict[int, ShipFate],
    admirals_lost: set[int],
    battle: Battle,
    state: ZoneState,
    where: str,
) -> None:
    """Write a battle's results — each ship's fate, the admirals lost (ids), each side's outcome,
    the retreats — and its events for the turn reports into ``e.result``. The one path for a battle
    fought by the dice and one fought on the table (issue 15), so both change a campaign alike."""
    result = e.result
    rows = _ship_fates_apply(e.turn.number, sides, fates, state)
    lost_admirals = _admirals_apply(sides, admirals_lost)
    leaving: list[FightingSide] = []
    for side in sides:
        leaves = outcome[side.index] in LEAVING
        for fleet in side.fleets:
            result["fleets"][str(fleet.pk)] = {
                "side": side.index,
                "outcome": outcome[side.index],
                "won": winner == side.index,
            }
            if leaves:
                state.worsted.add(fleet.pk)
        if leaves:
            leaving.append(side)
    _retreat(e, sides, leaving, result)
    result["outcome"] = list(outcome)
    result["winner"] = winner
    result["battle"] = battle.pk
    if e.kind == Engagement.Kind.SALLY:
        blockaders = 1 - int(e.context["sally_side"])
        result["lifts_blockade"] = outcome[blockaders] in LEAVING
        if result["lifts_blockade"]:
            port_name = e.port.name if e.port is not None else e.place
            text = f"The blockade of {port_name} by {sides[blockaders].words} was broken by a sally."
            event_add(result, None, EngagementNoted(text=text, engagement_id=e.pk, code="blockade_broken"))
    everyone = sorted(set(sides[0].nations) | set(sides[1].nations))
    won = "no winner" if winner is None else f"{sides[winner].words} won"
    summary = "; ".join(f"{s.words} {outcome[s.index]}: {_losses(rows, s.index)}" for s in sides)
    event_add(
        result,
        everyone,
        BattleFought(
            text=f"Battle at {where}: {sides[0].words} against {sides[1].words}, {counted(days, 'day')}; {won}. "
            f"{summary}.",
            battle_id=battle.pk,
            engagement_id=e.pk,
            place_key=e.place,
            place_name=where,
            ships=battle_ships(rows),
        ),
    )
    for admiral, side in lost_admirals:
        text = f"Admiral {admiral.name} ({side.words}) was lost with his flagship at {where}."
        event_add(result, everyone, EngagementNoted(text=text, engagement_id=e.pk, code="admiral_lost"))


def _fates_from_report(
    sides: list[FightingSide], report: EngagementReport, names: dict[int, str]
) -> dict[int, ShipFate]:
    """The engine's fates for the line; ships not in the line share their side's fate (§4): taken
    when their side broke or was beaten and the enemy held, else as they were."""
    outcome = report.outcome
    by_ref = {int(r.ref): r for r in report.ships if r.ref is not None}
    taken = _taken_conditions(report, {s.pk: s.condition for side in sides for s in side.line}, names)
    boarders = _boarders(report)
    fates: dict[int, ShipFate] = {}
    for side in sides:
        enemy = 1 - side.index
        for ship in side.line:
            r = by_ref[ship.pk]
            captor = (r.captured_by if r.captured_by is not None else enemy) if r.fate == "captured" else None
            fleet = None
            if captor is not None and ship.pk in boarders:
                fleet = _prize_fleet(sides[captor], boarders[ship.pk])
            fates[ship.pk] = ShipFate(r.fate, captor, fleet, taken.get(ship.pk, ship.condition))
        shares_capture = outcome[side.index] in (BROKE, BEATEN) and outcome[enemy] == HELD
        for ship in side.others:
            fates[ship.pk] = ShipFate("captured", enemy) if shares_capture else ShipFate("intact")
    return fates


def _boarders(report: EngagementReport) -> dict[int, int]:
    """Ship id → the id of the ship that took it by boarding (its boarding d6 "wins"), over every
    day of the engagement; the last day's word counts."""
    out: dict[int, int] = {}
    for day in report.days:
        refs = [r.ref for r in day.report.ships]
        for loser, winner in boarding_winners(day.report).items():
            won, lost = refs[winner], refs[loser]
            if won is not None and lost is not None:
                out[int(lost)] = int(won)
    return out


def _prize_fleet(captor: FightingSide, boarder_id: int) -> int | None:
    """§12.12: "A ship taken by boarding is a prize of the nation of the ship that boarded it ...
    Each prize joins its nation's fleet in the zone — the side's lead fleet if that is its nation's,
    else its nation's fleet with most SOL there (ties: lower id)". The id of that fleet (None: the
    lead fleet, as for the ships a side takes as winner)."""
    boarder = next((s for s in captor.all_ships() if s.pk == boarder_id), None)
    if boarder is None or boarder.nation_id == captor.lead.nation_id:
        return None
    own = [f for f in captor.fleets if f.nation_id == boarder.nation_id]
    if not own:
        return None
    best = min(own, key=lambda f: (-sol_count(captor.ships[f.pk]), f.pk))
    return best.pk


def _ship_fates_apply(
    turn_number: int, sides: list[FightingSide], fates: dict[int, ShipFate], state: ZoneState
) -> list[dict[str, Any]]:
    """Each ship's fate written to it (one bulk write of the ships it changed, of the fields they
    changed), line first, side by side; returns the report's ship rows (a ship not in the line that
    came through is shown in its condition)."""
    changed: list[Ship] = []
    fields: set[str] = set()
    lost_units: list[int] = []
    rows: list[dict[str, Any]] = []
    for side in sides:
        in_line = {s.pk for s in side.line}
        for ship in [*side.line, *side.others]:
            fate = fates[ship.pk]
            if fate.fate == "sunk":
                ship_sink(ship, turn=turn_number, lost_units=lost_units)
                fields.update(SINK_FIELDS)
            elif fate.fate == "captured":
                captor = sides[fate.captor if fate.captor is not None else 1 - side.index]
                fleet = next((f for f in captor.fleets if f.pk == fate.captor_fleet), captor.lead)
                _capture(ship, captor, fleet, fate.taken_in or ship.condition, state, lost_units)
                fields.update(CAPTURE_FIELDS)
            elif fate.fate in ("damaged", "disabled") and ship.condition != fate.fate:
                ship.condition = fate.fate
                fields.update(CONDITION_FIELDS)
            elif fate.fate not in ("intact", "damaged", "disabled"):
                raise ValueError(f"{ship.name}: unknown fate {fate.fate!r}")
            else:
                rows.append(_ship_row(side, ship, fate.fate if ship.pk in in_line else ship.condition))
                continue  # as it was: nothing to write
            changed.append(ship)
            shown = fate.fate if ship.pk in in_line or fate.fate == "captured" else ship.condition
            rows.append(_ship_row(side, ship, shown))
    ships_save(changed, lost_units, fields=sorted(fields))
    return rows


def _ship_row(side: FightingSide, ship: Ship, fate: str) -> dict[str, Any]:
    return {"side": side.index, "ship": ship.pk, "name": ship.name, "class": ship.ship_class, "fate": fate}


def _losses(rows: list[dict[str, Any]], side: int) -> str:
    counts: dict[str, int] = defaultdict(int)
    for row in rows:
        if row["side"] == side and row["fate"] in ("sunk", "captured", "disabled", "damaged"):
            counts[row["fate"]] += 1
    return ", ".join(f"{n} {fate}" for fate, n in sorted(counts.items())) or "no losses"


def _capture(
    ship: Ship, captor: FightingSide, fleet: Fleet, condition: str, state: ZoneState, lost_units: list[int]
) -> None:
    """§4: a prize joins the captor's lead fleet (``fleet``; a ship taken by boarding, its boarder's
    nation's fleet, §12.12; a table's result may name another fleet of the captor's side) in the
    condition it was taken in (a ship taken where it could not stay
    afloat comes in ready), after the ships already there or taken earlier in the zone this turn.
    The end of the fleet's line is known from its ships as loaded for this engagement (nothing of
    the fleet is written between that load and here), then counted on."""
    if fleet.pk not in state.next_position:
        state.next_position[fleet.pk] = captor.line_ends[fleet.pk]
    state.next_position[fleet.pk] += 1
    ship_capture(
        ship,
        nation_id=fleet.nation_id,
        crew=fleet.nation.crew,
        fleet=fleet,
        line_position=state.next_position[fleet.pk],
        condition=condition if condition in Ship.AFLOAT else Ship.Condition.READY,
        leaves_ordinary=True,
        lost_units=lost_units,
    )


def _admirals_lost(sides: list[FightingSide], report: EngagementReport, gone: set[int]) -> set[int]:
    """§0: "An admiral whose flagship is sunk or captured in battle is lost". The side's admiral
    flies his flag in the first ship of the day's line (the engine's flagship, who moves on to the
    next ship after any other loss); any other fleet's admiral in his fleet's first ship."""
    lost: set[int] = set()
    for side in sides:
        for fleet in side.fleets:
            admiral = fleet.admiral
            if admiral is None or admiral.status != Admiral.Status.ACTIVE:
                continue
            flagship = side.ships[fleet.pk][0].pk
            dead = _side_admiral_lost(report, side.index) if fleet is side.lead else flagship in gone
            if dead:
                lost.add(admiral.pk)
    return lost


def _admirals_apply(sides: list[FightingSide], lost_ids: set[int]) -> list[tuple[Admiral, FightingSide]]:
    """The admirals ``lost_ids`` of the fleets in the fight are lost, their fleets left without (§0)."""
    lost: list[tuple[Admiral, FightingSide]] = []
    written: list[tuple[Admiral, Fleet]] = []
    for side in sides:
        for fleet in side.fleets:
            admiral = fleet.admiral
            if admiral is not None and admiral.status == Admiral.Status.ACTIVE and admiral.pk in lost_ids:
                written.append((admiral, fleet))
                lost.append((admiral, side))
    admirals_lose(written)
    return lost


def _side_admiral_lost(report: EngagementReport, index: int) -> bool:
    for day in report.days:
        side = day.report.spec.sides[index]
        if side.admiral is None or not side.ships:
            continue
        flagship = side.ships[0].ref
        if any(r.ref == flagship and r.fate in ("sunk", "captured") for r in day.report.ships):
            return True
    return False


def _retreat(e: Engagement, sides: list[FightingSide], leaving: list[FightingSide], result: dict[str, Any]) -> None:
    """§4: a side that retired, broke or evaded (or what is left of a beaten one) goes with all its
    surviving ships to the retreat destination phase 3 worked out for each of its fleets. A side in
    port (a sally, the besieged port, hostile fleets in one port) stays in port.

    The ships as this engagement left them are in memory (sunk ones out of their fleets, prizes in
    their captor's lead fleet), so which fleets still have a ship afloat needs no query; the
    destinations of every leaving fleet are read in one query per kind, and the moved fleets
    written in one."""
    sally = e.kind == Engagement.Kind.SALLY
    withdrawing = [side for side in leaving if not side.in_port]
    if not withdrawing:
        return
    afloat = {
        s.fleet_id for side in sides for s in side.all_ships() if s.condition in Ship.AFLOAT and s.fleet_id is not None
    }
    plans: list[tuple[FightingSide, Fleet, dict[str, Any]]] = []
    for side in withdrawing:
        for fleet in side.fleets:
            if fleet.pk not in afloat:
                continue  # nothing of it is left to withdraw
            plans.append((side, fleet, side.data.get("retreat", {}).get(str(fleet.pk)) or {}))
    port_keys = {dest["port"] for _, _, dest in plans if dest.get("port") and not sally}
    zone_keys = {dest["zone"] for _, _, dest in plans if dest.get("zone")}
    ports = {p.key: p for p in Port.objects.filter(campaign_id=e.campaign_id, key__in=port_keys)} if port_keys else {}
    zones = (
        {z.key: z for z in SeaZone.objects.filter(campaign_id=e.campaign_id, key__in=zone_keys)} if zone_keys else {}
    )
    moved: list[Fleet] = []
    for _side, fleet, dest in plans:
        port = None if sally else ports.get(dest.get("port") or "")
        if port is not None and port.sea_zone_id == e.sea_zone_id:
            fleet.port = port
            moved.append(fleet)
            text = f"{fleet.name} withdrew into {port.name}."
            event_add(result, [fleet.nation.code], _fleet_noted(fleet, text, "withdrew", port.key, port.name))
            continue
        zone = zones.get(dest.get("zone") or "")
        if zone is not None:
            fleet.sea_zone = zone
            fleet.port = None
            moved.append(fleet)
            text = f"{fleet.name} withdrew to {zone.name}."
            event_add(result, [fleet.nation.code], _fleet_noted(fleet, text, "withdrew"))
            continue
        text = f"{fleet.name} found nowhere to withdraw to and stays."
        event_add(result, [fleet.nation.code], _fleet_noted(fleet, text, "nowhere_to_withdraw"))
    fleets_save(moved, ["sea_zone", "port"])


def capture_whole(e: Engagement, sides: list[FightingSide], *, victim: int, state: ZoneState) -> None:
    """§4: "A side with no ship able to form a line, intercepted by one that has, is captured whole
    without a battle" — every ship, its land units lost, its admirals with them."""
    result = e.result
    prey, captor = sides[victim], sides[1 - victim]
    lost_units: list[int] = []
    ships = prey.all_ships()
    for ship in ships:
        _capture(ship, captor, captor.lead, ship.condition, state, lost_units)
    ships_save(ships, lost_units, fields=CAPTURE_FIELDS)
    where = e.port.name if e.port is not None else e.sea_zone.name
    everyone = sorted(set(prey.nations) | set(captor.nations))
    taken_admirals: list[tuple[Admiral, Fleet]] = []
    for fleet in prey.fleets:
        result["fleets"][str(fleet.pk)] = {"side": victim, "outcome": BEATEN, "won": False}
        state.worsted.add(fleet.pk)
        admiral = fleet.admiral
        if admiral is not None and admiral.status == Admiral.Status.ACTIVE:
            taken_admirals.append((admiral, fleet))
            text = f"Admiral {admiral.name} ({prey.words}) was taken with his ships at {where}."
            event_add(result, everyone, EngagementNoted(text=text, engagement_id=e.pk, code="admiral_taken"))
    admirals_lose(taken_admirals)
    for fleet in captor.fleets:
        result["fleets"][str(fleet.pk)] = {"side": captor.index, "outcome": HELD, "won": True}
    result["outcome"] = [HELD, HELD]
    result["outcome"][victim] = BEATEN
    result["winner"] = captor.index
    result["captured_side"] = victim
    rows = [{"side": victim, "ship": s.pk, "name": s.name, "class": s.ship_class, "fate": "captured"} for s in ships]
    lost = f", and {counted(len(lost_units), 'land unit')} aboard {'was' if len(lost_units) == 1 else 'were'} lost"
    event_add(
        result,
        everyone,
        SideCaptured(
            text=f"At {where} {captor.words} captured all {counted(len(ships), 'ship')} of {prey.words} "
            f"without a battle: they had no ship able to form a line"
            f"{lost if lost_units else ''}.",
            engagement_id=e.pk,
            place_key=e.place,
            place_name=where,
            ships=battle_ships(rows),
        ),
    )


def event_add(result: dict[str, Any], nations: list[str] | None, event: TurnEvent) -> None:
    """A turn-report event, kept on the engagement (as its stored JSON) until phase 4 hands it to the
    reports (fog of war: ``nations`` are the ones who see it; None is everyone)."""
    result["events"].append({"nations": nations, **event.to_json()})


def battle_ships(rows: list[dict[str, Any]]) -> tuple[BattleShip, ...]:
    """The battle's ship rows (as written to the Battle record) as the event's typed rows."""
    return tuple(
        BattleShip(side=r["side"], ship_id=r["ship"], ship_name=r["name"], ship_class=r["class"], fate=r["fate"])
        for r in rows
    )


def _fleet_noted(fleet: Fleet, text: str, code: str, port_key: str | None = None, port_name: str = "") -> FleetNoted:
    return FleetNoted(
        text=text, fleet_id=fleet.pk, fleet_name=fleet.name, port_key=port_key, port_name=port_name, code=code
    )
