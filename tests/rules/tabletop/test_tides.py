"""Seed 001 (001_41258de1f20f3733.txt, naval set-up for DBM): tides, terrain and grounding.

Each test quotes the seed line it implements, verbatim. The tide-effect chart's lines are kept here
exactly as the seed has them (tabs included) and parsed, so the chart in code is compared with the
seed line by line.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import ScriptedDice, SeededDice
from rules.strategic_log import StrategicLog
from rules.tabletop.tides import (
    CLASS_ELEMENTS,
    CYCLE_BOUNDS,
    GROUNDING_CHART,
    GROUNDING_NUMBER,
    MARSH_PASSAGE_TABLE,
    TIDE_CYCLE,
    TIDE_EFFECT,
    Element,
    Going,
    TideConditions,
    TidePhase,
    Wind,
    element_for_class,
    grounding_check_needed,
    grounding_for,
    grounding_table,
    low_draft,
    marsh_passage_for,
    marsh_passage_table,
    may_try_unstick,
    roll_grounding,
    roll_inshore_setup,
    roll_marsh_passage,
    roll_setup_dice,
    roll_tide_effect,
    roll_unstick,
    setup_dice_table,
    tide_cycle_table,
    tide_effect_for,
    tide_effect_result_table,
    tide_effect_row,
    tide_effect_table,
    tide_modifiers_table,
    tide_schedule_table,
    tide_timing_for,
    tide_timing_table,
    unstick_for,
)

faces = st.integers(min_value=1, max_value=6)
SEED = "001_41258de1f20f3733.txt"

# --- Tide timing ---------------------------------------------------------------------------------

TIMING_LINE = (
    "After setup dice are thrown, if the set die score is for a moonless night (if defenders last setup die "
    "score is even) then low water will occurred at the hour of the attacker's inital set die score ( rolls a 1 "
    "then 0100 is low water, a 3 then 0300 is low water and so on). If on a night with a moon ( the defenders "
    "last setup die score is odd ), defender's total die score will be the hour of high water."
)


@pytest.mark.parametrize("attacker", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("defender", [(2,), (5, 4), (1, 6), (3, 3, 2)])
def test_moonless_night_low_water_at_the_attackers_die(attacker: int, defender: tuple[int, ...]) -> None:
    """001: "if the set die score is for a moonless night (if defenders last setup die score is even)
    then low water will occurred at the hour of the attacker's inital set die score ( rolls a 1 then
    0100 is low water, a 3 then 0300 is low water and so on)"."""
    timing = tide_timing_for(attacker_first=attacker, defender_dice=defender)
    assert (timing.moonlit, timing.anchor, timing.hour) == (False, TidePhase.LOW, attacker)
    state = timing.phase_at(attacker * 60)
    assert (state.phase, state.began, state.bound) == (TidePhase.LOW, attacker * 60, 1)


@pytest.mark.parametrize(
    ("defender", "hour"), [((1,), 1), ((4, 5), 9), ((6, 3), 9), ((2, 2, 1), 5), ((6, 6, 6, 6, 1), 1)]
)
def test_moonlit_night_high_water_at_the_defenders_total(defender: tuple[int, ...], hour: int) -> None:
    """001: "If on a night with a moon ( the defenders last setup die score is odd ), defender's total
    die score will be the hour of high water." (A total of 25 wraps to 0100.)"""
    timing = tide_timing_for(attacker_first=6, defender_dice=defender)
    assert (timing.moonlit, timing.anchor, timing.hour) == (True, TidePhase.HIGH, hour)
    assert timing.phase_at(hour * 60).phase is TidePhase.HIGH
    assert timing.phase_at(hour * 60 - 1).phase is TidePhase.FLOOD


def test_tide_timing_refuses_bad_dice() -> None:
    with pytest.raises(ValueError, match="defender's set-up dice are missing"):
        tide_timing_for(attacker_first=1, defender_dice=[])
    with pytest.raises(ValueError, match="attacker's initial set-up die: a d6 shows"):
        tide_timing_for(attacker_first=0, defender_dice=[2])
    with pytest.raises(ValueError, match="defender's set-up die 2: a d6 shows"):
        tide_timing_for(attacker_first=1, defender_dice=[2, 9])


