"""Orders (RULES.md §3): one validation for every order a nation can give, and its order list.

An order is a JSON object, the same body the web form, the API and ``submit_orders`` accept (the
README's "Orders JSON" documents each kind). References are stable keys: fleets and ships by id,
ports and zones by key, nations by code, admirals by name.

* :func:`order_validate` checks one body against the campaign as it stands and against the orders
  listed before it (committed treasury, quota, ship and fleet names, one order of a kind per fleet).
  It reads the database and writes nothing.
* :func:`order_add`, :func:`order_update`, :func:`order_withdraw` and :func:`orders_replace` change
  a nation's list for the open turn. Each runs in one transaction with the turn row locked (so the
  pipeline's claim waits for it, and it for the claim) and, when it refuses, raises
  :class:`OrderRefused` and changes nothing. The stored list stays valid as a whole, checked in
  listed order: a change that would make another order of the list refused is refused too.
* Checks that resolution repeats when an order became impossible (path adjacency, port entry,
  running the guns, landings, repairs…) are small methods of :class:`Board` and module functions
  that raise :class:`CheckFailed` with the bare reason, so the pipeline can call them again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NoReturn

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from campaign.models import Campaign, Nation, NationTurn, Order, Relation, Turn
from campaign.selectors import Diplomacy, diplomacy_for_campaign
from campaign.services import lay_down_port_check
from fleets.models import Admiral, Fleet, Ship
from fleets.selectors import navy_counts
from fleets.services import ShipNameError, ship_name_validate
from ports.models import LandUnit, Port, SeaZone
from rules.construction import ConstructionRefused, NavyCounts, check_lay_down
from rules.ruleset import SHIP_CLASSES, Ruleset

# --- errors -----------------------------------------------------------------------------------------


class OrderRefused(ValueError):
    """An order (or a change of the order list) that is not allowed now.

    ``message`` names the order — its position, kind and subject, e.g. "Order 3 (move, fleet
    'Channel Fleet')" — and the reason. Nothing was changed.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class OrdersRefused(OrderRefused):
    """A list of orders refused as a whole: ``errors`` holds every refused order with its reason."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("\n".join(errors))
        self.errors = list(errors)


class CheckFailed(ValueError):
    """A reusable order check failed; the text is the bare reason (the caller names the order)."""


# --- the bodies --------------------------------------------------------------------------------------

#: kind → (required keys, optional keys), besides "kind".
SCHEMA: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    Order.Kind.MOVE: (frozenset({"fleet", "path"}), frozenset()),
    Order.Kind.POSTURE: (frozenset({"fleet", "posture"}), frozenset({"port"})),
    Order.Kind.BATTLE_ORDERS: (frozenset({"fleet", "after_battle"}), frozenset({"retreat_port", "retreat_zone"})),
    Order.Kind.LINE_ORDER: (frozenset({"fleet", "ships"}), frozenset()),
    Order.Kind.RUN_GUNS: (frozenset({"fleet", "port"}), frozenset()),
    Order.Kind.SALLY: (frozenset({"fleet"}), frozenset()),
    Order.Kind.FIRESHIPS: (frozenset({"fleet", "port"}), frozenset()),
    Order.Kind.LAY_DOWN: (frozenset({"class", "name", "port"}), frozenset()),
    Order.Kind.RAISE: (frozenset({"unit", "port"}), frozenset()),
    Order.Kind.REPAIR: (frozenset({"ship"}), frozenset({"on"})),
    Order.Kind.LAY_UP: (frozenset({"ship"}), frozenset()),
    Order.Kind.RECOMMISSION: (frozenset({"ship"}), frozenset()),
    Order.Kind.TRANSFER: (frozenset({"ships", "to_fleet"}), frozenset()),
    Order.Kind.FORM_FLEET: (frozenset({"ships", "name"}), frozenset()),
    Order.Kind.MERGE: (frozenset({"fleet", "into"}), frozenset()),
    Order.Kind.APPOINT: (frozenset({"admiral", "fleet"}), frozenset()),
    Order.Kind.EMBARK: (frozenset({"fleet", "port", "units"}), frozenset()),
    Order.Kind.LAND: (frozenset({"fleet", "port", "units"}), frozenset()),
    Order.Kind.DECLARE_WAR: (frozenset({"nation"}), frozenset()),
    Order.Kind.OFFER_PEACE: (frozenset({"nation"}), frozenset()),
    Order.Kind.PROPOSE_ALLIANCE: (frozenset({"nation"}), frozenset()),
    Order.Kind.LEAVE_ALLIANCE: (frozenset({"nation"}), frozenset()),
}
assert set(SCHEMA) == set(Order.Kind.values), "every Order.Kind needs a schema"

#: The body key naming the fleet an order is about (``Order.fleet``; one order of a kind per fleet
#: per turn). A transfer is about the fleet receiving the ships, so one fleet can be split in several
#: transfers; form_fleet and the ship orders name no fleet, so a fleet's ships can each be repaired.
FLEET_KEY: dict[str, str] = {
    Order.Kind.MOVE: "fleet",
    Order.Kind.POSTURE: "fleet",
    Order.Kind.BATTLE_ORDERS: "fleet",
    Order.Kind.LINE_ORDER: "fleet",
    Order.Kind.RUN_GUNS: "fleet",
    Order.Kind.SALLY: "fleet",
    Order.Kind.FIRESHIPS: "fleet",
    Order.Kind.MERGE: "fleet",
    Order.Kind.APPOINT: "fleet",
    Order.Kind.EMBARK: "fleet",
    Order.Kind.LAND: "fleet",
    Order.Kind.TRANSFER: "to_fleet",
}

#: Ship orders: one per ship and group per turn (laying up and recommissioning one ship contradict).
SHIP_ORDER_GROUP: dict[str, str] = {
    Order.Kind.REPAIR: "repair",
    Order.Kind.LAY_UP: "commission",
    Order.Kind.RECOMMISSION: "commission",
}

DIPLOMACY_KINDS = (
    Order.Kind.DECLARE_WAR,
    Order.Kind.OFFER_PEACE,
    Order.Kind.PROPOSE_ALLIANCE,
    Order.Kind.LEAVE_ALLIANCE,
)

#: RULES.md §10: the relation each diplomatic order starts from.
DIPLOMACY_FROM: dict[str, tuple[str, ...]] = {
    Order.Kind.DECLARE_WAR: (Relation.State.PEACE, Relation.State.ALLIANCE),
    Order.Kind.OFFER_PEACE: (Relation.State.WAR,),
    Order.Kind.PROPOSE_ALLIANCE: (Relation.State.PEACE,),
    Order.Kind.LEAVE_ALLIANCE: (Relation.State.ALLIANCE,),
}

RAISE_UNITS = ("land_unit", "siege_train")
RAISE_COST_KEY = {"land_unit": "economy.raise_land_unit_cost", "siege_train": "economy.raise_siege_train_cost"}
FLEET_NAME_MAX = 80


@dataclass(frozen=True)
class CleanOrder:
    """A validated order: its normalised body (defaults filled in, names cleaned) ready to store."""

    position: int
    kind: str
    body: dict[str, Any]
    fleet: Fleet | None
    cost: int
    label: str

    @property
    def order_fleet_id(self) -> int | None:
        return self.fleet.pk if self.fleet is not None else None


# --- reusable checks ---------------------------------------------------------------------------------


def _names(ships: Iterable[Ship]) -> str:
    return ", ".join(s.name for s in ships)


def max_steps(ruleset: Ruleset, ships: Iterable[Ship]) -> int:
    """RULES.md §4: "a path of at most 2 steps (1 if the fleet has a disabled ship)"."""
    if any(s.condition == Ship.Condition.DISABLED for s in ships):
        return ruleset["movement.max_steps_with_disabled"]
    return ruleset["movement.max_steps"]


def leave_port_check(*, ships: Iterable[Ship]) -> None:
    """RULES.md §2: "A ship in ordinary cannot leave port"."""
    laid_up = [s for s in ships if s.in_ordinary]
    if laid_up:
        raise CheckFailed(
            f"ships in ordinary cannot leave port (RULES.md §2): {_names(laid_up)} "
            f"{'is' if len(laid_up) == 1 else 'are'} in ordinary; transfer them to another fleet first "
            "(fleet organisation comes before movement) or recommission them (phase 8)"
        )


def port_recently_taken(port: Port, turn: int) -> bool:
    """RULES.md §1, §2, §7: a port taken this turn or last does not build or repair."""
    return port.taken_turn is not None and port.taken_turn >= turn - 1


def raise_port_check(*, nation: Nation, port: Port) -> None:
    """RULES.md §7: land units and siege trains are raised "in an own port that is not besieged"."""
    if port.owner_id != nation.pk:
        raise CheckFailed(
            f"land units are raised only in an own port (RULES.md §7); {port.name} is not {nation.code}'s"
        )
    if port.siege_turns > 0:
        raise CheckFailed(f"{port.name} is besieged; nothing can be raised there (RULES.md §7)")


def repair_check(*, nation: Nation, ship: Ship, port: Port | None, turn: int) -> None:
    """RULES.md §2: repair "a damaged or disabled ship in an own port with a dockyard, not taken this
    turn or last" (the blockade is known only at resolution)."""
    if ship.condition not in (Ship.Condition.DAMAGED, Ship.Condition.DISABLED):
        raise CheckFailed(f"{ship.name} is {ship.condition}; only a damaged or disabled ship is repaired (RULES.md §2)")
    if port is None:
        raise CheckFailed(f"{ship.name} is at sea; ships are repaired in an own port with a dockyard (RULES.md §2)")
    if port.owner_id != nation.pk:
        raise CheckFailed(f"{ship.name} is in {port.name}, which is not {nation.code}'s; repairs need an own port")
    if not port.dockyard:
        raise CheckFailed(f"{port.name} has no dockyard; ships are repaired only where there is one (RULES.md §2)")
    if port_recently_taken(port, turn):
        raise CheckFailed(f"{port.name} was taken in turn {port.taken_turn}; it repairs again from turn {turn + 1}")


