"""Where a campaign map draws forces: one marker per nation and place — own and allied fleets at sea to
the right of their zone and in port beside the port, known enemies (from the nation's reports) to the
left of the zone — each with its nation's letters, its colour and a title saying what it stands for.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from django.template.defaultfilters import pluralize

from campaign.pages.contacts import Contact
from campaign.pages.map.items import MapFleet, MapPort, MapZone


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
    #: One of many forces in its zone: at the whole-map zoom a cluster stands for them all.
    clustered: bool = False

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
    dashboard when it stands for a single own fleet. Markers in a crowd (see :func:`clusters`) are
    marked ``clustered``."""
    found = _friendly_markers(zones, ports, fleets) + _enemy_markers(zones, ports, contacts)
    crowded = {i for group in _crowds(found) for i in group}
    return [replace(m, clustered=True) if i in crowded else m for i, m in enumerate(found)]


#: How many markers make a crowd, and how near (in map units, between the places they stand beside)
#: they must be: at the whole map a crowd is drawn as one cluster (the Channel's ports and zones).
CLUSTER_FROM = 3
CLUSTER_REACH = 40.0


def _crowds(found: Sequence[Marker]) -> list[list[int]]:
    """Groups (indices into ``found``) of CLUSTER_FROM or more markers whose places are chained within
    CLUSTER_REACH of each other, in the order of their first marker."""
    spots = [m.anchor or (m.x, m.y) for m in found]
    parent = list(range(len(found)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, (xi, yi) in enumerate(spots):
        for j in range(i):
            xj, yj = spots[j]
            if abs(xi - xj) <= CLUSTER_REACH and abs(yi - yj) <= CLUSTER_REACH:
                parent[root(i)] = root(j)
    groups: dict[int, list[int]] = defaultdict(list)
    for i in range(len(found)):
        groups[root(i)].append(i)
    return [g for g in sorted(groups.values()) if len(g) >= CLUSTER_FROM]


@dataclass(frozen=True)
class Cluster:
    """A crowd of forces drawn as one marker at the whole map; tapping it zooms in on them."""

    x: float
    y: float
    count: int
    title: str

    @property
    def text(self) -> str:
        return f"{self.count} forces"

    @property
    def width(self) -> float:
        return round(len(self.text) * 5.0 + 5, 1)


def clusters(zones: Sequence[MapZone], found: Sequence[Marker]) -> list[Cluster]:
    """One cluster per crowd of ``clustered`` markers, at the middle of their places, its title naming
    every force in it. ``zones`` name where the crowd is (the zone nearest its middle)."""
    out = []
    members = [m for m in found if m.clustered]
    for group in _crowds(members):
        crowd = [members[i] for i in group]
        spots = [m.anchor or (m.x, m.y) for m in crowd]
        x = round(sum(p[0] for p in spots) / len(spots), 1)
        y = round(sum(p[1] for p in spots) / len(spots), 1)
        near = min(zones, key=lambda z: (z.x - x) ** 2 + (z.y - y) ** 2, default=None)
        where = f"Around {near.name}: " if near is not None else ""
        what = "; ".join(m.title for m in crowd)
        out.append(Cluster(x, y, len(crowd), f"{where}{what} — tap to zoom in on them"))
    return out
