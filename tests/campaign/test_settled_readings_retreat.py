"""RULES.md §12.8, the settled reading of §4 "After a battle": where a side's default retreat goes when
one of its own ports lies in the battle zone, as phase 3 records it on the engagement (the pure rule
is pinned in tests/rules/test_settled_readings.py).

The campaign seed was checked to give a battle in the Channel; the test also checks that one was
recorded."""

from __future__ import annotations

import pytest

from battles.models import Engagement
from tests.factories import PortFactory, SeaZoneFactory
from tests.support.turns import phases_run
from tests.worlds import fleet, sea_world, zone

pytestmark = pytest.mark.django_db


def test_12_8_the_default_retreat_heads_for_the_nearest_own_port_outside_the_battle_zone() -> None:
    """§12.8: "(default: the first step of a shortest path to the nearest own port outside the battle
    zone; the default never enters a port in the battle zone — a player who wants that port names it
    as retreat port; ties, between ports or paths: the lower key of the first step)".

    Britain fights France in the Channel, where Portsmouth (British) and Calais (French) lie. Britain's
    other port, Leith, is two steps away beyond the North Sea, France's (Brest) next door in Biscay:
    each retreats one step towards it — Britain not to the Approaches, the lowest key next to the
    Channel, as it would if Portsmouth counted as its nearest port."""
    world = sea_world(seed=42)
    forth = SeaZoneFactory.create(campaign=world.campaign, key="firth-of-forth", name="Firth of Forth")
    forth.adjacent.add(zone(world, "north-sea"))
    PortFactory.create(owner=world.gb, sea_zone=forth, key="leith", name="Leith")
    gb = fleet(world, world.gb, "Squadron", "channel", [("3rd-74", 4), ("frigate", 3)])
    fr = fleet(world, world.fr, "Escadre", "channel", [("3rd-74", 3), ("frigate", 3)])
    phases_run(world.turn, 3)

    engagement = Engagement.objects.get()
    assert (engagement.place, engagement.step) == ("channel", 1)
    retreats = {fid: where for side in engagement.sides for fid, where in side["retreat"].items()}
    assert retreats[str(gb.pk)] == {"port": None, "zone": "north-sea"}
    assert retreats[str(fr.pk)] == {"port": None, "zone": "biscay"}
