"""Seed 001's tide-effect chart: what shoal water, reefs and tidal marsh are in a tide cycle, by the
attacker's d6 and its six modifiers (:func:`tide_effect_for`, :func:`roll_tide_effect`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Final

from rules import strategic_log as purposes
from rules.dice import Dice
from rules.strategic_log import StrategicLog
from rules.tabletop.tides.cycle import TidePhase, _check_d6

# --- Terrain states --------------------------------------------------------------------------------


class Going(Enum):
    """What a water feature is at a tide state, with the seed's legend for each."""

    GGO = ("GGo", "Normal naval movement unless wind or calm alters it.")
    GGO_CHECK = (
        "GGo*",
        "Check for grounding within an element's width of steep shoreline and within an element's depth "
        "of other shorelines.",
    )
    DRV = ("[DRv]", "Difficult river to land and boats; impassable to naval.")
    TRV = ("[TRv]", "Tricky river to land and boats; impassable to naval.")
    ERV = ("[ERv]", "Easy river to land and boats; impassable to naval.")
    PRV = ("[PRv]", "Paltry river to land and boats; impassable to naval.")
    RGO = ("[RGo]", "Rough going for land; impassable to naval.")
    DGO = ("[DGo]", "Difficult going for land; impassable to naval.")

    def __init__(self, code: str, legend: str) -> None:
        self.code = code
        self.legend = legend

    @property
    def naval_passable(self) -> bool:
        """ "Land going if in brackets is passable to land elements and are impassable to naval"."""
        return self in (Going.GGO, Going.GGO_CHECK)

    @property
    def strands(self) -> bool:
        """ "Naval caught in shoal water when it becomes Rv or a land type is stranded until the tide
        changes it back"."""
        return not self.naval_passable

    @property
    def grounding_check(self) -> bool:
        return self is Going.GGO_CHECK


@dataclass(frozen=True, slots=True)
class TideEffectRow:
    """One line of the tide-effect chart: scores ``low``–``high`` and what each feature becomes."""

    low: int
    high: int
    shoal_high: Going
    shoal_ebb_flood: Going
    shoal_low: Going
    reef: Going
    tidal_marsh: Going

    def shoal(self, phase: TidePhase) -> Going:
        """Shoal water at ``phase`` ("Ebb" and "Flood" share a column)."""
        if phase is TidePhase.HIGH:
            return self.shoal_high
        if phase is TidePhase.LOW:
            return self.shoal_low
        return self.shoal_ebb_flood


_G, _G_, _D, _T, _E, _P, _R, _DG = (
    Going.GGO,
    Going.GGO_CHECK,
    Going.DRV,
    Going.TRV,
    Going.ERV,
    Going.PRV,
    Going.RGO,
    Going.DGO,
)

#: The chart, line by line as the seed gives it (high, ebb/flood, low, reef, tidal marsh).
TIDE_EFFECT: Final = (
    TideEffectRow(-1, 0, _G, _G, _G, _G_, _G_),  # seed: -1 to 0 | GGo | GGo | GGo | GGo* | GGo*
    TideEffectRow(1, 1, _G, _G, _G_, _D, _D),  # seed: 1 | GGo | GGo | GGo* | [DRv] | [DRv]
    TideEffectRow(2, 2, _G, _G, _G_, _T, _T),  # seed: 2 | GGo | GGo | GGo* | [TRv] | [TRv]
    TideEffectRow(3, 3, _G, _G, _D, _E, _E),  # seed: 3 | GGo | GGo | [DRv] | [ERv] | [ERv]
    TideEffectRow(4, 4, _G, _G_, _T, _P, _P),  # seed: 4 | GGo | GGo* | [TRv] | [PRv] | [PRv]
    TideEffectRow(5, 5, _G, _D, _E, _R, _DG),  # seed: 5 | GGo | [DRv] | [ERv] | [RGo] | [DGo]
    TideEffectRow(6, 6, _G_, _T, _P, _R, _DG),  # seed: 6 | GGo* | [TRv] | [PRv] | [RGo] | [DGo]
    TideEffectRow(7, 7, _D, _E, _R, _R, _DG),  # seed: 7 | [DRv] | [ERv] | [RGo] | [RGo] | [DGo]
    TideEffectRow(8, 8, _T, _P, _R, _R, _DG),  # seed: 8 | [TRv] | [PRv] | [RGo] | [RGo] | [DGo]
    TideEffectRow(9, 9, _E, _R, _R, _R, _DG),  # seed: 9 | [ERv] | [RGo] | [RGo] | [RGo] | [DGo]
)
LOWEST_SCORE: Final = TIDE_EFFECT[0].low
HIGHEST_SCORE: Final = TIDE_EFFECT[-1].high


