"""The campaign resources of ``/api/v1/`` (README "API").

Thin views: who may see what is decided by the ``*_for_player`` selectors (``campaign.pages``,
``campaign.orders.choices``, ``campaign.api.selectors``), which raise Http404 / PermissionDenied
exactly as for the web pages. Every refusal is a problem (:mod:`battles.api.problems`): an order
refusal names every refused order with its ``code`` and ``field``; a closed turn is a 409. A GM must
name the nation (``?nation=``) on every campaign endpoint. Lists go through the one paginator, and
query parameters a view does not take are refused (:mod:`battles.api.base`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import django_filters
from django.db.models import Exists, OuterRef, QuerySet
from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.decorators import api_view, permission_classes, renderer_classes
from rest_framework.exceptions import NotFound, ParseError
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from battles.api.base import (
    IF_MODIFIED_SINCE,
    IF_NONE_MATCH,
    NOT_MODIFIED,
    PAGE_QUERY,
    ApiListView,
    ApiView,
    conditional,
    page_of,
    paginated,
    problem_response,
)
from battles.api.problems import Problem, ProblemEntry
from battles.api.views import TurnFilter
from battles.models import Battle
from campaign.api.selectors import NationRequired, api_nation_code, fleets_for_player, ledger_for_player
from campaign.api.serializers import (
    CampaignSummarySerializer,
    FleetSerializer,
    LedgerEntrySerializer,
    NationViewSerializer,
    OrderListSerializer,
    OrderReorderSerializer,
    OrderSerializer,
    ReadySerializer,
    ReadyStateSerializer,
    TurnReportSerializer,
    order_body_schema,
)
from campaign.models import Campaign, LedgerEntry, NationTurn, Order, Turn
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
    description="Nation code to look through or act for: a player may give only their own (else 403); a GM "
    "who plays no nation in the campaign must give one (else 400 listing the codes).",
)
#: Every campaign resource: another nation's data (403), not a campaign of the caller (404); 401 by the schema hook.
SEEN = {
    403: problem_response("Another nation's data, or otherwise not allowed."),
    404: problem_response("No such campaign (or not one of the caller's), nation or item."),
}
REFUSED = {
    400: problem_response(
        "Refused, nothing was changed: each refused order in errors with its code and body field; or a GM "
        "named no nation (nation_required), or an unknown query parameter."
    )
}
CLOSED = {409: problem_response("Orders are closed: no open turn, or the campaign ended (turn_closed).")}
CONDITIONAL = [IF_NONE_MATCH, IF_MODIFIED_SINCE]
#: Ids are PostgreSQL integers: a larger number is no row (not a database error).
MAX_INT = 2**31 - 1
MAX_BIGINT = 2**63 - 1


def _closed(message: str = "Orders are closed: there is no open turn.") -> Problem:
    return Problem(status.HTTP_409_CONFLICT, message, code=RefusalCode.TURN_CLOSED.value, title="Orders closed")


def api_nation(request: Request, slug: str) -> str | None:
    """The ``?nation=`` of the request, or the caller's own; a GM who plays none must name one."""
    try:
        return api_nation_code(user=request.user, slug=slug, nation_code=request.query_params.get("nation") or None)
    except NationRequired as required:
        raise Problem(
            status.HTTP_400_BAD_REQUEST,
            str(required),
            errors=[ProblemEntry("nation", "nation_required", str(required))],
        ) from None


def _within(value: int, maximum: int) -> int:
    if value > maximum:
        raise Http404("No such item.")
    return value


def _entry(refused: OrderRefused) -> ProblemEntry:
    return ProblemEntry(refused.field, refused.code.value, refused.message)


def _refused(detail: str, refusals: list[OrderRefused], *, code: str | None = None) -> Problem:
    """A 400 naming every refusal with its machine-readable code and the body field it concerns."""
    return Problem(status.HTTP_400_BAD_REQUEST, detail, errors=[_entry(r) for r in refusals], code=code)


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


def _open_desk(request: Request, slug: str) -> OrderDesk:
    desk = order_desk_for_player(user=request.user, slug=slug, nation_code=api_nation(request, slug))
    if not desk.open:
        raise _closed()
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


def _refusal(desk: OrderDesk, refused: OrderRefused, *, total: int = 1) -> Problem:
    if not _still_open(desk):
        return _closed(refused.message)
    if isinstance(refused, OrdersRefused):
        refusals = refused.refusals
        return _refused(
            f"{len(refusals)} of {total} orders refused; nothing was stored.",
            refusals,
            code=RefusalCode.ORDERS_REFUSED.value,
        )
    return _refused(refused.message, [refused])


