"""Answering an offer of peace or alliance in one click (issue 28): accepting is the same diplomatic
order towards the nation that made it (RULES.md §10), entered through :func:`order_add` with all its
checks and refusals; declining withdraws that order if it is listed (an offer not taken up lapses)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from campaign.models import DiplomaticOffer, Nation, Order, Turn
from campaign.orders.errors import OrderRefused, RefusalCode
from campaign.orders.selectors import orders_for_turn
from campaign.orders.services import Actor, order_add, order_withdraw

#: The order that answers an offer yes: the same order towards the nation that made it.
ANSWER_KIND: dict[str, str] = {
    DiplomaticOffer.Kind.PEACE.value: Order.Kind.OFFER_PEACE.value,
    DiplomaticOffer.Kind.ALLIANCE.value: Order.Kind.PROPOSE_ALLIANCE.value,
}


@dataclass(frozen=True)
class OfferNamed:
    """The offer an answer is about, read back: who made it, of what, and the order that accepts it."""

    offer: DiplomaticOffer
    order_kind: str

    @property
    def from_name(self) -> str:
        return self.offer.from_nation.name

    @property
    def label(self) -> str:
        return str(self.offer.get_kind_display()).lower()


def offer_to_answer(*, nation: Nation, from_code: str, kind: str) -> OfferNamed:
    """The offer of ``kind`` made to ``nation`` by the nation ``from_code``; refused when there is none."""
    if kind not in ANSWER_KIND:
        raise OrderRefused(
            f"{kind!r} is not an offer that can be answered: only peace or alliance.",
            code=RefusalCode.NOT_A_CHOICE,
            field="kind",
        )
    offer = (
        DiplomaticOffer.objects.select_related("from_nation")
        .filter(to_nation=nation, from_nation__code=from_code, kind=kind)
        .first()
    )
    if offer is None:
        raise OrderRefused(
            f"No offer of {kind} from that nation waits for {nation.name}'s answer: it may have been "
            "taken up or withdrawn. The dashboard lists the offers that wait.",
            code=RefusalCode.NOT_A_CHOICE,
            field="from",
        )
    return OfferNamed(offer, ANSWER_KIND[kind])


def offer_accept(*, nation: Nation, offer: OfferNamed, actor: Actor, named_turn: int | None) -> Order:
    """Enter the order that accepts ``offer`` for the open turn (refused as the order page refuses it)."""
    body = {"kind": offer.order_kind, "nation": offer.offer.from_nation.code}
    return order_add(nation=nation, body=body, actor=actor, named_turn=named_turn)


@transaction.atomic
def offer_decline(*, nation: Nation, turn: Turn, offer: OfferNamed, actor: Actor, named_turn: int | None) -> int:
    """Withdraw the orders of open ``turn`` that accept ``offer``; how many there were (0: nothing
    listed, nothing to change — the offer lapses unanswered). Each withdrawal checks the turn named."""
    code = offer.offer.from_nation.code
    accepting = [
        o
        for o in orders_for_turn(nation=nation, turn=turn)
        if o.kind == offer.order_kind and isinstance(o.body, dict) and o.body.get("nation") == code
    ]
    for order in reversed(accepting):  # from the end, so the positions of the others stay true
        order_withdraw(order=order, actor=actor, named_turn=named_turn)
    return len(accepting)


__all__ = ["ANSWER_KIND", "OfferNamed", "offer_accept", "offer_decline", "offer_to_answer"]
