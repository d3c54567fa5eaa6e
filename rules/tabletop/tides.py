"""Inshore battles: tide timing, the tide cycle, the tide-effect table and grounding (seed 001).

Seed 001 is George Smithson's naval set-up for DBM (1998). What it says, verbatim:

* TIDE TIMING — "After setup dice are thrown, if the set die score is for a moonless night (if
  defenders last setup die score is even) then low water will occurred at the hour of the
  attacker's inital set die score ( rolls a 1 then 0100 is low water, a 3 then 0300 is low water
  and so on). If on a night with a moon ( the defenders last setup die score is odd ), defender's
  total die score will be the hour of high water."
* TIDE CYCLE — "A tide cycle consists of 4 phases Low water 2 hours( 8 bounds), Flood tide 4 hours
  15 minutes ( 17 bounds ), High water 2 hours ( 8 bounds), and an Ebb tide last 4 hours 15
  minutes ( 17 bounds ) for a 25 hour cycle of 2 tides a day."
* TIDE EFFECT — "After terrain set up a die is rolled by the attacker and compared to the chart
  below to determine the effect of the tide cycle. The result determines the nature of the shoal
  waters, reefs and tidal marsh in that tide cycle. … At the end of the first tide cycle a die is
  rolled to determine the effect of the next tide cycle." Modifiers: "+1 Passage between mainland
  and island", "+1 Adjacent mainland shore is dune or marsh or River mouth", "+1 Calm", "+1 Strong
  wind blowing onshore", "-1 Strong wind blowing offshore", "-1 Adjacent shore rocky or steep".
* GROUNDING — "In GGo* naval elements run aground if the number on the chart below and the result
  of a die roll is greater than 6. If aground in Stong wind the element is destroyed (wrecked.).
  Grounded ships may become unstuck if they make their number in the tide level they grounded or a
  higher tide." with the chart "Shp(S) 4 Shp(O), Gy(S) 3 Shp(I,X), Gy(O) 2 Gy( F), Bt(S) 1
  Bt(O,I,X) 0" and "-1 Aground in Low water or Flood • +1 Aground in Ebb • +2 Aground at High water".
* FLOODED MARSH — "Boats may pass thru Flooded marshes moving in DGo as indicated by the die roll
  on the chart below." (1 difficult 45 degrees left … 6 difficult 45 degrees right).

Decisions where the seed is ambiguous or silent (house, [H]); RULES.md says nothing of tides:

* The tide-effect chart arrives as text whose header reads "Tide is High Ebb Flood Low / Terrain is
  Reef Tidal Marsh" over five result columns. It is read as five columns: shoal water at **high
  water**, shoal water at **ebb or flood**, shoal water at **low water**, **reefs**, and **tidal
  marsh** — the seed's own words: "the nature of the shoal waters, reefs and tidal marsh" and "the
  effect of the shoal water section can be modified". Every column then goes one way (the lower
  the tide, the shallower), which the tests check.
* "Low water will occur at the hour" N is taken as the low-water phase *beginning* at N:00 (high
  water likewise), and the cycle repeats every 50 bounds (12 h 30 min) before and after it. A total
  of 24 or more wraps round the clock.
* The seed does not say how many set-up dice the defender throws; the functions take his dice as
  thrown (the last one decides the moon, their total the hour), and the server rolls two for him
  and one for the attacker when asked (:func:`roll_setup_dice`).
* The tide modifiers ("Aground in …") are read as modifiers to the roll to get *unstuck* — the only
  roll the seed makes for a ship already aground — and "make their number" as die + modifier ≥ the
  element's chart number. The tide levels rise low water < flood = ebb < high water.
* A bound is fifteen minutes (8 bounds = 2 hours).
* Campaign ship classes map to the seed's DBM element types by draught (:data:`CLASS_ELEMENTS`):
  ships of the line and 4th rates Shp(S); heavy frigates, frigates and transports Shp(O); sloops,
  brigs and fireships Shp(I).

Rolling functions log their dice in a :class:`~rules.strategic_log.StrategicLog` (purposes
``setup``, ``tide_effect``, ``grounding``, ``unstick``, ``marsh_passage``) and return frozen results.

One piece, though over 800 lines: it is the transcription of one seed (001) — its tide timing,
tide cycle, tide-effect, grounding and flooded-marsh tables, the house readings above, and the rolls
and printed tables that read them; the tables build on each other (unsticking reads the grounding
chart and the tide cycle's phases), and split up they would part a table from the seed's words it
transcribes.

Pure Python: no Django, no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Final

from rules import strategic_log as purposes
from rules.dice import Dice
from rules.ruleset import LINE_CLASSES, SHIP_CLASSES
from rules.strategic_log import StrategicDie, StrategicLog
from rules.tabletop.printable import PrintableTable, signed, span

SEED: Final = "001"
SOURCE: Final = "Naval set-up for DBM by George Smithson (1998)"

#: "Low water 2 hours( 8 bounds)": a bound is fifteen minutes.
BOUND_MINUTES: Final = 15
_DAY_MINUTES: Final = 24 * 60
_D6: Final = 6


def _check_d6(face: int, what: str) -> None:
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= _D6:
        raise ValueError(f"{what}: a d6 shows 1..6, got {face!r}")


# --- Tide cycle ----------------------------------------------------------------------------------


class TidePhase(StrEnum):
    """The four phases of the tide cycle, in the order they follow one another."""

    LOW = "low"
    FLOOD = "flood"
    HIGH = "high"
    EBB = "ebb"

    @property
    def label(self) -> str:
        return {"low": "Low water", "flood": "Flood tide", "high": "High water", "ebb": "Ebb tide"}[self.value]

    @property
    def level(self) -> int:
        """How high the tide stands, for "the tide level they grounded or a higher tide" (house:
        low water 0, flood and ebb 1, high water 2)."""
        return {"low": 0, "flood": 1, "high": 2, "ebb": 1}[self.value]


@dataclass(frozen=True, slots=True)
class CyclePhase:
    """One phase of the tide cycle and how many bounds (fifteen minutes each) it lasts."""

    phase: TidePhase
    bounds: int

    @property
    def minutes(self) -> int:
        return self.bounds * BOUND_MINUTES


#: "Low water 2 hours( 8 bounds), Flood tide 4 hours 15 minutes ( 17 bounds ), High water 2 hours
#: ( 8 bounds), and an Ebb tide last 4 hours 15 minutes ( 17 bounds )"
TIDE_CYCLE: Final = (
    CyclePhase(TidePhase.LOW, 8),
    CyclePhase(TidePhase.FLOOD, 17),
    CyclePhase(TidePhase.HIGH, 8),
    CyclePhase(TidePhase.EBB, 17),
)
CYCLE_BOUNDS: Final = sum(p.bounds for p in TIDE_CYCLE)
CYCLE_MINUTES: Final = CYCLE_BOUNDS * BOUND_MINUTES


def _phase_start(phase: TidePhase) -> int:
    """Minutes from the start of low water to the start of ``phase``."""
    minutes = 0
    for p in TIDE_CYCLE:
        if p.phase is phase:
            return minutes
        minutes += p.minutes
    raise AssertionError(phase)  # pragma: no cover - every phase is in the cycle


def clock(minutes: int) -> str:
    """Minutes after midnight as a 24-hour time, the way the seed writes hours ("0100")."""
    m = minutes % _DAY_MINUTES
    return f"{m // 60:02d}{m % 60:02d}"


# --- Tide timing ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TideTiming:
    """When the tide stands where, from the set-up dice.

    ``moonlit`` says which rule applied; ``anchor`` is the phase the dice fixed (low water on a
    moonless night, high water on a moonlit one) and ``hour`` the hour (0–23) at which it begins.
    """

    moonlit: bool
    anchor: TidePhase
    hour: int

    @property
    def low_water_start(self) -> int:
        """Minutes after midnight at which a low water phase begins (the cycle's origin)."""
        return (self.hour * 60 - _phase_start(self.anchor)) % CYCLE_MINUTES

    def phase_at(self, minutes: int) -> TideState:
        """The tide ``minutes`` after midnight of the battle's day (negative: the day before)."""
        offset = (minutes - self.low_water_start) % CYCLE_MINUTES
        start = 0
        for p in TIDE_CYCLE:
            if offset < start + p.minutes:
                elapsed = (offset - start) // BOUND_MINUTES
                return TideState(p.phase, minutes - (offset - start), elapsed + 1, p.bounds - elapsed - 1)
            start += p.minutes
        raise AssertionError(offset)  # pragma: no cover - offset < CYCLE_MINUTES

    def schedule(self, *, start: int = 0, end: int = _DAY_MINUTES) -> tuple[TidePeriod, ...]:
        """Every phase that overlaps ``start``…``end`` (minutes after midnight), in order; the first
        may have begun before ``start`` and the last may end after ``end``."""
        if end <= start:
            raise ValueError(f"tide schedule: the end ({end}) must come after the start ({start})")
        periods = []
        state = self.phase_at(start)
        begins = state.began
        index = [p.phase for p in TIDE_CYCLE].index(state.phase)
        while begins < end:
            p = TIDE_CYCLE[index % len(TIDE_CYCLE)]
            periods.append(TidePeriod(p.phase, begins, begins + p.minutes))
            begins += p.minutes
            index += 1
        return tuple(periods)


@dataclass(frozen=True, slots=True)
class TideState:
    """The tide at one moment: its phase, when that phase began (minutes after midnight), which
    bound of the phase this is (1 = the first) and how many whole bounds of it are left after this."""

    phase: TidePhase
    began: int
    bound: int
    bounds_left: int


@dataclass(frozen=True, slots=True)
class TidePeriod:
    """One phase of the tide between two moments (minutes after midnight, end exclusive)."""

    phase: TidePhase
    start: int
    end: int


def tide_timing_for(*, attacker_first: int, defender_dice: Sequence[int]) -> TideTiming:
    """The tide timing from the set-up dice (seed 001 "Set Up Dicing").

    ``attacker_first`` is the attacker's initial set-up die; ``defender_dice`` are the defender's
    set-up dice in the order thrown (at least one). Returns low water at the attacker's die's hour
    when the defender's last die is even (a moonless night), else high water at the hour of the
    defender's total.
    """
    _check_d6(attacker_first, "tide timing: the attacker's initial set-up die")
    if not defender_dice:
        raise ValueError("tide timing: the defender's set-up dice are missing (at least one is needed)")
    for n, face in enumerate(defender_dice, start=1):
        _check_d6(face, f"tide timing: the defender's set-up die {n}")
    if defender_dice[-1] % 2 == 0:
        return TideTiming(moonlit=False, anchor=TidePhase.LOW, hour=attacker_first % 24)
    return TideTiming(moonlit=True, anchor=TidePhase.HIGH, hour=sum(defender_dice) % 24)


@dataclass(frozen=True, slots=True)
class SetupDice:
    """The set-up dice the server threw and the tide timing they give."""

    attacker: StrategicDie
    defender: tuple[StrategicDie, ...]
    timing: TideTiming


#: House: the seed does not say how many set-up dice the defender throws; the server throws two.
DEFENDER_SETUP_DICE: Final = 2


def roll_setup_dice(
    dice: Dice, log: StrategicLog, *, place: str, attacker: str | None = None, defender: str | None = None
) -> SetupDice:
    """Throw the set-up dice for the tide (one for the attacker, then two for the defender) and
    return them with the tide timing they give. Logged as ``setup``, each die naming its thrower when
    ``attacker`` / ``defender`` (the sides' names) are given."""
    by_attacker = f" ({attacker})" if attacker else ""
    by_defender = f" ({defender})" if defender else ""
    first = log.roll(
        dice, purpose=purposes.SETUP, place=place, die="d6", detail=f"attacker's initial set-up die{by_attacker}"
    )
    thrown = tuple(
        log.roll(dice, purpose=purposes.SETUP, place=place, die="d6", detail=f"defender's set-up die {n}{by_defender}")
        for n in range(1, DEFENDER_SETUP_DICE + 1)
    )
    timing = tide_timing_for(attacker_first=first.raw, defender_dice=[d.raw for d in thrown])
    return SetupDice(first, thrown, timing)


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


# --- Grounding -------------------------------------------------------------------------------------


class Element(StrEnum):
    """The DBM naval element types of the grounding chart: ships, galleys and boats by grade."""

    SHP_S = "Shp(S)"
    SHP_O = "Shp(O)"
    SHP_I = "Shp(I)"
    SHP_X = "Shp(X)"
    GY_S = "Gy(S)"
    GY_O = "Gy(O)"
    GY_F = "Gy(F)"
    BT_S = "Bt(S)"
    BT_O = "Bt(O)"
    BT_I = "Bt(I)"
    BT_X = "Bt(X)"


@dataclass(frozen=True, slots=True)
class GroundingRow:
    """One line of the grounding chart: the elements that share a number."""

    elements: tuple[Element, ...]
    number: int

    @property
    def label(self) -> str:
        """The elements as the seed groups them: "Shp(I,X), Gy(O)"."""
        groups: dict[str, list[str]] = {}
        for e in self.elements:
            kind, grade = e.value[:-1].split("(")
            groups.setdefault(kind, []).append(grade)
        return ", ".join(f"{kind}({','.join(grades)})" for kind, grades in groups.items())


#: "Shp(S) 4 Shp(O), Gy(S) 3 Shp(I,X), Gy(O) 2 Gy( F), Bt(S) 1 Bt(O,I,X) 0"
GROUNDING_CHART: Final = (
    GroundingRow((Element.SHP_S,), 4),
    GroundingRow((Element.SHP_O, Element.GY_S), 3),
    GroundingRow((Element.SHP_I, Element.SHP_X, Element.GY_O), 2),
    GroundingRow((Element.GY_F, Element.BT_S), 1),
    GroundingRow((Element.BT_O, Element.BT_I, Element.BT_X), 0),
)
GROUNDING_NUMBER: Final = {e: row.number for row in GROUNDING_CHART for e in row.elements}
#: "run aground if the number on the chart below and the result of a die roll is greater than 6"
AGROUND_ABOVE: Final = 6

#: "-1 Aground in Low water or Flood • +1 Aground in Ebb • +2 Aground at High water"
UNSTICK_MODIFIERS: Final = {TidePhase.LOW: -1, TidePhase.FLOOD: -1, TidePhase.EBB: +1, TidePhase.HIGH: +2}

#: House: campaign classes as DBM elements, by draught (ships of the line and 4th rates deepest).
CLASS_ELEMENTS: Final = {
    c: Element.SHP_S
    if c in LINE_CLASSES
    else Element.SHP_O
    if c in {"heavy-frigate", "frigate", "transport"}
    else Element.SHP_I
    for c in SHIP_CLASSES
}


def element_for_class(ship_class: str) -> Element:
    """The grounding element of a campaign ship class (house mapping, see the module docstring)."""
    try:
        return CLASS_ELEMENTS[ship_class]
    except KeyError:
        raise ValueError(f"ship class: {ship_class!r} is not one of {', '.join(SHIP_CLASSES)}") from None


@dataclass(frozen=True, slots=True)
class Grounding:
    """A grounding check in GGo* water (or on a reef): the element's number, the die, whether it
    ran aground and whether it was wrecked ("If aground in Stong wind the element is destroyed")."""

    element: Element
    number: int
    face: int
    aground: bool
    wrecked: bool


def grounding_for(element: Element, face: int, *, strong_wind: bool) -> Grounding:
    """Check one element for grounding with a die face: aground when number + face > 6, and then
    wrecked in a strong wind, otherwise stranded. Reefs are checked the same way ("strikes a reef
    the element is stranded or destroyed in strong wind")."""
    _check_d6(face, "grounding")
    number = GROUNDING_NUMBER[Element(element)]
    aground = number + face > AGROUND_ABOVE
    return Grounding(Element(element), number, face, aground, aground and strong_wind)


#: "Low draft craft can move thru with little risk in high tide in calm" (001:103). House reading: the
#: low-draft craft are the elements of grounding number 2 or less (Shp(I,X), galleys other than Gy(S),
#: boats: in the campaign, sloops, brigs and fireships), and "little risk" is no grounding check in
#: GGo* shoal water while it is high water and calm.
LOW_DRAFT_NUMBER: Final = 2


def low_draft(element: Element) -> bool:
    """Whether ``element`` is a low-draft craft (:data:`LOW_DRAFT_NUMBER`)."""
    return GROUNDING_NUMBER[Element(element)] <= LOW_DRAFT_NUMBER


def grounding_check_needed(element: Element, *, tide: TidePhase, calm: bool) -> bool:
    """Whether an element ending its move in GGo* shoal water checks for grounding: always, except a
    low-draft craft at high water in a calm, which "can move thru with little risk" (001:103)."""
    return not (low_draft(element) and tide is TidePhase.HIGH and calm)


def roll_grounding(
    dice: Dice,
    log: StrategicLog,
    *,
    place: str,
    element: Element,
    strong_wind: bool,
    subject: str | None = None,
    tide: TidePhase | None = None,
    calm: bool = False,
) -> Grounding | None:
    """Roll one element's grounding check at the end of its move in GGo* water (logged as
    ``grounding``, the element's number as the modifier). With the ``tide`` given, a low-draft craft
    at high water in a calm rolls nothing and None is returned (:func:`grounding_check_needed`)."""
    if tide is not None and not grounding_check_needed(element, tide=tide, calm=calm):
        return None
    number = GROUNDING_NUMBER[Element(element)]
    die = log.roll(
        dice, purpose=purposes.GROUNDING, place=place, die="d6", mod=number, subject=subject, detail=str(element)
    )
    return grounding_for(element, die.raw, strong_wind=strong_wind)


@dataclass(frozen=True, slots=True)
class Unstick:
    """One attempt to get a grounded element off: the die, the tide's modifier and the result."""

    element: Element
    face: int
    modifier: int
    total: int
    afloat: bool


def may_try_unstick(grounded_in: TidePhase, now: TidePhase) -> bool:
    """ "in the tide level they grounded or a higher tide": True when ``now`` stands at least as high
    as the tide the element grounded in."""
    return now.level >= grounded_in.level


def unstick_for(element: Element, face: int, *, grounded_in: TidePhase, now: TidePhase) -> Unstick:
    """An attempt to get unstuck with a die face: afloat when face + the tide's modifier reaches the
    element's chart number. Refused when the tide is lower than when it grounded."""
    _check_d6(face, "unstick")
    if not may_try_unstick(grounded_in, now):
        raise ValueError(
            f"unstick: an element that grounded at {grounded_in.label.lower()} may try only at that tide "
            f"level or higher, not at {now.label.lower()}"
        )
    number = GROUNDING_NUMBER[Element(element)]
    modifier = UNSTICK_MODIFIERS[now]
    total = face + modifier
    return Unstick(Element(element), face, modifier, total, total >= number)


def roll_unstick(
    dice: Dice,
    log: StrategicLog,
    *,
    place: str,
    element: Element,
    grounded_in: TidePhase,
    now: TidePhase,
    subject: str | None = None,
) -> Unstick:
    """Roll one attempt to get a grounded element off (logged as ``unstick`` with the tide's
    modifier). Refused, without rolling, when the tide is lower than when it grounded."""
    if not may_try_unstick(grounded_in, now):
        unstick_for(element, 1, grounded_in=grounded_in, now=now)  # raises the explained refusal
    die = log.roll(
        dice,
        purpose=purposes.UNSTICK,
        place=place,
        die="d6",
        mod=UNSTICK_MODIFIERS[now],
        subject=subject,
        detail=str(element),
    )
    return unstick_for(element, die.raw, grounded_in=grounded_in, now=now)


# --- Flooded marsh -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MarshRow:
    face: int
    move: str


#: "1 difficult 45 degrees left 2 stranded ( no movement this bound ) 3 normal ahead 4 difficult
#: ahead 5 impassable (back up one full movement) 6 difficult 45 degrees right"
MARSH_PASSAGE_TABLE: Final = (
    MarshRow(1, "Difficult, 45 degrees left"),
    MarshRow(2, "Stranded (no movement this bound)"),
    MarshRow(3, "Normal, ahead"),
    MarshRow(4, "Difficult, ahead"),
    MarshRow(5, "Impassable (back up one full movement)"),
    MarshRow(6, "Difficult, 45 degrees right"),
)


def marsh_passage_for(face: int) -> MarshRow:
    """A boat's move through flooded marsh for a die face (seed 001 "PASSAGE OF FLOODED MARSHES")."""
    _check_d6(face, "flooded marsh")
    return MARSH_PASSAGE_TABLE[face - 1]


def roll_marsh_passage(dice: Dice, log: StrategicLog, *, place: str, subject: str | None = None) -> MarshRow:
    """Roll one boat's move through flooded marsh (logged as ``marsh_passage``)."""
    die = log.roll(dice, purpose=purposes.MARSH_PASSAGE, place=place, die="d6", subject=subject, detail="flooded marsh")
    return marsh_passage_for(die.raw)


# --- Printable tables ----------------------------------------------------------------------------


def _duration(minutes: int) -> str:
    hours, rest = divmod(minutes, 60)
    hours_text = f"{hours} hour" if hours == 1 else f"{hours} hours"
    return f"{hours_text} {rest} minutes" if rest else hours_text


def _when(minutes: int) -> str:
    """A time of the battle's day; one on the day before or after says so."""
    if minutes < 0:
        return f"{clock(minutes)} (the day before)"
    if minutes >= _DAY_MINUTES:
        return f"{clock(minutes)} (the next day)"
    return clock(minutes)


def _score_span(low: int, high: int) -> str:
    """Scores as the seed writes them: "-1 to 0" (with a true minus sign), "5"."""
    return span(low, high) if low == high else f"{signed(low) if low < 0 else low} to {high}"


def tide_cycle_table() -> PrintableTable:
    """The tide cycle as printed: each phase with its length and bounds."""
    return PrintableTable(
        key="tide_cycle",
        title="The tide cycle",
        source=SOURCE,
        seed=SEED,
        headers=("Phase", "Lasts", "Bounds"),
        rows=tuple((p.phase.label, _duration(p.minutes), str(p.bounds)) for p in TIDE_CYCLE),
        notes=(
            f"One cycle is {CYCLE_BOUNDS} bounds ({_duration(CYCLE_MINUTES)}); two tides take 25 hours. "
            f"A bound is {BOUND_MINUTES} minutes.",
        ),
    )


def tide_timing_table() -> PrintableTable:
    """The set-up dice rule for the tide's timing, as printed."""
    return PrintableTable(
        key="tide_timing",
        title="Tide timing from the set-up dice",
        source=SOURCE,
        seed=SEED,
        headers=("Defender's last set-up die", "Night", "Tide"),
        rows=(
            ("Even", "Moonless", "Low water at the hour of the attacker's initial set-up die (1 → 0100, 3 → 0300)"),
            ("Odd", "With a moon", "High water at the hour of the defender's total set-up dice"),
        ),
    )


def tide_schedule_table(timing: TideTiming, *, start: int = 0, end: int = _DAY_MINUTES) -> PrintableTable:
    """The battle day's tides for a timing: one row per phase from ``start`` to ``end``."""
    night = "moonless night" if not timing.moonlit else "night with a moon"
    return PrintableTable(
        key="tide_schedule",
        title=f"Tides of the day ({night}: {timing.anchor.label.lower()} at {clock(timing.hour * 60)})",
        source=SOURCE,
        seed=SEED,
        headers=("Tide", "From", "To"),
        rows=tuple((p.phase.label, _when(p.start), _when(p.end)) for p in timing.schedule(start=start, end=end)),
    )


def tide_effect_table() -> PrintableTable:
    """The tide-effect chart as printed: score, then shoal water at each tide, reefs, tidal marsh."""
    return PrintableTable(
        key="tide_effect",
        title="Effect of the tide cycle (attacker rolls 1D6 after terrain set-up, again each new cycle)",
        source=SOURCE,
        seed=SEED,
        headers=(
            "Total score",
            "Shoal water at high",
            "Shoal water at ebb or flood",
            "Shoal water at low",
            "Reef",
            "Tidal marsh",
        ),
        rows=tuple(
            (
                _score_span(r.low, r.high),
                r.shoal_high.code,
                r.shoal_ebb_flood.code,
                r.shoal_low.code,
                r.reef.code,
                r.tidal_marsh.code,
            )
            for r in TIDE_EFFECT
        ),
        notes=(
            *(f"{g.code}: {g.legend}" for g in Going),
            "Naval elements caught in shoal water when it becomes a river or a land type are stranded until "
            "the tide changes it back.",
        ),
    )


def tide_modifiers_table() -> PrintableTable:
    """The modifiers of the tide-effect roll, as printed."""
    return PrintableTable(
        key="tide_modifiers",
        title="Modifiers to the tide-effect roll",
        source=SOURCE,
        seed=SEED,
        headers=("Modifier", "When"),
        rows=tuple((signed(m.value), m.text) for m in TIDE_MODIFIERS),
    )


def grounding_table() -> PrintableTable:
    """The grounding chart with its rule and the unstick modifiers, as printed."""
    return PrintableTable(
        key="grounding",
        title="Grounding in GGo* water: aground if the number plus 1D6 is greater than 6",
        source=SOURCE,
        seed=SEED,
        headers=("Element", "Number"),
        rows=tuple((r.label, str(r.number)) for r in GROUNDING_CHART),
        notes=(
            "Ships and galleys check at the end of each movement phase in GGo* shoal water, reefs or tidal marsh.",
            "Aground in a strong wind: the element is destroyed (wrecked). On a reef: stranded, or destroyed "
            "in a strong wind.",
            "Once an element of a naval group has crossed the shoal, the rest may follow at the same speed and "
            "route: the passage is marked.",
            "Grounded ships get unstuck if 1D6 plus the tide modifier makes their number, at the tide level they "
            "grounded in or a higher one: "
            + "; ".join(f"{signed(v)} at {p.label.lower()}" for p, v in UNSTICK_MODIFIERS.items())
            + ".",
            "Campaign ships: ships of the line and 4th rates are Shp(S); heavy frigates, frigates and transports "
            "Shp(O); sloops, brigs and fireships Shp(I).",
            f"Low draft craft (number {LOW_DRAFT_NUMBER} or less: sloops, brigs and fireships) move through with "
            "little risk at high water in a calm: they make no grounding check then.",
        ),
    )


def marsh_passage_table() -> PrintableTable:
    """The flooded-marsh passage table for boats, as printed."""
    return PrintableTable(
        key="marsh_passage",
        title="Passage of flooded marshes (boats, moving in DGo)",
        source=SOURCE,
        seed=SEED,
        headers=("1D6", "Move"),
        rows=tuple((str(r.face), r.move) for r in MARSH_PASSAGE_TABLE),
    )


# --- The opening rolls of an inshore battle ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class InshoreSetup:
    """The set-up dice, the tide timing they give, and the first tide cycle's effect."""

    setup: SetupDice
    effect: TideEffect

    @property
    def timing(self) -> TideTiming:
        return self.setup.timing


def roll_inshore_setup(dice: Dice, log: StrategicLog, *, place: str, conditions: TideConditions) -> InshoreSetup:
    """Make an inshore battle's first rolls: the set-up dice (attacker's, then the defender's two),
    then the attacker's tide-effect die for the first tide cycle under ``conditions``."""
    setup = roll_setup_dice(dice, log, place=place)
    effect = roll_tide_effect(dice, log, place=place, conditions=conditions)
    return InshoreSetup(setup, effect)


def tide_effect_result_table(effect: TideEffect) -> PrintableTable:
    """One tide-effect roll as the pack prints it: the roll, then what each water feature is."""
    row = effect.row
    return PrintableTable(
        key="tide_effect_result",
        title=f"This tide cycle: 1D6 {effect.face}, modifier {signed(effect.modifier)}, total {effect.score}",
        source=SOURCE,
        seed=SEED,
        headers=("Feature", "Is", "Meaning"),
        rows=(
            ("Shoal water at high water", row.shoal_high.code, row.shoal_high.legend),
            ("Shoal water at ebb or flood", row.shoal_ebb_flood.code, row.shoal_ebb_flood.legend),
            ("Shoal water at low water", row.shoal_low.code, row.shoal_low.legend),
            ("Reefs", row.reef.code, row.reef.legend),
            ("Tidal marsh", row.tidal_marsh.code, row.tidal_marsh.legend),
        ),
    )


def setup_dice_table(setup: SetupDice) -> PrintableTable:
    """The set-up dice as the pack prints them, with the tide timing they give."""
    defender = ", ".join(str(d.raw) for d in setup.defender)
    timing = setup.timing
    if timing.moonlit:
        rule = (
            f"The defender's last die is odd: a night with a moon; high water at the defender's total, "
            f"{clock(timing.hour * 60)}"
        )
    else:
        rule = (
            f"The defender's last die is even: a moonless night; low water at the attacker's die, "
            f"{clock(timing.hour * 60)}"
        )
    return PrintableTable(
        key="setup_dice",
        title="Set-up dice",
        source=SOURCE,
        seed=SEED,
        headers=("Dice", "This battle"),
        rows=(("Attacker's initial die", str(setup.attacker.raw)), ("Defender's dice", defender), ("Tide", rule)),
    )
