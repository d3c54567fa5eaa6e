"""Seed 001's flooded-marsh table: where a boat moving through a flooded marsh goes, by a d6
(:func:`roll_marsh_passage`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rules import strategic_log as purposes
from rules.dice import Dice
from rules.strategic_log import StrategicLog
from rules.tabletop.tides.cycle import _check_d6

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
