"""Which Celery queue each task goes to (issue 14 "Fairness"): turn work, battle work and mail apart.

* ``turns``: the beat sweep and ``turn_resolve`` (a whole turn's phases; a tenfold campaign's turn
  occupies one worker slot for its length, never all of them);
* ``battles``: ``battle_resolve``, the battles of a few contested sea zones, fanned out by a turn;
* ``mail``: every task that sends mail (the deliveries, password resets, and any task whose name says
  ``mail``), so that a message never waits behind a Sunday evening's battles.

A worker started without ``-Q`` consumes all three (``task_queues``); production runs dedicated
workers per queue (README, "Workers"). ``prefix`` gives several sites — or several test processes —
on one Redis their own queues (``CELERY_QUEUE_PREFIX``).
"""

from __future__ import annotations

from kombu import Queue

TURNS = "turns"
BATTLES = "battles"
MAIL = "mail"
QUEUE_NAMES: tuple[str, ...] = (TURNS, BATTLES, MAIL)


def task_queues(prefix: str) -> tuple[Queue, ...]:
    """The queues a worker consumes when started without ``-Q``: all of them."""
    return tuple(Queue(prefix + name) for name in QUEUE_NAMES)


def task_routes(prefix: str) -> dict[str, dict[str, str]]:
    """Celery's ``task_routes``: exact names first, then glob patterns; the first match wins."""
    turns, battles, mail = ({"queue": prefix + name} for name in QUEUE_NAMES)
    return {
        "campaign.turns_sweep": turns,
        "campaign.turn_resolve": turns,
        "battles.*": battles,
        "campaign.mail_deliveries_send": mail,
        "campaign.webhook_deliveries_send": mail,
        "campaign.webhooks_sweep": mail,
        "accounts.password_reset_send": mail,
        "mail.*": mail,
        "*mail*": mail,
    }
