"""Seed 004 (004_15cba4ffbfa3ec94.txt, the Battle of Grenada rules): wind, one table entry per test.

Each test quotes the seed line it implements, verbatim.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import DiceError, ScriptedDice, SeededDice
from rules.strategic_log import StrategicLog
from rules.tabletop.wind import (
    ChangeKind,
    Direction,
    back,
    initial_wind_for,
    initial_wind_table,
    opening_wind_table,
    roll_initial_wind,
    roll_opening_wind,
    roll_wind_change,
    roll_wind_speed,
    toward,
    veer,
    wind_change_for,
    wind_change_table,
    wind_speed_for,
    wind_speed_row,
    wind_speed_table,
)

D = Direction
faces = st.integers(min_value=1, max_value=6)
directions = st.sampled_from(list(Direction))


# --- INITIAL WIND: "If unknown 1D6: 1-3 = W 4 = NW 5-6 re -roll: 1= N 2 = NE, 3 = E, 4 = SE, 5 = S, 6 = SW"


@pytest.mark.parametrize("face", [1, 2, 3])
def test_initial_wind_1_to_3_is_west(face: int) -> None:
    """004_15cba4ffbfa3ec94.txt: "INITIAL WIND: If unknown 1D6: 1-3 = W"."""
    assert initial_wind_for(face) is D.W


def test_initial_wind_4_is_north_west() -> None:
    """004_15cba4ffbfa3ec94.txt: "4 = NW"."""
    assert initial_wind_for(4) is D.NW


@pytest.mark.parametrize(("second", "wind"), [(1, D.N), (2, D.NE), (3, D.E), (4, D.SE), (5, D.S), (6, D.SW)])
@pytest.mark.parametrize("first", [5, 6])
def test_initial_wind_5_or_6_rerolls(first: int, second: int, wind: Direction) -> None:
    """004_15cba4ffbfa3ec94.txt: "5-6 re -roll: 1= N 2 = NE, 3 = E, 4 = SE, 5 = S, 6 = SW"."""
    assert initial_wind_for(first, second) is wind


def test_initial_wind_refuses_a_missing_or_superfluous_reroll_and_bad_faces() -> None:
    with pytest.raises(ValueError, match="first die of 5 means re-roll"):
        initial_wind_for(5)
    with pytest.raises(ValueError, match="first die of 2 needs no re-roll"):
        initial_wind_for(2, 3)
    with pytest.raises(ValueError, match=r"1\.\.6, got 7"):
        initial_wind_for(7)
    with pytest.raises(ValueError, match=r"1\.\.6, got 0"):
        initial_wind_for(6, 0)


def test_roll_initial_wind_logs_each_die_in_order() -> None:
    """004_15cba4ffbfa3ec94.txt: "5-6 re -roll: ... 2 = NE" — two dice, both in the log."""
    log = StrategicLog()
    result = roll_initial_wind(ScriptedDice([6, 2]), log, place="gibraltar")
    assert result.wind is D.NE
    assert [(d.purpose, d.place, d.die, d.raw) for d in log] == [
        ("wind_initial", "gibraltar", "d6", 6),
        ("wind_initial", "gibraltar", "d6", 2),
    ]
    assert result.dice == log.records


def test_roll_initial_wind_without_reroll_rolls_one_die() -> None:
    """004_15cba4ffbfa3ec94.txt: "1-3 = W"."""
    log = StrategicLog()
    assert roll_initial_wind(ScriptedDice([3]), log, place="z").wind is D.W
    assert log.faces() == [3]


@given(st.integers(min_value=0, max_value=2**32))
def test_roll_initial_wind_replays_from_its_logged_faces(seed: int) -> None:
    log = StrategicLog()
    first = roll_initial_wind(SeededDice(seed), log, place="z")
    replay = roll_initial_wind(ScriptedDice(log.faces()), StrategicLog(), place="z")
    assert replay.wind is first.wind
    assert first.wind in {D.W, D.NW, D.N, D.NE, D.E, D.SE, D.S, D.SW}


# --- CHANGES IN WIND ---------------------------------------------------------------------------


@pytest.mark.parametrize("first", [1, 2, 3, 4])
def test_wind_check_1_to_4_is_no_change(first: int) -> None:
    """004_15cba4ffbfa3ec94.txt: "Every fifteen minutes toss 1D6: 1-4 = No change"."""
    log = StrategicLog()
    change = roll_wind_change(ScriptedDice([first]), log, place="z", wind=D.SW, prevailing=D.W)
    assert (change.kind, change.wind, change.speed) == (ChangeKind.NONE, D.SW, None)
    assert [(d.purpose, d.raw) for d in log] == [("wind_change", first)]


@pytest.mark.parametrize("first", [5, 6])
@pytest.mark.parametrize("second", [1, 2])
def test_toss_again_1_or_2_moves_one_point_toward_prevailing(first: int, second: int) -> None:
    """004_15cba4ffbfa3ec94.txt: "5 or 6 = Toss again: 1 or 2 = move 1 point in direction of
    prevailing wind"."""
    change = roll_wind_change(ScriptedDice([first, second]), StrategicLog(), place="z", wind=D.SW, prevailing=D.NW)
    assert (change.kind, change.wind) == (ChangeKind.TOWARD_PREVAILING, D.W)
    change = roll_wind_change(ScriptedDice([first, second]), StrategicLog(), place="z", wind=D.N, prevailing=D.W)
    assert change.wind is D.NW


