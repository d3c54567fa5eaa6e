"""``page_rows``: long lists of the players' pages printed in one go rather than by template loops.

``{{ f.ships|ship_rows }}`` prints a fleet's ships on the dashboard exactly as the loop it replaces
did (``<tr class="cond-…">`` rows, text escaped): a large navy is some 250 rows of seven lookups
each, a quarter of the page's rendering.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.utils.html import conditional_escape as esc
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.filter
def ship_rows(ships: Iterable[Any]) -> SafeString:
    """The table rows of ``ships`` (:class:`campaign.pages.dashboard.ShipRow`)."""
    return mark_safe(
        "".join(
            f'<tr class="cond-{esc(s.condition)}"><td>{esc(s.name)}</td><td>{esc(s.class_label)}</td>'
            f"<td>{esc(s.condition_label)}</td><td>{esc(s.crew)}</td><td>"
            + ("in ordinary " if s.in_ordinary else "")
            + (f"taken from {esc(s.captured_from)} " if s.captured_from else "")
            + ("carrying troops" if s.carrying else "")
            + "</td></tr>"
            for s in ships
        )
    )
