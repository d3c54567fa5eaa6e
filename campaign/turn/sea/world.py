"""The sea as phase 3 sees it (RULES.md §4): every fleet loaded once into a :class:`SeaWorld` of
:class:`Mover` s, moved in memory and saved at the end; the sides (:class:`Party`) of a contact and the
engagements (:class:`EngagementPlan`) it leaves for phase 4. The rules phase 3 follows are in
:mod:`campaign.turn.sea`."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from battles.engagements import FleetRank, ship_line_key, side_order, sol_count
from campaign.models import Nation, Order
from campaign.orders.board import Board
from campaign.selectors import Diplomacy, diplomacy_for_campaign
from campaign.turn.context import PhaseContext
from fleets.models import Admiral, Fleet, Ship
from ports.models import Port, SeaZone

SEA = "sea"
PORT_PREFIX = "port:"


@dataclass
class Mover:
    """One fleet during phase 3: the model (moved in memory, saved at the end) and its ships."""

    fleet: Fleet
    ships: list[Ship]
    start_port_id: int | None
    order: Order | None = None
    path: list[str] = field(default_factory=list)
    sailed: list[str] = field(default_factory=list)
    left_port: bool = False
    port_step: int = 0
    entered_port: bool = False
    engaged: bool = False
    halted: bool = False
    #: Where the fleet stood when loaded (zone, port, left_port_turn): the end of the phase writes
    #: only the fleets that moved.
    loaded: tuple[int, int | None, int | None] = field(init=False)

    def __post_init__(self) -> None:
        self.loaded = self.place

    @property
    def place(self) -> tuple[int, int | None, int | None]:
        return (self.fleet.sea_zone_id, self.fleet.port_id, self.fleet.left_port_turn)

    @property
    def seeks(self) -> bool:
        """§4 posture: seek, or blockade (counts as seek); a fleet of transports only never seeks."""
        return self.fleet.posture in (Fleet.Posture.SEEK, Fleet.Posture.BLOCKADE) and any(
            s.ship_class != "transport" for s in self.ships
        )

    @property
    def sol(self) -> int:
        return sol_count(self.ships)

    def at_sea_in(self, zone_id: int, step: int) -> bool:
        """At sea in the zone for the contacts of ``step`` (a fleet entering a port there this step is)."""
        if self.fleet.sea_zone_id != zone_id or not self.ships:
            return False
        return self.fleet.port_id is None or (self.entered_port and self.port_step == step)


@dataclass
class Party:
    """One side of a contact or of a planned engagement: its nations and fleets, lead fleet first."""

    nations: list[int]
    movers: list[Mover]
    in_port: bool = False

    @property
    def lead(self) -> Mover:
        return self.movers[0]

    @property
    def ships(self) -> list[Ship]:
        return [s for m in self.movers for s in m.ships]

    @property
    def seeks(self) -> bool:
        return any(m.seeks for m in self.movers)


@dataclass
class EngagementPlan:
    """An engagement to record for phase 4 (see :class:`~battles.models.Engagement`)."""

    kind: str
    zone: SeaZone
    parties: list[Party]
    step: int = 0
    port: Port | None = None
    interceptor: int | None = None
    sighted: tuple[bool | None, bool | None] = (None, None)
    context: dict[str, Any] = field(default_factory=dict)


@dataclass
class SeaWorld:
    """Everything phase 3 reads, loaded once: zones and their graph, ports, nations, relations,
    admirals and every fleet with its afloat ships (in line order)."""

    ctx: PhaseContext
    zones: dict[int, SeaZone]
    zones_by_key: dict[str, SeaZone]
    graph: dict[str, set[str]]
    ports: dict[int, Port]
    ports_by_key: dict[str, Port]
    nations: dict[int, Nation]
    diplomacy: Diplomacy
    admirals: dict[int, Admiral]
    movers: dict[int, Mover]
    board: Board
    plans: list[EngagementPlan] = field(default_factory=list)
    out: set[tuple[int, int]] = field(default_factory=set)

    def code(self, nation_id: int) -> str:
        return self.nations[nation_id].code

    def friendly(self, a: int, b: int) -> bool:
        return self.diplomacy.allied(a, b)

    def own_port_zones(self, nation_id: int) -> list[str]:
        return sorted({self.zones[p.sea_zone_id].key for p in self.ports.values() if p.owner_id == nation_id})

    def admiral_grade(self, fleet: Fleet) -> str | None:
        admiral = self.admirals.get(fleet.admiral_id) if fleet.admiral_id is not None else None
        return admiral.grade if admiral is not None else None

    def party(self, movers: Iterable[Mover], *, in_port: bool = False) -> Party:
        """The movers as a side: lead fleet first, then by descending SOL (§4)."""
        listed = list(movers)
        by_id = {m.fleet.pk: m for m in listed}
        order = side_order(FleetRank(m.fleet.pk, m.sol, self.admiral_grade(m.fleet)) for m in listed)
        nations = sorted({m.fleet.nation_id for m in listed}, key=self.code)
        return Party(nations, [by_id[i] for i in order], in_port)

    def lead_code(self, party: Party) -> str:
        return self.code(party.lead.fleet.nation_id)

    def label(self, party: Party) -> str:
        return "/".join(self.code(n) for n in party.nations)

    def words(self, party: Party) -> str:
        """The party as the reports' texts name it: its nations' names ("France & Spain")."""
        return " & ".join(self.nations[n].name for n in party.nations)

    def codes(self, party: Party) -> list[str]:
        return [self.code(n) for n in party.nations]

    def friends_of(self, nation_id: int) -> list[str]:
        """The nation and its allies: who sees its forces (§3 fog of war)."""
        return sorted(self.code(n) for n in self.nations if self.friendly(nation_id, n))


def sea_world_load(ctx: PhaseContext) -> SeaWorld:
    campaign = ctx.campaign
    zones = {z.pk: z for z in SeaZone.objects.filter(campaign=campaign)}
    graph: dict[str, set[str]] = {z.key: set() for z in zones.values()}
    adjacency: dict[int, set[int]] = {pk: set() for pk in zones}
    through = SeaZone.adjacent.through.objects.filter(from_seazone__campaign=campaign)
    for a, b in through.values_list("from_seazone_id", "to_seazone_id"):
        graph[zones[a].key].add(zones[b].key)
        graph[zones[b].key].add(zones[a].key)
        adjacency[a].add(b)
        adjacency[b].add(a)
    ports = {p.pk: p for p in Port.objects.filter(campaign=campaign)}
    nations = {n.pk: n for n in Nation.objects.filter(campaign=campaign)}
    admirals = {a.pk: a for a in Admiral.objects.filter(campaign=campaign, status=Admiral.Status.ACTIVE)}
    key = ship_line_key(ctx.ruleset)
    ships: dict[int, list[Ship]] = defaultdict(list)
    rows = Ship.objects.filter(campaign=campaign, condition__in=Ship.AFLOAT, fleet__isnull=False)
    for ship in sorted(rows, key=key):
        assert ship.fleet_id is not None
        ships[ship.fleet_id].append(ship)
    movers = {
        f.pk: Mover(f, ships.get(f.pk, []), f.port_id) for f in Fleet.objects.filter(campaign=campaign).order_by("id")
    }
    diplomacy = diplomacy_for_campaign(campaign_id=campaign.pk)
    return SeaWorld(
        ctx=ctx,
        zones=zones,
        zones_by_key={z.key: z for z in zones.values()},
        graph=graph,
        ports=ports,
        ports_by_key={p.key: p for p in ports.values()},
        nations=nations,
        diplomacy=diplomacy,
        admirals=admirals,
        movers=movers,
        # The order check's board over the rows read here: a step is legal by the same check (§4).
        board=Board.preloaded(
            campaign.pk,
            nations=nations.values(),
            diplomacy=diplomacy,
            zones=zones.values(),
            ports=ports.values(),
            adjacency=adjacency,
        ),
    )


@dataclass
class MoveNote:
    """What became of one move order: ``skipped`` (nothing could be done) or a note for ``done``."""

    order: Order
    skipped: bool
    note: str
    #: The report's ``order_carried_out`` / ``order_skipped`` code (a refusal code when skipped).
    code: str = "carried_out"


def fleet_place_name(world: SeaWorld, fleet: Fleet) -> str:
    if fleet.port_id is not None:
        return f"in {world.ports[fleet.port_id].name}"
    return f"at sea in {world.zones[fleet.sea_zone_id].name}"


def steps_named(world: SeaWorld, tokens: Sequence[str], sep: str = ", ") -> str:
    """A path's steps for players: zone and port names, "out to sea" (never the keys of the order)."""

    def named(token: str) -> str:
        if token == SEA:
            return "out to sea"
        if token.startswith(PORT_PREFIX):
            port = world.ports_by_key.get(token.removeprefix(PORT_PREFIX))
            return f"into {port.name}" if port is not None else token
        zone = world.zones_by_key.get(token)
        return zone.name if zone is not None else token

    return sep.join(named(t) for t in tokens)
