"""Applying a fought engagement's results: the ships' fates, prizes, lost admirals, retreats, and
the events the turn reports will show (RULES.md §4 "After a battle", "Sally"; §0; §7). The writes
themselves are :mod:`battles.results`'s, shared with the port actions of phase 5.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from battles.engagements.loading import FightingSide, ZoneState
from battles.engagements.ordering import BEATEN, BROKE, HELD, LEAVING
from battles.engine import EngagementReport
from battles.models import Battle, Engagement
from battles.results import admiral_lose, fleet_line_end, ship_capture, ship_sink, ships_save
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
    result = e.result
    outcome = report.outcome
    rows, gone = _ship_fates_apply(e.turn.number, sides, report, names, state)
    lost_admirals = _admirals_lost(sides, report, gone)
    for side in sides:
        leaves = outcome[side.index] in LEAVING
        for fleet in side.fleets:
            result["fleets"][str(fleet.pk)] = {
                "side": side.index,
                "outcome": outcome[side.index],
                "won": report.winner == side.index,
            }
            if leaves:
                state.worsted.add(fleet.pk)
        if leaves:
            _retreat(e, side, result)
    result["outcome"] = list(outcome)
    result["winner"] = report.winner
    result["battle"] = battle.pk
    if e.kind == Engagement.Kind.SALLY:
        blockaders = 1 - int(e.context["sally_side"])
        result["lifts_blockade"] = outcome[blockaders] in LEAVING
        if result["lifts_blockade"]:
            port_name = e.port.name if e.port is not None else e.place
            text = f"The blockade of {port_name} by {sides[blockaders].words} was broken by a sally."
            event_add(result, None, EngagementNoted(text=text, engagement_id=e.pk))
    everyone = sorted(set(sides[0].nations) | set(sides[1].nations))
    winner = "no winner" if report.winner is None else f"{sides[report.winner].words} won"
    summary = "; ".join(f"{s.words} {outcome[s.index]}: {_losses(rows, s.index)}" for s in sides)
    days = len(report.days)
    event_add(
        result,
        everyone,
        BattleFought(
            text=f"Battle at {where}: {sides[0].words} against {sides[1].words}, {counted(days, 'day')}; {winner}. "
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
        event_add(result, everyone, EngagementNoted(text=text, engagement_id=e.pk))


def _ship_fates_apply(
    turn_number: int, sides: list[FightingSide], report: EngagementReport, names: dict[int, str], state: ZoneState
) -> tuple[list[dict[str, Any]], set[int]]:
    """Each ship's fate written to it (one bulk write); returns the report's ship rows and the ids
    of the ships sunk or captured. Ships not in the line share their side's fate (§4)."""
    outcome = report.outcome
    fates = {int(r.ref): r for r in report.ships if r.ref is not None}
    taken = _taken_conditions(report, {s.pk: s.condition for side in sides for s in side.line}, names)
    changed: list[Ship] = []
    lost_units: list[int] = []
    sunk: set[int] = set()
    captured: set[int] = set()
    rows: list[dict[str, Any]] = []
    for side in sides:
        enemy = sides[1 - side.index]
        shares_capture = outcome[side.index] in (BROKE, BEATEN) and outcome[enemy.index] == HELD
        for ship in side.line:
            fate = fates[ship.pk]
            if fate.fate == "sunk":
                ship_sink(ship, turn=turn_number, lost_units=lost_units)
                sunk.add(ship.pk)
            elif fate.fate == "captured":
                captor = sides[fate.captured_by if fate.captured_by is not None else enemy.index]
                _capture(ship, captor, taken.get(ship.pk, ship.condition), state, lost_units)
                captured.add(ship.pk)
            elif fate.fate in ("damaged", "disabled"):
                ship.condition = fate.fate
            changed.append(ship)
            rows.append(_ship_row(side, ship, fate.fate))
        for ship in side.others:
            if shares_capture:
                _capture(ship, enemy, ship.condition, state, lost_units)
                captured.add(ship.pk)
                changed.append(ship)
            rows.append(_ship_row(side, ship, "captured" if ship.pk in captured else ship.condition))
    ships_save(changed, lost_units)
    return rows, sunk | captured


def _ship_row(side: FightingSide, ship: Ship, fate: str) -> dict[str, Any]:
    return {"side": side.index, "ship": ship.pk, "name": ship.name, "class": ship.ship_class, "fate": fate}


def _losses(rows: list[dict[str, Any]], side: int) -> str:
    counts: dict[str, int] = defaultdict(int)
    for row in rows:
        if row["side"] == side and row["fate"] in ("sunk", "captured", "disabled", "damaged"):
            counts[row["fate"]] += 1
    return ", ".join(f"{n} {fate}" for fate, n in sorted(counts.items())) or "no losses"


