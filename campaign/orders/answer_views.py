"""One-click Accept / Decline beside an offer on the dashboard (issue 28): a plain POST form carrying the
turn its page showed, answered with a redirect back to the dashboard and a message (no JavaScript)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseRedirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaign.orders.choices import OrderDesk, order_desk_for_player
from campaign.orders.errors import OrderRefused, TurnClosed
from campaign.orders.offer_answers import offer_accept, offer_decline, offer_to_answer
from campaign.orders.selectors import nation_ready
from campaign.orders.turn_named import named_turn, turn_moved_answer, turn_moved_check

ANSWERS = ("accept", "decline")


def _dashboard_url(desk: OrderDesk) -> str:
    url = reverse("campaign:dashboard", args=[desk.campaign.slug])
    return (f"{url}?nation={desk.nation.code}" if desk.is_gm else url) + "#whats-next"


@login_required
@require_POST
def offer_answer_view(request: HttpRequest, slug: str) -> HttpResponse:
    """Accept (enter the same diplomatic order towards the offering nation) or decline (withdraw it if
    listed) the offer of ``kind`` from nation ``from``, for the turn the form names."""
    answer = request.POST.get("answer", "")
    if answer not in ANSWERS:
        return HttpResponseBadRequest("Answer an offer with “accept” or “decline”.")
    desk = order_desk_for_player(user=request.user, slug=slug, nation_code=request.POST.get("as_nation") or None)
    back = _dashboard_url(desk)
    named = named_turn(request)
    try:
        turn_moved_check(named, desk.turn.number if desk.turn is not None else None)
        if desk.turn is None or not desk.open:
            messages.error(request, "Orders are closed: there is no open turn to answer the offer in.")
            return HttpResponseRedirect(back)
        offer = offer_to_answer(
            nation=desk.nation, from_code=request.POST.get("from", ""), kind=request.POST.get("kind", "")
        )
        was_ready = nation_ready(nation=desk.nation, turn=desk.turn)
        if answer == "accept":
            order = offer_accept(nation=desk.nation, offer=offer, actor=request.user, named_turn=named)
            messages.success(
                request,
                f"Accepted {offer.from_name}'s offer of {offer.label}: order {order.position} is entered for "
                f"turn {desk.turn.number}, and {offer.label} comes in phase 1 when the turn resolves.",
            )
        else:
            withdrawn = offer_decline(
                nation=desk.nation, turn=desk.turn, offer=offer, actor=request.user, named_turn=named
            )
            what = "its accepting order is withdrawn" if withdrawn else "no order is entered"
            messages.success(
                request,
                f"Declined {offer.from_name}'s offer of {offer.label}: {what}; an offer left unanswered lapses.",
            )
    except TurnClosed as refused:
        return turn_moved_answer(request, refused, back)
    except OrderRefused as refused:
        messages.error(request, refused.message)
        return HttpResponseRedirect(back)
    if was_ready and not nation_ready(nation=desk.nation, turn=desk.turn):
        messages.warning(
            request,
            f"{desk.nation.name} is no longer marked ready: its orders changed after it was. "
            "Mark ready again when the orders are done.",
        )
    return HttpResponseRedirect(back)
