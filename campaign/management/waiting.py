"""Waiting on the command line for a turn the workers resolve (the GM's repair commands)."""

from __future__ import annotations

import time
from typing import Any

from campaign.models import Turn, TurnPhase
from campaign.tasks import turn_resolve


def worker_listening(timeout: float) -> bool:
    """Whether a worker consumes the queue turn tasks go to (a worker on another queue would not help)."""
    app = turn_resolve.app
    queue = app.conf.task_default_queue

    def consumed(replies: dict[str, Any] | None) -> bool:
        return any(q.get("name") == queue for queues in (replies or {}).values() for q in queues or [])

    # The first worker to answer usually consumes it: without a limit, inspect always waits the
    # whole timeout for workers that may yet answer (5 s of every command). Only when the first
    # answer is no (a mail-only worker, say) are all the others waited for.
    if consumed(app.control.inspect(timeout=timeout, limit=1).active_queues()):
        return True
    return consumed(app.control.inspect(timeout=timeout).active_queues())


def wait_resolved(turn: Turn, timeout: float) -> str | None:
    """None once ``turn`` has resolved; otherwise, after ``timeout`` seconds, what to tell the GM."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        turn.refresh_from_db()
        if turn.status == Turn.Status.RESOLVED:
            return None
        time.sleep(0.25)
    done = sorted(TurnPhase.objects.filter(turn=turn).values_list("phase", flat=True))
    return (
        f"Turn {turn.number} is still resolving after {timeout:g} s (phases done: {done or 'none'}"
        f"{'; last error: ' + turn.error if turn.error else ''}). It will finish when a worker picks it up."
    )
