"""Orders in words: :func:`order_describe`, the canonical line of a stored order with its keys and ids
(the API's ``description``), and :func:`order_in_words`, with names instead: the player's line on the
order page (:func:`order_summary`), the GM's on the desk and from ``submit_orders`` (names from
:mod:`campaign.orders.names`), and the audit log's (:func:`order_in_words_checked`, names from the
order's own check)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.utils.translation import ngettext

from campaign.models import Order
from campaign.orders.names import OrderNames
from fleets.models import Fleet, Ship, ShipClass

if TYPE_CHECKING:  # only a type here: the command and the API describe orders without the page's reads
    from campaign.orders.board import Board
    from campaign.orders.choices import OrderChoices
    from campaign.orders.context import OrderContext


#: Readable names of the choices an order body stores as values (a class code, a standing order).
CLASS_LABELS: dict[str, str] = dict(ShipClass.choices)
AFTER_BATTLE_LABELS: dict[str, str] = dict(Fleet.AfterBattle.choices)


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


class _BoardNames:
    """Ports, zones and nations named from an order check's :class:`~campaign.orders.board.Board`."""

    def __init__(self, board: Board) -> None:
        self.board = board

    def port_name(self, key: str) -> str | None:
        found = self.board.ports.get(key)
        return found.name if found is not None else None

    def zone_name(self, key: str) -> str | None:
        found = self.board.zones.get(key)
        return found.name if found is not None else None

    def nation_name(self, code: str) -> str | None:
        found = self.board.nations.get(code)
        return found.name if found is not None else None


class _ChoicesNames(_BoardNames):
    """:class:`OrderNames` from the order page's choices. Fleets and ships are read only for an order
    that names one (a raise or a lay-down names none)."""

    def __init__(self, choices: OrderChoices) -> None:
        super().__init__(choices.board)
        self.choices = choices

    def fleet_name(self, fleet_id: Any) -> str | None:
        place = self.choices.fleets_by_id.get(fleet_id)
        return place.fleet.name if place is not None else None

    def ship_name(self, ship_id: Any) -> str | None:
        found = self.choices.ships.get(ship_id)
        return found[0].name if found is not None else None

    def ship_cost(self, ship_class: str) -> int:
        return self.choices.ruleset.ship_cost.get(ship_class, 0)


class _CheckNames(_BoardNames):
    """:class:`OrderNames` from the reads that checked the order (its :class:`OrderContext`), for the
    audit log's line of an order entered, changed or withdrawn: the check has read what its order
    names, so describing it reads nothing more (a ship out of commission, which the nation's ships
    afloat leave out, is read by itself)."""

    def __init__(self, ctx: OrderContext) -> None:
        super().__init__(ctx.board)
        self.ctx = ctx

    def fleet_name(self, fleet_id: Any) -> str | None:
        fleet = self.ctx.fleets.get(fleet_id) if isinstance(fleet_id, int) else None
        return fleet.name if fleet is not None else None

    def ship_name(self, ship_id: Any) -> str | None:
        if not isinstance(ship_id, int):
            return None
        afloat = self.ctx.ships.get(ship_id)
        if afloat is not None:
            return afloat.name
        rows = Ship.objects.filter(pk=ship_id, nation_id=self.ctx.nation.pk).values_list("name", flat=True)
        return rows.first()

    def ship_cost(self, ship_class: str) -> int:
        return self.ctx.ruleset.ship_cost.get(ship_class, 0)


def order_in_words_checked(order: Order, ctx: OrderContext) -> str:
    """:func:`order_in_words` with the names its check read (the audit log's line of the order)."""
    return f"order {order.position} — {order_in_words(order, _CheckNames(ctx))}"


class _Names:
    """Names instead of ids and keys for one order body."""

    def __init__(self, body: Any, source: OrderNames) -> None:
        self.body = body
        self.source = source

    def fleet(self, key: str = "fleet") -> str:
        return self.source.fleet_name(self.body.get(key)) or f"fleet {self.body.get(key)}"

    def ship(self, value: Any) -> str:
        return self.source.ship_name(value) or f"ship {value}"

    def port(self, key: Any) -> str:
        found = self.source.port_name(key) if isinstance(key, str) else None
        return found if found is not None else str(key)

    def zone(self, key: Any) -> str:
        found = self.source.zone_name(key) if isinstance(key, str) else None
        return found if found is not None else str(key)

    def step(self, value: str) -> str:
        if value == "sea":
            return "to sea"
        if value.startswith("port:"):
            return f"into {self.port(value.removeprefix('port:'))}"
        return self.zone(value)

    def label(self, labels: dict[str, str], key: str) -> str:
        """The readable name of the choice stored under ``key`` (a class code, a standing order)."""
        value = str(self.body.get(key))
        return labels.get(value, value)

    def units(self) -> str:
        count = self.body.get("units")
        return f"{count} {ngettext('land unit', 'land units', count if isinstance(count, int) else 2)}"

    def names(self, values: Any, limit: int = 6) -> str:
        listed = [self.ship(v) for v in values or []]
        more = f" and {len(listed) - limit} more" if len(listed) > limit else ""
        return ", ".join(listed[:limit]) + more


