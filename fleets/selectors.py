"""Read-side queries of the fleets app."""

from __future__ import annotations

from django.db.models import Count, F, Q

from fleets.models import Ship
from rules.construction import NavyCounts
from rules.ruleset import BIG_CLASSES, SOL_CLASSES


def navy_counts(*, nation_id: int, exclude_ship_id: int | None = None) -> NavyCounts:
    """RULES.md §1 counts for the quota and four-decker checks, in one query.

    sol: SOL owned in any condition but sunk (building, in ordinary and captured included);
    big and four-deckers: not captured (owner is the original nation), not sunk.
    """
    not_captured = Q(original_nation_id=F("nation_id"))
    ships = Ship.objects.filter(nation_id=nation_id).exclude(condition__in=Ship.GONE)
    if exclude_ship_id is not None:
        ships = ships.exclude(pk=exclude_ship_id)  # a ship being edited is counted as its new self
    row = ships.aggregate(
        sol=Count("id", filter=Q(ship_class__in=SOL_CLASSES)),
        big=Count("id", filter=Q(ship_class__in=BIG_CLASSES) & not_captured),
        four_deckers=Count("id", filter=Q(ship_class="four-decker") & not_captured),
    )
    return NavyCounts(sol=row["sol"], big=row["big"], four_deckers=row["four_deckers"])
