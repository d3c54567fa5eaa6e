"""Sending due deliveries, each at most once, retried with exponential backoff on SMTP failure.

A delivery is **claimed** by a conditional UPDATE (``pending`` and due, or ``sending`` whose lease ran
out because its worker died) whose row count is checked, so duplicate tasks and two workers never
send it twice. A failed send goes back to ``pending`` with ``due_at`` moved on by
``MAIL_RETRY_BASE_SECONDS × 2^(attempts-1)``; after ``MAIL_MAX_ATTEMPTS`` it is ``failed`` with its
error (the defaults retry for about three days). The one gap no database can close: a worker killed
after the SMTP server accepted the mail but before ``sent`` was written sends it again after the lease.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q

from campaign.mail.messages import digest_message_for, message_for
from campaign.models import Delivery
from campaign.models.mail import TURN_STATE_UNREAD

logger = logging.getLogger(__name__)


@dataclass
class SendRun:
    """What one run of the mail task did, and when the earliest retry it left is due (seconds)."""

    sent: list[int] = field(default_factory=list)
    retrying: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)
    retry_in: float | None = None


def retry_delay(attempts: int) -> timedelta:
    """The wait before attempt ``attempts + 1``: doubling from ``MAIL_RETRY_BASE_SECONDS``."""
    return timedelta(seconds=settings.MAIL_RETRY_BASE_SECONDS * 2 ** max(attempts - 1, 0))


def _claimable(now: datetime, *, digest: bool = False) -> Q:
    """Due and pending, or left ``sending`` by a dead worker; digest deliveries only go in a digest."""
    pending = Q(state=Delivery.State.PENDING, due_at__lte=now)
    stalled = Q(state=Delivery.State.SENDING, lease_until__lt=now)
    return (pending | stalled) & Q(digest=digest)


def deliveries_due(*, now: datetime) -> list[int]:
    return list(Delivery.objects.filter(_claimable(now)).order_by("due_at", "pk").values_list("pk", flat=True))


def delivery_claim(*, delivery_id: int, now: datetime) -> bool:
    """Take a due delivery for sending; True for exactly one caller."""
    lease = now + timedelta(seconds=settings.MAIL_SEND_LEASE_SECONDS)
    claimed = (
        Delivery.objects.filter(pk=delivery_id)
        .filter(_claimable(now))
        .update(state=Delivery.State.SENDING, lease_until=lease, attempts=F("attempts") + 1)
    )
    return claimed == 1


def delivery_send(*, delivery_id: int, now: datetime, run: SendRun) -> None:
    """Claim, render and send one delivery; record the outcome in the database and in ``run``."""
    if not delivery_claim(delivery_id=delivery_id, now=now):
        return
    delivery = (
        Delivery.objects.select_related("recipient", "campaign", "campaign__gm", "turn", "nation")
        .prefetch_related("campaign__co_gms")  # the Reply-To (campaign.mail.messages.campaign_reply_to)
        .defer(*TURN_STATE_UNREAD)
        .get(pk=delivery_id)
    )
    if not delivery.recipient.email:
        _finish(delivery, Delivery.State.FAILED, error="The recipient has no email address.")
        run.failed.append(delivery_id)
        return
    try:
        message = message_for(delivery)
        if message is None:  # no longer news (a reminder for a turn already resolved)
            _finish(delivery, Delivery.State.SKIPPED, error="")
            return
        message.send()
    except Exception as exc:  # SMTP and connection errors alike: the next attempt may succeed
        _failed(delivery, now=now, error=f"{type(exc).__name__}: {exc}"[:2000], run=run)
        return
    _finish(delivery, Delivery.State.SENT, error="", sent_at=now)
    run.sent.append(delivery_id)


def _failed(delivery: Delivery, *, now: datetime, error: str, run: SendRun) -> None:
    """Back to ``pending`` for a later attempt (exponential backoff), or ``failed`` after the last."""
    if delivery.attempts >= settings.MAIL_MAX_ATTEMPTS:
        _finish(delivery, Delivery.State.FAILED, error=error)
        run.failed.append(delivery.pk)
        logger.warning("delivery %s failed for good: %s", delivery.pk, error)
        return
    wait = retry_delay(delivery.attempts)
    Delivery.objects.filter(pk=delivery.pk, state=Delivery.State.SENDING).update(
        state=Delivery.State.PENDING, due_at=now + wait, lease_until=None, error=error
    )
    run.retrying.append(delivery.pk)
    seconds = wait.total_seconds()
    run.retry_in = seconds if run.retry_in is None else min(run.retry_in, seconds)


def _finish(delivery: Delivery, state: str, *, error: str, sent_at: datetime | None = None) -> None:
    Delivery.objects.filter(pk=delivery.pk, state=Delivery.State.SENDING).update(
        state=state, error=error, sent_at=sent_at, lease_until=None
    )


def deliveries_send(*, now: datetime) -> SendRun:
    """Send every delivery due now, each once; returns what was done."""
    run = SendRun()
    for delivery_id in deliveries_due(now=now):
        delivery_send(delivery_id=delivery_id, now=now, run=run)
    return run


def digests_send(*, now: datetime) -> SendRun:
    """Send each recipient one mail gathering their due digest deliveries (the day's events)."""
    run = SendRun()
    recipients = (
        Delivery.objects.filter(_claimable(now, digest=True))
        .order_by()
        .values_list("recipient_id", flat=True)
        .distinct()
    )
    for recipient_id in list(recipients):
        digest_send(recipient_id=recipient_id, now=now, run=run)
    return run


def digest_send(*, recipient_id: int, now: datetime, run: SendRun) -> None:
    """Claim the recipient's due digest deliveries (rows locked, others' claims skipped), send them
    as one mail, and mark each sent — or each for a retry, as a single delivery would be."""
    with transaction.atomic():
        ids = list(
            Delivery.objects.select_for_update(skip_locked=True)
            .filter(_claimable(now, digest=True), recipient_id=recipient_id)
            .values_list("pk", flat=True)
        )
        lease = now + timedelta(seconds=settings.MAIL_SEND_LEASE_SECONDS)
        Delivery.objects.filter(pk__in=ids).update(
            state=Delivery.State.SENDING, lease_until=lease, attempts=F("attempts") + 1
        )
    if not ids:
        return
    deliveries = list(
        Delivery.objects.filter(pk__in=ids)
        .select_related("recipient", "campaign", "turn", "nation")
        .defer(*TURN_STATE_UNREAD)
        .order_by("pk")
    )
    try:
        message = digest_message_for(deliveries)
        if message is None:  # no address, or nothing in it is news any more
            for delivery in deliveries:
                _finish(delivery, Delivery.State.SKIPPED, error="")
            return
        message.send()
    except Exception as exc:
        for delivery in deliveries:
            _failed(delivery, now=now, error=f"{type(exc).__name__}: {exc}"[:2000], run=run)
        return
    for delivery in deliveries:
        _finish(delivery, Delivery.State.SENT, error="", sent_at=now)
        run.sent.append(delivery.pk)
