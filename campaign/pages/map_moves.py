"""Orders from the map: an own fleet chosen on the map, and the places its legal moves reach.

The legal paths are the order forms' own (:meth:`campaign.orders.choices.OrderChoices.move_paths`,
which asks the order check step by step), so the map offers exactly what the "Move a fleet" form
offers and the order service accepts; this module only groups them by where they end.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from campaign.orders.choices import FleetPlace, OrderChoices, PathChoice, order_desk_for_player
from campaign.orders.errors import OrderRefused, TurnClosed
from campaign.orders.forms import order_form_for
from campaign.orders.services import order_add
from campaign.orders.turn_named import turn_moved_check
from campaign.viewer import User


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
class MapMove:
    fleet_id: int
    fleet_name: str
    ships: int
    where: str
    destinations: tuple[Destination, ...]

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
    return MapMove(place.fleet.pk, place.fleet.name, len(place.ships), place.where, tuple(destinations))


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
            order_add(nation=desk.nation, body=form.body(), named_turn=named_turn)
        except TurnClosed:
            raise
        except OrderRefused as refused:
            return MoveResult(False, f"Move not entered: {refused.message}")
        place = choices.fleets_by_id[int(form.cleaned_data["fleet"])]
        # The form accepted the path, so it is one of the fleet's; its label names every step.
        label = next(p.label for p in choices.move_paths(place) if p.value == path)
        return MoveResult(True, f"Order added: {place.fleet.name} to {label}.")
    problems = " ".join(str(e) for errors in form.errors.values() for e in errors)
    return MoveResult(False, f"Move not entered: {problems}")


__all__ = ["Destination", "MapMove", "MoveResult", "map_move_for_player", "map_move_submit"]
