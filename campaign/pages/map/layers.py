"""The map's SVG layers of orders and of the last turn, and the clusters of crowded zones (written like
:mod:`campaign.pages.map.svg`, which puts them in their place among the other layers).

Order lines are drawn in map units with strokes that keep their width on screen; arrowheads, battle
symbols and clusters are scaled with the other symbols (``.k``) so they keep one size at every zoom.
Order lines and last turn's moves are pictures, not links (their words are in their titles, and the
fleet's panel lists a fleet's orders); battles and clusters are links with a tap target of at least
44 CSS px (``.hit``, sized by the stylesheet).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.html import conditional_escape

from campaign.pages.map.markers import Cluster
from campaign.pages.map.orders import LastTurn, OrderMark

_ARROW = '<path class="k head" d="M1 0 L-7 -4 L-7 4 Z"/>'
_RING = '<circle class="k head" r="7"/>'
_HIT = '<circle class="hit" r="12"/>'


def _e(value: object) -> str:
    return conditional_escape(str(value))


def orders_svg(out: list[str], marks: Sequence[OrderMark]) -> None:
    """This turn's orders: a line along each order's path ending in an arrowhead (a ring round the
    port for a blockade); own orders solid, allied dashed, each kind its own colour."""
    out.append('\n  <g class="orders">')
    for m in marks:
        x, y = m.end
        head = _RING if m.kind == "blockade" else _ARROW
        turn = "" if m.kind == "blockade" else f" rotate({m.angle})"
        side = "own" if m.own else "ally"
        out.append(
            f'\n    <g class="order order-{_e(m.kind)} order-{side}" data-order-fleet="{m.fleet_id}"'
            f' data-order-kind="{_e(m.kind)}">'
            f"<title>{_e(m.title)}{'' if m.own else ' (allied order)'}</title>"
            f'<path class="order-line" d="{_e(m.path)}"/>'
            f'<g transform="translate({x} {y}){turn}">{head}</g></g>'
        )
    out.append("\n  </g>")


def last_turn_moves_svg(out: list[str], last: LastTurn) -> None:
    """Last turn's moves the nation saw, under this turn's orders: thin grey arrows."""
    if not last.moves:
        return
    out.append(f'\n  <g class="last-turn last-moves" data-last-turn="{last.number}">')
    for m in last.moves:
        x, y = m.points[1]
        out.append(
            f'\n    <g class="last-move{"" if m.own else " last-move-ally"}"><title>{_e(m.title)}</title>'
            f'<path class="order-line" d="{_e(m.path)}"/>'
            f'<g transform="translate({x} {y}) rotate({m.angle})">{_ARROW}</g></g>'
        )
    out.append("\n  </g>")


def battles_svg(out: list[str], last: LastTurn) -> None:
    """Last turn's battles, each a link to its report, above the zone or port it was fought in."""
    if not last.battles:
        return
    out.append(f'\n  <g class="last-turn last-battles" data-last-turn="{last.number}">')
    for b in last.battles:
        out.append(
            f'\n    <a href="{_e(b.url)}" class="battle-link"><g transform="translate({b.x} {b.y})"><g class="k">'
            f'<g class="battle-mark" transform="translate(0 -20)"><title>{_e(b.title)}</title>'
            '<circle class="battle-disc" r="7"/><path class="battle-swords" d="M-4 -4 L4 4 M4 -4 L-4 4"/>'
            f"{_HIT}</g></g></g></a>"
        )
    out.append("\n  </g>")


def clusters_svg(out: list[str], found: Sequence[Cluster], links: Any) -> None:
    """One marker for a crowd of forces (shown at the whole map only): tapping it shows the map at ×4
    around them, where each is drawn (a link to that view; the script zooms there in place)."""
    if not found:
        return
    out.append('\n  <g class="clusters">')
    for c in found:
        half = round(c.width / 2)
        url = f"{links.map}?{links.nq}zoom=4&amp;cx={c.x:.0f}&amp;cy={c.y:.0f}"
        out.append(
            f'\n    <a href="{url}" class="cluster-link" data-cx="{c.x:.0f}" data-cy="{c.y:.0f}">'
            f'<g transform="translate({c.x} {c.y})"><g class="k"><g class="cluster" transform="translate({-half} -6)">'
            f"<title>{_e(c.title)}</title>"
            f'<rect width="{c.width}" height="12" rx="6"/>'
            f'<text aria-hidden="true" x="{half}" y="9">{_e(c.text)}</text>'
            f'<circle class="hit" cx="{half}" cy="6" r="12"/></g></g></g></a>'
        )
    out.append("\n  </g>")


__all__ = ["battles_svg", "clusters_svg", "last_turn_moves_svg", "orders_svg"]
