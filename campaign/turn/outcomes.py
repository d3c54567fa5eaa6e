"""The orders a phase carries out, and how it marks them: done, or skipped with a reason (RULES.md §3).

Within a phase, nations are taken in code order and each nation's orders in listed order (§3); an
order that became impossible is skipped and its nation told why — never a failed turn. Either way the
nation's report gets one typed event per order (``order_carried_out`` / ``order_skipped``) with the
order's id and a code, so a program reads what became of each order without parsing the text.
"""

from __future__ import annotations

from campaign.models import Order
from campaign.turn.context import PhaseContext
from rules.turn_events import OrderCarriedOut, OrderSkipped


def orders_pending(ctx: PhaseContext, kinds: tuple[str, ...]) -> list[Order]:
    """This turn's pending orders of ``kinds``: nations in code order, then listed order (§3)."""
    return list(
        Order.objects.filter(turn=ctx.turn, kind__in=kinds, outcome=Order.Outcome.PENDING)
        .select_related("nation")
        .order_by("nation__code", "position")
    )


def order_done(ctx: PhaseContext, order: Order, note: str = "", code: str = "carried_out") -> None:
    """The order was carried out and reported to its nation; ``note`` (cut to 300 characters) says how,
    ``code`` (one of ``CARRIED_OUT_CODES``) says so for programs."""
    order.outcome = Order.Outcome.DONE
    order.outcome_note = note[:300]
    order.save(update_fields=["outcome", "outcome_note"])
    text = f"{note[:1].upper()}{note[1:]}." if note else f"Order {order.position} carried out."
    ctx.report(
        [order.nation.code],
        OrderCarriedOut(text=text, order_id=order.pk, order_position=order.position, order_kind=order.kind, code=code),
    )


def order_skip(ctx: PhaseContext, order: Order, reason: str, code: str) -> None:
    """An order that became impossible is skipped and reported to its nation — never a failed turn.
    ``code`` is the order check's refusal code when that check refused it now, else one of
    ``SKIP_CODES_AT_RESOLUTION``."""
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
            code=code,
        ),
    )
