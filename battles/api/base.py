"""What every view of ``/api/v1/`` shares: JSON in and out, query parameters checked, conditional GET.

In ``battles.api`` because it is the lowest layer both API packages may import (see
:mod:`battles.api.problems`).

- A query parameter the view does not take is refused (400, every unknown one named, the allowed
  ones listed), not ignored: ``?turn=3`` misspelt ``?trun=3`` must not quietly return every turn.
- :func:`conditional` gives a read an ``ETag`` (a hash of the body: it changes whenever anything
  the caller would see changes) and, where the view knows one, ``Last-Modified``, and answers 304
  to ``If-None-Match`` / ``If-Modified-Since`` that still hold (RFC 9110 §13.2.2: the ETag wins).
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any, ClassVar

import django_filters
from django.utils.http import http_date, parse_http_date_safe
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.parsers import JSONParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from battles.api.pagination import StrictPageNumberPagination
from battles.api.problems import Problem, ProblemEntry, ProblemSerializer
from battles.api.seeds import ApiJSONRenderer

PAGE_PARAMETERS = ("page", "page_size")


def problem_response(description: str) -> OpenApiResponse:
    """A documented 4xx: always a ``Problem`` (the schema hook sets its media type)."""
    return OpenApiResponse(ProblemSerializer, description=description)


NOT_MODIFIED = OpenApiResponse(description="Not modified: the If-None-Match / If-Modified-Since still holds.")
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="The ETag of the copy you hold: 304 with no body if it is still current.",
)
IF_MODIFIED_SINCE = OpenApiParameter(
    "If-Modified-Since",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="An HTTP date: 304 if nothing changed since (ignored when If-None-Match is sent).",
)


class ApiView(APIView):
    """A JSON view whose query parameters are exactly ``query_parameters`` (plus the paginator's)."""

    parser_classes = [JSONParser]
    renderer_classes = [ApiJSONRenderer]
    #: The query parameters this view reads; anything else is refused.
    query_parameters: ClassVar[tuple[str, ...]] = ()

    def allowed_query_parameters(self) -> tuple[str, ...]:
        return self.query_parameters

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)  # authenticated and permitted first: 401 before 400
        refuse_unknown_parameters(request, self.allowed_query_parameters())


def refuse_unknown_parameters(request: Request, allowed: tuple[str, ...]) -> None:
    unknown = [name for name in request.query_params if name not in allowed]
    if not unknown:
        return
    listing = ", ".join(allowed) if allowed else "none"
    names = ", ".join(repr(n) for n in unknown)
    raise Problem(
        status.HTTP_400_BAD_REQUEST,
        f"Unknown query parameter{'s' if len(unknown) > 1 else ''} {names}; this endpoint takes: {listing}.",
        errors=[
            ProblemEntry(name, "unknown_parameter", f"Unknown query parameter {name!r}; allowed: {listing}.")
            for name in unknown
        ],
    )


def etag_of(data: Any, prefix: str = "") -> str:
    """A strong ETag of a body: the same JSON, the same tag (``prefix``: e.g. the turn it was read in)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return '"' + prefix + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'


def conditional(
    request: Request, data: Any, *, last_modified: datetime | None = None, tag_prefix: str = ""
) -> Response:
    """200 with ``data``, ``ETag`` and ``Last-Modified``; or 304 when the caller's copy is current."""
    tag = etag_of(data, tag_prefix)
    headers = {"ETag": tag, "Cache-Control": "private, no-cache", "Vary": "Authorization, Cookie"}
    stamp = int(last_modified.timestamp()) if last_modified is not None else None
    if stamp is not None:
        headers["Last-Modified"] = http_date(stamp)
    if_none_match = request.headers.get("If-None-Match")
    if if_none_match is not None:
        tags = {t.strip().removeprefix("W/") for t in if_none_match.split(",")}
        fresh = "*" in tags or tag in tags
    else:
        since = parse_http_date_safe(request.headers.get("If-Modified-Since", ""))
        fresh = stamp is not None and since is not None and stamp <= since
    if fresh:
        return Response(status=status.HTTP_304_NOT_MODIFIED, headers=headers)
    return Response(data, headers=headers)


class ApiListView(ApiView, ListAPIView):
    """A paginated list (the one paginator) whose filters are its ``filterset_class``'s: its query
    parameters are those filters', ``page`` and ``page_size``."""

    def allowed_query_parameters(self) -> tuple[str, ...]:
        filterset = getattr(self, "filterset_class", None)
        filters = tuple(filterset.base_filters) if filterset is not None else ()
        return (*self.query_parameters, *filters, *PAGE_PARAMETERS)

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        filterset = getattr(self, "filterset_class", None)
        if filterset is not None:
            refuse_empty_choices(request, filterset.base_filters)


def refuse_empty_choices(request: Request, filters: dict[str, Any]) -> None:
    """A choice or number filter given with no value (``?kind=``, ``?turn=``) is refused like any value not
    among its choices or not a whole number: django-filter would read it as "no filter" and answer with
    every row, which is not what the caller asked for (and the schema's integer is never empty)."""
    empty = [
        (name, f)
        for name, f in filters.items()
        if isinstance(f, django_filters.ChoiceFilter | django_filters.NumberFilter)
        and request.query_params.get(name, None) == ""
    ]
    if not empty:
        return
    entries = []
    for name, f in empty:
        if isinstance(f, django_filters.NumberFilter):
            entries.append(ProblemEntry(name, "invalid", f"{name} is empty; give a whole number, or leave it out."))
            continue
        allowed = ", ".join(str(value) for value, _ in f.extra.get("choices", ()))
        message = f"{name} is empty; give one of {allowed}, or leave it out."
        entries.append(ProblemEntry(name, "invalid_choice", message))
    raise Problem(status.HTTP_400_BAD_REQUEST, " ".join(e.message for e in entries), errors=entries)


def paginated(
    view: APIView, request: Request, rows: list[Any], serializer: type[serializers.Serializer[Any]]
) -> Response:
    """A list that is not a queryset (built by a selector) through the one paginator."""
    paginator = StrictPageNumberPagination()
    page = paginator.paginate_queryset(rows, request, view=view)
    assert page is not None  # a page size is always set
    return paginator.get_paginated_response(serializer(page, many=True).data)


def page_of(serializer: type[serializers.Serializer[Any]]) -> type[serializers.Serializer[Any]]:
    """The documented page of a list: ``count``, ``next``, ``previous``, ``results``."""
    name = serializer.__name__.removesuffix("Serializer")
    attrs = {
        "count": serializers.IntegerField(help_text="Items in the whole list."),
        "next": serializers.URLField(allow_null=True, help_text="The next page, or null."),
        "previous": serializers.URLField(allow_null=True, help_text="The previous page, or null."),
        "results": serializer(many=True),
    }
    return type(f"Paginated{name}ListSerializer", (serializers.Serializer,), attrs)


PAGE_QUERY = [
    OpenApiParameter("page", {"type": "integer", "minimum": 1}, OpenApiParameter.QUERY, required=False),
    OpenApiParameter(
        "page_size",
        {"type": "integer", "minimum": 1, "maximum": 500},
        OpenApiParameter.QUERY,
        required=False,
        description="Items a page (default 50).",
    ),
]
