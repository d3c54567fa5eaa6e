"""Campaigns, nations and their players, the EP ledger and diplomatic relations.

Invariants the database keeps: a treasury never goes below zero, every ledger line moves a
treasury by a non-zero amount and records the balance after it, one relation per pair of nations.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import F, Q

from campaign.models.dispatches import DISPATCH_OPTIONS, Press
from campaign.models.turns import Season
from ports.names import NameField, name_check
from rules.ruleset import GRADE_CHOICES, NAVIES, NAVY_NAMES, Ruleset

slug_validator = RegexValidator(
    r"^[a-z0-9][a-z0-9-]{0,48}$",
    "Use 1–49 lower-case letters, digits and hyphens, starting with a letter or digit.",
)

NAVY_CHOICES = [(n, f"{n} — {NAVY_NAMES[n]}") for n in NAVIES]


class NmrPolicy(models.TextChoices):
    """What a nation with a player but no orders at the deadline does (NMR: no move received)."""

    HOLD = "hold", "Standing orders hold"
    RETURN_TO_PORT = "return_to_port", "Fleets return to port"
    ASK_GM = "ask_gm", "The GM is asked (the turn waits)"


class Victory(models.TextChoices):
    """How a campaign's final standings are ranked (campaign.standings)."""

    HOLDINGS = "holdings", "Ports held, then ships of the line, then treasury"
    PORTS = "ports", "First to hold N ports (then ports held)"
    POINTS = "points", "Most victory points: each port's EP value plus 1 per ship of the line afloat"


#: Rulesets built by :attr:`Campaign.ruleset`, by the repr of their settings; at most this many.
_RULESETS: dict[str, Ruleset] = {}
_RULESETS_KEPT = 64


