"""Orders from the map: an own fleet chosen on the map, and the places its legal moves reach.

The legal paths are the order forms' own (:meth:`campaign.orders.choices.OrderChoices.move_paths`,
which asks the order check step by step), so the map offers exactly what the "Move a fleet" form
offers and the order service accepts; this module only groups them by where they end.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from campaign.models import Order
from campaign.orders.choices import (
    FleetPlace,
    OrderChoices,
    OrderDesk,
    PathChoice,
    order_desk_for_player,
    order_for_player,
)
from campaign.orders.describe import order_summary
from campaign.orders.errors import OrderRefused, TurnClosed
from campaign.orders.forms import ORDER_FORMS, OrderForm, order_form_for
from campaign.orders.services import order_add, order_update, order_withdraw
from campaign.orders.turn_named import turn_moved_check
from campaign.viewer import User

#: The fleet orders besides a move that the fleet's panel on the map gives (the order page gives them all).
PANEL_KINDS = (Order.Kind.POSTURE, Order.Kind.RUN_GUNS, Order.Kind.FIRESHIPS, Order.Kind.SALLY)


@dataclass(frozen=True)
class Destination:
    """Where a move ends: a zone at sea (``port_key`` empty) or a port, with the path the map enters
    when it is clicked (the shortest; the first of the form's list among equals) and the others."""

    zone_key: str
    port_key: str
    name: str
    path: PathChoice
    others: tuple[PathChoice, ...]


@dataclass(frozen=True)
class FleetOrder:
    """An order of the chosen fleet this turn, in words, that the panel can withdraw."""

    id: int
    kind: str
    words: str


@dataclass(frozen=True)
class PanelForm:
    """Another order for the chosen fleet: its form (the order page's, the fleet fixed), or why not."""

    kind: str
    title: str
    help: str
    form: OrderForm | None
    blocked: str
    current: str = ""

    @property
    def fields(self) -> list[Any]:
        """The form's fields but the fleet (a hidden input carries it)."""
        return [f for f in self.form if f.name != "fleet"] if self.form is not None else []


@dataclass(frozen=True)
class MapMove:
    fleet_id: int
    fleet_name: str
    ships: int
    where: str
    destinations: tuple[Destination, ...]
    #: The fleet's orders this turn (its move first, if it has one) and the other orders it may get.
    orders: tuple[FleetOrder, ...] = ()
    forms: tuple[PanelForm, ...] = field(default=(), compare=False)

    @cached_property
    def current_move(self) -> FleetOrder | None:
        return next((o for o in self.orders if o.kind == Order.Kind.MOVE), None)

    @cached_property
    def zone_keys(self) -> frozenset[str]:
        return frozenset(d.zone_key for d in self.destinations if not d.port_key)

    @cached_property
    def port_keys(self) -> frozenset[str]:
        return frozenset(d.port_key for d in self.destinations if d.port_key)


def _end(choices: OrderChoices, place: FleetPlace, path: PathChoice) -> tuple[str, str, str]:
    """(zone key, port key or "", name) where the path ends."""
    zone, port = place.zone, place.port
    board = choices.board
    for step in path.steps:
        if step == "sea":
            port = None
        elif step.startswith("port:"):
            port = board.ports[step.removeprefix("port:")]
        else:
            zone, port = board.zones[step], None
    if port is not None:
        return board.zones_by_id[port.sea_zone_id].key, port.key, port.name
    return zone.key, "", zone.name


def map_move_for_player(*, user: User, slug: str, nation_code: str | None, fleet_id: int) -> MapMove | None:
    """The chosen fleet's legal moves, or None when there is nothing to order: no open turn, not one
    of the nation's fleets afloat (another nation's, sunk, or a made-up id)."""
    desk = order_desk_for_player(user=user, slug=slug, nation_code=nation_code)
    if not desk.open:
        return None
    choices = OrderChoices(desk=desk)
    place = choices.fleets_by_id.get(fleet_id)
    if place is None or not place.ships:
        return None
    by_end: dict[tuple[str, str, str], list[PathChoice]] = {}
    for path in choices.move_paths(place):
        by_end.setdefault(_end(choices, place, path), []).append(path)
    destinations = []
    for (zone_key, port_key, name), paths in sorted(by_end.items(), key=lambda kv: kv[0][2]):
        ordered = sorted(paths, key=lambda p: len(p.steps))  # stable: the form's order among equals
        destinations.append(Destination(zone_key, port_key, name, ordered[0], tuple(ordered[1:])))
    stored = _fleet_orders(desk, fleet_id)
    orders = tuple(
        FleetOrder(o.pk, o.kind, order_summary(o, choices))
        for o in sorted(stored, key=lambda o: (o.kind != Order.Kind.MOVE, o.position))
    )
    return MapMove(
        place.fleet.pk,
        place.fleet.name,
        len(place.ships),
        place.where,
        tuple(destinations),
        orders,
        _panel_forms(choices, place, {o.kind: o for o in stored}),
    )


def _fleet_orders(desk: OrderDesk, fleet_id: int) -> list[Order]:
    """The fleet's orders in the desk's open turn, in list order (one query)."""
    return list(Order.objects.filter(turn=desk.turn, nation=desk.nation, fleet_id=fleet_id).order_by("position"))


def _panel_forms(choices: OrderChoices, place: FleetPlace, stored: Mapping[str, Order]) -> tuple[PanelForm, ...]:
    """The other orders the fleet's panel offers: each kind's form for this fleet (filled in from the
    fleet's order of that kind, if it has one), or why the fleet cannot be given it now. A kind whose
    fleets this one is not among (a sally out of a port it is not in, fireships it has not) is left out."""
    out = []
    for kind in PANEL_KINDS:
        order = stored.get(kind)
        cls = ORDER_FORMS[kind]
        initial = {**(cls.initial_from_body(order.body) if order is not None else {}), "fleet": place.fleet.pk}
        form = order_form_for(kind, choices=choices, initial=initial)
        fleets = {value for value, _ in form.fields["fleet"].choices}  # type: ignore[attr-defined]
        if place.fleet.pk not in fleets:
            continue
        form.auto_id = f"id_{kind}_%s"  # several forms on one page: ids of their own
        blocked = form.blocked
        current = order_summary(order, choices) if order is not None else ""
        out.append(PanelForm(kind, cls.title, cls.help, None if blocked else form, blocked, current))
    return tuple(out)


@dataclass(frozen=True)
class MoveResult:
    ok: bool
    message: str


def map_move_submit(
    *, user: User, slug: str, nation_code: str | None, fleet: str, path: str, named_turn: int | None = None
) -> MoveResult:
    """Enter the move clicked on the map, through the "Move a fleet" form (the same parsing and
    choices as the order page) and the order service (the same checks, in its transaction). A
    refusal comes back as the message the order page would show, and nothing is written.
    ``named_turn``: the turn the map showed; :class:`TurnClosed` if it is no longer the open one."""
    desk = order_desk_for_player(user=user, slug=slug, nation_code=nation_code)
    turn_moved_check(named_turn, desk.turn.number if desk.turn is not None else None)
    if not desk.open:
        return MoveResult(False, "Orders are closed: there is no open turn.")
    choices = OrderChoices(desk=desk)
    form = order_form_for("move", choices=choices, data={"kind": "move", "fleet": fleet, "path": path})
    if form.is_valid():
        try:
            replaced = _enter(desk, form, named_turn, user)
        except TurnClosed:
            raise
        except OrderRefused as refused:
            return MoveResult(False, f"Move not entered: {refused.message}")
        place = choices.fleets_by_id[int(form.cleaned_data["fleet"])]
        # The form accepted the path, so it is one of the fleet's; its label names every step.
        label = next(p.label for p in choices.move_paths(place) if p.value == path)
        if replaced:
            return MoveResult(True, f"Move changed: {place.fleet.name} now to {label} (the earlier move is replaced).")
        return MoveResult(True, f"Order added: {place.fleet.name} to {label}.")
    return MoveResult(False, f"Move not entered: {_problems(form)}")


def _problems(form: OrderForm) -> str:
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


def _enter(desk: OrderDesk, form: OrderForm, named_turn: int | None, actor: User) -> bool:
    """Enter the valid ``form``'s order through the order service: a fleet's second order of one kind
    (a second move tapped on the map) replaces its first, in its place in the list; else it is added
    at the end. ``actor``: who gives it (a GM acting for the nation is audited, as on the order page).
    True when it replaced one."""
    body = form.body()
    fleet_id = body.get("fleet")
    existing = (
        Order.objects.filter(turn=desk.turn, nation=desk.nation, fleet_id=fleet_id, kind=form.kind).first()
        if isinstance(fleet_id, int)
        else None
    )
    if existing is not None:
        order_update(order=existing, body=body, named_turn=named_turn, actor=actor)
        return True
    order_add(nation=desk.nation, body=body, named_turn=named_turn, actor=actor)
    return False


def map_order_submit(
    *, user: User, slug: str, nation_code: str | None, kind: str, data: Mapping[str, Any], named_turn: int | None
) -> MoveResult:
    """Enter another fleet order from the fleet's panel (posture or blockade, run the guns, fireships,
    sally) through its order form and the order service; the fleet's order of that kind, if any, is
    replaced. A refusal comes back as the order page's message; nothing is written."""
    desk = order_desk_for_player(user=user, slug=slug, nation_code=nation_code)
    turn_moved_check(named_turn, desk.turn.number if desk.turn is not None else None)
    if not desk.open:
        return MoveResult(False, "Orders are closed: there is no open turn.")
    if kind not in PANEL_KINDS:
        return MoveResult(False, "That order cannot be given from the map: use the orders page.")
    choices = OrderChoices(desk=desk)
    form = order_form_for(kind, choices=choices, data=data)
    title = type(form).title
    if not form.is_valid():
        return MoveResult(False, f"Order not entered ({title}): {_problems(form)}")
    try:
        replaced = _enter(desk, form, named_turn, user)
    except TurnClosed:
        raise
    except OrderRefused as refused:
        return MoveResult(False, f"Order not entered ({title}): {refused.message}")
    stored = Order.objects.get(turn=desk.turn, nation=desk.nation, fleet_id=form.body()["fleet"], kind=kind)
    words = order_summary(stored, choices)
    return MoveResult(True, f"Order changed: {words}." if replaced else f"Order added: {words}.")


def map_withdraw_submit(
    *, user: User, slug: str, nation_code: str | None, order_id: int, named_turn: int | None
) -> MoveResult:
    """Withdraw one of the nation's orders of the open turn from the map, through the order service
    (Http404 for an order that is not the nation's in the open turn)."""
    desk = order_desk_for_player(user=user, slug=slug, nation_code=nation_code)
    turn_moved_check(named_turn, desk.turn.number if desk.turn is not None else None)
    order = order_for_player(desk=desk, order_id=order_id)
    words = order_summary(order, OrderChoices(desk=desk))
    try:
        order_withdraw(order=order, named_turn=named_turn, actor=user)
    except TurnClosed:
        raise
    except OrderRefused as refused:
        return MoveResult(False, f"Not withdrawn: {refused.message}")
    return MoveResult(True, f"Withdrawn: {words}.")


__all__ = [
    "Destination",
    "FleetOrder",
    "MapMove",
    "MoveResult",
    "PanelForm",
    "map_move_for_player",
    "map_move_submit",
    "map_order_submit",
    "map_withdraw_submit",
]
