"""The campaign map as a nation sees it now: zones, ports, own and allied fleets, and the enemies its own
latest report tells of (RULES.md §3 "Fog of war"; see :mod:`campaign.pages.contacts`).

Own and allied fleets are read from the database; other nations' Fleet and Ship rows never are. How
the map is laid out and drawn is :mod:`campaign.pages.map_drawing`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db.models import Count, Q
from django.http import Http404
from django.template.defaultfilters import pluralize

from campaign.models import Campaign, Nation
from campaign.pages.contacts import Contact, contacts_for_viewer
from campaign.pages.labels import ZONE_TYPE_LABELS
from campaign.pages.map_drawing import FULL_VIEWBOX, ZoneLabel, edges, layout
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
    x: int
    y: int
    adjacent: tuple[str, ...]

    @property
    def type_label(self) -> str:
        return ZONE_TYPE_LABELS.get(self.type, self.type)


@dataclass(frozen=True)
class MapPort:
    key: str
    name: str
    zone_key: str
    x: int
    y: int
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
    x: int
    y: int
    color: str
    label: str
    title: str
    zone_key: str
    fleet_id: int | None  # the one own fleet it stands for: the marker links to it on the dashboard
    kind: str  # "own" | "ally" | "enemy" | "port"
    small: bool = False  # beside a port rather than a zone


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
    edges: list[tuple[int, int, int, int]]
    ports: list[MapPort]
    fleets: list[MapFleet]
    contacts: list[Contact]
    markers: list[Marker]
    report_turn: int | None
    selected: ZonePanel | None
    labels: list[ZoneLabel] = field(default_factory=list)
    viewbox: str = FULL_VIEWBOX

    def __post_init__(self) -> None:
        if not self.labels:
            self.labels, self.viewbox = layout(self.zones, self.ports, self.markers)

    @property
    def legend_nations(self) -> list[Nation]:
        owners = {p.owner_code for p in self.ports} | {f.nation_code for f in self.fleets}
        owners |= {c.nation_code for c in self.contacts}
        return [n for n in self.viewer.nations if n.code in owners]


def _single_own(group: Sequence[MapFleet]) -> int | None:
    return group[0].id if len(group) == 1 and group[0].own else None


def _own_first(by_nation: dict[str, list[MapFleet]]) -> list[list[MapFleet]]:
    """A place's fleets grouped by nation: own before allied, then by nation code."""
    return [group for _, group in sorted(by_nation.items(), key=lambda kv: (not kv[1][0].own, kv[0]))]


def _friendly_marker(
    group: Sequence[MapFleet], at: tuple[int, int], where: str, zone_key: str, *, in_port: bool
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
                        group, (zone.x + 12, zone.y - 14 + 13 * i), f"at sea in {zone.name}", zone_key, in_port=False
                    )
                )
    for port_key, by_nation in in_port.items():
        port = port_at.get(port_key)
        if port is not None:
            for i, group in enumerate(_own_first(by_nation)):
                markers.append(
                    _friendly_marker(
                        group, (port.x + 6, port.y - 4 + 11 * i), f"in {port.name}", port.zone_key, in_port=True
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


def _zones(campaign: Campaign) -> list[MapZone]:
    """The campaign's sea zones in key order with their neighbours (two queries)."""
    graph: dict[int, list[str]] = defaultdict(list)
    zone_rows = list(SeaZone.objects.filter(campaign=campaign).order_by("key"))
    keys = {z.pk: z.key for z in zone_rows}
    for a, b in SeaZone.adjacent.through.objects.filter(from_seazone__campaign=campaign).values_list(
        "from_seazone_id", "to_seazone_id"
    ):
        graph[a].append(keys[b])
    return [MapZone(z.key, z.name, z.type, z.x, z.y, tuple(sorted(set(graph[z.pk])))) for z in zone_rows]


def _map_port(port: Port, row: PortRow) -> MapPort:
    return MapPort(
        port.key,
        port.name,
        port.sea_zone.key,
        port.x,
        port.y,
        row.owner_code,
        row.owner_name,
        row.color,
        port.fortification,
        port.dockyard,
        port.siege_turns,
        row.besieger_names,  # shown to people: names, not codes
        row.blockader_names,
    )


def _friendly_fleets(viewer: Viewer) -> list[MapFleet]:
    """Own and allied fleets with ships afloat, by nation code and name (two queries)."""
    by_id = viewer.nations_by_id
    friendly_ids = [n.pk for n in viewer.nations if viewer.friendly(n.pk)]
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
                f.nation_id == viewer.nation.pk,
                f.sea_zone.key,
                f.port.key if f.port else "",
                f.port.name if f.port else "",
                f"{f.admiral.name} ({f.admiral.grade})" if f.admiral else "",
                ships,
                sol,
            )
        )
    return fleets


def map_for_player(*, user: User, slug: str, nation_code: str | None = None, zone_key: str | None = None) -> MapView:
    """The campaign map as the nation sees it now (fog of war as in the module docstring).

    ``zone_key`` selects a zone for the detail panel (Http404 if unknown). At most 13 queries plus
    one each for a report with contacts, one with battles, and ports the nation blockades.
    """
    viewer = viewer_for_player(user=user, slug=slug, nation_code=nation_code)
    turn_number = viewer.turn.number if viewer.turn else viewer.campaign.turn_number
    zones = _zones(viewer.campaign)
    port_rows, rows = ports_for_viewer(viewer, turn_number=turn_number)
    ports = [_map_port(p, row) for p, row in zip(port_rows, rows, strict=True)]
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
    )


__all__ = [
    "AFLOAT",
    "MapFleet",
    "MapPort",
    "MapView",
    "MapZone",
    "Marker",
    "ZonePanel",
    "map_for_player",
    "markers",
]
