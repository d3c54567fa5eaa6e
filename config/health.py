"""Is this site working? The checks behind ``/healthz``, for load balancers and monitoring (issue 14).

* the database answers;
* the broker (Redis in production) accepts a connection;
* Celery beat's turn sweep ran recently (its time is in the cache, :mod:`campaign.turn.health`): an age
  over :func:`campaign.turn.health.sweep_max_age_seconds` means no beat, or no worker on the turns queue.

Failures name the part and the kind of error, never its message (a URL in it may carry a password).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import connection
from django.utils import timezone

from campaign.turn.health import sweep_last, sweep_max_age_seconds
from config.celery import app


@dataclass(frozen=True)
class HealthReport:
    checks: dict[str, str]
    failing: list[str]

    @property
    def ok(self) -> bool:
        return not self.failing


def health_check(*, now: datetime | None = None) -> HealthReport:
    """Check the database, the broker and the beat sweep; each part "ok" or what is wrong with it."""
    now = now or timezone.now()
    checks: dict[str, str] = {}
    failing: list[str] = []
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        checks["database"] = "ok"
    except Exception as exc:
        checks["database"] = f"unreachable ({type(exc).__name__})"
        failing.append("database")
    try:
        with app.connection_for_write() as broker:
            broker.ensure_connection(max_retries=1, timeout=3)
        checks["broker"] = "ok"
    except Exception as exc:
        checks["broker"] = f"unreachable ({type(exc).__name__})"
        failing.append("broker")
    try:
        last = sweep_last()
    except Exception as exc:
        checks["beat"] = f"cache unreachable ({type(exc).__name__})"
        failing.append("beat")
    else:
        age = None if last is None else (now - last).total_seconds()
        if age is None:
            checks["beat"] = "no turn sweep recorded yet"
            failing.append("beat")
        elif age > sweep_max_age_seconds():
            checks["beat"] = f"last turn sweep {age:.0f} s ago (more than {sweep_max_age_seconds():.0f} s)"
            failing.append("beat")
        else:
            checks["beat"] = f"ok, last turn sweep {age:.0f} s ago"
    return HealthReport(checks=checks, failing=failing)
