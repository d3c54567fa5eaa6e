"""Fixed-window rate limits kept in the shared cache (Redis), for the web pages that DRF's throttles
do not cover: the simulator, the login and password-reset limits, PDF printing.

A limit that cannot be counted — the cache is down — lets the request through and logs it: a Redis
outage must not turn every page that counts into a 500 (fail open; the work behind these limits is
bounded by its own checks).
"""

from __future__ import annotations

import hashlib
import logging
import time
from dataclasses import dataclass

from django.core.cache import cache

logger = logging.getLogger(__name__)

_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """``"30/minute"`` → (30, 60): the number of uses and the window in seconds (DRF's notation)."""
    number, period = rate.split("/")
    return int(number), _PERIODS[period.strip()[0]]


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    #: Seconds until the window ends (what Retry-After says when refused).
    retry_after: int


def rate_limit_hit(scope: str, who: str, rate: str) -> Verdict:
    """Count one use of ``scope`` by ``who`` against ``rate``; whether it is allowed and when the window
    ends. Fails open (allowed, logged) when the cache cannot be reached."""
    limit, window = parse_rate(rate)
    now = int(time.time())
    start = now - now % window
    key = f"rate:{scope}:{hashlib.sha256(who.encode()).hexdigest()}:{start}"
    try:
        cache.add(key, 0, timeout=window + 1)
        count = cache.incr(key)
    except ValueError:  # expired between add and incr: a new window
        count = 1
    except Exception:  # the cache (Redis) is unreachable: count nothing, let it through
        logger.warning("rate limit %s not counted: the cache is unreachable", scope, exc_info=True)
        return Verdict(True, 0)
    return Verdict(count <= limit, max(1, start + window - now))


def rate_limit_count(scope: str, who: str, rate: str) -> int:
    """How many uses of ``scope`` by ``who`` the current window holds so far (0 when the cache is down)."""
    _limit, window = parse_rate(rate)
    now = int(time.time())
    key = f"rate:{scope}:{hashlib.sha256(who.encode()).hexdigest()}:{now - now % window}"
    try:
        return int(cache.get(key) or 0)
    except Exception:
        logger.warning("rate limit %s not read: the cache is unreachable", scope, exc_info=True)
        return 0