def test_roll_setup_dice_logs_attacker_then_defender() -> None:
    """001: "After setup dice are thrown ... (if defenders last setup die score is even) then low
    water will occurred at the hour of the attacker's inital set die score"."""
    log = StrategicLog()
    setup = roll_setup_dice(ScriptedDice([4, 3, 6]), log, place="gibraltar")
    assert (setup.timing.moonlit, setup.timing.anchor, setup.timing.hour) == (False, TidePhase.LOW, 4)
    assert [(d.purpose, d.raw) for d in log] == [("setup", 4), ("setup", 3), ("setup", 6)]
    assert setup.attacker.raw == 4 and [d.raw for d in setup.defender] == [3, 6]


# --- Tide cycle ----------------------------------------------------------------------------------


def test_tide_cycle_phases_and_bounds() -> None:
    """001: "A tide cycle consists of 4 phases Low water 2 hours( 8 bounds), Flood tide 4 hours 15
    minutes ( 17 bounds ), High water 2 hours ( 8 bounds), and an Ebb tide last 4 hours 15 minutes (
    17 bounds ) for a 25 hour cycle of 2 tides a day."."""
    assert [(p.phase, p.bounds, p.minutes) for p in TIDE_CYCLE] == [
        (TidePhase.LOW, 8, 120),
        (TidePhase.FLOOD, 17, 255),
        (TidePhase.HIGH, 8, 120),
        (TidePhase.EBB, 17, 255),
    ]
    assert 2 * CYCLE_BOUNDS * 15 == 25 * 60
    assert tide_cycle_table().rows == (
        ("Low water", "2 hours", "8"),
        ("Flood tide", "4 hours 15 minutes", "17"),
        ("High water", "2 hours", "8"),
        ("Ebb tide", "4 hours 15 minutes", "17"),
    )


@given(faces, st.lists(faces, min_size=1, max_size=3), st.integers(min_value=-1440, max_value=2880))
def test_the_cycle_repeats_every_fifty_bounds(attacker: int, defender: list[int], minute: int) -> None:
    """001: "... for a 25 hour cycle of 2 tides a day" — each tide is 50 bounds of 15 minutes."""
    timing = tide_timing_for(attacker_first=attacker, defender_dice=defender)
    now = timing.phase_at(minute)
    later = timing.phase_at(minute + CYCLE_BOUNDS * 15)
    assert later.phase is now.phase and later.bound == now.bound
    assert now.began <= minute < now.began + (now.bound + now.bounds_left) * 15


def test_tide_schedule_of_the_day() -> None:
    """001: "rolls a 1 then 0100 is low water" — then flood, high water and ebb follow for 17, 8 and
    17 bounds."""
    table = tide_schedule_table(tide_timing_for(attacker_first=1, defender_dice=[2]))
    assert table.title == "Tides of the day (moonless night: low water at 0100)"
    assert table.rows[:5] == (
        ("Ebb tide", "2045 (the day before)", "0100"),
        ("Low water", "0100", "0300"),
        ("Flood tide", "0300", "0715"),
        ("High water", "0715", "0915"),
        ("Ebb tide", "0915", "1330"),
    )
    assert table.rows[-1][2].endswith("(the next day)")


def test_tide_timing_printable_rows() -> None:
    """001: the moonless and moonlit rules (see TIMING_LINE)."""
    rows = tide_timing_table().rows
    assert rows[0][:2] == ("Even", "Moonless") and "Low water at the hour of the attacker's initial" in rows[0][2]
    assert rows[1][:2] == ("Odd", "With a moon") and "High water at the hour of the defender's total" in rows[1][2]
    assert "moonless night" in TIMING_LINE


# --- Tide effect chart ---------------------------------------------------------------------------

