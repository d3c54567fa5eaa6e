"""Turn history: the list of resolved turns, and one past turn as the nation saw it — its report, the battles
it fought or saw, and the map as the turn left it with that turn's fog of war (RULES.md §3).

A past turn's map is drawn from the next turn's opening snapshot (the export, CONTRACT.md keys), not
from today's rows, and with the relations of that moment.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from django.http import Http404

from battles.models import Battle
from battles.report_view.sides import side_label
from campaign.geo.theatre import THEATRES, Theatre
from campaign.models import Campaign, Nation, Order, Relation, Turn, TurnReport
from campaign.pages.contacts import Contact, contacts_from_events
from campaign.pages.map.drawing import edges
from campaign.pages.map.items import AFLOAT, MapFleet, MapPort, MapZone, placed
from campaign.pages.map.markers import markers
from campaign.pages.map.page import MapView
from campaign.pages.paging import page_of
from campaign.pages.report_summary import battle_facts, report_summary
from campaign.pages.reports import ReportView, battle_sides_by_id, report_for_nation, season_labels
from campaign.viewer import User, Viewer, nation_labels, viewer_for_player
from fleets.models import Blockade
from ports.models import LandUnit
from rules.ruleset import SOL_CLASSES
from rules.turn_events import BattleFought, SideCaptured, counted, report_events

TURNS_PAGE_SIZE = 20
#: The parts of a snapshot (the whole export) that a past turn's map needs.
SNAPSHOT_KEYS = ("sea_zones", "ports", "fleets", "ships", "relations", "land_units")


@dataclass(frozen=True)
class BattleRow:
    id: int
    kind: str
    place: str
    sides: str
    winner: str
    fought: bool


@dataclass
class TurnHistory:
    viewer: Viewer
    number: int
    season: str
    year: int
    report: ReportView | None
    battles: list[BattleRow]
    map: MapView | None
    previous: int | None
    next: int | None
    #: Own fleets, then allied ones, where the turn left them: "Brest Fleet (19 ships): in Brest".
    positions: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class TurnRow:
    number: int
    season: str
    year: int
    resolved_at: datetime | None
    #: The turn's news for the nation in one line (its report's summary headline).
    headline: str


@dataclass
class TurnList:
    viewer: Viewer
    turns: list[TurnRow]
    page: int
    has_next: bool


class _Relations:
    """The relations of a snapshot, as the viewer's nation stood then."""

    def __init__(self, snapshot: Mapping[str, Any], me: str) -> None:
        self.states = {frozenset((r["a"], r["b"])): r["state"] for r in snapshot.get("relations") or []}
        self.me = me

    def friendly(self, code: str) -> bool:
        return code == self.me or self.states.get(frozenset((self.me, code))) == Relation.State.ALLIANCE

    def at_war(self, a: str, b: str) -> bool:
        return self.states.get(frozenset((a, b))) == Relation.State.WAR


def _name(nations: Mapping[str, Nation], code: str) -> str:
    nation = nations.get(code)
    return nation.name if nation is not None else code


