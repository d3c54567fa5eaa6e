"""The GM enters a nation's orders that came by email (issue 29): the names the orders may use are read
(:func:`nation_directory`), the text or JSON is read by the pure :mod:`campaign.orders.mail_text`, and
the bodies go through the one order service (:func:`orders_replace_check` to preview,
:func:`orders_replace` to enter — all or nothing, with the turn named, the deadline gate and the audit
log of an order entered in a nation's name)."""

from __future__ import annotations

import json
from dataclasses import dataclass

from campaign.models import Nation, Order
from campaign.orders.describe import order_in_words
from campaign.orders.errors import OrderRefused, OrdersRefused
from campaign.orders.mail_text import Names, NationDirectory, ReadOrders, orders_from_json, orders_from_text
from campaign.orders.names import campaign_order_names
from campaign.orders.services import Actor, orders_replace, orders_replace_check
from fleets.models import Fleet, Ship, ShipClass
from ports.models import Port, SeaZone


class MailOrdersRefused(ValueError):
    """The orders cannot be entered; ``errors`` says why, line by line. Nothing was stored."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("\n".join(errors))
        self.errors = errors


def nation_directory(*, nation: Nation) -> NationDirectory:
    """The names ``nation``'s orders may use (five queries)."""
    campaign_id = nation.campaign_id
    ports = list(Port.objects.filter(campaign_id=campaign_id).values_list("name", "key"))
    zones = list(SeaZone.objects.filter(campaign_id=campaign_id).values_list("name", "key"))
    others = list(Nation.objects.filter(campaign_id=campaign_id).exclude(pk=nation.pk).values_list("name", "code"))
    return NationDirectory(
        nation=nation.name,
        fleets=Names.of("fleet", list(Fleet.objects.filter(nation=nation).values_list("name", "pk"))),
        ships=Names.of("ship", list(Ship.objects.filter(nation=nation).values_list("name", "pk"))),
        ports=Names.of("port", ports, [(key, key) for _, key in ports]),
        zones=Names.of("sea zone", zones, [(key, key) for _, key in zones]),
        nations=Names.of("nation", others, [(code, code) for _, code in others]),
        classes=Names.of(
            "ship class", [(label, code) for code, label in ShipClass.choices], [(v, v) for v in ShipClass.values]
        ),
    )


def mail_orders_read(*, nation: Nation, text: str, as_json: bool) -> ReadOrders:
    """The orders in ``text`` (one a line, or JSON), or :class:`MailOrdersRefused` with every line refused."""
    directory = nation_directory(nation=nation)
    if as_json:
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise MailOrdersRefused([f"the file is not JSON ({exc}); it must hold a list of orders"]) from exc
        read = orders_from_json(data, directory)
    else:
        read = orders_from_text(text, directory)
    if read.refusals:
        raise MailOrdersRefused(read.refusals)
    return read


def _refusals_by_line(exc: OrderRefused, read: ReadOrders, as_json: bool) -> MailOrdersRefused:
    """The order service's refusals, each named by the line (or JSON order) of the refused order."""
    word = "order" if as_json else "line"
    refusals = exc.refusals if isinstance(exc, OrdersRefused) else [exc]
    errors = []
    for refusal in refusals:
        index = refusal.index
        where = f"{word} {read.lines[index]}: " if index is not None and index < len(read.lines) else ""
        errors.append(f"{where}{refusal.message}")
    return MailOrdersRefused(errors)


@dataclass(frozen=True)
class MailOrdersPreview:
    """What would be entered: each order in words with the line it came from."""

    lines: list[tuple[int, str]]


def mail_orders_check(
    *, nation: Nation, text: str, as_json: bool, actor: Actor, named_turn: int | None, late_reason: str
) -> MailOrdersPreview:
    """Read and check the orders as :func:`mail_orders_enter` would, storing nothing."""
    read = mail_orders_read(nation=nation, text=text, as_json=as_json)
    try:
        cleans = orders_replace_check(
            nation=nation, bodies=read.bodies, actor=actor, named_turn=named_turn, late_reason=late_reason
        )
    except OrderRefused as exc:
        raise _refusals_by_line(exc, read, as_json) from exc
    names = campaign_order_names(campaign=nation.campaign)
    return MailOrdersPreview(
        lines=[
            (line, order_in_words(Order(kind=clean.kind, body=clean.body), names))
            for line, clean in zip(read.lines, cleans, strict=True)
        ]
    )


def mail_orders_enter(
    *, nation: Nation, text: str, as_json: bool, actor: Actor, named_turn: int | None, late_reason: str
) -> list[Order]:
    """Replace the nation's orders with those in ``text``, all or nothing, audited as the GM's entry."""
    read = mail_orders_read(nation=nation, text=text, as_json=as_json)
    try:
        return orders_replace(
            nation=nation, bodies=read.bodies, actor=actor, named_turn=named_turn, late_reason=late_reason
        )
    except OrderRefused as exc:
        raise _refusals_by_line(exc, read, as_json) from exc
