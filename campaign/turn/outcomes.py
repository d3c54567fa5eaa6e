"""The orders a phase carries out, and how it marks them: done, or skipped with a reason (RULES.md §3).

Within a phase, nations are taken in code order and each nation's orders in listed order (§3); an
order that became impossible is skipped and its nation told why — never a failed turn.
"""

from __future__ import annotations

from campaign.models import Order
from campaign.turn.context import PhaseContext
from rules.turn_events import OrderSkipped


def orders_pending(ctx: PhaseContext, kinds: tuple[str, ...]) -> list[Order]:
    """This turn's pending orders of ``kinds``: nations in code order, then listed order (§3)."""
    return list(
        Order.objects.filter(turn=ctx.turn, kind__in=kinds, outcome=Order.Outcome.PENDING)
        .select_related("nation")
        .order_by("nation__code", "position")
    )


def order_done(order: Order, note: str = "") -> None:
    """The order was carried out; ``note`` (cut to 300 characters) says how."""
    order.outcome = Order.Outcome.DONE
    order.outcome_note = note[:300]
    order.save(update_fields=["outcome", "outcome_note"])


def order_skip(ctx: PhaseContext, order: Order, reason: str) -> None:
    """An order that became impossible is skipped and reported to its nation — never a failed turn."""
    order.outcome = Order.Outcome.SKIPPED
    order.outcome_note = reason[:300]
    order.save(update_fields=["outcome", "outcome_note"])
    ctx.report(
        [order.nation.code],
        OrderSkipped(
            text=f"Order {order.position} ({order.get_kind_display().lower()}) skipped: {reason}",
            order_id=order.pk,
            order_position=order.position,
            order_kind=order.kind,
        ),
    )