@pytest.mark.parametrize(("wind", "prevailing"), [(D.W, D.W), (D.E, D.W), (D.NE, D.SW)])
def test_toward_prevailing_no_change_from_prevailing_or_opposite(wind: Direction, prevailing: Direction) -> None:
    """004_15cba4ffbfa3ec94.txt: "(no change if wind from prevailing direction or from opposite)"."""
    assert wind_change_for(wind, prevailing, 5, 1) is wind
    assert toward(wind, prevailing) is wind


def test_toss_again_3_backs_one_point_counter_clockwise() -> None:
    """004_15cba4ffbfa3ec94.txt: "3 ~ wind backs 1 point (counter-clockwise)"."""
    change = roll_wind_change(ScriptedDice([6, 3]), StrategicLog(), place="z", wind=D.N, prevailing=D.E)
    assert (change.kind, change.before, change.wind, change.changed_direction) == (ChangeKind.BACKS, D.N, D.NW, True)


def test_toss_again_4_veers_one_point_clockwise() -> None:
    """004_15cba4ffbfa3ec94.txt: "4 = wind veers 1 point (clockwise)"."""
    change = roll_wind_change(ScriptedDice([5, 4]), StrategicLog(), place="z", wind=D.NW, prevailing=D.W)
    assert (change.kind, change.wind) == (ChangeKind.VEERS, D.N)


@pytest.mark.parametrize("second", [5, 6])
def test_toss_again_5_or_6_tosses_for_wind_speed(second: int) -> None:
    """004_15cba4ffbfa3ec94.txt: "5 or 6= toss for a change in wind speed"."""
    log = StrategicLog()
    change = roll_wind_change(ScriptedDice([6, second, 2, 5]), log, place="z", wind=D.S, prevailing=D.W)
    assert change.kind is ChangeKind.SPEED
    assert change.wind is D.S
    assert change.speed is not None
    assert (change.speed.total, change.speed.higher, change.speed.lower) == (7, 5, 2)
    assert [d.purpose for d in log] == ["wind_change", "wind_change", "wind_speed", "wind_speed"]
    assert change.dice == log.records


def test_unknown_prevailing_uses_the_initial_wind() -> None:
    """004_15cba4ffbfa3ec94.txt: "Note: if prevailing wind direction is unknown. use initial wind."
    The wind has backed from W (the initial wind) to SW; "move 1 point in direction of prevailing
    wind" takes it back to W."""
    assert wind_change_for(D.SW, D.W, 5, 2) is D.W


