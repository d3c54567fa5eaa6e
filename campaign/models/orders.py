"""A nation's orders for a turn (RULES.md §3), as stored; what they may say is ``campaign.orders``.

Kept beside ``campaign.models``, which imports this module so that Django registers the model and
``from campaign.models import Order`` keeps working (not in ``campaign.orders``, which imports
``campaign.models``); this module cannot import that one back, so its foreign keys are named by string.

Invariants the database keeps: one order per listed position of a nation in a turn, and at most one
order of each kind per fleet and turn.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q


class Order(models.Model):
    """One order of a nation for one turn (RULES.md §3). A draft until the deadline; ``body`` is the
    validated JSON the web form, the API and ``submit_orders`` all accept.
    """

    class Kind(models.TextChoices):
        MOVE = "move", "Move a fleet"
        POSTURE = "posture", "Set a fleet's posture"
        BATTLE_ORDERS = "battle_orders", "Set a fleet's battle standing orders"
        LINE_ORDER = "line_order", "Set a fleet's line order"
        RUN_GUNS = "run_guns", "Run the guns at a port"
        SALLY = "sally", "Sally against blockaders"
        FIRESHIPS = "fireships", "Fireship attack"
        LAY_DOWN = "lay_down", "Lay down a ship"
        RAISE = "raise", "Raise a land unit or siege train"
        REPAIR = "repair", "Repair a ship (standing)"
        LAY_UP = "lay_up", "Lay a ship up in ordinary"
        RECOMMISSION = "recommission", "Recommission a ship"
        TRANSFER = "transfer", "Move ships between fleets"
        FORM_FLEET = "form_fleet", "Form a new fleet"
        MERGE = "merge", "Merge fleets"
        APPOINT = "appoint", "Appoint an admiral"
        EMBARK = "embark", "Embark land units"
        LAND = "land", "Land land units"
        DECLARE_WAR = "declare_war", "Declare war"
        OFFER_PEACE = "offer_peace", "Offer peace"
        PROPOSE_ALLIANCE = "propose_alliance", "Propose or accept an alliance"
        LEAVE_ALLIANCE = "leave_alliance", "Leave an alliance"

    class Outcome(models.TextChoices):
        PENDING = "pending", "Pending"
        DONE = "done", "Carried out"
        SKIPPED = "skipped", "Skipped"

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="orders")
    turn = models.ForeignKey("campaign.Turn", on_delete=models.CASCADE, related_name="orders")
    nation = models.ForeignKey("campaign.Nation", on_delete=models.CASCADE, related_name="orders")
    position = models.PositiveIntegerField(help_text="Listed order within the nation's orders (§3).")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    body = models.JSONField()
    fleet = models.ForeignKey(
        "fleets.Fleet",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="orders",
        help_text="The fleet the order is about, if any.",
    )
    outcome = models.CharField(max_length=8, choices=Outcome.choices, default=Outcome.PENDING)
    outcome_note = models.CharField(max_length=300, blank=True)
    # Issue 26: after the deadline, in the "GM is asked" policy, only a GM enters a missing nation's
    # orders; each such order keeps who entered it and why, for the desk, the audit log and the report.
    late_by = models.CharField(
        max_length=150, blank=True, help_text="The GM who entered this order after the deadline (empty: on time)."
    )
    late_reason = models.CharField(
        max_length=300, blank=True, help_text="Why the GM entered this order after the deadline."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["turn", "nation", "position"]
        constraints = [
            models.UniqueConstraint(fields=["turn", "nation", "position"], name="order_position_unique"),
            models.UniqueConstraint(
                fields=["turn", "fleet", "kind"],
                condition=Q(fleet__isnull=False),
                name="order_one_of_a_kind_per_fleet_per_turn",
            ),
            # A late order names the GM and the reason, both or neither.
            models.CheckConstraint(
                condition=Q(late_by="", late_reason="") | (~Q(late_by="") & ~Q(late_reason="")),
                name="order_late_names_gm_and_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.nation.code} #{self.position}: {self.get_kind_display()}"
