"""What one order is checked against: the nation and its open turn, the board, the nation's fleets and
ships, and what the orders listed before it commit (RULES.md §1–§3, §7), with the lookups that refuse
an order naming the field whose reference is wrong.

A :class:`OrderContext` is built once per check of a list; :meth:`OrderContext.absorb` counts each
order as listed, so the next one is checked against the list so far (committed treasury, quota, ship
and fleet names, fleet organisation and moves, one order of a kind per fleet). It reads the database
and writes nothing.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

from campaign.models import Campaign, Nation, Order, Turn
from campaign.orders.board import Board
from campaign.orders.errors import CheckFailed, OrderCheck, OrderRefused, RefusalCode
from campaign.orders.schema import (
    DIPLOMACY_KINDS,
    FLEET_KEY,
    RAISE_COST_KEY,
    SHIP_ORDER_GROUP,
    Fields,
    clean_name,
)
from fleets.models import Fleet, Ship
from fleets.selectors import navy_counts
from ports.models import Port, SeaZone
from rules.construction import NavyCounts
from rules.ruleset import SHIP_CLASSES, Ruleset

#: A place as (sea zone id, port id or None).
PlaceKey = tuple[int, int | None]


def _get_int(body: Mapping[str, Any], key: str) -> int | None:
    value = body.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _get_str(body: Mapping[str, Any], key: str) -> str | None:
    value = body.get(key)
    return value.strip() if isinstance(value, str) else None


def _get_ints(body: Mapping[str, Any], key: str) -> list[int]:
    value = body.get(key)
    if not isinstance(value, list):
        return []
    return [v for v in value if isinstance(v, int) and not isinstance(v, bool)]


class ShipAfloat(NamedTuple):
    """A ship afloat as the checks read it: a row, not a :class:`~fleets.models.Ship` — a large navy
    has hundreds, read for most orders entered, and building a model for each was the largest part
    of checking an order. A named tuple, made from the row as it comes (``_make``): a frozen
    dataclass's ``__init__`` cost a Python call and a ``object.__setattr__`` per field, per ship."""

    pk: int
    name: str
    ship_class: str
    condition: str
    in_ordinary: bool
    fleet_id: int | None
    line_position: int
    cargo_id: int | None


#: The fields of a fleet the checks read: its name, place and admiral.
_FLEET_FIELDS = ("id", "campaign", "nation", "name", "admiral", "sea_zone", "port")

#: The columns of a :class:`ShipAfloat`, in its fields' order.
_SHIP_AFLOAT_COLUMNS = ("pk", "name", "ship_class", "condition", "in_ordinary", "fleet_id", "line_position", "cargo_id")


@dataclass
class Listed:
    """What the orders listed before the one being checked commit (RULES.md §1–§3, §7)."""

    count: int = 0
    committed_ep: int = 0
    keel_classes: list[str] = field(default_factory=list)
    keel_names: dict[str, int] = field(default_factory=dict)
    fleet_kinds: dict[tuple[int, str], int] = field(default_factory=dict)
    ship_kinds: dict[tuple[int, str], int] = field(default_factory=dict)
    org_ships: dict[int, int] = field(default_factory=dict)
    # ("transfer", position, ships, to_fleet) / ("form", position, ships, None) / ("merge", position, [fleet], into)
    org_ops: list[tuple[str, int, list[int], int | None]] = field(default_factory=list)
    merged: dict[int, tuple[int, int]] = field(default_factory=dict)
    moves: dict[int, tuple[int, list[str]]] = field(default_factory=dict)
    sallies: dict[int, int] = field(default_factory=dict)
    embarked_at: Counter[str] = field(default_factory=Counter)
    embarked_by_fleet: dict[int, int] = field(default_factory=dict)
    appointed: dict[str, int] = field(default_factory=dict)
    fleet_names: dict[str, int] = field(default_factory=dict)
    diplomacy: dict[str, int] = field(default_factory=dict)