def test_wind_change_refuses_missing_or_extra_second_die() -> None:
    with pytest.raises(ValueError, match="first die of 5 means toss again"):
        wind_change_for(D.W, D.W, 5)
    with pytest.raises(ValueError, match="first die of 3 means no change"):
        wind_change_for(D.W, D.W, 3, 1)


@given(directions)
def test_veer_and_back_are_inverse_and_go_round_in_eight(wind: Direction) -> None:
    """004_15cba4ffbfa3ec94.txt: "backs 1 point (counter-clockwise)" / "veers 1 point (clockwise)"."""
    assert back(veer(wind)) is wind
    w = wind
    for _ in range(8):
        w = veer(w)
    assert w is wind


@given(directions, directions)
def test_toward_prevailing_never_moves_away(wind: Direction, prevailing: Direction) -> None:
    order = list(Direction)

    def distance(a: Direction, b: Direction) -> int:
        d = (order.index(a) - order.index(b)) % 8
        return min(d, 8 - d)

    after = toward(wind, prevailing)
    before = distance(wind, prevailing)
    if before in (0, 4):
        assert after is wind
    else:
        assert distance(after, prevailing) == before - 1


@given(st.integers(min_value=0, max_value=2**32), directions, directions)
def test_wind_change_replays_from_logged_faces(seed: int, wind: Direction, prevailing: Direction) -> None:
    log = StrategicLog()
    change = roll_wind_change(SeededDice(seed), log, place="z", wind=wind, prevailing=prevailing)
    again = roll_wind_change(ScriptedDice(log.faces()), StrategicLog(), place="z", wind=wind, prevailing=prevailing)
    assert (again.wind, again.kind, again.speed) == (change.wind, change.kind, change.speed)
    assert len(change.dice) in (1, 2, 4)


# --- WIND SPEED ----------------------------------------------------------------------------------


@given(faces, faces)
def test_wind_speed_total_higher_and_lower_die(a: int, b: int) -> None:
    """004_15cba4ffbfa3ec94.txt: "toss 2D6 for overall wind speed: ... Total is Maximum # Inches Ships
    may sail with or across the Wind. HIGHER DIE is Maximum # Inches Ships may beat into the Wind ...
    LOWER DIE is # Inches Damaged Ships may beat into the Wind."."""
    speed = wind_speed_for(a, b)
    assert speed.total == a + b
    assert speed.higher == max(a, b)
    assert speed.lower == min(a, b)
    assert speed.higher + speed.lower == speed.total


def test_roll_wind_speed_logs_two_dice() -> None:
    """004_15cba4ffbfa3ec94.txt: "toss 2D6 for overall wind speed"."""
    log = StrategicLog()
    speed = roll_wind_speed(ScriptedDice([1, 6]), log, place="gulf-of-lion")
    assert (speed.total, speed.higher, speed.lower) == (7, 6, 1)
    assert [(d.purpose, d.place, d.raw) for d in log] == [
        ("wind_speed", "gulf-of-lion", 1),
        ("wind_speed", "gulf-of-lion", 6),
    ]
    assert wind_speed_row(speed) == ("1 and 6", "7", "6", "1")


def test_wind_speed_refuses_a_bad_face() -> None:
    with pytest.raises(ValueError, match=r"1\.\.6, got 7"):
        wind_speed_for(7, 1)


def test_scripted_dice_running_out_is_an_error() -> None:
    with pytest.raises(DiceError):
        roll_wind_speed(ScriptedDice([3]), StrategicLog(), place="z")


# --- Printable tables ---------------------------------------------------------------------------


def test_initial_wind_printable_rows_match_the_seed() -> None:
    """004_15cba4ffbfa3ec94.txt: "INITIAL WIND: If unknown 1D6: 1-3 = W 4 = NW 5-6 re -roll: 1= N 2 =
    NE, 3 = E, 4 = SE, 5 = S, 6 = SW"."""
    table = initial_wind_table()
    assert table.headers == ("1D6", "Wind")
    assert table.rows == (
        ("1–3", "From the west"),
        ("4", "From the north-west"),
        ("5–6", "Re-roll"),
        ("Re-roll 1", "From the north"),
        ("Re-roll 2", "From the north-east"),
        ("Re-roll 3", "From the east"),
        ("Re-roll 4", "From the south-east"),
        ("Re-roll 5", "From the south"),
        ("Re-roll 6", "From the south-west"),
    )
    assert table.seed == "004"


