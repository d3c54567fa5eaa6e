"""A multi-day fleet engagement in one sea zone (RULES.md §5 "End of the day", last sentences;
§4 "Weather gauge", "Sighting", "Battle or not", "Besieged-port engagement").

Day 1 is fought after the campaign's own sighting and intercept. At the start of every day a new
weather gauge is rolled; its winner is side A of §5 for the day. "After a day in which both held,
each side continues or evades by its standing order (default: evade if its L is higher); a pursuer
re-sights at +1 and intercepts; at most 3 days per zone per turn" (``battle.max_days``).

Between days: ships sunk or captured stay so; disabled ships take no further part (the side keeps
them unless a later day's winner captures the loser's disabled ships, these included); damaged
ships fight on damaged. An admiral whose flagship ends a day sunk or captured is lost (no admiral
from the next day); if the flagship was disabled he moves to the next ship, which is simply the
first ship of the next day's line.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from rules.dice import Dice, SeededDice
from rules.ruleset import DEFAULT_RULESET, ZONE_TYPES, Ruleset

from .combat import params_for
from .contacts import (
    ContactDie,
    ContactSide,
    GaugeResult,
    InterceptResult,
    SightingResult,
    intercept_roll,
    sighting_roll,
    weather_gauge_roll,
)
from .fleet_action import fight_day_with
from .report import EVADED, HELD, BattleReport, ShipResult
from .spec import FLEET_ACTION, AdmiralSpec, BattleSpec, SideSpec, SpecError

CONTINUE = "continue"
EVADE = "evade"


@dataclass(frozen=True, slots=True)
class EngagementSide:
    """A side's standing order and what its pursuit rolls need that the line does not show.

    ``evade_at``: None is the default order (evade if its L is higher than the enemy's); a
    fraction t evades when its L ≥ t (0 always evades, anything above 1 never does).
    ``light_ships``: heavy frigates, frigates, sloops and brigs it has at sea in the zone.
    ``other_ships_at_sea``: its ships at sea there that are not in the line (for the enemy's
    "more than 20 ships" sighting bonus); ``escorts_transports`` likewise.
    """

    evade_at: Fraction | None = None
    light_ships: int = 0
    other_ships_at_sea: int = 0
    escorts_transports: bool = False


@dataclass(frozen=True, slots=True)
class EngagementContext:
    """Where and how the engagement was joined.

    ``interceptor``: the side that intercepted on day 1 (+1 to its day-1 gauge), or None.
    ``in_port_side``: in a besieged-port engagement, the side whose ships are in the port (caught
    at anchor if the spec says so); the other side gets the +2 gauge modifier every day, and if the
    side in port evades it stays in port, so there is no pursuit.
    """

    zone_type: str = "open"
    gale_season: bool = False
    interceptor: int | None = None
    in_port_side: int | None = None
    sides: tuple[EngagementSide, EngagementSide] = (EngagementSide(), EngagementSide())

    def __post_init__(self) -> None:
        if self.zone_type not in ZONE_TYPES:
            raise SpecError("zone_type", f"unknown zone type {self.zone_type!r}; allowed: {', '.join(ZONE_TYPES)}")
        for name in ("interceptor", "in_port_side"):
            if getattr(self, name) not in (None, 0, 1):
                raise SpecError(name, f"must be 0, 1 or null, got {getattr(self, name)!r}")


@dataclass(frozen=True, slots=True)
class EngagementDay:
    """One day: its gauge roll and its report. ``index[k]`` is the engagement ship index (spec
    order) of the day report's ship ``k``."""

    day: int
    gauge: GaugeResult
    report: BattleReport
    index: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Pursuit:
    """What happened after a day in which both held: each side's decision and, when one evaded
    and the other continued, the pursuer's sighting and intercept."""

    after_day: int
    decisions: tuple[str, str]
    pursuer: int | None = None
    sighting: SightingResult | None = None
    intercept: InterceptResult | None = None

    @property
    def dice(self) -> tuple[ContactDie, ...]:
        return (self.sighting.dice if self.sighting else ()) + (self.intercept.dice if self.intercept else ())

    @property
    def fight_on(self) -> bool:
        if self.decisions == (CONTINUE, CONTINUE):
            return True
        return self.intercept is not None and self.intercept.intercepted


@dataclass(frozen=True, slots=True)
class EngagementReport:
    seed: int | None
    days: tuple[EngagementDay, ...]
    pursuits: tuple[Pursuit, ...]
    ships: tuple[ShipResult, ...]
    winner: int | None
    outcome: tuple[str, str]
    spec: BattleSpec

    def fates(self, side: int) -> dict[str, int]:
        out = {"intact": 0, "damaged": 0, "disabled": 0, "sunk": 0, "captured": 0}
        for ship in self.ships:
            if ship.side == side:
                out[ship.fate] += 1
        return out

    def dice(self) -> list[dict[str, Any]]:
        """Every die of the engagement in the order rolled, with its ``day``; ``round`` 0 for the
        gauge, sighting and intercept dice."""
        out: list[dict[str, Any]] = []
        by_day = {p.after_day: p for p in self.pursuits}
        for day in self.days:
            for g in day.gauge.dice:
                out.append({"day": day.day, "round": 0, **g.to_json(), "ship": None, "target": None})
            for d in day.report.dice():
                out.append({**{k: v for k, v in d.items() if k != "n"}, "day": day.day})
            pursuit = by_day.get(day.day)
            if pursuit is not None:
                for c in pursuit.dice:
                    out.append({"day": day.day, "round": 0, **c.to_json(), "ship": None, "target": None})
        for n, d in enumerate(out, start=1):
            d["n"] = n
        return out

    @property
    def raw_dice(self) -> list[int]:
        return [int(d["raw"]) for d in self.dice()]

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "engagement",
            "seed": self.seed,
            "days": [
                {
                    "day": d.day,
                    "gauge": {"winner": d.gauge.winner, "dice": [x.to_json() for x in d.gauge.dice]},
                    "report": d.report.to_json(),
                }
                for d in self.days
            ],
            "pursuits": [
                {
                    "after_day": p.after_day,
                    "decisions": list(p.decisions),
                    "pursuer": p.pursuer,
                    "sighted": None if p.sighting is None else p.sighting.sighted,
                    "intercepted": None if p.intercept is None else p.intercept.intercepted,
                    "dice": [x.to_json() for x in p.dice],
                }
                for p in self.pursuits
            ],
            "winner": self.winner,
            "outcome": list(self.outcome),
            "ships": [s.to_json() for s in self.ships],
            "dice": self.dice(),
        }


