"""Printable tables for a battle pack: a title, where the table comes from, headers and rows.

Every table module of :mod:`rules.tabletop` exposes its tables twice: as typed rows (frozen
dataclasses the rule functions use) and as a :class:`PrintableTable` of plain text cells, which
the battle pack renders as HTML and PDF without knowing any rule. The two views are built from the
same constants, so what the pack prints is what the functions apply.

``source`` is the reader-facing name of the document a table comes from (a person reads it in the
pack); ``seed`` names the seed file for reviewers and tests, and is never shown to players.

Pure Python: no Django, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PrintableTable:
    """One table as the battle pack prints it.

    ``key`` is a stable identifier (for templates and tests); ``headers`` has one entry per column
    and every row has exactly that many cells; ``notes`` are short sentences printed under the
    table (modifiers, exceptions, house decisions), in reading order.
    """

    key: str
    title: str
    source: str
    seed: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.headers:
            raise ValueError(f"table {self.key!r}: it needs at least one column")
        for n, row in enumerate(self.rows, start=1):
            if len(row) != len(self.headers):
                raise ValueError(
                    f"table {self.key!r}: row {n} has {len(row)} cells but there are {len(self.headers)} columns"
                )


def signed(n: int) -> str:
    """A modifier as printed on a table: ``+1``, ``−1`` (a true minus sign), ``0``."""
    if n > 0:
        return f"+{n}"
    if n < 0:
        return f"\u2212{-n}"
    return "0"


def span(low: int, high: int) -> str:
    """A range of die results as printed: ``3`` for one face, ``1–3`` for several (an en dash)."""
    if low == high:
        return str(low)
    low_text = f"\u2212{-low}" if low < 0 else str(low)
    high_text = f"\u2212{-high}" if high < 0 else str(high)
    return f"{low_text}\u2013{high_text}"
