"""Seed 003 (003_c4e3f888d3ea5fbd.txt, La Bataille Premier Rules, page 24): fire combat.

Each test quotes the seed line it implements, verbatim. The seed does not include the Fire Combat
Chart itself; the house chart is tested against the seed's worked example and for consistency.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import ScriptedDice, SeededDice
from rules.ruleset import DEFAULT_RULESET as R
from rules.ruleset import Ruleset
from rules.strategic_log import StrategicLog
from rules.tabletop.fire_combat import (
    ASSAULT_HEADERS,
    FIRE_RESULT_HEADERS,
    HOUSE_FIRE_CHART,
    OPEN_DEFENCE,
    UNIT_INCREMENTS,
    FireChart,
    Formation,
    Odds,
    assault_forces,
    assault_table,
    fire_chart_table,
    fire_for,
    fire_procedure_table,
    fire_result_row,
    massed_target_modifier,
    roll_fire,
    target_fire_defence,
)

faces = st.integers(min_value=1, max_value=6)
EXAMPLE = (
    "Example: Two batteries are firing at an infantry unit deployed in line and in clear terrain. The batteries "
    "are at four hexes distant from the infantry and therefore at medium range where they both fire 7. Their "
    "combined fire equals 14. The fire defense of a line formation with less than seven increments is 9 in clear "
    "terrain. This translates into 14 to 9 or 1 1/2 to 1 on the Fire Combat Chart . The dice are rolled with a "
    "result of 43. By cross-indexing the dice roll of 43 with the odds column, 1.5 – 1, we see that “1” is the "
    "result. The unit in the defending hex is now reduced by one increment."
)


def test_the_seeds_worked_example() -> None:
    """003: the seed's example (EXAMPLE above): "Their combined fire equals 14. The fire defense of a
    line formation with less than seven increments is 9 in clear terrain. This translates into 14 to 9
    or 1 1/2 to 1 on the Fire Combat Chart . The dice are rolled with a result of 43. By
    cross-indexing the dice roll of 43 with the odds column, 1.5 – 1, we see that “1” is the result."."""
    defence = target_fire_defence(formation=Formation.LINE, base=9, increments=6)
    result = fire_for(attack=7 + 7, defence=defence, tens=4, units=3)
    assert defence == 9
    assert result.column is not None and result.column.label == "1.5–1"
    assert (result.roll, result.applied, result.increments_lost) == (43, 43, 1)
    assert fire_result_row(result) == ("14", "9", "1.5–1", "43", "0", "43", "1")
    assert len(FIRE_RESULT_HEADERS) == len(fire_result_row(result))
    assert "reduced by one increment" in EXAMPLE


@pytest.mark.parametrize(
    ("attack", "defence", "label"),
    [
        (14, 9, "1.5–1"),
        (18, 9, "2–1"),
        (17, 9, "1.5–1"),
        (9, 9, "1–1"),
        (8, 9, "1–1.5"),
        (9, 14, "1–2"),
        (9, 27, "1–3"),
        (26, 9, "2–1"),
        (27, 9, "3–1"),
        (100, 9, "6–1"),
        (6, 9, "1–1.5"),
        (4, 9, "1–3"),
    ],
)
def test_odds_are_rounded_down(attack: int, defence: int, label: str) -> None:
    """003: "Establish the odds (round any fractions down)"."""
    column = HOUSE_FIRE_CHART.column_for(attack, defence)
    assert column is not None and column.label == label
    assert column.ratio <= Fraction(attack, defence)


def test_odds_below_the_chart_cause_no_loss() -> None:
    """003: "Establish the odds (round any fractions down)" — below the lowest column there is none."""
    result = fire_for(attack=2, defence=9, tens=6, units=6)
    assert result.column is None and result.increments_lost == 0
    assert fire_result_row(result)[2] == "below the chart"


@given(st.integers(min_value=0, max_value=200), st.integers(min_value=1, max_value=60))
def test_the_column_is_the_best_one_not_above_the_odds(attack: int, defence: int) -> None:
    """003: "Establish the odds (round any fractions down)"."""
    column = HOUSE_FIRE_CHART.column_for(attack, defence)
    ratio = Fraction(attack, defence)
    above = [c for c in HOUSE_FIRE_CHART.columns if c.ratio <= ratio]
    assert column == (above[-1] if above else None)


