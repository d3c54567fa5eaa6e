"""The battle spec of CONTRACT.md: defaults, validation naming the field, and §4's line rule."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from battles.engine import (
    AdmiralSpec,
    BattleSpec,
    SeededDice,
    ShipSpec,
    SideSpec,
    SpecError,
    fight_day,
    line_eligible,
    parse_spec,
    spec_to_json,
)

BODY: dict[str, Any] = {
    "type": "fleet_action",
    "sides": [
        {
            "name": "British",
            "navy": "GB",
            "admiral": {"name": "Nelson", "grade": "A"},
            "crew": "B",
            "weather_gauge": True,
            "ships": [{"name": "Victory", "class": "1st"}, {"name": "Temeraire", "class": "2nd", "crew": "C"}],
        },
        {
            "name": "Combined",
            "navy": "FR",
            "ships": [
                {"name": "Bucentaure", "class": "3rd-74"},
                {"name": "Santisima Trinidad", "class": "four-decker", "navy": "ES", "condition": "damaged"},
            ],
        },
    ],
}


def body(**changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(BODY)
    out.update(changes)
    return out


def test_defaults_follow_the_contract():
    """CONTRACT.md: max_rounds default 6 (the ruleset's), admiral null, crew "D", in_supply true,
    weather_gauge and at_anchor false; a ship's crew and navy default to its side's, condition ready."""
    spec = parse_spec(body())
    british, combined = spec.sides
    assert spec.max_rounds is None
    assert (combined.admiral, combined.crew, combined.in_supply, combined.at_anchor) == (None, "D", True, False)
    assert british.admiral == AdmiralSpec("A", "Nelson")
    assert [(s.crew, s.navy, s.condition) for s in british.ships] == [("B", "GB", "ready"), ("C", "GB", "ready")]
    assert [(s.navy, s.condition) for s in combined.ships] == [("FR", "ready"), ("ES", "damaged")]


def test_a_spec_round_trips_through_json():
    spec = parse_spec(body(max_rounds=4))
    assert parse_spec(spec_to_json(spec)) == spec


def _side(k: int) -> dict[str, Any]:
    return copy.deepcopy(BODY["sides"][k])


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        (body(type="battle_royale"), "type", "unknown type 'battle_royale'"),
        (body(sides=[_side(0)]), "sides", "exactly two sides"),
        (body(sides=[_side(0), _side(1), _side(1)]), "sides", "exactly two sides"),
        (body(sides=[{**_side(0), "navy": "XX"}, _side(1)]), "sides[0].navy", "unknown navy 'XX'"),
        (body(sides=[{**_side(0), "crew": "Z"}, _side(1)]), "sides[0].crew", "unknown grade 'Z'"),
        (
            body(sides=[{**_side(0), "admiral": {"name": "N", "grade": "K"}}, _side(1)]),
            "sides[0].admiral.grade",
            "unknown grade 'K'",
        ),
        (
            body(sides=[_side(0), {**_side(1), "ships": [{"name": "X", "class": "galleon"}]}]),
            "sides[1].ships[0].class",
            "unknown class 'galleon'; allowed: four-decker, 1st",
        ),
        (
            body(sides=[_side(0), {**_side(1), "ships": [{"name": "X", "class": "1st", "condition": "sunk"}]}]),
            "sides[1].ships[0].condition",
            "unknown condition 'sunk'; allowed: ready, damaged",
        ),
        (
            body(sides=[_side(0), {**_side(1), "ships": [{"name": "X", "class": "1st", "crew": "Q"}]}]),
            "sides[1].ships[0].crew",
            "unknown grade 'Q'",
        ),
        (body(sides=[_side(0), {**_side(1), "ships": []}]), "sides[1].ships", "at least one ship"),
        (body(type="running_the_guns"), "port", "needs a port"),
        (
            body(sides=[_side(0), {**_side(1), "weather_gauge": True}]),
            "sides[1].weather_gauge",
            "both sides cannot have the weather gauge",
        ),
        (
            body(sides=[{**_side(0), "at_anchor": True}, {**_side(1), "at_anchor": True}]),
            "sides[1].at_anchor",
            "both sides cannot be at anchor",
        ),
        (
            body(sides=[_side(0), {**_side(1), "ships": [{"name": "Victory", "class": "1st"}]}]),
            "sides[1].ships[0].name",
            "duplicate ship name 'Victory'",
        ),
        (body(max_rounds=0), "max_rounds", "out of range"),
        (body(max_rounds="six"), "max_rounds", "whole number"),
        (body(sides=[{**_side(0), "in_supply": "yes"}, _side(1)]), "sides[0].in_supply", "true or false"),
        (body(sides=[_side(0), {**_side(1), "ships": [{"class": "1st"}]}]), "sides[1].ships[0].name", "required"),
        (body(type="running_the_guns", port={"fortification": -1}), "port.fortification", "out of range"),
        ([], "spec", "must be an object"),
    ],
)
def test_an_invalid_spec_names_the_field(data, field, words):
    """CONTRACT.md: "Invalid (exit 2, the field named): unknown type, navy, grade, class or
    condition; not exactly two sides; a side without ships (except side 1 of running the guns);
    running the guns without a port; both sides with the weather gauge; both at anchor; duplicate
    ship names"."""
    with pytest.raises(SpecError) as caught:
        parse_spec(data)
    assert caught.value.field == field
    assert words in caught.value.message
    assert str(caught.value).startswith(f"{field}: ")


def test_running_the_guns_may_find_an_empty_port():
    """CONTRACT.md: a side without ships is invalid "except side 1 of running the guns"."""
    spec = parse_spec(
        body(
            type="running_the_guns",
            port={"name": "Gibraltar", "fortification": 3, "gibraltar": True},
            sides=[_side(0), {**_side(1), "ships": []}],
        )
    )
    assert spec.sides[1].ships == ()
    assert spec.port is not None and spec.port.gibraltar


def test_unknown_fields_are_ignored_but_reported():
    warnings: list[str] = []
    parse_spec(body(comment="Trafalgar", sides=[{**_side(0), "weather_guage": True}, _side(1)]), warnings=warnings)
    assert warnings == ["comment: unknown field, ignored", "sides[0].weather_guage: unknown field, ignored"]


def test_specs_built_in_code_are_validated_too():
    with pytest.raises(SpecError, match="class"):
        ShipSpec("X", "galleon", "GB", "D")
    ship = ShipSpec("X", "1st", "GB", "D")
    with pytest.raises(SpecError, match="at least one ship"):
        BattleSpec("fleet_action", (SideSpec("A", "GB", (ship,)), SideSpec("B", "FR", ())))


def test_a_ships_ref_is_carried_to_its_result():
    """The campaign's opaque ``ref`` maps results back to its rows (names may repeat there)."""
    a = SideSpec("A", "GB", (ShipSpec("Victory", "1st", "GB", "B", ref=101),))
    b = SideSpec("B", "FR", (ShipSpec("Redoutable", "3rd-74", "FR", "D", ref="fr-7"),))
    report = fight_day(BattleSpec("fleet_action", (a, b)), SeededDice(1))
    assert [s.ref for s in report.ships] == [101, "fr-7"]
    assert [s["ref"] for s in report.to_json()["ships"]] == [101, "fr-7"]


@pytest.mark.parametrize(
    ("classes", "eligible"),
    [
        (["1st", "3rd-74", "4th", "frigate", "transport"], [True, True, True, False, False]),
        (["4th", "sloop"], [True, False]),
        (["frigate", "heavy-frigate", "brig", "fireship", "transport"], [True, True, True, True, False]),
        (["transport"], [False]),
        ([], []),
    ],
)
def test_line_eligible_follows_the_rule(classes, eligible):
    """§4: "Ships of the line and 4th rates form the line; frigates and smaller only when a side has
    nothing bigger; transports never"."""
    assert line_eligible(classes) == eligible


def test_line_eligible_refuses_an_unknown_class():
    with pytest.raises(SpecError, match=r"classes\[1\]"):
        line_eligible(["1st", "galleon"])
