"""Fast Fleet Action (RULES.md §5), one rule case per test, with scripted dice.

Unless a test says otherwise, sides are French/Dutch-style ships with crew D and no admiral, so
every modifier is 0 and each face is its own result; the dice given must all be used.
"""

from __future__ import annotations

import pytest

from battles.engine import Ruleset, ScriptedDice, ShipSpec, fight_day
from battles.engine.combat import DieRow
from battles.engine.fleet_action import integrity_penalty

from .helpers import day, dice, fate, fleet, purposes, ship_result, shots, side

# --- Lines ------------------------------------------------------------------------------------


def test_ship_k_faces_enemy_ship_k():
    """§5 Lines: "ship i faces enemy ship i"."""
    report = day(fleet(side("A", 3), side("B", 3), 1), [6, 1, 1, 2, 3, 1, 1, 1])
    assert shots(report) == [
        ("A1", "B1", "none"),
        ("A2", "B2", "none"),
        ("A3", "B3", "none"),
        ("B1", "A1", "none"),
        ("B2", "A2", "none"),
        ("B3", "A3", "none"),
    ]


def test_extras_double_up_on_enemy_ships_one_two_three_and_the_rest_are_reserves():
    """§5 Lines: "The side with more ships places its extras as second attackers on enemy ships
    1, 2, 3… (never more than two on one ship); any still left are reserves"."""
    report = day(fleet(side("A", 7), side("B", 2), 1), [6, 1, 1, 1, 1, 1, 1, 1])
    lines = report.lines[0]
    assert [report.ships[i].name for i in lines.lines[0]] == ["A1", "A2", "A3", "A4"]
    assert [report.ships[i].name for i in lines.reserves[0]] == ["A5", "A6", "A7"]
    assert shots(report) == [
        ("A1", "B1", "none"),
        ("A2", "B2", "none"),
        ("A3", "B1", "none"),
        ("A4", "B2", "none"),
        ("B1", "A1", "none"),
        ("B2", "A2", "none"),
    ]


def test_reserves_neither_fire_nor_are_fired_on():
    """§5 Lines: reserves "this round neither fire nor can be fired on". B's admiral dice go to the
    first ship in the line not yet fired on, then the first in the line — never to reserve A5."""
    a = side("A", 5)
    b = side("B", 2, admiral="A")
    report = day(fleet(a, b, 1), [1, 6, 5, 5, 1, 1, 1, 1, 1, 1])
    assert shots(report, "admiral") == [("B1", "A3", "none"), ("B1", "A4", "none")] + [("B1", "A3", "none")] * 2
    assert [s for s, _t, _e in shots(report)] == ["B1", "B2", "A3", "A4"]


def test_reserves_join_the_pairing_as_ships_are_lost():
    """§5 Lines: reserves "join the pairing in later rounds as ships are lost"; the pairing is
    made again at the start of every round."""
    report = day(fleet(side("A", 3), side("B", 1), 2), [1, 6, 9, 1, 6, 6, 1, 1, 1, 1])
    first, second = report.lines
    assert [report.ships[i].name for i in first.reserves[0]] == ["A3"]
    assert [report.ships[i].name for i in second.lines[0]] == ["A2", "A3"]
    assert not any(second.reserves)


def test_a_house_rule_allowing_three_attackers_per_ship_changes_the_pairing():
    """§5 "never more than two on one ship" is ``battle.max_attackers_per_ship``."""
    spec = fleet(side("A", 3), side("B", 1), 1)
    three = Ruleset.from_flat({"battle.max_attackers_per_ship": 3})
    assert len(day(spec, [6, 1, 1, 1, 1, 1], three).dice_rows) == 6  # A1, A2, A3 all fire
    assert len(day(spec, [6, 1, 1, 1, 1]).dice_rows) == 5  # A3 is a reserve by default


# --- Targets ----------------------------------------------------------------------------------


def test_a_ship_whose_target_left_the_line_fires_at_the_first_enemy_not_yet_fired_on():
    """§5 step 2: "if that target is no longer in the line, at the first enemy ship in the line
    (line order) not yet fired on this round". A4's paired B1 was damaged; B2 was fired on; A3 was
    damaged before it could fire, so B3 has not been fired on."""
    report = day(fleet(side("A", 4), side("B", 3), 1), [1, 6, 1, 1, 5, 5, 1, 1])
    assert shots(report)[-1] == ("A4", "B3", "none")


