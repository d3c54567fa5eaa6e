"""Battles on the table in ``/api/v1/`` (issue 15): a battle's state and the result entry, the same
services as the players' pages (:mod:`campaign.tabletop.services`); a storming's result has its own endpoint.
A refused result is a 400 naming the field and the reason, nothing changed; a battle not waiting at
the table is a 409."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ParseError
from rest_framework.request import Request
from rest_framework.response import Response

from battles.api.base import PAGE_QUERY, ApiView, page_of, paginated, problem_response
from battles.api.problems import Problem, ProblemEntry
from battles.models import TabletopBattle
from campaign.api.conventions import MAX_INT, NATION, SEEN, id_within
from campaign.api.idempotency import IDEMPOTENCY_KEY, IdempotentApiView
from campaign.tabletop.pages import TableDetail, table_for_player, tables_for_player
from campaign.tabletop.services import (
    TableResultRefused,
    table_result_approve,
    table_result_confirm,
    table_result_enter,
)


class TableShipSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(help_text="The ship's id: use it in the result's ships[].ship.")
    name = serializers.CharField()
    side = serializers.IntegerField(help_text="0 or 1.")
    detail = serializers.CharField(help_text="Class, nation and condition as it came to the battle.")
    captors = serializers.ListField(child=serializers.CharField(), help_text="Nation codes that may capture it.")


class TableResultEntrySerializer(serializers.Serializer[Any]):
    ship = serializers.IntegerField(help_text="A ship of the battle (its id).")
    fate = serializers.ChoiceField(choices=["intact", "damaged", "disabled", "sunk", "captured"])
    captured_by = serializers.CharField(required=False, allow_null=True, help_text="Captor's nation code (captured).")
    taken_in = serializers.CharField(
        required=False, allow_null=True, help_text="A prize's condition: ready, damaged or disabled (null: as it was)."
    )


class TableResultSerializer(serializers.Serializer[Any]):
    ships = TableResultEntrySerializer(many=True, help_text="One entry for every ship in the battle.")
    admirals_lost = serializers.ListField(child=serializers.IntegerField(), required=False, help_text="Admiral ids.")
    held_field = serializers.IntegerField(
        allow_null=True, help_text="The side (0, 1) that held the field; null: neither."
    )


class TableSummarySerializer(serializers.Serializer[Any]):
    """A battle on the table as listed: read its state and enter its result by its id."""

    id = serializers.IntegerField(source="table.pk", help_text="The id table_battle_retrieve takes.")
    turn = serializers.IntegerField()
    place = serializers.CharField(source="table.place", help_text="The sea-zone or port key it was sent from.")
    place_name = serializers.CharField(source="place")
    status = serializers.CharField(source="table.status", help_text="requested, declined, marked, waiting, …")
    status_label = serializers.CharField(source="status")
    kind = serializers.CharField(
        source="table.kind", help_text="battle (a fight at sea or at a port) or storming (a besieged port's siege)."
    )


class StormingResultSerializer(serializers.Serializer[Any]):
    garrison_lost = serializers.IntegerField(min_value=0, help_text="The garrison's land units lost.")
    besiegers_lost = serializers.DictField(
        child=serializers.IntegerField(min_value=0),
        required=False,
        help_text='Each besieging nation\'s land units lost, by nation code, e.g. {"FR": 1} (siege trains last).',
    )
    port_taken = serializers.BooleanField(help_text="Whether the port was taken (only with no garrison unit left).")


class StormingBesiegersSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="The nation's code: the key of besiegers_lost.")
    name = serializers.CharField()
    units = serializers.IntegerField(help_text="Its land units before the port.")


class StormingStateSerializer(serializers.Serializer[Any]):
    garrison = serializers.IntegerField(help_text="The garrison's land units.")
    besiegers = StormingBesiegersSerializer(many=True)


class TableStateSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    kind = serializers.CharField(help_text="battle, or storming (a besieged port's siege fought on the table).")
    turn = serializers.IntegerField()
    place = serializers.CharField(help_text="Where the battle is fought, by name.")
    status = serializers.CharField(help_text="requested, declined, marked, waiting, entered, disputed, confirmed, …")
    status_label = serializers.CharField()
    deadline = serializers.DateTimeField(allow_null=True, help_text="When the result is due (else the dice fight it).")
    sides = serializers.ListField(child=serializers.CharField(), help_text="Each side's nations by name.")
    my_side = serializers.IntegerField(allow_null=True, help_text="The caller's side, if they play one.")
    ships = TableShipSerializer(many=True)
    admirals = serializers.ListField(child=serializers.DictField(), help_text="{id, label} of each admiral there.")
    result = serializers.DictField(help_text="The result entered so far ({} for none).")
    confirmed = serializers.ListField(child=serializers.IntegerField(), help_text="Sides that confirmed it.")
    dispute = serializers.CharField(allow_blank=True)
    storming = StormingStateSerializer(allow_null=True, help_text="A storming's forces (null for a battle).")


REFUSED = {
    400: problem_response(
        "The result cannot be; nothing was changed: errors name the part of the body (e.g. ships[2].captured_by) "
        "and the code (unknown_ship, captor_not_there, impossible, missing…)."
    )
}
NOT_WAITING = {409: problem_response("The battle is not waiting for this step.")}


def _state(d: TableDetail) -> dict[str, Any]:
    t = d.table
    storming = None
    if d.storming is not None:
        storming = {
            "garrison": d.storming.garrison,
            "besiegers": [{"code": b.code, "name": b.name, "units": b.units} for b in d.storming.besiegers],
        }
    return {
        "id": t.pk,
        "kind": t.kind,
        "turn": t.turn.number,
        "place": d.place,
        "status": t.status,
        "status_label": t.get_status_display(),
        "deadline": d.deadline,
        "sides": d.side_labels,
        "my_side": d.my_side,
        "ships": [
            {"id": s.id, "name": s.name, "side": s.side, "detail": s.detail, "captors": [c for c, _ in s.captors]}
            for s in d.ships
        ],
        "admirals": [{"id": pk, "label": label} for pk, label, _ in d.admirals],
        "result": t.result or {},
        "confirmed": list(t.confirmed or []),
        "dispute": t.dispute,
        "storming": storming,
    }


def _refusal(refused: TableResultRefused) -> Problem:
    message = str(refused)
    if refused.code in ("not_now", "not_waiting", "already"):
        return Problem(status.HTTP_409_CONFLICT, message, code=refused.code, title="Not waiting for this step")
    return Problem(status.HTTP_400_BAD_REQUEST, message, errors=[ProblemEntry(refused.field, refused.code, message)])


def _detail(request: Request, slug: str, table_id: int) -> TableDetail:
    return table_for_player(
        user=request.user,
        slug=slug,
        table_id=id_within(table_id, MAX_INT),
        nation_code=request.query_params.get("nation") or None,
    )


class TableListView(ApiView):
    query_parameters = ("nation", "page", "page_size")

    @extend_schema(
        operation_id="table_battles_list",
        summary="The battles on the table the caller may see, newest turn first",
        description=(
            "Those of the caller's nation (asked for by it, or with its ships in them); every one for the GM. "
            "Each id is what table_battle_retrieve and the result operations take."
        ),
        parameters=[NATION, *PAGE_QUERY],
        responses={200: page_of(TableSummarySerializer), **SEEN},
    )
    def get(self, request: Request, slug: str) -> Response:
        page = tables_for_player(user=request.user, slug=slug, nation_code=request.query_params.get("nation") or None)
        return paginated(self, request, page.rows, TableSummarySerializer)


class TableBattleView(ApiView):
    query_parameters = ("nation",)

    @extend_schema(
        operation_id="table_battle_retrieve",
        summary="A battle on the table: its state, ships and the result entered so far",
        parameters=[NATION],
        responses={200: TableStateSerializer, **SEEN},
    )
    def get(self, request: Request, slug: str, table_id: int) -> Response:
        return Response(TableStateSerializer(_state(_detail(request, slug, table_id))).data)


class TableResultView(IdempotentApiView):
    query_parameters = ("nation",)

    @extend_schema(
        operation_id="table_result_enter",
        summary="Enter the result of a battle fought on the table",
        description="A side's player enters it (the other side confirms); the GM's entry is confirmed for both.",
        parameters=[NATION, IDEMPOTENCY_KEY],
        request=TableResultSerializer,
        responses={200: TableStateSerializer, **REFUSED, **SEEN, **NOT_WAITING},
    )
    def post(self, request: Request, slug: str, table_id: int) -> Response:
        return _result_enter(request, slug, table_id, shape="ships, admirals_lost, held_field")


class TableStormingResultView(IdempotentApiView):
    query_parameters = ("nation",)

    @extend_schema(
        operation_id="table_storming_result_enter",
        summary="Enter the result of a besieged port's storming fought on the table",
        description="A side's player enters it (the other side confirms); the GM's entry is confirmed for both. "
        "Side 0 is the besiegers, side 1 the garrison.",
        parameters=[NATION, IDEMPOTENCY_KEY],
        request=StormingResultSerializer,
        responses={200: TableStateSerializer, **REFUSED, **SEEN, **NOT_WAITING},
    )
    def post(self, request: Request, slug: str, table_id: int) -> Response:
        return _result_enter(request, slug, table_id, shape="garrison_lost, besiegers_lost, port_taken", storming=True)


def _result_enter(request: Request, slug: str, table_id: int, *, shape: str, storming: bool = False) -> Response:
    """A side's player (or the GM) enters the result; ``shape`` names the body's keys for the refusal.
    The storming's operation takes only a storming (a battle's ships' fates go to result/)."""
    d = _detail(request, slug, table_id)
    if not (d.viewer.is_gm or d.my_side is not None):
        raise PermissionDenied("Only the game master or a player of a side can enter the result.")
    if storming and not d.table.is_storming:
        raise _refusal(
            TableResultRefused(
                "This is a battle, not a storming: enter its ships' fates at result/.", field="result", code="kind"
            )
        )
    try:
        body = request.data
    except ParseError as bad:
        raise _refusal(TableResultRefused(str(bad.detail), field="result", code="not_json")) from None
    if not isinstance(body, dict):
        raise _refusal(TableResultRefused(f"The body is an object: {shape}.", field="result"))
    side = None if d.viewer.is_gm else d.my_side
    try:
        table_result_enter(table=d.table, body=body, side=side, by=request.user.get_username(), actor=request.user)
    except TableResultRefused as refused:
        raise _refusal(refused) from None
    return Response(TableStateSerializer(_state(_detail(request, slug, table_id))).data)


