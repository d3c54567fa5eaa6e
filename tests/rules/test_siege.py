"""RULES.md §7 "Siege": the siege table, one rule case per test."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import ScriptedDice, SeededDice
from rules.ruleset import DEFAULT_RULESET, GRADES, Ruleset
from rules.siege import (
    SiegeOutcome,
    SiegeResult,
    SiegeState,
    SiegeUnit,
    captor_of,
    coastal_forts,
    garrison_strength,
    siege_band,
    siege_modifiers,
    siege_roll,
    unit_to_lose,
)
from rules.strategic_log import StrategicLog

R = DEFAULT_RULESET


def units(n: int, *, nation: str = "FR", first_id: int = 1, trains: int = 0) -> tuple[SiegeUnit, ...]:
    """``n`` units with ids from ``first_id``; the last ``trains`` of them are siege trains."""
    return tuple(SiegeUnit(first_id + i, nation, siege_train=i >= n - trains) for i in range(n))


def state(
    b: int = 2,
    g: int = 2,
    *,
    ff: int = 2,
    blockaded: bool = True,
    trains: int = 0,
    earlier: int = 0,
    gibraltar: bool = False,
    commander: str | None = None,
) -> SiegeState:
    """Defaults give a modifier of exactly 0: B = G (no superiority), FF 2 (−2), blockaded (+2)."""
    return SiegeState(
        port="malta",
        besiegers=units(b, nation="FR", first_id=100, trains=trains),
        garrison=units(g, nation="GB", first_id=1),
        fortification=ff,
        gibraltar=gibraltar,
        earlier_turns=earlier,
        blockaded=blockaded,
        commander=commander,
    )


def roll(s: SiegeState, *faces: int, ruleset: Ruleset = R) -> tuple[SiegeResult, StrategicLog]:
    log = StrategicLog()
    dice = ScriptedDice(faces)
    result = siege_roll(s, ruleset, dice, log)
    assert dice.unused == [], "every scripted face should have been rolled"
    return result, log


# --- who rolls -----------------------------------------------------------------------------------


def test_an_ungarrisoned_port_is_taken_without_a_roll() -> None:
    """§7 "G = 0: the port is taken, no roll" — and no die is logged."""
    log = StrategicLog()
    result = siege_roll(state(b=1, g=0), R, ScriptedDice([]), log)
    assert result.outcome is SiegeOutcome.TAKEN_UNDEFENDED
    assert result.taken and result.captor == "FR"
    assert result.die is None and len(log) == 0
    assert result.besiegers_lost == () and result.garrison_lost == ()


def test_gibraltar_garrison_counts_five_times() -> None:
    """§7 "Gibraltar's garrison has its strength multiplied by x5 [...] 5 units counts as 25 units" [S]."""
    assert garrison_strength(5, True, R) == 25
    assert garrison_strength(5, False, R) == 5
    result, _ = roll(state(b=13, g=5, gibraltar=True), 5)
    assert result.g == 25


def test_a_siege_of_gibraltar_cannot_be_stormed_by_a_small_army() -> None:
    """§7 "if 2B ≥ G, roll": 4 units against 2 at Gibraltar (G = 10) do not roll; the siege goes on."""
    log = StrategicLog()
    result = siege_roll(state(b=4, g=2, gibraltar=True, earlier=1), R, ScriptedDice([]), log)
    assert result.outcome is SiegeOutcome.NO_ROLL
    assert (result.b, result.g) == (4, 10)
    assert len(log) == 0 and not result.taken
    assert result.still_besieged and result.next_earlier_turns == 2


def test_besiegers_roll_when_twice_their_number_equals_the_garrison() -> None:
    """§7 "if 2B ≥ G": B = 2 against G = 4 is exactly enough to roll; B = 2 against G = 5 is not."""
    result, log = roll(state(b=2, g=4), 5)
    assert result.outcome is not SiegeOutcome.NO_ROLL and len(log) == 1
    result, log = roll(state(b=2, g=5))
    assert result.outcome is SiegeOutcome.NO_ROLL and len(log) == 0


def test_gibraltar_has_six_coastal_forts_subtracted_from_the_roll() -> None:
    """§7 "roll d10 − forts"; "Gibraltar counts as having 6 Coastal Forts" (2 × FF 3) [S]."""
    assert coastal_forts(3, True, R) == 6
    assert coastal_forts(3, False, R) == 3
    mods = siege_modifiers(state(b=10, g=1, ff=3, gibraltar=True), R)
    assert mods.forts == 6


# --- modifiers -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("b", "g", "expected"),
    [(3, 2, 0), (4, 2, 1), (5, 2, 1), (6, 2, 2), (7, 2, 2), (8, 2, 3), (20, 2, 3)],
    ids=["below-2G", "exactly-2G", "between", "exactly-3G", "between-3-4", "exactly-4G", "far-above"],
)
def test_superiority_gives_the_largest_applicable_bonus_only(b: int, g: int, expected: int) -> None:
    """§7 "+1 if B ≥ 2G, +2 if B ≥ 3G, +3 if B ≥ 4G" — the largest that applies, not their sum."""
    assert siege_modifiers(state(b=b, g=g), R).superiority == expected


def test_superiority_is_measured_against_gibraltars_multiplied_garrison() -> None:
    """§7 "G = [...] units in the port (Gibraltar × 5)": 10 besiegers against 1 unit there are 2G."""
    assert siege_modifiers(state(b=10, g=1, gibraltar=True), R).superiority == 1


@pytest.mark.parametrize(("earlier", "expected"), [(0, 0), (1, 1), (3, 3), (4, 4), (5, 4), (9, 4)])
def test_each_earlier_consecutive_turn_adds_one_up_to_four(earlier: int, expected: int) -> None:
    """§7 "+1 per earlier consecutive turn this port ended phase 6 besieged (max +4; the landing turn
    rolls with +0)"."""
    assert siege_modifiers(state(earlier=earlier), R).duration == expected


