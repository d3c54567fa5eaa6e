"""Posting due webhook deliveries, each at most once, retried with exponential backoff; a hook that
fails ``WEBHOOK_MAX_FAILURES`` times in a row is switched off and its owner told by mail.

The same pattern as mail's (:mod:`campaign.mail.sending`): a delivery is **claimed** by a conditional
UPDATE whose row count is checked (pending and due, or ``sending`` whose lease ran out because its
worker died), so duplicate tasks and two workers never post it twice. A failed post (no connection, a
timeout, any answer but 2xx) goes back to ``pending`` with ``due_at`` moved on by
``WEBHOOK_RETRY_BASE_SECONDS × 2^(attempts-1)``; after ``WEBHOOK_MAX_ATTEMPTS`` it is ``failed``.
The body is written at the first attempt and kept, so every retry posts the same bytes under the same
``X-Admiralty-Delivery`` id; the timestamp and its signature are those of the attempt.
The one gap no database can close: a worker killed after the receiver answered but before ``sent``
was written posts it again after the lease — with the same delivery id, for the receiver to drop.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from campaign.models import Webhook, WebhookDelivery
from campaign.outbox.mail import webhook_disabled_record
from campaign.webhooks.addresses import CheckedHTTPHandler, CheckedHTTPSHandler
from campaign.webhooks.content import body_for

logger = logging.getLogger(__name__)

USER_AGENT = "Admiralty-Webhooks/1"


@dataclass
class PostRun:
    """What one run of the webhook task did, and when the earliest retry it left is due (seconds)."""

    sent: list[int] = field(default_factory=list)
    retrying: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)
    retry_in: float | None = None


def signature_of(*, secret: str, timestamp: str, body: str) -> str:
    """The ``X-Admiralty-Signature`` value: ``sha256=`` and the hex HMAC-SHA256 of ``"<timestamp>.<body>"``."""
    digest = hmac.new(secret.encode(), f"{timestamp}.{body}".encode(), hashlib.sha256).hexdigest()
    return f"sha256={digest}"


def retry_delay(attempts: int) -> timedelta:
    """The wait before attempt ``attempts + 1``: doubling from ``WEBHOOK_RETRY_BASE_SECONDS``."""
    return timedelta(seconds=settings.WEBHOOK_RETRY_BASE_SECONDS * 2 ** max(attempts - 1, 0))


def _claimable(now: datetime) -> Q:
    pending = Q(state=WebhookDelivery.State.PENDING, due_at__lte=now)
    stalled = Q(state=WebhookDelivery.State.SENDING, lease_until__lt=now)
    return pending | stalled


def webhook_deliveries_due(*, now: datetime) -> list[int]:
    rows = WebhookDelivery.objects.filter(_claimable(now)).order_by("due_at", "pk")
    return list(rows.values_list("pk", flat=True))


def webhook_delivery_claim(*, delivery_id: int, now: datetime) -> bool:
    """Take a due delivery for posting; True for exactly one caller."""
    lease = now + timedelta(seconds=settings.WEBHOOK_SEND_LEASE_SECONDS)
    claimed = (
        WebhookDelivery.objects.filter(pk=delivery_id)
        .filter(_claimable(now))
        .update(state=WebhookDelivery.State.SENDING, lease_until=lease, attempts=F("attempts") + 1)
    )
    return claimed == 1


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer, not a place to post the event to again: it counts as a failure."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


# Posts connect through handlers that refuse a private peer (campaign.webhooks.addresses), unless the
# site allows private addresses (development, the tests).
_opener = urllib.request.build_opener(_NoRedirects, CheckedHTTPHandler, CheckedHTTPSHandler)


def _post(*, url: str, body: str, headers: dict[str, str]) -> int:
    """POST ``body``; the receiver's status (2xx), or an exception for anything else."""
    request = urllib.request.Request(url, data=body.encode(), method="POST", headers=headers)
    with _opener.open(request, timeout=settings.WEBHOOK_TIMEOUT_SECONDS) as answer:
        return int(answer.status)


def headers_for(delivery: WebhookDelivery, *, body: str, now: datetime) -> dict[str, str]:
    """The headers of one attempt: the event, the delivery's id (the same on a retry), the attempt's
    timestamp (Unix seconds) and the signature of both with the hook's secret."""
    timestamp = str(int(now.timestamp()))
    return {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "X-Admiralty-Event": delivery.event,
        "X-Admiralty-Delivery": str(delivery.delivery_id),
        "X-Admiralty-Timestamp": timestamp,
        "X-Admiralty-Signature": signature_of(secret=delivery.hook.secret, timestamp=timestamp, body=body),
    }


