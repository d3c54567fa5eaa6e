"""Storms and attrition (RULES.md §8 "Supply, storms, attrition"; the blockade lift of §4).

Storms: "roll d6 for each zone, in key order, that has ships at sea (ships in port or building
never roll); 6 (5–6 in a gale season) is a storm. Every ship at sea there rolls d10: 1 = damaged,
or lost if already damaged or disabled; 2 = damaged (no effect on a ship already damaged or
disabled); 3–10 nothing. A lost transport loses its land unit."

§4 Blockade: "A storm in phase 7 that damages or sinks at least half the blockading fleet's ships
lifts it for supply, repairs and income."

Attrition: "every ship out of supply (at sea or in port, not building) rolls d10: 1 — or 1–2 from
its fleet's third consecutive turn out of supply — damaged, or lost if already damaged or
disabled. Each land unit out of supply rolls d10: 1 (1–2 from the third consecutive turn) lost."

Dice order (RULES.md §3): storms per zone in key order, the zone's d6, then its ships by fleet id
and line order; attrition ships by fleet id and line order, then land units by id. The functions
for one place sort their inputs that way themselves; the functions for many places take a
``dice_for(place)`` factory so the caller can seed each place's dice from (campaign seed, turn,
phase, place), and visit places in key order.

Pure Python: no Django, no I/O. Ships and units are the caller's ids.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final, Literal

from rules.dice import Dice
from rules.ruleset import Ruleset
from rules.strategic_log import ATTRITION, ATTRITION_UNIT, STORM, STORM_DAMAGE, StrategicDie, StrategicLog

#: A ship's condition as far as weather cares: afloat ones only (building ships never roll).
Condition = Literal["ready", "damaged", "disabled"]
AFLOAT: Final = frozenset({"ready", "damaged", "disabled"})
#: Conditions in which a further hit sinks the ship ("lost if already damaged or disabled").
_HURT: Final = frozenset({"damaged", "disabled"})
#: A percentage setting is compared as ``_PERCENT × part ≥ pct × whole`` (whole numbers only).
_PERCENT: Final = 100


class Effect(StrEnum):
    """What one weather die did to a ship or land unit."""

    NONE = "none"
    DAMAGED = "damaged"
    LOST = "lost"


@dataclass(frozen=True, slots=True)
class WeatherShip:
    """A ship exposed to the weather, by the caller's ids.

    ``line_position`` is its place in its fleet's line order (any sortable whole number; only the
    order matters). ``land_unit`` is the id of the land unit a transport carries, if any. ``label``
    names the ship in the dice log (e.g. "Victory (GB)"), so a GM reads it without looking ids up.
    """

    ship_id: int
    fleet_id: int
    line_position: int
    condition: Condition
    land_unit: int | None = None
    label: str = ""

    @property
    def subject(self) -> str:
        return f"{self.label} [ship:{self.ship_id}]" if self.label else f"ship:{self.ship_id}"

    def __post_init__(self) -> None:
        if self.condition not in AFLOAT:
            raise ValueError(f"ship {self.ship_id}: condition {self.condition!r} is not ready, damaged or disabled")

    @property
    def order_key(self) -> tuple[int, int, int]:
        """RULES.md §3: "ships by fleet id and line order" (ship id settles a duplicate position)."""
        return (self.fleet_id, self.line_position, self.ship_id)


@dataclass(frozen=True, slots=True)
class ShipWeatherResult:
    """One ship's d10 and what it did. ``condition_after`` is "sunk" when the ship was lost."""

    ship_id: int
    fleet_id: int
    die: StrategicDie
    effect: Effect
    condition_before: Condition
    condition_after: Literal["ready", "damaged", "disabled", "sunk"]
    #: The land unit that went down with a lost transport.
    land_unit_lost: int | None


def _ship_hit(ship: WeatherShip, die: StrategicDie, lost_max: int, damaged_max: int) -> ShipWeatherResult:
    """Apply one weather d10: ≤ ``lost_max`` damages (sinks a hurt ship); ≤ ``damaged_max`` damages
    a ready ship only; anything higher does nothing. Attrition passes the same bound twice."""
    effect = Effect.NONE
    if die.result <= lost_max:
        effect = Effect.LOST if ship.condition in _HURT else Effect.DAMAGED
    elif die.result <= damaged_max and ship.condition == "ready":
        effect = Effect.DAMAGED
    after: Literal["ready", "damaged", "disabled", "sunk"] = ship.condition
    if effect is Effect.DAMAGED:
        after = "damaged"
    elif effect is Effect.LOST:
        after = "sunk"
    return ShipWeatherResult(
        ship_id=ship.ship_id,
        fleet_id=ship.fleet_id,
        die=die,
        effect=effect,
        condition_before=ship.condition,
        condition_after=after,
        land_unit_lost=ship.land_unit if effect is Effect.LOST else None,
    )


def _check_unique_ships(ships: Sequence[WeatherShip], place: str) -> None:
    ids = [s.ship_id for s in ships]
    if len(ids) != len(set(ids)):
        raise ValueError(f"{place}: a ship id appears twice")