def _latest(*stamps: datetime | None) -> datetime | None:
    present = [s for s in stamps if s is not None]
    return max(present) if present else None


# --- campaigns -----------------------------------------------------------------------------------------


class CampaignListView(ApiView):
    query_parameters = ("page", "page_size")

    @extend_schema(
        operation_id="campaigns_list",
        summary="The caller's campaigns (paginated)",
        parameters=PAGE_QUERY,
        responses={200: page_of(CampaignSummarySerializer), 404: problem_response("No such page.")},
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
        return paginated(self, request, rows, CampaignSummarySerializer)


class CampaignDetailView(ApiView):
    query_parameters = ("nation",)

    @extend_schema(
        operation_id="campaign_retrieve",
        summary="The caller's nation view: the turn, treasury, committed EP, next income and upkeep, quota, ready",
        description="Poll it with If-None-Match (the ETag of the copy held): 304 until something changes, "
        "such as the turn resolving. Last-Modified is when the turn last opened, paused or resolved or the "
        "nation's orders were last submitted; the ETag also changes with anything else shown (prefer it).",
        parameters=[NATION, *CONDITIONAL],
        responses={200: NationViewSerializer, 304: NOT_MODIFIED, **SEEN},
    )
    def get(self, request: Request, slug: str) -> Response:
        dash = dashboard_for_player(user=request.user, slug=slug, nation_code=api_nation(request, slug))
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
        modified = None
        if turn is not None:
            opened, resolved, paused = (
                Turn.objects.filter(pk=turn.id).values_list("opened_at", "resolved_at", "paused_at").get()
            )
            submitted = (
                NationTurn.objects.filter(turn_id=turn.id, nation=dash.viewer.nation)
                .values_list("submitted_at", flat=True)
                .first()
            )
            modified = _latest(opened, resolved, paused, submitted)
        return conditional(request, NationViewSerializer(data).data, last_modified=modified)


class FleetListView(ApiView):
    query_parameters = ("nation", "zone", "page", "page_size")

    @extend_schema(
        operation_id="fleets_list",
        summary="Own and allied fleets with their ships afloat (paginated; ?zone= for one sea zone)",
        description="Enemy and neutral fleets are never listed: what the nation saw of them is in its turn reports.",
        parameters=[
            NATION,
            OpenApiParameter("zone", str, OpenApiParameter.QUERY, required=False, description="Sea-zone key."),
            *PAGE_QUERY,
        ],
        responses={200: page_of(FleetSerializer), **SEEN},
    )
    def get(self, request: Request, slug: str) -> Response:
        listing = fleets_for_player(user=request.user, slug=slug, nation_code=api_nation(request, slug))
        own = listing.viewer.nation.pk
        zone = request.query_params.get("zone")
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
            if zone is None or f.sea_zone.key == zone
        ]
        return paginated(self, request, rows, FleetSerializer)


class LedgerFilter(django_filters.FilterSet):
    turn = TurnFilter(field_name="turn", help_text="The turn's number.")
    kind = django_filters.ChoiceFilter(choices=LedgerEntry.Kind.choices)

    class Meta:
        model = LedgerEntry
        fields = ["turn", "kind"]


class LedgerView(ApiListView):
    query_parameters = ("nation",)
    serializer_class = LedgerEntrySerializer
    filterset_class = LedgerFilter
    queryset = LedgerEntry.objects.none()  # the real rows come from ledger_for_player

    def get_queryset(self) -> QuerySet[LedgerEntry]:
        if getattr(self, "swagger_fake_view", False):  # the schema generator
            return LedgerEntry.objects.none()
        slug = self.kwargs["slug"]
        return ledger_for_player(user=self.request.user, slug=slug, nation_code=api_nation(self.request, slug))

    @extend_schema(
        operation_id="ledger_list",
        summary="The nation's EP ledger, newest line first (paginated; by turn and kind)",
        parameters=[NATION],
        responses={200: LedgerEntrySerializer(many=True), **SEEN},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)


