"""The turn sweep's heartbeat and the GM's summary of turns (issue 14 "Health").

Each beat sweep records its time in the cache (Redis, shared by every process);
``config.health`` (``/healthz``) reports its age, and the admin's campaign list shows it with how
many turns are due, resolving and failed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.db.models import Q
from django.utils import timezone

from campaign.models import Turn
from campaign.turn.lifecycle import turns_due

logger = logging.getLogger(__name__)

SWEEP_CACHE_KEY = "turns-sweep:last"


def sweep_record(*, now: datetime) -> None:
    """Record a sweep's time. A cache outage must not stop turns: it is logged and shown by /healthz."""
    try:
        cache.set(SWEEP_CACHE_KEY, now.isoformat(), timeout=None)
    except Exception:
        logger.warning("turns sweep: could not record its time in the cache", exc_info=True)


def sweep_last() -> datetime | None:
    """When the last sweep ran, or None if none is recorded. Raises if the cache is unreachable."""
    value = cache.get(SWEEP_CACHE_KEY)
    return datetime.fromisoformat(value) if value else None


def sweep_max_age_seconds() -> float:
    """Three missed sweeps (and half a minute of slack for a busy worker) mean beat has stopped."""
    return 3 * float(settings.TURN_SWEEP_SECONDS) + 30


@dataclass(frozen=True)
class TurnsSummary:
    last_sweep: datetime | None
    sweep_age_seconds: int | None
    due: int
    resolving: int
    failed: int


def turns_summary(*, now: datetime | None = None) -> TurnsSummary:
    """For the GM: the last sweep, and how many turns are due (not yet claimed), resolving and failed
    (resolving with an error; the sweep retries them up to ``TURN_MAX_ATTEMPTS`` times)."""
    now = now or timezone.now()
    try:
        last = sweep_last()
    except Exception:
        last = None
    resolving = Turn.objects.filter(status=Turn.Status.RESOLVING)
    return TurnsSummary(
        last_sweep=last,
        sweep_age_seconds=None if last is None else max(0, round((now - last).total_seconds())),
        due=len(turns_due(now=now)),
        resolving=resolving.filter(error="").count(),
        failed=resolving.filter(~Q(error="")).count(),
    )
