"""RULES.md §8 storms and attrition (and the §4 storm lift of a blockade), one rule case per test."""

from __future__ import annotations

import math

import pytest

from rules.dice import Dice, ScriptedDice, SeededDice, derive_seed
from rules.ruleset import DEFAULT_RULESET, Ruleset
from rules.strategic_log import StrategicLog
from rules.weather import (
    AttritionShip,
    AttritionUnit,
    Condition,
    Effect,
    ShipWeatherResult,
    WeatherShip,
    attrition_roll,
    attrition_roll_all,
    storm_roll,
    storm_threshold,
    storms_roll,
)

R = DEFAULT_RULESET


def ship(
    ship_id: int, condition: Condition = "ready", *, fleet: int = 1, pos: int | None = None, unit: int | None = None
) -> WeatherShip:
    return WeatherShip(ship_id, fleet, ship_id if pos is None else pos, condition, unit)


def one_ship_storm(condition: Condition, d10: int, *, unit: int | None = None) -> ShipWeatherResult:
    dice = ScriptedDice([6, d10])
    result = storm_roll("biscay", [ship(7, condition, unit=unit)], "summer", R, dice, StrategicLog())
    assert dice.unused == []
    assert result.storm
    return result.ships[0]


# --- storms: the zone's d6 -----------------------------------------------------------------------


def test_a_six_brings_a_storm_outside_the_gale_seasons() -> None:
    """§8 "6 (5–6 in a gale season) is a storm": in Summer a 5 is calm, a 6 a storm."""
    assert storm_threshold("summer", R) == 6
    calm = storm_roll("biscay", [ship(1)], "summer", R, ScriptedDice([5]), StrategicLog())
    assert not calm.storm and calm.ships == ()
    stormy = storm_roll("biscay", [ship(1)], "summer", R, ScriptedDice([6, 3]), StrategicLog())
    assert stormy.storm


def test_a_five_brings_a_storm_in_a_gale_season() -> None:
    """§8 "5–6 in a gale season"; §3 "Winter and Autumn are gale seasons": a 4 is calm, a 5 a storm."""
    for season in ("winter", "autumn"):
        assert storm_threshold(season, R) == 5
        assert not storm_roll("biscay", [ship(1)], season, R, ScriptedDice([4]), StrategicLog()).storm
        assert storm_roll("biscay", [ship(1)], season, R, ScriptedDice([5, 3]), StrategicLog()).storm


def test_a_calm_zone_rolls_no_ship_dice() -> None:
    """§8 only "every ship at sea there" rolls when there is a storm: a calm d6 is the only die."""
    log = StrategicLog()
    storm_roll("biscay", [ship(1), ship(2)], "spring", R, ScriptedDice([1]), log)
    assert [(r.purpose, r.die, r.raw) for r in log] == [("storm", "d6", 1)]


def test_a_zone_without_ships_at_sea_does_not_roll() -> None:
    """§8 "roll d6 for each zone [...] that has ships at sea"."""
    with pytest.raises(ValueError, match="no ships at sea"):
        storm_roll("biscay", [], "winter", R, ScriptedDice([6]), StrategicLog())


# --- storms: each ship's d10 ---------------------------------------------------------------------


def test_a_storm_one_damages_a_ready_ship() -> None:
    """§8 "1 = damaged, or lost if already damaged or disabled"."""
    r = one_ship_storm("ready", 1)
    assert r.effect is Effect.DAMAGED and r.condition_after == "damaged"


@pytest.mark.parametrize("condition", ["damaged", "disabled"])
def test_a_storm_one_sinks_a_ship_already_hurt(condition: Condition) -> None:
    """§8 "1 = damaged, or lost if already damaged or disabled"."""
    r = one_ship_storm(condition, 1)
    assert r.effect is Effect.LOST and r.condition_after == "sunk"


def test_a_storm_two_damages_a_ready_ship() -> None:
    """§8 "2 = damaged"."""
    r = one_ship_storm("ready", 2)
    assert r.effect is Effect.DAMAGED and r.condition_after == "damaged"


@pytest.mark.parametrize("condition", ["damaged", "disabled"])
def test_a_storm_two_does_nothing_to_a_ship_already_hurt(condition: Condition) -> None:
    """§8 "2 = damaged (no effect on a ship already damaged or disabled)"."""
    r = one_ship_storm(condition, 2)
    assert r.effect is Effect.NONE and r.condition_after == condition


@pytest.mark.parametrize("face", [3, 10])
def test_a_storm_three_to_ten_does_nothing(face: int) -> None:
    """§8 "3–10 nothing"."""
    r = one_ship_storm("ready", face)
    assert r.effect is Effect.NONE and r.condition_after == "ready"


