"""Read side of phase 4 for the turn: which zones still have engagements to fight, and how each
fleet came out of those fought (RULES.md §4 "After a battle", "Sally"; phases 5, 6 and 7 read them).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from battles.engagements.ordering import LEAVING
from battles.models import Engagement


def engagement_zones_pending(*, turn_id: int) -> list[int]:
    """Zones (ids, in key order) with engagements still to fight this turn."""
    rows = (
        Engagement.objects.filter(turn_id=turn_id, status=Engagement.Status.PENDING)
        .order_by("sea_zone__key")
        .values_list("sea_zone_id", flat=True)
        .distinct()
    )
    return list(dict.fromkeys(rows))


@dataclass(frozen=True, slots=True)
class FleetOutcome:
    """How a fleet came out of this turn's fights: its side's last ``outcome`` and whether it ``won``."""

    outcome: str
    won: bool
    zone_id: int
    engagement_id: int


def fleet_outcomes(*, turn_id: int) -> dict[int, list[FleetOutcome]]:
    """Every fought engagement's outcome per fleet (fleet id → outcomes in fighting order).

    For phase 6 ("a fleet that did not retire, break, evade or get beaten this turn" may land) and
    phase 5 ("won a battle in P's zone this turn" may run the guns)."""
    out: dict[int, list[FleetOutcome]] = defaultdict(list)
    rows = Engagement.objects.filter(turn_id=turn_id, status=Engagement.Status.FOUGHT).order_by(
        "sea_zone__key", "sequence"
    )
    for e in rows:
        for fleet_id, data in e.result.get("fleets", {}).items():
            out[int(fleet_id)].append(FleetOutcome(data["outcome"], data["won"], e.sea_zone_id, e.pk))
    return dict(out)


def fleets_worsted(*, turn_id: int) -> set[int]:
    """Fleets that retired, broke, evaded or were beaten in a fight this turn (§4, §7)."""
    return {
        fleet_id
        for fleet_id, outcomes in fleet_outcomes(turn_id=turn_id).items()
        if any(o.outcome in LEAVING for o in outcomes)
    }


def ports_unblockaded_by_sally(*, turn_id: int) -> set[int]:
    """Ports whose blockaders a sally drove off this turn: not blockaded this turn (§4 "Sally")."""
    rows = Engagement.objects.filter(
        turn_id=turn_id, kind=Engagement.Kind.SALLY, status=Engagement.Status.FOUGHT
    ).values_list("port_id", "result")
    return {port_id for port_id, result in rows if port_id is not None and result.get("lifts_blockade")}


def engagements_fought(*, turn_id: int) -> list[Engagement]:
    """This turn's fought engagements in reporting order: zones by key, then sequence."""
    return list(
        Engagement.objects.filter(turn_id=turn_id, status=Engagement.Status.FOUGHT)
        .select_related("sea_zone")
        .order_by("sea_zone__key", "sequence")
    )
