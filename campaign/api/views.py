"""The campaign resources of ``/api/v1/``: the caller's campaigns, a nation's view, its fleets, its
ledger, readiness and turn reports (README "API"). The orders are :mod:`campaign.api.order_views`;
what every endpoint shares (``?nation=``, the common answers) is :mod:`campaign.api.conventions`.

Thin views: who may see what is decided by the ``*_for_player`` selectors (``campaign.pages``,
``campaign.api.selectors``), which raise Http404 / PermissionDenied exactly as for the web pages.
Every refusal is a problem (:mod:`battles.api.problems`); a closed turn is a 409. A GM must name the
nation (``?nation=``) on every campaign endpoint. Lists go through the one paginator, and query
parameters a view does not take are refused (:mod:`battles.api.base`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import django_filters
from django.db.models import QuerySet
from django.http import HttpResponsePermanentRedirect
from django.http.response import HttpResponseBase
from django.urls import Resolver404, resolve
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.decorators import api_view, permission_classes, renderer_classes
from rest_framework.exceptions import NotFound, ParseError
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from battles.api.base import (
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
from campaign.api.conventions import CLOSED, CONDITIONAL, MAX_INT, NATION, SEEN, api_nation, id_within, orders_closed
from campaign.api.idempotency import IDEMPOTENCY_KEY, IdempotentApiView
from campaign.api.selectors import fleets_for_player, ledger_for_player
from campaign.api.serializers import (
    CampaignSummarySerializer,
    FleetSerializer,
    LedgerEntrySerializer,
    NationViewSerializer,
    ReadySerializer,
    ReadyStateSerializer,
    TurnReportSerializer,
)
from campaign.api.turn_writes import IF_MATCH, named_of, turn_closed_problem, turn_tag_prefix, without_turn
from campaign.models import LedgerEntry, NationTurn, Turn
from campaign.orders.errors import TurnClosed
from campaign.pages.dashboard import dashboard_for_player
from campaign.pages.history import turn_history_for_player
from campaign.pages.home import home_for_player
from campaign.turn.lifecycle import TurnControlError, nation_ready_set
from campaign.viewer import NationNotChosen, acting_viewer_for_player


def _latest(*stamps: datetime | None) -> datetime | None:
    present = [s for s in stamps if s is not None]
    return max(present) if present else None


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
        number = turn.number if turn is not None and turn.is_open else None
        return conditional(
            request, NationViewSerializer(data).data, last_modified=modified, tag_prefix=turn_tag_prefix(number)
        )


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


class ReadyView(IdempotentApiView):
    query_parameters = ("nation",)

    @extend_schema(
        operation_id="ready_set",
        summary="Mark the nation ready (or not) for the open turn",
        parameters=[NATION, IF_MATCH, IDEMPOTENCY_KEY],
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
        message = 'The body must be {"ready": true} or {"ready": false}, with an optional "turn": N.'
        unknown = sorted(str(k) for k in data if k not in ("ready", "turn")) if isinstance(data, dict) else []
        if unknown:
            # A misspelt key ("redy") must not pass unnoticed, as an unknown key of an order does not.
            refusals = [ProblemEntry(k, "unknown_key", f"Unknown key {k!r}. {message}") for k in unknown]
            raise Problem(400, refusals[0].message, errors=refusals)
        if not isinstance(data, dict) or not isinstance(data.get("ready"), bool):
            raise Problem(400, message, errors=[ProblemEntry("ready", "wrong_type", message)])
        data, turns = without_turn(data)
        named = named_of(request, turns)
        try:
            state = nation_ready_set(
                nation=viewer.nation, ready=data["ready"], actor=request.user, named_turn=named.turn
            )
        except TurnClosed as moved:
            raise turn_closed_problem(moved) from None
        except TurnControlError as closed:
            raise orders_closed(str(closed)) from None
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
            user=request.user, slug=slug, number=id_within(number, MAX_INT), nation_code=api_nation(request, slug)
        )
        resolved, season = (
            Turn.objects.filter(campaign=history.viewer.campaign, number=history.number)
            .values_list("resolved_at", "season")
            .get()
        )
        fought = {b.id: b.fought for b in history.battles}
        battles = list(Battle.objects.filter(pk__in=fought).select_related("turn", "sea_zone", "port").order_by("id"))
        for battle in battles:
            battle.fought = fought[battle.pk]  # type: ignore[attr-defined]  # read by TurnBattleSerializer
        data = {
            "number": history.number,
            "season": season,
            "season_name": history.season,
            "year": history.year,
            "viewer": history.viewer,
            "events": history.report.events if history.report is not None else [],
            "battles": battles,
            "previous": history.previous,
            "next": history.next,
        }
        return conditional(request, TurnReportSerializer(data).data, last_modified=resolved)


@extend_schema(exclude=True)
@api_view(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"])
@permission_classes([AllowAny])
@renderer_classes([JSONRenderer])
def api_not_found(request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
    """Anything under /api/ that no route matches (a path parameter of the wrong type, a typo): a JSON
    404 like every other API answer, not the site's HTML page. A path that only lacks its trailing
    slash is redirected for a read (301: a client follows it); a write is not redirected (clients do
    not resend a body) but refused with the path it meant."""
    slashed = _with_slash(request.path)
    if slashed is None:
        raise NotFound("No such API resource.")
    if request.method in ("GET", "HEAD"):
        query = request.META.get("QUERY_STRING", "")
        return HttpResponsePermanentRedirect(slashed + (f"?{query}" if query else ""))
    message = f"Every API path ends with a slash: send this {request.method} to {slashed}"
    raise Problem(404, message, errors=[ProblemEntry(None, "trailing_slash_missing", message)])


def _with_slash(path: str) -> str | None:
    """``path`` with a trailing slash when that names an API resource (not this catch-all), else None."""
    if path.endswith("/"):
        return None
    try:
        match = resolve(path + "/")
    except Resolver404:
        return None
    return None if match.func is api_not_found else path + "/"
