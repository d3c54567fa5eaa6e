"""The nation dashboard: treasury and ledger, next turn's projection, the quota, fleets, ports, sieges and
blockades, and the enemies the nation knows of (fog of war as in :mod:`campaign.pages.contacts`).

Another nation's treasury, ledger and orders are never read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.db.models import Q

from battles.selectors import ship_line_key
from campaign.economy import economy_inputs
from campaign.models import LedgerEntry, Nation, Order, Turn
from campaign.orders.context import OrderContext
from campaign.orders.selectors import orders_for_turn
from campaign.pages.contacts import Contact, contacts_for_viewer
from campaign.pages.labels import CLASS_LABELS, CONDITION_LABELS
from campaign.pages.paging import page_of
from campaign.pages.ports import PortRow, blockades_for_viewer, ports_for_viewer
from campaign.pages.reports import ReportView, report_for_nation
from campaign.viewer import User, Viewer, viewer_for_player
from fleets.models import Fleet, Ship
from fleets.selectors import Blockades, navy_counts
from ports.models import Port
from rules.construction import (
    ConstructionRefused,
    NavyCounts,
    big_ships_allowed_now,
    check_limits,
    period_label,
    within_quota,
)
from rules.economy import economy_turn
from rules.ruleset import SHIP_CLASSES, SOL_CLASSES, Ruleset

LEDGER_PAGE_SIZE = 15


@dataclass(frozen=True)
class ShipRow:
    id: int
    name: str
    ship_class: str
    condition: str
    in_ordinary: bool
    crew: str
    captured_from: str
    carrying: bool

    @property
    def class_label(self) -> str:
        return CLASS_LABELS.get(self.ship_class, self.ship_class)

    @property
    def condition_label(self) -> str:
        return CONDITION_LABELS.get(self.condition, self.condition)

    @property
    def sol(self) -> bool:
        return self.ship_class in SOL_CLASSES


@dataclass
class FleetView:
    id: int
    name: str
    zone_key: str
    zone_name: str
    port_name: str
    admiral: str
    posture: str
    blockade_port: str
    in_supply: bool
    ships: list[ShipRow] = field(default_factory=list)

    @property
    def sol(self) -> int:
        return sum(1 for s in self.ships if s.sol)

    @property
    def location(self) -> str:
        return f"in {self.port_name}" if self.port_name else f"at sea, {self.zone_name}"

    @property
    def needing_repair(self) -> int:
        return sum(1 for s in self.ships if s.condition in ("damaged", "disabled"))


@dataclass(frozen=True)
class KeelRow:
    id: int
    name: str
    ship_class: str
    port_name: str
    turns_left: int

    @property
    def class_label(self) -> str:
        return CLASS_LABELS.get(self.ship_class, self.ship_class)


@dataclass(frozen=True)
class LostRow:
    name: str
    ship_class: str
    condition: str
    turn: int | None
    captured_by: str = ""

    @property
    def class_label(self) -> str:
        return CLASS_LABELS.get(self.ship_class, self.ship_class)

    @property
    def fate(self) -> str:
        """ "sunk", "expended", "captured by France"."""
        return f"captured by {self.captured_by}" if self.captured_by else self.condition


@dataclass(frozen=True)
class ClassOption:
    ship_class: str
    cost: int
    build_turns: int
    allowed: bool
    reason: str

    @property
    def label(self) -> str:
        return CLASS_LABELS.get(self.ship_class, self.ship_class)


@dataclass(frozen=True)
class QuotaStatus:
    period: str
    percent: int
    counts: NavyCounts
    within: bool
    big_allowed_now: int
    four_decker_limit: int
    options: list[ClassOption]
    dockyards: list[str]
    pending_keels: int
    #: The keys of ``dockyards``, in the same order: what a lay-down order takes.
    dockyard_keys: list[str] = field(default_factory=list)

    @property
    def dockyard_ports(self) -> list[dict[str, str]]:
        return [{"key": k, "name": n} for k, n in zip(self.dockyard_keys, self.dockyards, strict=True)]

    @property
    def four_decker_allowed(self) -> bool:
        return self.counts.four_deckers < self.four_decker_limit


@dataclass(frozen=True)
class Projection:
    """Next phase 9 if nothing changes (RULES.md §2), after this turn's lay-downs and raises."""

    base: int
    ports: int
    income: int
    upkeep: int
    upkeep_unpaid: int
    treasury_after: int


