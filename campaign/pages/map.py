"""The campaign map as a nation sees it now: zones, ports, own and allied fleets, and the enemies its own
latest report tells of (RULES.md §3 "Fog of war"; see :mod:`campaign.pages.contacts`).

Own and allied fleets are read from the database; other nations' Fleet and Ship rows never are. How
the map is laid out and drawn is :mod:`campaign.pages.map_drawing`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from django.db.models import Count, Q
from django.http import Http404
from django.template.defaultfilters import pluralize

from campaign.geo.coastlines import theatre_land
from campaign.geo.theatre import THEATRES, Frame, Theatre
from campaign.models import Campaign, Nation
from campaign.pages.contacts import Contact, contacts_for_viewer
from campaign.pages.labels import ZONE_TYPE_LABELS
from campaign.pages.map_drawing import FULL_VIEWBOX, View, ZoneLabel, edges, label_box, layout, overlap, parse_view
from campaign.pages.map_moves import MapMove, map_move_for_player
from campaign.pages.ports import PortRow, ports_for_viewer
from campaign.pages.reports import report_for_nation
from campaign.viewer import User, Viewer, viewer_for_player
from fleets.models import Fleet, Ship
from ports.models import Port, SeaZone
from rules.ruleset import SOL_CLASSES

#: Conditions of ships a map counts (not on the stocks, not sunk or expended).
AFLOAT = frozenset(Ship.AFLOAT)


@dataclass(frozen=True)
class MapZone:
    key: str
    name: str
    type: str
    x: float
    y: float
    adjacent: tuple[str, ...]

    @property
    def type_label(self) -> str:
        return ZONE_TYPE_LABELS.get(self.type, self.type)


@dataclass(frozen=True)
class MapPort:
    key: str
    name: str
    zone_key: str
    x: float
    y: float
    owner_code: str
    owner_name: str
    color: str
    fortification: int
    dockyard: bool
    siege_turns: int
    besiegers: tuple[str, ...]
    blockaders: tuple[str, ...]


@dataclass
class MapFleet:
    """An own or allied fleet as the map shows it."""

    id: int
    name: str
    nation_code: str
    nation_name: str
    color: str
    own: bool
    zone_key: str
    port_key: str
    port_name: str
    admiral: str
    ships: int
    sol: int


@dataclass(frozen=True)
class Marker:
    x: float
    y: float
    color: str
    label: str
    title: str
    zone_key: str
    fleet_id: int | None  # the one own fleet it stands for: the marker links to it on the dashboard
    kind: str  # "own" | "ally" | "enemy" | "port"
    small: bool = False  # beside a port rather than a zone
    #: The zone or port the marker stands beside; on the real map the offset from it is scaled
    #: with the symbols, so the marker stays beside its place at every zoom.
    anchor: tuple[float, float] | None = None

    @property
    def offset(self) -> tuple[float, float]:
        ax, ay = self.anchor or (self.x, self.y)
        return round(self.x - ax, 1), round(self.y - ay, 1)

    #: The nation's letters, shown on the marker with its colour (a colour alone is not enough).
    nation_code: str = ""

    @property
    def text(self) -> str:
        return f"{self.nation_code} {self.label}" if self.nation_code else self.label

    @property
    def width(self) -> float:
        """Wide enough for its text (the font's digits and capitals are about 5 units wide)."""
        return round(len(self.text) * (4.4 if self.small else 5.0) + 5, 1)

    @property
    def height(self) -> float:
        return 9 if self.small else 11


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
    circles = {z.key: (z.x - 9, z.y - 9, z.x + 9, z.y + 9) for z in zones}
    forces = [(m.x, m.y, m.x + m.width, m.y + m.height) for m in markers]
    own = {m.zone_key for m in markers if m.kind in ("own", "port")}
    kept: list[tuple[float, float, float, float]] = []
    crowded = set()
    for z in sorted(zones, key=lambda z: (z.key not in own, _TYPE_RANK.get(z.type, 4), z.name)):
        lb = label_of[z.key]
        box = label_box(lb.x, lb.y, lb.anchor, lb.lines)
        others = [c for k, c in circles.items() if k != z.key]
        if any(overlap(box, b) > 4.0 for b in kept + others + forces):
            crowded.add(z.key)
        else:
            kept.append(box)
    return frozenset(crowded)


def _single_own(group: Sequence[MapFleet]) -> int | None:
    return group[0].id if len(group) == 1 and group[0].own else None


def _own_first(by_nation: dict[str, list[MapFleet]]) -> list[list[MapFleet]]:
    """A place's fleets grouped by nation: own before allied, then by nation code."""
    return [group for _, group in sorted(by_nation.items(), key=lambda kv: (not kv[1][0].own, kv[0]))]


def _friendly_marker(
    group: Sequence[MapFleet],
    at: tuple[float, float],
    where: str,
    zone_key: str,
    *,
    in_port: bool,
    anchor: tuple[float, float] | None = None,
) -> Marker:
    """One nation's fleets in one place: at sea (by the zone) or in port (a small marker by the port)."""
    ships = sum(f.ships for f in group)
    names = ", ".join(f.name for f in group)
    return Marker(
        at[0],
        at[1],
        group[0].color,
        str(ships),
        f"{group[0].nation_name}: {names} — {ships} ship{pluralize(ships)} {where}",
        zone_key,
        _single_own(group),
        "port" if in_port else "own" if group[0].own else "ally",
        small=in_port,
        anchor=anchor,
        nation_code=group[0].nation_code,
    )


def _friendly_markers(zones: Sequence[MapZone], ports: Sequence[MapPort], fleets: Sequence[MapFleet]) -> list[Marker]:
    """Own and allied forces, one marker per nation and place: at sea to the right of the zone, in port
    beside the port; own before allied, then by nation code."""
    zone_at = {z.key: z for z in zones}
    port_at = {p.key: p for p in ports}
    markers: list[Marker] = []
    at_sea: dict[str, dict[str, list[MapFleet]]] = defaultdict(lambda: defaultdict(list))
    in_port: dict[str, dict[str, list[MapFleet]]] = defaultdict(lambda: defaultdict(list))
    for f in fleets:
        (in_port[f.port_key] if f.port_key else at_sea[f.zone_key])[f.nation_code].append(f)
    for zone_key, by_nation in at_sea.items():
        zone = zone_at.get(zone_key)
        if zone is not None:
            for i, group in enumerate(_own_first(by_nation)):
                markers.append(
                    _friendly_marker(
                        group,
                        (zone.x + 12, zone.y - 14 + 13 * i),
                        f"at sea in {zone.name}",
                        zone_key,
                        in_port=False,
                        anchor=(zone.x, zone.y),
                    )
                )
    for port_key, by_nation in in_port.items():
        port = port_at.get(port_key)
        if port is not None:
            for i, group in enumerate(_own_first(by_nation)):
                markers.append(
                    _friendly_marker(
                        group,
                        (port.x + 6, port.y - 4 + 11 * i),
                        f"in {port.name}",
                        port.zone_key,
                        in_port=True,
                        anchor=(port.x, port.y),
                    )
                )
    return markers


def _enemy_markers(zones: Sequence[MapZone], ports: Sequence[MapPort], contacts: Sequence[Contact]) -> list[Marker]:
    """Known enemies, one marker per nation and place, left of the zone."""
    zone_at = {z.key: z for z in zones}
    port_at = {p.key: p for p in ports}
    # Several reports of one force (step 1 and step 2, a sighting and the battle after it) are not
    # added up: the marker shows the most ships of that nation seen at once in the place. Every
    # enemy marker stands left of its zone (ports lie too close to their zone's circle to carry
    # one); its title says whether the ships were at sea or in a port.
    enemies: dict[str, dict[tuple[str, str], int]] = defaultdict(lambda: defaultdict(int))
    colors: dict[str, str] = {}
    nation_names: dict[str, str] = {}
    # A battle is the last word on the enemies it was fought against there: the map shows what is
    # left after it (none when all were sunk or taken), not the force sighted before it.
    fought = {(c.zone_key, c.nation_code) for c in contacts if c.how == "fought"}
    for c in contacts:
        if (c.zone_key, c.nation_code) in fought and c.how != "fought":
            continue
        place = (c.nation_code, c.port_key if c.port_key in port_at else "")
        enemies[c.zone_key][place] = max(enemies[c.zone_key][place], len(c.present))
        colors[c.nation_code], nation_names[c.nation_code] = c.color, c.nation_name
    markers: list[Marker] = []
    for zone_key, counts in enemies.items():
        zone = zone_at.get(zone_key)
        if zone is None:
            continue
        left = sorted((place, n) for place, n in counts.items() if n > 0)
        for i, ((code, port_key), n) in enumerate(left):
            where = f"in {port_at[port_key].name}" if port_key else f"at sea in {zone.name}"
            markers.append(
                Marker(
                    zone.x - 34,
                    zone.y - 14 + 13 * i,
                    colors[code],
                    str(n),
                    f"{nation_names[code]}: {n} ship{pluralize(n)} seen {where}",
                    zone_key,
                    None,
                    "enemy",
                    anchor=(zone.x, zone.y),
                    nation_code=code,
                )
            )
    return markers


def markers(
    zones: Sequence[MapZone], ports: Sequence[MapPort], fleets: Sequence[MapFleet], contacts: Sequence[Contact]
) -> list[Marker]:
    """Where the map draws forces: own/allied at sea to the right of the zone, in port beside the port,
    enemies to the left of the zone. A marker links to its zone's panel, or to its fleet on the
    dashboard when it stands for a single own fleet."""
    return _friendly_markers(zones, ports, fleets) + _enemy_markers(zones, ports, contacts)


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


def _zones(campaign: Campaign) -> tuple[list[MapZone], Theatre | None]:
    """The campaign's sea zones in key order with their neighbours (two queries), and the theatre
    they are drawn in: at their real coordinates when every zone has them, else at their x/y."""
    graph: dict[int, list[str]] = defaultdict(list)
    zone_rows = list(SeaZone.objects.filter(campaign=campaign).order_by("key"))
    keys = {z.pk: z.key for z in zone_rows}
    for a, b in SeaZone.adjacent.through.objects.filter(from_seazone__campaign=campaign).values_list(
        "from_seazone_id", "to_seazone_id"
    ):
        graph[a].append(keys[b])
    located = bool(zone_rows) and all(z.lon is not None and z.lat is not None for z in zone_rows)
    theatre = THEATRES["europe"] if located else None
    zones = []
    for z in zone_rows:
        x, y = placed(theatre, z.lon, z.lat, (z.x, z.y))
        zones.append(MapZone(z.key, z.name, z.type, x, y, tuple(sorted(set(graph[z.pk])))))
    return zones, theatre


def placed(
    theatre: Theatre | None, lon: float | None, lat: float | None, fallback: tuple[float, float]
) -> tuple[float, float]:
    """A place's drawing position: projected in the theatre (to a tenth of a unit), else ``fallback``."""
    if theatre is None or lon is None or lat is None:
        return fallback
    x, y = theatre.place(lon, lat)
    return round(x, 1), round(y, 1)


def _map_port(port: Port, row: PortRow, theatre: Theatre | None, zones: dict[str, MapZone]) -> MapPort:
    zone = zones.get(port.sea_zone.key)
    # On a drawn theatre a port without coordinates stands just off its zone's label position.
    fallback = (zone.x + 6, zone.y + 6) if theatre is not None and zone is not None else (port.x, port.y)
    x, y = placed(theatre, port.lon, port.lat, fallback)
    return MapPort(
        port.key,
        port.name,
        port.sea_zone.key,
        x,
        y,
        row.owner_code,
        row.owner_name,
        row.color,
        port.fortification,
        port.dockyard,
        port.siege_turns,
        row.besieger_names,  # shown to people: names, not codes
        row.blockader_names,
    )


def _friendly_fleets(viewer: Viewer, *, every_nation: bool = False) -> list[MapFleet]:
    """Own and allied fleets with ships afloat, by nation code and name (two queries); with
    ``every_nation`` (the GM's map without fog of war), every nation's."""
    by_id = viewer.nations_by_id
    friendly_ids = [n.pk for n in viewer.nations if every_nation or viewer.friendly(n.pk)]
    counts: dict[int, tuple[int, int]] = {}
    for fleet_id, ships, sol in (
        Ship.objects.filter(fleet__nation_id__in=friendly_ids, condition__in=AFLOAT)
        .values("fleet_id")
        .annotate(ships=Count("id"), sol=Count("id", filter=Q(ship_class__in=SOL_CLASSES)))
        .values_list("fleet_id", "ships", "sol")
    ):
        counts[fleet_id] = (ships, sol)
    fleets = []
    for f in (
        Fleet.objects.filter(campaign=viewer.campaign, nation_id__in=friendly_ids)
        .select_related("sea_zone", "port", "admiral")
        .order_by("nation__code", "name")
    ):
        nation = by_id[f.nation_id]
        ships, sol = counts.get(f.pk, (0, 0))
        if ships == 0:
            continue  # an empty fleet is nothing to see on a map
        fleets.append(
            MapFleet(
                f.pk,
                f.name,
                nation.code,
                nation.name,
                nation.color,
                f.nation_id == viewer.nation.pk and not every_nation,
                f.sea_zone.key,
                f.port.key if f.port else "",
                f.port.name if f.port else "",
                f"{f.admiral.name} ({f.admiral.grade})" if f.admiral else "",
                ships,
                sol,
            )
        )
    return fleets


def map_for_player(
    *,
    user: User,
    slug: str,
    nation_code: str | None = None,
    zone_key: str | None = None,
    fleet_id: int | None = None,
    zoom: tuple[str | None, str | None, str | None] = (None, None, None),
) -> MapView:
    """The campaign map as the nation sees it now (fog of war as in the module docstring).

    ``zone_key`` selects a zone for the detail panel (Http404 if unknown); ``fleet_id`` one of the
    nation's fleets to move from the map (ignored unless it is one, afloat, in an open turn);
    ``zoom`` the query's (zoom, cx, cy). At most 13 queries plus one each for a report with
    contacts, one with battles, and ports the nation blockades, and the order desk's for a fleet.
    """
    viewer = viewer_for_player(user=user, slug=slug, nation_code=nation_code)
    turn_number = viewer.turn.number if viewer.turn else viewer.campaign.turn_number
    zones, theatre = _zones(viewer.campaign)
    zone_at = {z.key: z for z in zones}
    port_rows, rows = ports_for_viewer(viewer, turn_number=turn_number)
    ports = [_map_port(p, row, theatre, zone_at) for p, row in zip(port_rows, rows, strict=True)]
    fleets = _friendly_fleets(viewer)
    report = report_for_nation(viewer.nation)
    contacts = contacts_for_viewer(viewer, report, port_rows)
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
        move=(
            map_move_for_player(user=user, slug=slug, nation_code=nation_code, fleet_id=fleet_id)
            if fleet_id is not None
            else None
        ),
    )


def map_for_gm(*, user: User, slug: str) -> MapView:
    """The whole map without fog of war, for a GM of the campaign (the desk): every port as it stands
    and every nation's fleets, one marker per nation and place; no contacts (nothing is guessed).
    Raises Http404 for a user who does not run the campaign, as every campaign page does."""
    viewer = viewer_for_player(user=user, slug=slug)
    if not viewer.is_gm:
        raise Http404("No such campaign.")
    turn_number = viewer.turn.number if viewer.turn else viewer.campaign.turn_number
    zones, theatre = _zones(viewer.campaign)
    zone_at = {z.key: z for z in zones}
    port_rows, rows = ports_for_viewer(viewer, turn_number=turn_number)
    ports = [_map_port(p, row, theatre, zone_at) for p, row in zip(port_rows, rows, strict=True)]
    fleets = _friendly_fleets(viewer, every_nation=True)
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
    "map_for_gm",
    "map_for_player",
    "markers",
    "placed",
]
