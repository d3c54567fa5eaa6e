"""The order pages: the turn's order list with edit and withdraw, and a form for every order kind.

Thin views: the desk (whose orders, with what permission) comes from
:func:`~campaign.orders.choices.order_desk_for_player`, the choices from
:class:`~campaign.orders.choices.OrderChoices`, the forms build the body, and
``campaign.orders.services`` (order_add / order_update / order_withdraw) decides. Everything works as plain
forms; with HTMX the desk is swapped in place (``request.htmx``) instead of reloading the page.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from campaign.models import Order
from campaign.orders.choices import (
    OrderChoices,
    OrderDesk,
    order_desk_for_player,
    order_for_player,
    order_turn_number,
)
from campaign.orders.deadline import LATE_REASON_FIELD, DeadlinePassed, late_entry_open
from campaign.orders.describe import order_summary
from campaign.orders.errors import OrderRefused, RefusalCode, TurnClosed
from campaign.orders.forms import ORDER_FORMS, OrderForm, order_form_for, order_menu
from campaign.orders.selectors import nation_ready
from campaign.orders.services import order_add, order_move, order_update, order_withdraw
from campaign.orders.turn_named import TURN_FIELD, named_turn, turn_moved_answer, turn_moved_check
from campaign.page_header import page_context

#: Query parameters that are not form values.
_NOT_VALUES = frozenset(
    {"kind", "nation", "as_nation", "csrfmiddlewaretoken", "refresh", TURN_FIELD, LATE_REASON_FIELD}
)
DEFAULT_KIND = Order.Kind.MOVE


def _desk(request: HttpRequest, slug: str) -> OrderDesk:
    # Forms carry the desk's nation as "as_nation": "nation" is a field of the diplomatic orders.
    # Links use "?nation=", like the other campaign pages.
    code = request.POST.get("as_nation") or request.GET.get("as_nation") or request.GET.get("nation") or None
    return order_desk_for_player(user=request.user, slug=slug, nation_code=code)


def _page_url(desk: OrderDesk, **params: str) -> str:
    query = {"nation": desk.nation.code} if desk.is_gm else {}
    query.update({k: v for k, v in params.items() if v})
    url = reverse("campaign:orders", args=[desk.campaign.slug])
    return f"{url}?{urlencode(query)}" if query else url


def _query_initial(request: HttpRequest) -> dict[str, Any]:
    """Form values given in the query string (the "show choices" refresh of a fleet's form)."""
    initial: dict[str, Any] = {}
    for key in request.GET:
        if key in _NOT_VALUES:
            continue
        values = request.GET.getlist(key)
        initial[key] = values if len(values) > 1 or key == "ships" else values[0]
    return initial


def _kind(raw: str | None) -> str:
    return raw if raw in ORDER_FORMS else DEFAULT_KIND


def _render(
    request: HttpRequest,
    desk: OrderDesk,
    *,
    choices: OrderChoices | None,
    form: OrderForm | None,
    editing: Order | None = None,
) -> HttpResponse:
    late_entry, closed_note = late_entry_open(
        turn=desk.turn, nation=desk.nation, campaign=desk.campaign, is_gm=desk.is_gm
    )
    if closed_note:  # past the deadline and not the GM entering a missing nation's orders: no forms
        choices, form, editing = None, None, None
    orders = list(choices.orders) if choices is not None else _listed(desk)
    words = choices if choices is not None or not orders else OrderChoices(desk=desk)
    context = {
        "desk": desk,
        "campaign": desk.campaign,
        "nation": desk.nation,
        "turn": desk.turn,
        "choices": choices,
        "orders": [(order, order_summary(order, words)) for order in orders] if words is not None else [],
        "closed_note": closed_note,
        "late_entry": late_entry,
        "late_reason": request.POST.get(LATE_REASON_FIELD, "") if request.method == "POST" else "",
        "menu": order_menu(),
        "form": form,
        "kind": form.kind if form is not None else None,
        "editing": editing,
        "form_action": (
            reverse("campaign:order_edit", args=[desk.campaign.slug, editing.pk])
            if editing is not None
            else reverse("campaign:orders", args=[desk.campaign.slug])
        ),
        "page_url": _page_url(desk),
        **page_context(request, desk.viewer, "orders"),
    }
    if form is not None and form.fleet_dependent and "fleet" in form.fields:
        # HTMX: choosing another fleet reloads the form with that fleet's choices (without JS the
        # form's "Show the choices" button does the same with a GET).
        form.fields["fleet"].widget.attrs.update(
            {
                "hx-get": context["form_action"],
                "hx-trigger": "change",
                "hx-target": "#orders-desk",
                "hx-swap": "outerHTML",
                "hx-include": "closest form",
            }
        )
    partial = bool(getattr(request, "htmx", False))
    context["partial"] = partial  # a swapped-in desk shows its own messages; a full page shows base's
    template = "campaign/orders_desk.html" if partial else "campaign/orders.html"
    return render(request, template, context)


def _listed(desk: OrderDesk) -> list[Order]:
    """The nation's orders of the open turn, for a page that shows them without the forms."""
    if desk.turn is None:
        return []
    return list(Order.objects.filter(turn=desk.turn, nation=desk.nation).select_related("fleet").order_by("position"))


def _late_reason(request: HttpRequest) -> str:
    return request.POST.get(LATE_REASON_FIELD, "")


def _closed_after_deadline(request: HttpRequest, desk: OrderDesk) -> HttpResponse | None:
    """A write after the deadline by someone who may not make it: refused, saying why and what the turn
    waits for (nothing read for the write, nothing stored); None when the write may go ahead."""
    _, closed_note = late_entry_open(turn=desk.turn, nation=desk.nation, campaign=desk.campaign, is_gm=desk.is_gm)
    if not closed_note:
        return None
    return _refused_answer(request, desk, DeadlinePassed(closed_note))


def _said(desk: OrderDesk, order: Order, choices: OrderChoices | None = None) -> str:
    """An order as its player reads it in the message after a change ("Channel Fleet: to sea"): names,
    not the stored keys and ids of :func:`~campaign.orders.describe.order_describe`."""
    return order_summary(order, choices or OrderChoices(desk=desk))


def _done(
    request: HttpRequest, desk: OrderDesk, text: str, *, kind: str | None = None, was_ready: bool = False
) -> HttpResponse:
    """After a change: the desk again (HTMX) or a redirect to the page (post/redirect/get). ``was_ready``:
    the nation was marked ready before the change (which then cleared it, unless the house option keeps it)."""
    messages.success(request, text)
    if was_ready and desk.turn is not None and not nation_ready(nation=desk.nation, turn=desk.turn):
        messages.warning(
            request,
            f"{desk.nation.name} is no longer marked ready: its orders changed after it was. "
            "Mark ready again when the orders are done.",
        )
    if getattr(request, "htmx", False):
        choices = OrderChoices(desk=desk) if desk.open else None
        form = order_form_for(_kind(kind), choices=choices) if choices is not None else None
        return _render(request, desk, choices=choices, form=form)
    return HttpResponseRedirect(_page_url(desk, kind=kind or ""))


def _fresh_page(request: HttpRequest, desk: OrderDesk, refused: TurnClosed) -> HttpResponse:
    """A write for a turn that is no longer open: the fresh order page, saying so; nothing stored."""
    return turn_moved_answer(request, refused, _page_url(desk))


def _stale_order(desk: OrderDesk, order_id: int, named: int | None) -> TurnClosed | None:
    """An order that is not in the open turn, asked for from an old page: the refusal naming its turn
    (rather than a bare 404), or None when the nation has no such order at all."""
    number = order_turn_number(desk=desk, order_id=order_id)
    if number is None or (desk.turn is not None and number == desk.turn.number):
        return None
    return TurnClosed(asked=named if named is not None else number, open_turn=desk.turn.number if desk.turn else None)


def _desk_order(request: HttpRequest, desk: OrderDesk, order_id: int) -> Order:
    """The order of the open turn; an order of another turn raises the refusal that names it."""
    named = named_turn(request) if request.method == "POST" else None
    turn_moved_check(named, desk.turn.number if desk.turn is not None else None)
    try:
        return order_for_player(desk=desk, order_id=order_id)
    except Http404:
        stale = _stale_order(desk, order_id, named)
        if stale is None:
            raise
        raise stale from None


def _was_ready(desk: OrderDesk) -> bool:
    return desk.turn is not None and nation_ready(nation=desk.nation, turn=desk.turn)


@login_required
@require_http_methods(["GET", "POST"])
def orders_page(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: the order list and the form of ``?kind=`` (default: move). POST: add the order to the turn
    the form names (its hidden ``turn``)."""
    desk = _desk(request, slug)
    if request.method == "POST":
        try:
            turn_moved_check(named_turn(request), desk.turn.number if desk.turn is not None else None)
        except TurnClosed as refused:
            return _fresh_page(request, desk, refused)
    if not desk.open:
        if request.method == "POST":
            messages.error(request, "Orders are closed: there is no open turn.")
        return _render(request, desk, choices=None, form=None)
    if request.method == "POST" and (closed := _closed_after_deadline(request, desk)) is not None:
        return closed
    choices = OrderChoices(desk=desk)
    if request.method == "POST":
        kind = _kind(request.POST.get("kind"))
        form = order_form_for(kind, choices=choices, data=request.POST)
        if form.is_valid():
            was_ready = _was_ready(desk)
            try:
                order = order_add(
                    nation=desk.nation,
                    body=form.body(),
                    actor=request.user,
                    named_turn=named_turn(request),
                    late_reason=_late_reason(request),
                )
            except TurnClosed as refused:
                return _fresh_page(request, desk, refused)
            except DeadlinePassed as refused:
                return _refused_answer(request, desk, refused)
            except OrderRefused as refused:
                form.refuse(refused)
            else:
                text = f"Added order {order.position} — {_said(desk, order, choices)}"
                return _done(request, desk, text, kind=kind, was_ready=was_ready)
        return _render(request, desk, choices=choices, form=form)
    form = order_form_for(_kind(request.GET.get("kind")), choices=choices, initial=_query_initial(request))
    return _render(request, desk, choices=choices, form=form)


@login_required
@require_http_methods(["GET", "POST"])
def order_edit(request: HttpRequest, slug: str, order_id: int) -> HttpResponse:
    """GET: the order's form filled in from its body. POST: replace its body (it keeps its place)."""
    desk = _desk(request, slug)
    try:
        order = _desk_order(request, desk, order_id)
    except TurnClosed as refused:
        return _fresh_page(request, desk, refused)
    if request.method == "POST" and (closed := _closed_after_deadline(request, desk)) is not None:
        return closed
    choices = OrderChoices(desk=desk)
    form_class = ORDER_FORMS[order.kind]
    if request.method == "POST":
        form = form_class(request.POST, choices=choices)
        if form.is_valid():
            was_ready = _was_ready(desk)
            try:
                stored = order_update(
                    order=order,
                    body=form.body(),
                    actor=request.user,
                    named_turn=named_turn(request),
                    late_reason=_late_reason(request),
                )
            except TurnClosed as refused:
                return _fresh_page(request, desk, refused)
            except DeadlinePassed as refused:
                return _refused_answer(request, desk, refused)
            except OrderRefused as refused:
                form.refuse(refused)
            else:
                text = f"Changed order {stored.position} — {_said(desk, stored, choices)}"
                return _done(request, desk, text, kind=order.kind, was_ready=was_ready)
        return _render(request, desk, choices=choices, form=form, editing=order)
    initial = {**form_class.initial_from_body(order.body), **_query_initial(request)}
    form = form_class(choices=choices, initial=initial)
    return _render(request, desk, choices=choices, form=form, editing=order)


#: The move buttons' values: places an order moves in its list.
_MOVES = {"up": -1, "down": 1}


def _refused_answer(request: HttpRequest, desk: OrderDesk, refused: OrderRefused) -> HttpResponse:
    messages.error(request, refused.message)
    if getattr(request, "htmx", False):
        choices = OrderChoices(desk=desk) if desk.open else None
        form = order_form_for(DEFAULT_KIND, choices=choices) if choices is not None else None
        return _render(request, desk, choices=choices, form=form)
    return HttpResponseRedirect(_page_url(desk))


@login_required
@require_POST
def order_move_view(request: HttpRequest, slug: str, order_id: int) -> HttpResponse:
    """Move an order one place up or down its list (``direction`` = up or down); the others shift."""
    desk = _desk(request, slug)
    try:
        order = _desk_order(request, desk, order_id)
        direction = request.POST.get("direction", "")
        if direction not in _MOVES:
            raise OrderRefused(f"Move an order “up” or “down”, not {direction!r}.", code=RefusalCode.CANNOT_MOVE)
        was_ready = _was_ready(desk)
        moved = order_move(order=order, by=_MOVES[direction], actor=request.user, named_turn=named_turn(request))
    except TurnClosed as refused:
        return _fresh_page(request, desk, refused)
    except OrderRefused as refused:
        return _refused_answer(request, desk, refused)
    text = f"Moved {direction} to place {moved.position} — {_said(desk, moved)}"
    return _done(request, desk, text, was_ready=was_ready)


@login_required
@require_POST
def order_withdraw_view(request: HttpRequest, slug: str, order_id: int) -> HttpResponse:
    """Withdraw an order; the orders after it move up one place."""
    desk = _desk(request, slug)
    try:
        order = _desk_order(request, desk, order_id)
        label = f"order {order.position} — {_said(desk, order)}"  # said before it goes
        was_ready = _was_ready(desk)
        order_withdraw(order=order, actor=request.user, named_turn=named_turn(request))
    except TurnClosed as refused:
        return _fresh_page(request, desk, refused)
    except OrderRefused as refused:
        return _refused_answer(request, desk, refused)
    return _done(request, desk, f"Withdrew {label}", was_ready=was_ready)