def test_with_every_enemy_fired_on_a_ship_fires_at_the_first_enemy_in_the_line():
    """§5 step 2: "… else the first enemy ship in the line". "Fired on = any d10 was rolled at it
    this round, whatever the result": B2 was missed, yet counts as fired on."""
    report = day(fleet(side("A", 3), side("B", 2), 1), [6, 1, 5, 1, 1, 1])
    assert shots(report)[2] == ("A3", "B2", "none")


def test_with_no_enemy_in_the_line_a_ship_does_not_roll():
    """§5 step 2: "with none left it does not roll"."""
    report = day(fleet(side("A", 2), side("B", 1), 1), [6, 1, 10, 1])
    assert shots(report) == [("A1", "B1", "sunk")]
    assert report.outcome == ("held", "beaten")
    assert report.winner == 0


# --- Admiral ----------------------------------------------------------------------------------


def test_admiral_dice_are_fired_by_the_flagship_with_its_own_modifiers():
    """§5 step 2: "its admiral's extra d10s, fired by the flagship (its crew and nationality
    modifiers), each at the first enemy ship in the line not yet fired on, else the first"."""
    flagship = ShipSpec("A1", "1st", "GB", "A")  # crew A +2, British +1
    a = side("A", [flagship, ShipSpec("A2", "3rd-74", "GB", "D")], navy="GB", admiral="C")
    report = day(fleet(a, side("B", 2), 1), [3, 4, 1, 2, 1, 1, 1, 1, 1])
    admiral = dice(report, "admiral")
    assert [(d["ship"], d["target"], d["mod"]) for d in admiral] == [("A1", "B1", 3)] * 3


def test_no_admiral_dice_once_the_flagship_is_disabled():
    """§5 step 2: admiral dice "only while the flagship is not sunk, captured or disabled"."""
    report = day(fleet(side("A", 4, admiral="D"), side("B", 4), 1), [1, 6, 9, 1, 1, 1, 1, 1, 1, 6])
    assert "admiral" not in purposes(report)
    check = dice(report, "integrity")[0]
    assert check["mod"] == -1  # "− 1 if its flagship is sunk, captured or disabled"


def test_a_flagship_damaged_this_round_still_directs_its_admiral_dice():
    """§5 step 2: "(a flagship damaged this round still directs them)"."""
    report = day(fleet(side("A", 2, admiral="D"), side("B", 2), 1), [1, 6, 5, 1, 1, 1, 1])
    assert shots(report, "admiral") == [("A1", "B1", "none"), ("A1", "B1", "none")]


@pytest.mark.parametrize(
    ("grade", "count"), [("A", 4), ("B", 3), ("C", 3), ("D", 2), ("E", 2), ("F", 2), ("G", 1), ("H", 1)]
)
def test_an_admiral_rolls_extra_dice_by_grade(grade, count):
    """§0: admiral extra d10 per round — A 4, B–C 3, D–F 2, G–H 1."""
    report = day(fleet(side("A", 1, admiral=grade), side("B", 1), 1), [6, 1, 1] + [1] * count + [1])
    assert len(dice(report, "admiral")) == count


def test_a_house_rule_changes_the_number_of_admiral_dice():
    """Every number is a setting: ``grade.admiral_dice.A``."""
    one = Ruleset.from_flat({"grade.admiral_dice.A": 1})
    report = day(fleet(side("A", 1, admiral="A"), side("B", 1), 1), [6, 1, 1, 1, 1], one)
    assert len(dice(report, "admiral")) == 1


# --- Initiative -------------------------------------------------------------------------------


def test_initiative_adds_admiral_grade_nationality_supply_and_gauge():
    """§5 step 1: "each adds its admiral's grade, initiative nationality, −1 if out of supply, +1
    with the weather gauge". A: admiral A +2, British +1, gauge +1; B: Russian −1, out of supply −1,
    admiral H −1."""
    a = side("A", 1, navy="GB", admiral="A", weather_gauge=True)
    b = side("B", 1, navy="RU", admiral="H", in_supply=False)
    report = day(fleet(a, b, 1), [1, 6, 1, 1, 1, 1, 1, 1, 1])
    first, second = dice(report, "initiative")
    assert (first["side"], first["mod"], first["result"]) == (0, 4, 5)
    assert (second["side"], second["mod"], second["result"]) == (1, -3, 3)
    assert report.lines[0].initiative == 0
    assert dice(report)[2]["ship"] == "A1"  # the initiative side fires first