def ordinary_check(*, nation: Nation, ship: Ship, port: Port | None, lay_up: bool) -> None:
    """RULES.md §2: "lay up" and "recommission" orders are for a ship in an own port."""
    if port is None or port.owner_id != nation.pk:
        where = "at sea" if port is None else f"in {port.name}, which is not {nation.code}'s"
        raise CheckFailed(f"{ship.name} is {where}; only a ship in an own port is laid up or recommissioned (§2)")
    if lay_up and ship.in_ordinary:
        raise CheckFailed(f"{ship.name} is already in ordinary")
    if not lay_up and not ship.in_ordinary:
        raise CheckFailed(f"{ship.name} is in commission, not in ordinary; there is nothing to recommission")


class Board:
    """What the order checks read about one campaign: zones and adjacency, ports, nations, relations.

    A read-only snapshot, loaded lazily (a few queries in all). Build one per validation, or one
    per phase after diplomacy, and call its checks as often as needed.
    """

    def __init__(self, campaign_id: int) -> None:
        self.campaign_id = campaign_id

    @cached_property
    def zones(self) -> dict[str, SeaZone]:
        return {z.key: z for z in SeaZone.objects.filter(campaign_id=self.campaign_id)}

    @cached_property
    def zones_by_id(self) -> dict[int, SeaZone]:
        return {z.pk: z for z in self.zones.values()}

    @cached_property
    def adjacency(self) -> dict[int, frozenset[int]]:
        pairs: dict[int, set[int]] = {pk: set() for pk in self.zones_by_id}
        rows = SeaZone.objects.filter(campaign_id=self.campaign_id, adjacent__isnull=False).values_list(
            "pk", "adjacent"
        )
        for a, b in rows:
            if b is None:
                continue
            pairs[a].add(b)
            pairs.setdefault(b, set()).add(a)  # the relation is symmetric; keep it so even if a row is missing
        return {pk: frozenset(others) for pk, others in pairs.items()}

    @cached_property
    def ports(self) -> dict[str, Port]:
        return {p.key: p for p in Port.objects.filter(campaign_id=self.campaign_id)}

    @cached_property
    def ports_by_id(self) -> dict[int, Port]:
        return {p.pk: p for p in self.ports.values()}

    @cached_property
    def nations(self) -> dict[str, Nation]:
        return {n.code: n for n in Nation.objects.filter(campaign_id=self.campaign_id)}

    @cached_property
    def nations_by_id(self) -> dict[int, Nation]:
        return {n.pk: n for n in self.nations.values()}

    @cached_property
    def diplomacy(self) -> Diplomacy:
        return diplomacy_for_campaign(campaign_id=self.campaign_id)

    # -- facts -----------------------------------------------------------------------------------------
    def adjacent(self, a: SeaZone, b: SeaZone) -> bool:
        return b.pk in self.adjacency.get(a.pk, frozenset())

    def owner_code(self, port: Port) -> str:
        owner = self.nations_by_id.get(port.owner_id)
        return owner.code if owner is not None else "?"

    def relation(self, nation: Nation, other_id: int) -> str:
        """ "self", "peace", "war" or "alliance" (RULES.md §10; no stored relation is peace)."""
        return self.diplomacy.state(nation.pk, other_id)

    def friendly(self, nation: Nation, port: Port) -> bool:
        """RULES.md §4: an "own or allied port"."""
        return self.diplomacy.allied(nation.pk, port.owner_id)

    def place(self, fleet: Fleet) -> tuple[SeaZone, Port | None]:
        """Where a fleet is now: its zone and, if in port, the port."""
        port = self.ports_by_id.get(fleet.port_id) if fleet.port_id is not None else None
        return self.zones_by_id[fleet.sea_zone_id], port

    # -- checks -----------------------------------------------------------------------------------------
    def port_entry_check(self, *, nation: Nation, port: Port) -> None:
        """RULES.md §4: "Fleets never enter the port of a nation that is neither own nor allied"."""
        if not self.friendly(nation, port):
            state = self.relation(nation, port.owner_id)
            raise CheckFailed(
                f"{port.name} is {self.owner_code(port)}'s and {nation.code} is at {state} with it; fleets enter "
                "only own or allied ports (RULES.md §4)"
            )

    def step(
        self, *, nation: Nation, zone: SeaZone, port: Port | None, step: str, ships: Sequence[Ship] | None = None
    ) -> tuple[SeaZone, Port | None]:
        """One movement step (RULES.md §4) from (zone, port): the new place, or :class:`CheckFailed`.

        A step is a zone key (to an adjacent zone, from sea), "port:<key>" (enter an own or allied port
        of the current zone, from sea) or "sea" (leave the port into its zone). ``ships``, when
        given, are checked for ships in ordinary as the fleet leaves port.
        """
        if step == "sea":
            if port is None:
                raise CheckFailed(f'"sea" leaves a port, but the fleet is already at sea in {zone.name}')
            if ships is not None:
                leave_port_check(ships=ships)
            return self.zones_by_id[port.sea_zone_id], None
        if step.startswith("port:"):
            key = step.removeprefix("port:")
            target = self.ports.get(key)
            if target is None:
                raise CheckFailed(f"there is no port {key!r} in this campaign")
            if port is not None:
                raise CheckFailed(f'the fleet is in {port.name}; it leaves with "sea" before entering another port')
            if target.sea_zone_id != zone.pk:
                raise CheckFailed(
                    f"{target.name} lies in {self.zones_by_id[target.sea_zone_id].name}, not in {zone.name}; "
                    "a fleet enters only a port of the zone it is in"
                )
            self.port_entry_check(nation=nation, port=target)
            return zone, target
        target_zone = self.zones.get(step)
        if target_zone is None:
            raise CheckFailed(
                f'there is no sea zone {step!r} in this campaign (a step is a zone key, "port:<key>" or "sea")'
            )
        if port is not None:
            raise CheckFailed(f'the fleet is in {port.name}; its first step must be "sea" to leave it')
        if not self.adjacent(zone, target_zone):
            raise CheckFailed(f"{target_zone.name} is not adjacent to {zone.name}")
        return target_zone, None

    def walk(
        self,
        *,
        nation: Nation,
        zone: SeaZone,
        port: Port | None,
        path: Sequence[str],
        ships: Sequence[Ship] | None = None,
    ) -> tuple[SeaZone, Port | None]:
        """Follow a whole path; :class:`CheckFailed` names the step that cannot be taken."""
        for n, step in enumerate(path, 1):
            try:
                zone, port = self.step(nation=nation, zone=zone, port=port, step=step, ships=ships)
            except CheckFailed as failed:
                raise CheckFailed(f"step {n} ({step!r}): {failed}") from None
        return zone, port

    def run_guns_check(self, *, nation: Nation, port: Port, zone: SeaZone, in_port: Port | None) -> None:
        """RULES.md §4: run the guns (or send fireships, §9) at a port of a nation at war, from sea in
        its zone. ``zone``/``in_port``: where the fleet will be after movement."""
        if port.owner_id == nation.pk:
            raise CheckFailed(f"{port.name} is {nation.code}'s own port; nobody runs the guns of its own side")
        state = self.relation(nation, port.owner_id)
        if state != Relation.State.WAR:
            raise CheckFailed(
                f"{port.name} is {self.owner_code(port)}'s and {nation.code} is at {state} with it; only the guns of "
                "a port of a nation at war can be run (RULES.md §4)"
            )
        if in_port is not None:
            raise CheckFailed(
                f"the fleet will be in port at {in_port.name}; it attacks {port.name} from sea in its zone"
            )
        if zone.pk != port.sea_zone_id:
            raise CheckFailed(
                f"{port.name} lies in {self.zones_by_id[port.sea_zone_id].name}, but the fleet will be in {zone.name} "
                "(after any move order listed before this one)"
            )

    def landing_check(self, *, nation: Nation, port: Port, zone: SeaZone, in_port: Port | None = None) -> None:
        """RULES.md §7: land "at a port in its zone: own → garrison; allied → guests; enemy → besiegers;
        neutral → refused". ``zone``/``in_port``: where the fleet will be after movement; a fleet in
        port lands only there — "ships in port are not in the zone" (§4)."""
        if zone.pk != port.sea_zone_id:
            raise CheckFailed(
                f"{port.name} lies in {self.zones_by_id[port.sea_zone_id].name}, but the fleet will be in {zone.name} "
                "(after any move order listed before this one); units land only at a port of the fleet's zone"
            )
        if in_port is not None and in_port.pk != port.pk:
            raise CheckFailed(
                f"the fleet will be in port at {in_port.name} (after any move order listed before this one); "
                f"ships in port are not in the zone (RULES.md §4), so it lands units only there, or at "
                f"{port.name} from sea"
            )
        if self.relation(nation, port.owner_id) == Relation.State.PEACE:
            raise CheckFailed(
                f"{port.name} is {self.owner_code(port)}'s, a neutral nation ({nation.code} is at peace with it); "
                "landing at a neutral port is refused (RULES.md §7)"
            )

    def diplomacy_check(self, *, kind: str, nation: Nation, other: Nation) -> None:
        """RULES.md §10: declare war from peace or alliance; offer peace from war; propose an alliance
        from peace; leave an alliance from alliance. Never towards oneself."""
        if other.pk == nation.pk:
            raise CheckFailed(f"{nation.code} cannot give a diplomatic order to itself")
        state = self.relation(nation, other.pk)
        if state not in DIPLOMACY_FROM[kind]:
            allowed = " or ".join(DIPLOMACY_FROM[kind])
            raise CheckFailed(
                f"{nation.code} and {other.code} are at {state}; {kind} is given from {allowed} (RULES.md §10)"
            )


