"""Mail's records, and the account setting mail reads (the user's time zone).

One :class:`Delivery` per (recipient, event, campaign, turn, object), written in the
same transaction as the event it tells of, and sent once by the mail task (``campaign.mail``).

Kept beside ``campaign.models`` (which imports this module) so that the turn can write deliveries
without reaching the mail's rendering, which reads the players' pages.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class MailEvent(models.TextChoices):
    """What a mail tells of; each has its own templates (``templates/emails/<value>.txt|html``)."""

    TURN_RESOLVED = "turn_resolved", "Turn resolved (your report)"
    TURN_OPENED = "turn_opened", "Turn opened (new deadline)"
    MISSED_DEADLINE = "missed_deadline", "Missed the deadline"
    CLOCK_CHANGED = "clock_changed", "Clock changes (paused, resumed, extended)"
    GM_DIGEST = "gm_digest", "GM digest after each resolution"
    DEADLINE_REMINDER = "deadline_reminder", "Deadline reminder (no orders yet)"
    ANNOUNCEMENT = "announcement", "Announcements from the GM"
    NATION_GIVEN = "nation_given", "Campaign started / you were given a nation"
    CAMPAIGN_ENDED = "campaign_ended", "Campaign ended (final standings)"
    DISPATCH = "dispatch", "Dispatches from other nations"
    CAMPAIGN_REVERTED = "campaign_reverted", "Campaign turned back by the GM (revert, re-fought battle)"
    INVITATION = "invitation", "Invitation to play a nation"
    NATION_TAKEN = "nation_taken", "Your nation given to another player"
    TABLE_BATTLE = "table_battle", "A battle of yours goes to the table"
    DISPATCH_REPORTED = "dispatch_reported", "A dispatch reported to the GM (to game masters)"
    TURN_FAILED = "turn_failed", "Turn resolution failed (to game masters, at once)"
    TABLE_POST = "table_post", "A post on a battle of yours at the table"
    WEBHOOK_DISABLED = "webhook_disabled", "A webhook of yours was switched off after failures"


#: A delivery's turn as mail reads it, through ``select_related("turn")``: never the turn's snapshot
#: (the whole campaign as it stood, megabytes of JSON on a big campaign) nor its dice log, which no
#: mail shows; ``.defer(*TURN_STATE_UNREAD)`` leaves them unread.
TURN_STATE_UNREAD = ("turn__snapshot", "turn__dice_log")


class Delivery(models.Model):
    """One mail to one user about one event; the unique constraint is what makes it "exactly once".

    ``pending`` → ``sending`` (claimed by a conditional UPDATE, with a lease for a worker that dies
    mid-send) → ``sent``; an SMTP failure puts it back to ``pending`` with a later ``due_at``
    (exponential backoff) until ``MAIL_MAX_ATTEMPTS``, then ``failed`` with the error.
    """

    class State(models.TextChoices):
        PENDING = "pending", "Pending"
        SENDING = "sending", "Sending"
        SENT = "sent", "Sent"
        FAILED = "failed", "Failed"
        SKIPPED = "skipped", "Not sent (turned off by the recipient, or no longer news)"

    recipient = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(max_length=20, choices=MailEvent.choices)
    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="deliveries")
    turn = models.ForeignKey("campaign.Turn", on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    nation = models.ForeignKey("campaign.Nation", on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    # Which one of several events of a kind in the same turn (a second extension is a new mail).
    key = models.CharField(max_length=80, blank=True, default="")
    data = models.JSONField(default=dict, blank=True, help_text="What the event said (e.g. the clock change).")
    state = models.CharField(max_length=8, choices=State.choices, default=State.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    due_at = models.DateTimeField(help_text="Not sent before this time (retries back off).")
    lease_until = models.DateTimeField(null=True, blank=True, help_text="A sending worker's claim runs out then.")
    sent_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True, help_text="The last SMTP error.")
    digest = models.BooleanField(default=False, help_text="Waits for the recipient's daily digest.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "deliveries"
        constraints = [
            models.UniqueConstraint(
                fields=["recipient", "event", "campaign", "turn", "key"],
                name="delivery_once_per_recipient_event_turn",
                nulls_distinct=False,
            ),
            models.CheckConstraint(
                condition=Q(state="sent", sent_at__isnull=False) | ~Q(state="sent"), name="delivery_sent_has_time"
            ),
        ]
        indexes = [models.Index(fields=["state", "due_at"], name="delivery_due")]

    def __str__(self) -> str:
        return f"{self.get_event_display()} to {self.recipient_id} ({self.state})"


class UserProfile(models.Model):
    """What the site keeps about a user beyond Django's account: the time zone their times (pages and
    mail) are shown in. The Settings page writes it; the time-zone cookie of a browser wins over it."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    time_zone = models.CharField(max_length=64, blank=True, help_text="IANA name, e.g. Europe/Paris; empty = UTC.")

    def __str__(self) -> str:
        return f"profile of {self.user_id}"


class Announcement(models.Model):
    """A GM's announcement to every player of a campaign, written in the admin and mailed once to each."""

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="announcements")
    title = models.CharField(max_length=120)
    body = models.TextField(max_length=10000, help_text="Plain text; blank lines separate paragraphs.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.title


class MailPreference(models.Model):
    """A user's choice for one event of one campaign: on or off, at once or in the daily digest.
    No row means on, at once."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mail_preferences")
    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="+")
    event = models.CharField(max_length=20, choices=MailEvent.choices)
    enabled = models.BooleanField(default=True)
    digest = models.BooleanField(default=False, help_text="Gather into one mail a day instead of one each.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "campaign", "event"], name="mail_preference_once"),
        ]

    def __str__(self) -> str:
        return f"{self.event} {'on' if self.enabled else 'off'} for {self.user_id}"


class CalendarToken(models.Model):
    """The secret of a user's calendar feed (``/calendar/<token>.ics``); deleting it revokes the feed."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_token")
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"calendar feed of {self.user_id}"
