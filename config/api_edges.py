"""The API's edges, outside any view: cross-origin calls (CORS), and an error the views never saw.

- :class:`ApiCorsMiddleware`: a page served from an origin the site lists in ``API_CORS_ORIGINS`` may
  call ``/api/`` from a browser. Off by default (the list is empty). A preflight (``OPTIONS`` with
  ``Access-Control-Request-Method``) from a listed origin is answered here, before authentication: the
  browser sends no credentials with it. Other origins get no CORS header, so browsers refuse them.
- :func:`api_server_error`: Django's ``handler500``; an unhandled exception under ``/api/`` answers
  ``application/problem+json`` like every other refusal of the API, never the site's HTML page.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import server_error

from battles.api.problems import PROBLEM_CONTENT_TYPE, ProblemEntry, problem_body

API_PREFIX = "/api/"
#: What a browser may send beside the simple headers: the token, JSON, and the API's preconditions.
ALLOWED_HEADERS = "Authorization, Content-Type, If-Match, If-None-Match, If-Modified-Since, Idempotency-Key"
ALLOWED_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"
#: The answer headers a script may read (beside the simple ones).
EXPOSED_HEADERS = (
    "ETag, Last-Modified, Retry-After, Location, WWW-Authenticate, Idempotent-Replayed, Admiralty-Ready, "
    "Admiralty-Ready-Cleared"
)
PREFLIGHT_MAX_AGE = "600"


def _allowed_origin(request: HttpRequest) -> str | None:
    origin = request.headers.get("Origin")
    if origin is None or not request.path.startswith(API_PREFIX):
        return None
    return origin if origin in settings.API_CORS_ORIGINS else None


class ApiCorsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        origin = _allowed_origin(request)
        if origin is not None and request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers:
            response = HttpResponse(status=204)
            response["Access-Control-Allow-Methods"] = ALLOWED_METHODS
            response["Access-Control-Allow-Headers"] = ALLOWED_HEADERS
            response["Access-Control-Max-Age"] = PREFLIGHT_MAX_AGE
        else:
            response = self.get_response(request)
            if origin is not None:
                response["Access-Control-Expose-Headers"] = EXPOSED_HEADERS
        if request.path.startswith(API_PREFIX) and settings.API_CORS_ORIGINS:
            # The answer depends on the Origin: a shared cache must not give one origin's to another.
            vary = response.get("Vary")
            response["Vary"] = f"{vary}, Origin" if vary and "Origin" not in vary else (vary or "Origin")
        if origin is not None:
            response["Access-Control-Allow-Origin"] = origin
        return response


def api_server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: a problem under ``/api/``, the site's error page elsewhere."""
    if not request.path.startswith(API_PREFIX):
        return server_error(request)
    message = "The server failed to answer this request; it has been logged. Try again later."
    body = problem_body(status=500, detail=message, errors=[ProblemEntry(None, "server_error", message)])
    return JsonResponse(body, status=500, content_type=PROBLEM_CONTENT_TYPE)
