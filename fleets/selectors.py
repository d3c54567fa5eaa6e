"""Read-side queries of the fleets app."""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Count, F, Q

from fleets.models import Blockade, Fleet, Ship
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


def blockaders_by_port(*, campaign_id: int, turn: int) -> dict[int, list[tuple[int, int]]]:
    """This turn's blockades not lifted by a storm: port id → [(fleet id, fleet's nation id)]."""
    out: dict[int, list[tuple[int, int]]] = defaultdict(list)
    rows = (
        Blockade.objects.filter(campaign_id=campaign_id, turn=turn, lifted=False)
        .order_by("port_id", "fleet_id")
        .values_list("port_id", "fleet_id", "fleet__nation_id")
    )
    for port_id, fleet_id, nation_id in rows:
        out[port_id].append((fleet_id, nation_id))
    return out


def blockading_nations_by_port(*, campaign_id: int, turn: int) -> dict[int, list[int]]:
    """This turn's blockades not lifted by a storm (§4: a storm lifts a blockade "for supply, repairs
    and income"): port id → the nation ids of its blockading fleets."""
    return {
        port_id: [nation_id for _, nation_id in rows]
        for port_id, rows in blockaders_by_port(campaign_id=campaign_id, turn=turn).items()
    }


def free_fleet_name(*, campaign_id: int, nation_id: int, base: str) -> str:
    """``base``, or ``base 2``, ``base 3``… — the first name the nation has not given a fleet."""
    taken = set(Fleet.objects.filter(campaign_id=campaign_id, nation_id=nation_id).values_list("name", flat=True))
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base} {n}"
    return name
