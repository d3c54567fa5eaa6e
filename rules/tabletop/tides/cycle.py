"""Seed 001's tide cycle and tide timing: the four phases and their bounds, and the set-up dice that
set the hour of low or high water (:func:`tide_timing_for`, :func:`roll_setup_dice`). The seed's words
and the house readings are in :mod:`rules.tabletop.tides`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from rules import strategic_log as purposes
from rules.dice import Dice
from rules.strategic_log import StrategicDie, StrategicLog

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
