"""What the map draws of orders: this turn's orders of the nation and its allies (moves as arrows along
their path, blockades, sallies, runs of the guns, fireship attacks), and a "last turn" layer with the
moves the nation saw and the battles of its report (RULES.md §3 "Fog of war").

Fog of war: this turn's orders are read only for the viewer's own and allied nations (the map shows
their fleets too); last turn's moves only for fleets the nation's own report placed at the end of the
movement phase (its own and allied, which is what the report tells), their starting places from the
last turn's opening record, and battles only from that report. Nothing else is read.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models.fields.json import KeyTransform
from django.urls import reverse

from campaign.models import Order, Turn
from campaign.pages.map.items import MapFleet, MapPort, MapZone
from campaign.pages.reports import ReportView
from campaign.viewer import Viewer
from rules.turn_events import BattleFought, FleetMoved

Point = tuple[float, float]

#: The order kinds the map draws, and the words of its legend.
DRAWN_KINDS = (Order.Kind.MOVE, Order.Kind.POSTURE, Order.Kind.SALLY, Order.Kind.RUN_GUNS, Order.Kind.FIRESHIPS)


@dataclass(frozen=True)
class OrderMark:
    """One order drawn: a line through ``points`` ending in an arrowhead (a ring for a blockade)."""

    kind: str  # "move" | "blockade" | "sally" | "run_guns" | "fireships"
    own: bool
    points: tuple[Point, ...]
    title: str
    fleet_id: int
    nation_code: str

    @property
    def path(self) -> str:
        return "M" + " L".join(f"{x} {y}" for x, y in self.points)

    @property
    def end(self) -> Point:
        return self.points[-1]

    @property
    def angle(self) -> float:
        """The direction of the last leg, in degrees (the arrowhead's rotation)."""
        (x1, y1), (x2, y2) = self.points[-2], self.points[-1]
        return round(math.degrees(math.atan2(y2 - y1, x2 - x1)), 1)


@dataclass(frozen=True)
class LastMove:
    points: tuple[Point, Point]
    title: str
    own: bool

    @property
    def path(self) -> str:
        (x1, y1), (x2, y2) = self.points
        return f"M{x1} {y1} L{x2} {y2}"

    @property
    def angle(self) -> float:
        (x1, y1), (x2, y2) = self.points
        return round(math.degrees(math.atan2(y2 - y1, x2 - x1)), 1)


@dataclass(frozen=True)
class BattleMark:
    x: float
    y: float
    title: str
    url: str


@dataclass(frozen=True)
class LastTurn:
    number: int
    moves: tuple[LastMove, ...]
    battles: tuple[BattleMark, ...]


class _Places:
    """Drawing positions of zones and ports by key."""

    def __init__(self, zones: Sequence[MapZone], ports: Sequence[MapPort]) -> None:
        self.zones = {z.key: z for z in zones}
        self.ports = {p.key: p for p in ports}

    def at(self, zone_key: str, port_key: str | None) -> Point | None:
        port = self.ports.get(port_key) if port_key else None
        if port is not None:
            return (port.x, port.y)
        zone = self.zones.get(zone_key)
        return (zone.x, zone.y) if zone is not None else None

    def name(self, zone_key: str, port_key: str | None) -> str:
        port = self.ports.get(port_key) if port_key else None
        if port is not None:
            return port.name
        zone = self.zones.get(zone_key)
        return zone.name if zone is not None else ""


def _move_points(places: _Places, fleet: MapFleet, steps: Sequence[Any]) -> tuple[list[Point], list[str]]:
    """The points a move's path passes through from the fleet's place, and the names of its steps."""
    zone, port = fleet.zone_key, fleet.port_key or None
    start = places.at(zone, port)
    points = [start] if start is not None else []
    names = []
    for step in steps:
        if not isinstance(step, str):
            continue
        if step == "sea":
            port = None
        elif step.startswith("port:"):
            port = step.removeprefix("port:")
        else:
            zone, port = step, None
        here = places.at(zone, port)
        if here is not None and (not points or points[-1] != here):
            points.append(here)
        names.append(places.name(zone, port))
    return points, names


_WORDS = {
    "blockade": "blockades",
    "run_guns": "runs the guns at",
    "fireships": "sends fireships at",
}


def _mark(order: Order, fleet: MapFleet, places: _Places) -> OrderMark | None:
    """The drawing of one order of a fleet the map shows, or None for an order with nothing to draw."""
    body = order.body if isinstance(order.body, dict) else {}
    start = places.at(fleet.zone_key, fleet.port_key or None)
    if start is None:
        return None
    who = f"{fleet.name} ({fleet.nation_name})"
    kind = order.kind
    if kind == Order.Kind.MOVE:
        points, names = _move_points(places, fleet, body.get("path") or [])
        title = f"{who} moves to {' → '.join(names)}"
    elif kind == Order.Kind.SALLY:
        zone = places.at(fleet.zone_key, None)
        points = [start, zone] if zone is not None else []
        title = f"{who} sallies from {fleet.port_name} against the blockaders"
    else:
        if kind == Order.Kind.POSTURE:
            if body.get("posture") != "blockade":
                return None
            kind = "blockade"
        port_key = body.get("port")
        port = places.ports.get(port_key) if isinstance(port_key, str) else None
        if port is None:
            return None
        points = [start, (port.x, port.y)]
        title = f"{who} {_WORDS[kind]} {port.name}"
    if len(points) < 2:
        return None
    return OrderMark(str(kind), fleet.own, tuple(points), title, fleet.id, fleet.nation_code)


def order_marks(
    viewer: Viewer, fleets: Sequence[MapFleet], zones: Sequence[MapZone], ports: Sequence[MapPort]
) -> list[OrderMark]:
    """This turn's orders of the viewer's nation and its allies for the fleets the map shows, own first
    (one query; none without an open turn)."""
    turn = viewer.turn
    if turn is None or not turn.is_open:
        return []
    fleet_at = {f.id: f for f in fleets}
    if not fleet_at:
        return []
    nation_ids = [n.pk for n in viewer.nations if viewer.friendly(n.pk)]
    rows = Order.objects.filter(
        turn_id=turn.id, nation_id__in=nation_ids, kind__in=DRAWN_KINDS, fleet_id__in=list(fleet_at)
    ).order_by("nation_id", "position")
    places = _Places(zones, ports)
    marks = []
    for order in rows:
        fleet = fleet_at.get(order.fleet_id) if order.fleet_id is not None else None
        mark = _mark(order, fleet, places) if fleet is not None else None
        if mark is not None:
            marks.append(mark)
    return sorted(marks, key=lambda m: not m.own)


def _start_places(campaign_id: int, number: int, fleet_ids: set[int]) -> dict[int, tuple[str, str | None]]:
    """Where fleets ``fleet_ids`` stood when turn ``number`` opened, from its opening record (only its
    fleets are read, not the whole record)."""
    if not fleet_ids:
        return {}
    rows = (
        Turn.objects.filter(campaign_id=campaign_id, number=number)
        .annotate(fleets=KeyTransform("fleets", "snapshot"))
        .values_list("fleets", flat=True)
        .first()
    )
    out: dict[int, tuple[str, str | None]] = {}
    for row in rows if isinstance(rows, list) else []:
        if isinstance(row, dict) and row.get("id") in fleet_ids and isinstance(row.get("sea_zone"), str):
            port = row.get("port")
            out[row["id"]] = (row["sea_zone"], port if isinstance(port, str) else None)
    return out


def last_turn(
    viewer: Viewer, report: ReportView | None, zones: Sequence[MapZone], ports: Sequence[MapPort]
) -> LastTurn | None:
    """The nation's last resolved turn as the map draws it: the moves its report tells of (from where
    each fleet stood when the turn opened to where the report places it) and its battles, each linking
    to the battle's page. None before the first report. One query for the starting places."""
    if report is None:
        return None
    places = _Places(zones, ports)
    moved = [e for e in report.events if isinstance(e, FleetMoved)]
    starts = _start_places(viewer.campaign.pk, report.turn_number, {e.fleet_id for e in moved})
    own_code = viewer.nation.code
    moves = []
    for e in moved:
        start = starts.get(e.fleet_id)
        a = places.at(*start) if start is not None else None
        b = places.at(e.zone_key, e.port_key)
        if a is None or b is None or a == b:
            continue
        assert start is not None  # a is placed only from a start
        name = e.fleet_name or "A fleet"
        title = f"Turn {report.turn_number}: {name} moved from {places.name(*start)}"
        title += f" to {places.name(e.zone_key, e.port_key)}"
        moves.append(LastMove((a, b), title, e.nation in ("", own_code)))
    battles = []
    seen: set[int] = set()
    for fought in report.events:
        if not isinstance(fought, BattleFought) or fought.battle_id in seen:
            continue
        seen.add(fought.battle_id)
        key = fought.place_key
        at = places.at(key, key) if key else None
        if at is None:
            continue
        where = fought.place_name or places.name(key, key)
        url = reverse("battles:detail", args=[viewer.campaign.slug, fought.battle_id])
        battles.append(BattleMark(at[0], at[1], f"Battle at {where}, turn {report.turn_number}: the report", url))
    return LastTurn(report.turn_number, tuple(moves), tuple(battles))


def order_titles(marks: Sequence[OrderMark]) -> Mapping[int, list[str]]:
    """The drawn orders' words by fleet id (the fleet's panel lists them)."""
    out: dict[int, list[str]] = {}
    for m in marks:
        out.setdefault(m.fleet_id, []).append(m.title)
    return out


__all__ = ["BattleMark", "LastMove", "LastTurn", "OrderMark", "last_turn", "order_marks", "order_titles"]
