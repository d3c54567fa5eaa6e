"""Three powers with players and capitals for the dispatch tests (issue 16).

Britain (nelson, capital Portsmouth in the Channel), France (villeneuve, Brest in Biscay) and Spain
(gravina, Cartagena in the Mediterranean), the zones in a line Channel – Biscay – Cape St Vincent –
Mediterranean: the capitals lie 1 (GB–FR), 2 (FR–ES) and 3 (GB–ES) sea zones apart. The GM is barham.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model

from campaign.models import Campaign, Nation, NationTurn
from ports.models import Port
from tests.factories import NationFactory, PortFactory, SeaZoneFactory
from tests.worlds import World, two_power_world

PASSWORD = "a-long-test-password"


@dataclass
class Powers:
    w: World
    es: Nation
    cartagena: Port
    nelson: Any
    villeneuve: Any
    gravina: Any
    gm: Any

    @property
    def campaign(self) -> Campaign:
        return self.w.campaign

    @property
    def gb(self) -> Nation:
        return self.w.gb

    @property
    def fr(self) -> Nation:
        return self.w.fr

    def fresh(self) -> Campaign:
        """The campaign row as it now stands (house options changed by a test)."""
        return Campaign.objects.get(pk=self.campaign.pk)


def three_powers() -> Powers:
    users = get_user_model()
    w = two_power_world()
    es = NationFactory.create(campaign=w.campaign, code="ES", name="Spain", navy="ES", crew="E")
    cape = SeaZoneFactory.create(campaign=w.campaign, key="cape-st-vincent", name="Cape St Vincent", type="open")
    med = SeaZoneFactory.create(campaign=w.campaign, key="western-med", name="Western Mediterranean", type="open")
    w.biscay.adjacent.add(cape)
    cape.adjacent.add(med)
    cartagena = PortFactory.create(owner=es, sea_zone=med, key="cartagena", name="Cartagena", ep_value=2)
    NationTurn.objects.create(turn=w.turn, nation=es)
    people = {
        name: users.objects.create_user(name, f"{name}@example.org", PASSWORD)
        for name in ("nelson", "villeneuve", "gravina", "barham")
    }
    for nation, name, capital in (
        (w.gb, "nelson", w.portsmouth),
        (w.fr, "villeneuve", w.brest),
        (es, "gravina", cartagena),
    ):
        nation.player, nation.capital = people[name], capital
        nation.save(update_fields=["player", "capital"])
    w.campaign.gm = people["barham"]
    w.campaign.status = Campaign.Status.ACTIVE
    w.campaign.save(update_fields=["gm", "status"])
    return Powers(w, es, cartagena, people["nelson"], people["villeneuve"], people["gravina"], people["barham"])