#: The chart exactly as seed 001 has it (lines 76–87), tabs included.
CHART_LINES = (
    "If the total score is\tTide is\t\t\t\tTerrain is",
    "\tHigh\tEbb\tFlood\tLow\tReef\tTidal\tMarsh",
    "-1 to 0\t\tGGo\tGGo\tGGo\tGGo*\tGGo*",
    "1\t\tGGo\tGGo\t\tGGo*\t[DRv]\t[DRv]",
    "2\t\tGGo\tGGo\t\tGGo*\t[TRv]\t[TRv]",
    "3\t\tGGo\tGGo\t\t[DRv]\t[ERv]\t[ERv]",
    "4\t\tGGo\tGGo*\t\t[TRv]\t[PRv]\t[PRv]",
    "5\t\tGGo\t[DRv]\t\t[ERv]\t[RGo]\t[DGo]",
    "6\t\tGGo*\t[TRv]\t\t[PRv]\t[RGo]\t[DGo]",
    "7\t\t[DRv]\t[ERv]\t\t[RGo]\t[RGo]\t[DGo]",
    "8\t\t[TRv]\t[PRv]\t\t[RGo]\t[RGo]\t[DGo]",
    "9\t\t[ERv]\t[RGo]\t\t[RGo]\t[RGo]\t[DGo]",
)


@pytest.mark.parametrize("line", CHART_LINES[2:])
def test_tide_effect_chart_line_by_line(line: str) -> None:
    """001: each line of the chart (quoted in CHART_LINES): the score, then shoal water at high, at
    ebb or flood and at low water, then reef and tidal marsh."""
    score_text, *cells = [c for c in line.split("\t") if c]
    scores = [int(s) for s in score_text.split(" to ")]
    for score in range(scores[0], scores[-1] + 1):
        row = tide_effect_row(score)
        codes = [row.shoal_high.code, row.shoal_ebb_flood.code, row.shoal_low.code, row.reef.code, row.tidal_marsh.code]
        assert codes == cells
    printed = next(r for r in tide_effect_table().rows if r[0].replace("\u2212", "-") == score_text)
    assert list(printed[1:]) == cells


def test_tide_effect_chart_covers_every_score_once() -> None:
    """001: "If the total score is" -1 to 0, then 1 to 9: every reachable total has one line."""
    assert [s for r in TIDE_EFFECT for s in range(r.low, r.high + 1)] == list(range(-1, 10))
    with pytest.raises(ValueError, match="total score must be -1 to 9, got 10"):
        tide_effect_row(10)
    with pytest.raises(ValueError, match="got -2"):
        tide_effect_row(-2)


_DEPTH = {
    Going.GGO: 0,
    Going.GGO_CHECK: 1,
    Going.DRV: 2,
    Going.TRV: 3,
    Going.ERV: 4,
    Going.PRV: 5,
    Going.RGO: 6,
    Going.DGO: 6,
}


def test_every_column_gets_shallower_as_the_score_rises() -> None:
    """The reading of the chart's columns (see the module docstring): down each column, and from high
    water to low water to reef along each line, the water only gets shallower."""
    for above, below in itertools.pairwise(TIDE_EFFECT):
        for col in ("shoal_high", "shoal_ebb_flood", "shoal_low", "reef", "tidal_marsh"):
            assert _DEPTH[getattr(above, col)] <= _DEPTH[getattr(below, col)]
    for row in TIDE_EFFECT:
        assert _DEPTH[row.shoal_high] <= _DEPTH[row.shoal_ebb_flood] <= _DEPTH[row.shoal_low] <= _DEPTH[row.reef]
        assert row.shoal(TidePhase.EBB) is row.shoal(TidePhase.FLOOD) is row.shoal_ebb_flood