def _snapshot_ports(
    snapshot: Mapping[str, Any],
    nations: Mapping[str, Nation],
    relations: _Relations,
    blockade_rows: list[tuple[str, str, bool]],
) -> list[MapPort]:
    """The snapshot's ports with their owners, and the besiegers and blockaders at war with them then."""
    besiegers: dict[str, set[str]] = defaultdict(set)
    owner_of = {p["key"]: p.get("owner") for p in snapshot.get("ports") or []}
    for unit in snapshot.get("land_units") or []:
        port = unit.get("port")
        if (
            unit.get("state") == LandUnit.State.ASHORE
            and port in owner_of
            and relations.at_war(unit["nation"], owner_of[port] or "")
        ):
            besiegers[port].add(unit["nation"])
    blockaders: dict[str, set[str]] = defaultdict(set)
    for port_key, code, lifted in blockade_rows:
        if not lifted and relations.at_war(code, owner_of.get(port_key) or ""):
            blockaders[port_key].add(code)
    ports = []
    for p in snapshot.get("ports") or []:
        owner = nations.get(p.get("owner") or "")
        ports.append(
            MapPort(
                p["key"],
                p["name"],
                p["sea_zone"],
                int(p.get("x", 0)),
                int(p.get("y", 0)),
                owner.code if owner else "?",
                owner.name if owner else "?",
                owner.color if owner else "#777777",
                int(p.get("fortification", 0)),
                bool(p.get("dockyard")),
                int(p.get("siege_turns") or 0),
                # The map shows them to people: names, not codes.
                tuple(_name(nations, c) for c in sorted(besiegers[p["key"]])),
                tuple(_name(nations, c) for c in sorted(blockaders[p["key"]])),
            )
        )
    return ports


def _snapshot_fleets(
    snapshot: Mapping[str, Any], nations: Mapping[str, Nation], relations: _Relations, port_names: Mapping[str, str]
) -> list[MapFleet]:
    """The snapshot's own and allied fleets (by the relations then) that had ships afloat."""
    ship_counts: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for s in snapshot.get("ships") or []:
        if s.get("condition") in AFLOAT and s.get("fleet") is not None:
            ship_counts[s["fleet"]][0] += 1
            ship_counts[s["fleet"]][1] += s.get("class") in SOL_CLASSES
    fleets = []
    for f in snapshot.get("fleets") or []:
        code = f.get("nation", "")
        nation = nations.get(code)
        ships, sol = ship_counts.get(f["id"], [0, 0])
        if nation is None or not relations.friendly(code) or ships == 0:
            continue
        admiral = f.get("admiral")
        fleets.append(
            MapFleet(
                f["id"],
                f["name"],
                code,
                nation.name,
                nation.color,
                code == relations.me,
                f["sea_zone"],
                f.get("port") or "",
                port_names.get(f.get("port") or "", ""),
                f"{admiral['name']} ({admiral['grade']})" if isinstance(admiral, Mapping) else "",
                ships,
                sol,
            )
        )
    return fleets


def snapshot_map(
    viewer: Viewer, snapshot: Mapping[str, Any], contacts: list[Contact], blockade_rows: list[tuple[str, str, bool]]
) -> MapView:
    """The map drawn from a stored export (CONTRACT.md keys) with the fog of war of that moment:
    own and allied fleets by the relations then, enemies only as ``contacts``; ``blockade_rows`` are
    the turn's blockades as (port key, blockader's nation code, lifted)."""
    rows = snapshot.get("sea_zones") or []
    # Snapshots taken since places have coordinates are drawn on the real map, older ones as before.
    theatre = THEATRES["europe"] if rows and all(z.get("lon") is not None for z in rows) else None
    zones = []
    for z in rows:
        x, y = placed(theatre, z.get("lon"), z.get("lat"), (int(z.get("x", 0)), int(z.get("y", 0))))
        zones.append(MapZone(z["key"], z["name"], z.get("type", ""), x, y, tuple(z.get("adjacent", []))))
    nations = {n.code: n for n in viewer.nations}
    relations = _Relations(snapshot, viewer.nation.code)
    zone_at = {z.key: z for z in zones}
    ports = [
        replace(p, x=x, y=y)
        for p, (x, y) in (
            (p, _snapshot_port_spot(p, raw, theatre, zone_at))
            for p, raw in zip(
                _snapshot_ports(snapshot, nations, relations, blockade_rows), snapshot.get("ports") or [], strict=True
            )
        )
    ]
    fleets = _snapshot_fleets(snapshot, nations, relations, {p.key: p.name for p in ports})
    return MapView(
        viewer=viewer,
        zones=zones,
        edges=edges(zones),
        ports=ports,
        fleets=fleets,
        contacts=contacts,
        markers=markers(zones, ports, fleets, contacts),
        report_turn=None,
        selected=None,
        theatre=theatre,
    )


