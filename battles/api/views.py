"""Battle reports and the battle simulator of ``/api/v1/`` (README "API").

Thin views: which battles a player may see is :mod:`battles.web_selectors`' business (a battle the
caller may not see is a 404, exactly like the report page); the simulator parses CONTRACT.md's
battle spec with :func:`~battles.engine.parse_spec` and fights it with the engine, as
``simulate_battle`` does.
"""

from __future__ import annotations

import secrets

import django_filters
from django import forms
from django.db.models import QuerySet
from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import ParseError
from rest_framework.request import Request
from rest_framework.response import Response

from battles.api.base import ApiListView, ApiView, problem_response
from battles.api.problems import Problem, ProblemEntry
from battles.api.seeds import seed_of
from battles.api.serializers import (
    SIMULATOR_RESULT,
    BattleDetailSerializer,
    BattleSummarySerializer,
    SimulatorRequestSerializer,
)
from battles.engine import DiceError, ScriptedDice, SeededDice, SpecError, fight, parse_spec, simulate_odds
from battles.models import Battle
from battles.simulator import MAX_RUNS, MAX_SHIPS_PER_SIDE, check_spec_bounds
from battles.web_selectors import battle_for_player, visible_battles_for_player

SEEN = {
    403: problem_response("Not allowed."),
    404: problem_response("No such campaign (or not one of the caller's), battle or page."),
}
MAX_BIGINT = 2**63 - 1
#: Hand-rolled faces a replay may give: checked before a face is read (a long battle throws a few hundred).
MAX_DICE = 10_000
#: The simulator's own keys beside CONTRACT.md's spec.
RUN_KEYS = ("seed", "dice", "runs")


class _WholeNumberField(forms.IntegerField):
    """Digits only: Django's IntegerField reads "0.0" as 0, where the schema says integer and a client
    sending a fraction should be told, not answered as if it had sent a whole number."""

    def to_python(self, value: object) -> int | None:
        if isinstance(value, str) and value.strip() and not value.strip().lstrip("+-").isdigit():
            raise forms.ValidationError("Enter a whole number.", code="invalid")
        return super().to_python(value)


class TurnFilter(django_filters.NumberFilter):
    """A turn number: a whole number (as the schema says), never a fraction read as one."""

    field_class = _WholeNumberField


class BattleFilter(django_filters.FilterSet):
    turn = TurnFilter(field_name="turn__number", help_text="The turn's number.")
    kind = django_filters.ChoiceFilter(choices=Battle.Kind.choices)
    zone = django_filters.CharFilter(field_name="sea_zone__key", help_text="Sea-zone key.")
    port = django_filters.CharFilter(field_name="port__key", help_text="Port key.")

    class Meta:
        model = Battle
        fields = ["turn", "kind", "zone", "port"]


class BattleListView(ApiListView):
    serializer_class = BattleSummarySerializer
    filterset_class = BattleFilter
    queryset = Battle.objects.none()  # the real rows come from visible_battles_for_player

    def get_queryset(self) -> QuerySet[Battle]:
        if getattr(self, "swagger_fake_view", False):  # the schema generator
            return Battle.objects.none()
        return visible_battles_for_player(user=self.request.user, campaign=self.kwargs["slug"])

    @extend_schema(
        operation_id="battles_list",
        summary="The campaign's battles the caller may see, newest turn first (paginated; by turn, kind, zone, port)",
        responses={200: BattleSummarySerializer(many=True), **SEEN},
    )
    def get(self, request: Request, *args: object, **kwargs: object) -> Response:
        return super().get(request, *args, **kwargs)


class BattleDetailView(ApiView):
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


def _bad(field: str, detail: str) -> Problem:
    return Problem(400, f"{field}: {detail}", errors=[ProblemEntry(field, "invalid_spec", detail)])


def _whole(value: object, field: str, minimum: int, maximum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SpecError(field, f"must be a whole number, got {value!r}")
    if not minimum <= value <= maximum:
        raise SpecError(field, f"must be from {minimum} to {maximum}, got {value}")
    return value


class SimulatorView(ApiView):
    throttle_scope = "simulator"

    @extend_schema(
        operation_id="simulator_run",
        summary="Fight a battle spec: the battle report, or with runs the odds",
        description="The body is a battle spec (the README's) plus optional seed, dice (hand-rolled faces to "
        f"replay) and runs (at most {MAX_RUNS:,}; not with dice). At most {MAX_SHIPS_PER_SIDE} ships a side.",
        request=SimulatorRequestSerializer,
        responses={
            200: SIMULATOR_RESULT,
            400: problem_response("A bad spec or option, the field named (code invalid_spec)."),
            403: SEEN[403],
        },
    )
    def post(self, request: Request) -> Response:
        try:
            body = request.data
        except ParseError as error:
            raise _bad("spec", str(error.detail)) from None
        if not isinstance(body, dict):
            raise _bad("spec", f"must be a JSON object, not {type(body).__name__}")
        try:
            given = seed_of(body.get("seed"))
            seed = None if given is None else _whole(given, "seed", 0, MAX_BIGINT)
            runs = None if body.get("runs") is None else _whole(body["runs"], "runs", 1, MAX_RUNS)
            faces = self._faces(body.get("dice"))
            if faces is not None and seed is not None:
                raise SpecError("dice", "give either dice or a seed, not both")
            if faces is not None and runs is not None:
                raise SpecError("runs", "cannot be combined with dice (odds need seeded dice)")
            check_spec_bounds(body)  # counts first: nothing is built for a body out of bounds
            spec = parse_spec({k: v for k, v in body.items() if k not in RUN_KEYS})
        except SpecError as error:
            raise _bad(error.field, error.message) from None
        if faces is None and seed is None:
            seed = secrets.randbelow(2**31)
        if runs is not None:
            assert seed is not None
            return Response(simulate_odds(spec, runs, seed).to_json())
        dice = ScriptedDice(faces) if faces is not None else SeededDice(seed if seed is not None else 0)
        try:
            report = fight(spec, dice)
        except DiceError as error:
            raise _bad("dice", str(error)) from None
        return Response(report.to_json())

    @staticmethod
    def _faces(raw: object) -> list[int] | None:
        if raw is None:
            return None
        if not isinstance(raw, list) or not raw:
            raise SpecError("dice", "must be a non-empty list of die faces, e.g. [3, 5, 10]")
        if len(raw) > MAX_DICE:
            raise SpecError("dice", f"at most {MAX_DICE:,} faces, got {len(raw):,}")
        return [_whole(face, f"dice[{k}]", 1, 10) for k, face in enumerate(raw)]
