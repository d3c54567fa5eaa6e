"""A campaign's standings: which nation leads, by what it holds.

:func:`standings_rank` is pure (it ranks what it is given); :func:`campaign_standings` reads each
nation's holdings from the database and ranks them. The "campaign ended" mail carries the result.

The ranking here is a default: ports held, then ships of the line afloat, then treasury. The GM's
victory conditions (a later issue) will replace it; until then every campaign ends ranked this way.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from django.db.models import Count, Q

from campaign.models import Nation
from fleets.models import Ship
from rules.ruleset import SOL_CLASSES


@dataclass(frozen=True)
class NationHoldings:
    """What a nation holds at a moment: the three things the default ranking compares."""

    name: str
    ports: int
    ships_of_the_line: int
    treasury: int


@dataclass(frozen=True)
class Standing:
    """A nation's place (1 = first; nations equal in all three share a place) and its holdings."""

    place: int
    name: str
    ports: int
    ships_of_the_line: int
    treasury: int

    def as_data(self) -> dict[str, Any]:
        """As a delivery's JSON data stores it."""
        return asdict(self)


def standings_rank(holdings: Iterable[NationHoldings]) -> list[Standing]:
    """Rank nations by ports held, then ships of the line afloat, then treasury (most first); nations
    equal in all three share a place and are listed by name. This default ranking stands until the
    GM's victory conditions (a later issue) replace it."""

    def strength(h: NationHoldings) -> tuple[int, int, int]:
        return (h.ports, h.ships_of_the_line, h.treasury)

    ordered = sorted(holdings, key=lambda h: (tuple(-v for v in strength(h)), h.name))
    standings: list[Standing] = []
    for index, h in enumerate(ordered):
        tied = standings and strength(ordered[index - 1]) == strength(h)
        place = standings[-1].place if tied else index + 1
        standings.append(Standing(place, h.name, h.ports, h.ships_of_the_line, h.treasury))
    return standings


def campaign_standings(campaign_id: int) -> list[Standing]:
    """The campaign's nations ranked by what they hold now (ports they own, ships of the line afloat
    under their flag — captured ones included — and treasury)."""
    nations = Nation.objects.filter(campaign_id=campaign_id).annotate(
        ports_held=Count("ports", distinct=True),
        sol_afloat=Count(
            "ships",
            filter=Q(ships__condition__in=Ship.AFLOAT, ships__ship_class__in=SOL_CLASSES),
            distinct=True,
        ),
    )
    return standings_rank(
        NationHoldings(name=n.name, ports=n.ports_held, ships_of_the_line=n.sol_afloat, treasury=n.treasury)
        for n in nations
    )