def webhook_delivery_send(*, delivery_id: int, now: datetime, run: PostRun) -> None:
    """Claim, render (first attempt) and post one delivery; record the outcome in the database and ``run``."""
    if not webhook_delivery_claim(delivery_id=delivery_id, now=now):
        return
    delivery = (
        WebhookDelivery.objects.select_related("hook", "hook__campaign", "hook__nation", "turn")
        .defer("turn__snapshot", "turn__dice_log")
        .get(pk=delivery_id)
    )
    if not delivery.hook.active:
        _finish(delivery, WebhookDelivery.State.SKIPPED, error="The webhook was switched off.")
        return
    body = delivery.body
    if not body:
        rendered = body_for(delivery)
        if rendered is None:  # no longer news
            _finish(delivery, WebhookDelivery.State.SKIPPED, error="")
            return
        body = rendered
        WebhookDelivery.objects.filter(pk=delivery.pk).update(body=body)
    try:
        status = _post(url=delivery.hook.url, body=body, headers=headers_for(delivery, body=body, now=timezone.now()))
    except urllib.error.HTTPError as exc:
        _failed(delivery, now=now, error=f"The receiver answered {exc.code} {exc.reason}.", status=exc.code, run=run)
        return
    except Exception as exc:  # no connection, a timeout, a bad address: the next attempt may succeed
        _failed(delivery, now=now, error=f"{type(exc).__name__}: {exc}"[:2000], status=None, run=run)
        return
    _finish(delivery, WebhookDelivery.State.SENT, error="", sent_at=now, status=status)
    Webhook.objects.filter(pk=delivery.hook_id).update(failures=0)
    run.sent.append(delivery_id)


def _failed(delivery: WebhookDelivery, *, now: datetime, error: str, status: int | None, run: PostRun) -> None:
    """Back to ``pending`` for a later attempt, or ``failed`` after the last; the hook counts the failure."""
    _hook_failed(delivery.hook, now=now, error=error)
    if delivery.attempts >= settings.WEBHOOK_MAX_ATTEMPTS:
        _finish(delivery, WebhookDelivery.State.FAILED, error=error, status=status)
        run.failed.append(delivery.pk)
        logger.warning("webhook delivery %s failed for good: %s", delivery.pk, error)
        return
    wait = retry_delay(delivery.attempts)
    WebhookDelivery.objects.filter(pk=delivery.pk, state=WebhookDelivery.State.SENDING).update(
        state=WebhookDelivery.State.PENDING, due_at=now + wait, lease_until=None, error=error, status_code=status
    )
    run.retrying.append(delivery.pk)
    seconds = wait.total_seconds()
    run.retry_in = seconds if run.retry_in is None else min(run.retry_in, seconds)


def _hook_failed(hook: Webhook, *, now: datetime, error: str) -> None:
    """One more failure in a row; at ``WEBHOOK_MAX_FAILURES`` the hook is switched off (once: the
    conditional UPDATE) and its owner is told by mail, in the same transaction."""
    with transaction.atomic():
        Webhook.objects.filter(pk=hook.pk).update(failures=F("failures") + 1)
        reason = f"{settings.WEBHOOK_MAX_FAILURES} deliveries in a row failed; the last: {error}"
        switched_off = (
            Webhook.objects.filter(pk=hook.pk, active=True, failures__gte=settings.WEBHOOK_MAX_FAILURES).update(
                active=False, disabled_at=now, disabled_reason=reason[:2000]
            )
            == 1
        )
        if switched_off:
            webhook_disabled_record(hook=hook, now=now)


def _finish(
    delivery: WebhookDelivery, state: str, *, error: str, sent_at: datetime | None = None, status: int | None = None
) -> None:
    WebhookDelivery.objects.filter(pk=delivery.pk, state=WebhookDelivery.State.SENDING).update(
        state=state, error=error, sent_at=sent_at, lease_until=None, status_code=status
    )


def webhook_deliveries_send(*, now: datetime) -> PostRun:
    """Post every delivery due now, each once; returns what was done."""
    run = PostRun()
    for delivery_id in webhook_deliveries_due(now=now):
        webhook_delivery_send(delivery_id=delivery_id, now=now, run=run)
    return run
