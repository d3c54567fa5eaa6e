"""The GM's repairs of a campaign (issue 11): what a revert or a re-fought battle took off the record.

A revert turns the campaign back to the opening of an earlier turn. Everything that happened from then
on — the later turns with their orders and readiness, battles, phase records, reports, ledger lines and
mail — leaves the live tables, so the players' pages, the API and the exports (which read only the live
tables) no longer show it, and the database's constraints (one open turn per campaign, unique turn
numbers, one battle per place and turn) hold for the turns that are played again. It is not lost: each
revert keeps one :class:`CampaignRevert` row holding the campaign's full export as it stood just before
(``archive``), with the mail sent about the archived turns, for the GM to read in the admin.

Kept beside ``campaign.models`` (which imports this module), as the mail's records are.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q


class CampaignRevert(models.Model):
    """One revert of a campaign to the start of ``to_turn``, and what it archived."""

    class Kind(models.TextChoices):
        REVERT = "revert", "Reverted to the start of a turn"
        REFIGHT = "refight", "Reverted to re-fight a battle"

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="reverts")
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.REVERT)
    to_turn = models.PositiveIntegerField(help_text="The turn the campaign was turned back to (open again).")
    from_turn = models.PositiveIntegerField(help_text="The campaign's open turn before the revert.")
    reason = models.TextField(max_length=2000, help_text="The GM's reason, shown to the players.")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    actor_name = models.CharField(max_length=150, help_text="Who reverted, in words (kept if the account goes).")
    created_at = models.DateTimeField()
    battle = models.CharField(
        max_length=200, blank=True, help_text="For a re-fight: the battle re-fought, in words (its id, place, turn)."
    )
    battle_seed = models.BigIntegerField(null=True, blank=True, help_text="For a re-fight: the new seed.")
    archive = models.JSONField(help_text="The campaign's full export just before the revert, and its mail.")

    class Meta:
        ordering = ["campaign", "-created_at", "-pk"]
        verbose_name = "revert (archived turns)"
        verbose_name_plural = "reverts (archived turns)"
        constraints = [
            models.CheckConstraint(condition=Q(to_turn__gte=1), name="revert_to_turn_positive"),
            models.CheckConstraint(condition=Q(to_turn__lte=F("from_turn")), name="revert_goes_back"),
            models.CheckConstraint(condition=~Q(reason=""), name="revert_has_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.campaign} back to turn {self.to_turn} ({self.created_at:%Y-%m-%d %H:%M} UTC)"

    def archived(self, section: str) -> list[Any]:
        """The rows of one section of the archived export that the revert took off the record: those
        of the turns from ``to_turn`` on (ledger lines, battles, reports, orders, phases, readiness)."""
        rows = self.archive.get("document", {}).get(section, [])
        return [row for row in rows if isinstance(row, dict) and _turn_of(row) >= self.to_turn]


def _turn_of(row: dict[str, Any]) -> int:
    turn = row.get("turn", row.get("number", 0))
    return turn if isinstance(turn, int) else 0
