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
from .spec import FLEET_ACTION, AdmiralSpec, BattleSpec, ShipSpec, SideSpec, SpecError

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


@dataclass
class _Fight:
    """An engagement's state per ship (spec order, side 0 first) and each side's admiral, carried
    from day to day."""

    ships: list[list[ShipSpec]]
    offsets: tuple[int, int]
    fate: list[str]
    exploded: list[bool]
    captured_by: list[int | None]
    admirals: list[AdmiralSpec | None]

    @classmethod
    def start(cls, sides: tuple[SideSpec, SideSpec]) -> _Fight:
        ships = [list(side.ships) for side in sides]
        total = len(ships[0]) + len(ships[1])
        return cls(
            ships=ships,
            offsets=(0, len(ships[0])),
            fate=["damaged" if s.condition == "damaged" else "intact" for side in ships for s in side],
            exploded=[False] * total,
            captured_by=[None] * total,
            admirals=[sides[0].admiral, sides[1].admiral],
        )

    def afloat(self, s: int) -> int:
        """Ships of side ``s`` neither sunk nor captured."""
        return sum(1 for k in range(len(self.ships[s])) if self.fate[self.offsets[s] + k] not in ("sunk", "captured"))


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
    fight = _Fight.start(sides)
    days: list[EngagementDay] = []
    pursuits: list[Pursuit] = []
    gauge_bonus = ctx.interceptor
    at_sea_fleet = None if ctx.in_port_side is None else 1 - ctx.in_port_side
    evaded: int | None = None

    for day in range(1, p.max_days + 1):
        gauge = weather_gauge_roll(
            dice,
            ruleset,
            sides=[
                ContactSide(side.navy, None if a is None else a.grade)
                for side, a in zip(sides, fight.admirals, strict=True)
            ],
            interceptor=gauge_bonus,
            besieged_port_fleet=at_sea_fleet,
        )
        day_spec, index = _day_spec(spec, fight, gauge.winner, day)
        report = fight_day_with(day_spec, dice, p, first=gauge.winner)
        report = replace(report, seed=None)  # a day alone does not replay from the engagement's seed
        days.append(EngagementDay(day, gauge, report, tuple(index)))
        _day_results(fight, day_spec, report, index)

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
        if ctx.in_port_side == evader:
            pursuits.append(Pursuit(day, decided, 1 - evader))  # it stays in port: no pursuit
            evaded = evader
            break
        pursuit = _pursue(dice, ruleset, ctx, spec, fight, day, decided, evader)
        pursuits.append(pursuit)
        if not pursuit.fight_on:
            evaded = evader
            break
        gauge_bonus = pursuit.pursuer  # "the pursuer, on a pursuit day" +1 to the gauge
    return _engagement_report(spec, dice, fight, days, pursuits, evaded)


def _day_spec(spec: BattleSpec, fight: _Fight, gauge_winner: int, day: int) -> tuple[BattleSpec, list[int]]:
    """The day's battle: each side's ships still in the fight (ready or damaged), its admiral if
    not lost, the gauge to ``gauge_winner``, at anchor on day 1 only. Also each day ship's index
    in the engagement's order."""
    index: list[int] = []
    day_sides: list[SideSpec] = []
    for s, side in enumerate(spec.sides):
        line = []
        for k, ship in enumerate(fight.ships[s]):
            i = fight.offsets[s] + k
            if fight.fate[i] in ("intact", "damaged"):
                index.append(i)
                line.append(replace(ship, condition="ready" if fight.fate[i] == "intact" else "damaged"))
        day_sides.append(
            replace(
                side,
                ships=tuple(line),
                admiral=fight.admirals[s],
                weather_gauge=s == gauge_winner,
                at_anchor=side.at_anchor and day == 1,
            )
        )
    return BattleSpec(FLEET_ACTION, (day_sides[0], day_sides[1]), spec.max_rounds), index


def _day_results(fight: _Fight, day_spec: BattleSpec, report: BattleReport, index: list[int]) -> None:
    """Carry a day's fates into the engagement: the loser's disabled ships kept from earlier days
    are taken with today's; an admiral whose flagship is sunk or captured is lost (§0)."""
    for k, result in enumerate(report.ships):
        i = index[k]
        fight.fate[i] = result.fate
        fight.exploded[i] = fight.exploded[i] or result.exploded
        fight.captured_by[i] = result.captured_by
    if report.winner is not None:
        # Disabled ships kept from earlier days are among the loser's disabled ships.
        loser = 1 - report.winner
        today = set(index)
        for k in range(len(fight.ships[loser])):
            i = fight.offsets[loser] + k
            if fight.fate[i] == "disabled" and i not in today:
                fight.fate[i] = "captured"
                fight.captured_by[i] = report.winner
    for s in (0, 1):
        day_ships = day_spec.sides[s].ships
        flagship = day_ships[0].name if day_ships else None
        lost = any(r.name == flagship and r.fate in ("sunk", "captured") for r in report.ships)
        if lost:
            fight.admirals[s] = None  # §0: an admiral whose flagship is sunk or captured is lost


def _pursue(
    dice: Dice,
    ruleset: Ruleset,
    ctx: EngagementContext,
    spec: BattleSpec,
    fight: _Fight,
    day: int,
    decided: tuple[str, str],
    evader: int,
) -> Pursuit:
    """§5 pursuit: the pursuer re-sights the evader (at sea: its ships afloat and those not in the
    line) and, if it sights it, intercepts."""
    pursuer = 1 - evader
    pursuer_admiral = fight.admirals[pursuer]
    sighting = sighting_roll(
        dice,
        ruleset,
        zone_type=ctx.zone_type,
        light_ships=ctx.sides[pursuer].light_ships,
        target_ships_at_sea=fight.afloat(evader) + ctx.sides[evader].other_ships_at_sea,
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
            interceptor=_contact_side(spec.sides[pursuer], fight.admirals[pursuer]),
            target=_contact_side(spec.sides[evader], fight.admirals[evader]),
            interceptor_side=pursuer,
        )
    return Pursuit(day, decided, pursuer, sighting, intercept)


def _engagement_report(
    spec: BattleSpec,
    dice: Dice,
    fight: _Fight,
    days: list[EngagementDay],
    pursuits: list[Pursuit],
    evaded: int | None,
) -> EngagementReport:
    """The engagement's report: the last day's winner and outcome (a side that evaded: ``evaded``,
    -1 for both), and each ship's fate over all days."""
    last = days[-1].report
    outcome = list(last.outcome)
    for s in (0, 1):
        if evaded in (s, -1):
            outcome[s] = EVADED
    final = tuple(
        ShipResult(
            s,
            ship.name,
            fight.fate[fight.offsets[s] + k],
            fight.exploded[fight.offsets[s] + k],
            fight.captured_by[fight.offsets[s] + k],
            ship.ref,
            ship.cls,
            ship.navy,
            ship.crew,
        )
        for s in (0, 1)
        for k, ship in enumerate(fight.ships[s])
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