# --- the validator -------------------------------------------------------------------------------------


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


class _Check:
    """The order being checked: its position, kind and subject name it in every refusal."""

    def __init__(self, position: int, kind: str) -> None:
        self.position = position
        self.kind = kind
        self.subject: str | None = None

    @property
    def label(self) -> str:
        inner = self.kind if self.subject is None else f"{self.kind}, {self.subject}"
        return f"Order {self.position} ({inner})"

    def refuse(self, reason: str) -> NoReturn:
        raise OrderRefused(f"{self.label}: {reason}.")


class _Fields:
    """Typed reads of a body's fields; a wrong type refuses the order naming the field."""

    def __init__(self, chk: _Check, body: Mapping[str, Any]) -> None:
        self.chk = chk
        self.body = body

    def integer(self, key: str, *, minimum: int | None = None) -> int:
        value = self.body.get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            self.chk.refuse(f'"{key}" must be a whole number, not {_json_type(value)}')
        if minimum is not None and value < minimum:
            self.chk.refuse(f'"{key}" must be at least {minimum}, not {value}')
        return value

    def text(self, key: str) -> str:
        value = self.body.get(key)
        if not isinstance(value, str) or not value.strip():
            self.chk.refuse(f'"{key}" must be a non-empty string, not {_json_type(value)}')
        return value.strip()

    def optional_text(self, key: str) -> str | None:
        if self.body.get(key) is None:
            return None
        return self.text(key)

    def boolean(self, key: str, *, default: bool) -> bool:
        value = self.body.get(key, default)
        if not isinstance(value, bool):
            self.chk.refuse(f'"{key}" must be true or false, not {_json_type(value)}')
        return value

    def choice(self, key: str, choices: Sequence[str]) -> str:
        value = self.body.get(key)
        if not isinstance(value, str) or value not in choices:
            self.chk.refuse(f'"{key}" must be one of {", ".join(choices)}; got {_json_type(value)}')
        return value

    def _list(self, key: str) -> list[Any]:
        value = self.body.get(key)
        if not isinstance(value, list) or not value:
            self.chk.refuse(f'"{key}" must be a non-empty list, not {_json_type(value)}')
        return value

    def integers(self, key: str) -> list[int]:
        values = self._list(key)
        for value in values:
            if isinstance(value, bool) or not isinstance(value, int):
                self.chk.refuse(f'"{key}" must list whole numbers (ids); it holds {_json_type(value)}')
        repeated = sorted(v for v, n in Counter(values).items() if n > 1)
        if repeated:
            self.chk.refuse(f'"{key}" lists {", ".join(map(str, repeated))} more than once')
        return values

    def texts(self, key: str) -> list[str]:
        values = self._list(key)
        for value in values:
            if not isinstance(value, str) or not value:
                self.chk.refuse(f'"{key}" must list non-empty strings; it holds {_json_type(value)}')
        return values


