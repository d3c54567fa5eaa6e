"""Reads of a nation's order list: the orders of a turn, and the EP they commit."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.db.models import QuerySet

from campaign.models import Nation, NationTurn, Order, Turn
from campaign.orders.context import OrderContext


def orders_for_turn(*, nation: Nation, turn: Turn) -> QuerySet[Order]:
    """The nation's orders for ``turn`` in listed order (RULES.md §3), with their fleets."""
    return Order.objects.filter(turn=turn, nation=nation).select_related("fleet").order_by("position")


def order_bodies_for_turn(*, nation_id: int, turn_id: int) -> list[tuple[int, dict[str, Any]]]:
    """(position, body) of the nation's orders for the turn in listed order: what checking the next
    order against the list needs, without building an order and its fleet per row."""
    rows = Order.objects.filter(turn_id=turn_id, nation_id=nation_id).order_by("position")
    return list(rows.values_list("position", "body"))


def nation_ready(*, nation: Nation, turn: Turn) -> bool:
    """Whether the nation is marked ready for the turn. Read before and after a change of orders, it
    tells the writer that the change cleared "ready" (the order services clear it, issue 26)."""
    return NationTurn.objects.filter(turn=turn, nation=nation, ready=True).exists()


def order_list_version(*, nation_id: int, turn_id: int) -> str:
    """A short hash of the nation's list for the turn (each order's id, place, kind and body): it
    changes whenever the list does. The API's order-list ETag carries it, and its ``If-Match``
    compares it under the turn lock (issue 26)."""
    rows = Order.objects.filter(turn_id=turn_id, nation_id=nation_id).order_by("position")
    listed = list(rows.values_list("pk", "position", "kind", "body"))
    text = json.dumps(listed, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def orders_committed_ep(*, nation: Nation, turn: Turn) -> int:
    """EP committed by the nation's lay-down and raise orders this turn (the dashboard's committed
    treasury is ``nation.treasury`` less this)."""
    ctx = OrderContext(nation=nation, turn=turn)
    for _, body in order_bodies_for_turn(nation_id=nation.pk, turn_id=turn.pk):
        ctx.absorb(body)
    return ctx.listed.committed_ep
