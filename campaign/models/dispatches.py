"""Dispatches (issue 16): the players' written diplomacy, in the campaign's own time.

A :class:`Conversation` is a thread between named nations (private: two; group: more), or a public
one every nation reads; each :class:`Dispatch` in it is stamped with the turn and season it was sent
in. Who may read a dispatch, and when, is one :class:`DispatchCopy` per receiving nation: it arrives
(``arrived_at``) at once, or at the start of the next turn when the campaign delays dispatches between
distant capitals; its ``read_at`` is what the unread count counts. Nothing a player sent is ever
deleted: an edit (allowed for two minutes) keeps the earlier text as a :class:`DispatchRevision`, and
the GM's hiding keeps the dispatch, marked hidden, with who hid it, when and why.

Kept beside ``campaign.models`` (which imports this module so Django registers the models) rather
than in ``campaign.dispatches``, which imports ``campaign.models``: the package would otherwise form an
import cycle with it. Foreign keys are therefore named by string.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

#: A sender may change a dispatch this long after sending it (issue 16: "edits within 2 minutes").
EDIT_WINDOW_SECONDS = 120


class Press(models.TextChoices):
    """The campaign's house option for dispatches (``Campaign.press``)."""

    FULL = "full", "Private, group and public dispatches"
    PUBLIC = "public", "Public proclamations only"
    OFF = "off", "No press (dispatches off)"


#: The campaign's house options of dispatches (``Campaign`` fields) and their defaults: backups write
#: only those that differ, so files from before dispatches read the same.
DISPATCH_OPTIONS: dict[str, object] = {
    "press": Press.FULL.value,
    "anonymous_press": False,
    "gm_reads_dispatches": True,
    "dispatch_delay_zones": None,
    "dispatch_max_length": 2000,
    "dispatches_per_hour": 10,
}


class Conversation(models.Model):
    """A thread of dispatches. Its nations are fixed when it is started; replies go to all of them."""

    class Kind(models.TextChoices):
        PRIVATE = "private", "Private"
        GROUP = "group", "Group"
        PUBLIC = "public", "Public proclamation"

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="conversations")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    subject = models.CharField(max_length=120)
    nations = models.ManyToManyField(
        "campaign.Nation",
        related_name="conversations",
        blank=True,
        help_text="The nations in a private or group conversation (the sender among them); none for public.",
    )
    starter = models.ForeignKey(
        "campaign.Nation",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        help_text="The nation that started it; empty for The Admiralty.",
    )
    # The Admiralty (the GM) started it or was written to: the GM reads it even when blind.
    admiralty = models.BooleanField(default=False, help_text="The GM (“The Admiralty”) takes part.")
    anonymous = models.BooleanField(default=False, help_text="Started under anonymous press: names are not shown.")
    started_at = models.DateTimeField()
    last_at = models.DateTimeField(help_text="When its latest dispatch was sent (the list's order).")

    class Meta:
        ordering = ["-last_at", "-pk"]
        indexes = [models.Index(fields=["campaign", "-last_at"], name="conversation_latest")]

    def __str__(self) -> str:
        return self.subject


