"""Seed 003's fire combat chart: the odds of a fire and the house Fire Combat Chart [H] that stands in
for the one the seed names but does not include. The seed's words and the house readings are in
:mod:`rules.tabletop.fire_combat`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Final

SEED: Final = "003"
SOURCE: Final = "La Bataille Premier Rules (July 2021): fire combat"

#: "Whenever a modified dice roil falls below 11 on the Fire Combat Chart , the result of 11 will be
#: applied."
LOWEST_ROLL: Final = 11
#: "Any time a target hex has more than nine increments … Add one to the die roll for each increment
#: over nine."
MASSED_ABOVE: Final = 9
#: "When a unit is in line formation and has seven or more increments present in the hex, it will
#: have the fire defense of a column."
LINE_AS_COLUMN_FROM: Final = 7
#: "the fire defense of the square is “4”"
SQUARE_DEFENCE: Final = 4
#: "When a fire attack is made through the flank hex of a unit in line formation, the defender will
#: have a fire defense of “5”."
LINE_FLANK_DEFENCE: Final = 5
_D6: Final = 6


# --- Odds ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Odds:
    """An odds column, attacker to defender ("1.5–1", "1–2")."""

    attack: Fraction
    defence: Fraction

    @property
    def ratio(self) -> Fraction:
        return self.attack / self.defence

    @property
    def label(self) -> str:
        return f"{_num(self.attack)}\u2013{_num(self.defence)}"


def _num(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


def _odds(attack: str, defence: str) -> Odds:
    return Odds(Fraction(attack), Fraction(defence))


@dataclass(frozen=True, slots=True)
class FireChart:
    """A Fire Combat Chart: odds columns (worst first) and, for each, the least modified roll that
    costs 1, 2, 3… increments (a column lists as many as it has results)."""

    name: str
    columns: tuple[Odds, ...]
    thresholds: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        if len(self.columns) != len(self.thresholds):
            raise ValueError(f"fire chart {self.name!r}: {len(self.columns)} columns but {len(self.thresholds)} lists")
        ratios = [c.ratio for c in self.columns]
        if ratios != sorted(set(ratios)):
            raise ValueError(f"fire chart {self.name!r}: odds columns must rise from worst to best, each once")
        for column, thresholds in zip(self.columns, self.thresholds, strict=True):
            if list(thresholds) != sorted(set(thresholds)) or any(t < LOWEST_ROLL for t in thresholds):
                raise ValueError(
                    f"fire chart {self.name!r}, column {column.label}: the rolls for 1, 2, 3… increments must rise, "
                    f"each {LOWEST_ROLL} or more"
                )

    def column_for(self, attack: int, defence: int) -> Odds | None:
        """The column for ``attack`` fire factors against ``defence``, rounding down; None when the
        odds are worse than the lowest column."""
        if attack < 0 or defence <= 0:
            raise ValueError(
                f"odds: fire factors must be 0 or more and fire defence more than 0, got {attack} against {defence}"
            )
        ratio = Fraction(attack, defence)
        best = None
        for column in self.columns:
            if column.ratio <= ratio:
                best = column
        return best

    def losses(self, column: Odds, roll: int) -> int:
        """Increments lost at ``column`` with a modified roll (already floored at 11)."""
        index = self.columns.index(column)
        return sum(1 for t in self.thresholds[index] if roll >= t)

    @property
    def roll_bands(self) -> tuple[tuple[int, int | None], ...]:
        """The roll ranges between which no column's result changes (last open-ended)."""
        cuts = sorted({LOWEST_ROLL} | {t for ts in self.thresholds for t in ts})
        return tuple((low, cuts[n + 1] - 1 if n + 1 < len(cuts) else None) for n, low in enumerate(cuts))


#: House chart [H] (the seed names La Bataille's chart but does not include it); see :mod:`rules.tabletop.fire_combat`.
HOUSE_FIRE_CHART: Final = FireChart(
    name="House fire combat chart",
    columns=(
        _odds("1", "3"),
        _odds("1", "2"),
        _odds("1", "1.5"),
        _odds("1", "1"),
        _odds("1.5", "1"),
        _odds("2", "1"),
        _odds("3", "1"),
        _odds("4", "1"),
        _odds("5", "1"),
        _odds("6", "1"),
    ),
    thresholds=(
        (61,),
        (51,),
        (41, 71),
        (31, 61),
        (31, 51, 71),  # the seed's example: 43 at 1.5–1 loses 1
        (21, 41, 61),
        (21, 41, 51, 71),
        (11, 31, 51, 61),
        (11, 31, 41, 61, 71),
        (11, 21, 41, 51, 71),
    ),
)
