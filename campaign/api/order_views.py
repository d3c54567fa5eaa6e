"""The orders of ``/api/v1/``: a nation's list for the open turn, one order, adding, replacing the
whole list (all or nothing, like ``submit_orders``), reordering, changing and withdrawing.

Thin views over :mod:`campaign.orders.services`, which check every order as the web forms do. An order
refusal names every refused order with its ``code`` and body ``field``; a refusal that comes from a
turn that closed meanwhile is a 409, as is any change while no turn is open.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import ParseError
from rest_framework.request import Request
from rest_framework.response import Response

from battles.api.base import ApiView, problem_response
from battles.api.problems import Problem, ProblemEntry
from campaign.api.conventions import CLOSED, MAX_BIGINT, NATION, SEEN, api_nation, id_within, orders_closed
from campaign.api.idempotency import IDEMPOTENCY_KEY, IdempotentApiView
from campaign.api.play_serializers import OrderValidationSerializer
from campaign.api.serializers import (
    OrderListSerializer,
    OrderReorderSerializer,
    OrderSerializer,
    OrderWrittenSerializer,
    order_body_schema,
)
from campaign.api.turn_writes import (
    IF_MATCH,
    PRECONDITION,
    Named,
    deadline_passed_problem,
    list_changed_problem,
    list_etag,
    named_of,
    turn_closed_problem,
    without_late_reason,
    without_turn,
)
from campaign.models import Campaign, NationTurn, Order, Turn
from campaign.orders.choices import OrderDesk, order_desk_for_player, order_for_player
from campaign.orders.deadline import DeadlinePassed
from campaign.orders.describe import order_describe
from campaign.orders.errors import ListChanged, OrderRefused, OrdersRefused, RefusalCode, TurnClosed
from campaign.orders.selectors import nation_ready, order_list_version, orders_for_turn
from campaign.orders.services import (
    order_add,
    order_update,
    order_withdraw,
    orders_reorder,
    orders_replace,
    orders_replace_check,
)

REFUSED = {
    400: problem_response(
        "Refused, nothing was changed: each refused order in errors with its code and body field; or a GM "
        "named no nation (nation_required), or an unknown query parameter."
    )
}


def _entry(refused: OrderRefused, *, listed: bool = False) -> ProblemEntry:
    """One refusal as an error: in a submitted list (``listed``) with its ``index`` and its field as a
    path into the list (``[2].path``); with the refusal's numbers (cost, available, limit…)."""
    index = refused.index if listed else None
    field = refused.field
    if index is not None:
        field = f"[{index}].{field}" if field else f"[{index}]"
    return ProblemEntry(field, refused.code.value, refused.message, index=index, numbers=refused.numbers)


def _refused(detail: str, refusals: list[OrderRefused], *, code: str | None = None, listed: bool = False) -> Problem:
    """A 400 naming every refusal with its machine-readable code and the body field it concerns."""
    entries = [_entry(r, listed=listed) for r in refusals]
    return Problem(status.HTTP_400_BAD_REQUEST, detail, errors=entries, code=code)


def _data(request: Request) -> Any:
    """The JSON body; a body that is not JSON is refused in the same shape as a refused order."""
    try:
        return request.data
    except ParseError as error:
        message = str(error.detail)
        raise _refused(message, [OrderRefused(message, code=RefusalCode.NOT_JSON)]) from None


def _still_open(desk: OrderDesk) -> bool:
    """Whether orders may still change (a refusal may come from a turn that closed meanwhile)."""
    campaign = desk.campaign
    open_turn = Turn.objects.filter(campaign=OuterRef("pk"), status=Turn.Status.OPEN)
    return (
        Campaign.objects.filter(pk=campaign.pk).exclude(status=Campaign.Status.ENDED).filter(Exists(open_turn)).exists()
    )


def _open_desk(request: Request, slug: str, named: Named | None = None) -> OrderDesk:
    desk = order_desk_for_player(user=request.user, slug=slug, nation_code=api_nation(request, slug))
    open_number = desk.turn.number if desk.open and desk.turn is not None else None
    if named is not None and named.turn is not None and named.turn != open_number:
        raise turn_closed_problem(TurnClosed(asked=named.turn, open_turn=open_number))
    if not desk.open:
        raise orders_closed()
    return desk


def _named(request: Request, body_turns: list[Any] | None = None) -> Named:
    return named_of(request, body_turns or [])


