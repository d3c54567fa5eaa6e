"""Every API write about a turn names the turn (issue 26): a body's ``"turn": N``, or ``If-Match`` with an
ETag read in that turn — the order list's (``"t5-list-<version>"``, which also names the list as read)
or the nation view's (``"t5-<hash>"``). A write for a turn no longer open is refused 409 ``turn_closed``
with ``open_turn``; a write with the list's ETag after the list changed is refused 412 ``list_changed``.
Both checks are made by the order services under the turn's lock, so two clients racing with one ETag
cannot both write.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from drf_spectacular.utils import OpenApiParameter
from rest_framework import status
from rest_framework.request import Request

from battles.api.base import problem_response
from battles.api.problems import Problem, ProblemEntry
from campaign.orders.deadline import DeadlinePassed
from campaign.orders.errors import ListChanged, TurnClosed

IF_MATCH = OpenApiParameter(
    "If-Match",
    {"type": "string", "pattern": '^(\\*|(W/)?"t[0-9]{1,9}-(list-)?[0-9a-f]{1,64}")$'},
    OpenApiParameter.HEADER,
    required=False,
    description="An ETag you read in this turn: the order list's (GET /orders/: it also names the list, so a "
    "write after the list changed is refused 412) or the nation view's. A tag from a turn that is no longer "
    "open: 409 turn_closed, nothing stored.",
)
PRECONDITION = {412: problem_response("If-Match: the order list changed since it was read (list_changed).")}

_TAG = re.compile(r'^(?:W/)?"t(\d{1,9})-(?:list-([0-9a-f]{1,64})|[0-9a-f]{1,64})"$')


def list_etag(turn: int, version: str) -> str:
    """The order list's ETag: the turn and the list's version (:func:`order_list_version`)."""
    return f'"t{turn}-list-{version}"'


def turn_tag_prefix(turn: int | None) -> str:
    """The nation view's ETag starts with its turn, so an If-Match with it names the turn."""
    return f"t{turn}-" if turn is not None else ""


@dataclass(frozen=True)
class Named:
    """What a write names: the turn (None: none) and the list version it read (None: none)."""

    turn: int | None = None
    version: str | None = None


def _if_match(request: Request) -> Named:
    header = request.headers.get("If-Match")
    if header is None or header.strip() == "*":
        return Named()
    tags = [t.strip() for t in header.split(",") if t.strip()]
    match = _TAG.match(tags[0]) if len(tags) == 1 else None
    if match is None:
        message = (
            "If-Match must be one ETag read in this turn: the order list's (GET /orders/) or the nation view's "
            f"(GET /campaigns/<slug>/), not {header!r}."
        )
        raise Problem(status.HTTP_400_BAD_REQUEST, message, errors=[ProblemEntry("If-Match", "invalid", message)])
    return Named(int(match.group(1)), match.group(2))


def _body_turn(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value < 10**9:
        return value
    message = f'"turn" must be the number of the turn the write is for (a whole number from 1), not {value!r}.'
    raise Problem(status.HTTP_400_BAD_REQUEST, message, errors=[ProblemEntry("turn", "wrong_type", message)])


def named_of(request: Request, body_turns: list[Any]) -> Named:
    """The turn and list version a write names: its body's ``"turn"`` (each given one, all the same)
    and its If-Match. A body and an If-Match naming different turns is refused (400)."""
    tag = _if_match(request)
    turns = {_body_turn(t) for t in body_turns}
    body = next(iter(turns), None)
    message = None
    if len(turns) > 1:
        message = f"The bodies name different turns ({', '.join(str(t) for t in sorted(turns))}); name one."
    elif body is not None and tag.turn is not None and body != tag.turn:
        message = f'"turn" names turn {body} but If-Match an ETag of turn {tag.turn}; name one turn.'
    if message is not None:
        raise Problem(status.HTTP_400_BAD_REQUEST, message, errors=[ProblemEntry("turn", "turns_differ", message)])
    return Named(body if body is not None else tag.turn, tag.version)


def without_turn(body: Any) -> tuple[Any, list[Any]]:
    """An order (or ready) body without its ``"turn"``, which names the write's turn and is not stored;
    and the turn given, if any."""
    if isinstance(body, dict) and "turn" in body:
        rest = {k: v for k, v in body.items() if k != "turn"}
        return rest, [body["turn"]]
    return body, []


def without_late_reason(body: Any) -> tuple[Any, str]:
    """An order body without its ``"late_reason"`` (the GM's reason for entering it after the deadline,
    stored as the order's late mark, not in its body), and that reason ("" if none)."""
    if isinstance(body, dict) and "late_reason" in body:
        reason = body["late_reason"]
        if not isinstance(reason, str):
            message = f'"late_reason" must be text saying why the orders are entered late, not {reason!r}.'
            raise Problem(
                status.HTTP_400_BAD_REQUEST, message, errors=[ProblemEntry("late_reason", "wrong_type", message)]
            )
        return {k: v for k, v in body.items() if k != "late_reason"}, reason
    return body, ""


def deadline_passed_problem(refused: DeadlinePassed) -> Problem:
    """409 ``deadline_passed``: after the deadline only a GM enters a missing nation's orders."""
    return Problem(
        status.HTTP_409_CONFLICT,
        refused.message,
        errors=[ProblemEntry(None, "deadline_passed", refused.message)],
        code="deadline_passed",
        title="Deadline passed",
    )


def turn_closed_problem(refused: TurnClosed) -> Problem:
    """409 ``turn_closed`` naming the turn asked for and the open turn (null while none is open)."""
    return Problem(
        status.HTTP_409_CONFLICT,
        refused.message,
        errors=[ProblemEntry("turn", "turn_closed", refused.message)],
        code="turn_closed",
        title="Turn closed",
        extra={"turn": refused.asked, "open_turn": refused.open_turn},
    )


def list_changed_problem(refused: ListChanged) -> Problem:
    return Problem(
        status.HTTP_412_PRECONDITION_FAILED,
        refused.message,
        errors=[ProblemEntry("If-Match", "list_changed", refused.message)],
        code="list_changed",
    )
