"""Celery tasks of the turn lifecycle: thin, idempotent, taking ids (DESIGN.md).

* ``turns_sweep`` (Celery beat, every ``TURN_SWEEP_SECONDS``): claims due turns and hands stalled
  ones (a dead worker's expired lease) to a new ``turn_resolve``.
* ``turn_resolve``: takes the turn's lease and runs the remaining phases; a duplicate delivery finds
  the lease held and does nothing.
* ``mail_deliveries_send`` (queue ``MAIL_QUEUE``, "mail"): sends the due deliveries recorded by
  ``campaign.outbox.mail``, each once; while some wait for a retry it queues itself again for then.
* ``mail_reminders`` (Celery beat, every ``MAIL_SWEEP_SECONDS``): records the deadline reminders due.
* ``webhook_deliveries_send`` (queue ``MAIL_QUEUE``): posts the due webhook deliveries recorded by
  ``campaign.outbox.webhooks``, each once; chains itself for retries as the mail task does.
* ``webhooks_sweep`` (Celery beat, every ``MAIL_SWEEP_SECONDS``): the same, for deliveries whose retry
  message was lost with the broker and for posts whose worker died.
* ``mail_digests`` (Celery beat, daily at ``MAIL_DIGEST_HOUR``): one mail per digest reader.
* ``mail_sweep`` (Celery beat, every ``MAIL_SWEEP_SECONDS``): the same, for deliveries whose retry
  message was lost and for sends whose worker died (their claim runs out).
"""

from __future__ import annotations

import logging
import uuid

from celery import Task, chord, shared_task
from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from battles.engagements import BATTLE_PHASE, engagement_zones_to_dispatch, zone_batches
from battles.tasks import battle_resolve
from campaign.mail.sending import SendRun, deliveries_send, digests_send
from campaign.models import Turn
from campaign.outbox.mail import (
    MAIL_SEND_TASK,
    deadline_reminders_record,
    mail_send_after_commit,
    turn_failed_record,
)
from campaign.outbox.webhooks import WEBHOOK_SEND_TASK
from campaign.turn.health import sweep_record
from campaign.turn.lifecycle import (
    lease_acquire,
    lease_release,
    lease_renew,
    turn_table_wait,
    turns_claim_due,
    turns_stalled,
    turns_table_due,
)
from campaign.turn.runner import phase_run, phase_waits, phases_remaining
from campaign.webhooks.sending import PostRun
from campaign.webhooks.sending import webhook_deliveries_send as webhook_deliveries_post

logger = logging.getLogger(__name__)


@shared_task(name="campaign.turns_sweep")
def turns_sweep() -> dict[str, list[int]]:
    """Claim every due turn in one pass and enqueue its resolution; re-enqueue stalled ones; record the
    sweep's time for /healthz and the admin. A duplicated sweep claims nothing twice (turns_claim_due)."""
    now = timezone.now()
    claimed = turns_claim_due(now=now)
    # Turns whose table deadline passed: their battles are fought by the dice and they resume.
    claimed += turns_table_due(now=now)
    stalled = turns_stalled(now=now)
    sweep_record(now=now)
    for turn_id in sorted(set(claimed) | set(stalled)):
        turn_resolve.delay(turn_id)
    if claimed or stalled:
        logger.info("turns sweep: claimed %s, resumed %s", claimed, stalled)
    return {"claimed": claimed, "resumed": stalled}


@shared_task(name="campaign.turn_resolve", acks_late=True)
def turn_resolve(turn_id: int, handover: str | None = None) -> str:
    """Resolve a claimed turn: run every phase not yet done, in order, holding the lease.

    Returns "done", "held" (another worker has the lease: a duplicate delivery), "lost" (the lease
    ran out mid-way and another worker took over), "waiting" (phase 4's battles were fanned out as
    a chord whose callback — this task again, with ``handover`` — finishes the turn) or "table" (a
    battle went to the table: the turn waits for its approved result, issue 15). Safe to run
    any number of times. Called directly (not as a task) it never fans out: phase 4 fights inline.
    """
    token = lease_acquire(turn_id=turn_id, now=timezone.now(), handover=uuid.UUID(handover) if handover else None)
    if token is None:
        return "held"
    Turn.objects.filter(pk=turn_id).update(attempts=F("attempts") + 1)
    try:
        for number in phases_remaining(turn_id):
            if not lease_renew(turn_id=turn_id, token=token, now=timezone.now()):
                return "lost"
            if number == BATTLE_PHASE and not turn_resolve.request.called_directly and _battles_fan_out(turn_id, token):
                return "waiting"
            if phase_waits(turn_id=turn_id, number=number):
                # Issue 15: a battle on the table holds phase 4; the turn waits (its lease given up)
                # until the result is approved, which sends this task again.
                turn_table_wait(turn_id=turn_id, token=token, now=timezone.now())
                return "table"
            phase_run(turn_id=turn_id, number=number, now=timezone.now())
    except Exception as exc:
        # Visible to the GM on the turn; the lease is released so the next sweep retries from the
        # failed phase (which rolled back whole); then the GMs are mailed at once (once a turn).
        Turn.objects.filter(pk=turn_id).update(error=f"{type(exc).__name__}: {exc}"[:4000])
        lease_release(turn_id=turn_id, token=token)
        with transaction.atomic():
            if turn_failed_record(turn_id=turn_id, now=timezone.now()):
                mail_send_after_commit()
        raise
    lease_release(turn_id=turn_id, token=token)
    return "done"


