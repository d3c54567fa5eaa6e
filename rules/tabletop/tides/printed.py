"""Seed 001's tables as a battle pack prints them (:class:`~rules.tabletop.printable.PrintableTable`),
built from the same constants the rolls read.
"""

from __future__ import annotations

from rules.tabletop.printable import PrintableTable, signed, span
from rules.tabletop.tides.cycle import (
    _DAY_MINUTES,
    BOUND_MINUTES,
    CYCLE_BOUNDS,
    CYCLE_MINUTES,
    SEED,
    SOURCE,
    TIDE_CYCLE,
    TideTiming,
    clock,
)
from rules.tabletop.tides.effect import TIDE_EFFECT, TIDE_MODIFIERS, Going
from rules.tabletop.tides.grounding import GROUNDING_CHART, LOW_DRAFT_NUMBER, UNSTICK_MODIFIERS
from rules.tabletop.tides.marsh import MARSH_PASSAGE_TABLE

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