def test_a_transport_lost_in_a_storm_loses_its_land_unit() -> None:
    """§8 "A lost transport loses its land unit"; a damaged one keeps it."""
    lost = one_ship_storm("damaged", 1, unit=42)
    assert lost.land_unit_lost == 42
    damaged = one_ship_storm("ready", 1, unit=42)
    assert damaged.land_unit_lost is None


def test_storm_dice_go_to_ships_by_fleet_id_then_line_order() -> None:
    """§3 "storms per zone in key order, the d6, then ships by fleet id and line order"."""
    ships = [ship(1, fleet=9, pos=0), ship(2, fleet=3, pos=1), ship(3, fleet=3, pos=0), ship(4, fleet=5, pos=0)]
    log = StrategicLog()
    result = storm_roll("biscay", ships, "winter", R, ScriptedDice([6, 3, 4, 5, 6]), log)
    assert [r.ship_id for r in result.ships] == [3, 2, 4, 1]
    assert [r.subject for r in log][1:] == ["ship:3", "ship:2", "ship:4", "ship:1"]
    assert [r.raw for r in log] == [6, 3, 4, 5, 6]


def test_storms_visit_zones_in_key_order_each_with_its_own_dice() -> None:
    """§3 "storms per zone in key order"; zones with no ships at sea are skipped and get no dice."""
    asked: list[str] = []

    def dice_for(zone: str) -> Dice:
        asked.append(zone)
        return ScriptedDice([6, 3] if zone == "channel" else [1])

    log = StrategicLog()
    results = storms_roll({"north_sea": [ship(1)], "channel": [ship(2)], "baltic": []}, "summer", R, dice_for, log)
    assert asked == ["channel", "north_sea"]
    assert [z.zone for z in results] == ["channel", "north_sea"]
    assert [(r.place, r.purpose) for r in log] == [
        ("channel", "storm"),
        ("channel", "storm_damage"),
        ("north_sea", "storm"),
    ]


def test_a_storm_that_hits_half_a_blockading_fleet_lifts_the_blockade() -> None:
    """§4 "A storm in phase 7 that damages or sinks at least half the blockading fleet's ships lifts it"."""
    ships = [ship(1, fleet=1), ship(2, fleet=1), ship(3, "damaged", fleet=2), ship(4, fleet=2), ship(5, fleet=2)]
    # fleet 1: one of two damaged (half) → lifted; fleet 2: ship 3 rolls 2 (no effect on a damaged
    # ship), ship 4 is damaged, ship 5 untouched → one of three, not lifted.
    result = storm_roll("channel", ships, "autumn", R, ScriptedDice([5, 2, 7, 2, 1, 9]), StrategicLog())
    assert result.fleets_lifted({1: 2, 2: 3}, R) == frozenset({1})
    assert result.fleets_lifted({2: 3}, Ruleset.from_flat({"storm.blockade_lift_pct": 30})) == frozenset({2})


# --- attrition -----------------------------------------------------------------------------------


def attr_ship(ship_id: int, turns_out: int, condition: Condition = "ready", **kw: int) -> AttritionShip:
    return AttritionShip(ship(ship_id, condition, **kw), turns_out)


def test_attrition_one_damages_an_out_of_supply_ship() -> None:
    """§8 "every ship out of supply [...] rolls d10: 1 [...] damaged"."""
    result = attrition_roll("biscay", [attr_ship(1, 1)], [], R, ScriptedDice([1]), StrategicLog())
    assert result.ships[0].effect is Effect.DAMAGED


@pytest.mark.parametrize("condition", ["damaged", "disabled"])
def test_attrition_sinks_a_ship_already_hurt(condition: Condition) -> None:
    """§8 "damaged, or lost if already damaged or disabled"."""
    result = attrition_roll("brest", [attr_ship(1, 1, condition)], [], R, ScriptedDice([1]), StrategicLog())
    assert result.ships[0].effect is Effect.LOST and result.ships_lost == (1,)


def test_attrition_two_spares_a_ship_in_its_first_two_turns_out_of_supply() -> None:
    """§8 "1 — or 1–2 from its fleet's third consecutive turn out of supply": turn 2 still needs a 1."""
    result = attrition_roll("biscay", [attr_ship(1, 2)], [], R, ScriptedDice([2]), StrategicLog())
    assert result.ships[0].effect is Effect.NONE


