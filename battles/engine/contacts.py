"""The contact rolls that lead to battles (RULES.md §4 "Sighting", "Battle or not", "Weather gauge",
"Besieged-port engagement"; §5's pursuit re-sighting).

Each function rolls its dice from the injected :class:`~rules.dice.Dice`, and returns a small
frozen result that carries the dice it rolled (:class:`ContactDie`), so the campaign can store them
in the turn's strategic dice log (adding the place) and a GM can answer "why?" from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.dice import Dice
from rules.ruleset import DEFAULT_RULESET, GRADES, NAVIES, Ruleset

from .combat import D6
from .spec import SpecError

# A natural 6 always sights and a natural 1 always fails (§4): faces of the d6, not settings.
_NATURAL_SUCCESS = D6
_NATURAL_FAILURE = 1
_BRITISH = "GB"  # §4 weather gauge "British +1"
_BEST_GRADE = GRADES[0]  # §4 sighting: "+1 if the searching admiral is A"
_WORST_GRADES = frozenset(GRADES[-2:])  # "−1 if G–H"


@dataclass(frozen=True, slots=True)
class ContactDie:
    """One strategic die: ``purpose`` is sighting, intercept or gauge; ``side`` the roller."""

    purpose: str
    side: int
    raw: int
    mod: int
    result: int
    die: str = "d6"

    def to_json(self) -> dict[str, object]:
        return {
            "purpose": self.purpose,
            "side": self.side,
            "die": self.die,
            "raw": self.raw,
            "mod": self.mod,
            "result": self.result,
        }


@dataclass(frozen=True, slots=True)
class ContactSide:
    """What a contact roll needs of a side: its lead fleet's navy, its admiral's grade (None: no
    admiral) and whether it is in supply."""

    navy: str
    admiral_grade: str | None = None
    in_supply: bool = True

    def __post_init__(self) -> None:
        if self.navy not in NAVIES:
            raise SpecError("navy", f"unknown navy {self.navy!r}; allowed: {', '.join(NAVIES)}")
        if self.admiral_grade is not None and self.admiral_grade not in GRADES:
            raise SpecError("admiral_grade", f"unknown grade {self.admiral_grade!r}; allowed: {', '.join(GRADES)}")


@dataclass(frozen=True, slots=True)
class SightingResult:
    """``sighted`` and, for a besieged-port engagement, ``at_anchor`` (a modified 6+ catches the
    ships in port at anchor). ``needed`` is the number the total had to reach; ``modifiers`` names
    each modifier that applied."""

    sighted: bool
    at_anchor: bool
    needed: int
    modifiers: tuple[tuple[str, int], ...]
    dice: tuple[ContactDie, ...]


@dataclass(frozen=True, slots=True)
class InterceptResult:
    intercepted: bool
    dice: tuple[ContactDie, ...]


@dataclass(frozen=True, slots=True)
class GaugeResult:
    """``winner`` has the weather gauge and is side A of §5 for the day."""

    winner: int
    dice: tuple[ContactDie, ...]


def sighting_roll(
    dice: Dice,
    ruleset: Ruleset = DEFAULT_RULESET,
    *,
    zone_type: str,
    light_ships: int,
    target_ships_at_sea: int,
    target_escorts_transports: bool = False,
    admiral_grade: str | None = None,
    gale_season: bool = False,
    target_used_port: bool = False,
    besieged_port: bool = False,
    pursuit: bool = False,
    side: int = 0,
) -> SightingResult:
    """One seeking side's d6 against one enemy side (§4 Sighting).

    Sighted on narrows 3+, coastal 4+, open sea 5+, ocean 6 — 3+ against a fleet that entered or
    left a port in that step (``target_used_port``) and against ships in a besieged port. Modifiers:
    +1 with ≥ 3 light ships (heavy frigates, frigates, sloops, brigs) at sea, −1 with none; +1 if the
    target has more than 20 ships at sea or escorts transports (+1 at most); +1 for a searching
    grade-A admiral, −1 for G–H; −1 in a gale season; +1 for a pursuer re-sighting (§5); +2 in a
    besieged-port engagement, where a modified 6+ also catches them at anchor [S]. A natural 6
    always sights, a natural 1 always fails.
    """
    if light_ships < 0 or target_ships_at_sea < 0:
        raise SpecError("light_ships", "ship counts cannot be negative")
    zone_needed = ruleset.sighting_target(zone_type)  # also validates the zone type
    needed = ruleset["sighting.port_move"] if target_used_port or besieged_port else zone_needed
    mods: list[tuple[str, int]] = []
    if light_ships >= ruleset["sighting.light_ships_needed"]:
        mods.append(("light ships", ruleset["sighting.light_ships_bonus"]))
    elif light_ships == 0:
        mods.append(("no light ships", ruleset["sighting.no_light_ships"]))
    if target_ships_at_sea > ruleset["sighting.large_target_ships"] or target_escorts_transports:
        mods.append(("large target or transports", ruleset["sighting.large_target_bonus"]))
    if admiral_grade == _BEST_GRADE:
        mods.append((f"admiral {admiral_grade}", ruleset["sighting.admiral_a_bonus"]))
    elif admiral_grade in _WORST_GRADES:
        mods.append((f"admiral {admiral_grade}", ruleset["sighting.admiral_gh_penalty"]))
    elif admiral_grade is not None and admiral_grade not in GRADES:
        raise SpecError("admiral_grade", f"unknown grade {admiral_grade!r}; allowed: {', '.join(GRADES)}")
    if gale_season:
        mods.append(("gale season", ruleset["sighting.gale_penalty"]))
    if pursuit:
        mods.append(("pursuit", ruleset["sighting.pursuit_bonus"]))
    if besieged_port:
        mods.append(("besieged port", ruleset["besieged_port.sighting_bonus"]))
    mod = sum(m for _, m in mods)
    raw = dice.roll(D6)
    total = raw + mod
    if raw == _NATURAL_SUCCESS:
        sighted = True
    elif raw == _NATURAL_FAILURE:
        sighted = False
    else:
        sighted = total >= needed
    at_anchor = besieged_port and sighted and total >= ruleset["besieged_port.at_anchor_on"]
    return SightingResult(
        sighted=sighted,
        at_anchor=at_anchor,
        needed=needed,
        modifiers=tuple(mods),
        dice=(ContactDie("sighting", side, raw, mod, total),),
    )


def intercept_roll(
    dice: Dice,
    ruleset: Ruleset = DEFAULT_RULESET,
    *,
    interceptor: ContactSide,
    target: ContactSide,
    interceptor_side: int = 0,
    besieged_port: bool = False,
) -> InterceptResult:
    """§4 intercept: opposed d6, interceptor first, each adding admiral grade + initiative
    nationality − 1 if out of supply (never the weather gauge); the interceptor wins on ≥.
    In a besieged-port engagement where the ships in port do not sally the fleet at sea adds +1 [S]
    (``besieged_port``)."""
    if interceptor_side not in (0, 1):
        raise ValueError(f"interceptor_side must be 0 or 1, got {interceptor_side!r}")
    oos = ruleset["intercept.out_of_supply"]

    def mod_of(side: ContactSide) -> int:
        return (
            ruleset.grade_mod(side.admiral_grade) + ruleset.initiative_nat(side.navy) + (0 if side.in_supply else oos)
        )

    mod_i = mod_of(interceptor) + (ruleset["besieged_port.intercept_bonus"] if besieged_port else 0)
    mod_t = mod_of(target)
    raw_i = dice.roll(D6)
    raw_t = dice.roll(D6)
    rolled = (
        ContactDie("intercept", interceptor_side, raw_i, mod_i, raw_i + mod_i),
        ContactDie("intercept", 1 - interceptor_side, raw_t, mod_t, raw_t + mod_t),
    )
    return InterceptResult(intercepted=raw_i + mod_i >= raw_t + mod_t, dice=rolled)


def weather_gauge_roll(
    dice: Dice,
    ruleset: Ruleset = DEFAULT_RULESET,
    *,
    sides: Sequence[ContactSide],
    interceptor: int | None = None,
    besieged_port_fleet: int | None = None,
) -> GaugeResult:
    """§4 weather gauge, at the start of each battle day: opposed d6 (side 0 first) + admiral grade
    + British +1 + the side that intercepted (the pursuer, on a pursuit day) +1 + [S] +2 for the
    fleet at sea next to a besieged port; ties re-rolled. The winner is side A of §5."""
    if len(sides) != 2:
        raise ValueError("weather_gauge_roll needs exactly two sides")
    for name, value in (("interceptor", interceptor), ("besieged_port_fleet", besieged_port_fleet)):
        if value not in (None, 0, 1):
            raise ValueError(f"{name} must be 0, 1 or None, got {value!r}")
    mods = []
    for k, side in enumerate(sides):
        mod = ruleset.grade_mod(side.admiral_grade)
        if side.navy == _BRITISH:
            mod += ruleset["gauge.british_bonus"]
        if interceptor == k:
            mod += ruleset["gauge.interceptor_bonus"]
        if besieged_port_fleet == k:
            mod += ruleset["besieged_port.gauge_bonus"]
        mods.append(mod)
    rolled: list[ContactDie] = []
    while True:
        r0 = dice.roll(D6)
        r1 = dice.roll(D6)
        rolled.append(ContactDie("gauge", 0, r0, mods[0], r0 + mods[0]))
        rolled.append(ContactDie("gauge", 1, r1, mods[1], r1 + mods[1]))
        if r0 + mods[0] != r1 + mods[1]:
            return GaugeResult(winner=0 if r0 + mods[0] > r1 + mods[1] else 1, dice=tuple(rolled))