def _list_body(request: Request) -> tuple[Any, Named, str]:
    """The body of ``PUT /orders/`` (and of its validation): the list, each order's ``"turn"`` and
    ``"late_reason"`` taken out, the turn and list version the writer names, and the GM's reason for a
    late list (the first one given: the list is entered at once)."""
    bodies = _data(request)
    turns: list[Any] = []
    late_reason = ""
    if isinstance(bodies, list):
        pairs = [without_turn(b) for b in bodies]
        turns = [t for _, given in pairs for t in given]
        reasons = [without_late_reason(b) for b, _ in pairs]
        bodies = [b for b, _ in reasons]
        late_reason = next((r for _, r in reasons if r.strip()), "")
    return bodies, _named(request, turns), late_reason


def _written(desk: OrderDesk, was_ready: bool) -> dict[str, Any]:
    """What a write answers beside its body: the nation's ready mark after it, and whether it cleared it."""
    ready = desk.turn is not None and nation_ready(nation=desk.nation, turn=desk.turn)
    return {"ready": ready, "ready_cleared": was_ready and not ready}


def _headers(desk: OrderDesk, written: dict[str, Any]) -> dict[str, str]:
    """The list's new ETag (for the next If-Match), and on a 204 the ready mark as headers."""
    assert desk.turn is not None
    tag = list_etag(desk.turn.number, order_list_version(nation_id=desk.nation.pk, turn_id=desk.turn.pk))
    return {
        "ETag": tag,
        "Admiralty-Ready": str(written["ready"]).lower(),
        "Admiralty-Ready-Cleared": str(written["ready_cleared"]).lower(),
    }


def _was_ready(desk: OrderDesk) -> bool:
    return desk.turn is not None and nation_ready(nation=desk.nation, turn=desk.turn)


def _order_row(order: Order) -> dict[str, Any]:
    return {
        "id": order.pk,
        "position": order.position,
        "kind": order.kind,
        "description": order_describe(order),
        "body": order.body,
        "late_by": order.late_by,
        "late_reason": order.late_reason,
    }


def _order_list(
    desk: OrderDesk, orders: list[Order] | None = None, written: dict[str, Any] | None = None
) -> dict[str, Any]:
    if orders is None:
        orders = list(orders_for_turn(nation=desk.nation, turn=desk.turn)) if desk.turn is not None else []
    if written is None:
        state = (
            NationTurn.objects.filter(turn=desk.turn, nation=desk.nation).values("ready", "ready_cleared").first()
            if desk.turn is not None
            else None
        )
        written = {"ready": False, "ready_cleared": False, **(state or {})}
    return {
        "nation": desk.nation.code,
        "turn": desk.turn.number if desk.turn is not None else None,
        "open": desk.open,
        "orders": [_order_row(o) for o in orders],
        **written,
    }


def _refusal(desk: OrderDesk, refused: OrderRefused, *, total: int = 1, listed: bool = False) -> Problem:
    if isinstance(refused, TurnClosed):
        return turn_closed_problem(refused)
    if isinstance(refused, ListChanged):
        return list_changed_problem(refused)
    if isinstance(refused, DeadlinePassed):
        return deadline_passed_problem(refused)
    if not _still_open(desk):
        return orders_closed(refused.message)
    if isinstance(refused, OrdersRefused):
        refusals = refused.refusals
        return _refused(
            f"{len(refusals)} of {total} orders refused; nothing was stored.",
            refusals,
            code=RefusalCode.ORDERS_REFUSED.value,
            listed=listed,
        )
    return _refused(refused.message, [refused])