class OrderContext:
    """A nation's orders checked one after another, each against those listed before it."""

    def __init__(self, *, nation: Nation, turn: Turn, board: Board | None = None, nation_read: bool = False) -> None:
        """``nation_read``: the caller has just read ``nation`` in this transaction, so it is used as it
        is; otherwise it is read again (the treasury on a caller's instance may be stale)."""
        if turn.campaign_id != nation.campaign_id:
            raise OrderRefused(
                f"Turn {turn.number} is not a turn of {nation.name}'s campaign.", code=RefusalCode.WRONG_TURN
            )
        self.nation = nation if nation_read else Nation.objects.get(pk=nation.pk)
        self.turn = turn
        # The order services have just read the campaign with the locked turn; others read it here.
        cached = Turn._meta.get_field("campaign").is_cached(turn)
        self.campaign = turn.campaign if cached else Campaign.objects.get(pk=nation.campaign_id)
        self.board = board or Board.for_checks(self.campaign.pk)
        self.listed = Listed()
        self._org: dict[int, int | str | None] | None = None

    @cached_property
    def ruleset(self) -> Ruleset:
        return self.campaign.ruleset

    # The reads below order explicitly by what Meta's orderings come to within one nation: ordering
    # by "campaign" and "nation" would join both tables to sort by their names, on every read.
    @cached_property
    def fleets(self) -> dict[int, Fleet]:
        """The nation's fleets, with the fields the checks read (the order stored names one of them, so
        it is a model; a field left out is read if its order's caller asks for it)."""
        fleets = Fleet.objects.filter(nation_id=self.nation.pk).order_by("name").only(*_FLEET_FIELDS)
        return {f.pk: f for f in fleets}

    @cached_property
    def ships(self) -> dict[int, ShipAfloat]:
        """The nation's ships afloat (ready, damaged or disabled; each in a fleet), in id order."""
        afloat = Ship.objects.filter(nation_id=self.nation.pk, condition__in=Ship.AFLOAT).order_by("pk")
        rows = afloat.values_list(*_SHIP_AFLOAT_COLUMNS)
        return {row[0]: ShipAfloat._make(row) for row in rows}

    @cached_property
    def navy_counts(self) -> NavyCounts:
        return navy_counts(nation_id=self.nation.pk)

    def relisted(self) -> OrderContext:
        """A context over the same reads (nation, board, fleets, ships, navy) with no order listed yet:
        another list checked against the same state — the list before a change and after it — reads
        nothing again. The reads made so far are shared; the new list is its own."""
        other = copy.copy(self)
        other.listed = Listed()
        other._org = None
        return other

    # -- the list ---------------------------------------------------------------------------------------
    def absorb(self, body: object, *, accepted: bool = True) -> None:
        """Count an order as listed. A refused one counts only for what names it (a fleet's kind, a
        ship, a nation), not for money, keels or fleet organisation."""
        listed = self.listed
        listed.count += 1
        pos = listed.count
        if not isinstance(body, Mapping):
            return
        kind = body.get("kind")
        if not isinstance(kind, str):
            return
        key = FLEET_KEY.get(kind)
        fleet_id = _get_int(body, key) if key else None
        if fleet_id is not None:
            listed.fleet_kinds.setdefault((fleet_id, kind), pos)
        ship_id = _get_int(body, "ship")
        if kind in SHIP_ORDER_GROUP and ship_id is not None:
            listed.ship_kinds.setdefault((ship_id, SHIP_ORDER_GROUP[kind]), pos)
        target = _get_str(body, "nation")
        if kind in DIPLOMACY_KINDS and target is not None:
            listed.diplomacy.setdefault(target, pos)
        if accepted:
            self._absorb_commitments(kind, body, pos, fleet_id)

    def _absorb_commitments(self, kind: str, body: Mapping[str, Any], pos: int, fleet_id: int | None) -> None:
        """What an accepted order commits: money, keels, fleet organisation, moves, units, admirals."""
        listed = self.listed
        if kind == Order.Kind.LAY_DOWN:
            ship_class = body.get("class")
            if isinstance(ship_class, str) and ship_class in SHIP_CLASSES:
                listed.keel_classes.append(ship_class)
                listed.committed_ep += self.ruleset.ship_cost[ship_class]
            name = _get_str(body, "name")
            if name:
                listed.keel_names.setdefault(clean_name(name), pos)
        elif kind == Order.Kind.RAISE:
            unit = body.get("unit")
            if isinstance(unit, str) and unit in RAISE_COST_KEY:
                listed.committed_ep += self.ruleset[RAISE_COST_KEY[unit]]
        elif kind in (Order.Kind.TRANSFER, Order.Kind.FORM_FLEET):
            ships = _get_ints(body, "ships")
            for sid in ships:
                listed.org_ships.setdefault(sid, pos)
            if kind == Order.Kind.TRANSFER:
                listed.org_ops.append(("transfer", pos, ships, _get_int(body, "to_fleet")))
            else:
                listed.org_ops.append(("form", pos, ships, None))
                name = _get_str(body, "name")
                if name:
                    listed.fleet_names.setdefault(clean_name(name), pos)
            self._org = None
        elif kind == Order.Kind.MERGE:
            into = _get_int(body, "into")
            if fleet_id is not None and into is not None:
                listed.merged.setdefault(fleet_id, (into, pos))
                listed.org_ops.append(("merge", pos, [fleet_id], into))
                self._org = None
        elif kind == Order.Kind.MOVE and fleet_id is not None:
            path = body.get("path")
            if isinstance(path, list) and all(isinstance(s, str) for s in path):
                listed.moves.setdefault(fleet_id, (pos, list(path)))
        elif kind == Order.Kind.SALLY and fleet_id is not None:
            listed.sallies.setdefault(fleet_id, pos)
        elif kind == Order.Kind.EMBARK and fleet_id is not None:
            units, port = _get_int(body, "units"), _get_str(body, "port")
            if units is not None and port is not None:
                listed.embarked_at[port] += units
                listed.embarked_by_fleet[fleet_id] = units
        elif kind == Order.Kind.APPOINT:
            admiral = _get_str(body, "admiral")
            if admiral:
                listed.appointed.setdefault(admiral, pos)

    # -- fleets after the organisation orders listed so far ----------------------------------------------
    def org_map(self) -> dict[int, int | str | None]:
        """Ship id → the fleet it will be in once the listed transfers, new fleets and merges are done
        (RULES.md §3: fleet organisation comes first in phase 3, before embarkation and movement)."""
        if self._org is None:
            mapping: dict[int, int | str | None] = {sid: s.fleet_id for sid, s in self.ships.items()}
            for op, pos, ids, target in self.listed.org_ops:
                if op == "merge":
                    for sid, fid in mapping.items():
                        if fid == ids[0]:
                            mapping[sid] = target
                    continue
                destination: int | str | None = target if op == "transfer" else f"new fleet of order {pos}"
                for sid in ids:
                    if sid in mapping:
                        mapping[sid] = destination
            self._org = mapping
        return self._org

    def fleet_ships(self, fleet: Fleet) -> list[ShipAfloat]:
        """The fleet's ships afloat after the organisation orders listed before, in line order."""
        ships = [self.ships[sid] for sid, fid in self.org_map().items() if fid == fleet.pk]
        return sorted(ships, key=lambda s: (s.line_position, s.pk))

    def end_place(self, fleet: Fleet) -> tuple[SeaZone, Port | None]:
        """Where the fleet will be after the move order listed before (its place now without one)."""
        zone, port = self.board.place(fleet)
        move = self.listed.moves.get(fleet.pk)
        if move is None:
            return zone, port
        try:
            return self.board.walk(nation=self.nation, zone=zone, port=port, path=move[1])
        except CheckFailed:
            return zone, port  # that move was refused; the list is refused with it

    def place_key(self, fleet_id: int | None) -> PlaceKey | None:
        fleet = self.fleets.get(fleet_id) if fleet_id is not None else None
        return (fleet.sea_zone_id, fleet.port_id) if fleet is not None else None

    def place_name(self, place: PlaceKey | None) -> str:
        if place is None:
            return "nowhere"
        if place[1] is not None:
            port = self.board.port_by_id(place[1])
            assert port is not None, place  # a fleet's port is a port of its campaign
            return f"in {port.name}"
        return f"at sea in {self.board.zones_by_id[place[0]].name}"

    def ship_port(self, ship: ShipAfloat) -> Port | None:
        """The port the ship's fleet lies in (None: at sea)."""
        fleet = self.fleets.get(ship.fleet_id) if ship.fleet_id is not None else None
        if fleet is None or fleet.port_id is None:
            return None
        return self.board.port_by_id(fleet.port_id)

    # -- references: each refuses naming the field -----------------------------------------------------------
    def fleet(self, chk: OrderCheck, f: Fields, key: str, *, subject: str = "fleet") -> Fleet:
        """The nation's fleet named by ``key``, not merged away by an order listed before."""
        fid = f.id(key)
        fleet = self.fleets.get(fid)
        if chk.subject is None:
            chk.subject = f"{subject} {fleet.name!r}" if fleet is not None else f"{subject} {fid}"
        if fleet is None:
            chk.refuse(f"{self.nation.name} has no fleet {fid}", code=RefusalCode.UNKNOWN_FLEET, field=key)
        merged = self.listed.merged.get(fleet.pk)
        if merged is not None:
            into = self.fleets.get(merged[0])
            into_name = repr(into.name) if into is not None else str(merged[0])
            chk.refuse(
                f"fleet {fleet.name!r} is merged into {into_name} by order {merged[1]}",
                code=RefusalCode.FLEET_MERGED,
                field=key,
            )
        return fleet

    def once(self, chk: OrderCheck, fleet: Fleet, key: str = "fleet") -> None:
        """One order of a kind per fleet a turn."""
        earlier = self.listed.fleet_kinds.get((fleet.pk, chk.kind))
        if earlier is not None:
            chk.refuse(
                f"fleet {fleet.name!r} already has a {chk.kind} order this turn (order {earlier}); a fleet takes one "
                "order of each kind per turn — change or withdraw that one instead",
                code=RefusalCode.ONE_PER_TURN,
                field=key,
            )

    def ship(self, chk: OrderCheck, f: Fields, key: str = "ship") -> ShipAfloat:
        """The nation's ship afloat named by ``key``."""
        sid = f.id(key)
        ship = self.ships.get(sid)
        if ship is not None:
            if chk.subject is None:
                chk.subject = f"ship {ship.name!r}"
            return ship
        if chk.subject is None:
            chk.subject = f"ship {sid}"
        other = Ship.objects.filter(pk=sid, nation_id=self.nation.pk).order_by("pk").first()
        if other is None:
            chk.refuse(f"{self.nation.name} has no ship {sid}", code=RefusalCode.UNKNOWN_SHIP, field=key)
        chk.refuse(
            f"{other.name} is {other.get_condition_display().lower()}, not afloat in a fleet",
            code=RefusalCode.UNKNOWN_SHIP,
            field=key,
        )

    def ship_list(self, chk: OrderCheck, ids: Sequence[int], key: str = "ships") -> list[ShipAfloat]:
        """The nation's ships afloat with these ids."""
        unknown = [sid for sid in ids if sid not in self.ships]
        if unknown:
            chk.refuse(
                f"{self.nation.name} has no ship afloat with id {', '.join(map(str, unknown))} "
                "(ships building, sunk or of another nation cannot be given orders)",
                code=RefusalCode.UNKNOWN_SHIP,
                field=key,
            )
        return [self.ships[sid] for sid in ids]

    def port(self, chk: OrderCheck, key: str, field: str = "port") -> Port:
        port = self.board.port_by_key(key)
        if port is None:
            chk.refuse(f"there is no port {key!r} in this campaign", code=RefusalCode.UNKNOWN_PORT, field=field)
        return port

    def zone(self, chk: OrderCheck, key: str, field: str) -> SeaZone:
        zone = self.board.zones.get(key)
        if zone is None:
            chk.refuse(f"there is no sea zone {key!r} in this campaign", code=RefusalCode.UNKNOWN_ZONE, field=field)
        return zone

    def afloat(self, chk: OrderCheck, fleet: Fleet, key: str = "fleet") -> list[ShipAfloat]:
        """The fleet's ships afloat after the organisation listed before; refused when there are none."""
        ships = self.fleet_ships(fleet)
        if not ships:
            chk.refuse(
                f"fleet {fleet.name!r} has no ship afloat (after the fleet orders listed before this one)",
                code=RefusalCode.NO_SHIPS,
                field=key,
            )
        return ships

    def available_ep(self) -> int:
        return self.nation.treasury - self.listed.committed_ep

    def money_check(self, chk: OrderCheck, what: str, cost: int, *, field: str) -> None:
        """RULES.md §1–§2: the treasury less what the orders listed before commit pays for it."""
        available = self.available_ep()
        if cost > available:
            chk.refuse(
                f"not enough EP (rules §1–§2): {what} costs {cost} EP; {self.nation.name} has "
                f"{self.nation.treasury} EP, of which {self.listed.committed_ep} EP are committed by the lay-downs "
                f"and raises listed before this order, so {max(available, 0)} EP are available",
                code=RefusalCode.NOT_ENOUGH_EP,
                field=field,
                numbers={
                    "cost": cost,
                    "available": max(available, 0),
                    "treasury": self.nation.treasury,
                    "committed": self.listed.committed_ep,
                },
            )