@dataclass
class LedgerPage:
    entries: list[LedgerEntry]
    page: int
    has_next: bool

    @property
    def has_previous(self) -> bool:
        return self.page > 1


@dataclass
class Dashboard:
    viewer: Viewer
    treasury: int
    committed_ep: int
    ledger: LedgerPage
    projection: Projection
    quota: QuotaStatus
    fleets: list[FleetView]
    empty_fleets: list[FleetView]
    keels: list[KeelRow]
    lost: list[LostRow]
    ports: list[PortRow]
    sieges: list[PortRow]
    blockades: list[PortRow]
    contacts: list[Contact]
    report: ReportView | None
    #: This turn's orders in the nation's list, and its diplomatic ones as (kind, nation code).
    orders_entered: int = 0
    answers_listed: frozenset[tuple[str, str]] = frozenset()

    @property
    def available_ep(self) -> int:
        return self.treasury - self.committed_ep

    @property
    def ship_count(self) -> int:
        return sum(len(f.ships) for f in self.fleets)

    @property
    def sol_count(self) -> int:
        return sum(f.sol for f in self.fleets)


@dataclass
class _Navy:
    """The nation's ships sorted into what the dashboard lists, and as the economy counts them.
    ``empty_fleets``: fleets left with no ship (all sunk or taken, or moved away), not live forces."""

    fleets: list[FleetView]
    empty_fleets: list[FleetView]
    keels: list[KeelRow]
    lost: list[LostRow]
    ships: list[Ship]


def _ledger(nation: Nation, page: int) -> LedgerPage:
    """Page ``page`` of the nation's ledger, newest line first (one query for a page that exists)."""
    entries, shown, has_next = page_of(
        LedgerEntry.objects.filter(nation=nation).order_by("-id"), page=page, size=LEDGER_PAGE_SIZE
    )
    return LedgerPage(entries, shown, has_next=has_next)


def _navy(viewer: Viewer) -> _Navy:
    """The nation's fleets with their ships in line order, its keels and its losses, the ships taken
    from it included (two queries)."""
    nation, ruleset = viewer.nation, viewer.ruleset
    fleets: dict[int, FleetView] = {}
    for f in (
        Fleet.objects.filter(nation=nation)
        .select_related("sea_zone", "port", "admiral", "blockade_port")
        .order_by("name")
    ):
        fleets[f.pk] = FleetView(
            id=f.pk,
            name=f.name,
            zone_key=f.sea_zone.key,
            zone_name=f.sea_zone.name,
            port_name=f.port.name if f.port else "",
            admiral=f"{f.admiral.name} ({f.admiral.grade})" if f.admiral else "",
            posture=f.get_posture_display(),
            blockade_port=f.blockade_port.name if f.blockade_port else "",
            in_supply=f.in_supply,
        )
    navy = _Navy([], [], [], [], ships=[])
    by_id = viewer.nations_by_id
    # Its own ships and the ones taken from it: a prize belongs to its captor now (RULES.md §4) but
    # is a loss to the navy that built it.
    ships = sorted(
        Ship.objects.filter(Q(nation=nation) | Q(original_nation=nation)).select_related("building_port"),
        key=lambda s: (s.fleet_id or 0, *ship_line_key(s, ruleset)),
    )
    navy.ships = [s for s in ships if s.nation_id == nation.pk]
    for s in ships:
        if s.nation_id != nation.pk:
            navy.lost.append(LostRow(s.name, s.ship_class, "captured", s.lost_turn, by_id[s.nation_id].name))
        elif s.condition == Ship.Condition.BUILDING:
            port = s.building_port.name if s.building_port else ""
            navy.keels.append(KeelRow(s.pk, s.name, s.ship_class, port, s.building_turns_left))
        elif s.condition in Ship.GONE:
            navy.lost.append(LostRow(s.name, s.ship_class, s.condition, s.lost_turn))
        elif s.fleet_id in fleets:
            captured_from = by_id[s.original_nation_id].name if s.original_nation_id != s.nation_id else ""
            fleets[s.fleet_id].ships.append(
                ShipRow(
                    s.pk,
                    s.name,
                    s.ship_class,
                    s.condition,
                    s.in_ordinary,
                    s.crew,
                    captured_from,
                    s.cargo_id is not None,
                )
            )
    for fleet in fleets.values():
        (navy.fleets if fleet.ships else navy.empty_fleets).append(fleet)
    return navy