class OrderListView(IdempotentApiView):
    query_parameters = ("nation",)
    #: The order validator names the field holding NUL or a lone surrogate (config.middleware).
    refuses_bad_text_by_field = True

    @extend_schema(
        operation_id="orders_list",
        summary="The nation's orders for the open turn, in listed order",
        parameters=[NATION],
        description="The ETag names the turn and the list: send it back as If-Match on a write to have the "
        "write refused if the turn resolved (409) or the list changed (412) since.",
        responses={200: OrderListSerializer, **SEEN},
    )
    def get(self, request: Request, slug: str) -> Response:
        desk = order_desk_for_player(user=request.user, slug=slug, nation_code=api_nation(request, slug))
        headers = {}
        if desk.turn is not None:
            version = order_list_version(nation_id=desk.nation.pk, turn_id=desk.turn.pk)
            headers["ETag"] = list_etag(desk.turn.number, version)
        return Response(OrderListSerializer(_order_list(desk)).data, headers=headers)

    @extend_schema(
        operation_id="order_create",
        summary="Add one order at the end of the list",
        parameters=[NATION, IF_MATCH, IDEMPOTENCY_KEY],
        request=order_body_schema(),
        responses={201: OrderWrittenSerializer, **REFUSED, **SEEN, **CLOSED, **PRECONDITION},
    )
    def post(self, request: Request, slug: str) -> Response:
        body, turns = without_turn(_data(request))
        body, late_reason = without_late_reason(body)
        named = _named(request, turns)
        desk = _open_desk(request, slug, named)
        was_ready = _was_ready(desk)
        try:
            order = order_add(
                nation=desk.nation,
                body=body,
                actor=request.user,
                named_turn=named.turn,
                version=named.version,
                late_reason=late_reason,
            )
        except OrderRefused as refused:
            raise _refusal(desk, refused) from None
        written = _written(desk, was_ready)
        data = OrderWrittenSerializer({**_order_row(order), **written}).data
        return Response(data, status=status.HTTP_201_CREATED, headers=_headers(desk, written))

    @extend_schema(
        operation_id="orders_replace",
        summary="Replace the whole list, all or nothing (like submit_orders)",
        description="An empty list withdraws every order. If any order is refused, nothing is stored and "
        "every refused order is listed with its reason.",
        parameters=[NATION, IF_MATCH, IDEMPOTENCY_KEY],
        request=order_body_schema(many=True),
        responses={200: OrderListSerializer, **REFUSED, **SEEN, **CLOSED, **PRECONDITION},
    )
    def put(self, request: Request, slug: str) -> Response:
        bodies, named, late_reason = _list_body(request)
        desk = _open_desk(request, slug, named)
        was_ready = _was_ready(desk)
        try:
            stored = orders_replace(
                nation=desk.nation,
                bodies=bodies,
                actor=request.user,
                named_turn=named.turn,
                version=named.version,
                late_reason=late_reason,
            )
        except OrderRefused as refused:
            raise _refusal(desk, refused, total=len(bodies) if isinstance(bodies, list) else 1, listed=True) from None
        written = _written(desk, was_ready)
        data = OrderListSerializer(_order_list(desk, sorted(stored, key=lambda o: o.position), written)).data
        return Response(data, headers=_headers(desk, written))

    @extend_schema(
        operation_id="orders_reorder",
        summary="Put the orders in a new listed order",
        description="Name every order of the list once, by id, in the new order. A new order that would leave "
        "an order refused (money, room in a port…) is refused and nothing moves.",
        parameters=[NATION, IF_MATCH, IDEMPOTENCY_KEY],
        request=OrderReorderSerializer,
        responses={200: OrderListSerializer, **REFUSED, **SEEN, **CLOSED, **PRECONDITION},
    )
    def patch(self, request: Request, slug: str) -> Response:
        data, turns = without_turn(_data(request))
        named = _named(request, turns)
        desk = _open_desk(request, slug, named)
        was_ready = _was_ready(desk)
        try:
            unknown = sorted(str(k) for k in data if k != "order") if isinstance(data, dict) else []
            if unknown:
                raise OrderRefused(
                    f'Unknown key {unknown[0]!r}: the body is {{"order": [order ids]}} (and an optional "turn").',
                    code=RefusalCode.UNKNOWN_KEY,
                    field=unknown[0],
                )
            ids = data.get("order") if isinstance(data, dict) else None
            if not isinstance(ids, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
                raise OrderRefused(
                    'The body must be {"order": [order ids]}: every order id of the list, once, in the new order.',
                    code=RefusalCode.NOT_THE_LIST,
                    field="order",
                )
            stored = orders_reorder(
                nation=desk.nation, order_ids=ids, actor=request.user, named_turn=named.turn, version=named.version
            )
        except OrderRefused as refused:
            raise _refusal(desk, refused) from None
        written = _written(desk, was_ready)
        return Response(OrderListSerializer(_order_list(desk, stored, written)).data, headers=_headers(desk, written))


class OrderDetailView(IdempotentApiView):
    query_parameters = ("nation",)
    refuses_bad_text_by_field = True

    @extend_schema(
        operation_id="order_retrieve",
        summary="One order of the open turn",
        parameters=[NATION],
        responses={200: OrderSerializer, **SEEN},
    )
    def get(self, request: Request, slug: str, order_id: int) -> Response:
        desk = order_desk_for_player(user=request.user, slug=slug, nation_code=api_nation(request, slug))
        order = order_for_player(desk=desk, order_id=id_within(order_id, MAX_BIGINT))
        return Response(OrderSerializer(_order_row(order)).data)

    @extend_schema(
        operation_id="order_update",
        summary="Replace an order's body (it keeps its place in the list)",
        parameters=[NATION, IF_MATCH, IDEMPOTENCY_KEY],
        request=order_body_schema(),
        responses={200: OrderWrittenSerializer, **REFUSED, **SEEN, **CLOSED, **PRECONDITION},
    )
    def put(self, request: Request, slug: str, order_id: int) -> Response:
        body, turns = without_turn(_data(request))
        body, late_reason = without_late_reason(body)
        named = _named(request, turns)
        desk = _open_desk(request, slug, named)
        order = order_for_player(desk=desk, order_id=id_within(order_id, MAX_BIGINT))
        was_ready = _was_ready(desk)
        try:
            stored = order_update(
                order=order,
                body=body,
                actor=request.user,
                named_turn=named.turn,
                version=named.version,
                late_reason=late_reason,
            )
        except OrderRefused as refused:
            raise _refusal(desk, refused) from None
        written = _written(desk, was_ready)
        return Response(OrderWrittenSerializer({**_order_row(stored), **written}).data, headers=_headers(desk, written))

    @extend_schema(
        operation_id="order_withdraw",
        summary="Withdraw an order; the orders after it move up one place",
        parameters=[NATION, IF_MATCH, IDEMPOTENCY_KEY],
        responses={
            204: OpenApiResponse(
                description="Withdrawn. Headers: ETag (the list's new one), Admiralty-Ready and "
                "Admiralty-Ready-Cleared (true when the withdrawal cleared the nation's ready mark)."
            ),
            **REFUSED,
            **SEEN,
            **CLOSED,
            **PRECONDITION,
        },
    )
    def delete(self, request: Request, slug: str, order_id: int) -> Response:
        named = _named(request)
        desk = _open_desk(request, slug, named)
        order = order_for_player(desk=desk, order_id=id_within(order_id, MAX_BIGINT))
        was_ready = _was_ready(desk)
        try:
            order_withdraw(order=order, actor=request.user, named_turn=named.turn, version=named.version)
        except OrderRefused as refused:
            raise _refusal(desk, refused) from None
        return Response(status=status.HTTP_204_NO_CONTENT, headers=_headers(desk, _written(desk, was_ready)))


class OrderValidateView(ApiView):
    """``POST /orders/validate/``: the body of ``PUT /orders/`` checked by the replacement's own check
    (:func:`~campaign.orders.services.orders_replace_check`), answered as PUT would, storing nothing."""

    query_parameters = ("nation",)
    refuses_bad_text_by_field = True

    @extend_schema(
        operation_id="orders_validate",
        summary="Check a whole list of orders as PUT /orders/ would, without storing anything",
        description="200 with each order as it would be stored and in words; or 400 with exactly the refusals "
        "PUT /orders/ would give (each with its index in the list, its field as a path such as [2].path, its "
        'code and numbers). Nothing is stored and the ready mark is untouched. If-Match and a "turn" are '
        "honoured as by PUT.",
        parameters=[NATION, IF_MATCH],
        request=order_body_schema(many=True),
        responses={200: OrderValidationSerializer, **REFUSED, **SEEN, **CLOSED, **PRECONDITION},
    )
    def post(self, request: Request, slug: str) -> Response:
        bodies, named, late_reason = _list_body(request)
        desk = _open_desk(request, slug, named)
        try:
            cleans = orders_replace_check(
                nation=desk.nation,
                bodies=bodies,
                actor=request.user,
                named_turn=named.turn,
                version=named.version,
                late_reason=late_reason,
            )
        except OrderRefused as refused:
            raise _refusal(desk, refused, total=len(bodies) if isinstance(bodies, list) else 1, listed=True) from None
        assert desk.turn is not None  # an open desk has its turn
        orders = [
            Order(position=c.position, kind=c.kind, body=c.body, fleet=c.fleet, nation=desk.nation) for c in cleans
        ]
        data = {
            "nation": desk.nation.code,
            "turn": desk.turn.number,
            "orders": [
                {"position": o.position, "kind": o.kind, "description": order_describe(o), "body": o.body}
                for o in orders
            ],
        }
        return Response(OrderValidationSerializer(data).data)