#: The JSON type of every body field (RULES.md §3 order bodies; the README's "Orders JSON").
_FIELD_KIND: dict[str, str] = {
    "fleet": "id",
    "to_fleet": "id",
    "into": "id",
    "ship": "id",
    "units": "count",
    "path": "texts",
    "ships": "ids",
    "port": "text",
    "retreat_port": "optional_text",
    "retreat_zone": "optional_text",
    "name": "text",
    "admiral": "text",
    "nation": "text",
    "posture": "text",
    "after_battle": "text",
    "class": "text",
    "unit": "text",
    "on": "bool",
}
_FIELD_TYPES: dict[str, Callable[[_Fields, str], object]] = {
    "id": lambda f, key: f.integer(key),
    "count": lambda f, key: f.integer(key, minimum=1),
    "texts": lambda f, key: f.texts(key),
    "ids": lambda f, key: f.integers(key),
    "text": lambda f, key: f.text(key),
    "optional_text": lambda f, key: f.optional_text(key),
    "bool": lambda f, key: f.boolean(key, default=True),
}
assert {key for required, optional in SCHEMA.values() for key in required | optional} == set(_FIELD_KIND)


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


def _clean_name(name: str) -> str:
    return " ".join(name.split())


@dataclass
class _Listed:
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


#: What each handler returns: (normalised body without "kind", ``Order.fleet``, EP committed).
_Result = tuple[dict[str, Any], Fleet | None, int]


