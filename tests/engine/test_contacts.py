"""Sighting, intercept and weather gauge (RULES.md §4; §5's pursuit), one rule case per test."""

from __future__ import annotations

from typing import Any

import pytest

from battles.engine import (
    ContactSide,
    Ruleset,
    ScriptedDice,
    SpecError,
    intercept_roll,
    sighting_roll,
    weather_gauge_roll,
)

PLAIN: dict[str, Any] = {"zone_type": "open", "light_ships": 1, "target_ships_at_sea": 5}


def sight(raw: int, ruleset: Ruleset | None = None, **kw: Any) -> Any:
    dice = ScriptedDice([raw])
    result = sighting_roll(dice, ruleset or Ruleset.from_flat(), **{**PLAIN, **kw})
    assert dice.unused == []
    return result


@pytest.mark.parametrize(("zone", "needed"), [("narrows", 3), ("coastal", 4), ("open", 5), ("ocean", 6)])
def test_sighting_needs_three_four_five_or_six_by_zone_type(zone, needed):
    """§4: "sighted on narrows 3+, coastal 4+, open sea 5+, ocean 6"."""
    assert sight(needed, zone_type=zone).sighted
    if needed - 1 > 1:
        assert not sight(needed - 1, zone_type=zone).sighted
    assert sight(needed, zone_type=zone).needed == needed


def test_a_fleet_entering_or_leaving_port_is_sighted_on_three():
    """§4: "3+ against a fleet that entered or left a port in that step"."""
    assert sight(3, zone_type="ocean", target_used_port=True).sighted
    assert not sight(2, zone_type="ocean", target_used_port=True).sighted


@pytest.mark.parametrize(
    ("kw", "mod"),
    [
        ({"light_ships": 3}, 1),  # ≥ 3 heavy frigates, frigates, sloops or brigs
        ({"light_ships": 2}, 0),
        ({"light_ships": 0}, -1),  # none
        ({"target_ships_at_sea": 21}, 1),  # more than 20
        ({"target_ships_at_sea": 20}, 0),
        ({"target_escorts_transports": True}, 1),
        ({"target_ships_at_sea": 30, "target_escorts_transports": True}, 1),  # +1 at most
        ({"admiral_grade": "A"}, 1),
        ({"admiral_grade": "B"}, 0),
        ({"admiral_grade": "G"}, -1),
        ({"admiral_grade": "H"}, -1),
        ({"gale_season": True}, -1),
        ({"pursuit": True}, 1),  # §5: "a pursuer re-sights at +1"
    ],
)
def test_sighting_modifiers(kw, mod):
    """§4 Sighting modifiers: light ships +1/−1, a large or escorting target +1 (+1 at most),
    admiral A +1 / G–H −1, gale season −1; §5 pursuit +1."""
    result = sight(3, **kw)
    assert result.dice[0].mod == mod
    assert result.dice[0].result == 3 + mod


def test_a_natural_six_always_sights():
    """§4: "A natural 6 always sights" — even on the ocean at −3."""
    result = sight(6, zone_type="ocean", light_ships=0, gale_season=True, admiral_grade="H")
    assert result.dice[0].result == 3
    assert result.sighted


def test_a_natural_one_always_fails():
    """§4: "a natural 1 always fails" — even in the narrows at +4."""
    kw: dict[str, Any] = {
        "zone_type": "narrows",
        "light_ships": 5,
        "target_ships_at_sea": 40,
        "admiral_grade": "A",
        "pursuit": True,
    }
    result = sight(1, **kw)
    assert result.dice[0].result == 5
    assert not result.sighted


def test_the_besieged_port_engagement_sights_on_three_at_plus_two_and_catches_them_at_anchor_on_six():
    """§4 [S]: "sighting 3+ at +2, a modified 6+ catching them at anchor"."""
    caught = sight(4, zone_type="ocean", besieged_port=True)
    assert (caught.sighted, caught.at_anchor, caught.dice[0].result) == (True, True, 6)
    sighted = sight(3, zone_type="ocean", besieged_port=True)
    assert (sighted.sighted, sighted.at_anchor) == (True, False)
    dark = sight(4, zone_type="ocean", besieged_port=True, light_ships=0)
    assert (dark.sighted, dark.at_anchor) == (True, False)
    assert not sight(1, zone_type="ocean", besieged_port=True).sighted


def test_a_house_rule_changes_the_sighting_number():
    """``sighting.open`` is a setting."""
    easier = Ruleset.from_flat({"sighting.open": 4})
    assert sight(4, easier).sighted
    assert not sight(4).sighted


def test_an_unknown_zone_type_is_refused():
    with pytest.raises(ValueError, match="zone type"):
        sight(3, zone_type="lake")


def test_the_interceptor_wins_ties():
    """§4: "opposed d6 … interceptor wins on ≥"."""
    dice = ScriptedDice([4, 4])
    result = intercept_roll(dice, interceptor=ContactSide("FR"), target=ContactSide("NL"))
    assert result.intercepted
    assert not intercept_roll(ScriptedDice([3, 4]), interceptor=ContactSide("FR"), target=ContactSide("NL")).intercepted


def test_intercept_adds_admiral_grade_initiative_nationality_and_out_of_supply():
    """§4: "each adding admiral grade + initiative nationality −1 if out of supply (never the
    gauge)". British admiral A: +3; Russian, admiral H, out of supply: −3."""
    result = intercept_roll(
        ScriptedDice([1, 6]),
        interceptor=ContactSide("GB", "A"),
        target=ContactSide("RU", "H", in_supply=False),
        interceptor_side=1,
    )
    assert [(d.side, d.mod, d.result) for d in result.dice] == [(1, 3, 4), (0, -3, 3)]
    assert result.intercepted


def test_the_besieged_port_engagement_intercepts_at_plus_one():
    """§4 [S]: "intercept +1 unless they sally"."""
    result = intercept_roll(
        ScriptedDice([3, 4]), interceptor=ContactSide("FR"), target=ContactSide("NL"), besieged_port=True
    )
    assert result.dice[0].mod == 1
    assert result.intercepted


def test_a_weather_gauge_tie_is_rolled_again():
    """§4: "opposed d6 …; ties re-rolled. The winner is side A of §5"."""
    result = weather_gauge_roll(ScriptedDice([3, 3, 2, 5]), sides=[ContactSide("FR"), ContactSide("NL")])
    assert [(d.side, d.raw) for d in result.dice] == [(0, 3), (1, 3), (0, 2), (1, 5)]
    assert result.winner == 1


def test_weather_gauge_modifiers():
    """§4: "+ admiral grade + British +1 + the side that intercepted (the pursuer, on a pursuit
    day) +1 + [S] +2 for the fleet at sea next to a besieged port"."""
    result = weather_gauge_roll(
        ScriptedDice([1, 1]),
        sides=[ContactSide("GB", "A"), ContactSide("FR", "C")],
        interceptor=1,
        besieged_port_fleet=1,
    )
    assert [d.mod for d in result.dice] == [3, 4]
    assert result.winner == 1
    us = weather_gauge_roll(ScriptedDice([1, 2]), sides=[ContactSide("US"), ContactSide("FR")])
    assert us.dice[0].mod == 0  # the gauge's nationality bonus is British only


def test_contact_sides_are_validated():
    with pytest.raises(SpecError, match="navy"):
        ContactSide("XX")
    with pytest.raises(SpecError, match="grade"):
        ContactSide("GB", "Z")
