"""Battle reports and the battle simulator of ``/api/v1/`` (README "API").

Thin views: which battles a player may see is :mod:`battles.web_selectors`' business (a battle the
caller may not see is a 404, exactly like the report page); the simulator parses CONTRACT.md's
battle spec with :func:`~battles.engine.parse_spec` and fights it with the engine, as
``simulate_battle`` does.
"""

from __future__ import annotations

import secrets

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound, ParseError
from rest_framework.parsers import JSONParser
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param
from rest_framework.views import APIView

from battles.api.serializers import (
    SIMULATOR_RESULT,
    BattleDetailSerializer,
    BattlePageSerializer,
    SimulatorRequestSerializer,
    SpecErrorSerializer,
)
from battles.engine import DiceError, ScriptedDice, SeededDice, SpecError, fight, parse_spec, simulate_odds
from battles.simulator import MAX_RUNS, MAX_SHIPS_PER_SIDE
from battles.web_selectors import battle_for_player, battles_for_player

ERROR = {
    "type": "object",
    "properties": {"detail": {"type": "string"}},
    "required": ["detail"],
}
SEEN = {
    403: OpenApiResponse(ERROR, description="Not logged in."),
    404: OpenApiResponse(ERROR, description="No such campaign (or not one of the caller's), battle or page."),
}
MAX_BIGINT = 2**63 - 1
#: The simulator's own keys beside CONTRACT.md's spec.
RUN_KEYS = ("seed", "dice", "runs")


class JsonView(APIView):
    parser_classes = [JSONParser]
    renderer_classes = [JSONRenderer]


class BattleListView(JsonView):
    @extend_schema(
        operation_id="battles_list",
        summary="The campaign's battles the caller may see, newest turn first (25 a page)",
        parameters=[
            OpenApiParameter("page", {"type": "integer", "minimum": 1}, OpenApiParameter.QUERY, required=False)
        ],
        responses={200: BattlePageSerializer, **SEEN},
    )
    def get(self, request: Request, slug: str) -> Response:
        raw = request.query_params.get("page", "1")
        if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= MAX_BIGINT:  # "²".isdigit()
            raise NotFound("Invalid page.")
        listing = battles_for_player(user=request.user, campaign=slug, page=int(raw))
        if listing.page.number != int(raw):  # the paginator falls back to the last page; an API says so
            raise NotFound("Invalid page.")
        page = listing.page
        url = request.build_absolute_uri()
        data = {
            "count": page.paginator.count,
            "page": page.number,
            "pages": page.paginator.num_pages,
            "next": replace_query_param(url, "page", page.next_page_number()) if page.has_next() else None,
            "previous": replace_query_param(url, "page", page.previous_page_number()) if page.has_previous() else None,
            "results": page.object_list,
        }
        return Response(BattlePageSerializer(data).data)


class BattleDetailView(JsonView):
    @extend_schema(
        operation_id="battle_retrieve",
        summary="One battle with the engine's stored report and its full dice log",
        responses={200: BattleDetailSerializer, **SEEN},
    )
    def get(self, request: Request, slug: str, battle_id: int) -> Response:
        if battle_id > MAX_BIGINT:
            raise Http404("No such battle.")
        battle = battle_for_player(user=request.user, campaign=slug, battle_id=battle_id)
        return Response(BattleDetailSerializer(battle).data)


def _bad(field: str, detail: str) -> Response:
    return Response({"field": field, "detail": detail}, status=status.HTTP_400_BAD_REQUEST)


def _whole(value: object, field: str, minimum: int, maximum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SpecError(field, f"must be a whole number, got {value!r}")
    if not minimum <= value <= maximum:
        raise SpecError(field, f"must be from {minimum} to {maximum}, got {value}")
    return value


class SimulatorView(JsonView):
    @extend_schema(
        operation_id="simulator_run",
        summary="Fight a battle spec (CONTRACT.md): the battle report, or with runs the odds",
        description="The body is CONTRACT.md's battle spec plus optional seed, dice (hand-rolled faces to "
        f"replay) and runs (at most {MAX_RUNS:,}; not with dice). At most {MAX_SHIPS_PER_SIDE} ships a side.",
        request=SimulatorRequestSerializer,
        responses={
            200: SIMULATOR_RESULT,
            400: OpenApiResponse(SpecErrorSerializer, description="A bad spec or option, the field named."),
            403: SEEN[403],
        },
    )
    def post(self, request: Request) -> Response:
        try:
            body = request.data
        except ParseError as error:
            return _bad("spec", str(error.detail))
        if not isinstance(body, dict):
            return _bad("spec", f"must be a JSON object, not {type(body).__name__}")
        try:
            seed = None if body.get("seed") is None else _whole(body["seed"], "seed", 0, MAX_BIGINT)
            runs = None if body.get("runs") is None else _whole(body["runs"], "runs", 1, MAX_RUNS)
            faces = self._faces(body.get("dice"))
            if faces is not None and seed is not None:
                raise SpecError("dice", "give either dice or a seed, not both")
            if faces is not None and runs is not None:
                raise SpecError("runs", "cannot be combined with dice (odds need seeded dice)")
            spec = parse_spec({k: v for k, v in body.items() if k not in RUN_KEYS})
            for k, side in enumerate(spec.sides):
                if len(side.ships) > MAX_SHIPS_PER_SIDE:
                    raise SpecError(f"sides[{k}].ships", f"at most {MAX_SHIPS_PER_SIDE} ships a side")
        except SpecError as error:
            return _bad(error.field, error.message)
        if faces is None and seed is None:
            seed = secrets.randbelow(2**31)
        if runs is not None:
            assert seed is not None
            return Response(simulate_odds(spec, runs, seed).to_json())
        dice = ScriptedDice(faces) if faces is not None else SeededDice(seed if seed is not None else 0)
        try:
            report = fight(spec, dice)
        except DiceError as error:
            return _bad("dice", str(error))
        return Response(report.to_json())

    @staticmethod
    def _faces(raw: object) -> list[int] | None:
        if raw is None:
            return None
        if not isinstance(raw, list) or not raw:
            raise SpecError("dice", "must be a non-empty list of die faces, e.g. [3, 5, 10]")
        return [_whole(face, f"dice[{k}]", 1, 10) for k, face in enumerate(raw)]
