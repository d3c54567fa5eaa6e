"""The seed's "Treachery in Port" (RULES.md §7, seed 000): Russia, allied to England, sits in Gibraltar with
an army and a fleet, then declares war. Played through orders and the whole pipeline."""

import pytest
from django.utils import timezone

from battles.models import Battle
from campaign.models import Relation, Turn
from campaign.orders.services import order_add
from campaign.tasks import turn_resolve
from campaign.turn.lifecycle import turn_claim
from fleets.models import Ship
from ports.models import LandUnit
from tests.factories import CampaignFactory, FleetFactory, NationFactory, PortFactory, SeaZoneFactory, ShipFactory

pytestmark = pytest.mark.django_db


def test_russia_turns_on_its_host_and_the_rock_keeps_its_guns() -> None:
    """Seed: "the defending garrison will control the port's guns and will be able to fire upon attacking
    ships in port as per Running the Guns until it surrenders"; "the attacking units will be considered in
    supply while in port unless a defending fleet ... can blockade the port"; Gibraltar's garrison counts
    five times on the siege table, and its guns fire 10 × FF (30) fortification dice (§4 "Garrison guns")."""
    campaign = CampaignFactory.create(slug="treachery", seed=1807)
    gb = NationFactory.create(campaign=campaign, code="GB", name="Great Britain", crew="B", base_income=5)
    ru = NationFactory.create(campaign=campaign, code="RU", name="Russia", navy="RU", crew="D", base_income=5)
    a, b = sorted((gb, ru), key=lambda n: n.pk)
    Relation.objects.create(campaign=campaign, a=a, b=b, state=Relation.State.ALLIANCE)
    strait = SeaZoneFactory.create(campaign=campaign, key="strait-of-gibraltar", name="Strait", type="narrows")
    gibraltar = PortFactory.create(
        owner=gb, sea_zone=strait, key="gibraltar", name="Gibraltar", fortification=3, capacity=3,
        gibraltar=True, batteries=2, dockyard=False,
    )  # fmt: skip
    for _ in range(3):
        LandUnit.objects.create(campaign=campaign, nation=gb, port=gibraltar, state="garrison")
    for _ in range(4):
        LandUnit.objects.create(campaign=campaign, nation=ru, port=gibraltar, state="ashore")
    squadron = FleetFactory.create(nation=ru, name="Senyavin's Squadron", sea_zone=strait, port=gibraltar)
    for i in range(6):
        ShipFactory.create(fleet=squadron, nation=ru, name=f"Russian 74 {i}", ship_class="3rd-74", crew="D")
    turn = Turn.objects.create(campaign=campaign, number=1, year=1807, season="summer", deadline=None)

    order_add(nation=ru, body={"kind": "declare_war", "nation": "GB"})
    # Orders close at the deadline (issue 26): the order is in before it passes.
    Turn.objects.filter(pk=turn.pk).update(deadline=timezone.now())
    assert turn_claim(turn_id=turn.pk, now=timezone.now())
    assert turn_resolve(turn.pk) == "done"

    assert Relation.objects.get(campaign=campaign).state == Relation.State.WAR
    barrage = Battle.objects.get(turn=turn, kind=Battle.Kind.GARRISON_GUNS, place="gibraltar")
    assert barrage.report["barrage"][0] == 30 + 2  # 10 × FF fortification dice + the two batteries
    fort_dice = [d for d in barrage.report["dice"] if d["purpose"] == "barrage_fort"]
    assert fort_dice and all(d["mod"] == 1 for d in fort_dice)  # coastal forts at +1, with hot shot
    russians = Ship.objects.filter(original_nation=ru)
    assert not russians.filter(nation=ru, condition="ready").exists(), "a hostile fleet inside does not last"
    gibraltar.refresh_from_db()
    assert gibraltar.owner_id == gb.pk and gibraltar.captor_id is None  # G = 3 × 5 = 15 > 2B = 8: no roll
    assert gibraltar.siege_turns == 1
    besiegers = LandUnit.objects.filter(nation=ru, state="ashore", port=gibraltar)
    assert besiegers.count() == 4
    assert all(u.out_of_supply_turns == 0 for u in besiegers)  # in supply: no fleet blockades the Rock
