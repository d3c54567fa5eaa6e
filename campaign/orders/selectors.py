"""Reads of a nation's order list: the orders of a turn, and the EP they commit."""

from __future__ import annotations

from django.db.models import QuerySet

from campaign.models import Nation, Order, Turn
from campaign.orders.context import OrderContext


def orders_for_turn(*, nation: Nation, turn: Turn) -> QuerySet[Order]:
    """The nation's orders for ``turn`` in listed order (RULES.md §3), with their fleets."""
    return Order.objects.filter(turn=turn, nation=nation).select_related("fleet").order_by("position")


def orders_committed_ep(*, nation: Nation, turn: Turn) -> int:
    """EP committed by the nation's lay-down and raise orders this turn (the dashboard's committed
    treasury is ``nation.treasury`` less this)."""
    ctx = OrderContext(nation=nation, turn=turn)
    for order in orders_for_turn(nation=nation, turn=turn):
        ctx.absorb(order.body)
    return ctx.listed.committed_ep
