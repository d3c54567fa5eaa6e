"""Sea zones and their adjacency, ports, and land units (RULES.md §4, §7)."""

from __future__ import annotations

from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q

from rules.ruleset import GRADE_CHOICES

key_validator = RegexValidator(
    r"^[a-z0-9][a-z0-9-]{0,48}$",
    "Use 1–49 lower-case letters, digits and hyphens, starting with a letter or digit.",
)


def lon_lat_constraints(prefix: str) -> list[models.CheckConstraint]:
    """A place has both coordinates or neither, each within the globe."""
    return [
        models.CheckConstraint(
            condition=Q(lon__isnull=True, lat__isnull=True) | Q(lon__isnull=False, lat__isnull=False),
            name=f"{prefix}_lon_lat_both_or_neither",
        ),
        models.CheckConstraint(
            condition=Q(lon__isnull=True) | Q(lon__gte=-180.0, lon__lte=180.0), name=f"{prefix}_lon_in_range"
        ),
        models.CheckConstraint(
            condition=Q(lat__isnull=True) | Q(lat__gte=-90.0, lat__lte=90.0), name=f"{prefix}_lat_in_range"
        ),
    ]


class ZoneType(models.TextChoices):
    """RULES.md §4 sighting: the zone type sets the d6 needed."""

    NARROWS = "narrows", "Narrows"
    COASTAL = "coastal", "Coastal"
    OPEN = "open", "Open sea"
    OCEAN = "ocean", "Ocean"


class SeaZone(models.Model):
    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="sea_zones")
    key = models.CharField(max_length=49, validators=[key_validator])
    name = models.CharField(max_length=80)
    type = models.CharField(max_length=8, choices=ZoneType.choices)
    x = models.PositiveSmallIntegerField(help_text="Map x in the abstract 1000×700 map (without lon/lat).")
    y = models.PositiveSmallIntegerField(help_text="Map y in the abstract 1000×700 map (without lon/lat).")
    # Where the zone's label stands over the sea, in degrees (WGS84); the map is drawn in a real
    # projection when every zone has them. Nullable: campaigns made before coordinates have none.
    lon = models.FloatField(null=True, blank=True, help_text="Longitude of the label, degrees east.")
    lat = models.FloatField(null=True, blank=True, help_text="Latitude of the label, degrees north.")
    adjacent = models.ManyToManyField("self", symmetrical=True, blank=True)

    class Meta:
        ordering = ["campaign", "key"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "key"], name="seazone_key_unique_in_campaign"),
            models.UniqueConstraint(fields=["campaign", "name"], name="seazone_name_unique_in_campaign"),
            *lon_lat_constraints("seazone"),
        ]

    def __str__(self) -> str:
        return self.name


class Port(models.Model):
    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="ports")
    key = models.CharField(max_length=49, validators=[key_validator])
    name = models.CharField(max_length=80)
    sea_zone = models.ForeignKey(SeaZone, on_delete=models.RESTRICT, related_name="ports")
    owner = models.ForeignKey("campaign.Nation", on_delete=models.RESTRICT, related_name="ports")
    x = models.PositiveSmallIntegerField(default=0)
    y = models.PositiveSmallIntegerField(default=0)
    lon = models.FloatField(null=True, blank=True, help_text="Longitude of the town, degrees east.")
    lat = models.FloatField(null=True, blank=True, help_text="Latitude of the town, degrees north.")
    fortification = models.PositiveSmallIntegerField(help_text="Fortification factor (FF).")
    capacity = models.PositiveSmallIntegerField(help_text="Holds capacity × 10 ships.")
    ep_value = models.PositiveSmallIntegerField(help_text="EP of income per turn.")
    dockyard = models.BooleanField(default=False)
    gibraltar = models.BooleanField(default=False, help_text="The Rock: ×10 barrage, ×5 garrison, ×2 forts.")
    batteries = models.PositiveSmallIntegerField(default=0, help_text="Artillery batteries.")
    commander = models.CharField(
        max_length=1, choices=GRADE_CHOICES, blank=True, help_text="Garrison commander's grade, if any."
    )
    # RULES.md §7: a port taken in turn T changes owner after phase 9 of T; it settles in T+1.
    taken_turn = models.PositiveIntegerField(null=True, blank=True, help_text="Turn it was last taken.")
    captor = models.ForeignKey(
        "campaign.Nation",
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="+",
        help_text="Taken this turn by this nation; it becomes the owner after phase 9.",
    )
    siege_turns = models.PositiveSmallIntegerField(
        default=0, help_text="Consecutive turns this port ended phase 6 besieged."
    )

    class Meta:
        ordering = ["campaign", "key"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "key"], name="port_key_unique_in_campaign"),
            models.UniqueConstraint(fields=["campaign", "name"], name="port_name_unique_in_campaign"),
            *lon_lat_constraints("port"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def coastal_forts(self) -> int:
        """RULES.md §6/§7: coastal forts = FF (Gibraltar 2 × FF) [S]; see the ruleset for ×2."""
        return self.fortification


class LandUnit(models.Model):
    """A generic land unit (RULES.md §7): in a garrison, ashore at a port, or embarked."""

    class State(models.TextChoices):
        GARRISON = "garrison", "In garrison"
        ASHORE = "ashore", "Ashore (besieging or guest)"
        EMBARKED = "embarked", "Embarked"
        LOST = "lost", "Lost"

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="land_units")
    nation = models.ForeignKey("campaign.Nation", on_delete=models.CASCADE, related_name="land_units")
    siege_train = models.BooleanField(default=False)
    state = models.CharField(max_length=10, choices=State.choices, default=State.GARRISON)
    port = models.ForeignKey(Port, on_delete=models.RESTRICT, null=True, blank=True, related_name="land_units")
    out_of_supply_turns = models.PositiveSmallIntegerField(default=0)
    raised_turn = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["campaign", "id"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(state__in=["garrison", "ashore"], port__isnull=False))
                | Q(state__in=["embarked", "lost"], port__isnull=True),
                name="landunit_port_matches_state",
            ),
        ]

    def __str__(self) -> str:
        kind = "siege train" if self.siege_train else "land unit"
        return f"{self.nation.code} {kind} #{self.pk}"