def test_an_initiative_tie_is_rolled_again_a_first():
    """§5 step 1: "A tie: both roll again, A first"."""
    report = day(fleet(side("A", 1), side("B", 1), 1), [3, 3, 2, 5, 1, 1])
    assert [(d["side"], d["raw"], d["effect"]) for d in dice(report, "initiative")] == [
        (0, 3, "tie"),
        (1, 3, "tie"),
        (0, 2, "loses"),
        (1, 5, "wins"),
    ]
    assert shots(report)[0][0] == "B1"


def test_side_a_is_the_side_listed_first_and_rolls_first():
    """§5: "two sides, A (listed first) and B" — A's initiative die is rolled first even when B
    has the weather gauge."""
    report = day(fleet(side("A", 1), side("B", 1, weather_gauge=True), 1), [4, 4, 1, 1])
    assert [d["side"] for d in dice(report, "initiative")] == [0, 1]
    assert dice(report, "initiative")[1]["mod"] == 1


def test_at_anchor_a_side_loses_the_first_initiative_without_a_roll_and_fires_at_minus_one():
    """§5 step 1: "In round 1 a side at anchor loses the initiative without a roll, and its ships'
    and admiral's d10s that round are at −1". From round 2 it rolls and fires normally."""
    b = side("B", 1, admiral="E", at_anchor=True)
    report = day(fleet(side("A", 1), b, 2), [1, 4, 4, 4, 6, 1, 1, 4])
    round1 = [d for d in dice(report) if d["round"] == 1]
    assert "initiative" not in [d["purpose"] for d in round1]
    assert round1[0]["ship"] == "A1"
    assert [(d["purpose"], d["mod"], d["result"], d["effect"]) for d in round1[1:]] == [
        ("fire", -1, 3, "none"),
        ("admiral", -1, 3, "none"),
        ("admiral", -1, 3, "none"),
    ]
    round2_fire = [d for d in dice(report, "fire") if d["round"] == 2]
    assert (round2_fire[1]["mod"], round2_fire[1]["effect"]) == (0, "damaged")


# --- The d10 chart ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "effect", "end_fate", "then"),
    [
        (1, "none", "intact", [1, 1, 1, 1]),  # B1–B4 fire back
        (2, "none", "intact", [1, 1, 1, 1]),
        (3, "none", "intact", [1, 1, 1, 1]),
        (4, "damaged", "damaged", [1, 1, 1]),  # B4 is out of the line
        (5, "damaged", "damaged", [1, 1, 1]),
        (6, "damaged", "damaged", [1, 1, 1]),
        (7, "damaged", "damaged", [1, 1, 1]),
        (8, "boarding", "captured", [6, 1, 1, 1, 1, 4]),  # boarding won; B checks at L = 1/4
        (9, "disabled", "captured", [1, 1, 1, 4]),
        (10, "sunk", "sunk", [1, 1, 1, 1, 4]),  # no explosion
    ],
)
def test_every_chart_result(raw, effect, end_fate, then):
    """§5 step 3: "1–3 none; 4–7 damaged …; 8 boarding …; 9 disabled …; 10 sunk". A4's die hits
    B4; a disabled B4 is captured at the end of the day by the winner (A, with the lower L)."""
    report = day(fleet(side("A", 4), side("B", 4), 1), [6, 1, 1, 1, 1, raw, *then])
    assert shots(report)[3] == ("A4", "B4", effect)
    assert fate(report, "B4") == end_fate


@pytest.mark.parametrize(
    ("mod_navy", "crew", "raw", "result", "effect"),
    [
        ("GB", "A", 1, 1, "none"),  # +3, but a natural 1 is always no damage
        ("PR", "H", 10, 10, "sunk"),  # −3, but a natural 10 always sinks
        ("GB", "A", 9, 10, "sunk"),  # 12 clamped to 10
        ("GB", "A", 5, 8, "boarding"),
        ("PR", "H", 3, 1, "none"),  # 0 clamped to 1
        ("PR", "H", 9, 6, "damaged"),
    ],
)
def test_a_modified_d10_is_clamped_except_natural_one_and_ten(mod_navy, crew, raw, result, effect):
    """§0: "clamp(raw + mods, 1, 10), but a natural 1 is always 'no damage' and a natural 10
    always 'sunk'. Only the firer's modifiers apply." Modifiers here: GB crew A +3, PR crew H −3."""
    a = side("A", 1, navy=mod_navy, crew=crew)
    dice_given = ScriptedDice([6, 1, raw] + [6] * 6 + [1] * 6)
    report = fight_day(fleet(a, side("B", 1), 1), dice_given)
    first = dice(report, "fire")[0]
    assert (first["raw"], first["result"], first["effect"]) == (raw, result, effect)