def test_wind_change_printable_rows_match_the_seed() -> None:
    """004_15cba4ffbfa3ec94.txt: "Every fifteen minutes toss 1D6: 1-4 = No change, 5 or 6 = Toss again:
    1 or 2 = move 1 point in direction of prevailing wind (no change if wind from prevailing direction
    or from opposite) 3 ~ wind backs 1 point (counter-clockwise), 4 = wind veers 1 point (clockwise),
    5 or 6= toss for a change in wind speed."."""
    rows = wind_change_table().rows
    assert [r[0] for r in rows] == ["1–4", "5–6", "Toss again 1–2", "Toss again 3", "Toss again 4", "Toss again 5–6"]
    assert rows[0][1] == "No change"
    assert rows[1][1] == "Toss again"
    assert "towards the prevailing wind" in rows[2][1] and "opposite" in rows[2][1]
    assert rows[3][1] == "Wind backs 1 point (counter-clockwise)"
    assert rows[4][1] == "Wind veers 1 point (clockwise)"
    assert rows[5][1] == "Toss 2D6 for a change in wind speed"
    assert "If the prevailing wind direction is unknown, use the initial wind." in wind_change_table().notes


def test_wind_speed_printable_rows_match_the_seed() -> None:
    """004_15cba4ffbfa3ec94.txt: "Total is Maximum # Inches Ships may sail with or across the Wind.
    HIGHER DIE is Maximum # Inches Ships may beat into the Wind (up to 225) AND the distance Damaged
    Ships may sail with or across the Wind. LOWER DIE is # Inches Damaged Ships may beat into the
    Wind. AND the distance Dismasted Ships must drift with the Wind."."""
    rows = {r[0]: r[1] for r in wind_speed_table().rows}
    assert rows["Total"] == "Maximum inches ships may sail with or across the wind"
    assert "beat into the wind" in rows["Higher die"] and "damaged ships may sail" in rows["Higher die"]
    assert "damaged ships may beat" in rows["Lower die"].lower() and "dismasted ships must drift" in rows["Lower die"]
    assert any("at least the inches on the lower die" in n for n in wind_speed_table().notes)


# --- The opening rolls ---------------------------------------------------------------------------


def test_opening_wind_rolls_the_initial_wind_only_when_unknown() -> None:
    """004_15cba4ffbfa3ec94.txt: "INITIAL WIND: If unknown 1D6: 1-3 = W 4 = NW 5-6 re -roll: 1= N 2 =
    NE" and "toss 2D6 for overall wind speed"."""
    log = StrategicLog()
    opening = roll_opening_wind(ScriptedDice([5, 2, 3, 4]), log, place="gibraltar")
    assert (opening.wind, opening.rolled, opening.speed.total) == (D.NE, True, 7)
    assert [d.purpose for d in opening.dice] == ["wind_initial", "wind_initial", "wind_speed", "wind_speed"]
    assert opening.dice == log.records
    rows = opening_wind_table(opening).rows
    assert rows[0] == ("Wind", "From the north-east, rolled on the initial-wind table (5 then 2)")
    assert rows[2] == ("With or across the wind", "7 inches at most")
    assert rows[3][1] == "4 inches at most" and rows[4][1] == "3 inches"


def test_opening_wind_keeps_a_known_wind() -> None:
    """004_15cba4ffbfa3ec94.txt: "INITIAL WIND: If unknown" — a known wind is not rolled."""
    log = StrategicLog()
    opening = roll_opening_wind(ScriptedDice([6, 6]), log, place="z", known=D.SE)
    assert (opening.wind, opening.rolled, opening.speed.total) == (D.SE, False, 12)
    assert [d.purpose for d in log] == ["wind_speed", "wind_speed"]
    assert opening_wind_table(opening).rows[0] == ("Wind", "From the south-east, as the campaign knows it")