@pytest.mark.parametrize(
    ("conditions", "modifier", "seed_line"),
    [
        (TideConditions(passage=True), 1, "+1 Passage between mainland and island"),
        (TideConditions(soft_shore=True), 1, "+1 Adjacent mainland shore is dune or marsh or River mouth"),
        (TideConditions(wind=Wind.CALM), 1, "+1 Calm"),
        (TideConditions(wind=Wind.STRONG_ONSHORE), 1, "+1 Strong wind blowing onshore"),
        (TideConditions(wind=Wind.STRONG_OFFSHORE), -1, "-1 Strong wind blowing offshore"),
        (TideConditions(rocky_or_steep=True), -1, "-1 Adjacent shore rocky or steep"),
        (TideConditions(), 0, "(no modifier)"),
    ],
)
def test_tide_effect_modifiers(conditions: TideConditions, modifier: int, seed_line: str) -> None:
    """001: "The die roll is modifed for terrain types and weather conditions by the following:" and
    each modifier line (``seed_line``)."""
    assert conditions.modifier == modifier
    effect = tide_effect_for(4, conditions)
    assert (effect.face, effect.modifier, effect.score) == (4, modifier, 4 + modifier)
    assert effect.row is tide_effect_row(4 + modifier)


def test_tide_modifiers_printable_rows() -> None:
    """001: "+1 Passage between mainland and island" … "-1 Adjacent shore rocky or steep"."""
    assert tide_modifiers_table().rows == (
        ("+1", "Passage between mainland and island"),
        ("+1", "Adjacent mainland shore is dune or marsh or river mouth"),
        ("+1", "Calm"),
        ("+1", "Strong wind blowing onshore"),
        ("\u22121", "Strong wind blowing offshore"),
        ("\u22121", "Adjacent shore rocky or steep"),
    )


@given(faces, st.booleans(), st.booleans(), st.booleans(), st.sampled_from(list(Wind)))
def test_every_modified_roll_lies_on_the_chart(face: int, passage: bool, soft: bool, rocky: bool, wind: Wind) -> None:
    """001: the chart runs from "-1 to 0" to "9": the extreme rolls with every modifier stay on it."""
    conditions = TideConditions(passage=passage, soft_shore=soft, rocky_or_steep=rocky, wind=wind)
    effect = tide_effect_for(face, conditions)
    assert -1 <= effect.score <= 9


def test_roll_tide_effect_logs_the_die_with_its_modifier() -> None:
    """001: "After terrain set up a die is rolled by the attacker and compared to the chart below"."""
    log = StrategicLog()
    effect = roll_tide_effect(
        ScriptedDice([5]), log, place="gibraltar", conditions=TideConditions(passage=True, wind=Wind.CALM)
    )
    assert effect.score == 7 and effect.row.shoal_low is Going.RGO
    (die,) = log.records
    assert (die.purpose, die.raw, die.mod, die.result) == ("tide_effect", 5, 2, 7)


def test_bracketed_going_strands_ships_and_ggo_star_checks() -> None:
    """001: "Land going if in brackets is passable to land elements and are impassable to naval. Naval
    caught in shoal water when it becomes Rv or a land type is stranded until the tide changes it back
    to" and "GGo* Check for grounding within an elements width of steep shoreline and if within an
    elements depth of other shorelines."."""
    assert Going.GGO.naval_passable and not Going.GGO.grounding_check
    assert Going.GGO_CHECK.naval_passable and Going.GGO_CHECK.grounding_check
    for going in (Going.DRV, Going.TRV, Going.ERV, Going.PRV, Going.RGO, Going.DGO):
        assert going.code.startswith("[") and not going.naval_passable and going.strands
    notes = tide_effect_table().notes
    assert "[DRv]: Difficult river to land and boats; impassable to naval." in notes
    assert "[RGo]: Rough going for land; impassable to naval." in notes
    assert "[DGo]: Difficult going for land; impassable to naval." in notes


