"""The dashboard's "next turn's income and upkeep" is phase 9's own sum (RULES.md §2; issue 8: one
builder of the economy inputs, :func:`campaign.economy.economy_inputs`, for both)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from campaign.models import Campaign, LedgerEntry, Nation, Turn
from campaign.orders.services import orders_replace
from campaign.pages.dashboard import dashboard_for_player
from campaign.tasks import turn_resolve
from campaign.turn.lifecycle import turn_claim
from fleets.models import Blockade, Fleet, Ship
from ports.models import Port
from tests.factories import FleetFactory, PortFactory, ShipFactory
from tests.worlds import World, two_power_world

pytestmark = pytest.mark.django_db


def _world() -> World:
    """Britain blockades Brest from the Bay (a blockade standing from the last turn, kept this turn);
    France holds Cherbourg, taken last turn, and has a ship in ordinary; Britain has a damaged ship
    and lays down a frigate this turn."""
    w = two_power_world()
    Campaign.objects.filter(pk=w.campaign.pk).update(seed=1)  # no storm in the Bay to lift the blockade
    squadron = FleetFactory.create(
        nation=w.gb, name="Inshore Squadron", sea_zone=w.biscay, posture=Fleet.Posture.BLOCKADE, blockade_port=w.brest
    )
    for i in range(2):
        ShipFactory.create(fleet=squadron, nation=w.gb, name=f"Blockader {i}", ship_class="3rd-74", crew="B")
    Blockade.objects.create(campaign=w.campaign, turn=0, port=w.brest, fleet=squadron)
    PortFactory.create(owner=w.fr, sea_zone=w.channel, key="cherbourg", name="Cherbourg", ep_value=1, taken_turn=0)
    Ship.objects.filter(name="Vaisseau 9").update(in_ordinary=True)
    Ship.objects.filter(name="HMS 9").update(condition=Ship.Condition.DAMAGED)
    orders_replace(
        nation=w.gb, bodies=[{"kind": "lay_down", "class": "frigate", "name": "Amethyst", "port": "portsmouth"}]
    )
    return w


def test_the_dashboard_shows_exactly_what_phase_9_books() -> None:
    """§2 phase 9: "income = base income + the EP value of each own port not besieged, not blockaded
    against it and not taken this turn or last turn; then upkeep = ceil(Σ class EP of its
    commissioned ships ... / 20)". The projection read before the turn resolves matches the income
    and upkeep lines phase 9 writes, and the treasury after."""
    w = _world()
    gm = get_user_model().objects.create_user("gm", password="x", is_staff=True)
    Campaign.objects.filter(pk=w.campaign.pk).update(gm=gm)  # staff alone does not run a campaign
    projected = {
        code: dashboard_for_player(user=gm, slug=w.campaign.slug, nation_code=code).projection for code in ("GB", "FR")
    }
    assert projected["FR"].ports == 0  # Brest blockaded, Cherbourg settling: the case worth checking
    assert turn_claim(turn_id=w.turn.pk, now=timezone.now())
    assert turn_resolve(w.turn.pk) == "done"
    assert Blockade.objects.filter(turn=1, port=w.brest, lifted=False).exists()  # still standing at phase 9
    for code, projection in projected.items():
        nation = Nation.objects.get(campaign=w.campaign, code=code)
        lines = LedgerEntry.objects.filter(nation=nation, turn=1)
        income = sum(lines.filter(kind=LedgerEntry.Kind.INCOME).values_list("amount", flat=True))
        upkeep = -sum(lines.filter(kind=LedgerEntry.Kind.UPKEEP).values_list("amount", flat=True))
        assert (income, upkeep) == (projection.income, projection.upkeep), code
        assert nation.treasury == projection.treasury_after, code
    assert Turn.objects.filter(campaign=w.campaign, number=2).exists()
    assert projected["GB"].income == 3 + 2 and projected["FR"].income == 2
    assert Port.objects.get(key="cherbourg").owner_id == w.fr.pk