@pytest.mark.parametrize(("tens", "units", "modifier"), [(1, 1, -5), (1, 2, -1), (1, 1, 0)])
def test_a_modified_roll_below_11_counts_as_11(tens: int, units: int, modifier: int) -> None:
    """003: "Whenever a modified dice roil falls below 11 on the Fire Combat Chart , the result of 11
    will be applied."."""
    result = fire_for(attack=60, defence=10, tens=tens, units=units, modifier=modifier)
    assert result.modified == 10 * tens + units + modifier
    assert result.applied == max(11, result.modified)
    assert result.increments_lost == HOUSE_FIRE_CHART.losses(result.column, 11)  # type: ignore[arg-type]


@pytest.mark.parametrize(("increments", "modifier"), [(1, 0), (9, 0), (10, 1), (15, 6), (20, 11)])
def test_massed_targets(increments: int, modifier: int) -> None:
    """003: "Any time a target hex has more than nine increments; there is an addition to the fire
    attack dice roll. Add one to the die roll for each increment over nine. Example: A target hex with
    15 increments, regardless of terrain or the units' formation, would modify the die roll by a plus
    six."."""
    assert massed_target_modifier(increments) == modifier


def test_a_line_of_seven_or_more_increments_defends_as_a_column() -> None:
    """003: "When a unit is in line formation and has seven or more increments present in the hex, it
    will have the fire defense of a column."."""
    assert target_fire_defence(formation="line", base=9, increments=6, column_defence=7) == 9
    assert target_fire_defence(formation="line", base=9, increments=7, column_defence=7) == 7
    with pytest.raises(ValueError, match="a line of 8 increments has the fire defence of a column"):
        target_fire_defence(formation="line", base=9, increments=8)


def test_a_square_defends_at_4_with_the_massed_modifier() -> None:
    """003: "When an infantry unit is in Carre , or an infantry and artillery unit is in square the
    fire defense of the square is “4”. The die roll for the fire attack is also modified for the total
    number of increments as outlined above."."""
    assert target_fire_defence(formation=Formation.SQUARE, base=9, increments=12) == 4
    result = fire_for(attack=8, defence=4, tens=3, units=5, modifier=massed_target_modifier(12))
    assert (result.modifier, result.applied) == (3, 38)


def test_fire_through_the_flank_of_a_line_defends_at_5() -> None:
    """003: "When a fire attack is made through the flank hex of a unit in line formation, the defender
    will have a fire defense of “5”."."""
    assert target_fire_defence(formation=Formation.LINE, base=9, increments=8, through_flank=True) == 5
    assert target_fire_defence(formation=Formation.COLUMN, base=7, increments=8, through_flank=True) == 7


def test_bad_factors_are_refused() -> None:
    with pytest.raises(ValueError, match="fire defence more than 0, got 14 against 0"):
        fire_for(attack=14, defence=0, tens=4, units=3)
    with pytest.raises(ValueError, match=r"the units die is a d6 showing 1\.\.6, got 7"):
        fire_for(attack=14, defence=9, tens=4, units=7)
    with pytest.raises(ValueError, match="increments: a whole number 1 or more, got 0"):
        massed_target_modifier(0)
    with pytest.raises(ValueError, match="'phalanx' is not a valid Formation"):
        target_fire_defence(formation="phalanx", base=9, increments=3)


def test_roll_fire_logs_the_tens_then_the_units_die() -> None:
    """003: "roll the dice, and find the result on the Fire Combat Chart . The result is the number of
    increments lost." — the example's roll of 43."""
    log = StrategicLog()
    result = roll_fire(ScriptedDice([4, 3]), log, place="gibraltar", attack=14, defence=9, subject="unit:3")
    assert result.increments_lost == 1
    assert [(d.purpose, d.raw, d.mod) for d in log] == [("fire_combat", 4, 0), ("fire_combat", 3, 0)]
    assert log.records[0].detail == "14 against 9: tens"


def test_roll_fire_refuses_before_rolling() -> None:
    log = StrategicLog()
    with pytest.raises(ValueError, match="fire defence more than 0"):
        roll_fire(ScriptedDice([4, 3]), log, place="z", attack=3, defence=0)
    assert len(log) == 0


