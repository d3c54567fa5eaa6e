"""A table battle's result history in words (issues 27 and 29): who entered the result, who confirmed
or disputed it, and what the game master decided. Pure: the entries are the dicts
``TabletopBattle.history`` holds (written by :mod:`campaign.tabletop.record`); the battle's page, its
report and the table page all say them with these functions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: The acts a result's history holds, in the words a page says them.
ACTS = {
    "entered": "entered the result",
    "confirmed": "confirmed it",
    "disputed": "disputed it",
    "gm_entered": "entered the result that stands",
    "approved": "approved it",
    "automatic": "had the battle fought by the server's dice instead",
}


def history_lines(history: Sequence[Any]) -> list[str]:
    """The history in words, one line an act: "France (villeneuve) entered the result."."""
    lines = []
    for entry in history:
        if not isinstance(entry, dict) or entry.get("act") not in ACTS:
            continue
        by = f" ({entry['by']})" if entry.get("by") and entry.get("side") is not None else ""
        lines.append(f"{entry.get('who', 'Someone')}{by} {ACTS[entry['act']]}.")
    return lines


def table_decision(history: Sequence[Any]) -> str:
    """What the game master decided about a disputed result, in one line ("" if nothing was disputed)."""
    acts = [e.get("act") for e in history if isinstance(e, dict)]
    if "disputed" not in acts:
        return ""
    after = acts[len(acts) - 1 - acts[::-1].index("disputed") :]
    if "automatic" in after:
        return "After the dispute the game master had the battle fought by the server's dice."
    if "gm_entered" in after:
        return "After the dispute the game master entered the result that stands."
    if "approved" in after:
        return "After the dispute the game master approved the result as entered."
    return "Disputed: the game master decides."
