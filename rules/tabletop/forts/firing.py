"""Seed 002's forts and their guns: the three fort sizes, the range bands, and who may fire at whom
(:func:`fort_may_fire`, :func:`ship_may_fire_at_fort`). The seed's words and the house readings are
in :mod:`rules.tabletop.forts`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from rules.ruleset import LINE_CLASSES, SHIP_CLASSES

SEED: Final = "002"
SOURCE: Final = "Blood, Bilge & Iron Balls: optional rule for forts and shore batteries"
_D6: Final = 6


class FortSize(StrEnum):
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"

    @property
    def label(self) -> str:
        return self.value.capitalize()


#: "All forts will have a 180 degree firing arc that will be divided into four 45 degree sectors."
ARC_DEGREES: Final = 180
SECTORS: Final = 4
SECTOR_DEGREES: Final = ARC_DEGREES // SECTORS
#: "Small Forts have one gun per sector, Medium Forts two guns per sector and Large Forts three guns
#: per sector."
GUNS_PER_SECTOR: Final = {FortSize.SMALL: 1, FortSize.MEDIUM: 2, FortSize.LARGE: 3}
#: "Fort Guns fire during their sides Firing Phase with a +1 modifier"
FORT_FIRE_MODIFIER: Final = 1
#: "Extreme Range is extended for Fort Guns by six inches to a maximum of thirty inches rather than
#: the usual twenty four."
USUAL_EXTREME_RANGE_INCHES: Final = 24
FORT_EXTREME_EXTENSION_INCHES: Final = 6
FORT_EXTREME_RANGE_INCHES: Final = USUAL_EXTREME_RANGE_INCHES + FORT_EXTREME_EXTENSION_INCHES
#: "will also inflict three Crew Star hits rather than the usual one"
FORT_CREW_STAR_HITS: Final = 3
#: "they will only hit on a d6 score of 6"
SHIP_HITS_FORT_ON: Final = 6
#: "silenced until cleared with roll of 5 or 6"
CLEAR_ON: Final = 5


class RangeBand(StrEnum):
    """The range bands the seed names, nearest first."""

    POINT_BLANK = "point_blank"
    CLOSE = "close"
    LONG = "long"
    EXTREME = "extreme"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ")


@dataclass(frozen=True, slots=True)
class FortProfile:
    """A fort of one size: its guns per 45° sector, its four sectors and its guns in all."""

    size: FortSize
    guns_per_sector: int
    sectors: int = SECTORS
    arc_degrees: int = ARC_DEGREES

    @property
    def guns(self) -> int:
        return self.guns_per_sector * self.sectors


def fort_profile(size: FortSize | str) -> FortProfile:
    """The guns and arc of a fort of ``size`` ("small", "medium" or "large")."""
    try:
        s = FortSize(size)
    except ValueError:
        raise ValueError(f"fort size: {size!r} is not small, medium or large") from None
    return FortProfile(s, GUNS_PER_SECTOR[s])


FORT_PROFILES: Final = tuple(fort_profile(s) for s in FortSize)


@dataclass(frozen=True, slots=True)
class Permission:
    """Whether a shot is allowed, and why (a sentence a player reads)."""

    allowed: bool
    reason: str


def fort_may_fire(band: RangeBand | str, inches: float | None = None) -> Permission:
    """May a fort's gun fire at a ship in ``band`` (and at ``inches``, if given)?

    Seed 002: "they cannot target anything at point blank or Close Range" and extreme range reaches
    "a maximum of thirty inches".
    """
    b = RangeBand(band)
    if b in (RangeBand.POINT_BLANK, RangeBand.CLOSE):
        return Permission(False, f"fort guns cannot target anything at {b.label} range")
    if inches is not None and inches > FORT_EXTREME_RANGE_INCHES:
        return Permission(False, f"fort guns reach {FORT_EXTREME_RANGE_INCHES} inches at most; {inches:g} is beyond")
    return Permission(True, f"fort guns may fire at {b.label} range, at +{FORT_FIRE_MODIFIER}, at the nearest ship")


def ship_may_fire_at_fort(ship_class: str, band: RangeBand | str) -> Permission:
    """May a ship of ``ship_class`` fire at a fort from ``band``?

    Seed 002: "Ships firing at Forts must Fourth Rates or above and be at Long Range". Fourth rates
    or above are the campaign's ships of the line and 4th rates.
    """
    if ship_class not in SHIP_CLASSES:
        raise ValueError(f"ship class: {ship_class!r} is not one of {', '.join(SHIP_CLASSES)}")
    b = RangeBand(band)
    if ship_class not in LINE_CLASSES:
        return Permission(False, "only fourth rates or above may fire at a fort")
    if b is not RangeBand.LONG:
        return Permission(False, f"ships fire at a fort only from long range, not {b.label} range")
    return Permission(True, "fourth rate or above at long range: hits the fort on a 6")