def _snapshot_port_spot(
    port: MapPort, raw: Mapping[str, Any], theatre: Theatre | None, zones: Mapping[str, MapZone]
) -> tuple[float, float]:
    zone = zones.get(port.zone_key)
    fallback = (zone.x + 6, zone.y + 6) if theatre is not None and zone is not None else (port.x, port.y)
    return placed(theatre, raw.get("lon"), raw.get("lat"), fallback)


def _battles_seen(
    viewer: Viewer, turn: Turn, report: ReportView | None
) -> tuple[list[BattleRow], dict[int, list[Any]]]:
    """The turn's battles the nation fought, an ally fought, or its report names (one query), and the
    ``sides`` of those battles by id."""
    code = viewer.nation.code
    battle_rows = list(
        Battle.objects.filter(turn=turn)
        .order_by("id")
        .values_list("pk", "kind", "place", "sides", "winner", "sea_zone__name", "port__name")
    )
    seen = set(report.battle_ids if report else [])
    friendly = viewer.friendly_codes
    battles = []
    kinds = dict(Battle.Kind.choices)
    nation_names = {n.code: n.name for n in viewer.nations}
    sides_by_id: dict[int, list[Any]] = {}
    for pk, kind, _place, sides, winner, zone_name, port_name in battle_rows:
        sides = sides if isinstance(sides, list) else []
        in_it = {c for s in sides if isinstance(s, Mapping) for c in s.get("nations") or [] if isinstance(c, str)}
        fought = code in in_it
        if not fought and not (in_it & friendly) and pk not in seen:
            continue
        sides_by_id[pk] = sides
        names = [side_label(s, nation_names, k) for k, s in enumerate(sides) if isinstance(s, Mapping)]
        won = names[winner] if winner is not None and 0 <= winner < len(names) else "no winner"
        battles.append(
            BattleRow(pk, kinds.get(kind, kind), port_name or zone_name, " against ".join(names), won, fought)
        )
    return battles, sides_by_id


def _history_map(
    viewer: Viewer, number: int, report: ReportView | None, sides_by_id: dict[int, list[Any]]
) -> MapView | None:
    """The map as turn ``number`` left it (the next turn's opening snapshot), with the enemies the
    nation's report of that turn tells of; None before the next turn has opened."""
    campaign: Campaign = viewer.campaign
    parts = (
        Turn.objects.filter(campaign=campaign, number=number + 1)
        .values_list(*(f"snapshot__{k}" for k in SNAPSHOT_KEYS))
        .first()
    )
    if parts is None or not parts[0]:
        return None
    snapshot = dict(zip(SNAPSHOT_KEYS, parts, strict=True))
    contacts: list[Contact] = []
    if report is not None:
        contacts = contacts_from_events(
            report.events,
            viewer_code=viewer.nation.code,
            friendly_codes=viewer.friendly_codes,
            nations=nation_labels(viewer),
            zones={z["key"]: z["name"] for z in snapshot["sea_zones"] or []},
            port_zones={p["key"]: p["sea_zone"] for p in snapshot["ports"] or []},
            port_names={p["key"]: p["name"] for p in snapshot["ports"] or []},
            battle_sides={
                **battle_sides_by_id([b for b in report.battle_ids if b not in sides_by_id], campaign),
                **sides_by_id,
            },
        )
    blockade_rows = list(
        Blockade.objects.filter(campaign=campaign, turn=number).values_list(
            "port__key", "fleet__nation__code", "lifted"
        )
    )
    return snapshot_map(viewer, snapshot, contacts, blockade_rows)


