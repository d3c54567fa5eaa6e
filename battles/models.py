"""Battle records with their full reports and dice logs (RULES.md §5, §6, §9)."""

from __future__ import annotations

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
                condition=Q(status="pending", fought_at__isnull=True) | Q(status="fought", fought_at__isnull=False),
                name="engagement_fought_has_a_time",
            ),
        ]
        indexes = [models.Index(fields=["turn", "status"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} at {self.place} #{self.sequence} (turn {self.turn_id})"
