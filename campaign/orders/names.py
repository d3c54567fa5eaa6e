"""The names an order's ids and keys stand for (fleets and ships by id; ports, zones and nations by key),
so that an order can be written in words (:func:`campaign.orders.describe.order_in_words`): from the order
page's choices for a player, or from :func:`campaign_order_names` for the GM's desk and ``submit_orders``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from campaign.models import Campaign, Nation
from fleets.models import Fleet, Ship
from ports.models import Port, SeaZone


class OrderNames(Protocol):
    """Where an order's ids and keys find their names: the order page's choices (one nation's view)
    or :class:`CampaignNames` (every nation's, for the GM's desk). None for an id or key not found."""

    def fleet_name(self, fleet_id: Any) -> str | None: ...
    def ship_name(self, ship_id: Any) -> str | None: ...
    def port_name(self, key: str) -> str | None: ...
    def zone_name(self, key: str) -> str | None: ...
    def nation_name(self, code: str) -> str | None: ...
    def ship_cost(self, ship_class: str) -> int: ...


@dataclass(frozen=True)
class CampaignNames:
    """:class:`OrderNames` of a whole campaign, read at once by :func:`campaign_order_names`."""

    fleets: dict[int, str]
    ships: dict[int, str]
    ports: dict[str, str]
    zones: dict[str, str]
    nations: dict[str, str]
    costs: dict[str, int]

    def fleet_name(self, fleet_id: Any) -> str | None:
        return self.fleets.get(fleet_id) if isinstance(fleet_id, int) else None

    def ship_name(self, ship_id: Any) -> str | None:
        return self.ships.get(ship_id) if isinstance(ship_id, int) else None

    def port_name(self, key: str) -> str | None:
        return self.ports.get(key)

    def zone_name(self, key: str) -> str | None:
        return self.zones.get(key)

    def nation_name(self, code: str) -> str | None:
        return self.nations.get(code)

    def ship_cost(self, ship_class: str) -> int:
        return self.costs.get(ship_class, 0)


def campaign_order_names(*, campaign: Campaign) -> CampaignNames:
    """The names of every fleet, ship, port, zone and nation of the campaign (five queries, whatever
    the number of nations): the GM's desk writes every nation's orders in words with them."""
    return CampaignNames(
        fleets=dict(Fleet.objects.filter(campaign=campaign).values_list("pk", "name")),
        ships=dict(Ship.objects.filter(campaign=campaign).values_list("pk", "name")),
        ports=dict(Port.objects.filter(campaign=campaign).values_list("key", "name")),
        zones=dict(SeaZone.objects.filter(campaign=campaign).values_list("key", "name")),
        nations=dict(Nation.objects.filter(campaign=campaign).values_list("code", "name")),
        costs=dict(campaign.ruleset.ship_cost),
    )