class TableConfirmView(IdempotentApiView):
    query_parameters = ("nation",)

    @extend_schema(
        operation_id="table_result_confirm",
        summary="Confirm the result the other side entered",
        parameters=[NATION, IDEMPOTENCY_KEY],
        request=None,
        responses={200: TableStateSerializer, **SEEN, **NOT_WAITING},
    )
    def post(self, request: Request, slug: str, table_id: int) -> Response:
        d = _detail(request, slug, table_id)
        if d.my_side is None:
            raise PermissionDenied("Only a player of a side can confirm its result.")
        try:
            table_result_confirm(table=d.table, side=d.my_side, actor=request.user)
        except TableResultRefused as refused:
            raise _refusal(refused) from None
        return Response(TableStateSerializer(_state(_detail(request, slug, table_id))).data)


class TableApproveView(IdempotentApiView):
    query_parameters = ("nation",)

    @extend_schema(
        operation_id="table_result_approve",
        summary="Approve a confirmed result: it is applied and the turn resolves on (GM)",
        parameters=[NATION, IDEMPOTENCY_KEY],
        request=None,
        responses={200: TableStateSerializer, **REFUSED, **SEEN, **NOT_WAITING},
    )
    def post(self, request: Request, slug: str, table_id: int) -> Response:
        d = _detail(request, slug, table_id)
        if not d.viewer.is_gm:
            raise PermissionDenied("Only the game master approves a result.")
        try:
            table_result_approve(table=TabletopBattle.objects.get(pk=d.table.pk), actor=request.user)
        except TableResultRefused as refused:
            raise _refusal(refused) from None
        return Response(TableStateSerializer(_state(_detail(request, slug, table_id))).data)
