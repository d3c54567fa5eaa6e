"""Battle records with their full reports and dice logs (RULES.md §5, §6, §9)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Battle(models.Model):
    class Kind(models.TextChoices):
        FLEET_ACTION = "fleet_action", "Fleet action"
        RUNNING_THE_GUNS = "running_the_guns", "Running the guns"
        GARRISON_GUNS = "garrison_guns", "Garrison guns"
        FIRESHIPS = "fireships", "Fireship attack"

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="battles")
    turn = models.ForeignKey("campaign.Turn", on_delete=models.CASCADE, related_name="battles")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    sea_zone = models.ForeignKey("ports.SeaZone", on_delete=models.RESTRICT, related_name="battles")
    port = models.ForeignKey("ports.Port", on_delete=models.RESTRICT, null=True, blank=True, related_name="battles")
    # Several battles can happen in one place in one turn (RULES.md §4 "a zone may see several
    # battles"); (turn, kind, place, sequence) identifies one, so a re-run cannot record it twice.
    place = models.CharField(max_length=60, help_text="Zone or port key where it was fought.")
    sequence = models.PositiveSmallIntegerField(default=1)
    seed = models.BigIntegerField(null=True, blank=True)
    sides = models.JSONField(default=list, help_text='[{"name", "nations": [codes]}, ...] — side 0 first.')
    winner = models.SmallIntegerField(null=True, blank=True, help_text="0, 1 or empty for no winner.")
    report = models.JSONField(default=dict, help_text="The engine's report (CONTRACT.md), dice log included.")
    # Fog of war fixed in time (RULES.md §3): who fought in it or was allied to a side when it was
    # fought. An alliance made later does not open it.
    seen_by = models.JSONField(
        default=list, blank=True, help_text="Nation codes that fought or were allied to a side at the time."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["turn", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["turn", "kind", "place", "sequence"],
                name="battle_unique_per_place_and_turn",
            ),
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(winner__in=[0, 1]), name="battle_winner_is_a_side"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} in {self.sea_zone} (turn {self.turn.number})"


class Engagement(models.Model):
    """A fight that phase 3 found and phase 4 must settle (RULES.md §3 phases 3–4, §4).

    Phase 3 records one row per contact that leads to a battle (or to a capture without one), and
    per sally, besieged-port engagement and pair of hostile fleets in one port; phase 4 fights them,
    zone by zone, possibly one Celery task per zone. ``sequence`` orders the engagements of a zone
    (they are fought one after another); a row is marked ``fought`` in the same transaction as its
    :class:`Battle` and every ship change, so a battle is never fought twice and never lost.

    ``sides`` (side 0 first: the side whose lead nation has the lower code)::

        [{"nations": ["FR", "ES"], "fleets": [12, 15], "lead_fleet": 12, "seeks": true,
          "sighted": true | false | null, "in_port": false,
          "retreat": {"12": {"port": "cadiz" | null, "zone": "biscay" | null}}}, {...}]

    ``context`` carries what the kind needs: ``sally_side`` and ``port`` (sally), ``in_port_side``
    (besieged port), ``guns_side`` (hostile fleets in one port), ``captured_side`` (capture).
    ``result`` is written when fought: outcome, winner, each fleet's outcome, the events for the
    nations' reports and the strategic dice (gauge, pursuit and besieged-port contact rolls).
    """

    class Kind(models.TextChoices):
        AT_SEA = "at_sea", "Fleet action at sea"
        CAPTURE = "capture", "Capture without a battle"
        SALLY = "sally", "Sally against blockaders"
        BESIEGED_PORT = "besieged_port", "Besieged-port engagement"
        IN_PORT = "in_port", "Hostile fleets in one port"

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        # Sent to the table (issue 15): found and held back for the group's miniatures; the zone's
        # later engagements wait behind it; fought when its approved result is applied.
        AT_TABLE = "at_table", "At the table"
        FOUGHT = "fought", "Fought"

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="engagements")
    turn = models.ForeignKey("campaign.Turn", on_delete=models.CASCADE, related_name="engagements")
    sea_zone = models.ForeignKey("ports.SeaZone", on_delete=models.RESTRICT, related_name="engagements")
    port = models.ForeignKey("ports.Port", on_delete=models.RESTRICT, null=True, blank=True, related_name="engagements")
    place = models.CharField(max_length=60, help_text="Zone key, or port key for a fight at or in a port.")
    sequence = models.PositiveSmallIntegerField(help_text="Order within the zone's engagements this turn.")
    kind = models.CharField(max_length=14, choices=Kind.choices)
    step = models.PositiveSmallIntegerField(default=0, help_text="Movement step of the contact; 0: phase 4's own.")
    sides = models.JSONField(default=list)
    interceptor = models.SmallIntegerField(null=True, blank=True, help_text="The side that intercepted, if any.")
    context = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    dispatched_at = models.DateTimeField(null=True, blank=True, help_text="Handed to a battle task (fan-out).")
    fought_at = models.DateTimeField(null=True, blank=True)
    fought_by = models.CharField(max_length=200, blank=True, help_text="Task id and worker, or 'inline'.")
    battle = models.OneToOneField(Battle, on_delete=models.SET_NULL, null=True, blank=True, related_name="engagement")
    result = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["turn", "sea_zone", "sequence"]
        constraints = [
            models.UniqueConstraint(
                fields=["turn", "sea_zone", "sequence"], name="engagement_once_per_zone_and_sequence"
            ),
            models.CheckConstraint(
                condition=Q(interceptor__isnull=True) | Q(interceptor__in=[0, 1]),
                name="engagement_interceptor_is_a_side",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "at_table"], fought_at__isnull=True)
                | Q(status="fought", fought_at__isnull=False),
                name="engagement_fought_has_a_time",
            ),
        ]
        indexes = [models.Index(fields=["turn", "status"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} at {self.place} #{self.sequence} (turn {self.turn_id})"


class TabletopBattle(models.Model):
    """A battle fought on the table with miniatures instead of by the server's dice (issue 15).

    Marked before the turn resolves for a place — a contested sea zone (its key) or a port (its key,
    for a port engagement: a sally, a besieged-port engagement, hostile fleets in one port) — by the
    GM, by a player's request the GM approves, or by the house rule ``table.above_ships`` when phase 4
    finds the battle. Phase 4 then holds back the first battle fought there (its
    :class:`Engagement` goes ``at_table``) and the turn waits for it; its result is entered on the
    players' site or the API, confirmed by both sides (or entered by the GM alone), approved by the
    GM and applied through :mod:`battles.results` exactly as the dice's would be.

    ``result`` (as entered)::

        {"ships": [{"ship": 12, "fate": "intact|damaged|disabled|sunk|captured",
                    "captured_by": "GB" | null, "taken_in": "ready|damaged|disabled" | null}],
         "admirals_lost": [3], "held_field": 0 | 1 | null}

    ``confirmed`` lists the sides (0, 1) whose players confirmed that result; ``pack`` keeps the dice
    the server rolled for the battle pack at the group's request (the same canonical log as a
    battle's) and the group's set-up choices.
    """

    class Kind(models.TextChoices):
        BATTLE = "battle", "Battle"
        STORMING = "storming", "Storming of a besieged port"

    class Origin(models.TextChoices):
        GM = "gm", "Sent by the game master"
        PLAYER = "player", "Asked for by a player"
        HOUSE_RULE = "house_rule", "House rule: a large battle"

    class Status(models.TextChoices):
        REQUESTED = "requested", "Asked for, awaiting the game master"
        DECLINED = "declined", "Declined by the game master"
        MARKED = "marked", "To the table when the turn resolves"
        WAITING = "waiting", "At the table: waiting for the result"
        ENTERED = "entered", "Result entered, awaiting the other side"
        DISPUTED = "disputed", "Result disputed: the game master decides"
        CONFIRMED = "confirmed", "Result confirmed, awaiting the game master"
        APPLIED = "applied", "Result approved and applied"
        AUTOMATIC = "automatic", "Fought by the server's dice instead"
        NO_BATTLE = "no_battle", "No battle there this turn"

    #: Statuses of a battle held at the table: its turn waits for it.
    OUTSTANDING = (Status.WAITING, Status.ENTERED, Status.DISPUTED, Status.CONFIRMED)
    #: Statuses before the turn resolves.
    BEFORE = (Status.REQUESTED, Status.MARKED)

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="tabletop_battles")
    turn = models.ForeignKey("campaign.Turn", on_delete=models.CASCADE, related_name="tabletop_battles")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.BATTLE)
    place = models.CharField(max_length=60, help_text="Zone key, or port key for a port engagement or a storming.")
    sea_zone = models.ForeignKey("ports.SeaZone", on_delete=models.RESTRICT, related_name="tabletop_battles")
    port = models.ForeignKey(
        "ports.Port", on_delete=models.RESTRICT, null=True, blank=True, related_name="tabletop_battles"
    )
    origin = models.CharField(max_length=10, choices=Origin.choices)
    requested_by = models.ForeignKey(
        "campaign.Nation",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The nation whose player asked for it.",
    )
    status = models.CharField(max_length=10, choices=Status.choices)
    engagement = models.OneToOneField(
        Engagement, on_delete=models.SET_NULL, null=True, blank=True, related_name="tabletop"
    )
    result = models.JSONField(default=dict, blank=True)
    entered_by = models.CharField(max_length=150, blank=True, help_text="Who entered the result last.")
    confirmed = models.JSONField(default=list, blank=True, help_text="Sides (0, 1) that confirmed the result.")
    dispute = models.TextField(blank=True, help_text="Why a side disputes the entered result.")
    pack = models.JSONField(default=dict, blank=True, help_text="Dice rolled for the pack and set-up choices.")
    note = models.CharField(max_length=300, blank=True)
    record = models.TextField(
        blank=True,
        help_text="The pack's page as it stood when the GM approved the result (self-contained HTML), "
        "kept as the battle's record once the battle no longer waits at the table.",
    )
    approved_at = models.DateTimeField(null=True, blank=True, help_text="When the GM approved the result.")
    history = models.JSONField(
        default=list,
        blank=True,
        help_text='What happened to the result, in order: [{"at", "act", "side", "who", "by"}] — who entered, '
        "confirmed or disputed it (side 0/1; null: the GM) and what the GM decided.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["turn", "place"]
        constraints = [
            # A port may see both a battle and a storming at the table in one turn.
            models.UniqueConstraint(fields=["turn", "kind", "place"], name="tabletop_once_per_kind_place_and_turn"),
            models.CheckConstraint(
                condition=Q(kind="storming")
                | ~Q(status__in=["waiting", "entered", "disputed", "confirmed", "applied"])
                | Q(engagement__isnull=False),
                name="tabletop_at_table_has_its_engagement",
            ),
            # A storming is of a port (its place is the port's key), and no sea engagement is its.
            models.CheckConstraint(
                condition=Q(kind="battle") | Q(kind="storming", port__isnull=False, engagement__isnull=True),
                name="tabletop_storming_is_of_a_port",
            ),
            models.CheckConstraint(
                condition=~Q(origin="player") | Q(requested_by__isnull=False),
                name="tabletop_player_request_names_the_nation",
            ),
        ]

    def __str__(self) -> str:
        what = "Storming" if self.is_storming else "Table battle"
        return f"{what} at {self.place} (turn {self.turn_id}): {self.get_status_display()}"

    @property
    def is_storming(self) -> bool:
        return self.kind == self.Kind.STORMING

    def side_nations(self) -> list[list[str]]:
        """The nation codes of each side (side 0 first) once the turn found the fight; [] before."""
        if self.is_storming:
            siege = (self.pack or {}).get("siege") or {}
            return [list(side) for side in siege.get("sides", [])]
        if self.engagement is not None:
            return [list(side.get("nations", [])) for side in self.engagement.sides]
        return []


class TablePost(models.Model):
    """One post of a table battle's thread (issue 29): a side's player or the GM says why a result is
    wrong, answers, or settles it. Each post is mailed to the battle's other people."""

    table = models.ForeignKey(TabletopBattle, on_delete=models.CASCADE, related_name="posts")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    author_name = models.CharField(max_length=150, help_text="The account's name when it posted.")
    side = models.SmallIntegerField(null=True, blank=True, help_text="The poster's side (0, 1); empty: the GM.")
    body = models.TextField(max_length=2000)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.CheckConstraint(condition=~Q(body=""), name="table_post_says_something"),
            models.CheckConstraint(condition=Q(side__isnull=True) | Q(side__in=[0, 1]), name="table_post_side_0_or_1"),
        ]

    def __str__(self) -> str:
        return f"{self.author_name} on table battle {self.table_id}"