class Wind(StrEnum):
    """The wind as the tide-effect modifiers see it."""

    MODERATE = "moderate"  # neither calm nor strong: no modifier
    CALM = "calm"
    STRONG_ONSHORE = "strong_onshore"
    STRONG_OFFSHORE = "strong_offshore"


@dataclass(frozen=True, slots=True)
class TideModifier:
    """One modifier of the tide-effect roll, as the seed prints it."""

    key: str
    value: int
    text: str


#: The modifiers in the seed's order.
TIDE_MODIFIERS: Final = (
    TideModifier("passage", +1, "Passage between mainland and island"),
    TideModifier("soft_shore", +1, "Adjacent mainland shore is dune or marsh or river mouth"),
    TideModifier("calm", +1, "Calm"),
    TideModifier("onshore", +1, "Strong wind blowing onshore"),
    TideModifier("offshore", -1, "Strong wind blowing offshore"),
    TideModifier("rocky", -1, "Adjacent shore rocky or steep"),
)
_MOD: Final = {m.key: m.value for m in TIDE_MODIFIERS}


@dataclass(frozen=True, slots=True)
class TideConditions:
    """The terrain and weather of an inshore battle that modify the tide-effect roll.

    The wind is one of calm, strong onshore, strong offshore or neither, so the modifiers that
    exclude each other cannot both apply and every score lies on the chart (−1 to 9).
    """

    passage: bool = False
    soft_shore: bool = False
    rocky_or_steep: bool = False
    wind: Wind = Wind.MODERATE

    @property
    def modifier(self) -> int:
        total = 0
        if self.passage:
            total += _MOD["passage"]
        if self.soft_shore:
            total += _MOD["soft_shore"]
        if self.rocky_or_steep:
            total += _MOD["rocky"]
        if self.wind is Wind.CALM:
            total += _MOD["calm"]
        elif self.wind is Wind.STRONG_ONSHORE:
            total += _MOD["onshore"]
        elif self.wind is Wind.STRONG_OFFSHORE:
            total += _MOD["offshore"]
        return total


def tide_effect_row(score: int) -> TideEffectRow:
    """The chart's line for a total score; a score off the chart (below −1 or above 9) is refused."""
    for row in TIDE_EFFECT:
        if row.low <= score <= row.high:
            return row
    raise ValueError(f"tide effect: the total score must be {LOWEST_SCORE} to {HIGHEST_SCORE}, got {score!r}")


@dataclass(frozen=True, slots=True)
class TideEffect:
    """The tide-effect roll for one tide cycle: the die, the modifier, the total and its line."""

    face: int
    modifier: int
    score: int
    row: TideEffectRow


def tide_effect_for(face: int, conditions: TideConditions) -> TideEffect:
    """The tide effect for a die face under ``conditions``: returns the score and the chart line
    (what shoal water at each tide, reefs and tidal marsh are during this tide cycle)."""
    _check_d6(face, "tide effect")
    score = face + conditions.modifier
    return TideEffect(face, conditions.modifier, score, tide_effect_row(score))


def roll_tide_effect(dice: Dice, log: StrategicLog, *, place: str, conditions: TideConditions) -> TideEffect:
    """Roll the attacker's tide-effect die for one tide cycle (logged as ``tide_effect`` with the
    modifier) and return its line of the chart. Roll again at the end of each tide cycle."""
    die = log.roll(
        dice, purpose=purposes.TIDE_EFFECT, place=place, die="d6", mod=conditions.modifier, detail="tide effect"
    )
    return tide_effect_for(die.raw, conditions)
