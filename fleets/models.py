"""Admirals, fleets and ships (RULES.md §0, §1, §4)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from ports.names import NameField, name_check
from rules.ruleset import GRADE_CHOICES, SHIP_CLASSES


class ShipClass(models.TextChoices):
    """RULES.md §1 classes; values are CONTRACT.md's class names."""

    FOUR_DECKER = "four-decker", "Four-decker"
    FIRST = "1st", "1st rate"
    SECOND = "2nd", "2nd rate"
    THIRD_74 = "3rd-74", "3rd rate (74/80)"
    THIRD_64 = "3rd-64", "3rd rate (64)"
    FOURTH = "4th", "4th rate (50–60)"
    HEAVY_FRIGATE = "heavy-frigate", "Heavy frigate"
    FRIGATE = "frigate", "Frigate"
    SLOOP = "sloop", "Sloop"
    BRIG = "brig", "Brig / cutter"
    FIRESHIP = "fireship", "Fireship"
    TRANSPORT = "transport", "Transport"


assert tuple(ShipClass.values) == SHIP_CLASSES


class Admiral(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        LOST = "lost", "Lost"

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="admirals")
    nation = models.ForeignKey("campaign.Nation", on_delete=models.CASCADE, related_name="admirals")
    name = models.CharField(max_length=80)
    grade = models.CharField(max_length=1, choices=GRADE_CHOICES)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.ACTIVE)
    port = models.ForeignKey(
        "ports.Port",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="admirals_waiting",
        help_text="Where an unassigned admiral waits (RULES.md §0).",
    )

    class Meta:
        ordering = ["campaign", "nation", "name"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="admiral_name_unique_in_campaign"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.grade})"


