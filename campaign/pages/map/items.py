"""What a campaign map shows, read from the database: the sea zones with their neighbours, the ports,
and the fleets the viewer may see (own and allied; every nation's for the GM), each at its drawing
position — projected in the theatre when the places have coordinates, else at their abstract x/y.

Other nations' Fleet and Ship rows are never read here: the enemies a map shows come from the nation's
own reports (:mod:`campaign.pages.contacts`). Where the forces are drawn is
:mod:`campaign.pages.map.markers`; the page that puts it together is :mod:`campaign.pages.map.page`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, Q

from campaign.geo.theatre import THEATRES, Theatre
from campaign.models import Campaign
from campaign.pages.labels import ZONE_TYPE_LABELS
from campaign.pages.ports import PortRow
from campaign.viewer import Viewer
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


def map_zones(campaign: Campaign) -> tuple[list[MapZone], Theatre | None]:
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


def map_port(port: Port, row: PortRow, theatre: Theatre | None, zones: dict[str, MapZone]) -> MapPort:
    """A port as the map shows it, with its owner, siege and blockade as ``row`` tells them to the viewer."""
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


def friendly_fleets(viewer: Viewer, *, every_nation: bool = False) -> list[MapFleet]:
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
