"""What every campaign resource of ``/api/v1/`` shares: the ``?nation=`` parameter and how it is read,
the answers every endpoint documents (another nation's data, no such campaign, orders closed), the
conditional-GET headers, and ids bounded to PostgreSQL's integers.
"""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter
from rest_framework import status
from rest_framework.request import Request

from battles.api.base import IF_MODIFIED_SINCE, IF_NONE_MATCH, problem_response
from battles.api.problems import Problem, ProblemEntry
from campaign.api.selectors import NationRequired, api_nation_code
from campaign.orders.errors import RefusalCode

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
CLOSED = {
    409: problem_response(
        "Orders are closed: no open turn, or the campaign ended (turn_closed); or the deadline passed and only "
        "the GM may enter a missing nation's orders now (deadline_passed)."
    )
}
CONDITIONAL = [IF_NONE_MATCH, IF_MODIFIED_SINCE]
#: Ids are PostgreSQL integers: a larger number is no row (not a database error).
MAX_INT = 2**31 - 1
MAX_BIGINT = 2**63 - 1


def orders_closed(message: str = "Orders are closed: there is no open turn.") -> Problem:
    """The 409 of :data:`CLOSED`."""
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


def id_within(value: int, maximum: int) -> int:
    """``value`` from the path, or Http404 when no row can have it (above ``maximum``)."""
    if value > maximum:
        raise Http404("No such item.")
    return value
