"""Read side of the order pages: who may enter orders for which nation, and what is legal to choose.

The order forms (``campaign.orders.forms``) narrow their choices to what the rules allow now (RULES.md
§1–§10): reachable zones and enterable ports for a move, dockyard ports and affordable classes within
quota for a lay-down, the nation's own fleets, ships and admirals, nations for each diplomatic order by
the current relation. The server still decides: every submission goes through ``campaign.orders.validator``.

Permissions live here, not in templates: a player enters orders only for the nation they command; a
GM (owner, co-GM or superuser: campaign.permissions) for any nation of the campaign. Everything is
loaded lazily, in a fixed number of queries whatever the number of ships.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count
from django.http import Http404

from campaign.models import Campaign, Nation, Order, Relation, Turn
from campaign.orders.board import Board, max_steps
from campaign.orders.errors import CheckFailed, RefusalCode
from campaign.orders.in_port import repair_check
from campaign.orders.schema import DIPLOMACY_FROM, RAISE_COST_KEY
from campaign.orders.selectors import orders_committed_ep, orders_for_turn
from campaign.viewer import Viewer, viewer_for_player
from fleets.models import Admiral, Fleet, Ship
from fleets.selectors import navy_counts
from ports.models import LandUnit, Port, SeaZone
from rules.construction import ConstructionRefused, NavyCounts, check_limits, period_label
from rules.ruleset import SHIP_CLASSES, Ruleset

User = AbstractBaseUser | AnonymousUser

#: :meth:`OrderChoices.repair_refusal` of a ship that is neither damaged nor disabled.
NOT_DAMAGED = "not damaged"


@dataclass(frozen=True)
class OrderDesk:
    """The nation whose orders are shown, the open turn if any, and the viewer behind it (the same
    permission check and page header as the players' other campaign pages)."""

    viewer: Viewer
    turn: Turn | None

    @property
    def campaign(self) -> Campaign:
        return self.viewer.campaign

    @property
    def nation(self) -> Nation:
        return self.viewer.nation

    @property
    def is_gm(self) -> bool:
        return self.viewer.is_gm

    @property
    def nations(self) -> Sequence[Nation]:
        return self.viewer.pickable

    @property
    def open(self) -> bool:
        return self.turn is not None and self.campaign.status != Campaign.Status.ENDED


def order_desk_for_player(*, user: User, slug: str, nation_code: str | None = None) -> OrderDesk:
    """The order desk ``user`` may use in campaign ``slug``
    (:func:`campaign.viewer.viewer_for_player` decides who looks through which nation).

    A player gets their own nation; asking for another nation's code is refused (403). A GM gets the
    nation named by ``nation_code`` (default: their own, else the first by code). Anyone else: 404,
    as for a campaign that does not exist (its existence is the group's business).
    """
    viewer = viewer_for_player(user=user, slug=slug, nation_code=nation_code)
    turn = None
    if viewer.turn is not None and viewer.turn.is_open:
        # The snapshot is the campaign's whole export: never read it for a page.
        turn = Turn.objects.defer("snapshot", "dice_log").filter(pk=viewer.turn.id, status=Turn.Status.OPEN).first()
    return OrderDesk(viewer, turn)


def order_for_player(*, desk: OrderDesk, order_id: int) -> Order:
    """An order of the desk's nation in the open turn; 404 for anything else (another nation's order
    is refused exactly like one that does not exist)."""
    if desk.turn is None:
        raise Http404("No open turn.")
    order = Order.objects.filter(pk=order_id, turn=desk.turn, nation=desk.nation).select_related("fleet").first()
    if order is None:
        raise Http404("No such order.")
    return order


def order_turn_number(*, desk: OrderDesk, order_id: int) -> int | None:
    """The number of the turn an order of the desk's nation belongs to, whatever its status (None: no
    such order of the nation): an old page's edit or withdraw names it rather than a bare 404."""
    return Order.objects.filter(pk=order_id, nation=desk.nation).values_list("turn__number", flat=True).first()


# --- what may be chosen -----------------------------------------------------------------------------


@dataclass(frozen=True)
class PathChoice:
    """A legal move path from a fleet's place: ``value`` is the steps joined by "|"."""

    steps: tuple[str, ...]
    label: str

    @property
    def value(self) -> str:
        return "|".join(self.steps)


@dataclass
class FleetPlace:
    fleet: Fleet
    zone: SeaZone
    port: Port | None
    ships: list[Ship]

    @property
    def where(self) -> str:
        return f"in {self.port.name}" if self.port is not None else f"at sea in {self.zone.name}"

    @property
    def label(self) -> str:
        n = len(self.ships)
        admiral = f", {self.fleet.admiral.name}" if self.fleet.admiral is not None else ""
        return f"{self.fleet.name} ({n} ship{'s' if n != 1 else ''}{admiral}) — {self.where}"


@dataclass(frozen=True)
class ClassStatus:
    """A ship class for a lay-down: its cost and whether it may be laid down now, and why not."""

    cls: str
    label: str
    cost: int
    build_turns: int
    allowed: bool
    reason: str


class OrderChoices:
    """Everything the order forms offer for one nation in one turn (lazy; read-only)."""

    def __init__(self, *, desk: OrderDesk) -> None:
        if desk.turn is None:
            raise ValueError("order choices need an open turn")
        self.desk = desk
        self.campaign = desk.campaign
        self.nation = desk.nation
        self.turn: Turn = desk.turn
        # The viewer has read the nations and relations already: the board reuses them.
        self.board = Board.preloaded(self.campaign.pk, nations=desk.viewer.nations, diplomacy=desk.viewer.diplomacy)

    # -- basics ---------------------------------------------------------------------------------------
    @cached_property
    def ruleset(self) -> Ruleset:
        return self.campaign.ruleset

    @cached_property
    def orders(self) -> list[Order]:
        return list(orders_for_turn(nation=self.nation, turn=self.turn))

    @cached_property
    def committed_ep(self) -> int:
        return orders_committed_ep(nation=self.nation, turn=self.turn)

    @property
    def available_ep(self) -> int:
        return self.nation.treasury - self.committed_ep

    def relation(self, other: Nation | int) -> str:
        other_id = other if isinstance(other, int) else other.pk
        return self.board.relation(self.nation, other_id)

    @cached_property
    def other_nations(self) -> list[Nation]:
        return sorted((n for n in self.board.nations.values() if n.pk != self.nation.pk), key=lambda n: n.code)

    # -- fleets and ships -------------------------------------------------------------------------------
    @cached_property
    def fleets(self) -> list[FleetPlace]:
        """The nation's fleets with their ships afloat in line order (two queries)."""
        fleets = list(
            Fleet.objects.filter(nation=self.nation)
            .select_related("admiral")
            .only("name", "nation_id", "sea_zone_id", "port_id", "admiral__name", "admiral__grade")
            .order_by("name", "pk")
        )
        ships: dict[int, list[Ship]] = defaultdict(list)
        rows = Ship.objects.filter(nation=self.nation, condition__in=Ship.AFLOAT).only(
            "name", "ship_class", "condition", "in_ordinary", "fleet_id", "line_position", "crew", "cargo_id"
        )
        for ship in rows:
            if ship.fleet_id is not None:
                ships[ship.fleet_id].append(ship)
        cost = self.ruleset.ship_cost
        places = []
        for fleet in fleets:
            zone, port = self.board.place(fleet)
            listed = sorted(ships.get(fleet.pk, []), key=lambda s: (s.line_position, -cost[s.ship_class], s.pk))
            places.append(FleetPlace(fleet, zone, port, listed))
        return places

    @cached_property
    def fleets_by_id(self) -> dict[int, FleetPlace]:
        return {p.fleet.pk: p for p in self.fleets}

    @cached_property
    def fleets_afloat(self) -> list[FleetPlace]:
        return [p for p in self.fleets if p.ships]

    @cached_property
    def ships(self) -> dict[int, tuple[Ship, FleetPlace]]:
        return {s.pk: (s, place) for place in self.fleets for s in place.ships}

    def repair_refusal(self, ship: Ship, place: FleetPlace) -> str | None:
        """Why ``ship`` cannot be repaired now (:data:`NOT_DAMAGED` when it has nothing to repair), or
        None when it can: the repair order's own check (:func:`campaign.orders.in_port.repair_check`)."""
        try:
            repair_check(nation=self.nation, ship=ship, port=place.port, turn=self.turn.number)
        except CheckFailed as refused:
            return NOT_DAMAGED if refused.code == RefusalCode.NOT_DAMAGED else str(refused)
        return None

    def ship_label(self, ship: Ship, place: FleetPlace) -> str:
        bits = [ship.get_ship_class_display(), ship.condition]
        if ship.in_ordinary:
            bits.append("in ordinary")
        return f"{ship.name} ({', '.join(bits)}) — {place.fleet.name}, {place.where}"

    # -- movement -----------------------------------------------------------------------------------------
    def zone_name(self, zone_id: int) -> str:
        return self.board.zones_by_id[zone_id].name

    def _zone_name(self, zone_id: int) -> str:
        return self.board.zones_by_id[zone_id].name

    def _step_candidates(self, zone: SeaZone, port: Port | None) -> list[tuple[str, str]]:
        """Steps worth offering from (zone, port), each with its label: leave the port, or enter a
        port of the zone, or sail to a neighbouring zone. Whether each is legal is the board's call."""
        if port is not None:
            return [("sea", f"leave {port.name} for {zone.name}")]
        ports = sorted((p for p in self.board.ports.values() if p.sea_zone_id == zone.pk), key=lambda p: p.name)
        ids = self.board.adjacency.get(zone.pk, frozenset())
        neighbours = sorted((self.board.zones_by_id[i] for i in ids), key=lambda z: z.name)
        return [(f"port:{p.key}", f"enter {p.name}") for p in ports] + [(z.key, z.name) for z in neighbours]

    def move_paths(self, place: FleetPlace) -> list[PathChoice]:
        """Every legal path of RULES.md §4 from the fleet's place (1 or 2 steps; 1 with a disabled
        ship): adjacent zones, two-step paths, own or allied ports to enter, "sea" from a port. The
        length and each step are the order check's and phase 3's own (:func:`max_steps`,
        :meth:`Board.step`, ships in ordinary included); only pointless paths are left out (back to
        where the fleet started, out of a port just entered, into the port just left)."""
        limit = max_steps(self.ruleset, place.ships)
        out: list[PathChoice] = []

        def follow(steps: tuple[str, ...], labels: tuple[str, ...], zone: SeaZone, port: Port | None) -> None:
            if steps:
                out.append(PathChoice(steps, " → ".join(labels)))
            if len(steps) >= limit or (steps and port is not None):
                return  # a port entered ends the move
            for token, label in self._step_candidates(zone, port):
                try:
                    to_zone, to_port = self.board.step(
                        nation=self.nation, zone=zone, port=port, step=token, ships=place.ships
                    )
                except CheckFailed:
                    continue
                if to_port is None and to_zone.pk == place.zone.pk and place.port is None:
                    continue  # back where it started: no move at all
                if steps and to_port is not None and place.port is not None and to_port.pk == place.port.pk:
                    continue  # back into the port it left
                follow((*steps, token), (*labels, label), to_zone, to_port)

        follow((), (), place.zone, place.port)
        return out

    def zones_in_reach(self, place: FleetPlace) -> set[int]:
        """Zones the fleet could be at sea in after a move (its own zone included)."""
        reach = {place.zone.pk}
        for path in self.move_paths(place):
            zone = place.zone
            for step in path.steps:
                if step in self.board.zones:
                    zone = self.board.zones[step]
            reach.add(zone.pk)
        return reach

    # -- ports --------------------------------------------------------------------------------------------
    @cached_property
    def ports(self) -> list[Port]:
        return sorted(self.board.ports.values(), key=lambda p: p.name)

    def port_label(self, port: Port, *, zone: bool = True) -> str:
        owner = self.board.owner_name(port)
        return f"{port.name} ({owner}, {self._zone_name(port.sea_zone_id)})" if zone else f"{port.name} ({owner})"

    @cached_property
    def own_ports(self) -> list[Port]:
        return [p for p in self.ports if p.owner_id == self.nation.pk]

    @cached_property
    def friendly_ports(self) -> list[Port]:
        return [p for p in self.ports if self.board.friendly(self.nation, p)]

    @cached_property
    def enemy_ports(self) -> list[Port]:
        return [p for p in self.ports if self.relation(p.owner_id) == Relation.State.WAR]

    @cached_property
    def foreign_ports(self) -> list[Port]:
        """Ports neither own nor allied: what a fleet might blockade."""
        return [p for p in self.ports if not self.board.friendly(self.nation, p)]

    @cached_property
    def dockyards(self) -> list[Port]:
        """RULES.md §1: own ports with a dockyard, not besieged, not taken this turn or last."""
        n = self.turn.number
        return [
            p
            for p in self.own_ports
            if p.dockyard and p.siege_turns == 0 and not (p.taken_turn is not None and p.taken_turn >= n - 1)
        ]

    @cached_property
    def raise_ports(self) -> list[Port]:
        """RULES.md §7: own ports not besieged."""
        return [p for p in self.own_ports if p.siege_turns == 0]

    @cached_property
    def land_units_at(self) -> Counter[int]:
        """The nation's land units in garrison or ashore, by port id (one query)."""
        rows = (
            LandUnit.objects.filter(
                nation=self.nation, state__in=(LandUnit.State.GARRISON, LandUnit.State.ASHORE), port__isnull=False
            )
            .values("port_id")
            .annotate(n=Count("id"))
        )
        return Counter({row["port_id"]: row["n"] for row in rows})

    # -- building -----------------------------------------------------------------------------------------
    @cached_property
    def navy_counts(self) -> NavyCounts:
        """§1 counts with the keels of the lay-downs already listed this turn."""
        counts = navy_counts(nation_id=self.nation.pk)
        for order in self.orders:
            cls = order.body.get("class")
            if order.kind == Order.Kind.LAY_DOWN and isinstance(cls, str) and cls in SHIP_CLASSES:
                counts = counts.plus(cls)
        return counts

    @cached_property
    def period(self) -> str:
        return period_label(self.ruleset, self.turn.year)

    @cached_property
    def quota_percent(self) -> int:
        return self.ruleset.quota_percent(self.nation.navy, self.turn.year)

    @cached_property
    def class_statuses(self) -> list[ClassStatus]:
        """Each class with its cost and whether it is allowed now (quota, four-deckers, treasury less
        the lay-downs and raises listed before)."""
        labels = dict(Ship._meta.get_field("ship_class").choices or [])
        out = []
        for cls in SHIP_CLASSES:
            cost = self.ruleset.ship_cost[cls]
            reason = ""
            try:
                check_limits(
                    self.ruleset,
                    navy=self.nation.navy,
                    nation_name=self.nation.name,
                    year=self.turn.year,
                    ship_class=cls,
                    counts=self.navy_counts,
                )
            except ConstructionRefused as refused:
                reason = "four-decker limit" if refused.rule == "four_decker_limit" else "over quota"
            if not reason and cost > self.available_ep:
                reason = f"needs {cost} EP, {max(self.available_ep, 0)} available"
            out.append(
                ClassStatus(
                    cls, str(labels.get(cls, cls)), cost, self.ruleset.ship_build_turns[cls], not reason, reason
                )
            )
        return out

    def raise_cost(self, unit: str) -> int:
        return int(self.ruleset[RAISE_COST_KEY[unit]])

    # -- admirals, diplomacy -----------------------------------------------------------------------------
    @cached_property
    def admirals(self) -> list[Admiral]:
        return list(
            Admiral.objects.filter(nation=self.nation, status=Admiral.Status.ACTIVE)
            .select_related("fleet", "port")
            .order_by("grade", "name")
        )

    def diplomacy_targets(self, kind: str) -> list[tuple[Nation, str]]:
        """Nations towards which ``kind`` may be given from the current relation (RULES.md §10)."""
        allowed = DIPLOMACY_FROM[kind]
        return [(n, self.relation(n)) for n in self.other_nations if self.relation(n) in allowed]

    def summary(self) -> dict[str, Any]:
        return {"treasury": self.nation.treasury, "committed": self.committed_ep, "available": self.available_ep}
