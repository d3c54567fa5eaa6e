"""The campaign resources of ``/api/v1/`` (README "API").

Thin views: who may see what is decided by the ``*_for_player`` selectors (``campaign.pages``,
``campaign.orders.choices``, ``campaign.api.selectors``), which raise Http404 / PermissionDenied
exactly as for the web pages; DRF turns those into 404 / 403 with ``{"detail"}``. Orders go through
``campaign.orders.services`` (the validator the web forms and ``submit_orders`` share): a refusal is a 400
``{"detail", "errors", "refusals"}`` naming every refused order and its reason (``refusals`` adds each
one's ``code`` and ``field``); a closed turn is a 409.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef
from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.decorators import api_view, permission_classes, renderer_classes
from rest_framework.exceptions import APIException, NotFound, ParseError
from rest_framework.generics import ListAPIView
from rest_framework.parsers import JSONParser
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign.api.selectors import fleets_for_player, ledger_for_player
from campaign.api.serializers import (
    CampaignSummarySerializer,
    ErrorSerializer,
    FleetSerializer,
    LedgerEntrySerializer,
    NationViewSerializer,
    OrderListSerializer,
    OrderReorderSerializer,
    OrderSerializer,
    ReadySerializer,
    ReadyStateSerializer,
    RefusalSerializer,
    TurnReportSerializer,
    order_body_schema,
)
from campaign.models import Campaign, LedgerEntry, Order, Turn
from campaign.orders.choices import OrderDesk, order_desk_for_player, order_for_player
from campaign.orders.describe import order_describe
from campaign.orders.errors import OrderRefused, OrdersRefused, RefusalCode
from campaign.orders.selectors import orders_for_turn
from campaign.orders.services import order_add, order_update, order_withdraw, orders_reorder, orders_replace
from campaign.pages.dashboard import dashboard_for_player
from campaign.pages.history import turn_history_for_player
from campaign.pages.home import home_for_player
from campaign.turn.lifecycle import TurnControlError, nation_ready_set
from campaign.viewer import NationNotChosen, acting_viewer_for_player

NATION = OpenApiParameter(
    "nation",
    str,
    OpenApiParameter.QUERY,
    required=False,
    description="Nation code to look through: a GM may pick any nation; a player only their own (else 403).",
)
#: Every campaign resource: another nation's data (403), not a campaign of the caller (404); 401 by the schema hook.
SEEN = {
    403: OpenApiResponse(ErrorSerializer, description="Another nation's data, or otherwise not allowed."),
    404: OpenApiResponse(ErrorSerializer, description="No such campaign (or not one of the caller's), nation or item."),
}
REFUSED = {400: OpenApiResponse(RefusalSerializer, description="Refused; nothing was changed.")}
CLOSED = {409: OpenApiResponse(ErrorSerializer, description="Orders are closed: no open turn, or the campaign ended.")}
#: Ids are PostgreSQL integers: a larger number is no row (not a database error).
MAX_INT = 2**31 - 1
MAX_BIGINT = 2**63 - 1


class Conflict(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "Orders are closed: there is no open turn."
    default_code = "closed"


class JsonView(APIView):
    parser_classes = [JSONParser]
    renderer_classes = [JSONRenderer]


def _nation(request: Request) -> str | None:
    return request.query_params.get("nation") or None


def _within(value: int, maximum: int) -> int:
    if value > maximum:
        raise Http404("No such item.")
    return value


def _refused(detail: str, refusals: list[OrderRefused]) -> Response:
    """A 400 naming every refusal: ``errors`` their messages, ``refusals`` the same with each one's
    machine-readable ``code`` and the body ``field`` it concerns (None: the whole order or list)."""
    return Response(
        {
            "detail": detail,
            "errors": [r.message for r in refusals],
            "refusals": [{"message": r.message, "code": r.code, "field": r.field} for r in refusals],
        },
        status=status.HTTP_400_BAD_REQUEST,
    )


def _bad_body(bad: _BadBody) -> Response:
    return _refused(str(bad), [OrderRefused(str(bad), code=RefusalCode.NOT_JSON)])


def _data(request: Request) -> Any:
    """The JSON body; a body that is not JSON is refused in the same shape as a refused order."""
    try:
        return request.data
    except ParseError as error:
        raise _BadBody(str(error.detail)) from None


class _BadBody(Exception):
    pass


def _still_open(desk: OrderDesk) -> bool:
    """Whether orders may still change (a refusal may come from a turn that closed meanwhile)."""
    campaign = desk.campaign
    open_turn = Turn.objects.filter(campaign=OuterRef("pk"), status=Turn.Status.OPEN)
    return (
        Campaign.objects.filter(pk=campaign.pk).exclude(status=Campaign.Status.ENDED).filter(Exists(open_turn)).exists()
    )


def _open_desk(request: Request, slug: str) -> OrderDesk:
    desk = order_desk_for_player(user=request.user, slug=slug, nation_code=_nation(request))
    if not desk.open:
        raise Conflict()
    return desk


def _order_row(order: Order) -> dict[str, Any]:
    return {
        "id": order.pk,
        "position": order.position,
        "kind": order.kind,
        "description": order_describe(order),
        "body": order.body,
    }


def _order_list(desk: OrderDesk, orders: list[Order] | None = None) -> dict[str, Any]:
    if orders is None:
        orders = list(orders_for_turn(nation=desk.nation, turn=desk.turn)) if desk.turn is not None else []
    return {
        "nation": desk.nation.code,
        "turn": desk.turn.number if desk.turn is not None else None,
        "open": desk.open,
        "orders": [_order_row(o) for o in orders],
    }


def _refusal(desk: OrderDesk, refused: OrderRefused, *, total: int = 1) -> Response:
    if not _still_open(desk):
        raise Conflict(refused.message)
    if isinstance(refused, OrdersRefused):
        refusals = refused.refusals
        return _refused(f"{len(refusals)} of {total} orders refused; nothing was stored.", refusals)
    return _refused(refused.message, [refused])


# --- campaigns -----------------------------------------------------------------------------------------


class CampaignListView(JsonView):
    @extend_schema(
        operation_id="campaigns_list",
        summary="The caller's campaigns",
        responses={200: CampaignSummarySerializer(many=True), 403: SEEN[403]},
    )
    def get(self, request: Request) -> Response:
        rows = [
            {
                "slug": row.campaign.slug,
                "name": row.campaign.name,
                "year": row.campaign.year,
                "season": row.campaign.season,
                "turn": row.turn_number,
                "status": row.campaign.status,
                "deadline": row.deadline,
                "nation": row.nation.code if row.nation is not None else None,
                "gm": row.is_gm,
                "ready": row.ready,
            }
            for row in home_for_player(user=request.user)
        ]
        return Response(CampaignSummarySerializer(rows, many=True).data)


class CampaignDetailView(JsonView):
    @extend_schema(
        operation_id="campaign_retrieve",
        summary="The caller's nation view: treasury, committed EP, next income and upkeep, quota, ready",
        parameters=[NATION],
        responses={200: NationViewSerializer, **SEEN},
    )
    def get(self, request: Request, slug: str) -> Response:
        dash = dashboard_for_player(user=request.user, slug=slug, nation_code=_nation(request))
        turn = dash.viewer.turn
        data = {
            "viewer": dash.viewer,
            "deadline": turn.deadline if turn is not None and turn.is_open else None,
            "treasury": dash.treasury,
            "committed_ep": dash.committed_ep,
            "available_ep": dash.available_ep,
            "projection": dash.projection,
            "quota": dash.quota,
        }
        return Response(NationViewSerializer(data).data)


class FleetListView(JsonView):
    @extend_schema(
        operation_id="fleets_list",
        summary="Own and allied fleets with their ships afloat",
        description="Enemy and neutral fleets are never listed: what the nation saw of them is in its turn reports.",
        parameters=[NATION],
        responses={200: FleetSerializer(many=True), **SEEN},
    )
    def get(self, request: Request, slug: str) -> Response:
        listing = fleets_for_player(user=request.user, slug=slug, nation_code=_nation(request))
        own = listing.viewer.nation.pk
        rows = [
            {
                "id": f.pk,
                "name": f.name,
                "nation": f.nation,
                "own": f.nation_id == own,
                "sea_zone": f.sea_zone,
                "port": f.port,
                "admiral": f.admiral,
                "posture": f.posture,
                "blockade_port": f.blockade_port,
                "in_supply": f.in_supply,
                "ships": listing.ships.get(f.pk, []),
            }
            for f in listing.fleets
        ]
        return Response(FleetSerializer(rows, many=True).data)


class LedgerView(ListAPIView[LedgerEntry]):
    parser_classes = [JSONParser]
    renderer_classes = [JSONRenderer]
    serializer_class = LedgerEntrySerializer
    queryset = LedgerEntry.objects.none()  # the real rows come from ledger_for_player

    def get_queryset(self) -> Any:
        if getattr(self, "swagger_fake_view", False):  # the schema generator
            return LedgerEntry.objects.none()
        return ledger_for_player(user=self.request.user, slug=self.kwargs["slug"], nation_code=_nation(self.request))

    @extend_schema(
        operation_id="ledger_list",
        summary="The nation's EP ledger, newest line first (paginated)",
        parameters=[NATION],
        responses={200: LedgerEntrySerializer(many=True), **SEEN},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class ReadyView(JsonView):
    @extend_schema(
        operation_id="ready_set",
        summary="Mark the nation ready (or not) for the open turn",
        parameters=[NATION],
        request=ReadySerializer,
        responses={
            200: ReadyStateSerializer,
            400: OpenApiResponse(
                ErrorSerializer,
                description='The body is not {"ready": true|false}, or a GM who plays no nation named none.',
            ),
            **SEEN,
            **CLOSED,
        },
    )
    def post(self, request: Request, slug: str) -> Response:
        try:
            viewer = acting_viewer_for_player(user=request.user, slug=slug, nation_code=_nation(request))
        except NationNotChosen as refused:
            return Response({"detail": str(refused)}, status=status.HTTP_400_BAD_REQUEST)
        try:
            data = _data(request)
        except _BadBody as bad:
            return Response({"detail": str(bad)}, status=status.HTTP_400_BAD_REQUEST)
        if not isinstance(data, dict) or not isinstance(data.get("ready"), bool):
            return Response({"detail": 'The body must be {"ready": true} or {"ready": false}.'}, status=400)
        try:
            state = nation_ready_set(nation=viewer.nation, ready=data["ready"])
        except TurnControlError as closed:
            raise Conflict(str(closed)) from None
        number = Turn.objects.filter(pk=state.turn_id).values_list("number", flat=True).get()
        return Response(ReadyStateSerializer({"nation": viewer.nation.code, "turn": number, "ready": state.ready}).data)


class TurnReportView(JsonView):
    @extend_schema(
        operation_id="turn_report_retrieve",
        summary="The caller's report of a resolved turn",
        parameters=[NATION],
        responses={200: TurnReportSerializer, **SEEN},
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        history = turn_history_for_player(
            user=request.user, slug=slug, number=_within(number, MAX_INT), nation_code=_nation(request)
        )
        data = {
            "number": history.number,
            "season": history.season,
            "year": history.year,
            "viewer": history.viewer,
            "events": history.report.events if history.report is not None else [],
            "battles": history.battles,
            "previous": history.previous,
            "next": history.next,
        }
        return Response(TurnReportSerializer(data).data)


# --- orders --------------------------------------------------------------------------------------------


class OrderListView(JsonView):
    #: The order validator names the field holding NUL or a lone surrogate (config.middleware).
    refuses_bad_text_by_field = True

    @extend_schema(
        operation_id="orders_list",
        summary="The nation's orders for the open turn, in listed order",
        parameters=[NATION],
        responses={200: OrderListSerializer, **SEEN},
    )
    def get(self, request: Request, slug: str) -> Response:
        desk = order_desk_for_player(user=request.user, slug=slug, nation_code=_nation(request))
        return Response(OrderListSerializer(_order_list(desk)).data)

    @extend_schema(
        operation_id="order_create",
        summary="Add one order at the end of the list",
        parameters=[NATION],
        request=order_body_schema(),
        responses={201: OrderSerializer, **REFUSED, **SEEN, **CLOSED},
    )
    def post(self, request: Request, slug: str) -> Response:
        desk = _open_desk(request, slug)
        try:
            order = order_add(nation=desk.nation, body=_data(request))
        except _BadBody as bad:
            return _bad_body(bad)
        except OrderRefused as refused:
            return _refusal(desk, refused)
        return Response(OrderSerializer(_order_row(order)).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="orders_replace",
        summary="Replace the whole list, all or nothing (like submit_orders)",
        description="An empty list withdraws every order. If any order is refused, nothing is stored and "
        "every refused order is listed with its reason.",
        parameters=[NATION],
        request=order_body_schema(many=True),
        responses={200: OrderListSerializer, **REFUSED, **SEEN, **CLOSED},
    )
    def put(self, request: Request, slug: str) -> Response:
        desk = _open_desk(request, slug)
        try:
            bodies = _data(request)
            stored = orders_replace(nation=desk.nation, bodies=bodies)
        except _BadBody as bad:
            return _bad_body(bad)
        except OrderRefused as refused:
            return _refusal(desk, refused, total=len(bodies) if isinstance(bodies, list) else 1)
        return Response(OrderListSerializer(_order_list(desk, sorted(stored, key=lambda o: o.position))).data)

    @extend_schema(
        operation_id="orders_reorder",
        summary="Put the orders in a new listed order",
        description="Name every order of the list once, by id, in the new order. A new order that would leave "
        "an order refused (money, room in a port…) is refused and nothing moves.",
        parameters=[NATION],
        request=OrderReorderSerializer,
        responses={200: OrderListSerializer, **REFUSED, **SEEN, **CLOSED},
    )
    def patch(self, request: Request, slug: str) -> Response:
        desk = _open_desk(request, slug)
        try:
            data = _data(request)
            ids = data.get("order") if isinstance(data, dict) else None
            if not isinstance(ids, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
                raise OrderRefused(
                    'The body must be {"order": [order ids]}: every order id of the list, once, in the new order.',
                    code=RefusalCode.NOT_THE_LIST,
                    field="order",
                )
            stored = orders_reorder(nation=desk.nation, order_ids=ids)
        except _BadBody as bad:
            return _bad_body(bad)
        except OrderRefused as refused:
            return _refusal(desk, refused)
        return Response(OrderListSerializer(_order_list(desk, stored)).data)


class OrderDetailView(JsonView):
    refuses_bad_text_by_field = True

    @extend_schema(
        operation_id="order_retrieve",
        summary="One order of the open turn",
        parameters=[NATION],
        responses={200: OrderSerializer, **SEEN},
    )
    def get(self, request: Request, slug: str, order_id: int) -> Response:
        desk = order_desk_for_player(user=request.user, slug=slug, nation_code=_nation(request))
        order = order_for_player(desk=desk, order_id=_within(order_id, MAX_BIGINT))
        return Response(OrderSerializer(_order_row(order)).data)

    @extend_schema(
        operation_id="order_update",
        summary="Replace an order's body (it keeps its place in the list)",
        parameters=[NATION],
        request=order_body_schema(),
        responses={200: OrderSerializer, **REFUSED, **SEEN, **CLOSED},
    )
    def put(self, request: Request, slug: str, order_id: int) -> Response:
        desk = _open_desk(request, slug)
        order = order_for_player(desk=desk, order_id=_within(order_id, MAX_BIGINT))
        try:
            stored = order_update(order=order, body=_data(request))
        except _BadBody as bad:
            return _bad_body(bad)
        except OrderRefused as refused:
            return _refusal(desk, refused)
        return Response(OrderSerializer(_order_row(stored)).data)

    @extend_schema(
        operation_id="order_withdraw",
        summary="Withdraw an order; the orders after it move up one place",
        parameters=[NATION],
        responses={204: OpenApiResponse(description="Withdrawn."), **REFUSED, **SEEN, **CLOSED},
    )
    def delete(self, request: Request, slug: str, order_id: int) -> Response:
        desk = _open_desk(request, slug)
        order = order_for_player(desk=desk, order_id=_within(order_id, MAX_BIGINT))
        try:
            order_withdraw(order=order)
        except OrderRefused as refused:
            return _refusal(desk, refused)
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(exclude=True)
@api_view(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"])
@permission_classes([AllowAny])
@renderer_classes([JSONRenderer])
def api_not_found(request: Request, *args: Any, **kwargs: Any) -> Response:
    """Anything under /api/ that no route matches (a path parameter of the wrong type, a typo): a JSON
    404 like every other API answer, not the site's HTML page."""
    raise NotFound("No such API resource.")
