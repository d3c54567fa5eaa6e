"""A campaign's standings: which nation leads, by what it holds.

:func:`standings_rank` is pure (it ranks what it is given); :func:`campaign_standings` reads each
nation's holdings from the database and ranks them. The "campaign ended" mail carries the result.

How nations are ranked is the campaign's victory condition, a house rule (``Campaign.victory``):

* ``holdings`` (the default): ports held, then ships of the line afloat, then treasury;
* ``ports``: the same order, and the campaign ends as soon as a nation holds ``victory_ports`` ports
  (:func:`ports_victory_reached`, asked by phase 10) — or at its last turn;
* ``points``: victory points, each port held worth its EP value and each ship of the line afloat 1,
  then the holdings order; counted when the campaign ends (its last turn, or the GM ends it).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from django.db.models import Count, IntegerField, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce

from campaign.models import Campaign, Nation, Victory
from fleets.models import Ship
from ports.models import Port
from rules.ruleset import SOL_CLASSES
from rules.turn_events import counted


@dataclass(frozen=True)
class NationHoldings:
    """What a nation holds at a moment: the three things the default ranking compares."""

    name: str
    ports: int
    ships_of_the_line: int
    treasury: int
    port_value: int = 0  # the EP value of the ports held (victory points)

    @property
    def points(self) -> int:
        """Victory points: each port's EP value plus one per ship of the line afloat."""
        return self.port_value + self.ships_of_the_line


@dataclass(frozen=True)
class Standing:
    """A nation's place (1 = first; nations equal in all three share a place) and its holdings."""

    place: int
    name: str
    ports: int
    ships_of_the_line: int
    treasury: int
    points: int = 0

    def as_data(self) -> dict[str, Any]:
        """As a delivery's JSON data stores it."""
        return asdict(self)


def standings_rank(holdings: Iterable[NationHoldings], victory: str = Victory.HOLDINGS) -> list[Standing]:
    """Rank nations by the victory condition: victory points first with ``points``, then ports held,
    ships of the line afloat and treasury (most first); nations equal in all of it share a place and
    are listed by name."""

    def strength(h: NationHoldings) -> tuple[int, ...]:
        base = (h.ports, h.ships_of_the_line, h.treasury)
        return (h.points, *base) if victory == Victory.POINTS else base

    ordered = sorted(holdings, key=lambda h: (tuple(-v for v in strength(h)), h.name))
    standings: list[Standing] = []
    for index, h in enumerate(ordered):
        tied = standings and strength(ordered[index - 1]) == strength(h)
        place = standings[-1].place if tied else index + 1
        standings.append(Standing(place, h.name, h.ports, h.ships_of_the_line, h.treasury, h.points))
    return standings


def _holdings(campaign_id: int) -> list[NationHoldings]:
    """Each nation's ports (count and EP value), ships of the line afloat and treasury: one query."""
    port_value = (
        Port.objects.filter(owner=OuterRef("pk")).values("owner").annotate(total=Sum("ep_value")).values("total")
    )
    nations = Nation.objects.filter(campaign_id=campaign_id).annotate(
        ports_held=Count("ports", distinct=True),
        sol_afloat=Count(
            "ships",
            filter=Q(ships__condition__in=Ship.AFLOAT, ships__ship_class__in=SOL_CLASSES),
            distinct=True,
        ),
        port_value=Coalesce(Subquery(port_value, output_field=IntegerField()), 0),
    )
    return [
        NationHoldings(
            name=n.name,
            ports=n.ports_held,
            ships_of_the_line=n.sol_afloat,
            treasury=n.treasury,
            port_value=n.port_value,
        )
        for n in nations
    ]


def campaign_standings(campaign_id: int) -> list[Standing]:
    """The campaign's nations ranked by its victory condition, by what they hold now (ports they own,
    ships of the line afloat under their flag — captured ones included — and treasury)."""
    victory = Campaign.objects.filter(pk=campaign_id).values_list("victory", flat=True).first() or Victory.HOLDINGS
    return standings_rank(_holdings(campaign_id), victory)


def ports_victory_reached(campaign: Campaign) -> NationHoldings | None:
    """With the "hold N ports" condition: the holdings of a nation holding at least N ports now (the
    first by name if several), else None. Phase 10 ends the campaign when there is one, and says how
    many ports the winner holds (which may be more than N: several can fall in one turn)."""
    if campaign.victory != Victory.PORTS or not campaign.victory_ports:
        return None
    winners = sorted((h for h in _holdings(campaign.pk) if h.ports >= campaign.victory_ports), key=lambda h: h.name)
    return winners[0] if winners else None


def victory_description(campaign: Campaign) -> str:
    """The campaign's victory condition in words, for the standings page and the mail. No full stop at
    the end: the pages and mails that show it end their own sentence with one."""
    if campaign.victory == Victory.PORTS:
        needed = counted(campaign.victory_ports or 0, "port")
        return f"First to hold {needed}; then ports held, ships of the line and treasury"
    return str(Victory(campaign.victory).label)