def _quota(
    viewer: Viewer, counts: NavyCounts, pending: list[str], available: int, dockyards: list[PortRow]
) -> QuotaStatus:
    """RULES.md §1 for the current year, counting the lay-downs already listed this turn."""
    ruleset, nation = viewer.ruleset, viewer.nation
    year = viewer.turn.year if viewer.turn else viewer.campaign.year
    for ship_class in pending:
        counts = counts.plus(ship_class)
    options = []
    for ship_class in SHIP_CLASSES:
        cost = ruleset.ship_cost[ship_class]
        reason = ""
        try:
            check_limits(
                ruleset, navy=nation.navy, nation_name=nation.name, year=year, ship_class=ship_class, counts=counts
            )
        except ConstructionRefused as refused:
            reason = "four-decker limit reached" if refused.rule == "four_decker_limit" else "over the quota"
        if not reason and cost > available:
            reason = f"needs {cost} EP, {available} EP available"
        if not reason and not dockyards:
            reason = "no dockyard port free to build"
        options.append(
            ClassOption(ship_class, cost, ruleset.ship_build_turns[ship_class], allowed=not reason, reason=reason)
        )
    return QuotaStatus(
        period=period_label(ruleset, year),
        percent=ruleset.quota_percent(nation.navy, year),
        counts=counts,
        within=within_quota(ruleset, navy=nation.navy, year=year, counts=counts),
        big_allowed_now=big_ships_allowed_now(ruleset, navy=nation.navy, year=year, counts=counts),
        four_decker_limit=ruleset["quota.four_decker_limit"],
        options=options,
        dockyards=[r.name for r in dockyards],
        pending_keels=len(pending),
        dockyard_keys=[r.key for r in dockyards],
    )


def _turn_stub(viewer: Viewer) -> Turn | None:
    """An unsaved Turn carrying the current turn's id and number, for services that take a Turn."""
    if viewer.turn is None:
        return None
    return Turn(pk=viewer.turn.id, campaign_id=viewer.campaign.pk, number=viewer.turn.number, status=viewer.turn.status)


@dataclass(frozen=True)
class _OrdersRead:
    committed_ep: int = 0
    keels: tuple[str, ...] = ()
    count: int = 0
    diplomacy: frozenset[tuple[str, str]] = frozenset()


_DIPLOMACY_KINDS = frozenset(
    {Order.Kind.DECLARE_WAR, Order.Kind.OFFER_PEACE, Order.Kind.PROPOSE_ALLIANCE, Order.Kind.LEAVE_ALLIANCE}
)