def test_attrition_widens_to_two_from_the_third_turn_out_of_supply() -> None:
    """§8 "1–2 from its fleet's third consecutive turn out of supply"; a 3 still spares it."""
    result = attrition_roll(
        "biscay",
        [attr_ship(1, 3), attr_ship(2, 5, "damaged"), attr_ship(3, 3)],
        [],
        R,
        ScriptedDice([2, 2, 3]),
        StrategicLog(),
    )
    assert [r.effect for r in result.ships] == [Effect.DAMAGED, Effect.LOST, Effect.NONE]


def test_attrition_one_loses_an_out_of_supply_land_unit_and_two_only_from_the_third_turn() -> None:
    """§8 "Each land unit out of supply rolls d10: 1 (1–2 from the third consecutive turn) lost"."""
    units = [AttritionUnit(1, 1), AttritionUnit(2, 1), AttritionUnit(3, 2), AttritionUnit(4, 3), AttritionUnit(5, 3)]
    result = attrition_roll("cadiz", [], units, R, ScriptedDice([1, 2, 2, 2, 3]), StrategicLog())
    assert [u.lost for u in result.units] == [True, False, False, True, False]
    assert result.units_lost == (1, 4)


def test_attrition_rolls_ships_by_fleet_and_line_then_land_units_by_id() -> None:
    """§3 "attrition ships by fleet id and line order, then land units by id"."""
    ships = [attr_ship(10, 1, fleet=4, pos=1), attr_ship(11, 1, fleet=2, pos=0), attr_ship(12, 1, fleet=4, pos=0)]
    units = [AttritionUnit(9, 1), AttritionUnit(3, 1)]
    log = StrategicLog()
    attrition_roll("toulon", ships, units, R, ScriptedDice([5, 5, 5, 5, 5]), log)
    assert [(r.purpose, r.subject) for r in log] == [
        ("attrition", "ship:11"),
        ("attrition", "ship:12"),
        ("attrition", "ship:10"),
        ("attrition_unit", "unit:3"),
        ("attrition_unit", "unit:9"),
    ]


def test_a_unit_aboard_a_transport_lost_to_attrition_is_lost_without_a_roll() -> None:
    """§7 "A lost or captured transport loses its unit": it does not roll attrition itself."""
    transport = attr_ship(5, 1, "damaged", unit=77)
    log = StrategicLog()
    result = attrition_roll(
        "biscay", [transport], [AttritionUnit(77, 1), AttritionUnit(78, 1)], R, ScriptedDice([1, 4]), log
    )
    assert result.units_lost == (77,)
    assert [r.subject for r in log] == ["ship:5", "unit:78"]
    assert result.units[0].die is None and result.units[0].lost


def test_attrition_follows_the_campaigns_ruleset() -> None:
    """Every number is a setting: with the widening from the 2nd turn, a 2 on turn 2 damages."""
    house = Ruleset.from_flat({"attrition.prolonged_from_turn": 2})
    result = attrition_roll("biscay", [attr_ship(1, 2)], [], house, ScriptedDice([2]), StrategicLog())
    assert result.ships[0].effect is Effect.DAMAGED


def test_attrition_visits_places_in_key_order_and_skips_empty_ones() -> None:
    """§3 dice are seeded per place: each place with something out of supply gets its own dice."""
    asked: list[str] = []

    def dice_for(place: str) -> Dice:
        asked.append(place)
        return ScriptedDice([9])

    results = attrition_roll_all(
        {"toulon": ([], [AttritionUnit(1, 1)]), "brest": ([attr_ship(2, 1)], []), "cadiz": ([], [])},
        R,
        dice_for,
        StrategicLog(),
    )
    assert asked == ["brest", "toulon"]
    assert [p.place for p in results] == ["brest", "toulon"]


def test_a_ship_given_twice_is_refused() -> None:
    """One die per ship: a duplicate id is a caller's error, not a second roll."""
    with pytest.raises(ValueError, match="twice"):
        storm_roll("biscay", [ship(1), ship(1)], "winter", R, ScriptedDice([6, 1, 1]), StrategicLog())


# --- statistics ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("season", "p"), [("winter", 2 / 6), ("summer", 1 / 6)])
def test_storm_frequency_matches_the_rule_in_gale_and_normal_seasons(season: str, p: float) -> None:
    """§8 "6 (5–6 in a gale season) is a storm": over 20,000 zone-turns from a fixed seed the
    frequency is within 4 standard errors of 2/6 in a gale season and 1/6 otherwise."""
    n = 20_000
    dice = SeededDice(derive_seed("storm-frequency", season))
    storms = sum(storm_roll("z", [ship(1)], season, R, dice, StrategicLog()).storm for _ in range(n))
    se = math.sqrt(p * (1 - p) / n)
    assert abs(storms / n - p) < 4 * se