# --- storms --------------------------------------------------------------------------------------


def storm_threshold(season: str, ruleset: Ruleset) -> int:
    """The zone d6 that brings a storm: ``storm.on_gale`` in a gale season, else ``storm.on``."""
    return ruleset["storm.on_gale"] if ruleset.is_gale_season(season) else ruleset["storm.on"]


@dataclass(frozen=True, slots=True)
class ZoneStorm:
    """One zone's storm roll and, if a storm broke, every ship's d10 in rolling order."""

    zone: str
    die: StrategicDie
    storm: bool
    ships: tuple[ShipWeatherResult, ...]

    @property
    def ships_lost(self) -> tuple[int, ...]:
        return tuple(r.ship_id for r in self.ships if r.effect is Effect.LOST)

    @property
    def ships_damaged(self) -> tuple[int, ...]:
        return tuple(r.ship_id for r in self.ships if r.effect is Effect.DAMAGED)

    @property
    def land_units_lost(self) -> tuple[int, ...]:
        return tuple(r.land_unit_lost for r in self.ships if r.land_unit_lost is not None)

    def fleets_lifted(self, fleet_sizes: Mapping[int, int], ruleset: Ruleset) -> frozenset[int]:
        """Fleets the storm hit hard enough to lift their blockade (§4).

        ``fleet_sizes`` gives each blockading fleet's ship count at sea in this zone; a fleet is
        lifted when the storm damaged or sank at least ``storm.blockade_lift_pct`` % of them.
        """
        hit = dict.fromkeys(fleet_sizes, 0)
        for r in self.ships:
            if r.effect is not Effect.NONE and r.fleet_id in hit:
                hit[r.fleet_id] += 1
        pct = ruleset["storm.blockade_lift_pct"]
        # Whole-number comparison of hit/size ≥ pct/100, so "half of 3" needs 2 ships.
        return frozenset(
            fleet for fleet, size in fleet_sizes.items() if size > 0 and _PERCENT * hit[fleet] >= pct * size
        )


def storm_roll(
    zone: str,
    ships: Iterable[WeatherShip],
    season: str,
    ruleset: Ruleset,
    dice: Dice,
    log: StrategicLog,
) -> ZoneStorm:
    """Roll one zone's storm d6 and, on a storm, every ship's d10.

    ``ships`` are the ships at sea in ``zone`` (never in port, never building; precondition: at
    least one — a zone without ships at sea does not roll). They are rolled by fleet id then line
    position, whatever order they come in. Logs the d6 as ``storm`` and each d10 as
    ``storm_damage`` with place ``zone``.
    """
    ordered = sorted(ships, key=lambda s: s.order_key)
    if not ordered:
        raise ValueError(f"{zone}: a zone with no ships at sea does not roll for storms")
    _check_unique_ships(ordered, zone)
    gale = ruleset.is_gale_season(season)
    threshold = storm_threshold(season, ruleset)
    d6 = log.roll(
        dice,
        purpose=STORM,
        place=zone,
        die="d6",
        detail=f"{'gale season' if gale else season}: storm on {threshold}+",
    )
    storm = d6.result >= threshold
    if not storm:
        return ZoneStorm(zone=zone, die=d6, storm=False, ships=())
    lost_max = ruleset["storm.ship_damaged_or_lost"]
    damaged_max = ruleset["storm.ship_damaged"]
    results = []
    for ship in ordered:
        die = log.roll(
            dice,
            purpose=STORM_DAMAGE,
            place=zone,
            die="d10",
            subject=ship.subject,
            detail=f"fleet {ship.fleet_id}, {ship.condition}",
        )
        results.append(_ship_hit(ship, die, lost_max, damaged_max))
    return ZoneStorm(zone=zone, die=d6, storm=True, ships=tuple(results))


def storms_roll(
    zones: Mapping[str, Iterable[WeatherShip]],
    season: str,
    ruleset: Ruleset,
    dice_for: Callable[[str], Dice],
    log: StrategicLog,
) -> tuple[ZoneStorm, ...]:
    """Phase 7 storms for every zone: zones in key order, zones without ships skipped.

    ``dice_for(zone)`` gives the dice of that place (seeded from campaign seed, turn, phase and
    zone in production); it is called once per zone that rolls.
    """
    out = []
    for zone in sorted(zones):
        ships = list(zones[zone])
        if ships:
            out.append(storm_roll(zone, ships, season, ruleset, dice_for(zone), log))
    return tuple(out)


# --- attrition -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AttritionShip:
    """An out-of-supply ship (at sea or in port, not building).

    ``turns_out`` is its fleet's consecutive turns out of supply counting this one (1 = the first).
    """

    ship: WeatherShip
    turns_out: int

    def __post_init__(self) -> None:
        if self.turns_out < 1:
            raise ValueError(f"ship {self.ship.ship_id}: turns_out must be at least 1 (this turn counts)")


