"""A campaign's turns and what each records: the phases done, each nation's readiness and its report.

A turn is one season (RULES.md §3): :class:`Season` lives here with it, and the campaign's own date
uses it too. Kept beside ``campaign.models``, which imports this module so that Django registers the
models and ``from campaign.models import Turn`` keeps working; this module cannot import that one
back, so its foreign keys are named by string.

Invariants the database keeps: unique turn numbers, one unresolved turn per campaign, each phase
recorded once per turn, one readiness and one report per nation and turn.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from rules.ruleset import SEASONS


class Season(models.TextChoices):
    WINTER = "winter", "Winter"
    SPRING = "spring", "Spring"
    SUMMER = "summer", "Summer"
    HIGH_SUMMER = "high_summer", "High Summer"
    AUTUMN = "autumn", "Autumn"


assert tuple(Season.values) == SEASONS


class Turn(models.Model):
    """One season of the campaign (RULES.md §3)."""

    class Status(models.TextChoices):
        OPEN = "open", "Open for orders"
        RESOLVING = "resolving", "Resolving"
        # Phases 1–4 done but for battles sent to the table (issue 15): phase 4 and the rest wait for
        # their approved results; ``deadline`` is then the table's deadline.
        TABLE = "table", "Waiting for a battle on the table"
        RESOLVED = "resolved", "Resolved"

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="turns")
    number = models.PositiveIntegerField()
    year = models.PositiveSmallIntegerField()
    season = models.CharField(max_length=12, choices=Season.choices)
    deadline = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    opened_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    dice_log = models.JSONField(default=list, blank=True, help_text="Strategic dice of this turn (§3).")
    # Resolution lease: the worker holding an unexpired lease is the only one resolving the turn; a
    # worker that dies lets the lease run out and the beat sweep hands the turn to another.
    lease_token = models.UUIDField(null=True, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0, help_text="Resolution attempts started.")
    error = models.TextField(blank=True, help_text="Last resolution error, shown to the GM.")
    snapshot = models.JSONField(
        null=True, blank=True, help_text="The campaign's full export as this turn opened (export --turn)."
    )
    # A GM's re-fight of a disputed battle (campaign.gm.repair): the seed given for one battle's dice,
    # by rules.dice.reseed_key; every other die of the turn keeps its derived seed.
    reseeds = models.JSONField(
        default=dict, blank=True, help_text="Seeds a GM gave to re-fight battles of this turn, by battle."
    )

    class Meta:
        ordering = ["campaign", "number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="turn_number_unique"),
            models.UniqueConstraint(
                fields=["campaign"],
                condition=Q(status__in=["open", "resolving", "table"]),
                name="turn_one_unresolved_per_campaign",
            ),
        ]

    def __str__(self) -> str:
        return f"Turn {self.number} ({self.get_season_display()} {self.year})"


class TurnPhase(models.Model):
    """A resolution phase (RULES.md §3) that has been completed: written in the phase's own transaction,
    so a crash either leaves no row (the phase re-runs from scratch with the same dice) or a complete one.
    """

    turn = models.ForeignKey("campaign.Turn", on_delete=models.CASCADE, related_name="phases")
    phase = models.PositiveSmallIntegerField()
    completed_at = models.DateTimeField(auto_now_add=True)
    summary = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["turn", "phase"]
        constraints = [
            models.UniqueConstraint(fields=["turn", "phase"], name="turnphase_once_per_turn"),
            models.CheckConstraint(condition=Q(phase__gte=1, phase__lte=10), name="turnphase_in_range"),
        ]

    def __str__(self) -> str:
        return f"{self.turn} phase {self.phase}"


class NationTurn(models.Model):
    """A nation's standing in one turn: ready or not, and whether it submitted any orders."""

    turn = models.ForeignKey("campaign.Turn", on_delete=models.CASCADE, related_name="nation_states")
    nation = models.ForeignKey("campaign.Nation", on_delete=models.CASCADE, related_name="turn_states")
    ready = models.BooleanField(default=False)
    ready_cleared = models.BooleanField(
        default=False,
        help_text="A change of orders after marking ready cleared it (issue 26); off again once marked ready.",
    )
    submitted_at = models.DateTimeField(null=True, blank=True, help_text="Last time orders were submitted.")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["turn", "nation"], name="nationturn_one_per_nation")]

    def __str__(self) -> str:
        return f"{self.nation.code} in {self.turn}"


class TurnReport(models.Model):
    """What one nation learned from a turn's resolution (fog of war applied when it was written)."""

    turn = models.ForeignKey("campaign.Turn", on_delete=models.CASCADE, related_name="reports")
    nation = models.ForeignKey("campaign.Nation", on_delete=models.CASCADE, related_name="reports")
    body = models.JSONField(default=dict)
    emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["turn", "nation"], name="turnreport_one_per_nation")]

    def __str__(self) -> str:
        return f"Report for {self.nation.code}, {self.turn}"
