"""A nation's order forms filled in for every kind, with the body each stores (the README's): shared by
the order pages' tests and the test of the messages a player reads after an order is added."""

from __future__ import annotations

from typing import Any

from fleets.models import Fleet
from ports.models import LandUnit
from tests.factories import AdmiralFactory, ShipFactory
from tests.worlds import World


def more_of_britain(w: World) -> dict[str, Any]:
    """A second fleet in Portsmouth, an admiral, a damaged ship, a transport and a land unit there."""
    reserve = Fleet.objects.create(
        campaign=w.campaign, nation=w.gb, name="Reserve", sea_zone=w.channel, port=w.portsmouth, crew="B"
    )
    spare = ShipFactory.create(fleet=reserve, nation=w.gb, name="Spare", crew="B", condition="damaged")
    transport = ShipFactory.create(fleet=w.channel_fleet, nation=w.gb, name="Trooper", ship_class="transport")
    LandUnit.objects.create(campaign=w.campaign, nation=w.gb, port=w.portsmouth)
    admiral = AdmiralFactory.create(nation=w.gb, campaign=w.campaign, name="Cuthbert Collingwood", grade="B")
    ships = list(w.channel_fleet.ships.filter(ship_class="3rd-74").order_by("pk"))
    return {"reserve": reserve, "spare": spare, "transport": transport, "admiral": admiral, "ships": ships}


def order_form_cases(w: World, x: dict[str, Any]) -> dict[str, tuple[dict[str, Any], dict[str, Any] | None]]:
    """kind → (form data, the stored body)."""
    cf, reserve, ships = w.channel_fleet.pk, x["reserve"].pk, x["ships"]
    line = [x["transport"].pk, *reversed([s.pk for s in ships])]
    return {
        "posture": (
            {"fleet": cf, "posture": "blockade", "port": "brest"},
            {"fleet": cf, "posture": "blockade", "port": "brest"},
        ),
        "battle_orders": (
            {"fleet": cf, "after_battle": "evade", "retreat_port": "portsmouth", "retreat_zone": ""},
            {"fleet": cf, "after_battle": "evade", "retreat_port": "portsmouth", "retreat_zone": None},
        ),
        "line_order": (
            {"fleet": cf, **{f"pos_{sid}": str(k) for k, sid in enumerate(line, 1)}},
            {"fleet": cf, "ships": line},
        ),
        "sally": ({"fleet": cf}, {"fleet": cf}),
        "raise": ({"unit": "siege_train", "port": "portsmouth"}, {"unit": "siege_train", "port": "portsmouth"}),
        "repair": ({"ship": x["spare"].pk, "on": "on"}, {"ship": x["spare"].pk, "on": True}),
        "lay_up": ({"ship": ships[0].pk}, {"ship": ships[0].pk}),
        "transfer": (
            {"ships": [ships[0].pk, ships[1].pk], "to_fleet": reserve},
            {"ships": [ships[0].pk, ships[1].pk], "to_fleet": reserve},
        ),
        "form_fleet": (
            {"ships": [ships[2].pk], "name": "Inshore  Squadron"},
            {"ships": [ships[2].pk], "name": "Inshore Squadron"},
        ),
        "merge": ({"fleet": reserve, "into": cf}, {"fleet": reserve, "into": cf}),
        "appoint": (
            {"admiral": "Cuthbert Collingwood", "fleet": cf},
            {"admiral": "Cuthbert Collingwood", "fleet": cf},
        ),
        "embark": (
            {"fleet": cf, "port": "portsmouth", "units": "1"},
            {"fleet": cf, "port": "portsmouth", "units": 1},
        ),
        "offer_peace": ({"nation": "FR"}, {"nation": "FR"}),
        "propose_alliance": ({"nation": "FR"}, None),  # at war: not offered, refused by the form
    }
