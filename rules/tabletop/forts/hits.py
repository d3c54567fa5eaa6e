"""Seed 002's ships firing at a fort: the table of sixes and clearing a silenced gun
(:func:`roll_fire_at_fort`, :func:`roll_clear_gun`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from rules import strategic_log as purposes
from rules.dice import Dice
from rules.strategic_log import StrategicDie, StrategicLog
from rules.tabletop.forts.firing import _D6, CLEAR_ON, SHIP_HITS_FORT_ON, RangeBand, ship_may_fire_at_fort

# --- Ships firing at a fort ------------------------------------------------------------------------


class FortHitEffect(StrEnum):
    NONE = "none"
    SILENCED_ONE_TURN = "silenced_one_turn"
    SILENCED_UNTIL_CLEARED = "silenced_until_cleared"
    GUN_DESTROYED = "gun_destroyed"
    GUN_DESTROYED_FORT_SILENCED = "gun_destroyed_fort_silenced"


@dataclass(frozen=True, slots=True)
class FortHitRow:
    """One line of the table of sixes: ``sixes`` (the least number for ``or_more``) and its effect."""

    sixes: int
    or_more: bool
    effect: FortHitEffect
    text: str


#: "One 6 = One gun in quadrant silenced for one turn. … Two 6's = One gun in quadrant silenced until
#: cleared with roll of 5 or 6. … Three 6's = One gun in quadrant destroyed. Four or more 6's = One
#: gun in quadrant destroyed and whole fort silenced for one turn"
FORT_HIT_TABLE: Final = (
    FortHitRow(0, False, FortHitEffect.NONE, "No effect"),
    FortHitRow(1, False, FortHitEffect.SILENCED_ONE_TURN, "One gun in the quadrant silenced for one turn"),
    FortHitRow(
        2,
        False,
        FortHitEffect.SILENCED_UNTIL_CLEARED,
        "One gun in the quadrant silenced until cleared with a roll of 5 or 6",
    ),
    FortHitRow(3, False, FortHitEffect.GUN_DESTROYED, "One gun in the quadrant destroyed"),
    FortHitRow(
        4,
        True,
        FortHitEffect.GUN_DESTROYED_FORT_SILENCED,
        "One gun in the quadrant destroyed and the whole fort silenced for one turn",
    ),
)


def fort_hit_row(sixes: int) -> FortHitRow:
    """The line of the table of sixes for a count of sixes (0 or more)."""
    if isinstance(sixes, bool) or not isinstance(sixes, int) or sixes < 0:
        raise ValueError(f"sixes: a count of sixes is 0 or more, got {sixes!r}")
    for row in FORT_HIT_TABLE:
        if sixes == row.sixes or (row.or_more and sixes >= row.sixes):
            return row
    raise AssertionError(sixes)  # pragma: no cover - the last row is open-ended


@dataclass(frozen=True, slots=True)
class FireAtFort:
    """One ship's fire at a fort: the faces, how many were sixes, and what they did."""

    faces: tuple[int, ...]
    sixes: int
    effect: FortHitEffect
    text: str


def fire_at_fort_for(faces: tuple[int, ...] | list[int]) -> FireAtFort:
    """The effect of one ship's fire at a fort from its d6 faces ("one d6 per available gun")."""
    for n, face in enumerate(faces, start=1):
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= _D6:
            raise ValueError(f"fire at a fort: die {n} is {face!r}, but a d6 shows 1..6")
    sixes = sum(1 for f in faces if f >= SHIP_HITS_FORT_ON)
    row = fort_hit_row(sixes)
    return FireAtFort(tuple(faces), sixes, row.effect, row.text)


def roll_fire_at_fort(
    dice: Dice,
    log: StrategicLog,
    *,
    place: str,
    ship_class: str,
    band: RangeBand | str,
    guns: int,
    subject: str | None = None,
) -> FireAtFort:
    """Roll one ship's fire at a fort: one d6 per available gun, each logged as ``fort_fire_back``.

    Refused without rolling (a :class:`ValueError` naming why) when the ship may not fire at a fort
    (:func:`ship_may_fire_at_fort`) or has no gun to fire.
    """
    permission = ship_may_fire_at_fort(ship_class, band)
    if not permission.allowed:
        raise ValueError(f"fire at a fort: {permission.reason}")
    if isinstance(guns, bool) or not isinstance(guns, int) or guns < 1:
        raise ValueError(f"fire at a fort: the ship needs at least one available gun, got {guns!r}")
    rolled: list[StrategicDie] = [
        log.roll(dice, purpose=purposes.FORT_FIRE_BACK, place=place, die="d6", subject=subject, detail=f"gun {n}")
        for n in range(1, guns + 1)
    ]
    return fire_at_fort_for([d.raw for d in rolled])


@dataclass(frozen=True, slots=True)
class ClearGun:
    face: int
    cleared: bool


def clear_gun_for(face: int) -> ClearGun:
    """Whether a gun "silenced until cleared" is cleared by a d6 face: on 5 or 6."""
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= _D6:
        raise ValueError(f"clear a silenced gun: a d6 shows 1..6, got {face!r}")
    return ClearGun(face, face >= CLEAR_ON)


def roll_clear_gun(dice: Dice, log: StrategicLog, *, place: str, subject: str | None = None) -> ClearGun:
    """Roll to clear a gun silenced until cleared (logged as ``fort_clear``): cleared on 5 or 6."""
    die = log.roll(dice, purpose=purposes.FORT_CLEAR, place=place, die="d6", subject=subject, detail="clear gun")
    return clear_gun_for(die.raw)
