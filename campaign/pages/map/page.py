"""The campaign map as a nation sees it now: zones, ports, own and allied fleets, and the enemies its own
latest report tells of (RULES.md §3 "Fog of war"; see :mod:`campaign.pages.contacts`).

Own and allied fleets are read from the database (:mod:`campaign.pages.map.items`); other nations'
Fleet and Ship rows never are. Where forces are drawn is :mod:`campaign.pages.map.markers`; how the
map is laid out (labels, the view) is :mod:`campaign.pages.map.drawing`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from django.http import Http404

from campaign.geo.coastlines import theatre_land
from campaign.geo.theatre import Frame, Theatre
from campaign.models import Nation
from campaign.pages.contacts import Contact, contacts_for_viewer
from campaign.pages.map.drawing import FULL_VIEWBOX, Box, View, ZoneLabel, edges, label_box, layout, parse_view
from campaign.pages.map.items import (
    AFLOAT,
    MapFleet,
    MapPort,
    MapZone,
    friendly_fleets,
    map_port,
    map_zones,
    placed,
)
from campaign.pages.map.markers import Cluster, Marker, clusters, markers
from campaign.pages.map.moves import MapMove, map_move_for_player
from campaign.pages.map.orders import LastTurn, OrderMark, last_turn, order_marks
from campaign.pages.ports import ports_for_viewer
from campaign.pages.reports import report_for_nation
from campaign.viewer import User, Viewer, viewer_for_player


@dataclass
class ZonePanel:
    zone: MapZone
    adjacent: list[MapZone]
    ports: list[MapPort]
    fleets: list[MapFleet]
    contacts: list[Contact]


@dataclass
class MapView:
    viewer: Viewer
    zones: list[MapZone]
    edges: list[tuple[float, float, float, float]]
    ports: list[MapPort]
    fleets: list[MapFleet]
    contacts: list[Contact]
    markers: list[Marker]
    report_turn: int | None
    selected: ZonePanel | None
    labels: list[ZoneLabel] = field(default_factory=list)
    viewbox: str = FULL_VIEWBOX
    #: The drawing's theatre when every zone has coordinates (coastlines, insets, zoom); None draws
    #: the abstract layout of older campaigns from the zones' x/y.
    theatre: Theatre | None = None
    view: View | None = None
    move: MapMove | None = None
    #: Zone keys whose labels would collide at the whole-map zoom: hidden until zoomed in.
    crowded: frozenset[str] = frozenset()
    #: This turn's orders of the nation and its allies, as drawn.
    orders: list[OrderMark] = field(default_factory=list)
    #: The last turn's moves and battles the nation saw (None before its first report), and whether
    #: the layer is shown (``?last=0`` hides it).
    last: LastTurn | None = None
    show_last: bool = True

    @cached_property
    def clusters(self) -> list[Cluster]:
        return clusters(self.zones, self.markers)

    def __post_init__(self) -> None:
        if not self.labels:
            self.labels, self.viewbox = layout(self.zones, self.ports, self.markers)
        if self.theatre is not None:
            self.view = self.view or View(self.theatre.width, self.theatre.height, 1, 0, 0)
            self.viewbox = self.view.viewbox
            self.crowded = _crowded(self.zones, self.labels, self.markers)

    @cached_property
    def land(self) -> tuple[tuple[str, str], ...]:
        return theatre_land(self.theatre) if self.theatre is not None else ()

    @cached_property
    def placed_labels(self) -> list[tuple[ZoneLabel, float, float, float, float]]:
        """(label, zone x, zone y, dx, dy): on the real map a label is drawn relative to its zone
        and scaled with the symbols, so it stays beside its circle at every zoom."""
        zone_at = {z.key: z for z in self.zones}
        out = []
        for lb in self.labels:
            z = zone_at[lb.key]
            out.append((lb, z.x, z.y, round(lb.x - z.x, 1), round(lb.y - z.y, 1)))
        return out

    @cached_property
    def main_land(self) -> str:
        return dict(self.land).get("main", "")

    @cached_property
    def inset_land(self) -> list[tuple[Frame, str]]:
        """Each inset with its land, drawn over the main map's corner."""
        land = dict(self.land)
        insets = self.theatre.insets if self.theatre is not None else ()
        return [(frame, land.get(frame.key, "")) for frame in insets]

    @cached_property
    def zoom_query(self) -> str:
        """The view's query, to keep in the map's links (``zoom=2&cx=…&cy=…&``); empty at the whole map."""
        if self.view is None or self.view.zoom == 1:
            return ""
        cx, cy = self.view.centre
        return f"zoom={self.view.zoom}&cx={cx:.0f}&cy={cy:.0f}&"

    @cached_property
    def destinations(self) -> list[tuple[float, float, object]]:
        """(x, y, destination) of the chosen fleet's legal moves, for the map's targets."""
        if self.move is None:
            return []
        zone_at = {z.key: z for z in self.zones}
        port_at = {p.key: p for p in self.ports}
        out: list[tuple[float, float, object]] = []
        for d in self.move.destinations:
            spot = port_at.get(d.port_key) if d.port_key else zone_at.get(d.zone_key)
            if spot is not None:
                out.append((spot.x, spot.y, d))
        return out

    @property
    def legend_nations(self) -> list[Nation]:
        owners = {p.owner_code for p in self.ports} | {f.nation_code for f in self.fleets}
        owners |= {c.nation_code for c in self.contacts}
        return [n for n in self.viewer.nations if n.code in owners]