def test_blockade_against_the_owner_helps_and_its_absence_hinders() -> None:
    """§7 "+2 if blockaded against the owner else −2"."""
    assert siege_modifiers(state(blockaded=True), R).blockade == 2
    assert siege_modifiers(state(blockaded=False), R).blockade == -2


def test_only_one_siege_train_counts() -> None:
    """§7 "+1 with a siege train (one counts)"."""
    assert siege_modifiers(state(b=3, trains=0), R).siege_train == 0
    assert siege_modifiers(state(b=3, trains=1), R).siege_train == 1
    assert siege_modifiers(state(b=3, trains=2), R).siege_train == 1


@pytest.mark.parametrize(("grade", "expected"), [("A", -1), ("B", -1), ("C", -1), ("D", 0), ("H", 0), (None, 0)])
def test_a_garrison_commander_graded_a_to_c_hinders_the_besiegers(grade: str | None, expected: int) -> None:
    """§7 "−1 if the garrison commander is A–C"."""
    assert siege_modifiers(state(commander=grade), R).commander == expected


def test_the_roll_adds_every_modifier_to_the_d10() -> None:
    """d10 − forts + superiority + turns + blockade + siege train + commander, as one logged die."""
    s = state(b=8, g=2, ff=3, blockaded=False, trains=1, earlier=2, commander="B")
    # −3 forts, +3 (B ≥ 4G), +2 turns, −2 not blockaded, +1 train, −1 commander = 0
    result, log = roll(s, 7)
    (die,) = log.records
    assert (die.purpose, die.place, die.die, die.raw, die.mod, die.result) == ("siege", "malta", "d10", 7, 0, 7)
    assert result.outcome is SiegeOutcome.GARRISON_LOST