# --- Grounding -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("elements", "number", "seed_line"),
    [
        ((Element.SHP_S,), 4, "Shp(S)\t4\tShp(O), Gy(S)\t3"),
        ((Element.SHP_O, Element.GY_S), 3, "Shp(S)\t4\tShp(O), Gy(S)\t3"),
        ((Element.SHP_I, Element.SHP_X, Element.GY_O), 2, "Shp(I,X), Gy(O)\t2"),
        ((Element.GY_F, Element.BT_S), 1, "Gy( F), Bt(S)\t1"),
        ((Element.BT_O, Element.BT_I, Element.BT_X), 0, "Bt(O,I,X)\t0"),
    ],
)
def test_grounding_chart_numbers(elements: tuple[Element, ...], number: int, seed_line: str) -> None:
    """001: the grounding chart line ``seed_line``."""
    for element in elements:
        assert GROUNDING_NUMBER[element] == number
    assert set(GROUNDING_NUMBER) == set(Element)


def test_grounding_chart_printable_rows() -> None:
    """001: "Shp(S)	4	Shp(O), Gy(S)	3 / Shp(I,X), Gy(O)	2 / Gy( F), Bt(S)	1 / Bt(O,I,X)	0"."""
    assert grounding_table().rows == (
        ("Shp(S)", "4"),
        ("Shp(O), Gy(S)", "3"),
        ("Shp(I,X), Gy(O)", "2"),
        ("Gy(F), Bt(S)", "1"),
        ("Bt(O,I,X)", "0"),
    )
    assert [r.number for r in GROUNDING_CHART] == [4, 3, 2, 1, 0]


@given(st.sampled_from(list(Element)), faces, st.booleans())
def test_aground_when_number_plus_die_is_greater_than_6(element: Element, face: int, strong: bool) -> None:
    """001: "In GGo* naval elements run aground if the number on the chart below and the result of a
    die roll is greater than 6. If aground in Stong wind the element is destroyed (wrecked.)."."""
    result = grounding_for(element, face, strong_wind=strong)
    assert result.aground == (GROUNDING_NUMBER[element] + face > 6)
    assert result.wrecked == (result.aground and strong)


def test_grounding_examples() -> None:
    """001: "run aground if the number on the chart below and the result of a die roll is greater than
    6" — a ship of the line, Shp(S) 4, grounds on 3 and not on 2; boats (0) never ground."""
    assert grounding_for(Element.SHP_S, 3, strong_wind=False).aground
    assert not grounding_for(Element.SHP_S, 2, strong_wind=False).aground
    assert not any(grounding_for(Element.BT_O, f, strong_wind=True).aground for f in range(1, 7))
    log = StrategicLog()
    result = roll_grounding(
        ScriptedDice([6]), log, place="z", element=Element.SHP_O, strong_wind=True, subject="ship:3"
    )
    assert result is not None and result.aground and result.wrecked
    (die,) = log.records
    assert (die.purpose, die.raw, die.mod, die.result, die.subject) == ("grounding", 6, 3, 9, "ship:3")


@pytest.mark.parametrize(
    ("phase", "modifier", "seed_line"),
    [
        (TidePhase.LOW, -1, "-1 Aground in Low water or Flood"),
        (TidePhase.FLOOD, -1, "-1 Aground in Low water or Flood"),
        (TidePhase.EBB, 1, "+1 Aground in Ebb"),
        (TidePhase.HIGH, 2, "+2 Aground at High water"),
    ],
)
def test_unstick_modifiers(phase: TidePhase, modifier: int, seed_line: str) -> None:
    """001: "Grounded ships may become unstuck if they make their number in the tide level they
    grounded or a higher tide." with the modifier line ``seed_line``."""
    result = unstick_for(Element.SHP_S, 3, grounded_in=TidePhase.LOW, now=phase)
    assert (result.modifier, result.total) == (modifier, 3 + modifier)
    assert result.afloat == (3 + modifier >= 4)