class ReadyView(ApiView):
    query_parameters = ("nation",)

    @extend_schema(
        operation_id="ready_set",
        summary="Mark the nation ready (or not) for the open turn",
        parameters=[NATION],
        request=ReadySerializer,
        responses={
            200: ReadyStateSerializer,
            400: problem_response('The body is not {"ready": true|false}, or a GM named no nation.'),
            **SEEN,
            **CLOSED,
        },
    )
    def post(self, request: Request, slug: str) -> Response:
        try:
            viewer = acting_viewer_for_player(user=request.user, slug=slug, nation_code=api_nation(request, slug))
        except NationNotChosen as refused:
            raise Problem(400, str(refused), errors=[ProblemEntry("nation", "nation_required", str(refused))]) from None
        try:
            data = request.data
        except ParseError as error:
            raise Problem(400, str(error.detail), code="not_json") from None
        if not isinstance(data, dict) or not isinstance(data.get("ready"), bool):
            message = 'The body must be {"ready": true} or {"ready": false}.'
            raise Problem(400, message, errors=[ProblemEntry("ready", "wrong_type", message)])
        try:
            state = nation_ready_set(nation=viewer.nation, ready=data["ready"], actor=request.user)
        except TurnControlError as closed:
            raise _closed(str(closed)) from None
        number = Turn.objects.filter(pk=state.turn_id).values_list("number", flat=True).get()
        return Response(ReadyStateSerializer({"nation": viewer.nation.code, "turn": number, "ready": state.ready}).data)


class TurnReportView(ApiView):
    query_parameters = ("nation",)

    @extend_schema(
        operation_id="turn_report_retrieve",
        summary="The caller's report of a resolved turn",
        description="ETag and Last-Modified (when the turn was resolved): a conditional GET answers 304.",
        parameters=[NATION, *CONDITIONAL],
        responses={200: TurnReportSerializer, 304: NOT_MODIFIED, **SEEN},
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        history = turn_history_for_player(
            user=request.user, slug=slug, number=_within(number, MAX_INT), nation_code=api_nation(request, slug)
        )
        fought = {b.id: b.fought for b in history.battles}
        battles = list(Battle.objects.filter(pk__in=fought).select_related("turn", "sea_zone", "port").order_by("id"))
        for battle in battles:
            battle.fought = fought[battle.pk]  # type: ignore[attr-defined]  # read by TurnBattleSerializer
        data = {
            "number": history.number,
            "season": history.season,
            "year": history.year,
            "viewer": history.viewer,
            "events": history.report.events if history.report is not None else [],
            "battles": battles,
            "previous": history.previous,
            "next": history.next,
        }
        resolved = (
            Turn.objects.filter(campaign=history.viewer.campaign, number=history.number)
            .values_list("resolved_at", flat=True)
            .first()
        )
        return conditional(request, TurnReportSerializer(data).data, last_modified=resolved)


# --- orders --------------------------------------------------------------------------------------------


class OrderListView(ApiView):
    query_parameters = ("nation",)
    #: The order validator names the field holding NUL or a lone surrogate (config.middleware).
    refuses_bad_text_by_field = True

    @extend_schema(
        operation_id="orders_list",
        summary="The nation's orders for the open turn, in listed order",
        parameters=[NATION],
        responses={200: OrderListSerializer, **SEEN},
    )
    def get(self, request: Request, slug: str) -> Response:
        desk = order_desk_for_player(user=request.user, slug=slug, nation_code=api_nation(request, slug))
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
        body = _data(request)
        try:
            order = order_add(nation=desk.nation, body=body, actor=request.user)
        except OrderRefused as refused:
            raise _refusal(desk, refused) from None
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
        bodies = _data(request)
        try:
            stored = orders_replace(nation=desk.nation, bodies=bodies, actor=request.user)
        except OrderRefused as refused:
            raise _refusal(desk, refused, total=len(bodies) if isinstance(bodies, list) else 1) from None
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
            stored = orders_reorder(nation=desk.nation, order_ids=ids, actor=request.user)
        except OrderRefused as refused:
            raise _refusal(desk, refused) from None
        return Response(OrderListSerializer(_order_list(desk, stored)).data)


class OrderDetailView(ApiView):
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
        body = _data(request)
        try:
            stored = order_update(order=order, body=body, actor=request.user)
        except OrderRefused as refused:
            raise _refusal(desk, refused) from None
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
            order_withdraw(order=order, actor=request.user)
        except OrderRefused as refused:
            raise _refusal(desk, refused) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(exclude=True)
@api_view(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"])
@permission_classes([AllowAny])
@renderer_classes([JSONRenderer])
def api_not_found(request: Request, *args: Any, **kwargs: Any) -> Response:
    """Anything under /api/ that no route matches (a path parameter of the wrong type, a typo): a JSON
    404 like every other API answer, not the site's HTML page."""
    raise NotFound("No such API resource.")
