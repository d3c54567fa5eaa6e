"""An invitation to play a nation (or, with no nation, to help run the campaign as a co-GM, issue 29), sent
by mail with a signed link (issue 11; campaign.players.services).

The invited address gets an account at once (an existing account with that address, or a new one
without a password), so the invitation travels through the mail's deliveries like every other mail;
the nation is given only when the link is followed (and, for a new account, a password chosen).

Kept beside ``campaign.models`` (which imports this module), as the mail's records are.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Invitation(models.Model):
    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="invitations")
    nation = models.ForeignKey(
        "campaign.Nation",
        on_delete=models.CASCADE,
        related_name="invitations",
        null=True,
        blank=True,
        help_text="The nation offered; empty for an invitation to help run the campaign as a co-GM.",
    )
    email = models.EmailField(help_text="The address invited.")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="invitations",
        help_text="The account of that address (new ones have no password until the link is followed).",
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(
        null=True, blank=True, help_text="Revoked by the GM, or replaced by another invitation or player."
    )
    revoked = models.BooleanField(default=False, help_text="Withdrawn by the GM's revoke (its link says so).")
    sent_at = models.DateTimeField(
        null=True, blank=True, help_text="When its newest link was mailed (the link expires a set time after)."
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["nation"],
                condition=Q(accepted_at__isnull=True, withdrawn_at__isnull=True),
                name="invitation_one_open_per_nation",
            ),
            models.UniqueConstraint(
                fields=["campaign", "user"],
                condition=Q(nation__isnull=True, accepted_at__isnull=True, withdrawn_at__isnull=True),
                name="invitation_one_open_co_gm_per_account",
            ),
            models.CheckConstraint(
                condition=Q(revoked=False) | Q(withdrawn_at__isnull=False, accepted_at__isnull=True),
                name="invitation_revoked_is_withdrawn_unaccepted",
            ),
        ]

    def __str__(self) -> str:
        return f"Invitation of {self.email} to {self.nation_id}"

    @property
    def co_gm(self) -> bool:
        """An invitation to help run the campaign (no nation) rather than to play."""
        return self.nation_id is None

    @property
    def offered(self) -> str:
        """What the invitation offers, in words: "command France", or "help run the campaign as a co-GM"."""
        return f"command {self.nation.name}" if self.nation is not None else "help run the campaign as a co-GM"

    @property
    def open(self) -> bool:
        return self.accepted_at is None and self.withdrawn_at is None
