"""Webhooks: the URLs a GM (for the campaign) or a player (for their nation) registered, and one
:class:`WebhookDelivery` per (hook, event, occurrence), written in the same transaction as the event
it tells of and posted once by the webhook task (``campaign.webhooks``), as mail's deliveries are.

Kept beside ``campaign.models`` (which imports this module) so that the turn can record deliveries
without reaching the webhooks' rendering, which reads the players' pages.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q


class WebhookEvent(models.TextChoices):
    """What a webhook delivery tells of (the ``X-Admiralty-Event`` header)."""

    TURN_OPENED = "turn.opened", "A turn opened (its deadline)"
    TURN_RESOLVED = "turn.resolved", "A turn resolved (the reader's own report summary)"
    DEADLINE_REMINDER = "deadline.reminder", "The deadline is near (orders not yet in)"
    DISPATCH_RECEIVED = "dispatch.received", "A dispatch reached the nation"
    TABLE_WAITING = "table.waiting", "A battle waits on the table"


class WebhookFormat(models.TextChoices):
    """How a delivery's body is written: Admiralty's signed JSON, or a chat service's incoming webhook."""

    JSON = "json", "JSON (signed)"
    DISCORD = "discord", "Discord incoming webhook"
    SLACK = "slack", "Slack incoming webhook"


class Webhook(models.Model):
    """A URL told of a campaign's events: for the campaign as its GM sees it (``nation`` null), or for
    one nation as its player sees it (fog of war). ``failures`` counts consecutive failed attempts; at
    ``WEBHOOK_MAX_FAILURES`` the hook is switched off (``active`` false, ``disabled_at`` set) and its
    owner is told by mail."""

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="webhooks")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhooks")
    nation = models.ForeignKey(
        "campaign.Nation",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="webhooks",
        help_text="The nation whose view the hook gets; empty: the campaign's (a game master's hook).",
    )
    url = models.URLField(max_length=500)
    events = ArrayField(models.CharField(max_length=20, choices=WebhookEvent.choices), size=len(WebhookEvent))
    format = models.CharField(max_length=8, choices=WebhookFormat.choices, default=WebhookFormat.JSON)
    secret = models.CharField(max_length=64, help_text="Signs each JSON delivery (HMAC-SHA256); shown once.")
    active = models.BooleanField(default=True)
    failures = models.PositiveSmallIntegerField(default=0, help_text="Failed attempts in a row.")
    disabled_at = models.DateTimeField(null=True, blank=True)
    disabled_reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(url__startswith="http://") | Q(url__startswith="https://"), name="webhook_url_http"
            ),
            models.CheckConstraint(
                condition=Q(events__len__gte=1) & Q(events__contained_by=list(WebhookEvent.values)),
                name="webhook_events_known",
            ),
            models.CheckConstraint(condition=Q(format__in=list(WebhookFormat.values)), name="webhook_format_known"),
            models.CheckConstraint(
                condition=Q(active=True, disabled_at__isnull=True) | Q(active=False, disabled_at__isnull=False),
                name="webhook_disabled_has_time",
            ),
            models.CheckConstraint(condition=~Q(secret=""), name="webhook_has_secret"),
        ]

    def __str__(self) -> str:
        return f"webhook {self.pk} to {self.url}"


class WebhookDelivery(models.Model):
    """One event told to one hook; the unique constraint is what makes it "exactly once".

    ``pending`` → ``sending`` (claimed by a conditional UPDATE, with a lease for a worker that dies
    mid-post) → ``sent``; a failed post goes back to ``pending`` with a later ``due_at`` (exponential
    backoff) until ``WEBHOOK_MAX_ATTEMPTS``, then ``failed``. ``delivery_id`` is the
    ``X-Admiralty-Delivery`` header: the same on every attempt. ``body`` is written at the first
    attempt and posted unchanged on every retry."""

    class State(models.TextChoices):
        PENDING = "pending", "Pending"
        SENDING = "sending", "Sending"
        SENT = "sent", "Sent"
        FAILED = "failed", "Failed"
        SKIPPED = "skipped", "Not sent (the hook was switched off, or no longer news)"

    hook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(max_length=20, choices=WebhookEvent.choices)
    # Which occurrence of the event (the turn's id, the dispatch's): one delivery per hook each.
    key = models.CharField(max_length=80)
    delivery_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    turn = models.ForeignKey("campaign.Turn", on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    data = models.JSONField(default=dict, blank=True, help_text="What the event said when it happened.")
    body = models.TextField(blank=True, help_text="The body as first posted (retries post it unchanged).")
    state = models.CharField(max_length=8, choices=State.choices, default=State.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    due_at = models.DateTimeField(help_text="Not sent before this time (retries back off).")
    lease_until = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True, help_text="The receiver's last answer.")
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "webhook deliveries"
        constraints = [
            models.UniqueConstraint(fields=["hook", "event", "key"], name="webhook_delivery_once"),
            models.CheckConstraint(
                condition=Q(state="sent", sent_at__isnull=False) | ~Q(state="sent"), name="webhook_delivery_sent_time"
            ),
        ]
        indexes = [models.Index(fields=["state", "due_at"], name="webhook_delivery_due")]

    def __str__(self) -> str:
        return f"{self.event} to hook {self.hook_id} ({self.state})"
