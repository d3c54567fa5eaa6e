"""Read side of the API's map: sea zones with adjacency, and every port as the viewing nation sees it.

The map itself is known to every nation (zones, where they touch, ports and their zones). For each
port, the owner, forts, sieges and blockades are what RULES.md §3 lets every nation see, and are read
by :func:`campaign.pages.ports.ports_for_viewer`, the same rows as the web's map and ports pages; a
port's garrison and the ships inside it are not given. Every function starts from
:func:`campaign.viewer.viewer_for_player` (404 for a campaign the user has no part in, 403 for a player
asking for another nation).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from campaign.pages.ports import PortRow, ports_for_viewer
from campaign.viewer import User, viewer_for_player
from ports.models import Port, SeaZone


@dataclass(frozen=True)
class ZoneRow:
    key: str
    name: str
    type: str
    x: int
    y: int
    adjacent: list[str]
    ports: list[str]


@dataclass(frozen=True)
class PortView:
    port: Port
    row: PortRow


def zones_for_player(*, user: User, slug: str, nation_code: str | None = None) -> list[ZoneRow]:
    """Every sea zone of the campaign in key order, with the keys of its neighbours and of its ports."""
    viewer = viewer_for_player(user=user, slug=slug, nation_code=nation_code)
    zones = list(SeaZone.objects.filter(campaign=viewer.campaign).order_by("key"))
    key_of = {z.pk: z.key for z in zones}
    neighbours: dict[int, list[str]] = defaultdict(list)
    links = SeaZone.adjacent.through.objects.filter(from_seazone__campaign=viewer.campaign).values_list(
        "from_seazone_id", "to_seazone_id"
    )
    for from_id, to_id in links:
        neighbours[from_id].append(key_of[to_id])
    ports: dict[int, list[str]] = defaultdict(list)
    for zone_id, port_key in (
        Port.objects.filter(campaign=viewer.campaign).order_by("key").values_list("sea_zone_id", "key")
    ):
        ports[zone_id].append(port_key)
    return [ZoneRow(z.key, z.name, z.type, z.x, z.y, sorted(neighbours[z.pk]), ports[z.pk]) for z in zones]


def ports_for_player(*, user: User, slug: str, nation_code: str | None = None) -> list[PortView]:
    """Every port of the campaign in key order, as the viewer's nation sees it this turn."""
    viewer = viewer_for_player(user=user, slug=slug, nation_code=nation_code)
    turn_number = viewer.turn.number if viewer.turn else viewer.campaign.turn_number
    ports, rows = ports_for_viewer(viewer, turn_number=turn_number)
    return [PortView(port, row) for port, row in zip(ports, rows, strict=True)]