class _Validator:
    """Checks a nation's orders one after another, each against those listed before it."""

    def __init__(self, *, nation: Nation, turn: Turn, board: Board | None = None) -> None:
        if turn.campaign_id != nation.campaign_id:
            raise OrderRefused(f"Turn {turn.number} is not a turn of {nation.code}'s campaign.")
        # Fresh from the database: the treasury on a caller's instance may be stale.
        self.nation = Nation.objects.get(pk=nation.pk)
        self.turn = turn
        self.campaign = Campaign.objects.get(pk=nation.campaign_id)
        self.board = board or Board(self.campaign.pk)
        self.listed = _Listed()
        self._org: dict[int, int | str | None] | None = None

    @cached_property
    def ruleset(self) -> Ruleset:
        return self.campaign.ruleset

    @cached_property
    def fleets(self) -> dict[int, Fleet]:
        return {f.pk: f for f in Fleet.objects.filter(nation=self.nation)}

    @cached_property
    def ships(self) -> dict[int, Ship]:
        """The nation's ships afloat (ready, damaged or disabled; each in a fleet)."""
        return {s.pk: s for s in Ship.objects.filter(nation=self.nation, condition__in=Ship.AFLOAT)}

    @cached_property
    def navy_counts(self) -> NavyCounts:
        return navy_counts(nation_id=self.nation.pk)

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
        if not accepted:
            return
        if kind == Order.Kind.LAY_DOWN:
            ship_class = body.get("class")
            if isinstance(ship_class, str) and ship_class in SHIP_CLASSES:
                listed.keel_classes.append(ship_class)
                listed.committed_ep += self.ruleset.ship_cost[ship_class]
            name = _get_str(body, "name")
            if name:
                listed.keel_names.setdefault(_clean_name(name), pos)
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
                    listed.fleet_names.setdefault(_clean_name(name), pos)
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
    def _org_map(self) -> dict[int, int | str | None]:
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

    def fleet_ships(self, fleet: Fleet) -> list[Ship]:
        """The fleet's ships afloat after the organisation orders listed before, in line order."""
        ships = [self.ships[sid] for sid, fid in self._org_map().items() if fid == fleet.pk]
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

    # -- references ---------------------------------------------------------------------------------------
    def _fleet(self, chk: _Check, f: _Fields, key: str, *, subject: str = "fleet") -> Fleet:
        fid = f.integer(key)
        fleet = self.fleets.get(fid)
        if chk.subject is None:
            chk.subject = f"{subject} {fleet.name!r}" if fleet is not None else f"{subject} {fid}"
        if fleet is None:
            chk.refuse(f"{self.nation.code} has no fleet {fid}")
        merged = self.listed.merged.get(fleet.pk)
        if merged is not None:
            into = self.fleets.get(merged[0])
            into_name = repr(into.name) if into is not None else str(merged[0])
            chk.refuse(f"fleet {fleet.name!r} is merged into {into_name} by order {merged[1]}")
        return fleet

    def _once(self, chk: _Check, fleet: Fleet) -> None:
        earlier = self.listed.fleet_kinds.get((fleet.pk, chk.kind))
        if earlier is not None:
            chk.refuse(
                f"fleet {fleet.name!r} already has a {chk.kind} order this turn (order {earlier}); a fleet takes one "
                "order of each kind per turn — change or withdraw that one instead"
            )

    def _ship(self, chk: _Check, f: _Fields, key: str = "ship") -> Ship:
        sid = f.integer(key)
        ship = self.ships.get(sid)
        if ship is not None:
            if chk.subject is None:
                chk.subject = f"ship {ship.name!r}"
            return ship
        if chk.subject is None:
            chk.subject = f"ship {sid}"
        other = Ship.objects.filter(pk=sid, nation=self.nation).first()
        if other is None:
            chk.refuse(f"{self.nation.code} has no ship {sid}")
        chk.refuse(f"{other.name} is {other.get_condition_display().lower()}, not afloat in a fleet")

    def _ships(self, chk: _Check, ids: Sequence[int]) -> list[Ship]:
        unknown = [sid for sid in ids if sid not in self.ships]
        if unknown:
            chk.refuse(
                f"{self.nation.code} has no ship afloat with id {', '.join(map(str, unknown))} "
                "(ships building, sunk or of another nation cannot be given orders)"
            )
        return [self.ships[sid] for sid in ids]

    def _port(self, chk: _Check, key: str) -> Port:
        port = self.board.ports.get(key)
        if port is None:
            chk.refuse(f"there is no port {key!r} in this campaign")
        return port

    def _zone(self, chk: _Check, key: str) -> SeaZone:
        zone = self.board.zones.get(key)
        if zone is None:
            chk.refuse(f"there is no sea zone {key!r} in this campaign")
        return zone

    def _afloat(self, chk: _Check, fleet: Fleet) -> list[Ship]:
        ships = self.fleet_ships(fleet)
        if not ships:
            chk.refuse(f"fleet {fleet.name!r} has no ship afloat (after the fleet orders listed before this one)")
        return ships

    def _available_ep(self) -> int:
        return self.nation.treasury - self.listed.committed_ep

    def _money_check(self, chk: _Check, what: str, cost: int) -> None:
        available = self._available_ep()
        if cost > available:
            chk.refuse(
                f"not enough EP (RULES.md §1–§2): {what} costs {cost} EP; {self.nation.code} has "
                f"{self.nation.treasury} EP, of which {self.listed.committed_ep} EP are committed by the lay-downs "
                f"and raises listed before this order, so {max(available, 0)} EP are available"
            )

    # -- one order ------------------------------------------------------------------------------------------
    def validate(self, body: object) -> CleanOrder:
        position = self.listed.count + 1
        if not isinstance(body, Mapping):
            raise OrderRefused(f'Order {position}: an order is a JSON object with a "kind", not {_json_type(body)}.')
        kind = body.get("kind")
        if not isinstance(kind, str) or kind not in SCHEMA:
            what = 'has no "kind"' if kind is None else f"has an unknown kind {_json_type(kind)}"
            raise OrderRefused(f"Order {position} {what}; the kinds are: {', '.join(SCHEMA)}.")
        chk = _Check(position, kind)
        required, optional = SCHEMA[kind]
        unknown = sorted(k if isinstance(k, str) else repr(k) for k in body if k not in required | optional | {"kind"})
        if unknown:
            takes = ", ".join(sorted(required | optional))
            chk.refuse(
                f"unknown key{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}; a {kind} order takes {takes}"
            )
        missing = sorted(required - set(body))
        if missing:
            chk.refuse(f"missing {', '.join(missing)}")
        fields = _Fields(chk, body)
        # Every field's type first, so a malformed body is refused for its form before any lookup.
        for key in body:
            if key != "kind":
                _FIELD_TYPES["optional_text" if (kind, key) == ("posture", "port") else _FIELD_KIND[key]](fields, key)
        clean, fleet, cost = getattr(self, f"_{kind}")(chk, fields)
        return CleanOrder(
            position=position, kind=kind, body={"kind": kind, **clean}, fleet=fleet, cost=cost, label=chk.label
        )

    def _move(self, chk: _Check, f: _Fields) -> _Result:
        fleet = self._fleet(chk, f, "fleet")
        path = f.texts("path")
        self._once(chk, fleet)
        sally = self.listed.sallies.get(fleet.pk)
        if sally is not None:
            chk.refuse(f"the fleet sallies by order {sally}; a sallying fleet does not move as well")
        ships = self._afloat(chk, fleet)
        limit = max_steps(self.ruleset, ships)
        if len(path) > limit:
            disabled = [s for s in ships if s.condition == Ship.Condition.DISABLED]
            why = f"a fleet with a disabled ship ({_names(disabled)})" if disabled else "a fleet"
            chk.refuse(
                f"the path has {len(path)} steps; {why} moves at most {limit} step{'s' if limit != 1 else ''} "
                "a turn (RULES.md §4)"
            )
        zone, port = self.board.place(fleet)
        try:
            self.board.walk(nation=self.nation, zone=zone, port=port, path=path, ships=ships)
        except CheckFailed as failed:
            chk.refuse(str(failed))
        return {"fleet": fleet.pk, "path": path}, fleet, 0

    def _posture(self, chk: _Check, f: _Fields) -> _Result:
        fleet = self._fleet(chk, f, "fleet")
        posture = f.choice("posture", Fleet.Posture.values)
        key = f.optional_text("port")
        if posture == Fleet.Posture.BLOCKADE:
            if key is None:
                chk.refuse('a blockade names the port it blockades: "port": "<port key>"')
            self._port(chk, key)
        elif key is not None:
            chk.refuse(f'"port" goes only with the blockade posture, not with {posture}')
        self._once(chk, fleet)
        return {"fleet": fleet.pk, "posture": posture, "port": key}, fleet, 0

    def _battle_orders(self, chk: _Check, f: _Fields) -> _Result:
        fleet = self._fleet(chk, f, "fleet")
        after = f.choice("after_battle", Fleet.AfterBattle.values)
        port_key = f.optional_text("retreat_port")
        zone_key = f.optional_text("retreat_zone")
        if port_key is not None:
            port = self._port(chk, port_key)
            if not self.board.friendly(self.nation, port):
                chk.refuse(
                    f"{port.name} is {self.board.owner_code(port)}'s; a fleet retreats only into an own or allied "
                    "port (RULES.md §4)"
                )
        if zone_key is not None:
            self._zone(chk, zone_key)
        self._once(chk, fleet)
        return {"fleet": fleet.pk, "after_battle": after, "retreat_port": port_key, "retreat_zone": zone_key}, fleet, 0

    def _line_order(self, chk: _Check, f: _Fields) -> _Result:
        fleet = self._fleet(chk, f, "fleet")
        ids = f.integers("ships")
        self._once(chk, fleet)
        ships = self.fleet_ships(fleet)
        have = {s.pk for s in ships}
        missing = [s for s in ships if s.pk not in set(ids)]
        extra = [sid for sid in ids if sid not in have]
        if missing or extra:
            parts = []
            if missing:
                parts.append(f"it leaves out {', '.join(f'{s.name} ({s.pk})' for s in missing)}")
            if extra:
                parts.append(f"{', '.join(map(str, extra))} {'is' if len(extra) == 1 else 'are'} not in the fleet")
            chk.refuse("a line order lists exactly the fleet's ships afloat, each once; " + " and ".join(parts))
        return {"fleet": fleet.pk, "ships": ids}, fleet, 0

    def _guns(self, chk: _Check, f: _Fields) -> tuple[Fleet, Port, list[Ship]]:
        fleet = self._fleet(chk, f, "fleet")
        port = self._port(chk, f.text("port"))
        self._once(chk, fleet)
        ships = self._afloat(chk, fleet)
        zone, in_port = self.end_place(fleet)
        try:
            self.board.run_guns_check(nation=self.nation, port=port, zone=zone, in_port=in_port)
        except CheckFailed as failed:
            chk.refuse(str(failed))
        return fleet, port, ships

    def _run_guns(self, chk: _Check, f: _Fields) -> _Result:
        fleet, port, _ = self._guns(chk, f)
        return {"fleet": fleet.pk, "port": port.key}, fleet, 0

    def _fireships(self, chk: _Check, f: _Fields) -> _Result:
        fleet, port, ships = self._guns(chk, f)
        if not any(s.ship_class == "fireship" for s in ships):
            chk.refuse(f"fleet {fleet.name!r} has no fireship (RULES.md §9: its fireship-class ships attack)")
        return {"fleet": fleet.pk, "port": port.key}, fleet, 0

    def _sally(self, chk: _Check, f: _Fields) -> _Result:
        fleet = self._fleet(chk, f, "fleet")
        self._once(chk, fleet)
        zone, port = self.board.place(fleet)
        if port is None:
            chk.refuse(f"the fleet is at sea in {zone.name}; only a fleet in a port sallies (RULES.md §4)")
        move = self.listed.moves.get(fleet.pk)
        if move is not None:
            chk.refuse(f"the fleet moves by order {move[0]}; a sallying fleet leaves port only to fight the blockaders")
        ships = self._afloat(chk, fleet)
        try:
            leave_port_check(ships=ships)
        except CheckFailed as failed:
            chk.refuse(str(failed))
        return {"fleet": fleet.pk}, fleet, 0

    def _lay_down(self, chk: _Check, f: _Fields) -> _Result:
        ship_class = f.choice("class", SHIP_CLASSES)
        name = _clean_name(f.text("name"))
        chk.subject = f"{ship_class} {name!r}"
        port = self._port(chk, f.text("port"))
        try:
            lay_down_port_check(nation=self.nation, port=port, turn=self.turn.number)
            name = ship_name_validate(campaign_id=self.campaign.pk, original_nation_id=self.nation.pk, name=name)
        except (ConstructionRefused, ShipNameError) as refused:
            chk.refuse(str(refused).rstrip("."))
        earlier = self.listed.keel_names.get(name)
        if earlier is not None:
            chk.refuse(f"order {earlier} already lays down a ship named {name!r}; choose another name")
        counts = self.navy_counts
        for listed_class in self.listed.keel_classes:
            counts = counts.plus(listed_class)
        cost = self.ruleset.ship_cost[ship_class]
        try:
            # The treasury is checked below, with the raises counted too.
            check_lay_down(
                self.ruleset,
                navy=self.nation.navy,
                nation_code=self.nation.code,
                year=self.turn.year,
                ship_class=ship_class,
                counts=counts,
                available_ep=cost,
            )
        except ConstructionRefused as refused:
            chk.refuse(refused.message.rstrip(".") + " (lay-downs listed before this one are counted)")
        self._money_check(chk, f"a {ship_class}", cost)
        return {"class": ship_class, "name": name, "port": port.key}, None, cost

    def _raise(self, chk: _Check, f: _Fields) -> _Result:
        unit = f.choice("unit", RAISE_UNITS)
        port = self._port(chk, f.text("port"))
        what = unit.replace("_", " ")
        chk.subject = f"{what} at {port.name}"
        try:
            raise_port_check(nation=self.nation, port=port)
        except CheckFailed as failed:
            chk.refuse(str(failed))
        cost = self.ruleset[RAISE_COST_KEY[unit]]
        self._money_check(chk, f"a {what}", cost)
        return {"unit": unit, "port": port.key}, None, cost

    def _ship_once(self, chk: _Check, ship: Ship) -> None:
        group = SHIP_ORDER_GROUP[chk.kind]
        earlier = self.listed.ship_kinds.get((ship.pk, group))
        if earlier is not None:
            what = "a repair order" if group == "repair" else "a lay_up or recommission order"
            chk.refuse(f"{ship.name} already has {what} this turn (order {earlier})")

    def _ship_port(self, ship: Ship) -> Port | None:
        fleet = self.fleets.get(ship.fleet_id) if ship.fleet_id is not None else None
        if fleet is None or fleet.port_id is None:
            return None
        return self.board.ports_by_id.get(fleet.port_id)

    def _repair(self, chk: _Check, f: _Fields) -> _Result:
        ship = self._ship(chk, f)
        on = f.boolean("on", default=True)
        self._ship_once(chk, ship)
        if on:
            try:
                repair_check(nation=self.nation, ship=ship, port=self._ship_port(ship), turn=self.turn.number)
            except CheckFailed as failed:
                chk.refuse(str(failed))
        return {"ship": ship.pk, "on": on}, None, 0

    def _ordinary(self, chk: _Check, f: _Fields, *, lay_up: bool) -> _Result:
        ship = self._ship(chk, f)
        self._ship_once(chk, ship)
        try:
            ordinary_check(nation=self.nation, ship=ship, port=self._ship_port(ship), lay_up=lay_up)
        except CheckFailed as failed:
            chk.refuse(str(failed))
        return {"ship": ship.pk}, None, 0

    def _lay_up(self, chk: _Check, f: _Fields) -> _Result:
        return self._ordinary(chk, f, lay_up=True)

    def _recommission(self, chk: _Check, f: _Fields) -> _Result:
        return self._ordinary(chk, f, lay_up=False)

    def _place_key(self, fleet_id: int | None) -> tuple[int, int | None] | None:
        fleet = self.fleets.get(fleet_id) if fleet_id is not None else None
        return (fleet.sea_zone_id, fleet.port_id) if fleet is not None else None

    def _place_name(self, place: tuple[int, int | None] | None) -> str:
        if place is None:
            return "nowhere"
        if place[1] is not None:
            return f"in {self.board.ports_by_id[place[1]].name}"
        return f"at sea in {self.board.zones_by_id[place[0]].name}"

    def _organised_ships(self, chk: _Check, ids: Sequence[int]) -> list[Ship]:
        ships = self._ships(chk, ids)
        for ship in ships:
            earlier = self.listed.org_ships.get(ship.pk)
            if earlier is not None:
                chk.refuse(f"{ship.name} is already moved by order {earlier}")
        return ships

    def _transfer(self, chk: _Check, f: _Fields) -> _Result:
        ids = f.integers("ships")
        to = self._fleet(chk, f, "to_fleet", subject="to fleet")
        self._once(chk, to)
        ships = self._organised_ships(chk, ids)
        where = self._place_key(to.pk)
        org = self._org_map()
        for ship in ships:
            if org.get(ship.pk) == to.pk:
                chk.refuse(f"{ship.name} is already in {to.name}")
            place = self._place_key(ship.fleet_id)
            if place != where:
                chk.refuse(
                    f"{ship.name} is {self._place_name(place)} and {to.name} is {self._place_name(where)}; ships "
                    "move between fleets only in one place (the same zone, and the same port or both at sea)"
                )
        return {"ships": ids, "to_fleet": to.pk}, to, 0

    def _form_fleet(self, chk: _Check, f: _Fields) -> _Result:
        ids = f.integers("ships")
        name = _clean_name(f.text("name"))
        chk.subject = f"{name!r}"
        if len(name) > FLEET_NAME_MAX:
            chk.refuse(f"a fleet name has at most {FLEET_NAME_MAX} characters; this one has {len(name)}")
        if any(fleet.name == name for fleet in self.fleets.values()):
            chk.refuse(f"{self.nation.code} already has a fleet named {name!r}; choose another name")
        earlier = self.listed.fleet_names.get(name)
        if earlier is not None:
            chk.refuse(f"order {earlier} already forms a fleet named {name!r}; choose another name")
        ships = self._organised_ships(chk, ids)
        places = {self._place_key(s.fleet_id) for s in ships}
        if len(places) > 1:
            where = "; ".join(
                f"{_names(s for s in ships if self._place_key(s.fleet_id) == p)} {self._place_name(p)}"
                for p in sorted(places, key=str)
            )
            chk.refuse(f"a new fleet is formed from ships in one place; these are in several: {where}")
        return {"ships": ids, "name": name}, None, 0

    def _merge(self, chk: _Check, f: _Fields) -> _Result:
        fleet = self._fleet(chk, f, "fleet")
        into = self._fleet(chk, f, "into")
        if into.pk == fleet.pk:
            chk.refuse("a fleet cannot be merged into itself")
        self._once(chk, fleet)
        here, there = self._place_key(fleet.pk), self._place_key(into.pk)
        if here != there:
            chk.refuse(
                f"{fleet.name} is {self._place_name(here)} and {into.name} is {self._place_name(there)}; fleets "
                "merge only in one place"
            )
        return {"fleet": fleet.pk, "into": into.pk}, fleet, 0

    def _appoint(self, chk: _Check, f: _Fields) -> _Result:
        name = f.text("admiral")
        fleet = self._fleet(chk, f, "fleet")
        self._once(chk, fleet)
        admiral = Admiral.objects.filter(campaign=self.campaign, nation=self.nation, name=name).first()
        if admiral is None:
            chk.refuse(f"{self.nation.code} has no admiral named {name!r}")
        if admiral.status != Admiral.Status.ACTIVE:
            chk.refuse(f"{admiral.name} is {admiral.get_status_display().lower()}; only an active admiral is appointed")
        if fleet.admiral_id == admiral.pk:
            chk.refuse(f"{admiral.name} already commands {fleet.name}")
        earlier = self.listed.appointed.get(admiral.name)
        if earlier is not None:
            chk.refuse(f"{admiral.name} is already appointed by order {earlier}")
        return {"admiral": admiral.name, "fleet": fleet.pk}, fleet, 0

    def _embark(self, chk: _Check, f: _Fields) -> _Result:
        fleet = self._fleet(chk, f, "fleet")
        port = self._port(chk, f.text("port"))
        units = f.integer("units", minimum=1)
        self._once(chk, fleet)
        zone, in_port = self.board.place(fleet)
        if in_port is not None and in_port.pk != port.pk:
            chk.refuse(f"the fleet is in {in_port.name}; it embarks units only in the port it is in")
        if in_port is None and zone.pk != port.sea_zone_id:
            chk.refuse(f"{port.name} is not in {zone.name}, where the fleet is; units embark from a port of its zone")
        there = LandUnit.objects.filter(
            nation=self.nation, port=port, state__in=(LandUnit.State.GARRISON, LandUnit.State.ASHORE)
        ).count()
        available = there - self.listed.embarked_at[port.key]
        if units > available:
            chk.refuse(
                f"{self.nation.code} has {there} land unit{'s' if there != 1 else ''} at {port.name}"
                + (f", {there - available} of them embarked by earlier orders" if there != available else "")
                + f"; {units} cannot embark"
            )
        empty = [s for s in self._afloat(chk, fleet) if s.ship_class == "transport" and s.cargo_id is None]
        if units > len(empty):
            chk.refuse(
                f"fleet {fleet.name!r} has {len(empty)} empty transport{'s' if len(empty) != 1 else ''}; each "
                f"carries one land unit (RULES.md §7), so {units} cannot embark"
            )
        return {"fleet": fleet.pk, "port": port.key, "units": units}, fleet, 0

    def _land(self, chk: _Check, f: _Fields) -> _Result:
        fleet = self._fleet(chk, f, "fleet")
        port = self._port(chk, f.text("port"))
        units = f.integer("units", minimum=1)
        self._once(chk, fleet)
        zone, in_port = self.end_place(fleet)
        try:
            self.board.landing_check(nation=self.nation, port=port, zone=zone, in_port=in_port)
        except CheckFailed as failed:
            chk.refuse(str(failed))
        loaded = sum(1 for s in self.fleet_ships(fleet) if s.ship_class == "transport" and s.cargo_id is not None)
        aboard = loaded + self.listed.embarked_by_fleet.get(fleet.pk, 0)
        if units > aboard:
            chk.refuse(
                f"fleet {fleet.name!r} carries {aboard} land unit{'s' if aboard != 1 else ''} "
                f"(counting any embarked by an earlier order); {units} cannot land"
            )
        return {"fleet": fleet.pk, "port": port.key, "units": units}, fleet, 0

    def _diplomacy(self, chk: _Check, f: _Fields) -> _Result:
        code = f.text("nation")
        chk.subject = code
        other = self.board.nations.get(code)
        if other is None:
            chk.refuse(f"there is no nation {code!r} in this campaign")
        try:
            self.board.diplomacy_check(kind=chk.kind, nation=self.nation, other=other)
        except CheckFailed as failed:
            chk.refuse(str(failed))
        earlier = self.listed.diplomacy.get(other.code)
        if earlier is not None:
            chk.refuse(
                f"order {earlier} is already a diplomatic order towards {other.code}; give one per nation a turn"
            )
        return {"nation": other.code}, None, 0

    _declare_war = _offer_peace = _propose_alliance = _leave_alliance = _diplomacy