def test_unstick_only_at_the_same_or_a_higher_tide() -> None:
    """001: "Grounded ships may become unstuck if they make their number in the tide level they
    grounded or a higher tide."."""
    assert may_try_unstick(TidePhase.LOW, TidePhase.HIGH)
    assert may_try_unstick(TidePhase.EBB, TidePhase.FLOOD)
    assert not may_try_unstick(TidePhase.HIGH, TidePhase.EBB)
    log = StrategicLog()
    with pytest.raises(ValueError, match="grounded at high water may try only at that tide level or higher"):
        roll_unstick(
            ScriptedDice([6]), log, place="z", element=Element.SHP_S, grounded_in=TidePhase.HIGH, now=TidePhase.LOW
        )
    assert len(log) == 0, "a refused attempt rolls nothing"
    result = roll_unstick(
        ScriptedDice([2]), log, place="z", element=Element.SHP_S, grounded_in=TidePhase.HIGH, now=TidePhase.HIGH
    )
    assert result.afloat and [(d.purpose, d.mod, d.result) for d in log] == [("unstick", 2, 4)]


def test_campaign_classes_map_to_elements() -> None:
    """House mapping (no seed line): ships of the line and 4th rates are Shp(S), frigates and transports
    Shp(O), smaller ships Shp(I)."""
    assert element_for_class("1st") is Element.SHP_S
    assert element_for_class("4th") is Element.SHP_S
    assert element_for_class("frigate") is Element.SHP_O
    assert element_for_class("transport") is Element.SHP_O
    assert element_for_class("brig") is Element.SHP_I
    assert len(CLASS_ELEMENTS) == 12
    with pytest.raises(ValueError, match="ship class: 'galleon' is not one of four-decker"):
        element_for_class("galleon")


# --- Flooded marsh -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "move", "seed_line"),
    [
        (1, "Difficult, 45 degrees left", "1\tdifficult 45 degrees left"),
        (2, "Stranded (no movement this bound)", "2\tstranded ( no movement this bound )"),
        (3, "Normal, ahead", "3\tnormal ahead"),
        (4, "Difficult, ahead", "4\tdifficult ahead"),
        (5, "Impassable (back up one full movement)", "5\timpassable (back up one full movement)"),
        (6, "Difficult, 45 degrees right", "6\tdifficult 45 degrees right"),
    ],
)
def test_flooded_marsh_passage(face: int, move: str, seed_line: str) -> None:
    """001: "Boats may pass thru Flooded marshes moving in DGo as indicated by the die roll on the chart
    below." and the chart line ``seed_line``."""
    assert marsh_passage_for(face).move == move
    assert marsh_passage_table().rows[face - 1] == (str(face), move)
    assert len(MARSH_PASSAGE_TABLE) == 6
    log = StrategicLog()
    assert roll_marsh_passage(ScriptedDice([face]), log, place="z").move == move
    assert [d.purpose for d in log] == ["marsh_passage"]


@given(st.integers(min_value=0, max_value=2**32))
def test_rolled_tides_replay_from_their_logged_faces(seed: int) -> None:
    log = StrategicLog()
    setup = roll_setup_dice(SeededDice(seed), log, place="z")
    effect = roll_tide_effect(SeededDice(seed + 1), log, place="z", conditions=TideConditions())
    replay_log = StrategicLog()
    dice = ScriptedDice(log.faces())
    assert roll_setup_dice(dice, replay_log, place="z").timing == setup.timing
    assert roll_tide_effect(dice, replay_log, place="z", conditions=TideConditions()).row == effect.row
    assert replay_log.to_list() == log.to_list()


# --- The opening rolls of an inshore battle ------------------------------------------------------