def order_summary(order: Order, choices: OrderChoices) -> str:
    """One order in a player's words, with names instead of ids and keys ("Channel Fleet: leave
    Portsmouth → Bay of Biscay"); :func:`order_describe` is the canonical line."""
    return order_in_words(order, _ChoicesNames(choices))


def order_in_words(order: Order, source: OrderNames) -> str:
    """One order in words, its ids and keys named from ``source``: the player's line on the order
    page (:func:`order_summary`) and the GM's on the desk."""
    body = order.body
    n = _Names(body, source)
    fleet, ship, port, zone, step, names = n.fleet, n.ship, n.port, n.zone, n.step, n.names
    kind = order.kind
    code = body.get("nation")
    nation = source.nation_name(code) if isinstance(code, str) else None
    cost = source.ship_cost(str(body.get("class", "")))
    texts: dict[str, Callable[[], str]] = {
        Order.Kind.MOVE: lambda: f"{fleet()}: " + " → ".join(step(s) for s in body.get("path") or []),
        Order.Kind.POSTURE: lambda: (
            f"{fleet()}: "
            + (
                f"blockade {port(body.get('port'))}"
                if body.get("posture") == "blockade"
                else f"{body.get('posture')} battle"
            )
        ),
        Order.Kind.BATTLE_ORDERS: lambda: (
            f"{fleet()}: after a drawn day, {n.label(AFTER_BATTLE_LABELS, 'after_battle').lower()}"
            + (f"; retreat into {port(body['retreat_port'])}" if body.get("retreat_port") else "")
            + (f"; else to {zone(body['retreat_zone'])}" if body.get("retreat_zone") else "")
        ),
        Order.Kind.LINE_ORDER: lambda: f"{fleet()}: line {names(body.get('ships'))}",
        Order.Kind.RUN_GUNS: lambda: f"{fleet()}: run the guns of {port(body.get('port'))}",
        Order.Kind.SALLY: lambda: f"{fleet()}: sally against the blockaders",
        Order.Kind.FIRESHIPS: lambda: f"{fleet()}: fireships into {port(body.get('port'))}",
        Order.Kind.LAY_DOWN: lambda: (
            f"{n.label(CLASS_LABELS, 'class')} {body.get('name')} at {port(body.get('port'))} ({cost} EP)"
        ),
        Order.Kind.RAISE: lambda: f"{str(body.get('unit')).replace('_', ' ')} at {port(body.get('port'))}",
        Order.Kind.REPAIR: lambda: ("repair " if body.get("on", True) else "stop repairing ") + ship(body.get("ship")),
        Order.Kind.LAY_UP: lambda: f"{ship(body.get('ship'))} into ordinary",
        Order.Kind.RECOMMISSION: lambda: f"{ship(body.get('ship'))} back into commission",
        Order.Kind.TRANSFER: lambda: f"{names(body.get('ships'))} → {fleet('to_fleet')}",
        Order.Kind.FORM_FLEET: lambda: f"{names(body.get('ships'))} → new fleet {body.get('name')}",
        Order.Kind.MERGE: lambda: f"{fleet()} into {fleet('into')}",
        Order.Kind.APPOINT: lambda: f"{body.get('admiral')} to command {fleet()}",
        Order.Kind.EMBARK: lambda: f"{fleet()}: embark {n.units()} at {port(body.get('port'))}",
        Order.Kind.LAND: lambda: f"{fleet()}: land {n.units()} at {port(body.get('port'))}",
    }
    if kind in texts:
        return texts[kind]()
    target = nation if nation is not None else body.get("nation")
    diplomacy: dict[str, str] = {
        Order.Kind.DECLARE_WAR: f"declare war on {target}",
        Order.Kind.OFFER_PEACE: f"offer peace to {target}",
        Order.Kind.PROPOSE_ALLIANCE: f"propose an alliance to {target}",
        Order.Kind.LEAVE_ALLIANCE: f"leave the alliance with {target}",
    }
    return diplomacy.get(kind, str(body))