# --- services ----------------------------------------------------------------------------------------------


@transaction.atomic
def order_validate(
    *, nation: Nation, turn: Turn, body: object, earlier: Sequence[Mapping[str, Any]] = ()
) -> CleanOrder:
    """Check one order body; return it cleaned or raise :class:`OrderRefused` naming it and the reason.

    ``earlier``: the bodies of the nation's orders listed before it this turn (its position is
    ``len(earlier) + 1``): their lay-downs and raises are committed against the treasury, their
    keels count for quota and four-deckers, their ship and fleet names are taken, and their fleet
    organisation and moves are taken into account. Reads the database, writes nothing.
    """
    validator = _Validator(nation=nation, turn=turn)
    for listed in earlier:
        validator.absorb(listed)
    return validator.validate(body)


def _validate_list(
    *, nation: Nation, turn: Turn, bodies: Sequence[object]
) -> tuple[list[CleanOrder | None], list[str | None]]:
    """Check a whole list in listed order: per position the clean order or the refusal."""
    validator = _Validator(nation=nation, turn=turn)
    cleans: list[CleanOrder | None] = []
    errors: list[str | None] = []
    for body in bodies:
        try:
            clean = validator.validate(body)
        except OrderRefused as refused:
            cleans.append(None)
            errors.append(refused.message)
            validator.absorb(body, accepted=False)
        else:
            cleans.append(clean)
            errors.append(None)
            validator.absorb(clean.body)
    return cleans, errors