def test_a_damaged_ship_is_out_of_the_line_for_the_rest_of_the_round():
    """§5 step 3: "4–7 damaged — out of the line for the rest of the round": B1 does not fire back."""
    report = day(fleet(side("A", 1), side("B", 1), 1), [6, 1, 5])
    assert shots(report) == [("A1", "B1", "damaged")]


def test_a_ship_already_damaged_becomes_disabled():
    """§5 step 3: "(a ship already damaged becomes disabled instead)"."""
    report = day(fleet(side("A", 2), side("B", 2, damaged=[2]), 1), [6, 1, 1, 6, 1, 4])
    assert shots(report)[1] == ("A2", "B2", "disabled")


def test_damaged_ships_return_to_the_line_next_round_still_damaged():
    """§5 step 6: "Ships damaged in a round return to the line the next round, still damaged"."""
    report = day(fleet(side("A", 1), side("B", 1), 2), [6, 1, 5, 1, 6, 1, 1])
    assert [(d["round"], d["ship"]) for d in dice(report, "fire")] == [(1, "A1"), (2, "B1"), (2, "A1")]
    assert fate(report, "B1") == "damaged"


def test_a_disabled_ship_is_out_for_the_day():
    """§5 step 3: "9 disabled — out for the day": B1 is in no later pairing."""
    report = day(fleet(side("A", 4), side("B", 4), 2), [6, 1, 9, 1, 1, 1, 1, 1, 1, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1])
    assert report.ships[4].name == "B1"
    assert 4 not in report.lines[1].lines[1]


def test_a_boarding_won_by_the_firer_captures_the_target():
    """§5 step 3: "8 boarding — the firing ship then the target roll d6 + own crew morale + own
    boarding nationality … the higher captures the other ship". A is Ottoman with crew B (+1 +1)."""
    a = side("A", 1, navy="OT", crew="B")
    report = day(fleet(a, side("B", 1), 1), [6, 1, 7, 2, 3])  # 7 + 1 = 8
    firer, target = dice(report, "boarding")
    assert (firer["ship"], firer["mod"], firer["result"]) == ("A1", 2, 4)
    assert (target["ship"], target["mod"], target["result"]) == ("B1", 0, 3)
    assert ship_result(report, "B1").captured_by == 0


def test_a_boarding_can_be_lost_by_the_firer():
    """§5 step 3: "the higher captures the other ship (a captured ship is out of the battle)" —
    the firing ship too. A1 is taken; B1 then fires at A2, the first A ship not yet fired on."""
    report = day(fleet(side("A", 2), side("B", 2), 1), [6, 1, 8, 1, 6, 1, 1, 1, 6])
    assert ship_result(report, "A1").captured_by == 1
    assert fate(report, "B1") == "intact"
    assert shots(report)[2] == ("B1", "A2", "none")
    assert report.outcome == ("retired", "held")
    assert fate(report, "A1") == "captured"  # B held: it keeps the prize


def test_a_boarding_tie_is_rolled_again():
    """§5 step 3: "a tie rolls again"."""
    report = day(fleet(side("A", 1), side("B", 1), 1), [6, 1, 8, 3, 3, 5, 2])
    assert [(d["raw"], d["effect"]) for d in dice(report, "boarding")] == [
        (3, "tie"),
        (3, "tie"),
        (5, "wins"),
        (2, "loses"),
    ]


def test_a_flagship_that_loses_its_boarding_rolls_no_more_admiral_dice():
    """§5 step 3: "if the firing ship loses, its side's remaining admiral dice are not rolled when
    it was the flagship"."""
    report = day(fleet(side("A", 1, admiral="A"), side("B", 2), 1), [6, 1, 1, 8, 1, 6])
    assert len(dice(report, "admiral")) == 1
    assert fate(report, "A1") == "captured"
    assert report.outcome == ("beaten", "held")


