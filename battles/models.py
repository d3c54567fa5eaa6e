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
