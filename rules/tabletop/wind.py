"""Wind on the table: the initial wind, its change every fifteen minutes and its speed (seed 004).

Seed 004 (the Battle of Grenada rules, MWAN #109) says, verbatim:

* INITIAL WIND — "INITIAL WIND: If unknown 1D6: 1-3 = W 4 = NW 5-6 re -roll: 1= N 2 = NE, 3 = E,
  4 = SE, 5 = S, 6 = SW"
* CHANGES IN WIND — "Every fifteen minutes toss 1D6: 1-4 = No change, 5 or 6 = Toss again: 1 or 2 =
  move 1 point in direction of prevailing wind (no change if wind from prevailing direction or
  from opposite) 3 ~ wind backs 1 point (counter-clockwise), 4 = wind veers 1 point (clockwise), 5
  or 6= toss for a change in wind speed. Note: if prevailing wind direction is unknown. use initial
  wind."
* WIND SPEED — "If there is a change in wind speed, toss 2D6 for overall wind speed: (Note that the
  toss apples to all ships of both sides): Total is Maximum # Inches Ships may sail with or across
  the Wind. HIGHER DIE is Maximum # Inches Ships may beat into the Wind (up to 225) AND the distance
  Damaged Ships may sail with or across the Wind. LOWER DIE is # Inches Damaged Ships may beat into
  the Wind. AND the distance Dismasted Ships must drift with the Wind."

Decisions where the seed is silent (house, [H]):

* A "point" is one of the eight points of the rose the initial-wind table uses (N, NE, E, SE, S,
  SW, W, NW): 45°. A wind is named by where it blows *from*, as the initial table does.
* "Move 1 point in direction of prevailing wind" turns the wind one point along the shorter way
  round towards the prevailing direction.
* The seed gives no starting wind speed; a battle starts with one wind-speed toss
  (:func:`roll_wind_speed`) so the table has distances from the first move.
* "(up to 225)" in the seed is read as "up to 22.5°" off the wind and printed so.

Every function that rolls takes the dice (:class:`rules.dice.Dice`) and a
:class:`rules.strategic_log.StrategicLog`, appends each die it rolls, in the order rolled, with
the purposes ``wind_initial``, ``wind_change`` and ``wind_speed`` and the caller's ``place`` (the
battle's sea zone or port key), and returns a frozen result. The same tables are exposed as typed
rows and as :class:`~rules.tabletop.printable.PrintableTable` for the battle pack.

Pure Python: no Django, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from rules.dice import Dice
from rules.strategic_log import WIND_CHANGE, WIND_INITIAL, WIND_SPEED, StrategicDie, StrategicLog
from rules.tabletop.printable import PrintableTable, span

SEED: Final = "004"
SOURCE: Final = "Battle of Grenada rules (MWAN #109)"


class Direction(StrEnum):
    """The eight points of the rose, clockwise from north; a wind is named by where it blows from."""

    N = "N"
    NE = "NE"
    E = "E"
    SE = "SE"
    S = "S"
    SW = "SW"
    W = "W"
    NW = "NW"

    @property
    def label(self) -> str:
        """The direction as a reader sees it: "north-west"."""
        return _LABELS[self]


_ROSE: Final = tuple(Direction)
_POINTS: Final = len(_ROSE)
_LABELS: Final = {
    Direction.N: "north",
    Direction.NE: "north-east",
    Direction.E: "east",
    Direction.SE: "south-east",
    Direction.S: "south",
    Direction.SW: "south-west",
    Direction.W: "west",
    Direction.NW: "north-west",
}


def veer(wind: Direction) -> Direction:
    """The wind one point clockwise ("veers 1 point (clockwise)"): N → NE, NW → N."""
    return _ROSE[(_ROSE.index(wind) + 1) % _POINTS]


def back(wind: Direction) -> Direction:
    """The wind one point counter-clockwise ("backs 1 point (counter-clockwise)"): N → NW."""
    return _ROSE[(_ROSE.index(wind) - 1) % _POINTS]


def toward(wind: Direction, prevailing: Direction) -> Direction:
    """The wind moved one point towards ``prevailing`` along the shorter way round.

    Seed 004: "move 1 point in direction of prevailing wind (no change if wind from prevailing
    direction or from opposite)" — so ``wind`` itself comes back when it already blows from the
    prevailing direction or from the opposite one.
    """
    steps = (_ROSE.index(prevailing) - _ROSE.index(wind)) % _POINTS
    if steps in (0, _POINTS // 2):
        return wind
    return veer(wind) if steps < _POINTS // 2 else back(wind)


# --- Initial wind -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class InitialWindRow:
    """One line of the initial-wind table: faces ``low``–``high`` of the die give ``wind``, or
    ``reroll`` (then ``wind`` is None and the second table decides)."""

    low: int
    high: int
    wind: Direction | None
    reroll: bool = False


#: "1D6: 1-3 = W 4 = NW 5-6 re -roll"
INITIAL_WIND: Final = (
    InitialWindRow(1, 3, Direction.W),
    InitialWindRow(4, 4, Direction.NW),
    InitialWindRow(5, 6, None, reroll=True),
)
#: "re -roll: 1= N 2 = NE, 3 = E, 4 = SE, 5 = S, 6 = SW"
INITIAL_WIND_REROLL: Final = (
    InitialWindRow(1, 1, Direction.N),
    InitialWindRow(2, 2, Direction.NE),
    InitialWindRow(3, 3, Direction.E),
    InitialWindRow(4, 4, Direction.SE),
    InitialWindRow(5, 5, Direction.S),
    InitialWindRow(6, 6, Direction.SW),
)


def _row_for(rows: tuple[InitialWindRow, ...], face: int) -> InitialWindRow:
    for row in rows:
        if row.low <= face <= row.high:
            return row
    raise ValueError(f"a d6 shows 1..6, got {face!r}")


def initial_wind_for(first: int, second: int | None = None) -> Direction:
    """The initial wind for the given d6 faces (seed 004 "INITIAL WIND").

    Returns the direction the wind blows from. ``second`` is the re-roll, needed exactly when
    ``first`` is 5 or 6; a missing or superfluous re-roll is a :class:`ValueError` naming it.
    """
    row = _row_for(INITIAL_WIND, first)
    if not row.reroll:
        if second is not None:
            raise ValueError(f"initial wind: a first die of {first} needs no re-roll, but {second} was given")
        assert row.wind is not None
        return row.wind
    if second is None:
        raise ValueError(f"initial wind: a first die of {first} means re-roll, but no second die was given")
    wind = _row_for(INITIAL_WIND_REROLL, second).wind
    assert wind is not None
    return wind


@dataclass(frozen=True, slots=True)
class InitialWind:
    """The initial wind and the dice that gave it (one die, or two with the re-roll)."""

    wind: Direction
    dice: tuple[StrategicDie, ...]


def roll_initial_wind(dice: Dice, log: StrategicLog, *, place: str) -> InitialWind:
    """Roll the initial wind (seed 004 "INITIAL WIND: If unknown 1D6 …").

    Returns the wind and its dice: one d6, and a second one when the first shows 5 or 6. Call it
    only when the campaign does not know the wind. Each die is logged as ``wind_initial``.
    """
    first = log.roll(dice, purpose=WIND_INITIAL, place=place, die="d6", detail="initial wind")
    if not _row_for(INITIAL_WIND, first.raw).reroll:
        return InitialWind(initial_wind_for(first.raw), (first,))
    second = log.roll(dice, purpose=WIND_INITIAL, place=place, die="d6", detail="initial wind: re-roll")
    return InitialWind(initial_wind_for(first.raw, second.raw), (first, second))


# --- Wind speed ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WindSpeed:
    """One wind-speed toss of 2D6 and the distances it sets for every ship of both sides.

    * ``total`` — "Maximum # Inches Ships may sail with or across the Wind";
    * ``higher`` — "Maximum # Inches Ships may beat into the Wind (up to 225) AND the distance
      Damaged Ships may sail with or across the Wind";
    * ``lower`` — "# Inches Damaged Ships may beat into the Wind. AND the distance Dismasted Ships
      must drift with the Wind"; also the least every ship not tacking must move ("ALL SHIPS not
      tacking … must move at least the Inches on the lower die").
    """

    faces: tuple[int, int]
    total: int
    higher: int
    lower: int


def wind_speed_for(first: int, second: int) -> WindSpeed:
    """The wind speed for two d6 faces (seed 004 "WIND SPEED"); a face outside 1..6 is refused."""
    for face in (first, second):
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
            raise ValueError(f"wind speed: a d6 shows 1..6, got {face!r}")
    return WindSpeed((first, second), first + second, max(first, second), min(first, second))


def roll_wind_speed(dice: Dice, log: StrategicLog, *, place: str) -> WindSpeed:
    """Toss 2D6 for the wind speed; returns the total, the higher and the lower die.

    Used for the battle's first wind speed (house: the seed gives none) and whenever a wind change
    calls for "a change in wind speed". Both dice are logged as ``wind_speed``.
    """
    a = log.roll(dice, purpose=WIND_SPEED, place=place, die="d6", detail="wind speed: first die")
    b = log.roll(dice, purpose=WIND_SPEED, place=place, die="d6", detail="wind speed: second die")
    return wind_speed_for(a.raw, b.raw)


# --- Wind change --------------------------------------------------------------------------------


class ChangeKind(StrEnum):
    """What one fifteen-minute wind check did."""

    NONE = "none"
    TOWARD_PREVAILING = "toward_prevailing"
    BACKS = "backs"
    VEERS = "veers"
    SPEED = "speed"


@dataclass(frozen=True, slots=True)
class ChangeRow:
    """One line of a wind-change table: faces ``low``–``high`` give ``kind`` (or ``toss_again``)."""

    low: int
    high: int
    text: str
    kind: ChangeKind | None
    toss_again: bool = False


#: "Every fifteen minutes toss 1D6: 1-4 = No change, 5 or 6 = Toss again"
WIND_CHECK: Final = (
    ChangeRow(1, 4, "No change", ChangeKind.NONE),
    ChangeRow(5, 6, "Toss again", None, toss_again=True),
)
#: "1 or 2 = move 1 point in direction of prevailing wind … 3 ~ wind backs 1 point
#: (counter-clockwise), 4 = wind veers 1 point (clockwise), 5 or 6= toss for a change in wind speed"
WIND_CHANGE_TABLE: Final = (
    ChangeRow(
        1,
        2,
        "Wind moves 1 point towards the prevailing wind (no change if it blows from the prevailing "
        "direction or from the opposite one)",
        ChangeKind.TOWARD_PREVAILING,
    ),
    ChangeRow(3, 3, "Wind backs 1 point (counter-clockwise)", ChangeKind.BACKS),
    ChangeRow(4, 4, "Wind veers 1 point (clockwise)", ChangeKind.VEERS),
    ChangeRow(5, 6, "Toss 2D6 for a change in wind speed", ChangeKind.SPEED),
)


def _change_row(rows: tuple[ChangeRow, ...], face: int) -> ChangeRow:
    for row in rows:
        if row.low <= face <= row.high:
            return row
    raise ValueError(f"a d6 shows 1..6, got {face!r}")


@dataclass(frozen=True, slots=True)
class WindChange:
    """One fifteen-minute wind check.

    ``wind`` is the wind after the check (the same as before unless it moved); ``speed`` is the new
    wind speed when the check called for one, else None; ``dice`` are the dice rolled, in order
    (one, two, or four with a speed toss).
    """

    before: Direction
    wind: Direction
    kind: ChangeKind
    speed: WindSpeed | None
    dice: tuple[StrategicDie, ...]

    @property
    def changed_direction(self) -> bool:
        return self.wind != self.before


def wind_change_for(wind: Direction, prevailing: Direction | None, first: int, second: int | None = None) -> Direction:
    """The wind after a check with faces ``first`` (and ``second`` when it says "toss again").

    Returns the new direction (a speed change or no change returns ``wind``). ``prevailing`` None
    means it is unknown, and then "use initial wind" — pass the battle's initial wind, or None only
    when ``wind`` *is* the initial wind.
    """
    row = _change_row(WIND_CHECK, first)
    if not row.toss_again:
        if second is not None:
            raise ValueError(f"wind change: a first die of {first} means no change, but a second die was given")
        return wind
    if second is None:
        raise ValueError(f"wind change: a first die of {first} means toss again, but no second die was given")
    kind = _change_row(WIND_CHANGE_TABLE, second).kind
    if kind is ChangeKind.TOWARD_PREVAILING:
        return toward(wind, prevailing if prevailing is not None else wind)
    if kind is ChangeKind.BACKS:
        return back(wind)
    if kind is ChangeKind.VEERS:
        return veer(wind)
    return wind


def roll_wind_change(
    dice: Dice, log: StrategicLog, *, place: str, wind: Direction, prevailing: Direction
) -> WindChange:
    """Make the fifteen-minute wind check (seed 004 "CHANGES IN WIND").

    ``prevailing`` is the prevailing wind, or the battle's initial wind when that is unknown ("if
    prevailing wind direction is unknown. use initial wind"). Returns the wind after the check,
    what happened and the dice: a d6; on 5–6 a second d6; on a second 5–6 the 2D6 speed toss.
    Logged as ``wind_change`` (and ``wind_speed`` for the toss).
    """
    first = log.roll(dice, purpose=WIND_CHANGE, place=place, die="d6", detail=f"wind check, wind from {wind}")
    if not _change_row(WIND_CHECK, first.raw).toss_again:
        return WindChange(wind, wind, ChangeKind.NONE, None, (first,))
    second = log.roll(dice, purpose=WIND_CHANGE, place=place, die="d6", detail="wind check: toss again")
    row = _change_row(WIND_CHANGE_TABLE, second.raw)
    assert row.kind is not None
    new = wind_change_for(wind, prevailing, first.raw, second.raw)
    if row.kind is not ChangeKind.SPEED:
        return WindChange(wind, new, row.kind, None, (first, second))
    before = len(log)
    speed = roll_wind_speed(dice, log, place=place)
    return WindChange(wind, wind, ChangeKind.SPEED, speed, (first, second, *log.records[before:]))


# --- Printable tables -----------------------------------------------------------------------------


def initial_wind_table() -> PrintableTable:
    """The initial-wind table as the pack prints it: one row per result, the re-roll rows marked."""
    rows = [
        (span(r.low, r.high), "Re-roll" if r.reroll else f"From the {r.wind.label}" if r.wind else "")
        for r in INITIAL_WIND
    ]
    rows += [
        (f"Re-roll {span(r.low, r.high)}", f"From the {r.wind.label}" if r.wind else "") for r in INITIAL_WIND_REROLL
    ]
    return PrintableTable(
        key="wind_initial",
        title="Initial wind (if the wind is not known)",
        source=SOURCE,
        seed=SEED,
        headers=("1D6", "Wind"),
        rows=tuple(rows),
    )


def wind_change_table() -> PrintableTable:
    """The fifteen-minute wind check as the pack prints it: the first toss, then the second."""
    rows = [(span(r.low, r.high), r.text) for r in WIND_CHECK]
    rows += [(f"Toss again {span(r.low, r.high)}", r.text) for r in WIND_CHANGE_TABLE]
    return PrintableTable(
        key="wind_change",
        title="Changes in wind (every fifteen minutes)",
        source=SOURCE,
        seed=SEED,
        headers=("1D6", "Result"),
        rows=tuple(rows),
        notes=(
            "A point is one of the eight points of the compass (45°).",
            "If the prevailing wind direction is unknown, use the initial wind.",
        ),
    )


def wind_speed_table() -> PrintableTable:
    """The wind-speed toss (2D6) as the pack prints it: what the total and each die set."""
    return PrintableTable(
        key="wind_speed",
        title="Wind speed (toss 2D6; applies to all ships of both sides)",
        source=SOURCE,
        seed=SEED,
        headers=("Die", "Sets"),
        rows=(
            ("Total", "Maximum inches ships may sail with or across the wind"),
            (
                "Higher die",
                "Maximum inches ships may beat into the wind (up to 22.5°), and the distance damaged "
                "ships may sail with or across the wind",
            ),
            (
                "Lower die",
                "Inches damaged ships may beat into the wind, and the distance dismasted ships must "
                "drift with the wind",
            ),
        ),
        notes=(
            "All ships not tacking must move at least the inches on the lower die.",
            "Undamaged ships moving independently (scouting frigates, ships in flight, ships in general "
            "chase) may also toss an additional 1D6 or pivot after completing movement (decide before "
            "tossing).",
        ),
    )


def wind_speed_row(speed: WindSpeed) -> tuple[str, ...]:
    """One rolled wind speed as a printable row: faces, total, higher die, lower die."""
    return (f"{speed.faces[0]} and {speed.faces[1]}", str(speed.total), str(speed.higher), str(speed.lower))


WIND_SPEED_ROLL_HEADERS: Final = ("2D6", "Total", "Higher die", "Lower die")


# --- The opening rolls of a battle ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OpeningWind:
    """The wind a tabletop battle starts with.

    ``wind`` is the campaign's wind when it knows one (``rolled`` False, no dice), else the initial
    wind rolled from the table; ``speed`` is the opening wind-speed toss (house: the seed gives no
    starting speed). ``dice`` are every die rolled, in order.
    """

    wind: Direction
    rolled: bool
    speed: WindSpeed
    dice: tuple[StrategicDie, ...]


def roll_opening_wind(dice: Dice, log: StrategicLog, *, place: str, known: Direction | None = None) -> OpeningWind:
    """Make a battle's first wind rolls: the initial wind (only when ``known`` is None — "If
    unknown") and then the wind-speed toss. Returns the wind, whether it was rolled, the speed and
    the dice (also appended to ``log``)."""
    before = len(log)
    wind = roll_initial_wind(dice, log, place=place).wind if known is None else Direction(known)
    speed = roll_wind_speed(dice, log, place=place)
    return OpeningWind(wind, known is None, speed, log.records[before:])


def opening_wind_table(opening: OpeningWind) -> PrintableTable:
    """The opening wind as the pack prints it: where it blows from and the distances it sets."""
    if opening.rolled:
        faces = [str(d.raw) for d in opening.dice if d.purpose == WIND_INITIAL]
        how = f"rolled on the initial-wind table ({' then '.join(faces)})"
    else:
        how = "as the campaign knows it"
    return PrintableTable(
        key="wind_opening",
        title="The wind at the start",
        source=SOURCE,
        seed=SEED,
        headers=("Wind", "This battle"),
        rows=(
            ("Wind", f"From the {opening.wind.label}, {how}"),
            ("Wind speed (2D6)", f"{opening.speed.faces[0]} and {opening.speed.faces[1]}"),
            ("With or across the wind", f"{opening.speed.total} inches at most"),
            ("Beating into the wind; damaged ships with or across", f"{opening.speed.higher} inches at most"),
            (
                "Damaged ships beating; dismasted ships drift; every ship not tacking at least",
                f"{opening.speed.lower} inches",
            ),
        ),
    )
