"""Forms of the army orders: embark and land land units (RULES.md §7)."""

from __future__ import annotations

from typing import Any

from django import forms

from campaign.models import Order
from campaign.orders.choices import FleetPlace
from campaign.orders.forms.base import OrderForm


class _ArmyForm(OrderForm):
    fleet_dependent = True

    def transport_fleets(self) -> list[FleetPlace]:
        raise NotImplementedError

    def ports_for(self, place: FleetPlace) -> list[Any]:
        raise NotImplementedError

    def no_port(self, place: FleetPlace) -> str:
        raise NotImplementedError

    def setup(self) -> None:
        places = self.transport_fleets()
        ports: dict[int, list[Any]] = {p.fleet.pk: self.ports_for(p) for p in places}
        self.fleet_field(places, note=lambda p: "" if ports[p.fleet.pk] else "no port for it now")
        chosen = self.selected_fleet(places, can_act=lambda p: bool(ports[p.fleet.pk]))
        self.port_field("port", ports[chosen.fleet.pk] if chosen is not None else [], label="Port")
        if chosen is not None and not ports[chosen.fleet.pk]:
            self.why_empty["port"] = self.no_port(chosen)
        self.fields["units"] = forms.IntegerField(label="Land units", min_value=1, max_value=999, initial=1)

    def body(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"kind": self.kind, "fleet": data["fleet"], "port": data["port"], "units": data["units"]}


class EmbarkForm(_ArmyForm):
    kind = Order.Kind.EMBARK
    title = "Embark land units"
    group = "Armies"
    help = "Phase 3: land units board the fleet's empty transports, one unit each (rules §7)."
    empty = {"fleet": "None of your fleets has an empty transport."}

    def transport_fleets(self) -> list[FleetPlace]:
        return [
            p
            for p in self.choices.fleets_afloat
            if any(s.ship_class == "transport" and s.cargo_id is None for s in p.ships)
        ]

    def ports_for(self, place: FleetPlace) -> list[Any]:
        units = self.choices.land_units_at
        if place.port is not None:
            return [place.port] if units[place.port.pk] else []
        return [p for p in self.choices.ports if p.sea_zone_id == place.zone.pk and units[p.pk]]

    def no_port(self, place: FleetPlace) -> str:
        where = place.where.replace("at sea in", "in the ports of")
        return f"You have no land units {where} for {place.fleet.name} to embark."


class LandForm(_ArmyForm):
    kind = Order.Kind.LAND
    title = "Land land units"
    group = "Armies"
    help = (
        "Phase 6: units land at a port of the fleet's zone (after its move): own → garrison, allied → guests, "
        "enemy → besiegers; never at a neutral port (rules §7)."
    )
    empty = {"fleet": "None of your fleets carries land units."}

    def transport_fleets(self) -> list[FleetPlace]:
        return [p for p in self.choices.fleets_afloat if any(s.cargo_id is not None for s in p.ships)]

    def ports_for(self, place: FleetPlace) -> list[Any]:
        reach = self.choices.zones_in_reach(place)
        return [
            p for p in self.choices.ports if p.sea_zone_id in reach and self.choices.relation(p.owner_id) != "peace"
        ]

    def no_port(self, place: FleetPlace) -> str:
        return f"{place.fleet.name} can reach no port where landing is allowed (own, allied or at war: rules §7)."