def _capture(ship: Ship, captor: FightingSide, condition: str, state: ZoneState, lost_units: list[int]) -> None:
    """§4: a prize joins the captor's lead fleet in the condition it was taken in (a ship taken
    where it could not stay afloat comes in ready), after the ships already there or taken earlier
    in the zone this turn (those are written only at the end)."""
    lead = captor.lead
    if lead.pk not in state.next_position:
        state.next_position[lead.pk] = fleet_line_end(lead)
    state.next_position[lead.pk] += 1
    ship_capture(
        ship,
        nation_id=lead.nation_id,
        crew=lead.nation.crew,
        fleet=lead,
        line_position=state.next_position[lead.pk],
        condition=condition if condition in Ship.AFLOAT else Ship.Condition.READY,
        leaves_ordinary=True,
        lost_units=lost_units,
    )


def _admirals_lost(
    sides: list[FightingSide], report: EngagementReport, gone: set[int]
) -> list[tuple[Admiral, FightingSide]]:
    """§0: "An admiral whose flagship is sunk or captured in battle is lost". The side's admiral
    flies his flag in the first ship of the day's line (the engine's flagship, who moves on to the
    next ship after any other loss); any other fleet's admiral in his fleet's first ship."""
    lost: list[tuple[Admiral, FightingSide]] = []
    for side in sides:
        for fleet in side.fleets:
            admiral = fleet.admiral
            if admiral is None or admiral.status != Admiral.Status.ACTIVE:
                continue
            flagship = side.ships[fleet.pk][0].pk
            dead = _side_admiral_lost(report, side.index) if fleet is side.lead else flagship in gone
            if dead:
                admiral_lose(admiral, fleet)
                lost.append((admiral, side))
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


def _retreat(e: Engagement, side: FightingSide, result: dict[str, Any]) -> None:
    """§4: a side that retired, broke or evaded (or what is left of a beaten one) goes with all its
    surviving ships to the retreat destination phase 3 worked out for each of its fleets. A side in
    port (a sally, the besieged port, hostile fleets in one port) stays in port."""
    if side.in_port:
        return
    sally = e.kind == Engagement.Kind.SALLY
    afloat = set(
        Ship.objects.filter(fleet__in=side.fleets, condition__in=Ship.AFLOAT).values_list("fleet_id", flat=True)
    )
    for fleet in side.fleets:
        if fleet.pk not in afloat:
            continue  # nothing of it is left to withdraw
        dest = side.data.get("retreat", {}).get(str(fleet.pk)) or {}
        port_key = None if sally else dest.get("port")
        zone_key = dest.get("zone")
        if port_key:
            port = Port.objects.filter(campaign_id=e.campaign_id, key=port_key).first()
            if port is not None and port.sea_zone_id == e.sea_zone_id:
                fleet.port = port
                fleet.save(update_fields=["port"])
                text = f"{fleet.name} withdrew into {port.name}."
                event_add(result, [fleet.nation.code], _fleet_noted(fleet, text, port.key, port.name))
                continue
        if zone_key:
            zone = SeaZone.objects.filter(campaign_id=e.campaign_id, key=zone_key).first()
            if zone is not None:
                fleet.sea_zone = zone
                fleet.port = None
                fleet.save(update_fields=["sea_zone", "port"])
                text = f"{fleet.name} withdrew to {zone.name}."
                event_add(result, [fleet.nation.code], _fleet_noted(fleet, text))
                continue
        text = f"{fleet.name} found nowhere to withdraw to and stays."
        event_add(result, [fleet.nation.code], _fleet_noted(fleet, text))


def capture_whole(e: Engagement, sides: list[FightingSide], *, victim: int, state: ZoneState) -> None:
    """§4: "A side with no ship able to form a line, intercepted by one that has, is captured whole
    without a battle" — every ship, its land units lost, its admirals with them."""
    result = e.result
    prey, captor = sides[victim], sides[1 - victim]
    lost_units: list[int] = []
    ships = prey.all_ships()
    for ship in ships:
        _capture(ship, captor, ship.condition, state, lost_units)
    ships_save(ships, lost_units)
    where = e.port.name if e.port is not None else e.sea_zone.name
    everyone = sorted(set(prey.nations) | set(captor.nations))
    for fleet in prey.fleets:
        result["fleets"][str(fleet.pk)] = {"side": victim, "outcome": BEATEN, "won": False}
        state.worsted.add(fleet.pk)
        admiral = fleet.admiral
        if admiral is not None and admiral.status == Admiral.Status.ACTIVE:
            admiral_lose(admiral, fleet)
            text = f"Admiral {admiral.name} ({prey.words}) was taken with his ships at {where}."
            event_add(result, everyone, EngagementNoted(text=text, engagement_id=e.pk))
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


def _fleet_noted(fleet: Fleet, text: str, port_key: str | None = None, port_name: str = "") -> FleetNoted:
    return FleetNoted(text=text, fleet_id=fleet.pk, fleet_name=fleet.name, port_key=port_key, port_name=port_name)
