"""Seed 003's fire combat, one fire at a time: the target's fire defence, the massed-target modifier,
and the roll that reads the chart (:func:`fire_for`, :func:`roll_fire`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules import strategic_log as purposes
from rules.dice import Dice
from rules.strategic_log import StrategicDie, StrategicLog
from rules.tabletop.fire_combat.chart import (
    _D6,
    HOUSE_FIRE_CHART,
    LINE_AS_COLUMN_FROM,
    LINE_FLANK_DEFENCE,
    LOWEST_ROLL,
    MASSED_ABOVE,
    SQUARE_DEFENCE,
    FireChart,
    Odds,
)

# --- Fire defence and the roll's modifier -------------------------------------------------------------


class Formation(StrEnum):
    """The target's tactical organisation, as far as the seed's special cases need it."""

    LINE = "line"
    COLUMN = "column"
    SQUARE = "square"
    OTHER = "other"


def target_fire_defence(
    *,
    formation: Formation | str,
    base: int,
    increments: int,
    column_defence: int | None = None,
    through_flank: bool = False,
) -> int:
    """The fire defence of the target hex after the seed's special cases.

    ``base`` is the defence for its formation and terrain from the group's charts (a line in clear
    terrain with fewer than seven increments: 9). A square is 4; a line fired on through its flank
    hex is 5; a line with seven or more increments has the defence of a column (``column_defence``,
    which must then be given). Returns the defence the odds are taken against.
    """
    f = Formation(formation)
    for name, value in (("base fire defence", base), ("increments", increments)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name}: a whole number 1 or more, got {value!r}")
    if f is Formation.SQUARE:
        return SQUARE_DEFENCE
    if f is Formation.LINE and through_flank:
        return LINE_FLANK_DEFENCE
    if f is Formation.LINE and increments >= LINE_AS_COLUMN_FROM:
        if column_defence is None or column_defence < 1:
            raise ValueError(
                f"fire defence: a line of {increments} increments has the fire defence of a column; "
                "give the column's fire defence (1 or more)"
            )
        return column_defence
    return base


def massed_target_modifier(increments: int) -> int:
    """+1 to the roll for each increment in the target hex over nine (15 increments: +6)."""
    if isinstance(increments, bool) or not isinstance(increments, int) or increments < 1:
        raise ValueError(f"increments: a whole number 1 or more, got {increments!r}")
    return max(0, increments - MASSED_ABOVE)


# --- Resolving one fire ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FireResult:
    """One fire against a hex.

    ``column`` is None when the odds were worse than the chart's lowest column (no loss). ``roll``
    is the two dice read as tens and units, ``modified`` the roll with the modifier and ``applied``
    the roll looked up (never below 11). ``increments_lost`` is the chart's result.
    """

    attack: int
    defence: int
    column: Odds | None
    tens: int
    units: int
    roll: int
    modifier: int
    modified: int
    applied: int
    increments_lost: int


def fire_for(
    *, attack: int, defence: int, tens: int, units: int, modifier: int = 0, chart: FireChart = HOUSE_FIRE_CHART
) -> FireResult:
    """Resolve one fire with the two dice already thrown (``tens`` then ``units``).

    ``attack`` is the total of the eligible fire factors, ``defence`` the hex's fire defence (see
    :func:`target_fire_defence`), ``modifier`` the roll's modifier (see
    :func:`massed_target_modifier`). Returns the odds column, the rolls and the increments lost.
    """
    for name, face in (("tens die", tens), ("units die", units)):
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= _D6:
            raise ValueError(f"fire combat: the {name} is a d6 showing 1..6, got {face!r}")
    column = chart.column_for(attack, defence)
    roll = 10 * tens + units
    modified = roll + modifier
    applied = max(LOWEST_ROLL, modified)
    lost = chart.losses(column, applied) if column is not None else 0
    return FireResult(attack, defence, column, tens, units, roll, modifier, modified, applied, lost)


def roll_fire(
    dice: Dice,
    log: StrategicLog,
    *,
    place: str,
    attack: int,
    defence: int,
    modifier: int = 0,
    chart: FireChart = HOUSE_FIRE_CHART,
    subject: str | None = None,
) -> FireResult:
    """Roll one fire against a hex: the tens die, then the units die, both logged as
    ``fire_combat``. Bad factors are refused before any die is rolled."""
    chart.column_for(attack, defence)  # refuses impossible factors before rolling
    odds = f"{attack} against {defence}"
    tens: StrategicDie = log.roll(
        dice, purpose=purposes.FIRE_COMBAT, place=place, die="d6", mod=modifier, subject=subject, detail=f"{odds}: tens"
    )
    units = log.roll(
        dice, purpose=purposes.FIRE_COMBAT, place=place, die="d6", subject=subject, detail=f"{odds}: units"
    )
    return fire_for(attack=attack, defence=defence, tens=tens.raw, units=units.raw, modifier=modifier, chart=chart)
