"""The rules an order is checked against that do not depend on the order list: the board (zones and
adjacency, ports, nations, relations) and the checks of RULES.md §2, §4, §7 and §10 made on it; the
checks of a ship in port (repair, lay up, recommission) are in :mod:`campaign.orders.in_port`.

Each check raises :class:`~campaign.orders.errors.CheckFailed` with the bare reason and a
:class:`~campaign.orders.errors.RefusalCode`; the per-kind checks (``checks/``) name the order.
They are the one implementation of their rules: the order checks call them at submission, the
order page's choices offer what :meth:`Board.step` and :func:`max_steps` accept, and resolution
(``campaign/turn``) calls them again against the state at resolution — phase 3 for the move length,
each step and the sally — and reports their reason
when it skips an order.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from typing import Any, Protocol

from campaign.models import Nation, Relation
from campaign.orders.errors import CheckFailed, RefusalCode
from campaign.orders.schema import DIPLOMACY_FROM
from campaign.selectors import Diplomacy, diplomacy_for_campaign
from fleets.models import Fleet, Ship
from ports.models import Port, SeaZone
from rules.ruleset import Ruleset


class ShipFacts(Protocol):
    """What these rules read of a ship: a :class:`~fleets.models.Ship` (resolution, the order page) or
    the order checks' row of one (:class:`~campaign.orders.context.ShipAfloat`)."""

    @property
    def pk(self) -> Any: ...

    @property
    def name(self) -> str: ...

    @property
    def condition(self) -> str: ...

    @property
    def in_ordinary(self) -> bool: ...


def ship_names(ships: Iterable[ShipFacts]) -> str:
    """Ships' names, comma-separated, for a refusal."""
    return ", ".join(s.name for s in ships)


def max_steps(ruleset: Ruleset, ships: Iterable[ShipFacts]) -> int:
    """RULES.md §4: "a path of at most 2 steps (1 if the fleet has a disabled ship)"."""
    if any(s.condition == Ship.Condition.DISABLED for s in ships):
        return ruleset["movement.max_steps_with_disabled"]
    return ruleset["movement.max_steps"]


def leave_port_check(*, ships: Iterable[ShipFacts]) -> None:
    """RULES.md §2: "A ship in ordinary cannot leave port"."""
    laid_up = [s for s in ships if s.in_ordinary]
    if laid_up:
        raise CheckFailed(
            f"ships in ordinary cannot leave port (rules §2): {ship_names(laid_up)} "
            f"{'is' if len(laid_up) == 1 else 'are'} in ordinary; transfer them to another fleet first "
            "(fleet organisation comes before movement) or recommission them (phase 8)",
            code=RefusalCode.IN_ORDINARY,
        )


def sally_place_check(*, zone: SeaZone, port: Port | None) -> None:
    """RULES.md §4 "Sally": "a fleet in a port blockaded against it may leave port" — only a fleet in
    a port sallies. Made by the sally order's check and by phase 3 as the fleet is after moving."""
    if port is None:
        raise CheckFailed(
            f"the fleet is at sea in {zone.name}; only a fleet in a port sallies (rules §4)", code=RefusalCode.AT_SEA
        )


#: The fields of zones and ports the order checks read (:meth:`Board.for_checks`).
CHECKED_ZONE_FIELDS = ("id", "key", "name")
CHECKED_PORT_FIELDS = (
    "id",
    "campaign",
    "key",
    "name",
    "sea_zone",
    "owner",
    "dockyard",
    "siege_turns",
    "taken_turn",
)


@functools.cache
def _checked_port_columns() -> tuple[str, ...]:
    """The columns of :data:`CHECKED_PORT_FIELDS`, in the model's field order (the id first), as
    ``Model.from_db`` takes them."""
    columns = tuple(f.attname for f in Port._meta.concrete_fields if f.name in CHECKED_PORT_FIELDS)
    assert columns[0] == "id" and len(columns) == len(CHECKED_PORT_FIELDS)
    return columns