def test_a_sunk_ship_explodes_on_a_six_and_the_firer_rolls_two_unmodified_dice():
    """§5 step 3: "10 sunk — then a d6: on 6 it explodes and the firing ship's side at once rolls
    two unmodified d10, one at a time, each at the first enemy ship in the line not yet fired on,
    else the first in the line"."""
    a = side("A", 2, navy="GB", crew="A")  # +3 on its own fire, not on the explosion dice
    report = day(fleet(a, side("B", 2), 1), [6, 1, 10, 6, 2, 3, 1, 1, 6])
    assert ship_result(report, "B1").exploded
    blast = dice(report, "explosion_fire")
    assert [(d["ship"], d["target"], d["mod"], d["result"]) for d in blast] == [("A1", "B2", 0, 2), ("A1", "B2", 0, 3)]


def test_explosions_chain():
    """§5 step 3: "their results apply the same way (explosions chain)"."""
    report = day(fleet(side("A", 3), side("B", 3), 1), [6, 1, 10, 6, 10, 6, 1, 1, 1, 1, 1, 1, 6])
    assert purposes(report) == [
        "initiative",
        "initiative",
        "fire",
        "explosion",
        "explosion_fire",
        "explosion",
        "explosion_fire",
        "explosion_fire",
        "explosion_fire",
        "fire",
        "fire",
        "fire",
        "integrity",
    ]
    assert ship_result(report, "B1").exploded and ship_result(report, "B2").exploded
    assert report.outcome == ("held", "broke")


def test_an_eight_from_explosion_dice_is_a_boarding_by_the_ship_that_caused_the_explosion():
    """§5 step 3: "for a boarding the firing ship is the one whose die caused the explosion"."""
    report = day(fleet(side("A", 3), side("B", 3), 1), [6, 1, 10, 6, 8, 6, 1, 1, 1, 1, 1, 6])
    board = dice(report, "boarding")
    assert [(d["ship"], d["target"]) for d in board] == [("A1", "B2"), ("B2", "A1")]
    assert ship_result(report, "B2").captured_by == 0


def test_an_eight_from_explosion_dice_has_no_effect_when_that_ship_is_out_of_the_battle():
    """§5 step 3: "an 8 when that ship is no longer in the battle has no effect" — A1 lost the
    boarding caused by its first explosion die before the second came up 8."""
    faces = [6, 1, 10, 6, 8, 1, 6, 8, 1, 1, 1, 1, 6, 6]
    report = day(fleet(side("A", 3), side("B", 3), 1), faces)
    blast = dice(report, "explosion_fire")
    assert [(d["target"], d["effect"]) for d in blast] == [("B2", "boarding"), ("B3", "no effect")]
    assert fate(report, "B3") == "intact"


def test_explosion_dice_are_not_rolled_with_no_enemy_in_the_line():
    """§5 step 3: "… none if there is none"."""
    report = day(fleet(side("A", 1), side("B", 1), 1), [6, 1, 10, 6])
    assert purposes(report)[-1] == "explosion"


# --- Integrity --------------------------------------------------------------------------------


def _losses(k: int, n: int = 20) -> list[int]:
    """Round 1 of n v n: A's last k ships disable their opposite numbers; nothing else hits."""
    return [6, 1] + [1] * (n - k) + [9] * k + [1] * (n - k)


def test_no_check_below_a_quarter():
    """§5 step 5: a side checks "at the end of the first round in which its L ≥ 1/4"."""
    report = day(fleet(side("A", 5), side("B", 5), 1), [6, 1, 1, 1, 1, 1, 9, 1, 1, 1, 1])
    assert "integrity" not in purposes(report)


def test_a_side_checks_exactly_at_a_quarter():
    """§5 step 5: L = 5/20 = 1/4 exactly → a check with no L penalty."""
    report = day(fleet(side("A", 20), side("B", 20), 1), [*_losses(5), 4])
    check = report.checks[0]
    assert (check.side, check.lost, check.start, check.penalty, check.mod) == (1, 5, 20, 0, 0)


@pytest.mark.parametrize(
    ("lost", "penalty"),
    [(4, None), (5, 0), (6, 0), (7, 1), (8, 1), (9, 2), (10, 2), (11, 3), (12, 3), (13, 4), (15, 5)],
)
def test_integrity_penalty_at_each_ten_percent_step(lost, penalty):
    """§5 step 5: "− floor((L − 1/4) × 10) … (example: L = 7/20 gives −1, L = 9/20 gives −2)"."""
    faces = _losses(lost) + ([] if penalty is None else [6])
    report = day(fleet(side("A", 20), side("B", 20), 1), faces)
    if penalty is None:
        assert report.checks == ()
    else:
        assert (report.checks[0].penalty, report.checks[0].mod) == (penalty, -penalty)


