"""Waiting on the command line for a turn the workers resolve (the GM's repair commands)."""

from __future__ import annotations

import time

from campaign.models import Turn, TurnPhase
from campaign.tasks import turn_resolve


def worker_listening(timeout: float) -> bool:
    """Whether a worker consumes the queue turn tasks go to (a worker on another queue would not help)."""
    app = turn_resolve.app
    queue = app.conf.task_default_queue
    replies = app.control.inspect(timeout=timeout).active_queues() or {}
    return any(q.get("name") == queue for queues in replies.values() for q in queues or [])


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