class Fleet(models.Model):
    class Posture(models.TextChoices):
        SEEK = "seek", "Seek battle"
        AVOID = "avoid", "Avoid battle"
        BLOCKADE = "blockade", "Blockade"

    class AfterBattle(models.TextChoices):
        """Standing order after a day in which both sides held (RULES.md §5)."""

        AUTO = "auto", "Evade if our losses are higher"
        CONTINUE = "continue", "Continue the battle"
        EVADE = "evade", "Evade"

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="fleets")
    nation = models.ForeignKey("campaign.Nation", on_delete=models.CASCADE, related_name="fleets")
    name = NameField(max_length=80)
    admiral = models.OneToOneField(Admiral, on_delete=models.SET_NULL, null=True, blank=True, related_name="fleet")
    sea_zone = models.ForeignKey("ports.SeaZone", on_delete=models.RESTRICT, related_name="fleets")
    port = models.ForeignKey(
        "ports.Port",
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="fleets",
        help_text="Empty: at sea in the zone.",
    )
    crew = models.CharField(max_length=1, choices=GRADE_CHOICES, help_text="Grade given to new ships.")
    posture = models.CharField(max_length=10, choices=Posture.choices, default=Posture.SEEK)
    blockade_port = models.ForeignKey(
        "ports.Port", on_delete=models.RESTRICT, null=True, blank=True, related_name="blockaders"
    )
    after_battle = models.CharField(max_length=10, choices=AfterBattle.choices, default=AfterBattle.AUTO)
    retreat_port = models.ForeignKey("ports.Port", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    retreat_zone = models.ForeignKey(
        "ports.SeaZone", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # RULES.md §8 supply: "it left an own or allied port this turn or in one of the two previous turns".
    left_port_turn = models.PositiveIntegerField(null=True, blank=True)
    in_supply = models.BooleanField(default=True)
    out_of_supply_turns = models.PositiveSmallIntegerField(default=0)
    created_turn = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["campaign", "nation", "name"]
        constraints = [
            name_check("name", "fleet_name_has_no_control_characters"),
            models.UniqueConstraint(fields=["campaign", "nation", "name"], name="fleet_name_unique_per_nation"),
            models.CheckConstraint(
                condition=Q(posture="blockade", blockade_port__isnull=False)
                | (~Q(posture="blockade") & Q(blockade_port__isnull=True)),
                name="fleet_blockade_names_a_port",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.nation.code})"


class Ship(models.Model):
    class Condition(models.TextChoices):
        READY = "ready", "Ready"
        DAMAGED = "damaged", "Damaged"
        DISABLED = "disabled", "Disabled"
        SUNK = "sunk", "Sunk"
        BUILDING = "building", "Building"
        EXPENDED = "expended", "Expended (spent fireship)"

    AFLOAT = ("ready", "damaged", "disabled")
    GONE = ("sunk", "expended")

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="ships")
    name = NameField(max_length=80)
    ship_class = models.CharField(max_length=14, choices=ShipClass.choices)
    nation = models.ForeignKey("campaign.Nation", on_delete=models.CASCADE, related_name="ships")
    original_nation = models.ForeignKey("campaign.Nation", on_delete=models.CASCADE, related_name="+")
    condition = models.CharField(max_length=10, choices=Condition.choices, default=Condition.READY)
    in_ordinary = models.BooleanField(default=False)
    crew = models.CharField(max_length=1, choices=GRADE_CHOICES)
    # RESTRICT, not SET_NULL: an afloat ship must be in a fleet (constraint), so a fleet with ships
    # cannot be deleted until they are moved; deleting the whole campaign still cascades.
    fleet = models.ForeignKey(Fleet, on_delete=models.RESTRICT, null=True, blank=True, related_name="ships")
    building_port = models.ForeignKey(
        "ports.Port", on_delete=models.RESTRICT, null=True, blank=True, related_name="keels"
    )
    building_turns_left = models.PositiveSmallIntegerField(default=0)
    line_position = models.PositiveIntegerField(default=0, help_text="Order within its fleet's line.")
    cargo = models.OneToOneField(
        "ports.LandUnit", on_delete=models.SET_NULL, null=True, blank=True, related_name="transport"
    )
    # RULES.md §2: a disabled ship repaired in turn T is damaged, and ready in phase 8 of T+1 "if it is
    # still there and the port is not blockaded": where and when that finishing is due.
    repair_port = models.ForeignKey(
        "ports.Port", on_delete=models.SET_NULL, null=True, blank=True, related_name="+", help_text="Repair yard."
    )
    repair_ready_turn = models.PositiveIntegerField(null=True, blank=True, help_text="Turn its repair completes.")
    laid_down_turn = models.PositiveIntegerField(null=True, blank=True)
    lost_turn = models.PositiveIntegerField(null=True, blank=True, help_text="Turn it was sunk or expended.")
    source = models.CharField(max_length=200, blank=True, help_text="Historical source of the entry.")

    class Meta:
        ordering = ["campaign", "nation", "id"]
        constraints = [
            name_check("name", "ship_name_has_no_control_characters"),
            models.UniqueConstraint(
                fields=["campaign", "original_nation", "name"],
                condition=~Q(condition__in=["sunk", "expended"]),
                name="ship_name_unique_per_navy_afloat",
            ),
            models.CheckConstraint(
                condition=Q(
                    condition="building", building_turns_left__gt=0, building_port__isnull=False, fleet__isnull=True
                )
                | (~Q(condition="building") & Q(building_turns_left=0, building_port__isnull=True)),
                name="ship_building_has_yard_and_turns",
            ),
            models.CheckConstraint(
                condition=~Q(condition__in=["ready", "damaged", "disabled"]) | Q(fleet__isnull=False),
                name="ship_afloat_is_in_a_fleet",
            ),
            models.CheckConstraint(
                condition=~Q(condition__in=["sunk", "expended"]) | Q(fleet__isnull=True),
                name="ship_lost_leaves_its_fleet",
            ),
            models.CheckConstraint(
                condition=Q(ship_class="transport") | Q(cargo__isnull=True), name="ship_only_transports_carry"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_ship_class_display()}, {self.nation.code})"

    @property
    def captured(self) -> bool:
        """RULES.md §1: captured while its owner differs from its original nation."""
        return self.nation_id != self.original_nation_id


class Blockade(models.Model):
    """A fleet blockading a port in one turn (RULES.md §4), established at the end of phase 4.

    It counts against every nation at war with the fleet's that owns the port or has ships or land
    units in it, for running the guns, fireships, sieges, supply, repairs and income. ``lifted``: a
    storm in phase 7 hit at least half the fleet, which lifts it for supply, repairs and income.
    """

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="blockades")
    turn = models.PositiveIntegerField()
    port = models.ForeignKey("ports.Port", on_delete=models.CASCADE, related_name="blockades")
    fleet = models.ForeignKey(Fleet, on_delete=models.CASCADE, related_name="blockades")
    lifted = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["turn", "port", "fleet"], name="blockade_once_per_turn")]

    def __str__(self) -> str:
        return f"{self.fleet} blockades {self.port} (turn {self.turn})"
