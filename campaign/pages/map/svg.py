"""The map's SVG (``campaign/_map_svg.html``) written in Python: the same bytes the template wrote.

Why not a template: a map draws some 40 zones, 40 labels, 70 ports and 25 markers, each with links,
titles and classes; the template engine spent ~2.7k variable lookups and most of the page's CPU on
them. Here every value is printed as the template printed it inside ``{% localize off %}`` with
autoescaping: text escaped, numbers as ``str()``, ``floatformat``, ``widthratio``, ``pluralize``,
``join`` and ``urlencode`` as Django's filters do.
"""

from __future__ import annotations

from typing import Any

from django.template.defaultfilters import floatformat, pluralize, urlencode
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from campaign.pages.map.layers import battles_svg, clusters_svg, last_turn_moves_svg, orders_svg


def _v(value: Any) -> str:
    """``{{ value }}`` under ``{% localize off %}`` with autoescaping."""
    if isinstance(value, str):
        return conditional_escape(value)
    if isinstance(value, (int, float)):  # bool too: str() is what the template printed
        return str(value)
    return conditional_escape(str(value))


def _join(items: Any) -> str:
    """``{{ items|join:", " }}`` with autoescaping."""
    return ", ".join(conditional_escape(item) for item in items)


def _widthratio_half(width: Any) -> str:
    """``{% widthratio width 2 1 %}``."""
    return str(round((float(width) / 2.0) * 1))


class _Links:
    """The map's links, which depend only on the page (paths, the GM's ``nation=`` prefix, the zoom)."""

    def __init__(self, m: Any, paths: Any, nq: Any) -> None:
        self.map = _v(_get(paths, "map"))
        self.orders = _v(_get(paths, "orders"))
        self.map_move = _v(_get(paths, "map_move"))
        self.nq = _v(nq)
        self.zoom_query = _v(m.zoom_query)

    def zone(self, key: str, extra: str) -> str:
        url = f"{self.map}?{self.nq}{self.zoom_query}zone={_v(key)}"
        return f'<a href="{url}" hx-get="{url}" hx-target="#zone-panel" hx-push-url="true"{extra}>'


#: A link's invisible tap target: its radius is the stylesheet's (at least 22 CSS px at every zoom).
_HIT = '      <circle class="hit" r="12"/>\n'


def _get(mapping: Any, key: str) -> Any:
    """``{{ mapping.key }}``: "" when the context has no such thing (the GM desk has no paths)."""
    if isinstance(mapping, dict):
        return mapping.get(key, "")
    return ""