def orders_for_turn(*, nation: Nation, turn: Turn) -> QuerySet[Order]:
    """The nation's orders for ``turn`` in listed order (RULES.md §3), with their fleets."""
    return Order.objects.filter(turn=turn, nation=nation).select_related("fleet").order_by("position")


def orders_committed_ep(*, nation: Nation, turn: Turn) -> int:
    """EP committed by the nation's lay-down and raise orders this turn (the dashboard's committed
    treasury is ``nation.treasury`` less this)."""
    validator = _Validator(nation=nation, turn=turn)
    for order in orders_for_turn(nation=nation, turn=turn):
        validator.absorb(order.body)
    return validator.listed.committed_ep


def _turn_locked(*, campaign_id: int, turn_id: int | None = None) -> Turn:
    """The open turn, locked until the end of the transaction (a claim waits for us, we for it)."""
    campaign = Campaign.objects.get(pk=campaign_id)
    if campaign.status == Campaign.Status.ENDED:
        raise OrderRefused(f"{campaign.name} has ended; orders are closed.")
    # The snapshot and dice log are large JSON blobs nobody needs for an order change.
    turns = Turn.objects.select_for_update().defer("snapshot", "dice_log").filter(campaign_id=campaign_id)
    turn = turns.filter(pk=turn_id).first() if turn_id is not None else turns.filter(status=Turn.Status.OPEN).first()
    if turn is not None and turn.status == Turn.Status.OPEN:
        return turn
    if turn is not None and turn.status == Turn.Status.RESOLVED:
        raise OrderRefused(f"Turn {turn.number} has been resolved; its orders are closed.")
    if turn is not None or Turn.objects.filter(campaign_id=campaign_id, status=Turn.Status.RESOLVING).exists():
        raise OrderRefused("The turn is being resolved; orders are closed.")
    raise OrderRefused(f"{campaign.name} has no open turn; orders are closed.")


def _mark_submitted(*, nation: Nation, turn: Turn) -> None:
    NationTurn.objects.update_or_create(turn=turn, nation=nation, defaults={"submitted_at": timezone.now()})


def _store_refused(exc: IntegrityError) -> OrderRefused:
    # The checks above refuse every conflict the database knows of; this guards the last gap.
    return OrderRefused(f"The orders conflict with orders stored meanwhile; reload them and try again ({exc}).")


@transaction.atomic
def order_add(*, nation: Nation, body: object) -> Order:
    """Append an order at the end of the nation's list for the open turn."""
    turn = _turn_locked(campaign_id=nation.campaign_id)
    existing = list(orders_for_turn(nation=nation, turn=turn))
    validator = _Validator(nation=nation, turn=turn)
    for order in existing:
        validator.absorb(order.body)
    clean = validator.validate(body)
    position = (max((o.position for o in existing), default=0)) + 1
    try:
        with transaction.atomic():
            order = Order.objects.create(
                campaign_id=nation.campaign_id,
                turn=turn,
                nation=nation,
                position=position,
                kind=clean.kind,
                body=clean.body,
                fleet=clean.fleet,
            )
    except IntegrityError as exc:
        raise _store_refused(exc) from exc
    _mark_submitted(nation=nation, turn=turn)
    return order


