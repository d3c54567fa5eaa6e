"""Read-side queries of the fleets app."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

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
    """The one query of "which ports are blockaded" (RULES.md §4 "Blockade"): the blockades of
    ``turn`` that no storm lifted, as port id → [(fleet id, fleet's nation id)] in fleet id order.

    Phases 5 to 9 read this turn's (the rows are written at the end of phase 4); the players' pages
    read the last resolved turn's, the blockades standing while the next turn is open. Against whom
    a port is blockaded is :class:`Blockades`' business."""
    out: dict[int, list[tuple[int, int]]] = defaultdict(list)
    rows = (
        Blockade.objects.filter(campaign_id=campaign_id, turn=turn, lifted=False)
        .order_by("port_id", "fleet_id")
        .values_list("port_id", "fleet_id", "fleet__nation_id")
    )
    for port_id, fleet_id, nation_id in rows:
        out[port_id].append((fleet_id, nation_id))
    return out


@dataclass(frozen=True, slots=True)
class Blockades:
    """One turn's blockades not lifted by a storm, and against whom they count (RULES.md §4: a
    fleet blockades P "against every nation at war with it that owns P or has ships or land units
    in P"). ``at_war(a, b)`` is the campaign's relation between two nation ids (the caller's
    diplomacy: this app does not read relations)."""

    by_port: Mapping[int, Sequence[tuple[int, int]]]
    at_war: Callable[[int, int], bool]

    def nations(self, port_id: int) -> list[int]:
        """The nation ids of the fleets blockading the port, in fleet id order."""
        return [nation_id for _, nation_id in self.by_port.get(port_id, ())]

    def against(self, port_id: int, nation_id: int) -> bool:
        """Whether the port is blockaded against ``nation_id``: a blockader is at war with it."""
        return any(self.at_war(b, nation_id) for b in self.nations(port_id))

    def blockaders_of(self, port_id: int, nation_id: int) -> list[int]:
        """The nation ids blockading the port against ``nation_id``, each once, in id order."""
        return sorted({b for b in self.nations(port_id) if self.at_war(b, nation_id)})

    def against_any(self, port_id: int, nation_ids: Iterable[int]) -> frozenset[int]:
        """Of ``nation_ids`` (the owner, and whoever has ships or land units there), those the port
        is blockaded against."""
        return frozenset(n for n in nation_ids if self.against(port_id, n))


def blockades_for_turn(*, campaign_id: int, turn: int, at_war: Callable[[int, int], bool]) -> Blockades:
    """The blockades of ``turn`` that no storm lifted (one query, :func:`blockaders_by_port`)."""
    return Blockades(blockaders_by_port(campaign_id=campaign_id, turn=turn), at_war)


def free_fleet_name(*, campaign_id: int, nation_id: int, base: str) -> str:
    """``base``, or ``base 2``, ``base 3``… — the first name the nation has not given a fleet."""
    taken = set(Fleet.objects.filter(campaign_id=campaign_id, nation_id=nation_id).values_list("name", flat=True))
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base} {n}"
    return name
