"""Throttling of the API's writes (issue 12): per user (a token is its user's), by scope.

Reads are never throttled here (conditional GET makes polling cheap); every POST, PUT, PATCH and
DELETE counts against the caller's ``api_write`` budget, and a view may name a tighter scope of its
own (``throttle_scope = "simulator"``: a thousand fights is a heavy request). Rates are read from
``settings.API_THROTTLE_RATES`` on each request, so an operator's change (or a test's override) takes
effect without a restart. A refused write is a 429 problem with ``Retry-After``.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

DEFAULT_SCOPE = "api_write"

logger = logging.getLogger(__name__)


class ApiWriteThrottle(SimpleRateThrottle):
    """``API_THROTTLE_RATES[scope]`` writes per user (or per address, unauthenticated) and period."""

    def __init__(self) -> None:  # the rate depends on the view: chosen in allow_request
        pass

    def allow_request(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        self.scope = getattr(view, "throttle_scope", None) or DEFAULT_SCOPE
        self.rate = settings.API_THROTTLE_RATES.get(self.scope)
        if self.rate is None:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        try:
            return super().allow_request(request, view)
        except Exception:
            # The cache (Redis) is unreachable: let the write through uncounted, as every rate limit of
            # the site does (config.rate_limits) — an outage must not turn the API's writes into 500s.
            logger.warning("API throttle %s not counted: the cache is unreachable", self.scope, exc_info=True)
            return True

    def get_cache_key(self, request: Request, view: Any) -> str:
        who = f"user-{request.user.pk}" if request.user and request.user.is_authenticated else self.get_ident(request)
        return f"throttle_{self.scope}_{who}"