class Campaign(models.Model):
    class Status(models.TextChoices):
        SETUP = "setup", "Setting up"
        ACTIVE = "active", "Active"
        PAUSED = "paused", "Paused"
        ENDED = "ended", "Ended"

    slug = models.SlugField(max_length=49, unique=True, validators=[slug_validator])
    name = NameField(max_length=100)
    scenario = models.CharField(max_length=50, blank=True, help_text="Scenario it was loaded from.")
    gm = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="campaigns_run",
        verbose_name="game master",
        help_text="The campaign's owner GM.",
    )
    # Co-GMs run the campaign exactly as its owner does (campaign.permissions): pages, API and admin.
    co_gms = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="campaigns_co_run",
        verbose_name="co-GMs",
        help_text="Further game masters: they run the campaign like its owner.",
    )
    start_year = models.PositiveSmallIntegerField()
    year = models.PositiveSmallIntegerField()
    season = models.CharField(max_length=12, choices=Season.choices)
    turn_number = models.PositiveIntegerField(default=1, help_text="The current (open) turn.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SETUP)
    archived_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the GM archived the ended campaign: hidden from the active lists, read-only.",
    )
    seed = models.BigIntegerField(help_text="Master seed: every die of the campaign derives from it.")
    last_turn = models.PositiveIntegerField(null=True, blank=True, help_text="Optional last turn.")
    reminder_hours = models.PositiveSmallIntegerField(
        default=24,
        validators=[MinValueValidator(1)],
        help_text="Hours before a deadline that players without orders are reminded (once a turn).",
    )
    settings = models.JSONField(
        default=dict,
        blank=True,
        help_text="The campaign's ruleset: every RULES.md number by its key (rules.ruleset).",
    )
    show_readiness = models.BooleanField(
        default=True,
        help_text="House option: players see which nations are ready. Off: only the GM sees it.",
    )
    # House options of dispatches (issue 16); the dispatches page tells players what they mean.
    press = models.CharField(
        max_length=8,
        choices=Press.choices,
        default=DISPATCH_OPTIONS["press"],
        help_text="House option: which dispatches players may send. The GM may always post as The Admiralty.",
    )
    anonymous_press = models.BooleanField(
        default=False,
        help_text="House option: players see every other nation's dispatch as sent by “a foreign power”.",
    )
    gm_reads_dispatches = models.BooleanField(
        default=True,
        help_text=(
            "House option: the GM reads every dispatch (and sees who sent anonymous ones). Off (GM blind): "
            "the GM reads only public proclamations, conversations with The Admiralty and reported dispatches."
        ),
    )
    dispatch_delay_zones = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(0), MaxValueValidator(99)],
        help_text=(
            "House option, off when empty: a dispatch between two nations whose capitals lie more than this "
            "many sea zones apart arrives at the start of the next turn."
        ),
    )
    dispatch_max_length = models.PositiveSmallIntegerField(
        default=2000,
        validators=[MinValueValidator(1), MaxValueValidator(10000)],
        help_text="Longest dispatch, in characters (1–10000; default 2000).",
    )
    dispatches_per_hour = models.PositiveSmallIntegerField(
        default=10,
        validators=[MinValueValidator(1), MaxValueValidator(1000)],
        help_text="Rate limit: most dispatches one nation may send in any hour (1–1000; default 10).",
    )
    nmr_policy = models.CharField(
        "when orders are missing",
        max_length=16,
        choices=NmrPolicy.choices,
        default=NmrPolicy.HOLD,
        help_text="House option: what a nation with a player but no orders at the deadline does (no move received).",
    )
    victory = models.CharField(
        "victory condition",
        max_length=12,
        choices=Victory.choices,
        default=Victory.HOLDINGS,
        help_text="House rule: how the final standings are ranked when the campaign ends.",
    )
    victory_ports = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text="With “hold N ports”: the number of ports that wins; the campaign ends when a nation holds them.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            name_check("name", "campaign_name_has_no_control_characters"),
            models.CheckConstraint(condition=Q(seed__gte=0), name="campaign_seed_non_negative"),
            models.CheckConstraint(
                condition=Q(dispatch_max_length__gte=1, dispatch_max_length__lte=10000),
                name="campaign_dispatch_length_in_range",
            ),
            models.CheckConstraint(
                condition=Q(dispatches_per_hour__gte=1, dispatches_per_hour__lte=1000),
                name="campaign_dispatch_rate_in_range",
            ),
            models.CheckConstraint(
                condition=~Q(victory="ports") | Q(victory_ports__gte=1), name="campaign_ports_victory_has_a_number"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def ruleset(self) -> Ruleset:
        """The validated, immutable ruleset that rule code receives (RULES.md + this campaign's).

        Built once per distinct settings in a process (:data:`_RULESETS`): validating the ~250 keys
        cost more than most of the order checks and page headers that ask for it. A Ruleset is
        read-only through and through and a function of the settings alone, so sharing it changes
        nothing; the key is the settings' repr (it tells a list from a tuple, as validation does), so
        changed settings are a new key. Invalid settings raise here every time: nothing is kept."""
        key = repr(self.settings)
        ruleset = _RULESETS.get(key)
        if ruleset is None:
            ruleset = Ruleset.from_flat(self.settings)
            if len(_RULESETS) >= _RULESETS_KEPT:  # bounded: a long-lived worker sees many campaigns
                _RULESETS.clear()
            _RULESETS[key] = ruleset
        return ruleset


class Nation(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="nations")
    code = models.CharField(
        max_length=3,
        validators=[RegexValidator(r"^[A-Z]{2,3}$", "Use 2–3 capital letters, e.g. GB.")],
        help_text="Unique in the campaign, e.g. GB.",
    )
    name = NameField(max_length=60)
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
    capital = models.ForeignKey(
        "ports.Port",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The nation's chief port (set in the scenario): dispatch delays are measured between capitals.",
    )

    class Meta:
        ordering = ["campaign", "code"]
        constraints = [
            name_check("name", "nation_name_has_no_control_characters"),
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

    def clean(self) -> None:
        """A capital is one of this campaign's ports (forms call this; the scenario loader checks it too)."""
        if self.capital_id is not None and self.capital is not None and self.capital.campaign_id != self.campaign_id:
            raise ValidationError(
                {"capital": f"{self.capital.name} is a port of another campaign: choose one of this campaign's ports."}
            )


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


class DiplomaticOffer(models.Model):
    """An offer of peace or alliance waiting for the other nation's answer (RULES.md §10)."""

    class Kind(models.TextChoices):
        PEACE = "peace", "Peace"
        ALLIANCE = "alliance", "Alliance"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="offers")
    from_nation = models.ForeignKey(Nation, on_delete=models.CASCADE, related_name="offers_made")
    to_nation = models.ForeignKey(Nation, on_delete=models.CASCADE, related_name="offers_received")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    turn = models.PositiveIntegerField(help_text="Turn the offer was made; it can be taken up in the next.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["from_nation", "to_nation", "kind"], name="offer_once_per_pair_and_kind"),
            models.CheckConstraint(condition=~Q(from_nation=F("to_nation")), name="offer_not_to_self"),
        ]

    def __str__(self) -> str:
        return f"{self.from_nation.code} offers {self.kind} to {self.to_nation.code}"