#: Which labels a crowded map keeps first: the wide waters before the coasts and the narrows.
_TYPE_RANK = {"ocean": 0, "open": 1, "coastal": 2, "narrows": 3}


def _crowded(zones: Sequence[MapZone], labels: Sequence[ZoneLabel], markers: Sequence[Marker]) -> frozenset[str]:
    """The zones whose labels, at the whole-map zoom, would cover a label kept before them, another
    zone's circle or a force: they are hidden until the map is zoomed in (their circles keep their
    names as tooltips and links). Zones with own forces keep theirs first, then by _TYPE_RANK."""
    label_of = {lb.key: lb for lb in labels}
    circles = [(z.key, (z.x - 9, z.y - 9, z.x + 9, z.y + 9)) for z in zones]
    fixed = [(m.x, m.y, m.x + m.width, m.y + m.height) for m in markers]
    own = {m.zone_key for m in markers if m.kind in ("own", "port")}
    kept: list[tuple[float, float, float, float]] = []
    crowded = set()
    for z in sorted(zones, key=lambda z: (z.key not in own, _TYPE_RANK.get(z.type, 4), z.name)):
        lb = label_of[z.key]
        box = label_box(lb.x, lb.y, lb.anchor, lb.lines)
        others = [c for k, c in circles if k != z.key]
        if _covers(box, kept) or _covers(box, others) or _covers(box, fixed):
            crowded.add(z.key)
        else:
            kept.append(box)
    return frozenset(crowded)


def _covers(box: Box, boxes: Sequence[Box]) -> bool:
    """Whether ``box`` shares more than 4 units of area with one of ``boxes``: overlap() inlined with
    its early outs (the decluttering asks it ~4k times a map)."""
    left, top, right, bottom = box
    for b in boxes:
        if b[0] >= right or b[2] <= left:
            continue
        width = (right if right < b[2] else b[2]) - (left if left > b[0] else b[0])
        tall = (bottom if bottom < b[3] else b[3]) - (top if top > b[1] else b[1])
        if width > 0.0 and tall > 0.0 and width * tall > 4.0:
            return True
    return False


def _panel(
    zone_key: str | None,
    zones: Sequence[MapZone],
    ports: Sequence[MapPort],
    fleets: Sequence[MapFleet],
    contacts: Sequence[Contact],
) -> ZonePanel | None:
    if not zone_key:
        return None
    at = {z.key: z for z in zones}
    zone = at.get(zone_key)
    if zone is None:
        raise Http404("No such sea zone.")
    return ZonePanel(
        zone=zone,
        adjacent=sorted((at[k] for k in zone.adjacent if k in at), key=lambda z: z.name),
        ports=[p for p in ports if p.zone_key == zone_key],
        fleets=[f for f in fleets if f.zone_key == zone_key],
        contacts=[c for c in contacts if c.zone_key == zone_key],
    )