def fight_engagement(
    spec: BattleSpec,
    dice: Dice,
    ruleset: Ruleset = DEFAULT_RULESET,
    context: EngagementContext | None = None,
) -> EngagementReport:
    """Fight up to ``battle.max_days`` Naval Days (RULES.md §5) with pursuit between them.

    ``spec`` is a fleet action; its ``weather_gauge`` flags are ignored (the gauge is rolled each
    day) and ``at_anchor`` counts on day 1 only. Dice order: day 1's gauge, day 1; then, after a day
    both held, the pursuer's sighting and intercept if one side evades; the next day's gauge; …
    """
    if spec.type != FLEET_ACTION:
        raise SpecError("type", f"an engagement is fought as a {FLEET_ACTION}, not {spec.type!r}")
    ctx = context or EngagementContext()
    p = params_for(ruleset)
    sides = spec.sides
    ships = [list(side.ships) for side in sides]
    offsets = (0, len(ships[0]))
    total = len(ships[0]) + len(ships[1])
    # Engagement-wide state per ship (spec order).
    fate = ["damaged" if s.condition == "damaged" else "intact" for side in ships for s in side]
    exploded = [False] * total
    captured_by: list[int | None] = [None] * total
    admirals: list[AdmiralSpec | None] = [sides[0].admiral, sides[1].admiral]
    days: list[EngagementDay] = []
    pursuits: list[Pursuit] = []
    gauge_bonus = ctx.interceptor
    at_sea_fleet = None if ctx.in_port_side is None else 1 - ctx.in_port_side
    evaded: int | None = None

    for day in range(1, p.max_days + 1):
        index: list[int] = []
        day_sides: list[SideSpec] = []
        gauge = weather_gauge_roll(
            dice,
            ruleset,
            sides=[
                ContactSide(side.navy, None if a is None else a.grade) for side, a in zip(sides, admirals, strict=True)
            ],
            interceptor=gauge_bonus,
            besieged_port_fleet=at_sea_fleet,
        )
        for s, side in enumerate(sides):
            line = []
            for k, ship in enumerate(ships[s]):
                i = offsets[s] + k
                if fate[i] in ("intact", "damaged"):
                    index.append(i)
                    line.append(replace(ship, condition="ready" if fate[i] == "intact" else "damaged"))
            day_sides.append(
                replace(
                    side,
                    ships=tuple(line),
                    admiral=admirals[s],
                    weather_gauge=s == gauge.winner,
                    at_anchor=side.at_anchor and day == 1,
                )
            )
        day_spec = BattleSpec(FLEET_ACTION, (day_sides[0], day_sides[1]), spec.max_rounds)
        report = fight_day_with(day_spec, dice, p, first=gauge.winner)
        report = replace(report, seed=None)  # a day alone does not replay from the engagement's seed
        days.append(EngagementDay(day, gauge, report, tuple(index)))
        for k, result in enumerate(report.ships):
            i = index[k]
            fate[i] = result.fate
            exploded[i] = exploded[i] or result.exploded
            captured_by[i] = result.captured_by
        if report.winner is not None:
            # Disabled ships kept from earlier days are among the loser's disabled ships.
            loser = 1 - report.winner
            today = set(index)
            for k in range(len(ships[loser])):
                i = offsets[loser] + k
                if fate[i] == "disabled" and i not in today:
                    fate[i] = "captured"
                    captured_by[i] = report.winner
        for s in (0, 1):
            flagship = day_sides[s].ships[0].name if day_sides[s].ships else None
            lost = any(r.name == flagship and r.fate in ("sunk", "captured") for r in report.ships)
            if lost:
                admirals[s] = None  # §0: an admiral whose flagship is sunk or captured is lost

        if report.outcome != (HELD, HELD) or day == p.max_days:
            break
        losses = (report.sides[0].loss, report.sides[1].loss)
        decisions = tuple(_decide(ctx.sides[s].evade_at, losses[s], losses[1 - s]) for s in (0, 1))
        decided = (decisions[0], decisions[1])
        if decided == (CONTINUE, CONTINUE):
            pursuits.append(Pursuit(day, decided))
            gauge_bonus = None
            continue
        if decided == (EVADE, EVADE):
            pursuits.append(Pursuit(day, decided))
            evaded = -1
            break
        evader = 0 if decided[0] == EVADE else 1
        pursuer = 1 - evader
        if ctx.in_port_side == evader:
            pursuits.append(Pursuit(day, decided, pursuer))  # it stays in port: no pursuit
            evaded = evader
            break
        evader_at_sea = sum(
            1 for k in range(len(ships[evader])) if fate[offsets[evader] + k] not in ("sunk", "captured")
        )
        pursuer_admiral = admirals[pursuer]
        sighting = sighting_roll(
            dice,
            ruleset,
            zone_type=ctx.zone_type,
            light_ships=ctx.sides[pursuer].light_ships,
            target_ships_at_sea=evader_at_sea + ctx.sides[evader].other_ships_at_sea,
            target_escorts_transports=ctx.sides[evader].escorts_transports,
            admiral_grade=None if pursuer_admiral is None else pursuer_admiral.grade,
            gale_season=ctx.gale_season,
            pursuit=True,
            side=pursuer,
        )
        intercept = None
        if sighting.sighted:
            intercept = intercept_roll(
                dice,
                ruleset,
                interceptor=_contact_side(sides[pursuer], admirals[pursuer]),
                target=_contact_side(sides[evader], admirals[evader]),
                interceptor_side=pursuer,
            )
        pursuit = Pursuit(day, decided, pursuer, sighting, intercept)
        pursuits.append(pursuit)
        if not pursuit.fight_on:
            evaded = evader
            break
        gauge_bonus = pursuer  # "the pursuer, on a pursuit day" +1 to the gauge

    last = days[-1].report
    outcome = list(last.outcome)
    for s in (0, 1):
        if evaded in (s, -1):
            outcome[s] = EVADED
    final = tuple(
        ShipResult(
            s,
            ship.name,
            fate[offsets[s] + k],
            exploded[offsets[s] + k],
            captured_by[offsets[s] + k],
            ship.ref,
            ship.cls,
            ship.navy,
            ship.crew,
        )
        for s in (0, 1)
        for k, ship in enumerate(ships[s])
    )
    return EngagementReport(
        seed=dice.seed if isinstance(dice, SeededDice) else None,
        days=tuple(days),
        pursuits=tuple(pursuits),
        ships=final,
        winner=last.winner,
        outcome=(outcome[0], outcome[1]),
        spec=spec,
    )


def _decide(evade_at: Fraction | None, own: Fraction, enemy: Fraction) -> str:
    """A side's standing order after a day both held: default, evade if its L is higher."""
    if evade_at is None:
        return EVADE if own > enemy else CONTINUE
    return EVADE if own >= evade_at else CONTINUE


def _contact_side(side: SideSpec, admiral: AdmiralSpec | None) -> ContactSide:
    return ContactSide(side.navy, None if admiral is None else admiral.grade, side.in_supply)
