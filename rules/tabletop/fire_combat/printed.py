"""Seed 003's fire combat as a battle pack prints it: the chart, the procedure and one fire's result
(:class:`~rules.tabletop.printable.PrintableTable`), built from the same constants the roll reads.
"""

from __future__ import annotations

from typing import Final

from rules.tabletop.fire_combat.chart import (
    HOUSE_FIRE_CHART,
    LINE_FLANK_DEFENCE,
    SEED,
    SOURCE,
    SQUARE_DEFENCE,
    FireChart,
)
from rules.tabletop.fire_combat.fire import FireResult
from rules.tabletop.printable import PrintableTable, signed

# --- Printable tables ------------------------------------------------------------------------------


def fire_chart_table(chart: FireChart = HOUSE_FIRE_CHART) -> PrintableTable:
    """The fire combat chart as printed: one row per band of modified rolls, one column per odds."""
    rows = []
    for low, high in chart.roll_bands:
        band = f"{low} or more" if high is None else (str(low) if low == high else f"{low}\u2013{high}")
        rows.append((band, *(str(chart.losses(c, low)) for c in chart.columns)))
    return PrintableTable(
        key="fire_chart",
        title=f"{chart.name}: increments lost",
        source=SOURCE,
        seed=SEED,
        headers=("Modified roll", *(c.label for c in chart.columns)),
        rows=tuple(rows),
        notes=(
            "Roll two dice, the first for tens and the second for units (11 to 66).",
            "A modified roll below 11 counts as 11.",
            f"Odds are rounded down; odds worse than {chart.columns[0].label} cause no loss, odds better than "
            f"{chart.columns[-1].label} use {chart.columns[-1].label}.",
            *(
                ("House chart: La Bataille's own Fire Combat Chart is not reproduced here.",)
                if chart is HOUSE_FIRE_CHART
                else ()
            ),
        ),
    )


def fire_procedure_table() -> PrintableTable:
    """The fire procedure and its special cases, one rule a row."""
    return PrintableTable(
        key="fire_procedure",
        title="Fire combat",
        source=SOURCE,
        seed=SEED,
        headers=("Step or case", "Rule"),
        rows=(
            ("Target", "A hex may be the designated target only once during a fire segment"),
            ("Fire", "Total the eligible fire factors and compare the sum to the hex's fire defence"),
            ("Odds", "Establish the odds, rounding any fractions down (14 to 9 is 1.5–1)"),
            ("Result", "Roll the dice and find the result on the chart: the number of increments lost"),
            ("Low roll", "A modified roll below 11 counts as 11"),
            ("Massed target", f"{signed(1)} to the roll for each increment in the hex over nine (15 increments: +6)"),
            ("Line of 7 or more increments", "Has the fire defence of a column"),
            ("Square (carré)", f"Fire defence {SQUARE_DEFENCE}; the massed-target modifier still applies"),
            ("Fire through the flank hex of a line", f"Fire defence {LINE_FLANK_DEFENCE}"),
        ),
    )


FIRE_RESULT_HEADERS: Final = ("Fire", "Defence", "Odds", "Roll", "Modifier", "Applied", "Increments lost")


def fire_result_row(result: FireResult) -> tuple[str, ...]:
    """One resolved fire as a printable row (see :data:`FIRE_RESULT_HEADERS`)."""
    return (
        str(result.attack),
        str(result.defence),
        result.column.label if result.column else "below the chart",
        str(result.roll),
        signed(result.modifier),
        str(result.applied),
        str(result.increments_lost),
    )