def test_modifiers_follow_the_campaigns_ruleset() -> None:
    """Every number is a setting: a house rule of max +2 for duration caps it at +2."""
    house = Ruleset.from_flat({"siege.per_turn_max": 2, "siege.gibraltar_garrison_multiplier": 3})
    assert siege_modifiers(state(earlier=4), house).duration == 2
    assert garrison_strength(5, True, house) == 15


# --- the table's bands ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "band"),
    [
        (-5, SiegeOutcome.BESIEGER_LOST),
        (3, SiegeOutcome.BESIEGER_LOST),
        (4, SiegeOutcome.NOTHING),
        (6, SiegeOutcome.NOTHING),
        (7, SiegeOutcome.GARRISON_LOST),
        (8, SiegeOutcome.GARRISON_LOST),
        (9, SiegeOutcome.STORMED),
        (10, SiegeOutcome.STORMED_AT_A_COST),
        (15, SiegeOutcome.STORMED_AT_A_COST),
    ],
)
def test_every_band_boundary_of_the_siege_table(total: int, band: SiegeOutcome) -> None:
    """§7 "≤3 [...]; 4–6 nothing; 7–8 [...]; 9 [...]; ≥10 [...]"."""
    assert siege_band(total, R) is band


def test_three_or_less_loses_one_besieging_unit() -> None:
    """§7 "≤3 one besieging unit lost"."""
    result, _ = roll(state(b=2, g=2), 3)
    assert result.outcome is SiegeOutcome.BESIEGER_LOST
    assert result.besiegers_lost == (100,) and result.garrison_lost == ()
    assert not result.taken and result.still_besieged


def test_the_siege_train_is_the_last_besieging_unit_lost() -> None:
    """§7 "one besieging unit lost (the siege train last)": the ordinary unit goes first, even with a
    higher id."""
    s = SiegeState(
        port="malta",
        besiegers=(SiegeUnit(5, "FR", siege_train=True), SiegeUnit(9, "FR")),
        garrison=units(2, nation="GB"),
        fortification=2,
        blockaded=True,
    )
    result, _ = roll(s, 1)
    assert result.besiegers_lost == (9,)
    assert unit_to_lose([SiegeUnit(5, "FR", siege_train=True)]).id == 5


def test_four_to_six_changes_nothing() -> None:
    """§7 "4–6 nothing"."""
    for face in (4, 6):
        result, _ = roll(state(), face)
        assert result.outcome is SiegeOutcome.NOTHING
        assert result.besiegers_lost == () == result.garrison_lost and not result.taken


def test_seven_or_eight_loses_one_garrison_unit() -> None:
    """§7 "7–8 one garrison unit lost"."""
    result, _ = roll(state(b=2, g=2), 8)
    assert result.garrison_lost == (1,)
    assert not result.taken and result.still_besieged and result.next_earlier_turns == 1


def test_seven_takes_the_port_when_its_last_defender_falls() -> None:
    """§7 "7–8 one garrison unit lost (the port taken if none is left)"."""
    result, _ = roll(state(b=1, g=1), 7)
    assert result.outcome is SiegeOutcome.GARRISON_LOST
    assert result.garrison_lost == (1,) and result.taken and result.captor == "FR"
    assert not result.still_besieged and result.next_earlier_turns == 0


def test_a_gibraltar_garrison_loses_one_real_unit_not_five() -> None:
    """Gibraltar's ×5 is its strength on the table; a 7–8 still removes one unit of the garrison."""
    result, _ = roll(state(b=4, g=1, gibraltar=True, ff=0, blockaded=True), 6)  # +2 blockade → 8
    assert result.garrison_lost == (1,) and result.taken


def test_nine_removes_the_garrison_and_takes_the_port() -> None:
    """§7 "9 the garrison removed and the port taken"."""
    result, _ = roll(state(b=2, g=2), 9)
    assert result.outcome is SiegeOutcome.STORMED
    assert result.garrison_lost == (1, 2) and result.besiegers_lost == ()
    assert result.taken and result.captor == "FR"