def map_svg(m: Any, *, linked: Any, map_title: Any, map_id: Any, paths: Any, nq: Any) -> SafeString:
    """The whole ``<svg>`` of map ``m`` (a :class:`campaign.pages.map.page.MapView`), preceded by the
    newline the template's first line left."""
    theatre = m.theatre
    links = _Links(m, paths, nq) if linked else None
    out: list[str] = ["\n"]
    mid = _v(map_id or "now")
    svg_class = "seamap"
    extra = ""
    if theatre:
        view = m.view
        svg_class += " geo" + (" zoomed" if view.zoom >= 1.9 else "")
        zoom = _v(view.zoom)
        extra = f' data-full="{_v(view.full_viewbox)}" data-zoom="{zoom}" style="--zoom: {zoom}"'
    out.append(
        f'<svg class="{svg_class}" viewBox="{_v(m.viewbox)}"{extra} role="group" aria-labelledby="map-title-{mid}"'
        ' preserveAspectRatio="xMidYMid meet" xmlns="http://www.w3.org/2000/svg">\n'
        f'  <title id="map-title-{mid}">{_v(map_title)}</title>\n  '
    )
    if theatre:
        out.append(
            f'\n  <rect class="sea" x="0" y="0" width="{floatformat(theatre.width, 1)}"'
            f' height="{floatformat(theatre.height, 1)}"/>\n'
            f'  <path class="land" d="{_v(m.main_land)}"/>\n  '
        )
        for frame, land in m.inset_land:
            left, top = floatformat(frame.left, 1), floatformat(frame.top, 1)
            out.append(
                f'\n  <g class="inset" data-inset="{_v(frame.key)}">\n'
                f'    <rect class="inset-sea" x="{left}" y="{top}" width="{floatformat(frame.width, 1)}"'
                f' height="{floatformat(frame.height, 1)}"/>\n'
                f'    <path class="land" d="{_v(land)}"/>\n'
                f'    <text class="inset-title" x="{left}" y="{top}" dx="3" dy="9">{_v(frame.title)}</text>\n'
                "  </g>"
            )
        out.append("\n  ")
    else:
        out.append('\n  <rect class="sea" x="0" y="0" width="1000" height="700"/>\n  ')
    out.append('\n  <g class="edges">')
    out.extend(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/>' for x1, y1, x2, y2 in m.edges)
    out.append('</g>\n  <g class="zones">')
    _zones(out, m, links)
    out.append('\n  </g>\n  <g class="labels">')
    _labels(out, m)
    out.append('\n  </g>\n  <g class="ports">')
    _ports(out, m)
    out.append("\n  </g>")
    if getattr(m, "last", None):
        last_turn_moves_svg(out, m.last)
    if getattr(m, "orders", None):
        orders_svg(out, m.orders)
    out.append('\n  <g class="markers">')
    _markers(out, m, links)
    out.append("\n  </g>\n  ")
    if links is not None and getattr(m, "last", None):
        battles_svg(out, m.last)
    if links is not None and getattr(m, "clusters", None):
        clusters_svg(out, m.clusters, links)
    if links is not None and m.move:
        _destinations(out, m, links)
    out.append("\n</svg>\n")
    return mark_safe("".join(out))


def _zones(out: list[str], m: Any, links: _Links | None) -> None:
    selected = m.selected.zone.key if m.selected else None
    reach = m.move.zone_keys if m.move else ()
    for z in m.zones:
        key = _v(z.key)
        out.append("\n    ")
        if links is not None:
            out.append(links.zone(z.key, ' class="zone-link"'))
        classes = f"zone zone-{_v(z.type)}"
        if selected is not None and selected == z.key:
            classes += " selected"
        if m.move and z.key in reach:
            classes += " reach"
        out.append(
            f'\n    <g class="{classes}" transform="translate({_v(z.x)} {_v(z.y)})" data-zone="{key}">\n'
            f"      <title>{_v(z.name)} — {_v(z.type_label)}</title>\n"
            '      <circle r="9"/>\n'
            f"{_HIT if links is not None else ''}"
            "    </g>\n    "
        )
        if links is not None:
            out.append("</a>")


def _labels(out: list[str], m: Any) -> None:
    """The zones' names: not links (the zone's circle is, with a tap target of its own)."""
    if m.theatre:
        crowded = m.crowded
        for lb, zx, zy, dx, dy in m.placed_labels:
            out.append("\n    ")
            x = _v(dx)
            tspans = _tspans(x, lb.lines)
            out.append(
                f'\n    <g transform="translate({_v(zx)} {_v(zy)})"><text class="zone-label'
                f'{" crowded" if lb.key in crowded else ""}" x="{x}" y="{_v(dy)}" text-anchor="{_v(lb.anchor)}"'
                f' data-label="{_v(lb.key)}">{tspans}</text></g>\n    '
            )
        return
    for lb in m.labels:
        out.append("\n    ")
        x = _v(lb.x)
        tspans = _tspans(x, lb.lines)
        out.append(
            f'\n    <text class="zone-label" x="{x}" y="{_v(lb.y)}" text-anchor="{_v(lb.anchor)}">{tspans}</text>\n    '
        )


def _tspans(x: str, lines: Any) -> str:
    """A label's lines, each after the first a line lower."""
    return "".join(f'<tspan x="{x}"{_NEXT_LINE if k else ""}>{_v(line)}</tspan>' for k, line in enumerate(lines))


_NEXT_LINE = ' dy="1.1em"'


def _ports(out: list[str], m: Any) -> None:
    reach = m.move.port_keys if m.move else ()
    for p in m.ports:
        besieged = bool(p.siege_turns or p.besiegers)
        classes = "port" + (" besieged" if besieged else "") + (" blockaded" if p.blockaders else "")
        if m.move and p.key in reach:
            classes += " reach"
        title = f"{_v(p.name)} ({_v(p.owner_name)}{', dockyard' if p.dockyard else ''}, FF {_v(p.fortification)})"
        if p.siege_turns:
            title += f" — besieged {_v(p.siege_turns)} turn{pluralize(p.siege_turns)}"
        if p.besiegers:
            title += f" by {_join(p.besiegers)}"
        if p.blockaders:
            title += f" — blockaded by {_join(p.blockaders)}"
        ring = '<circle class="blockade-ring" r="7.5"/>' if p.blockaders else ""
        cross = '<path class="siege-mark" d="M-6 -6 L6 6 M6 -6 L-6 6"/>' if besieged else ""
        code = ""
        if m.theatre:
            code = f'<text class="port-code" x="0" y="-5.5" aria-hidden="true">{_v(p.owner_code)}</text>'
        if m.theatre:
            code += f'<text class="port-name" x="0" y="11" aria-hidden="true">{_v(p.name)}</text>'
        out.append(
            f'\n    <g class="{classes}" transform="translate({_v(p.x)} {_v(p.y)})" data-port="{_v(p.key)}">\n'
            f"      <title>{title}</title>\n"
            f"      {ring}\n"
            f'      <rect class="port-mark" x="-3.5" y="-3.5" width="7" height="7" style="fill: {_v(p.color)}"/>\n'
            f"      {cross}\n"
            f"      {code}\n"
            "    </g>"
        )


def _markers(out: list[str], m: Any, links: _Links | None) -> None:
    chosen = m.move.fleet_id if m.move else None
    for mk in m.markers:
        out.append("\n    ")
        # One of many in its zone: hidden at the whole map, where the zone's cluster stands for it.
        clustered = " in-cluster" if mk.clustered and not (m.move and mk.fleet_id == chosen) else ""
        if links is not None:
            if mk.fleet_id:
                url = f"{links.map}?{links.nq}{links.zoom_query}fleet={_v(mk.fleet_id)}"
                out.append(
                    f'<a href="{url}" hx-get="{url}" hx-target="#map-area" hx-swap="outerHTML" hx-push-url="true"'
                    f' class="fleet-link{clustered}">'
                )
            else:
                out.append(links.zone(mk.zone_key, f' class="zone-forces{clustered}"'))
        anchored = bool(m.theatre and mk.anchor)
        out.append("\n    ")
        if anchored:
            out.append(f'<g transform="translate({_v(mk.anchor[0])} {_v(mk.anchor[1])})"><g class="k">')
            ox, oy = mk.offset
            at = f"{_v(ox)} {_v(oy)}"
        else:
            at = f"{_v(mk.x)} {_v(mk.y)}"
        classes = f"marker marker-{_v(mk.kind)}" + (" small" if mk.small else "")
        if m.move and mk.fleet_id == chosen:
            classes += " chosen"
        width = mk.width
        fleet = f' data-fleet="{_v(mk.fleet_id)}"' if mk.fleet_id else ""
        hint = " — click for its moves" if links is not None and mk.fleet_id else ""
        centre = f'cx="{_widthratio_half(width)}" cy="{mk.height / 2}"'
        hit = f'      <circle class="hit" {centre} r="12"/>\n' if links else ""
        out.append(
            f'\n    <g class="{classes}" transform="translate({at})" data-kind="{_v(mk.kind)}"{fleet}>\n'
            f"      <title>{_v(mk.title)}{hint}</title>\n"
            f'      <rect width="{_v(width)}" height="{_v(mk.height)}" rx="2" style="fill: {_v(mk.color)}"/>\n'
            f'      <text aria-hidden="true" x="{_widthratio_half(width)}" y="{"7" if mk.small else "8.5"}">'
            f"{_v(mk.text)}</text>\n"
            f"{hit}"
            "    </g>\n    "
        )
        if anchored:
            out.append("</g></g>")
        out.append("\n    ")
        if links is not None:
            out.append("</a>")


def _destinations(out: list[str], m: Any, links: _Links) -> None:
    move = m.move
    fleet = _v(move.fleet_id)
    name = _v(move.fleet_name)
    # The turn the map shows rides along: a tap on a map of a turn that has since resolved is refused.
    turn = f', "turn": "{_v(m.viewer.turn.number)}"' if m.viewer.turn else ""
    out.append('\n  <g class="destinations">')
    for x, y, d in m.destinations:
        value = d.path.value
        out.append(
            f'\n    <a href="{links.orders}?{links.nq}kind=move&amp;fleet={fleet}&amp;path={_v(urlencode(value))}"'
            f' hx-post="{links.map_move}?{links.nq}{links.zoom_query}"'
            f' hx-vals=\'{{"fleet": "{fleet}", "path": "{_v(value)}"{turn}}}\' hx-target="#map-area"'
            f' hx-swap="outerHTML" class="dest-link" data-dest="{_v(d.port_key or d.zone_key)}">\n'
            f'      <g class="dest" transform="translate({_v(x)} {_v(y)})">\n'
            f"        <title>Move {name}: {_v(d.path.label)}</title>\n"
            f'        <circle class="dest-ring" r="{"8" if d.port_key else "13"}"/>\n'
            f"        {_HIT}"
            "      </g>\n    </a>"
        )
    out.append("\n  </g>\n  ")