def _list_change_check(
    *, nation: Nation, turn: Turn, before: Sequence[Order], after: Sequence[tuple[int, object]], changed: int | None
) -> dict[int, CleanOrder]:
    """Refuse a change of the list that makes an order refused that was not refused before.

    ``after``: (order id, body) in the new listed order; ``changed``: the id whose body is new.
    Orders that were already refused (the world changed under them) do not block the change.
    """
    _, old_errors = _validate_list(nation=nation, turn=turn, bodies=[o.body for o in before])
    was_refused = {o.pk for o, error in zip(before, old_errors, strict=True) if error}
    cleans, errors = _validate_list(nation=nation, turn=turn, bodies=[body for _, body in after])
    if changed is not None:
        for (order_id, _), error in zip(after, errors, strict=True):
            if order_id == changed and error:
                raise OrderRefused(error)
    for (order_id, _), error in zip(after, errors, strict=True):
        if error and (order_id == changed or order_id not in was_refused):
            raise OrderRefused(f"That change would leave another order refused: {error}")
    return {order_id: clean for (order_id, _), clean in zip(after, cleans, strict=True) if clean is not None}


@transaction.atomic
def order_update(*, order: Order, body: object) -> Order:
    """Replace an order's body (its kind may change); it keeps its place in the list."""
    turn = _turn_locked(campaign_id=order.campaign_id, turn_id=order.turn_id)
    nation = Nation.objects.get(pk=order.nation_id)
    before = list(orders_for_turn(nation=nation, turn=turn))
    if order.pk not in {o.pk for o in before}:
        raise OrderRefused(f"Order {order.position} no longer exists; it was withdrawn.")
    after = [(o.pk, body if o.pk == order.pk else o.body) for o in before]
    clean = _list_change_check(nation=nation, turn=turn, before=before, after=after, changed=order.pk)[order.pk]
    stored = next(o for o in before if o.pk == order.pk)
    stored.kind, stored.body, stored.fleet = clean.kind, clean.body, clean.fleet
    try:
        with transaction.atomic():
            stored.save(update_fields=["kind", "body", "fleet", "updated_at"])
    except IntegrityError as exc:
        raise _store_refused(exc) from exc
    _mark_submitted(nation=nation, turn=turn)
    order.kind, order.body, order.fleet, order.position = stored.kind, stored.body, stored.fleet, stored.position
    return stored


@transaction.atomic
def order_withdraw(*, order: Order) -> None:
    """Withdraw an order; the orders after it move up one place (positions stay 1, 2, 3…)."""
    turn = _turn_locked(campaign_id=order.campaign_id, turn_id=order.turn_id)
    nation = Nation.objects.get(pk=order.nation_id)
    before = list(orders_for_turn(nation=nation, turn=turn))
    if order.pk not in {o.pk for o in before}:
        raise OrderRefused(f"Order {order.position} no longer exists; it was already withdrawn.")
    after = [(o.pk, o.body) for o in before if o.pk != order.pk]
    _list_change_check(nation=nation, turn=turn, before=before, after=after, changed=None)
    Order.objects.filter(pk=order.pk).delete()
    # One row at a time, upwards: each position is free when an order moves into it.
    for position, stored in enumerate((o for o in before if o.pk != order.pk), 1):
        if stored.position != position:
            stored.position = position
            stored.save(update_fields=["position", "updated_at"])
    _mark_submitted(nation=nation, turn=turn)


@transaction.atomic
def orders_replace(*, nation: Nation, bodies: Sequence[object]) -> list[Order]:
    """Replace the nation's whole list for the open turn, all or nothing.

    Raises :class:`OrdersRefused` listing every refused order with its reason, or a plain
    :class:`OrderRefused` when the submission as a whole cannot be taken (orders closed, not a list);
    then nothing is stored. An empty list withdraws every order (and still counts as submitted).
    """
    if isinstance(bodies, str | bytes | Mapping) or not isinstance(bodies, Sequence):
        raise OrderRefused(f"The orders must be a JSON list of order objects, not {_json_type(bodies)}.")
    turn = _turn_locked(campaign_id=nation.campaign_id)
    cleans, errors = _validate_list(nation=nation, turn=turn, bodies=bodies)
    refused = [error for error in errors if error]
    if refused:
        raise OrdersRefused(refused)
    Order.objects.filter(turn=turn, nation=nation).delete()
    orders = [
        Order(
            campaign_id=nation.campaign_id,
            turn=turn,
            nation=nation,
            position=clean.position,
            kind=clean.kind,
            body=clean.body,
            fleet=clean.fleet,
        )
        for clean in cleans
        if clean is not None
    ]
    try:
        with transaction.atomic():
            stored = Order.objects.bulk_create(orders)
    except IntegrityError as exc:
        raise OrdersRefused([_store_refused(exc).message]) from exc
    _mark_submitted(nation=nation, turn=turn)
    return stored


# --- describing -------------------------------------------------------------------------------------------


def order_describe(order: Order) -> str:
    """One readable line for a stored order, e.g. "Order 1 (move, fleet 'Channel Fleet'): channel → biscay"."""
    body = order.body
    kind = order.kind
    subject = f", fleet {order.fleet.name!r}" if order.fleet is not None and kind != Order.Kind.TRANSFER else ""

    def ids(key: str) -> str:
        return ", ".join(str(v) for v in body.get(key) or [])

    details: dict[str, Callable[[], str]] = {
        Order.Kind.MOVE: lambda: " → ".join(body.get("path") or []),
        Order.Kind.POSTURE: lambda: f"{body.get('posture')}" + (f" {body['port']}" if body.get("port") else ""),
        Order.Kind.BATTLE_ORDERS: lambda: (
            f"after battle {body.get('after_battle')}; retreat port {body.get('retreat_port') or '—'}; "
            f"retreat zone {body.get('retreat_zone') or '—'}"
        ),
        Order.Kind.LINE_ORDER: lambda: f"line {ids('ships')}",
        Order.Kind.RUN_GUNS: lambda: f"at {body.get('port')}",
        Order.Kind.SALLY: lambda: "sally against the blockaders",
        Order.Kind.FIRESHIPS: lambda: f"at {body.get('port')}",
        Order.Kind.LAY_DOWN: lambda: f"{body.get('class')} {body.get('name')!r} at {body.get('port')}",
        Order.Kind.RAISE: lambda: f"{str(body.get('unit')).replace('_', ' ')} at {body.get('port')}",
        Order.Kind.REPAIR: lambda: f"ship {body.get('ship')} {'on' if body.get('on', True) else 'off'}",
        Order.Kind.LAY_UP: lambda: f"ship {body.get('ship')}",
        Order.Kind.RECOMMISSION: lambda: f"ship {body.get('ship')}",
        Order.Kind.TRANSFER: lambda: (
            f"ships {ids('ships')} to fleet {body.get('to_fleet')}"
            + (f" ({order.fleet.name})" if order.fleet is not None else "")
        ),
        Order.Kind.FORM_FLEET: lambda: f"ships {ids('ships')} as {body.get('name')!r}",
        Order.Kind.MERGE: lambda: f"into fleet {body.get('into')}",
        Order.Kind.APPOINT: lambda: f"admiral {body.get('admiral')}",
        Order.Kind.EMBARK: lambda: f"{body.get('units')} unit(s) at {body.get('port')}",
        Order.Kind.LAND: lambda: f"{body.get('units')} unit(s) at {body.get('port')}",
    }
    detail = details[kind]() if kind in details else f"towards {body.get('nation')}"
    return f"Order {order.position} ({kind}{subject}): {detail}"


__all__ = [
    "Board",
    "CheckFailed",
    "CleanOrder",
    "OrderRefused",
    "OrdersRefused",
    "leave_port_check",
    "max_steps",
    "order_add",
    "order_describe",
    "order_update",
    "order_validate",
    "order_withdraw",
    "orders_committed_ep",
    "orders_for_turn",
    "orders_replace",
    "ordinary_check",
    "raise_port_check",
    "repair_check",
]