@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=0, max_value=80), st.integers(1, 30))
def test_roll_fire_replays_from_its_logged_faces(seed: int, attack: int, defence: int) -> None:
    log = StrategicLog()
    first = roll_fire(SeededDice(seed), log, place="z", attack=attack, defence=defence, modifier=2)
    assert (
        roll_fire(ScriptedDice(log.faces()), StrategicLog(), place="z", attack=attack, defence=defence, modifier=2)
        == first
    )


# --- The house chart -----------------------------------------------------------------------------


def test_house_chart_printable_rows() -> None:
    """House chart [H]: the seed names the "Fire Combat Chart" but does not include it. Rows by tens of
    the modified roll; the cell for 41–50 at 1.5–1 is the seed's example's "1"."""
    table = fire_chart_table()
    assert table.headers == ("Modified roll", "1–3", "1–2", "1–1.5", "1–1", "1.5–1", "2–1", "3–1", "4–1", "5–1", "6–1")
    assert table.rows == (
        ("11–20", "0", "0", "0", "0", "0", "0", "0", "1", "1", "1"),
        ("21–30", "0", "0", "0", "0", "0", "1", "1", "1", "1", "2"),
        ("31–40", "0", "0", "0", "1", "1", "1", "1", "2", "2", "2"),
        ("41–50", "0", "0", "1", "1", "1", "2", "2", "2", "3", "3"),
        ("51–60", "0", "1", "1", "1", "2", "2", "3", "3", "3", "4"),
        ("61–70", "1", "1", "1", "2", "2", "3", "3", "4", "4", "4"),
        ("71 or more", "1", "1", "2", "2", "3", "3", "4", "4", "5", "5"),
    )
    assert "A modified roll below 11 counts as 11." in table.notes
    assert any(n.startswith("House chart") for n in table.notes)


def test_house_chart_never_gives_less_for_better_odds_or_a_higher_roll() -> None:
    chart = HOUSE_FIRE_CHART
    for roll in range(11, 90):
        losses = [chart.losses(c, roll) for c in chart.columns]
        assert losses == sorted(losses)
    for column in chart.columns:
        losses = [chart.losses(column, roll) for roll in range(11, 90)]
        assert losses == sorted(losses)


@given(faces, faces, faces, faces)
def test_every_thrown_roll_is_on_the_chart(a: int, b: int, c: int, d: int) -> None:
    """003: "roll the dice" — two dice, tens and units, 11 to 66."""
    result = fire_for(attack=10 * a, defence=10 * b, tens=c, units=d)
    assert 11 <= result.roll <= 66 and result.roll % 10 in range(1, 7)
    assert result.increments_lost >= 0


def test_a_group_may_use_its_own_chart() -> None:
    """The seed's "Fire Combat Chart" from the group's own rulebook replaces the house chart."""
    own = FireChart("Our chart", (Odds(Fraction(1), Fraction(1)), Odds(Fraction(2), Fraction(1))), ((44,), (22, 55)))
    assert fire_for(attack=14, defence=9, tens=4, units=3, chart=own).increments_lost == 0
    assert fire_for(attack=18, defence=9, tens=5, units=5, chart=own).increments_lost == 2
    assert fire_chart_table(own).title == "Our chart: increments lost"
    assert not any(n.startswith("House chart") for n in fire_chart_table(own).notes)
    with pytest.raises(ValueError, match="must rise"):
        FireChart("Bad", (Odds(Fraction(1), Fraction(1)),), ((50, 40),))
    with pytest.raises(ValueError, match="odds columns must rise"):
        FireChart("Bad", (Odds(Fraction(2), Fraction(1)), Odds(Fraction(1), Fraction(1))), ((50,), (40,)))


