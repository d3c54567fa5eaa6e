"""The API's one error format: RFC 9457 problem details, for every 4xx of ``/api/``.

Every refusal is ``application/problem+json``::

    {"type": "urn:admiralty:problem:<code>", "title": "...", "status": 400, "detail": "...",
     "errors": [{"index": 2 | null, "field": "[2].path" | null, "code": "path_too_long",
                 "message": "...", "steps": 3, "limit": 2}]}

``errors`` is never empty: one entry per thing wrong (every refused order of a list, every bad query
parameter), each with ``index``, the refused item's place (from 0) in a submitted list (null for a
single order or any other body), the body key or parameter it concerns as a path (``field``, e.g.
``[2].path``; null for the request as a whole), a stable snake_case ``code`` programs can test, a
``message`` people can read, and the refusal's numbers as further members (``cost``, ``available``,
``limit``…). ``type`` names the problem as a whole with the code of its first error.

This module sits in ``battles.api`` because it is the lowest layer both API packages may import
(``campaign.api`` above it; the import contracts forbid the other way); it knows nothing of either.
Views raise :class:`Problem` (or DRF's exceptions, or Django's Http404 / PermissionDenied) and
:func:`problem_exception_handler` (``REST_FRAMEWORK["EXCEPTION_HANDLER"]``) writes the answer, keeping
the headers DRF sets (``WWW-Authenticate`` on 401, ``Retry-After`` on 429, ``Allow`` on 405).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from http import HTTPStatus
from typing import Any

from rest_framework import serializers
from rest_framework.exceptions import APIException, ErrorDetail
from rest_framework.response import Response
from rest_framework.views import exception_handler

PROBLEM_CONTENT_TYPE = "application/problem+json"
TYPE_PREFIX = "urn:admiralty:problem:"

#: DRF's own exception codes, as the ``code`` of the single error they make.
_DRF_CODES = {
    "parse_error": "not_json",
    "not_authenticated": "not_authenticated",
    "authentication_failed": "authentication_failed",
    "permission_denied": "permission_denied",
    "not_found": "not_found",
    "method_not_allowed": "method_not_allowed",
    "not_acceptable": "not_acceptable",
    "unsupported_media_type": "unsupported_media_type",
    "throttled": "throttled",
}


@dataclass(frozen=True)
class ProblemEntry:
    """One thing wrong: the body key or query parameter (None: the request as a whole), a code, a message;
    ``index``: the item's place in a submitted list; ``numbers``: the refusal's numbers by name."""

    field: str | None
    code: str
    message: str
    index: int | None = None
    numbers: Mapping[str, int] = dataclass_field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            **self.numbers,
            "index": self.index,
            "field": self.field,
            "code": self.code,
            "message": self.message,
        }


class Problem(APIException):
    """A refusal with its own errors: ``raise Problem(400, "2 of 3 orders refused…", errors=[...])``."""

    def __init__(
        self,
        status: int,
        detail: str,
        *,
        errors: Sequence[ProblemEntry] | None = None,
        code: str | None = None,
        title: str | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        self.status_code = status
        #: Further top-level members of the problem (RFC 9457 §3.2), e.g. ``open_turn`` of turn_closed.
        self.extra = dict(extra or {})
        self.entries = list(errors) if errors else [ProblemEntry(None, code or "invalid", detail)]
        self.problem_code = code or self.entries[0].code
        self.title = title
        super().__init__(detail=detail, code=self.problem_code)


def problem_body(
    *, status: int, detail: str, errors: Iterable[ProblemEntry], code: str | None = None, title: str | None = None
) -> dict[str, Any]:
    """The JSON of a problem; ``code`` (default: the first error's) names its ``type``."""
    entries = list(errors) or [ProblemEntry(None, code or "invalid", detail)]
    return {
        "type": TYPE_PREFIX + (code or entries[0].code),
        "title": title or HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
        "errors": [e.to_json() for e in entries],
    }


def _flatten(detail: Any, field: str | None) -> list[ProblemEntry]:
    """DRF's nested error details (dicts of lists of ErrorDetail) as entries with dotted/indexed paths."""
    if isinstance(detail, Mapping):
        entries: list[ProblemEntry] = []
        for key, value in detail.items():
            name = None if key == "non_field_errors" else str(key)
            path = name if field is None else (field if name is None else f"{field}.{name}")
            entries.extend(_flatten(value, path))
        return entries
    if isinstance(detail, list):
        entries = []
        for index, value in enumerate(detail):
            nested = isinstance(value, (Mapping, list))
            path = (f"{field or ''}[{index}]") if nested else field
            entries.extend(_flatten(value, path))
        return entries
    code = getattr(detail, "code", None) or "invalid"
    return [ProblemEntry(field, _DRF_CODES.get(str(code), str(code)), str(detail))]


def problem_exception_handler(exc: Exception, context: Mapping[str, Any]) -> Response | None:
    """DRF's handler (Http404 / PermissionDenied converted, headers set), its body made a problem."""
    response = exception_handler(exc, dict(context))
    if response is None:
        return None  # not an API exception: a 500, as Django reports it
    status = response.status_code
    if isinstance(exc, Problem):
        body = problem_body(
            status=status, detail=str(exc.detail), errors=exc.entries, code=exc.problem_code, title=exc.title
        )
        body.update(exc.extra)
    else:
        detail = exc.detail if isinstance(exc, APIException) else response.data
        if isinstance(detail, Mapping) and set(detail) == {"detail"}:
            # Django's Http404 / PermissionDenied, converted by DRF to {"detail": ...}: about the request
            # as a whole (field null), not a body key named "detail".
            detail = detail["detail"]
        entries = _flatten(detail, None)
        summary = _summary(detail, entries)
        body = problem_body(status=status, detail=summary, errors=entries)
    response.data = body
    response.content_type = PROBLEM_CONTENT_TYPE
    return response


def _summary(detail: Any, entries: list[ProblemEntry]) -> str:
    if isinstance(detail, (str, ErrorDetail)):
        return str(detail)
    if len(entries) == 1:
        entry = entries[0]
        return entry.message if entry.field is None else f"{entry.field}: {entry.message}"
    return f"{len(entries)} problems with the request: " + "; ".join(
        e.message if e.field is None else f"{e.field}: {e.message}" for e in entries
    )


# --- the schema ----------------------------------------------------------------------------------------


class ProblemEntrySerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField(
        allow_null=True,
        min_value=0,
        help_text="The refused item's place (from 0) in a submitted list, e.g. the third order of PUT /orders/ "
        "is 2; null for a single order or any other body.",
    )
    field = serializers.CharField(
        allow_null=True,
        help_text="The body key (a path such as 'sides[1].ships[0].class') or query parameter it concerns; "
        "null: the request as a whole.",
    )
    code = serializers.CharField(help_text="Why, as a stable snake_case code (e.g. not_adjacent, unknown_parameter).")
    message = serializers.CharField(help_text="What is wrong, for people.")


class ProblemSerializer(serializers.Serializer[Any]):
    """RFC 9457 problem details: the body of every 4xx answer of the API."""

    type = serializers.CharField(help_text="urn:admiralty:problem:<code>, the code of the first error.")
    title = serializers.CharField(help_text="The kind of problem, e.g. 'Bad Request'.")
    status = serializers.IntegerField(help_text="The HTTP status code.")
    detail = serializers.CharField(help_text="What happened, for people.")
    errors = ProblemEntrySerializer(many=True, help_text="Every thing wrong, at least one.")  # type: ignore[assignment]  # a field, popped into _declared_fields


#: Added to operations that lack them (a schema post-processing hook), each a problem.
_STANDARD = {
    "400": "A bad body or query parameter (an unknown parameter is refused, naming the allowed ones).",
    "401": "No credentials, or a wrong or revoked token (see WWW-Authenticate).",
    "429": "Too many writes: wait the Retry-After header's seconds.",
}
_WRITES = {"post", "put", "patch", "delete"}


def document_problems(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Schema post-processing: every 4xx of every operation is a ``Problem`` in ``application/problem+json``;
    every operation documents 400 (its query parameters are checked), every operation that needs
    credentials 401, every write 429."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    if "Problem" not in schemas:  # an operation always names it; guard the empty schema
        return result
    ref = {"$ref": "#/components/schemas/Problem"}
    # A refusal's numbers (cost, available, limit…) are further integer members of its entry.
    entry = schemas.get("ProblemEntry")
    if entry is not None:
        entry["additionalProperties"] = {"type": "integer"}
    for path in result.get("paths", {}).values():
        for method, operation in path.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            if "requestBody" in operation:  # every body the API takes is needed (none is optional)
                operation["requestBody"]["required"] = True
            responses = operation["responses"]
            wanted = ["400"]
            if {} not in operation.get("security", [{}]):
                wanted.append("401")
            if method in _WRITES:
                wanted.append("429")
            for status in wanted:
                responses.setdefault(status, {"description": _STANDARD[status]})
            for status, response in responses.items():
                if str(status).startswith("4"):
                    response["content"] = {PROBLEM_CONTENT_TYPE: {"schema": ref}}
    return result
