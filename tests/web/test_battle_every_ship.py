"""Issue 13: the battle page lists every ship that took part, frigates and smaller included (they
fight outside the line and share their side's fate, RULES.md §4), each with its fate."""

from __future__ import annotations

import pytest
from django.urls import reverse

from battles.models import Battle
from battles.report_view.battle import battle_view
from fleets.models import Ship
from tests.support.turns import phases_run
from tests.web.fog_worlds import client_for, user
from tests.worlds import fleet, sea_world

pytestmark = pytest.mark.django_db

ROUT_SEED = 1  # checked in tests/campaign/test_battles_phase.py: FR breaks or is beaten while GB holds


def test_the_battle_page_lists_the_frigates_with_their_fates() -> None:
    world = sea_world(seed=ROUT_SEED)
    gb = fleet(world, world.gb, "Van", "channel", [("3rd-74", 6), ("frigate", 3)])
    fr = fleet(world, world.fr, "Escadre", "channel", [("3rd-74", 5), ("frigate", 3)])
    everyone = {s.pk: s.name for f in (gb, fr) for s in f.ships.all()}
    frigates = set(Ship.objects.filter(pk__in=everyone, ship_class="frigate").values_list("name", flat=True))
    phases_run(world.turn, 3, 4)
    battle = Battle.objects.get()
    in_line = {r["ref"] for r in battle.report["ships"]}
    assert not in_line & set(Ship.objects.filter(ship_class="frigate").values_list("pk", flat=True))

    view = battle_view(battle)
    listed = {s.name: s for side in view.ships for s in side}
    assert set(listed) == set(everyone.values())  # every ship that took part, once
    for name in frigates:
        row = listed[name]
        assert not row.in_line and row.fate
        ship = Ship.objects.get(name=name)
        if row.fate == "captured":
            assert ship.nation_id != ship.original_nation_id and row.captured_by
        else:
            assert ship.nation_id == ship.original_nation_id and row.fate == ship.condition

    world.campaign.gm = user("barham")
    world.campaign.save(update_fields=["gm"])
    url = reverse("battles:detail", args=[world.campaign.slug, battle.pk])
    page = client_for(world.campaign.gm).get(url).content.decode()
    for name in frigates:
        assert name in page
    assert "(not in the line)" in page
