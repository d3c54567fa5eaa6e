"""Guards that hold for every request and response: JSON bodies checked, a Content-Security-Policy.

Some API views name DRF's plain ``JSONParser`` themselves, so the strict default parser alone
would not reach them: this middleware checks every JSON body once, before any view, with the
same rules (config.parsers).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.multipartparser import MultiPartParserError
from kombu.exceptions import OperationalError
from redis.exceptions import RedisError

from battles.api.problems import PROBLEM_CONTENT_TYPE, ProblemEntry, problem_body
from campaign.plumbing.json_text import find_forbidden_string, json_depth
from config.parsers import MAX_JSON_DEPTH

logger = logging.getLogger(__name__)

_BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def _is_json(request: HttpRequest) -> bool:
    content_type = request.content_type or ""
    return content_type == "application/json" or content_type.endswith("+json")


class JSONBodyGuardMiddleware:
    """400 for a JSON body that is too large, too deep, or holds NUL / lone surrogates.

    A body that is simply not JSON is left to the view, whose parser refuses it in the
    endpoint's own format; only what would become a 500 is stopped here.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view_func: Callable[..., Any], view_args: Any, view_kwargs: Any
    ) -> HttpResponse | None:
        """Checked once the view is known: a view whose own validator refuses NUL and unpaired
        surrogates field by field (``refuses_bad_text_by_field``, the order endpoints) gives that
        better answer itself; size and depth are checked for every view."""
        if request.method not in _BODY_METHODS or not _is_json(request):
            return None
        by_field = bool(getattr(getattr(view_func, "cls", view_func), "refuses_bad_text_by_field", False))
        refusal = self._refusal(request, check_text=not by_field)
        if refusal is None:
            return None
        field, code, problem = refusal
        detail = f"JSON parse error - {problem}."
        # The API's one error format (battles.api.problems), so each endpoint's documented 400 holds.
        body = problem_body(status=400, detail=detail, errors=[ProblemEntry(field, code, detail)])
        return JsonResponse(body, status=400, content_type=PROBLEM_CONTENT_TYPE)

    @staticmethod
    def _refusal(request: HttpRequest, *, check_text: bool = True) -> tuple[str, str, str] | None:
        """(field, code, problem) for a body to refuse: the field as a path in the body, ``(body)`` for
        all of it; the code as the orders' refusal codes name it (``bad_text``, ``too_large``, ``too_deep``)."""
        try:
            body = request.body  # Django bounds it by DATA_UPLOAD_MAX_MEMORY_SIZE
        except RequestDataTooBig:
            return "(body)", "too_large", "the body is too large"
        if not body:
            return None
        try:
            text = body.decode(request.encoding or "utf-8")
        except (UnicodeDecodeError, LookupError):
            return None  # the view's parser refuses it in the endpoint's own words
        if json_depth(text) > MAX_JSON_DEPTH:
            return "(body)", "too_deep", f"the document is nested deeper than {MAX_JSON_DEPTH} levels"
        try:
            data = json.loads(text)
        except ValueError:
            return None  # not JSON: likewise the view's to refuse
        found = find_forbidden_string(data) if check_text else None
        if found is None:
            return None
        path, what = found
        field = path.removeprefix("$.").removeprefix("$") or "(body)"
        return field, "bad_text", f"the string at {path} contains {what}"


class ContentSecurityPolicyMiddleware:
    """The ``Content-Security-Policy`` header (settings.CONTENT_SECURITY_POLICY) on every response.

    Scripts only from the site's own files: no page holds an inline script (a test keeps it so) and
    htmx runs without eval. Style attributes stay allowed for the nations' colours the pages set
    per element; ``<style>`` elements do not.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        return response


_NUL_IN_URL = "%00"
_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


class NulByteGuardMiddleware:
    """400 for a NUL byte in the path, the query string, a header or a form body (issue 27).

    PostgreSQL refuses NUL in text: a NUL that reached a query (a calendar feed's token, an admin
    filter, a choice field) was a 500. No legitimate client sends one, so it is refused here, before
    any view, with a message saying what was wrong. A form body is read only when it is urlencoded
    (bounded by DATA_UPLOAD_MAX_MEMORY_SIZE), as CSRF's check would read it; JSON bodies are JSONBodyGuardMiddleware's.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # The API's views refuse a NUL in their own query parameters, each in its documented shape (the
        # schema fuzz sends them); the guard keeps the address, headers and forms for the API.
        where = self._where(request, query=not request.path.startswith("/api/"))
        if where is not None and request.path.startswith("/api/"):
            # The API's one error format (battles.api.problems), so each endpoint's documented 400 holds.
            detail = f"The {where} contains a NUL character (\\x00), which is never allowed."
            body = problem_body(status=400, detail=detail, errors=[ProblemEntry(f"({where})", "bad_text", detail)])
            return JsonResponse(body, status=400, content_type=PROBLEM_CONTENT_TYPE)
        if where is not None:
            return HttpResponse(
                f"Bad request: the {where} contains a NUL character (\\x00), which is never allowed.",
                status=400,
                content_type="text/plain; charset=utf-8",
            )
        return self.get_response(request)

    @staticmethod
    def _where(request: HttpRequest, *, query: bool = True) -> str | None:
        if "\x00" in request.path or "\x00" in request.path_info:
            return "address"
        if query and (
            _NUL_IN_URL in str(request.META.get("QUERY_STRING", "")).lower()
            or any("\x00" in key or any("\x00" in value for value in request.GET.getlist(key)) for key in request.GET)
        ):
            return "query string"
        if any("\x00" in str(value) for key, value in request.META.items() if key.startswith("HTTP_")):
            return "request's headers"
        content_type = str(request.META.get("CONTENT_TYPE", ""))
        if request.method == "POST" and content_type.startswith(_FORM_TYPES):
            try:
                fields = request.POST
            except (RequestDataTooBig, TooManyFieldsSent, MultiPartParserError):
                return None  # Django's own 400 follows when the view reads the form
            if any("\x00" in key or any("\x00" in value for value in fields.getlist(key)) for key in fields):
                return "form"
        return None


class ServiceUnavailableMiddleware:
    """503 with a message, never a 500, when a request meets Redis down (the broker or the cache).

    The known paths already cope (campaign.plumbing.queueing: work left to its sweep or refused up front; rate
    limits fail open); this is the net under any other. It cannot say that nothing changed — the
    error may come after a commit — so it says what is down and to try again; every write the site
    makes in a request is one transaction, so a retry finds either the whole change or none of it.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, (OperationalError, RedisError)):
            return None
        logger.warning("%s %s answered 503: %s", request.method, request.path, type(exception).__name__)
        detail = (
            "A service the site needs (its task queue and cache, Redis) cannot be reached just now. "
            "Try again in a few minutes; /healthz says which part is down."
        )
        if request.path.startswith("/api/"):
            body = problem_body(status=503, detail=detail, errors=[ProblemEntry(None, "service_unavailable", detail)])
            response: HttpResponse = JsonResponse(body, status=503, content_type=PROBLEM_CONTENT_TYPE)
        else:
            response = HttpResponse(
                f"Service unavailable: {detail}", status=503, content_type="text/plain; charset=utf-8"
            )
        response["Retry-After"] = "120"
        return response