def test_fire_procedure_printable_rows() -> None:
    """003: "A hex may be the designated target only once during a fire segment", "To fire against a
    hex, simply total the eligible fire factors and compare this sum to the fire defense factor.",
    "Establish the odds (round any fractions down); roll the dice, and find the result on the Fire
    Combat Chart . The result is the number of increments lost.", and the special cases."""
    rows = {r[0]: r[1] for r in fire_procedure_table().rows}
    assert rows["Target"] == "A hex may be the designated target only once during a fire segment"
    assert rows["Odds"].startswith("Establish the odds, rounding any fractions down")
    assert rows["Result"].endswith("the number of increments lost")
    assert rows["Low roll"] == "A modified roll below 11 counts as 11"
    assert rows["Massed target"].startswith("+1 to the roll for each increment in the hex over nine")
    assert rows["Line of 7 or more increments"] == "Has the fire defence of a column"
    assert rows["Square (carré)"].startswith("Fire defence 4")
    assert rows["Fire through the flank hex of a line"] == "Fire defence 5"


def test_roll_bands_cover_every_roll_once() -> None:
    bands = HOUSE_FIRE_CHART.roll_bands
    assert bands[0][0] == 11 and bands[-1][1] is None
    for (_, high), (low, _) in itertools.pairwise(bands):
        assert high is not None and low == high + 1


# --- The assault aid -----------------------------------------------------------------------------


def test_assault_forces_at_gibraltar() -> None:
    """RULES.md §7 "G = the owner's and its allies' units in the port (Gibraltar × 5)" and §6 "Coastal
    forts = Fortification factor (Gibraltar 2 × = 6)"; 003: "they both fire 7" (a battery at medium
    range) and "The fire defense of a line formation with less than seven increments is 9 in clear
    terrain"."""
    forces = assault_forces(
        besiegers=4, siege_train=True, garrison=5, fortification=3, gibraltar=True, batteries=3, ruleset=R
    )
    b, g = forces.besiegers, forces.garrison
    assert (b.units, b.guns, b.increments, b.fire_factors, b.defence) == (4, 1, 24, 4 * 6 + 7, 9)
    assert (g.units, g.guns, g.increments, g.fire_factors, g.defence) == (25, 9, 150, 25 * 6 + 9 * 7, 18)
    table = assault_table(forces)
    assert table.headers == ASSAULT_HEADERS
    assert table.rows == (
        ("Besiegers", "4 land units; a siege train", "4", "6", "1", "31", "9 (line in the open)"),
        (
            "Garrison",
            "5 land units counted 5 times at Gibraltar; 6 coastal forts, 3 artillery batteries",
            "25",
            "6",
            "9",
            "213",
            "18 (behind the works)",
        ),
    )
    assert table.notes[0].startswith("House values")


def test_assault_forces_elsewhere_and_in_the_singular() -> None:
    forces = assault_forces(
        besiegers=1, siege_train=False, garrison=1, fortification=1, gibraltar=False, batteries=1, ruleset=R
    )
    assert forces.besiegers.counted_as == "1 land unit"
    assert forces.garrison.counted_as == "1 land unit; 1 coastal fort, 1 artillery battery"
    assert (forces.garrison.units, forces.garrison.guns) == (1, 2)


def test_assault_forces_follow_the_ruleset() -> None:
    ruleset = Ruleset.from_flat({"siege.gibraltar_garrison_multiplier": 3})
    forces = assault_forces(
        besiegers=2, siege_train=False, garrison=4, fortification=3, gibraltar=True, batteries=0, ruleset=ruleset
    )
    assert forces.garrison.units == 12
    assert "counted 3 times at Gibraltar" in forces.garrison.counted_as


def test_assault_forces_refuse_bad_numbers() -> None:
    with pytest.raises(ValueError, match="besieging land units: a whole number 0 or more, got -1"):
        assault_forces(
            besiegers=-1, siege_train=False, garrison=1, fortification=1, gibraltar=False, batteries=0, ruleset=R
        )
    with pytest.raises(ValueError, match="batteries: a whole number 0 or more"):
        assault_forces(
            besiegers=1, siege_train=False, garrison=1, fortification=1, gibraltar=False, batteries=-3, ruleset=R
        )


def test_the_house_unit_keeps_the_seeds_line_defence() -> None:
    """003: "When a unit is in line formation and has seven or more increments present in the hex, it
    will have the fire defense of a column." — a house unit has fewer, so its line defence stands."""
    assert UNIT_INCREMENTS < 7
    assert target_fire_defence(formation="line", base=OPEN_DEFENCE, increments=UNIT_INCREMENTS) == 9