def test_the_l_penalty_is_computed_in_exact_fractions():
    """§5 step 5: L in exact fractions — 7/20 − 1/4 = 1/10 exactly, × 10 = 1 (floats give 0.999…)."""
    assert integrity_penalty(7, 20, 1, 4, 10) == 1
    assert integrity_penalty(9, 20, 1, 4, 10) == 2
    assert integrity_penalty(1, 4, 1, 4, 10) == 0
    assert integrity_penalty(3, 10, 1, 4, 10) == 0


def test_a_side_checks_again_only_in_rounds_in_which_its_l_rose():
    """§5 step 5: "and at the end of every later round in which its L rose"."""
    faces = [6, 1, 1, 1, 1, 9, 1, 1, 1, 4]  # round 1: B4 disabled, L = 1/4, holds
    faces += [6, 1, 1, 1, 1, 1, 1, 1, 1]  # round 2: nothing — no check
    faces += [6, 1, 1, 1, 9, 1, 1, 1, 6]  # round 3: B3 disabled, L = 1/2, checks
    report = day(fleet(side("A", 4), side("B", 4), 3), faces)
    assert [(c.round, c.side, c.lost) for c in report.checks] == [(1, 1, 1), (3, 1, 2)]


def test_b_checks_only_if_a_held():
    """§5 step 5: "A checks, then B checks only if A held"."""
    report = day(fleet(side("A", 4), side("B", 4), 1), [6, 1, 1, 1, 1, 9, 1, 1, 9, 2])
    assert [c.side for c in report.checks] == [0]
    assert report.outcome == ("retired", "held")


def test_b_checks_when_a_holds():
    """§5 step 5: A holds, so B checks too."""
    report = day(fleet(side("A", 4), side("B", 4), 1), [6, 1, 1, 1, 1, 9, 1, 1, 9, 4, 4])
    assert [c.side for c in report.checks] == [0, 1]


def test_side_a_for_integrity_is_the_first_listed_side():
    """§5: A is listed first; the gauge or the initiative do not change who checks first."""
    b = side("B", 4, weather_gauge=True)
    report = day(fleet(side("A", 4), b, 1), [1, 6, 1, 1, 1, 9, 1, 1, 9, 4, 4])
    assert [c.side for c in report.checks] == [0, 1]


def test_integrity_adds_admiral_grade_and_combat_nationality_and_takes_flagship_and_supply():
    """§5 step 5: "d6 + admiral grade + combat nationality − floor((L − 1/4) × 10) − 1 if its
    flagship is sunk, captured or disabled − 1 if out of supply". A: admiral A +2, British +1, out
    of supply −1, flagship disabled −1 = +1; 3 + 1 = 4 holds."""
    a = side("A", 4, navy="GB", admiral="A", in_supply=False)
    faces = [1, 1] + [1] * 4 + [1] * 4 + [9, 1, 1, 1] + [3]
    report = day(fleet(a, side("B", 4), 1), faces)
    check = report.checks[0]
    assert (check.side, check.mod, check.total, check.result) == (0, 1, 4, "held")


def test_the_admirals_grade_counts_for_integrity_after_the_flagship_is_lost():
    """§5 step 1: "The admiral's grade counts for initiative and integrity even after the
    flagship is lost"."""
    a = side("A", 4, admiral="B")
    faces = [6, 1] + [1] * 4 + [1] * 3 + [9, 1, 1, 1] + [4]
    report = day(fleet(a, side("B", 4), 1), faces)
    assert report.checks[0].mod == 1 - 1  # grade B +1, flagship disabled −1


@pytest.mark.parametrize(("roll", "result"), [(1, "broke"), (2, "retired"), (3, "retired"), (4, "held"), (6, "held")])
def test_an_integrity_total_of_four_holds_two_or_three_retires_one_or_less_breaks(roll, result):
    """§5 step 5: "4+ holds; 2–3 retires …; ≤1 breaks"."""
    report = day(fleet(side("A", 4), side("B", 4), 1), [6, 1, 1, 1, 1, 9, 1, 1, 1, roll])
    assert report.outcome[1] == result