def test_ten_or_more_takes_the_port_at_the_cost_of_one_besieger() -> None:
    """§7 "≥10 the port taken and one besieging unit lost"."""
    result, log = roll(state(b=3, g=1, ff=0), 10)  # +2 (B ≥ 3G), +2 blockaded, no forts
    assert log.records[0].result == 14
    assert result.outcome is SiegeOutcome.STORMED_AT_A_COST
    assert result.taken and result.besiegers_lost == (100,) and result.garrison_lost == ()


def test_a_port_stormed_by_its_last_besieger_is_taken_ungarrisoned() -> None:
    """≥10 with a single besieging unit: the port is taken and the unit lost (house resolution)."""
    result, _ = roll(state(b=1, g=1), 10)
    assert result.taken and result.captor == "FR" and result.besiegers_lost == (100,)


def test_a_siege_with_no_besiegers_left_ends_and_its_count_resets() -> None:
    """§7 "A siege with no besiegers left ends, and its count resets" (landing-turn +0 again)."""
    result, _ = roll(state(b=1, g=2, earlier=3, blockaded=False), 2)  # −2 forts +3 turns −2 → 1
    assert result.besiegers_lost == (100,)
    assert not result.still_besieged and result.next_earlier_turns == 0


def test_the_captor_is_the_nation_with_most_besieging_units_ties_to_lower_code() -> None:
    """§7 "B = those units, all such nations together": the port goes to the strongest, then lower code."""
    assert captor_of([SiegeUnit(1, "FR"), SiegeUnit(2, "ES"), SiegeUnit(3, "FR")]) == "FR"
    assert captor_of([SiegeUnit(1, "FR"), SiegeUnit(2, "ES")]) == "ES"


def test_a_siege_without_besiegers_is_refused() -> None:
    """§7 "a port with land units ashore from nations at war with its owner is besieged": none, no siege."""
    with pytest.raises(ValueError, match="at least one besieging unit"):
        SiegeState(port="malta", besiegers=(), garrison=units(1), fortification=1)


# --- properties ----------------------------------------------------------------------------------

siege_states = st.builds(
    lambda b, g, trains, ff, gib, earlier, blockaded, commander: SiegeState(
        port="p",
        besiegers=units(b, nation="FR", first_id=1000, trains=min(trains, b)),
        garrison=units(g, nation="GB"),
        fortification=ff,
        gibraltar=gib,
        earlier_turns=earlier,
        blockaded=blockaded,
        commander=commander,
    ),
    st.integers(1, 30),
    st.integers(0, 12),
    st.integers(0, 3),
    st.integers(0, 4),
    st.booleans(),
    st.integers(0, 8),
    st.booleans(),
    st.none() | st.sampled_from(GRADES),
)


@settings(max_examples=200)
@given(s=siege_states, seed=st.integers(0, 2**32))
def test_a_siege_roll_replays_from_its_own_dice(s: SiegeState, seed: int) -> None:
    """A stored siege die fed back through ScriptedDice gives the same result (§3 dice log)."""
    log = StrategicLog()
    first = siege_roll(s, R, SeededDice(seed), log)
    replay_log = StrategicLog()
    replay = siege_roll(s, R, ScriptedDice(log.faces()), replay_log)
    assert replay == first
    assert replay_log.records == log.records
    assert len(log) <= 1


@settings(max_examples=200)
@given(s=siege_states, seed=st.integers(0, 2**32))
def test_units_lost_always_come_from_the_siege(s: SiegeState, seed: int) -> None:
    """Losses name real units of the right side; a taken port always has a captor."""
    result = siege_roll(s, R, SeededDice(seed), StrategicLog())
    assert set(result.besiegers_lost) <= {u.id for u in s.besiegers}
    assert set(result.garrison_lost) <= {u.id for u in s.garrison}
    assert len(result.besiegers_lost) <= 1
    assert (result.captor is not None) == result.taken
    assert not (result.taken and result.still_besieged)
