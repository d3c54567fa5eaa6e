"""Handing work to the Celery workers when the broker (Redis in production) may be down.

Every task the web requests and the turn queue after commit has a beat sweep behind it that finds the
work again from the database: a claimed turn without a live lease (``turns_stalled``), a mail delivery
not yet sent (``mail_sweep``). So a message that cannot be sent once the rows are committed is not
lost work, only later work: :func:`send_after_commit` logs it and leaves it to the sweep instead of
turning a committed write into a 500. An action whose whole point is to start work *now* (the GM's
"Resolve now", a password-reset mail, which no sweep knows of) asks :func:`broker_problem` first, or
sends inside ``try`` with :data:`BROKER_ERRORS`, and refuses with a message while the broker is down.
"""

from __future__ import annotations

import logging
from functools import partial

from celery import current_app
from celery.canvas import Signature
from django.db import transaction
from kombu.exceptions import OperationalError
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

#: What sending a task raises when the broker cannot be reached: kombu's wrapped error, the Redis
#: client's own (raised past kombu's retry on some paths), and the socket's (the filesystem transport).
BROKER_ERRORS: tuple[type[Exception], ...] = (OperationalError, RedisError, OSError)

#: Said wherever an action is refused because the broker is down.
QUEUE_DOWN_MESSAGE = (
    "The task queue cannot be reached just now, so nothing was started and nothing changed. "
    "Try again in a few minutes; the site's health page (/healthz) says which part is down."
)


def broker_problem() -> str | None:
    """None when the broker accepts a connection; otherwise the kind of error (never its message, which
    may hold the broker's URL and password). One quick try: a refused connection answers at once."""
    try:
        with current_app.connection_for_write() as broker:
            broker.ensure_connection(max_retries=1, timeout=3)
    except Exception as exc:
        return type(exc).__name__
    return None


def send_or_leave_to_sweep(task: Signature) -> bool:
    """Send ``task`` now; if the broker cannot be reached, log it and leave the work to its beat sweep.
    True when sent."""
    try:
        # No result kept: no request reads one, and asking for it makes this process subscribe to the
        # result store first, which fails for good ("the Celery application must be restarted") when
        # Redis is down at that moment.
        task.apply_async(ignore_result=True)
    except BROKER_ERRORS as exc:
        logger.warning(
            "task %s not sent (%s: the broker is unreachable); its beat sweep will pick the work up",
            task.task,
            type(exc).__name__,
        )
        return False
    return True


def send_after_commit(task: Signature) -> None:
    """Send ``task`` once the current transaction commits (never if it rolls back); a broker outage
    then leaves the committed work to its sweep rather than failing the request or the turn."""
    transaction.on_commit(partial(send_or_leave_to_sweep, task))