def test_a_house_rule_changes_the_integrity_threshold():
    """``battle.integrity_threshold_num/den``: with 1/5, L = 1/5 already checks."""
    fifth = Ruleset.from_flat({"battle.integrity_threshold_den": 5})
    report = day(fleet(side("A", 5), side("B", 5), 1), [6, 1, 1, 1, 1, 1, 9, 1, 1, 1, 1, 4], fifth)
    assert [(c.side, c.penalty) for c in report.checks] == [(1, 0)]


def test_a_retiring_side_tows_its_damaged_ships_and_a_ten_sinks_one():
    """§5 step 5: "2–3 retires: it leaves now with its damaged ships, which each roll an
    unmodified d10 in line order (10 = sunk); its disabled ships are left behind"."""
    report = day(fleet(side("A", 4), side("B", 4), 1), [6, 1, 5, 5, 9, 1, 1, 2, 10, 3])
    assert [(d["ship"], d["result"], d["effect"]) for d in dice(report, "towing")] == [
        ("B1", 10, "sunk"),
        ("B2", 3, "towed off"),
    ]
    assert (fate(report, "B1"), fate(report, "B2"), fate(report, "B3")) == ("sunk", "damaged", "captured")
    assert ship_result(report, "B3").captured_by == 0
    assert report.winner == 0


def test_a_breaking_side_loses_its_damaged_ships_to_the_enemy():
    """§5 step 5: "≤1 breaks: it leaves now and its damaged ships are captured by the enemy"."""
    report = day(fleet(side("A", 4), side("B", 4), 1), [6, 1, 5, 5, 9, 1, 1, 1])
    assert [ship_result(report, n).captured_by for n in ("B1", "B2", "B3", "B4")] == [0, 0, 0, None]
    assert "towing" not in purposes(report)
    assert [e.kind for e in report.events] == ["taken", "taken", "captured"]


def test_a_side_with_no_ship_left_is_beaten_and_nobody_checks():
    """§5 step 5: "A side with no ship left that is not sunk, disabled or captured is beaten and
    does not check. A side whose enemy is beaten does not check"."""
    report = day(fleet(side("A", 2), side("B", 1), 1), [6, 1, 9])
    assert report.checks == ()
    assert report.outcome == ("held", "beaten")
    assert ship_result(report, "B1").captured_by == 0


# --- End of the day ---------------------------------------------------------------------------


def test_when_both_hold_the_lower_l_wins_and_captures_the_losers_disabled_ships():
    """§5 End of the day: "the winner — … if both held, the lower L … — captures the loser's
    disabled ships"."""
    report = day(fleet(side("A", 4), side("B", 4), 1), [6, 1, 1, 1, 1, 9, 1, 1, 1, 4])
    assert report.outcome == ("held", "held")
    assert report.winner == 0
    assert ship_result(report, "B4").captured_by == 0


def test_equal_l_means_no_winner_and_each_side_keeps_its_disabled_ships():
    """§5 End of the day: "equal → no winner … with no winner each side keeps its own disabled
    ships (the seed's "unless both sides leave at the end of the first day")"."""
    report = day(fleet(side("A", 4), side("B", 4), 1), [6, 1, 1, 1, 1, 9, 1, 1, 9, 4, 4])
    assert report.winner is None
    assert (fate(report, "A3"), fate(report, "B4")) == ("disabled", "disabled")
    assert {e.kind for e in report.events} == {"kept"}


def test_a_retiring_side_abandons_its_boarded_prizes_in_the_condition_they_were_taken():
    """§5 End of the day: "a side that retired, broke or was beaten abandons the ships it captured
    by boarding: they return to their owner in the condition they were taken in, with no further
    roll". B2 was damaged when A boarded it, so it returns damaged."""
    faces = [6, 1, 1, 8, 6, 1, 1, 1, 9, 9, 1, 5]
    report = day(fleet(side("A", 4), side("B", 4, damaged=[2]), 1), faces)
    assert report.outcome == ("retired", "held")
    b2 = ship_result(report, "B2")
    assert (b2.fate, b2.captured_by) == ("damaged", None)
    assert [e.kind for e in report.events] == ["captured", "captured", "abandoned"]


def test_a_firing_ship_taken_in_its_own_failed_boarding_is_abandoned_too():
    """§5 End of the day: "(a firing ship taken in its own failed boarding counts)"."""
    faces = [6, 1, 9, 8, 1, 6, 1, 1, 1, 1, 1, 4, 2]
    report = day(fleet(side("A", 4), side("B", 4), 1), faces)
    assert report.outcome == ("held", "broke")
    a2 = ship_result(report, "A2")
    assert (a2.fate, a2.captured_by) == ("intact", None)
    assert ship_result(report, "B1").captured_by == 0


