"""The GM's audit log: one append-only row per action a game master took in a campaign (issue 11).

Nobody can edit it: the admin shows it read-only, and PostgreSQL refuses every UPDATE and DELETE
of a row with a trigger added by the migration — so not even a bug, a shell or a careless cascade
can rewrite history. Rows are written only by :func:`campaign.audit.audit_record`.

The campaign and the actor are kept as ids **without** database foreign-key constraints
(``db_constraint=False``, ``DO_NOTHING``): deleting a campaign (``load_scenario --replace``) or a
user account must neither fail on the trigger nor erase the record of what was done, so the rows
outlive both, and ``campaign_slug``/``actor_name`` say who and where in words.

Kept beside ``campaign.models`` (which imports this module), as the mail's records are.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class AuditAction(models.TextChoices):
    """The actions the code records; ``AuditEntry.action`` is free text (a new service may add its own),
    these are the known ones with their labels for people."""

    CAMPAIGN_CREATED = "campaign_created", "Campaign created (setting up)"
    CAMPAIGN_STARTED = "campaign_started", "Campaign started"
    CAMPAIGN_PAUSED = "campaign_paused", "Campaign paused"
    CAMPAIGN_RESUMED = "campaign_resumed", "Campaign resumed"
    CAMPAIGN_ENDED = "campaign_ended", "Campaign ended"
    CAMPAIGN_DELETED = "campaign_deleted", "Campaign deleted"
    CAMPAIGN_ARCHIVED = "campaign_archived", "Campaign archived"
    CAMPAIGN_UNARCHIVED = "campaign_unarchived", "Campaign taken out of the archive"
    CAMPAIGN_EXPORTED = "campaign_exported", "Campaign exported"
    CAMPAIGN_IMPORTED = "campaign_imported", "Campaign imported"
    TURN_RESOLVE_NOW = "turn_resolve_now", "Turn resolved now"
    TURN_DRY_RUN = "turn_dry_run", "Dry run of the open turn"
    TURN_EXTENDED = "turn_extended", "Deadline extended"
    TURN_DEADLINE_SET = "turn_deadline_set", "Deadline set"
    TURN_RETRIED = "turn_retried", "Resolution retried"
    RULES_CHANGED = "rules_changed", "Rules changed"
    HOUSE_OPTIONS_CHANGED = "house_options_changed", "House options changed"
    SHIP_LAID_DOWN = "ship_laid_down", "Ship laid down"
    TREASURY_ADJUSTED = "treasury_adjusted", "Treasury adjusted"
    ORDER_ENTERED = "order_entered", "Order entered for a nation"
    ORDER_CHANGED = "order_changed", "Order changed for a nation"
    ORDER_REMOVED = "order_removed", "Order removed for a nation"
    ORDERS_REPLACED = "orders_replaced", "Orders replaced for a nation"
    READY_SET = "ready_set", "Readiness set for a nation"
    PLAYER_INVITED = "player_invited", "Player invited"
    PLAYER_JOINED = "player_joined", "Player joined"
    CO_GM_INVITED = "co_gm_invited", "Co-GM invited"
    CO_GM_JOINED = "co_gm_joined", "Co-GM joined"
    PLAYER_REPLACED = "player_replaced", "Player replaced"
    PLAYER_CHANGED = "player_changed", "Player changed"
    CAMPAIGN_EDITED = "campaign_edited", "Campaign details edited"
    NATION_EDITED = "nation_edited", "Nation details edited"
    NMR_DECIDED = "nmr_decided", "Missing orders decided"
    RECORD_ADDED = "record_added", "Record added in the admin"
    RECORD_CHANGED = "record_changed", "Record changed in the admin"
    RECORD_DELETED = "record_deleted", "Record deleted in the admin"
    CAMPAIGN_REVERTED = "campaign_reverted", "Campaign reverted"
    TURN_RERUN = "turn_rerun", "Turn re-run"
    BATTLE_REFOUGHT = "battle_refought", "Battle re-fought"
    DISPATCH_HIDDEN = "dispatch_hidden", "Dispatch hidden from players"
    NATION_MUTED = "nation_muted", "Nation's dispatches muted"
    NATION_UNMUTED = "nation_unmuted", "Nation's mute lifted early"
    ADMIRALTY_POSTED = "admiralty_posted", "Dispatch posted as The Admiralty"
    MAIL_RESENT = "mail_resent", "Mail sent again"
    ANNOUNCEMENT_SENT = "announcement_sent", "Announcement sent"
    INVITATION_REVOKED = "invitation_revoked", "Invitation revoked"
    INVITATION_RESENT = "invitation_resent", "Invitation sent again"
    TABLE_SENT = "table_sent", "Battle sent to the table"
    TABLE_ASKED = "table_asked", "Table battle asked for"
    TABLE_REQUEST_APPROVED = "table_request_approved", "Table request approved"
    TABLE_REQUEST_DECLINED = "table_request_declined", "Table request declined"
    TABLE_UNMARKED = "table_unmarked", "Table marking withdrawn"
    TABLE_DICE = "table_dice", "Table battle's dice rolled or entered"
    TABLE_RESULT_ENTERED = "table_result_entered", "Table result entered"
    TABLE_RESULT_CONFIRMED = "table_result_confirmed", "Table result confirmed"
    TABLE_RESULT_DISPUTED = "table_result_disputed", "Table result disputed"
    TABLE_RESULT_APPROVED = "table_result_approved", "Table result approved"
    TABLE_FOUGHT_AUTOMATICALLY = "table_fought_automatically", "Table battle fought by the dice instead"
    TABLE_POSTED = "table_posted", "Post on a table battle's thread"


class AuditEntry(models.Model):
    """Who did what to which campaign, when, with the state before and after and the reason given."""

    # No database constraint: the entry must survive its campaign's deletion (see the module's note).
    campaign = models.ForeignKey(
        "campaign.Campaign",
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        related_name="audit_entries",
    )
    campaign_slug = models.CharField(max_length=49, help_text="The campaign's slug when this was done.")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        null=True,
        blank=True,
        related_name="+",
        help_text="The account that did it; empty for the command line or an import.",
    )
    actor_name = models.CharField(max_length=150, help_text="Who did it, in words (kept if the account goes).")
    # Not auto_now_add: an imported campaign keeps its entries' original times.
    created_at = models.DateTimeField(default=timezone.now)
    turn = models.PositiveIntegerField(null=True, blank=True, help_text="The campaign's open turn at the time.")
    action = models.CharField(max_length=40)
    summary = models.CharField(max_length=300)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True, max_length=2000)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = "audit entry"
        verbose_name_plural = "audit log entries"
        indexes = [models.Index(fields=["campaign", "created_at"], name="audit_by_campaign_time")]
        constraints = [
            models.CheckConstraint(condition=~models.Q(action=""), name="audit_action_not_empty"),
            models.CheckConstraint(condition=~models.Q(summary=""), name="audit_summary_not_empty"),
        ]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.actor_name}: {self.summary}"

    @property
    def action_label(self) -> str:
        """The action for people ("Treasury adjusted"), also for actions this version does not know."""
        known = dict(AuditAction.choices)
        return str(known.get(self.action, self.action.replace("_", " ").capitalize()))