class PackPdf(models.Model):
    """A battle pack printed to PDF by a queued task (issue 27: Chromium never runs inside a request).

    One row per pack as it reads (``html_sha256`` of the self-contained page): asking again for the same
    pack while it is being printed finds this row and starts no second Chromium; once ``ready`` the
    stored PDF is served. ``queued`` → ``printing`` (claimed by a conditional UPDATE; a claim older than
    the lease is taken over) → ``ready`` or ``failed`` (the error kept, shown to whoever asks)."""

    class State(models.TextChoices):
        QUEUED = "queued", "Waiting to be printed"
        PRINTING = "printing", "Being printed"
        READY = "ready", "Printed"
        FAILED = "failed", "Could not be printed"

    table = models.ForeignKey(TabletopBattle, on_delete=models.CASCADE, related_name="pdfs")
    html_sha256 = models.CharField(max_length=64, help_text="The printed page's SHA-256: the pack as it read.")
    html = models.TextField(help_text="The self-contained page to print.")
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    pdf = models.BinaryField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    printed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "html_sha256"], name="pack_pdf_once_per_pack_text"),
            models.CheckConstraint(condition=~Q(state="ready") | Q(pdf__isnull=False), name="pack_pdf_ready_has_pdf"),
        ]
        indexes = [models.Index(fields=["requested_by", "created_at"], name="pack_pdf_by_user_recent")]

    def __str__(self) -> str:
        return f"PDF of table battle {self.table_id}: {self.get_state_display()}"