class Board:
    """What the order checks read about one campaign: zones and adjacency, ports, nations, relations.

    A read-only snapshot, loaded lazily (a few queries in all). Build one per validation, or one
    per phase after diplomacy, and call its checks as often as needed.
    """

    def __init__(self, campaign_id: int) -> None:
        self.campaign_id = campaign_id
        # Which fields of zones and ports are read (None: all); see for_checks().
        self._zone_fields: tuple[str, ...] | None = None
        self._port_fields: tuple[str, ...] | None = None

    @classmethod
    def for_checks(cls, campaign_id: int) -> Board:
        """A board whose zones and ports carry only the fields the order checks read (these rules, the
        per-kind checks, ``lay_down_port_check`` and ``raise_port_check``): one is built per order
        entered, and the campaign's ~70 ports with all their fields were its largest read. A field
        left out would still be read on access, one query per row: pass such boards to nothing else."""
        board = cls(campaign_id)
        board._zone_fields = CHECKED_ZONE_FIELDS
        board._port_fields = CHECKED_PORT_FIELDS
        return board

    @classmethod
    def preloaded(
        cls,
        campaign_id: int,
        *,
        nations: Iterable[Nation],
        diplomacy: Diplomacy,
        zones: Iterable[SeaZone] | None = None,
        ports: Iterable[Port] | None = None,
        adjacency: Mapping[int, Iterable[int]] | None = None,
    ) -> Board:
        """A board over rows the caller has read already (phase 3's sea, the order page's viewer), so
        the same checks run without reading them again. What is not given is read when first needed.
        ``adjacency``: zone id → adjacent zone ids, both ways."""
        board = cls(campaign_id)
        board.__dict__["nations"] = {n.code: n for n in nations}
        board.__dict__["diplomacy"] = diplomacy
        if zones is not None:
            board.__dict__["zones"] = {z.key: z for z in zones}
        if ports is not None:
            board.__dict__["ports"] = {p.key: p for p in ports}
        if adjacency is not None:
            board.__dict__["adjacency"] = {pk: frozenset(others) for pk, others in adjacency.items()}
        return board

    # The reads below order explicitly by what Meta's orderings come to within one campaign: ordering by
    # "campaign" would join it to sort by its name.
    @cached_property
    def zones(self) -> dict[str, SeaZone]:
        zones = SeaZone.objects.filter(campaign_id=self.campaign_id).order_by("key")
        if self._zone_fields is not None:
            zones = zones.only(*self._zone_fields)
        return {z.key: z for z in zones}

    @cached_property
    def zones_by_id(self) -> dict[int, SeaZone]:
        return {z.pk: z for z in self.zones.values()}

    @cached_property
    def adjacency(self) -> dict[int, frozenset[int]]:
        pairs: dict[int, set[int]] = {pk: set() for pk in self.zones_by_id}
        zones = SeaZone.objects.filter(campaign_id=self.campaign_id, adjacent__isnull=False).order_by()
        rows = zones.values_list("pk", "adjacent")
        for a, b in rows:
            if b is None:
                continue
            pairs[a].add(b)
            pairs.setdefault(b, set()).add(a)  # the relation is symmetric; keep it so even if a row is missing
        return {pk: frozenset(others) for pk, others in pairs.items()}

    @cached_property
    def ports(self) -> dict[str, Port]:
        if self._port_fields is not None:
            return {key: self._port_made(row) for key, row in self._port_rows.items()}
        return {p.key: p for p in Port.objects.filter(campaign_id=self.campaign_id).order_by("key")}

    @cached_property
    def ports_by_id(self) -> dict[int, Port]:
        return {p.pk: p for p in self.ports.values()}

    # A board for the checks reads the campaign's ports as rows and makes a port of a row only when it
    # is looked up: an order names one or two of the ~70 ports, and making all of them (models with
    # deferred fields) was most of the cost of the read, made for most orders entered. The port made
    # is the one .only() would have made (Model.from_db over the same columns).
    @cached_property
    def _port_rows(self) -> dict[str, tuple[Any, ...]]:
        columns = _checked_port_columns()
        rows = Port.objects.filter(campaign_id=self.campaign_id).order_by("key").values_list(*columns)
        key_at = columns.index("key")
        return {row[key_at]: row for row in rows}

    @cached_property
    def _port_keys_by_id(self) -> dict[int, str]:
        key_at = _checked_port_columns().index("key")
        return {row[0]: row[key_at] for row in self._port_rows.values()}

    @cached_property
    def _ports_made(self) -> dict[int, Port]:
        return {}

    def _port_made(self, row: tuple[Any, ...]) -> Port:
        """The port of a row of :attr:`_port_rows`, made once (the same instance for every lookup)."""
        port = self._ports_made.get(row[0])
        if port is None:
            port = Port.from_db(Port.objects.db, _checked_port_columns(), row)
            self._ports_made[row[0]] = port
        return port

    def port_by_key(self, key: str) -> Port | None:
        """The port with this key, or None."""
        if self._port_fields is None or "ports" in self.__dict__:
            return self.ports.get(key)
        row = self._port_rows.get(key)
        return self._port_made(row) if row is not None else None

    def port_by_id(self, pk: int) -> Port | None:
        """The port with this id, or None."""
        if self._port_fields is None or "ports" in self.__dict__:
            return self.ports_by_id.get(pk)
        key = self._port_keys_by_id.get(pk)
        return self.port_by_key(key) if key is not None else None

    @cached_property
    def nations(self) -> dict[str, Nation]:
        return {n.code: n for n in Nation.objects.filter(campaign_id=self.campaign_id).order_by("code")}

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

    def owner_name(self, port: Port) -> str:
        """Whose port it is, as players read it."""
        owner = self.nations_by_id.get(port.owner_id)
        return owner.name if owner is not None else "nobody"

    def relation(self, nation: Nation, other_id: int) -> str:
        """ "self", "peace", "war" or "alliance" (RULES.md §10; no stored relation is peace)."""
        return self.diplomacy.state(nation.pk, other_id)

    def friendly(self, nation: Nation, port: Port) -> bool:
        """RULES.md §4: an "own or allied port"."""
        return self.diplomacy.allied(nation.pk, port.owner_id)

    def place(self, fleet: Fleet) -> tuple[SeaZone, Port | None]:
        """Where a fleet is now: its zone and, if in port, the port."""
        port = self.port_by_id(fleet.port_id) if fleet.port_id is not None else None
        return self.zones_by_id[fleet.sea_zone_id], port

    # -- checks -----------------------------------------------------------------------------------------
    def port_entry_check(self, *, nation: Nation, port: Port) -> None:
        """RULES.md §4: "Fleets never enter the port of a nation that is neither own nor allied"."""
        if not self.friendly(nation, port):
            state = self.relation(nation, port.owner_id)
            raise CheckFailed(
                f"{port.name} is {self.owner_name(port)}'s and {nation.name} is at {state} with it; fleets enter "
                "only own or allied ports (rules §4)",
                code=RefusalCode.PORT_NOT_FRIENDLY,
            )

    def step(
        self, *, nation: Nation, zone: SeaZone, port: Port | None, step: str, ships: Sequence[ShipFacts] | None = None
    ) -> tuple[SeaZone, Port | None]:
        """One movement step (RULES.md §4) from (zone, port): the new place, or :class:`CheckFailed`.

        A step is a zone key (to an adjacent zone, from sea), "port:<key>" (enter an own or allied port
        of the current zone, from sea) or "sea" (leave the port into its zone). ``ships``, when
        given, are checked for ships in ordinary as the fleet leaves port.
        """
        if step == "sea":
            if port is None:
                raise CheckFailed(
                    f'"sea" leaves a port, but the fleet is already at sea in {zone.name}', code=RefusalCode.BAD_STEP
                )
            if ships is not None:
                leave_port_check(ships=ships)
            return self.zones_by_id[port.sea_zone_id], None
        if step.startswith("port:"):
            key = step.removeprefix("port:")
            target = self.port_by_key(key)
            if target is None:
                raise CheckFailed(f"there is no port {key!r} in this campaign", code=RefusalCode.UNKNOWN_PORT)
            if port is not None:
                raise CheckFailed(
                    f'the fleet is in {port.name}; it leaves with "sea" before entering another port',
                    code=RefusalCode.BAD_STEP,
                )
            if target.sea_zone_id != zone.pk:
                raise CheckFailed(
                    f"{target.name} lies in {self.zones_by_id[target.sea_zone_id].name}, not in {zone.name}; "
                    "a fleet enters only a port of the zone it is in",
                    code=RefusalCode.WRONG_ZONE,
                )
            self.port_entry_check(nation=nation, port=target)
            return zone, target
        target_zone = self.zones.get(step)
        if target_zone is None:
            raise CheckFailed(
                f'there is no sea zone {step!r} in this campaign (a step is a zone key, "port:<key>" or "sea")',
                code=RefusalCode.UNKNOWN_ZONE,
            )
        if port is not None:
            raise CheckFailed(
                f'the fleet is in {port.name}; its first step must be "sea" to leave it', code=RefusalCode.BAD_STEP
            )
        if not self.adjacent(zone, target_zone):
            raise CheckFailed(f"{target_zone.name} is not adjacent to {zone.name}", code=RefusalCode.NOT_ADJACENT)
        return target_zone, None

    def walk(
        self,
        *,
        nation: Nation,
        zone: SeaZone,
        port: Port | None,
        path: Sequence[str],
        ships: Sequence[ShipFacts] | None = None,
    ) -> tuple[SeaZone, Port | None]:
        """Follow a whole path; :class:`CheckFailed` names the step that cannot be taken."""
        for n, step in enumerate(path, 1):
            try:
                zone, port = self.step(nation=nation, zone=zone, port=port, step=step, ships=ships)
            except CheckFailed as failed:
                # The reason names the place ("Bay of Biscay is not adjacent to The Channel"), not its key.
                raise CheckFailed(f"step {n}: {failed}", code=failed.code) from None
        return zone, port

    def run_guns_check(self, *, nation: Nation, port: Port, zone: SeaZone, in_port: Port | None) -> None:
        """RULES.md §4: run the guns (or send fireships, §9) at a port of a nation at war, from sea in
        its zone. ``zone``/``in_port``: where the fleet will be after movement."""
        if port.owner_id == nation.pk:
            raise CheckFailed(
                f"{port.name} is {nation.name}'s own port; nobody runs the guns of its own side",
                code=RefusalCode.OWN_PORT,
            )
        state = self.relation(nation, port.owner_id)
        if state != Relation.State.WAR:
            raise CheckFailed(
                f"{port.name} is {self.owner_name(port)}'s and {nation.name} is at {state} with it; only the guns of "
                "a port of a nation at war can be run (rules §4)",
                code=RefusalCode.NOT_AT_WAR,
            )
        if in_port is not None:
            raise CheckFailed(
                f"the fleet will be in port at {in_port.name}; it attacks {port.name} from sea in its zone",
                code=RefusalCode.IN_PORT,
            )
        if zone.pk != port.sea_zone_id:
            raise CheckFailed(
                f"{port.name} lies in {self.zones_by_id[port.sea_zone_id].name}, but the fleet will be in {zone.name} "
                "(after any move order listed before this one)",
                code=RefusalCode.WRONG_ZONE,
            )

    def landing_check(self, *, nation: Nation, port: Port, zone: SeaZone, in_port: Port | None = None) -> None:
        """RULES.md §7: land "at a port in its zone: own → garrison; allied → guests; enemy → besiegers;
        neutral → refused". ``zone``/``in_port``: where the fleet will be after movement; a fleet in
        port lands only there — "ships in port are not in the zone" (§4)."""
        if zone.pk != port.sea_zone_id:
            raise CheckFailed(
                f"{port.name} lies in {self.zones_by_id[port.sea_zone_id].name}, but the fleet will be in {zone.name} "
                "(after any move order listed before this one); units land only at a port of the fleet's zone",
                code=RefusalCode.WRONG_ZONE,
            )
        if in_port is not None and in_port.pk != port.pk:
            raise CheckFailed(
                f"the fleet will be in port at {in_port.name} (after any move order listed before this one); "
                f"ships in port are not in the zone (rules §4), so it lands units only there, or at "
                f"{port.name} from sea",
                code=RefusalCode.IN_PORT,
            )
        if self.relation(nation, port.owner_id) == Relation.State.PEACE:
            raise CheckFailed(
                f"{port.name} is {self.owner_name(port)}'s, a neutral nation ({nation.name} is at peace with it); "
                "landing at a neutral port is refused (rules §7)",
                code=RefusalCode.NEUTRAL_PORT,
            )

    def diplomacy_check(self, *, kind: str, nation: Nation, other: Nation) -> None:
        """RULES.md §10: declare war from peace or alliance; offer peace from war; propose an alliance
        from peace; leave an alliance from alliance. Never towards oneself."""
        if other.pk == nation.pk:
            raise CheckFailed(f"{nation.name} cannot give a diplomatic order to itself", code=RefusalCode.OWN_NATION)
        state = self.relation(nation, other.pk)
        if state not in DIPLOMACY_FROM[kind]:
            allowed = " or ".join(DIPLOMACY_FROM[kind])
            raise CheckFailed(
                f"{nation.name} and {other.name} are at {state}; {kind} is given from {allowed} (rules §10)",
                code=RefusalCode.WRONG_RELATION,
            )