def test_inshore_setup_rolls_setup_dice_then_the_tide_effect() -> None:
    """001: "After setup dice are thrown, ... If on a night with a moon ( the defenders last setup die
    score is odd ), defender's total die score will be the hour of high water." and "After terrain set
    up a die is rolled by the attacker and compared to the chart below"."""
    log = StrategicLog()
    opening = roll_inshore_setup(
        ScriptedDice([3, 2, 5, 4]), log, place="gibraltar", conditions=TideConditions(passage=True)
    )
    assert (opening.timing.moonlit, opening.timing.anchor, opening.timing.hour) == (True, TidePhase.HIGH, 7)
    assert (opening.effect.face, opening.effect.score) == (4, 5)
    assert [d.purpose for d in log] == ["setup", "setup", "setup", "tide_effect"]
    assert setup_dice_table(opening.setup).rows == (
        ("Attacker's initial die", "3"),
        ("Defender's dice", "2, 5"),
        ("Tide", "The defender's last die is odd: a night with a moon; high water at the defender's total, 0700"),
    )
    result = tide_effect_result_table(opening.effect)
    assert result.title == "This tide cycle: 1D6 4, modifier +1, total 5"
    assert [r[:2] for r in result.rows] == [
        ("Shoal water at high water", "GGo"),
        ("Shoal water at ebb or flood", "[DRv]"),
        ("Shoal water at low water", "[ERv]"),
        ("Reefs", "[RGo]"),
        ("Tidal marsh", "[DGo]"),
    ]


def test_setup_dice_table_on_a_moonless_night() -> None:
    """001: "if defenders last setup die score is even) then low water will occurred at the hour of the
    attacker's inital set die score"."""
    setup = roll_setup_dice(ScriptedDice([2, 1, 4]), StrategicLog(), place="z")
    assert setup_dice_table(setup).rows[2] == (
        "Tide",
        "The defender's last die is even: a moonless night; low water at the attacker's die, 0200",
    )


def test_grounding_notes_follow_the_seed() -> None:
    """001: "Naval elements may pass thru shoal water checking for to see if they run aground at the end
    of the movement phase when they are in GGo* shoal water. If the element upon checking strikes a reef
    the element is stranded or destroyed in strong wind. ... Once an element of a naval group has
    crossed the shoal the rest may follow at the same speed and route as the lead element as the
    passage is assumed to be marked."."""
    notes = grounding_table().notes
    assert notes[0].startswith("Ships and galleys check at the end of each movement phase in GGo*")
    assert "On a reef: stranded, or destroyed in a strong wind." in notes[1]
    assert notes[2].startswith("Once an element of a naval group has crossed the shoal")
    assert "at the tide level they grounded in or a higher one" in notes[3] and "+2 at high water" in notes[3]


def test_low_draft_craft_pass_shoal_water_at_high_tide_in_a_calm() -> None:
    """001:103: "Low draft craft can move thru with little risk in high tide in calm." House reading:
    the craft of grounding number 2 or less (the campaign's sloops, brigs and fireships) make no
    grounding check in GGo* shoal water at high water in a calm; at any other tide, or in any wind,
    and for deeper ships always, they check as usual."""
    assert [e for e in Element if low_draft(e)] == [
        Element.SHP_I,
        Element.SHP_X,
        Element.GY_O,
        Element.GY_F,
        Element.BT_S,
        Element.BT_O,
        Element.BT_I,
        Element.BT_X,
    ]
    assert {c for c, e in CLASS_ELEMENTS.items() if low_draft(e)} == {"sloop", "brig", "fireship"}
    assert not grounding_check_needed(Element.SHP_I, tide=TidePhase.HIGH, calm=True)
    assert grounding_check_needed(Element.SHP_I, tide=TidePhase.HIGH, calm=False)
    assert grounding_check_needed(Element.SHP_I, tide=TidePhase.EBB, calm=True)
    assert grounding_check_needed(Element.SHP_O, tide=TidePhase.HIGH, calm=True)
    log = StrategicLog()
    dice = ScriptedDice([6])
    skipped = roll_grounding(
        dice, log, place="z", element=Element.SHP_I, strong_wind=False, tide=TidePhase.HIGH, calm=True
    )
    assert skipped is None and not log.records
    rolled = roll_grounding(
        dice, log, place="z", element=Element.SHP_I, strong_wind=False, tide=TidePhase.LOW, calm=True
    )
    assert rolled is not None and rolled.aground and len(log.records) == 1
    assert "make no grounding check" in grounding_table().notes[-1]