def _orders_read(viewer: Viewer, turn: Turn | None) -> _OrdersRead:
    """The EP this turn's orders commit (as :func:`campaign.orders.selectors.orders_committed_ep`
    counts them), the classes of the keels they lay down, how many there are and the diplomatic
    ones (kind, nation code), from one read of the order list."""
    if turn is None or turn.status != Turn.Status.OPEN:
        return _OrdersRead()
    ctx = OrderContext(nation=viewer.nation, turn=turn)
    pending: list[str] = []
    diplomacy: set[tuple[str, str]] = set()
    count = 0
    for order in orders_for_turn(nation=viewer.nation, turn=turn):
        count += 1
        ctx.absorb(order.body)
        body = order.body
        if order.kind == Order.Kind.LAY_DOWN and isinstance(body, Mapping) and body.get("class") in SHIP_CLASSES:
            pending.append(body["class"])
        if order.kind in _DIPLOMACY_KINDS and isinstance(body, Mapping) and isinstance(body.get("nation"), str):
            diplomacy.add((str(order.kind), body["nation"]))
    return _OrdersRead(ctx.listed.committed_ep, tuple(pending), count, frozenset(diplomacy))


def _projection(
    nation: Nation,
    ports: list[Port],
    ships: list[Ship],
    blockades: Blockades,
    *,
    turn_number: int,
    available: int,
    ruleset: Ruleset,
) -> Projection:
    """Next phase 9 (RULES.md §2) from the EP left after this turn's orders, with phase 9's own
    inputs (:func:`campaign.economy.economy_inputs`) as they stand: the blockades standing from the
    last resolved turn, the sieges, captures and ships now."""
    inputs = economy_inputs(nation=nation, turn=turn_number, ports=ports, ships=ships, blockades=blockades)
    turn_income = inputs.income()
    due = inputs.upkeep(ruleset)
    result = economy_turn(max(0, available), turn_income, due)
    return Projection(
        base=turn_income.base,
        ports=turn_income.ports,
        income=turn_income.total,
        upkeep=due,
        upkeep_unpaid=result.upkeep_unpaid,
        treasury_after=result.treasury_after,
    )


def dashboard_for_player(*, user: User, slug: str, nation_code: str | None = None, ledger_page: int = 1) -> Dashboard:
    """The nation dashboard: treasury and ledger, projection, quota, fleets, ports, sieges, contacts.

    At most 17 queries plus one each when the latest report holds sightings or battles and when the
    nation blockades a port, whatever the number of ships.
    """
    viewer = viewer_for_player(user=user, slug=slug, nation_code=nation_code)
    nation, campaign = viewer.nation, viewer.campaign
    turn_number = viewer.turn.number if viewer.turn else campaign.turn_number
    ledger = _ledger(nation, ledger_page)
    navy = _navy(viewer)
    blockades = blockades_for_viewer(viewer, turn_number=turn_number)
    ports, port_rows = ports_for_viewer(viewer, turn_number=turn_number, blockades=blockades)
    own_ports = [r for r in port_rows if r.owner_code == nation.code]
    turn = _turn_stub(viewer)
    listed = _orders_read(viewer, turn)
    available = nation.treasury - listed.committed_ep
    quota = _quota(
        viewer, navy_counts(nation_id=nation.pk), list(listed.keels), available, [r for r in own_ports if r.can_build]
    )
    projection = _projection(
        nation, ports, navy.ships, blockades, turn_number=turn_number, available=available, ruleset=viewer.ruleset
    )
    report = report_for_nation(nation)
    return Dashboard(
        viewer=viewer,
        treasury=nation.treasury,
        committed_ep=listed.committed_ep,
        ledger=ledger,
        projection=projection,
        quota=quota,
        fleets=navy.fleets,
        empty_fleets=navy.empty_fleets,
        keels=navy.keels,
        lost=navy.lost,
        ports=own_ports,
        sieges=[r for r in port_rows if r.siege_turns > 0 or r.besiegers],
        blockades=[r for r in port_rows if r.blockaders],
        contacts=contacts_for_viewer(viewer, report, ports),
        report=report,
        orders_entered=listed.count,
        answers_listed=listed.diplomacy,
    )


__all__ = [
    "LEDGER_PAGE_SIZE",
    "ClassOption",
    "Dashboard",
    "FleetView",
    "KeelRow",
    "LedgerPage",
    "LostRow",
    "Projection",
    "QuotaStatus",
    "ShipRow",
    "dashboard_for_player",
]
