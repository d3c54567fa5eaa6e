"""RULES.md §12.7's second half, a settled reading of §4 "Sides" in phase 3: the nations left out of a
zone's battle that are at war with each other form their own sides and meet afterwards, in the same
zone and step (the pure side-building is pinned in tests/rules/test_settled_readings_sides.py).

Where dice decide, the campaign seed was checked to give the case under test, and the test also checks
that the stored dice log agrees with what happened."""

from __future__ import annotations

import pytest

from battles.models import Engagement
from campaign.models import Relation, Turn
from tests.factories import NationFactory
from tests.support.turns import phases_run, seen
from tests.worlds import fleet, sea_world

pytestmark = pytest.mark.django_db


def test_12_7_nations_left_out_who_are_at_war_with_each_other_fight_afterwards_in_the_same_task() -> None:
    """§12.7: "The nations left out do not fight in this battle. If, among the nations left out, some
    are at war with each other, they form sides the same way and fight afterwards in the same task
    ("a zone may see several battles"); a nation fights at most one battle a day."

    Britain and France, at war, meet in the Channel; Russia and Spain, at war with each other and at
    peace with both, are left out of that battle and meet afterwards in the same step: two battles."""
    world = sea_world(seed=42)
    ru = NationFactory.create(campaign=world.campaign, code="RU", name="Russia", crew="D")
    es = NationFactory.create(campaign=world.campaign, code="ES", name="Spain", crew="E")
    a, b = sorted((ru, es), key=lambda n: n.pk)
    Relation.objects.create(campaign=world.campaign, a=a, b=b, state=Relation.State.WAR)
    light = [("3rd-74", 2), ("frigate", 3)]  # three light ships: +1 to sight
    fleet(world, world.gb, "Squadron", "channel", [("3rd-74", 4), ("frigate", 3)])
    fleet(world, world.fr, "Escadre", "channel", [("3rd-74", 3), ("frigate", 3)])
    fleet(world, ru, "Baltic Squadron", "channel", light)
    fleet(world, es, "Armada", "channel", light)
    phases_run(world.turn, 3)

    rolls = [d for d in Turn.objects.get(pk=world.turn.pk).dice_log if d["place"] == "channel"]
    subjects = [d["subject"] for d in rolls if d["purpose"] == "sighting"]
    # Britain–France first (the lead there, most SOL), then the nations left out, on the same stream.
    assert set(subjects[:2]) == {"FR>GB", "GB>FR"} and set(subjects[2:]) == {"ES>RU", "RU>ES"}
    engagements = list(Engagement.objects.order_by("sequence"))
    assert [(e.place, e.step, e.sequence) for e in engagements] == [("channel", 1, 1), ("channel", 1, 2)]
    assert [[s["nations"] for s in e.sides] for e in engagements] == [[["FR"], ["GB"]], [["ES"], ["RU"]]]
    # A nation fights at most one battle there: no nation is on both.
    assert not {n for s in engagements[0].sides for n in s["nations"]} & {
        n for s in engagements[1].sides for n in s["nations"]
    }
    assert any("Channel, step 1: Armada met 5 ships of Russia" in t for t in seen(world.turn, "ES"))
