"""Seed 001's grounding chart: campaign classes as DBM elements, running aground in GGo* water, wrecking
in a strong wind, and getting unstuck as the tide rises (:func:`roll_grounding`, :func:`roll_unstick`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from rules import strategic_log as purposes
from rules.dice import Dice
from rules.ruleset import LINE_CLASSES, SHIP_CLASSES
from rules.strategic_log import StrategicLog
from rules.tabletop.tides.cycle import TidePhase, _check_d6

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
    """The grounding element of a campaign ship class (house mapping, see :mod:`rules.tabletop.tides`)."""
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