def map_for_player(
    *,
    user: User,
    slug: str,
    nation_code: str | None = None,
    zone_key: str | None = None,
    fleet_id: int | None = None,
    zoom: tuple[str | None, str | None, str | None] = (None, None, None),
    show_last: bool = True,
) -> MapView:
    """The campaign map as the nation sees it now (fog of war as in the module docstring).

    ``zone_key`` selects a zone for the detail panel (Http404 if unknown); ``fleet_id`` one of the
    nation's fleets to move from the map (ignored unless it is one, afloat, in an open turn);
    ``zoom`` the query's (zoom, cx, cy); ``show_last`` draws last turn's moves and battles. At most
    15 queries (this turn's orders and where last turn's fleets started among them) plus one each
    for a report with battles and ports the nation blockades, and the order desk's for a fleet (the
    contacts' zone names are the map's own).
    """
    viewer = viewer_for_player(user=user, slug=slug, nation_code=nation_code)
    turn_number = viewer.turn.number if viewer.turn else viewer.campaign.turn_number
    zones, theatre = map_zones(viewer.campaign)
    zone_at = {z.key: z for z in zones}
    port_rows, rows = ports_for_viewer(viewer, turn_number=turn_number)
    ports = [map_port(p, row, theatre, zone_at) for p, row in zip(port_rows, rows, strict=True)]
    fleets = friendly_fleets(viewer)
    report = report_for_nation(viewer.nation)
    contacts = contacts_for_viewer(viewer, report, port_rows, {z.key: z.name for z in zones})
    move = None
    if fleet_id is not None:
        move = map_move_for_player(user=user, slug=slug, nation_code=nation_code, fleet_id=fleet_id)
    return MapView(
        viewer=viewer,
        zones=zones,
        edges=edges(zones),
        ports=ports,
        fleets=fleets,
        contacts=contacts,
        markers=markers(zones, ports, fleets, contacts),
        report_turn=report.turn_number if report else None,
        selected=_panel(zone_key, zones, ports, fleets, contacts),
        theatre=theatre,
        view=parse_view(theatre.width, theatre.height, *zoom) if theatre is not None else None,
        move=move,
        orders=order_marks(viewer, fleets, zones, ports),
        last=last_turn(viewer, report, zones, ports) if show_last else None,
        show_last=show_last,
    )


def map_for_gm(*, user: User, slug: str) -> MapView:
    """The whole map without fog of war, for a GM of the campaign (the desk): every port as it stands
    and every nation's fleets, one marker per nation and place; no contacts (nothing is guessed).
    Raises Http404 for a user who does not run the campaign, as every campaign page does."""
    viewer = viewer_for_player(user=user, slug=slug)
    if not viewer.is_gm:
        raise Http404("No such campaign.")
    turn_number = viewer.turn.number if viewer.turn else viewer.campaign.turn_number
    zones, theatre = map_zones(viewer.campaign)
    zone_at = {z.key: z for z in zones}
    port_rows, rows = ports_for_viewer(viewer, turn_number=turn_number)
    ports = [map_port(p, row, theatre, zone_at) for p, row in zip(port_rows, rows, strict=True)]
    fleets = friendly_fleets(viewer, every_nation=True)
    return MapView(
        viewer=viewer,
        zones=zones,
        edges=edges(zones),
        ports=ports,
        fleets=fleets,
        contacts=[],
        markers=markers(zones, ports, fleets, []),
        report_turn=None,
        selected=None,
        theatre=theatre,
        view=parse_view(theatre.width, theatre.height, None, None, None) if theatre is not None else None,
    )


__all__ = [
    "AFLOAT",
    "MapFleet",
    "MapPort",
    "MapView",
    "MapZone",
    "Marker",
    "ZonePanel",
    "edges",
    "map_for_gm",
    "map_for_player",
    "markers",
    "placed",
]
