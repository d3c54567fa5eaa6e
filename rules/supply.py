"""Supply of fleets and land units, and the sea-zone graph (RULES.md §8 "Supply"; §4 retreat).

Fleets: "in supply if (a) in an own or allied port, unless that port is both besieged and
blockaded against it; or (b) its zone is at most 2 adjacency steps from the zone of an own or
allied port that is not blockaded against it and is a supply point; or (c) it left an own or
allied port this turn or in one of the two previous turns."

Land units: "in an own or allied port they are in supply unless it is both besieged and blockaded
against its owner (starvation); besiegers are in supply unless the port is blockaded against them;
embarked units share their fleet's supply."

§2: an unpaid upkeep puts "all that nation's ships [...] out of supply until the end of the next
turn"; the caller names those nations.

§4 retreat default: "the first step towards its nearest own port; ties: lower zone key".

The caller decides the facts this module does not know: which ports are besieged, against whom
each port is blockaded (a storm-lifted blockade already removed), which ports are supply points
(§7: not taken this turn or last turn), who is allied with whom. Supply is decided once per turn,
in phase 7 after storms.

House resolutions (RULES.md wins over these):

* (a) is for fleets in port and (b), (c) for fleets at sea: ships in port are not in the zone
  (§4), so a fleet starving in a besieged and blockaded port is not fed from a port two zones away.
* (a) does not ask for a supply point: a fleet in its own port captured last turn is supplied
  there, as the garrison is; the settling port feeds no one at sea (b) until it is a supply point.
* A fleet in a port that is neither own nor allied (Treachery in Port, §7, the seed's "attacking
  units will be considered in supply while in port unless [...] blockade") is in supply unless the
  port is blockaded against it; so are land units ashore at such a port (besiegers, or guests left
  behind when an alliance or a war ended in peace).
* ``left_port_turn`` of (c) is compared in whole turns: in supply while
  ``turn − left_port_turn ≤ supply.left_port_turns``.

Pure Python: no Django, no I/O.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from rules.ruleset import Ruleset

#: Sea-zone adjacency: zone key → keys of the adjacent zones (both directions listed).
ZoneGraph = Mapping[str, Collection[str]]


# --- graph helpers -------------------------------------------------------------------------------


def graph_errors(graph: ZoneGraph) -> list[str]:
    """Everything wrong with an adjacency mapping: unknown neighbours, self-adjacency, one-way
    adjacency. Empty when the graph is sound."""
    errors = []
    for zone in sorted(graph):
        for other in sorted(graph[zone]):
            if other == zone:
                errors.append(f"{zone}: adjacent to itself")
            elif other not in graph:
                errors.append(f"{zone}: adjacent to unknown zone {other}")
            elif zone not in graph[other]:
                errors.append(f"{zone}: adjacent to {other}, but {other} is not adjacent to {zone}")
    return errors


def zone_distances(graph: ZoneGraph, sources: Iterable[str], max_steps: int | None = None) -> dict[str, int]:
    """Adjacency steps from the nearest of ``sources`` to every zone reachable within ``max_steps``
    (all reachable zones when None). Sources are at 0. Raises ``ValueError`` for an unknown source.
    """
    distances: dict[str, int] = {}
    queue: deque[str] = deque()
    for source in sorted(set(sources)):
        if source not in graph:
            raise ValueError(f"unknown zone {source}")
        distances[source] = 0
        queue.append(source)
    while queue:
        zone = queue.popleft()
        step = distances[zone] + 1
        if max_steps is not None and step > max_steps:
            continue
        for other in sorted(graph[zone]):
            if other not in distances:
                distances[other] = step
                queue.append(other)
    return distances


def graph_is_connected(graph: ZoneGraph) -> bool:
    """True when every zone can reach every other (an empty graph is connected)."""
    if not graph:
        return True
    return len(zone_distances(graph, [min(graph)])) == len(graph)


def retreat_step(graph: ZoneGraph, start: str, port_zones: Iterable[str]) -> str | None:
    """The default retreat: the adjacent zone nearest to any of ``port_zones`` (the zones of the
    nation's own ports), ties → lower zone key. With no own port reachable every neighbour ties, so
    the lowest key is taken. None only when ``start`` has no neighbour.

    A port in ``start`` itself (the battle zone) does not count (RULES.md §12.8: "the nearest own port
    outside the battle zone; the default never enters a port in the battle zone"): a player who wants
    it names it as retreat port."""
    if start not in graph:
        raise ValueError(f"unknown zone {start}")
    neighbours = sorted(graph[start])
    if not neighbours:
        return None
    distances = zone_distances(graph, [z for z in port_zones if z != start])
    unreachable = len(graph)  # farther than any real path
    return min(neighbours, key=lambda z: (distances.get(z, unreachable), z))


# --- supply --------------------------------------------------------------------------------------


class SupplyReason(StrEnum):
    """Why a fleet or land unit is, or is not, in supply."""

    IN_PORT = "in_port"  # (a), or a land unit in an own or allied port
    NEAR_PORT = "near_port"  # (b)
    LEFT_PORT = "left_port"  # (c)
    HOSTILE_PORT = "hostile_port"  # Treachery in Port: in a port that is not own or allied
    EMBARKED = "embarked"  # a land unit shares its fleet's supply
    STARVED = "starved"  # out: the port is besieged and blockaded
    BLOCKADED = "blockaded"  # out: in a hostile port blockaded against it
    UNPAID_UPKEEP = "unpaid_upkeep"  # out: §2
    OUT_OF_RANGE = "out_of_range"  # out: at sea, none of (b), (c)


@dataclass(frozen=True, slots=True)
class SupplyPort:
    """What supply needs to know about one port.

    ``blockaded_against``: codes of the nations it is blockaded against (§4), after any storm
    lift. ``supply_point``: not taken this turn or last turn (§7).
    """

    key: str
    zone: str
    owner: str
    besieged: bool = False
    blockaded_against: frozenset[str] = frozenset()
    supply_point: bool = True


@dataclass(frozen=True, slots=True)
class FleetPosition:
    """A fleet at phase 7: in ``port`` (a port key) or at sea in ``zone`` when ``port`` is None.

    ``left_port_turn``: the last turn it left an own or allied port (None if it never did; a
    merged fleet takes the oldest date, split fleets inherit — the caller's bookkeeping).
    """

    fleet_id: int
    nation: str
    zone: str
    port: str | None = None
    left_port_turn: int | None = None


@dataclass(frozen=True, slots=True)
class UnitPosition:
    """A land unit: ashore at or in ``port`` (garrison, guest or besieger), or aboard ``fleet_id``."""

    unit_id: int
    nation: str
    port: str | None = None
    fleet_id: int | None = None

    def __post_init__(self) -> None:
        if (self.port is None) == (self.fleet_id is None):
            raise ValueError(f"unit {self.unit_id}: give exactly one of port and fleet_id")


@dataclass(frozen=True, slots=True)
class Supply:
    """A verdict: ``in_supply``, the ``reason``, and the port it concerns, if any (the port in
    which it lies, or the supply point that feeds it)."""

    in_supply: bool
    reason: SupplyReason
    port: str | None = None


@dataclass(frozen=True, slots=True)
class SupplyContext:
    """The facts of one turn's supply decision, with per-nation distances cached.

    ``allies``: each nation's allies (a nation is always friendly to itself; missing nations
    have none). ``turn``: the current turn number, compared with ``left_port_turn``.
    ``unpaid_upkeep``: nations whose ships are out of supply for unpaid upkeep (§2).
    """

    graph: ZoneGraph
    ports: Mapping[str, SupplyPort]
    allies: Mapping[str, Collection[str]]
    turn: int
    ruleset: Ruleset
    unpaid_upkeep: Collection[str] = ()
    _reach: dict[str, dict[str, tuple[int, str]]] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def build(
        cls,
        *,
        graph: ZoneGraph,
        ports: Iterable[SupplyPort],
        allies: Mapping[str, Collection[str]],
        turn: int,
        ruleset: Ruleset,
        unpaid_upkeep: Collection[str] = (),
    ) -> SupplyContext:
        """Validate and index the inputs; raises ``ValueError`` for a port in an unknown zone or
        a port key given twice."""
        indexed: dict[str, SupplyPort] = {}
        for port in ports:
            if port.key in indexed:
                raise ValueError(f"port {port.key} given twice")
            if port.zone not in graph:
                raise ValueError(f"port {port.key}: unknown zone {port.zone}")
            indexed[port.key] = port
        return cls(
            graph=graph,
            ports=indexed,
            allies=allies,
            turn=turn,
            ruleset=ruleset,
            unpaid_upkeep=frozenset(unpaid_upkeep),
        )

    def friendly(self, nation: str, other: str) -> bool:
        """Own or allied."""
        return nation == other or other in self.allies.get(nation, ())

    def port(self, key: str) -> SupplyPort:
        try:
            return self.ports[key]
        except KeyError:
            raise ValueError(f"unknown port {key}") from None

    def supply_reach(self, nation: str) -> Mapping[str, tuple[int, str]]:
        """Zone → (steps, supplying port key) for every zone within ``supply.range_steps`` of a
        port that supplies ``nation`` under (b); the nearest port wins, ties → lower port key."""
        cached = self._reach.get(nation)
        if cached is not None:
            return cached
        limit = self.ruleset["supply.range_steps"]
        reach: dict[str, tuple[int, str]] = {}
        for key in sorted(self.ports):
            port = self.ports[key]
            if not (self.friendly(nation, port.owner) and port.supply_point and nation not in port.blockaded_against):
                continue
            for zone, steps in zone_distances(self.graph, [port.zone], limit).items():
                if zone not in reach or steps < reach[zone][0]:
                    reach[zone] = (steps, key)
        self._reach[nation] = reach
        return reach


def fleet_supply(fleet: FleetPosition, ctx: SupplyContext) -> Supply:
    """Whether ``fleet`` is in supply this turn, and why (rules and resolutions in the module
    docstring)."""
    if fleet.nation in ctx.unpaid_upkeep:
        return Supply(False, SupplyReason.UNPAID_UPKEEP)
    if fleet.port is not None:
        port = ctx.port(fleet.port)
        if not ctx.friendly(fleet.nation, port.owner):
            if fleet.nation in port.blockaded_against:
                return Supply(False, SupplyReason.BLOCKADED, port.key)
            return Supply(True, SupplyReason.HOSTILE_PORT, port.key)
        if port.besieged and fleet.nation in port.blockaded_against:
            return Supply(False, SupplyReason.STARVED, port.key)
        return Supply(True, SupplyReason.IN_PORT, port.key)
    if fleet.zone not in ctx.graph:
        raise ValueError(f"fleet {fleet.fleet_id}: unknown zone {fleet.zone}")
    near = ctx.supply_reach(fleet.nation).get(fleet.zone)
    if near is not None:
        return Supply(True, SupplyReason.NEAR_PORT, near[1])
    if fleet.left_port_turn is not None and ctx.turn - fleet.left_port_turn <= ctx.ruleset["supply.left_port_turns"]:
        return Supply(True, SupplyReason.LEFT_PORT)
    return Supply(False, SupplyReason.OUT_OF_RANGE)


def fleets_supply(fleets: Iterable[FleetPosition], ctx: SupplyContext) -> dict[int, Supply]:
    """:func:`fleet_supply` for many fleets, keyed by fleet id."""
    return {f.fleet_id: fleet_supply(f, ctx) for f in fleets}


def unit_supply(unit: UnitPosition, ctx: SupplyContext, fleets: Mapping[int, Supply]) -> Supply:
    """Whether a land unit is in supply; ``fleets`` holds this turn's fleet verdicts (for
    embarked units). Raises ``ValueError`` for an unknown port or fleet."""
    if unit.fleet_id is not None:
        verdict = fleets.get(unit.fleet_id)
        if verdict is None:
            raise ValueError(f"unit {unit.unit_id}: no supply verdict for fleet {unit.fleet_id}")
        return Supply(verdict.in_supply, SupplyReason.EMBARKED, verdict.port)
    assert unit.port is not None  # UnitPosition guarantees one of the two
    port = ctx.port(unit.port)
    if ctx.friendly(unit.nation, port.owner):
        if port.besieged and port.owner in port.blockaded_against:
            return Supply(False, SupplyReason.STARVED, port.key)
        return Supply(True, SupplyReason.IN_PORT, port.key)
    if unit.nation in port.blockaded_against:
        return Supply(False, SupplyReason.BLOCKADED, port.key)
    return Supply(True, SupplyReason.HOSTILE_PORT, port.key)


def units_supply(units: Iterable[UnitPosition], ctx: SupplyContext, fleets: Mapping[int, Supply]) -> dict[int, Supply]:
    """:func:`unit_supply` for many units, keyed by unit id."""
    return {u.unit_id: unit_supply(u, ctx, fleets) for u in units}


def out_of_supply_streak(previous: int, in_supply: bool) -> int:
    """Consecutive turns out of supply after this turn's verdict (attrition widens from the
    ``attrition.prolonged_from_turn``-th)."""
    return 0 if in_supply else previous + 1