@dataclass(frozen=True, slots=True)
class AttritionUnit:
    """An out-of-supply land unit; ``turns_out`` counts this turn (1 = the first)."""

    unit_id: int
    turns_out: int

    def __post_init__(self) -> None:
        if self.turns_out < 1:
            raise ValueError(f"unit {self.unit_id}: turns_out must be at least 1 (this turn counts)")


@dataclass(frozen=True, slots=True)
class UnitWeatherResult:
    """One land unit's attrition d10; ``die`` is None when it went down with its transport first."""

    unit_id: int
    die: StrategicDie | None
    lost: bool


@dataclass(frozen=True, slots=True)
class PlaceAttrition:
    """Attrition at one place (zone or port), in rolling order."""

    place: str
    ships: tuple[ShipWeatherResult, ...]
    units: tuple[UnitWeatherResult, ...]

    @property
    def ships_lost(self) -> tuple[int, ...]:
        return tuple(r.ship_id for r in self.ships if r.effect is Effect.LOST)

    @property
    def ships_damaged(self) -> tuple[int, ...]:
        return tuple(r.ship_id for r in self.ships if r.effect is Effect.DAMAGED)

    @property
    def units_lost(self) -> tuple[int, ...]:
        """Land units lost this phase here: aboard lost transports first, then by their own d10."""
        aboard = [r.land_unit_lost for r in self.ships if r.land_unit_lost is not None]
        return tuple(aboard + [u.unit_id for u in self.units if u.lost and u.die is not None])


def attrition_threshold(turns_out: int, ship: bool, ruleset: Ruleset) -> int:
    """Highest d10 that hits: 1, or 2 from the ``attrition.prolonged_from_turn``-th turn out."""
    prolonged = turns_out >= ruleset["attrition.prolonged_from_turn"]
    if ship:
        return ruleset["attrition.ship_on_prolonged"] if prolonged else ruleset["attrition.ship_on"]
    return ruleset["attrition.unit_on_prolonged"] if prolonged else ruleset["attrition.unit_on"]


def attrition_roll(
    place: str,
    ships: Iterable[AttritionShip],
    units: Iterable[AttritionUnit],
    ruleset: Ruleset,
    dice: Dice,
    log: StrategicLog,
) -> PlaceAttrition:
    """Roll attrition at one place for the out-of-supply ships and land units the caller gives.

    Precondition: every ship and unit given is out of supply this turn (the caller decides
    supply, RULES.md §8). Ships roll first, by fleet id then line position; then land units by
    id. A unit aboard a transport lost here goes down with it and does not roll. Logs ``attrition``
    for ships and ``attrition_unit`` for land units, with place ``place``.
    """
    ordered_ships = sorted(ships, key=lambda a: a.ship.order_key)
    _check_unique_ships([a.ship for a in ordered_ships], place)
    ordered_units = sorted(units, key=lambda u: u.unit_id)
    if len({u.unit_id for u in ordered_units}) != len(ordered_units):
        raise ValueError(f"{place}: a land unit id appears twice")

    ship_results = []
    for entry in ordered_ships:
        ship = entry.ship
        on = attrition_threshold(entry.turns_out, True, ruleset)
        die = log.roll(
            dice,
            purpose=ATTRITION,
            place=place,
            die="d10",
            subject=ship.subject,
            detail=f"fleet {ship.fleet_id}, {ship.condition}, turn {entry.turns_out} out of supply: hit on 1–{on}",
        )
        # Attrition has a single band: a hit damages, or sinks a ship already damaged or disabled.
        ship_results.append(_ship_hit(ship, die, on, on))

    drowned = {r.land_unit_lost for r in ship_results if r.land_unit_lost is not None}
    unit_results = []
    for unit in ordered_units:
        if unit.unit_id in drowned:
            unit_results.append(UnitWeatherResult(unit_id=unit.unit_id, die=None, lost=True))
            continue
        on = attrition_threshold(unit.turns_out, False, ruleset)
        die = log.roll(
            dice,
            purpose=ATTRITION_UNIT,
            place=place,
            die="d10",
            subject=f"unit:{unit.unit_id}",
            detail=f"turn {unit.turns_out} out of supply: lost on 1–{on}",
        )
        unit_results.append(UnitWeatherResult(unit_id=unit.unit_id, die=die, lost=die.result <= on))
    return PlaceAttrition(place=place, ships=tuple(ship_results), units=tuple(unit_results))


def attrition_roll_all(
    places: Mapping[str, tuple[Sequence[AttritionShip], Sequence[AttritionUnit]]],
    ruleset: Ruleset,
    dice_for: Callable[[str], Dice],
    log: StrategicLog,
) -> tuple[PlaceAttrition, ...]:
    """Phase 7 attrition for every place (zone or port key → (ships, units)), places in key order.

    Places with nothing out of supply are skipped and get no dice; ``dice_for(place)`` is called
    once per place that rolls.
    """
    out = []
    for place in sorted(places):
        ships, units = places[place]
        if ships or units:
            out.append(attrition_roll(place, ships, units, ruleset, dice_for(place), log))
    return tuple(out)
