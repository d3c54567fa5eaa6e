"""What a bot needs to play from the API alone, beside the nation view and the orders: the nations and
how they stand to the caller's (``nations/``), the rules as numbers (``rules/``), a fleet's legal moves
(``fleets/<id>/moves/``) and the list of turns (``turns/``). Checking orders without storing them is
:class:`campaign.api.order_views.OrderValidateView`, beside the orders it shares its check with.

Thin views over :mod:`campaign.api.play_selectors`, which apply the web's permissions and fog of war.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from battles.api.base import PAGE_QUERY, ApiView, page_of, paginated, problem_response
from campaign.api.conventions import CLOSED, MAX_BIGINT, NATION, SEEN, api_nation, id_within, orders_closed
from campaign.api.play_selectors import legal_paths, nations_for_player, rules_for_api, turns_for_player
from campaign.api.play_serializers import (
    FleetMovesSerializer,
    NationSerializer,
    RulesSerializer,
    TurnSummarySerializer,
)
from campaign.orders.choices import order_desk_for_player
from campaign.pages.map.moves import map_move_for_player


class NationListView(ApiView):
    query_parameters = ("nation", "page", "page_size")

    @extend_schema(
        operation_id="nations_list",
        summary="Every nation: its player, how it stands to the caller's nation, offers between them, ready "
        "(paginated, by code)",
        description="relation is war, peace or alliance to the caller's nation (self for it): attack only "
        "nations at war. offers are the pending offers of peace or alliance between each nation and the "
        "caller's (no one else's). ready is null where the campaign hides readiness from players.",
        parameters=[NATION, *PAGE_QUERY],
        responses={200: page_of(NationSerializer), **SEEN},
    )
    def get(self, request: Request, slug: str) -> Response:
        rows = nations_for_player(user=request.user, slug=slug, nation_code=api_nation(request, slug))
        return paginated(self, request, rows, NationSerializer)


class RulesView(ApiView):
    query_parameters = ("nation",)

    @extend_schema(
        operation_id="rules_retrieve",
        summary="The campaign's rules as numbers (the same values as its rules page)",
        description="Ship classes with cost, build turns and repair costs; raise costs; movement limits and "
        "port occupancy; the quota table and this year's column; every setting by key, house options included.",
        parameters=[NATION],
        responses={200: RulesSerializer, **SEEN},
    )
    def get(self, request: Request, slug: str) -> Response:
        data = rules_for_api(user=request.user, slug=slug, nation_code=api_nation(request, slug))
        return Response(RulesSerializer(data).data)


class FleetMovesView(ApiView):
    query_parameters = ("nation",)

    @extend_schema(
        operation_id="fleet_moves_list",
        summary="An own fleet's legal move paths this turn (as the map offers them)",
        description="Each path is a move order's path exactly as it is accepted now. Only the nation's own "
        "fleets afloat: any other id is a 404.",
        parameters=[NATION],
        responses={200: FleetMovesSerializer, **SEEN, **CLOSED},
    )
    def get(self, request: Request, slug: str, fleet_id: int) -> Response:
        nation = api_nation(request, slug)
        desk = order_desk_for_player(user=request.user, slug=slug, nation_code=nation)
        if not desk.open or desk.turn is None:
            raise orders_closed()
        move = map_move_for_player(
            user=request.user, slug=slug, nation_code=nation, fleet_id=id_within(fleet_id, MAX_BIGINT)
        )
        if move is None:
            # The same answer for another nation's fleet, a sunk one and a made-up id (fog of war).
            raise NotFound("No such fleet of the nation afloat: moves are given only for its own fleets.")
        data = {"fleet": move.fleet_id, "name": move.fleet_name, "turn": desk.turn.number, "paths": legal_paths(move)}
        return Response(FleetMovesSerializer(data).data)


class TurnListView(ApiView):
    query_parameters = ("nation", "page", "page_size")

    @extend_schema(
        operation_id="turns_list",
        summary="The campaign's turns, newest first (paginated)",
        description="A resolved turn's report is GET turns/<number>/.",
        parameters=[NATION, *PAGE_QUERY],
        responses={200: page_of(TurnSummarySerializer), **SEEN, 404: problem_response("No such campaign or page.")},
    )
    def get(self, request: Request, slug: str) -> Response:
        rows = turns_for_player(user=request.user, slug=slug, nation_code=api_nation(request, slug))
        return paginated(self, request, rows, TurnSummarySerializer)
