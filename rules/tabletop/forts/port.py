"""A port's forts on the table, as the campaign counts them (RULES.md §6 and §7): coastal forts from the
fortification factor, sized by the house mapping [H], and artillery batteries as small forts
(:func:`port_forts`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rules.ruleset import Ruleset
from rules.siege import coastal_forts
from rules.tabletop.forts.firing import FortProfile, FortSize, fort_profile

# --- The port's forts ------------------------------------------------------------------------------

#: House: the fortification factor from which a port's forts are large, and the one for medium.
LARGE_FROM_FF: Final = 3
MEDIUM_FROM_FF: Final = 2
#: House: each artillery battery is one small fort ("all land based guns will be considered to be in
#: forts").
BATTERY_FORT_SIZE: Final = FortSize.SMALL


def fort_size_for(fortification: int) -> FortSize | None:
    """The size of a port's coastal forts for its fortification factor (house mapping above); None
    for a port without coastal forts (factor 0)."""
    if isinstance(fortification, bool) or not isinstance(fortification, int) or fortification < 0:
        raise ValueError(f"fortification factor: a whole number 0 or more, got {fortification!r}")
    if fortification == 0:
        return None
    if fortification >= LARGE_FROM_FF:
        return FortSize.LARGE
    if fortification >= MEDIUM_FROM_FF:
        return FortSize.MEDIUM
    return FortSize.SMALL


@dataclass(frozen=True, slots=True)
class FortGroup:
    """Forts of one size at a port: how many, their profile, and where they come from (a sentence)."""

    kind: str
    count: int
    profile: FortProfile
    origin: str

    @property
    def guns(self) -> int:
        return self.count * self.profile.guns


@dataclass(frozen=True, slots=True)
class PortForts:
    """A port's forts on the table: the coastal forts, then the batteries, each as a group."""

    fortification: int
    gibraltar: bool
    batteries: int
    coastal_forts: int
    groups: tuple[FortGroup, ...]

    @property
    def forts(self) -> int:
        return sum(g.count for g in self.groups)

    @property
    def guns(self) -> int:
        return sum(g.guns for g in self.groups)


#: FortGroup kinds: the port's coastal forts, and its artillery batteries fought as small forts.
COASTAL: Final = "coastal forts"
BATTERIES: Final = "artillery batteries"


def _forts(n: int) -> str:
    return "1 fort" if n == 1 else f"{n} forts"


def port_forts(*, fortification: int, gibraltar: bool, batteries: int, ruleset: Ruleset) -> PortForts:
    """The forts a port puts on the table: its coastal forts as the campaign counts them (FF;
    Gibraltar the ruleset's multiple of FF), sized by :func:`fort_size_for`, and one small fort per
    artillery battery. Returns the groups with a sentence each saying where they come from."""
    size = fort_size_for(fortification)
    if isinstance(batteries, bool) or not isinstance(batteries, int) or batteries < 0:
        raise ValueError(f"batteries: a whole number 0 or more, got {batteries!r}")
    count = coastal_forts(fortification, gibraltar, ruleset)
    groups: list[FortGroup] = []
    if size is not None and count:
        rule = (
            f"{ruleset['guns.coastal_forts_gibraltar_multiplier']} × fortification factor {fortification} (Gibraltar)"
            if gibraltar
            else f"fortification factor {fortification}"
        )
        why = {
            FortSize.SMALL: "small for factor 1",
            FortSize.MEDIUM: "medium for factor 2",
            FortSize.LARGE: f"large for factor {LARGE_FROM_FF} or more",
        }[size]
        groups.append(FortGroup(COASTAL, count, fort_profile(size), f"{rule}; {why}"))
    if batteries:
        groups.append(FortGroup(BATTERIES, batteries, fort_profile(BATTERY_FORT_SIZE), "one small fort per battery"))
    return PortForts(fortification, gibraltar, batteries, count, tuple(groups))