def test_a_side_that_held_keeps_its_prizes():
    """§5 End of the day: only a side that retired, broke or was beaten abandons its prizes."""
    report = day(fleet(side("A", 4), side("B", 4), 1), [6, 1, 1, 1, 1, 8, 6, 1, 1, 1, 1, 4])
    assert report.outcome == ("held", "held")
    assert ship_result(report, "B4").captured_by == 0


def test_the_day_ends_after_max_rounds():
    """§5: "A round (at most max_rounds, default 6)"; the spec's max_rounds, else the ruleset's."""
    spec = fleet(side("A", 1), side("B", 1))
    report = day(spec, [6, 1, 1, 1] * 6)
    assert report.rounds == 6
    short = Ruleset.from_flat({"battle.max_rounds": 2})
    assert day(spec, [6, 1, 1, 1] * 2, short).rounds == 2
    assert day(fleet(side("A", 1), side("B", 1), 3), [6, 1, 1, 1] * 3).rounds == 3


def test_a_house_rule_changes_the_chart():
    """§5 step 3's bands are settings: with ``battle.chart_boarding`` 9 an 8 merely damages."""
    no_boarding = Ruleset.from_flat({"battle.chart_boarding": 9})
    report = day(fleet(side("A", 1), side("B", 1), 1), [6, 1, 8], no_boarding)
    assert shots(report) == [("A1", "B1", "damaged")]


def test_the_dice_log_is_in_canonical_order():
    """§5 "Dice order is canonical: initiative pair(s); the initiative side's ships in line order,
    each die followed at once by the dice it causes …; its admiral dice likewise; the other side
    the same; integrity check(s); retiring ships' d10s"."""
    faces = [2, 3, 1, 6]  # 2 v 3−1: a tie; then B wins
    faces += [5, 8, 3, 1, 1, 1]  # B1 damages A1; B2 boards A2 and wins; B3, B4 miss
    faces += [10, 6, 1, 1]  # B's admiral (grade G, 1 die) sinks A3, which explodes
    faces += [1]  # A4 fires back; A1 damaged, A2 taken, A3 sunk
    faces += [5, 7]  # A: L = 1/2, penalty 2 (A1 is only damaged): 5 − 2 = 3 retires; A1 is towed
    b = side("B", 4, admiral="G")
    report = day(fleet(side("A", 4), b, 1), faces)
    assert purposes(report) == [
        "initiative",
        "initiative",
        "initiative",
        "initiative",
        "fire",
        "fire",
        "boarding",
        "boarding",
        "fire",
        "fire",
        "admiral",
        "explosion",
        "explosion_fire",
        "explosion_fire",
        "fire",
        "integrity",
        "towing",
    ]
    assert report.outcome == ("retired", "held")


def test_rows_carry_round_side_die_purpose_raw_mod_result_ship_target():
    """CONTRACT.md dice fields: n, round, side, die, purpose, raw, mod, result, ship, target."""
    report = day(fleet(side("A", 1), side("B", 1), 1), [6, 1, 2, 1])
    row: DieRow = report.dice_rows[2]
    assert row[:9] == (1, 0, 10, "fire", 2, 0, 2, 0, 1)
    first = report.dice()[2]
    assert {
        k: first[k] for k in ("n", "round", "side", "die", "purpose", "raw", "mod", "result", "ship", "target")
    } == {
        "n": 3,
        "round": 1,
        "side": 0,
        "die": "d10",
        "purpose": "fire",
        "raw": 2,
        "mod": 0,
        "result": 2,
        "ship": "A1",
        "target": "B1",
    }


def test_the_report_keeps_each_ships_navy_and_crew_as_they_fought():
    """A prize changes navy and crew afterwards (RULES.md §0: "prizes their captor's"), so the battle's
    record keeps the ones that fought: CONTRACT's ship fields plus navy and crew."""
    spec = fleet(side("A", 2, navy="GB", crew="B"), side("B", 2, navy="FR", crew="E"))
    from battles.engine import SeededDice

    ships = fight_day(spec, SeededDice(3)).to_json()["ships"]
    assert [(s["navy"], s["crew"]) for s in ships] == [("GB", "B"), ("GB", "B"), ("FR", "E"), ("FR", "E")]
