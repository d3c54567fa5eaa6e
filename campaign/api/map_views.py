"""The API's map (``/api/v1/campaigns/<slug>/zones/`` and ``ports/``): what a script needs to plan a legal
move or a lay-down, every place given by the key orders take, its display name beside. Who may look is
decided by :func:`campaign.viewer.viewer_for_player`, as for every campaign resource (404 / 403)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from battles.api.base import PAGE_QUERY, ApiView, page_of, paginated
from campaign.api.conventions import NATION, SEEN, api_nation
from campaign.api.map_selectors import ports_for_player, zones_for_player
from campaign.api.map_serializers import PortSerializer, ZoneSerializer


class MapView(ApiView):
    query_parameters = ("nation", "page", "page_size")


class ZoneListView(MapView):
    @extend_schema(
        operation_id="zones_list",
        summary="Sea zones with their neighbours, ports and map coordinates",
        description="Every sea zone in key order. A move's path is a list of these keys, each adjacent to the last.",
        parameters=[NATION, *PAGE_QUERY],
        responses={200: page_of(ZoneSerializer), **SEEN},
    )
    def get(self, request: Request, slug: str) -> Response:
        zones = zones_for_player(user=request.user, slug=slug, nation_code=api_nation(request, slug))
        return paginated(self, request, zones, ZoneSerializer)


class PortListView(MapView):
    @extend_schema(
        operation_id="ports_list",
        summary="Ports with their zone, owner, forts and dockyard, as the nation sees them",
        description=(
            "Every port in key order: owner, sieges and blockades are known to every nation; "
            "garrisons and the ships inside are not given."
        ),
        parameters=[NATION, *PAGE_QUERY],
        responses={200: page_of(PortSerializer), **SEEN},
    )
    def get(self, request: Request, slug: str) -> Response:
        ports = ports_for_player(user=request.user, slug=slug, nation_code=api_nation(request, slug))
        return paginated(self, request, ports, PortSerializer)