def turn_history_for_player(*, user: User, slug: str, number: int, nation_code: str | None = None) -> TurnHistory:
    """A past turn as the nation saw it: its report, the battles it fought or saw, and the map as the
    turn left it (the next turn's opening snapshot) with that turn's fog of war.

    Http404 for a turn that does not exist or is not resolved yet. Only the parts of the snapshot
    the map needs are read (a snapshot holds the whole export).
    """
    viewer = viewer_for_player(user=user, slug=slug, nation_code=nation_code)
    campaign = viewer.campaign
    turn = (
        Turn.objects.filter(campaign=campaign, number=number, status=Turn.Status.RESOLVED)
        .defer("snapshot", "dice_log")  # the page shows the next turn's snapshot, read in parts below
        .first()
    )
    if turn is None:
        raise Http404("That turn has not been resolved.")
    report = report_for_nation(viewer.nation, number=number)
    battles, sides_by_id = _battles_seen(viewer, turn, report)
    history_map = _history_map(viewer, number, report, sides_by_id)
    numbers = list(
        Turn.objects.filter(
            campaign=campaign, status=Turn.Status.RESOLVED, number__in=[number - 1, number + 1]
        ).values_list("number", flat=True)
    )
    return TurnHistory(
        viewer=viewer,
        number=number,
        season=turn.get_season_display(),
        year=turn.year,
        report=report,
        battles=battles,
        map=history_map,
        previous=number - 1 if number - 1 in numbers else None,
        next=number + 1 if number + 1 in numbers else None,
        positions=_positions(history_map),
    )


def _positions(history_map: MapView | None) -> list[str]:
    """Where the own fleets, then the allied ones, were when the turn ended (from its map)."""
    if history_map is None:
        return []
    zones = {z.key: z.name for z in history_map.zones}
    fleets = sorted(history_map.fleets, key=lambda f: (not f.own, f.nation_name, f.name))
    out = []
    for f in fleets:
        where = f"in {f.port_name}" if f.port_key else f"at sea in {zones.get(f.zone_key, f.zone_key)}"
        whose = "" if f.own else f", {f.nation_name}"
        out.append(f"{f.name} ({counted(f.ships, 'ship')}{whose}): {where}")
    return out


def turns_for_player(*, user: User, slug: str, nation_code: str | None = None, page: int = 1) -> TurnList:
    """The resolved turns, newest first, paginated (two queries after the viewer's three)."""
    viewer = viewer_for_player(user=user, slug=slug, nation_code=nation_code)
    rows, page, has_next = page_of(
        Turn.objects.filter(campaign=viewer.campaign, status=Turn.Status.RESOLVED)
        .order_by("-number")
        .values_list("number", "season", "year", "resolved_at"),
        page=page,
        size=TURNS_PAGE_SIZE,
    )
    seasons = season_labels()
    events_of = {
        number: report_events(body)
        for number, body in TurnReport.objects.filter(
            nation=viewer.nation, turn__number__in=[r[0] for r in rows]
        ).values_list("turn__number", "body")
    }
    every = [e for events in events_of.values() for e in events]
    battles, engagements = battle_facts(
        (e.battle_id for e in every if isinstance(e, BattleFought)),
        (e.engagement_id for e in every if isinstance(e, SideCaptured) and e.engagement_id is not None),
    )
    labels = {str(k): str(v).lower() for k, v in Order.Kind.choices}
    headlines = {
        number: report_summary(
            events, nation_code=viewer.nation.code, battles=battles, engagements=engagements, kind_labels=labels
        ).headline
        for number, events in events_of.items()
    }
    turns = [
        TurnRow(n, str(seasons.get(s, s)), y, at, headlines.get(n, "No report was stored")) for n, s, y, at in rows
    ]
    return TurnList(viewer, turns, page, has_next)


__all__ = [
    "SNAPSHOT_KEYS",
    "TURNS_PAGE_SIZE",
    "BattleRow",
    "TurnHistory",
    "TurnList",
    "TurnRow",
    "snapshot_map",
    "turn_history_for_player",
    "turns_for_player",
]