def _battles_fan_out(turn_id: int, token: uuid.UUID) -> bool:
    """DESIGN.md "A turn": ``battle_resolve`` tasks of a few contested zones each, in parallel, as a
    chord whose callback takes the lease over (``handover``) and runs phase 4 and the rest. The lease is stretched
    to ``TURN_BATTLE_GRACE_SECONDS`` meanwhile; if the callback never comes, the beat sweep resumes
    the turn after it and phase 4 fights inline whatever is still pending. Zones are dispatched once.
    """
    grace = settings.TURN_BATTLE_GRACE_SECONDS
    if not lease_renew(turn_id=turn_id, token=token, now=timezone.now(), seconds=grace):
        return False
    zones = engagement_zones_to_dispatch(turn_id=turn_id, now=timezone.now())
    if not zones:
        return False
    batches = zone_batches(zones, settings.TURN_BATTLE_ZONES_PER_TASK)
    chord([battle_resolve.si(turn_id, batch) for batch in batches])(turn_resolve.si(turn_id, handover=str(token)))
    logger.info("turn %s: battles of %d zones fanned out to %d tasks", turn_id, len(zones), len(batches))
    return True


#: The longest a retry run is delayed in the broker (seconds).
MAIL_CHAIN_MAX_COUNTDOWN = 600.0


def _run_summary(run: SendRun | PostRun, follow_up: Task | None) -> dict[str, list[int]]:
    """What a sending run did; with ``follow_up``, that task is queued again for the run's earliest retry.

    One follow-up per run, at the earliest retry: the chain ends when nothing waits. Capped: Redis
    redelivers messages held longer than its visibility timeout (an hour), and the beat sweep takes
    over the long waits of later attempts anyway."""
    if follow_up is not None and run.retry_in is not None:
        countdown = min(run.retry_in, MAIL_CHAIN_MAX_COUNTDOWN)
        follow_up.apply_async(countdown=countdown, queue=settings.MAIL_QUEUE)
    return {"sent": run.sent, "retrying": run.retrying, "failed": run.failed}


def _send_summary(chain: bool) -> dict[str, list[int]]:
    return _run_summary(deliveries_send(now=timezone.now()), mail_deliveries_send if chain else None)


# Sent to MAIL_QUEUE by every caller (campaign.outbox.mail.mail_send_after_commit, the retry below, the
# beat entry): Celery 5.7 deprecates the task-level ``queue`` attribute.
@shared_task(name=MAIL_SEND_TASK, acks_late=True)
def mail_deliveries_send() -> dict[str, list[int]]:
    """Send every due delivery once (``campaign.mail.sending``); queue a retry run if some failed."""
    return _send_summary(chain=True)


@shared_task(name="campaign.mail_sweep")
def mail_sweep() -> dict[str, list[int]]:
    """Beat's safety net: send what is due (lost retry messages, dead workers' claims); never chains."""
    return _send_summary(chain=False)


@shared_task(name="campaign.mail_reminders")
def mail_reminders() -> int:
    """Beat: record the deadline reminders now due (once a turn each); the send task follows on commit."""
    return deadline_reminders_record(now=timezone.now())


@shared_task(name="campaign.mail_digests")
def mail_digests() -> dict[str, list[int]]:
    """Beat, once a day at ``MAIL_DIGEST_HOUR``: each recipient's digest deliveries in one mail."""
    run = digests_send(now=timezone.now())
    return {"sent": run.sent, "retrying": run.retrying, "failed": run.failed}


def _post_summary(chain: bool) -> dict[str, list[int]]:
    return _run_summary(webhook_deliveries_post(now=timezone.now()), webhook_deliveries_send if chain else None)


@shared_task(name=WEBHOOK_SEND_TASK, acks_late=True)
def webhook_deliveries_send() -> dict[str, list[int]]:
    """Post every due webhook delivery once (``campaign.webhooks.sending``); queue a retry run if some failed."""
    return _post_summary(chain=True)


@shared_task(name="campaign.webhooks_sweep")
def webhooks_sweep() -> dict[str, list[int]]:
    """Beat's safety net for webhooks: post what is due (lost retry messages, dead workers' claims)."""
    return _post_summary(chain=False)