class Dispatch(models.Model):
    """One message. ``sender`` null means The Admiralty (the GM); ``author`` is the account that wrote it."""

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="dispatches")
    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="dispatches")
    sender = models.ForeignKey(
        "campaign.Nation", on_delete=models.CASCADE, null=True, blank=True, related_name="dispatches_sent"
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    body = models.TextField(help_text="Plain text, shown escaped; the length limit is the campaign's.")
    turn = models.PositiveIntegerField(help_text="The turn it was sent in.")
    year = models.PositiveSmallIntegerField()
    season = models.CharField(max_length=12)
    anonymous = models.BooleanField(default=False, help_text="Sent under anonymous press.")
    sent_at = models.DateTimeField()
    edited_at = models.DateTimeField(null=True, blank=True)
    hidden_at = models.DateTimeField(null=True, blank=True, help_text="Hidden from players by the GM (kept).")
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    hidden_reason = models.CharField(max_length=300, blank=True)
    reported_at = models.DateTimeField(null=True, blank=True, help_text="First reported to the GM for abuse.")

    class Meta:
        ordering = ["sent_at", "pk"]
        verbose_name_plural = "dispatches"
        constraints = [
            models.CheckConstraint(
                condition=Q(hidden_at__isnull=True) | ~Q(hidden_reason=""), name="dispatch_hidden_has_reason"
            ),
            models.CheckConstraint(
                condition=Q(edited_at__isnull=True) | Q(edited_at__gte=F("sent_at")), name="dispatch_edited_after_sent"
            ),
        ]
        indexes = [models.Index(fields=["sender", "sent_at"], name="dispatch_sender_recent")]

    def __str__(self) -> str:
        return f"dispatch {self.pk} in {self.conversation_id}"


class DispatchCopy(models.Model):
    """A dispatch as one receiving nation has it: in transit until ``arrived_at``, unread until ``read_at``."""

    dispatch = models.ForeignKey(Dispatch, on_delete=models.CASCADE, related_name="copies")
    nation = models.ForeignKey("campaign.Nation", on_delete=models.CASCADE, related_name="dispatch_copies")
    arrives_turn = models.PositiveIntegerField(help_text="The turn at whose start (or in which) it arrives.")
    arrived_at = models.DateTimeField(null=True, blank=True, help_text="Empty while in transit.")
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["dispatch", "nation"]
        constraints = [
            models.UniqueConstraint(fields=["dispatch", "nation"], name="dispatch_copy_once_per_nation"),
            models.CheckConstraint(
                condition=Q(read_at__isnull=True) | Q(arrived_at__isnull=False), name="dispatch_copy_read_after_arrival"
            ),
        ]
        indexes = [
            models.Index(fields=["nation", "read_at"], name="dispatch_copy_unread"),
            models.Index(fields=["arrived_at"], name="dispatch_copy_in_transit", condition=Q(arrived_at__isnull=True)),
        ]

    def __str__(self) -> str:
        return f"{self.dispatch_id} to {self.nation_id}"


class DispatchRevision(models.Model):
    """An earlier text of an edited dispatch: nothing sent is lost."""

    dispatch = models.ForeignKey(Dispatch, on_delete=models.CASCADE, related_name="revisions")
    body = models.TextField()
    replaced_at = models.DateTimeField()

    class Meta:
        ordering = ["dispatch", "replaced_at", "pk"]

    def __str__(self) -> str:
        return f"revision of {self.dispatch_id}"


class DispatchMute(models.Model):
    """The GM silenced a nation's dispatches up to and including ``until_turn`` (unless lifted earlier)."""

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="+")
    nation = models.ForeignKey("campaign.Nation", on_delete=models.CASCADE, related_name="dispatch_mutes")
    from_turn = models.PositiveIntegerField()
    until_turn = models.PositiveIntegerField()
    reason = models.CharField(max_length=300)
    muted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField()
    # Lifted early by the GM: kept, so the mute's history stays (and the audit log says why).
    lifted_at = models.DateTimeField(null=True, blank=True, help_text="Lifted by the GM before it ran out.")
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(condition=Q(until_turn__gte=F("from_turn")), name="dispatch_mute_turns_ordered"),
            models.CheckConstraint(condition=~Q(reason=""), name="dispatch_mute_has_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.nation_id} muted to turn {self.until_turn}"


class DispatchReport(models.Model):
    """A player's report of a dispatch to the GM (the report-abuse link); once per dispatch and nation."""

    dispatch = models.ForeignKey(Dispatch, on_delete=models.CASCADE, related_name="reports")
    nation = models.ForeignKey("campaign.Nation", on_delete=models.CASCADE, related_name="+")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    reason = models.CharField(max_length=300)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["dispatch", "nation"], name="dispatch_report_once_per_nation")]

    def __str__(self) -> str:
        return f"report of {self.dispatch_id}"
