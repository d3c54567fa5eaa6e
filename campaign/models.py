"""Campaigns, nations and their players, turns, the EP ledger and diplomatic relations.

Invariants the database keeps: a treasury never goes below zero, every ledger line moves a
treasury by a non-zero amount and records the balance after it, one relation per pair of nations,
one open turn per campaign.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MinValueValidator, RegexValidator
from django.db import models
from django.db.models import F, Q

from rules.ruleset import GRADE_CHOICES, NAVIES, NAVY_NAMES, SEASONS, Ruleset

slug_validator = RegexValidator(
    r"^[a-z0-9][a-z0-9-]{0,48}$",
    "Use 1–49 lower-case letters, digits and hyphens, starting with a letter or digit.",
)

NAVY_CHOICES = [(n, f"{n} — {NAVY_NAMES[n]}") for n in NAVIES]


class Season(models.TextChoices):
    WINTER = "winter", "Winter"
    SPRING = "spring", "Spring"
    SUMMER = "summer", "Summer"
    HIGH_SUMMER = "high_summer", "High Summer"
    AUTUMN = "autumn", "Autumn"


assert tuple(Season.values) == SEASONS


class Campaign(models.Model):
    class Status(models.TextChoices):
        SETUP = "setup", "Setting up"
        ACTIVE = "active", "Active"
        PAUSED = "paused", "Paused"
        ENDED = "ended", "Ended"

    slug = models.SlugField(max_length=49, unique=True, validators=[slug_validator])
    name = models.CharField(max_length=100)
    scenario = models.CharField(max_length=50, blank=True, help_text="Scenario it was loaded from.")
    gm = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="campaigns_run",
        verbose_name="game master",
    )
    start_year = models.PositiveSmallIntegerField()
    year = models.PositiveSmallIntegerField()
    season = models.CharField(max_length=12, choices=Season.choices)
    turn_number = models.PositiveIntegerField(default=1, help_text="The current (open) turn.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SETUP)
    seed = models.BigIntegerField(help_text="Master seed: every die of the campaign derives from it.")
    last_turn = models.PositiveIntegerField(null=True, blank=True, help_text="Optional last turn.")
    settings = models.JSONField(
        default=dict,
        blank=True,
        help_text="The campaign's ruleset: every RULES.md number by its key (rules.ruleset).",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=Q(seed__gte=0), name="campaign_seed_non_negative"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def ruleset(self) -> Ruleset:
        """The validated, immutable ruleset that rule code receives (RULES.md + this campaign's)."""
        return Ruleset.from_flat(self.settings)


class Nation(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="nations")
    code = models.CharField(
        max_length=3,
        validators=[RegexValidator(r"^[A-Z]{2,3}$", "Use 2–3 capital letters, e.g. GB.")],
        help_text="Unique in the campaign, e.g. GB.",
    )
    name = models.CharField(max_length=60)
    navy = models.CharField(max_length=2, choices=NAVY_CHOICES, help_text="Picks the nationality modifiers.")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="nations",
    )
    treasury = models.IntegerField(default=0, help_text="EP; changed only through the ledger.")
    base_income = models.IntegerField(default=0, validators=[MinValueValidator(0)])
    crew = models.CharField(max_length=1, choices=GRADE_CHOICES, default="D", help_text="Default crew grade.")
    unpaid_upkeep_turn = models.PositiveIntegerField(
        null=True, blank=True, help_text="Turn whose upkeep went unpaid: out of supply to the end of the next."
    )
    color = models.CharField(max_length=7, default="#777777", help_text="Map colour, e.g. #c00000.")

    class Meta:
        ordering = ["campaign", "code"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "code"], name="nation_code_unique_in_campaign"),
            models.UniqueConstraint(
                fields=["campaign", "player"],
                condition=Q(player__isnull=False),
                name="nation_one_per_player_in_campaign",
            ),
            models.CheckConstraint(condition=Q(treasury__gte=0), name="nation_treasury_never_negative"),
            models.CheckConstraint(condition=Q(base_income__gte=0), name="nation_base_income_non_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"


class LedgerEntry(models.Model):
    """One change of a treasury (RULES.md §2): the treasury always equals the sum of its lines."""

    class Kind(models.TextChoices):
        OPENING = "opening", "Opening balance"
        INCOME = "income", "Income"
        UPKEEP = "upkeep", "Upkeep"
        LAY_DOWN = "lay_down", "Ship laid down"
        RAISE = "raise", "Land unit raised"
        REPAIR = "repair", "Repair"
        ADJUSTMENT = "adjustment", "GM adjustment"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="ledger")
    nation = models.ForeignKey(Nation, on_delete=models.CASCADE, related_name="ledger")
    turn = models.PositiveIntegerField()
    kind = models.CharField(max_length=12, choices=Kind.choices)
    amount = models.IntegerField()
    reason = models.CharField(max_length=200)
    balance = models.IntegerField(help_text="Treasury after this line.")
    unpaid = models.PositiveIntegerField(default=0, help_text="Upkeep the treasury could not pay.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["nation", "id"]
        verbose_name_plural = "ledger entries"
        constraints = [
            models.CheckConstraint(condition=~Q(amount=0), name="ledger_no_zero_lines"),
            models.CheckConstraint(condition=Q(balance__gte=0), name="ledger_balance_never_negative"),
        ]
        indexes = [models.Index(fields=["nation", "turn"])]

    def __str__(self) -> str:
        return f"{self.nation.code} T{self.turn} {self.amount:+d} {self.reason}"


class Relation(models.Model):
    """The state between two nations; stored once per pair, lower nation id first."""

    class State(models.TextChoices):
        PEACE = "peace", "Peace"
        WAR = "war", "War"
        ALLIANCE = "alliance", "Alliance"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="relations")
    a = models.ForeignKey(Nation, on_delete=models.CASCADE, related_name="+")
    b = models.ForeignKey(Nation, on_delete=models.CASCADE, related_name="+")
    state = models.CharField(max_length=10, choices=State.choices, default=State.PEACE)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["a", "b"], name="relation_one_per_pair"),
            models.CheckConstraint(condition=Q(a__lt=F("b")), name="relation_ordered_pair"),
        ]

    def __str__(self) -> str:
        return f"{self.a.code}–{self.b.code}: {self.state}"


class Turn(models.Model):
    """One season of the campaign (RULES.md §3)."""

    class Status(models.TextChoices):
        OPEN = "open", "Open for orders"
        RESOLVING = "resolving", "Resolving"
        RESOLVED = "resolved", "Resolved"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="turns")
    number = models.PositiveIntegerField()
    year = models.PositiveSmallIntegerField()
    season = models.CharField(max_length=12, choices=Season.choices)
    deadline = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    opened_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    dice_log = models.JSONField(default=list, blank=True, help_text="Strategic dice of this turn (§3).")
    snapshot = models.JSONField(
        null=True, blank=True, help_text="The campaign's full export as this turn opened (export --turn)."
    )

    class Meta:
        ordering = ["campaign", "number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="turn_number_unique"),
            models.UniqueConstraint(
                fields=["campaign"],
                condition=Q(status__in=["open", "resolving"]),
                name="turn_one_unresolved_per_campaign",
            ),
        ]

    def __str__(self) -> str:
        return f"Turn {self.number} ({self.get_season_display()} {self.year})"
