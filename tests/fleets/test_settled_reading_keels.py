"""RULES.md §12.2, the settled reading of §7 Capture's "no building" for keels already on the slips of
a port that is settling after its capture (:func:`fleets.services.keels_advance`, phase 2)."""

from __future__ import annotations

import pytest

from fleets.models import Ship
from fleets.services import keels_advance
from ports.models import Port
from tests.worlds import World, two_power_world

pytestmark = pytest.mark.django_db


def _keel(world: World, name: str, left: int) -> Ship:
    return Ship.objects.create(
        campaign=world.campaign,
        name=name,
        ship_class="3rd-74",
        nation=world.fr,
        original_nation=world.gb,
        condition=Ship.Condition.BUILDING,
        crew="D",
        building_port=world.portsmouth,
        building_turns_left=left,
        laid_down_turn=1,
    )


def test_12_2_keels_in_a_settling_port_keep_losing_turns_but_launch_no_earlier_than_t_plus_2() -> None:
    """§12.2: ""No building" means no new keel may be laid down there in T+1; keels already on its slips
    (passed to the captor with their turns left) keep losing one build turn each phase 2, but none is
    launched before phase 2 of T+2. A keel that reaches 0 in T+1 is launched then."

    Portsmouth, taken by France in turn 4, settles in turn 5: the keel with one turn left is not launched
    in turn 5 but in turn 6; the one with three left loses a turn in each."""
    world = two_power_world()
    Port.objects.filter(pk=world.portsmouth.pk).update(owner=world.fr, taken_turn=4)
    last, longer = _keel(world, "Pompée", 1), _keel(world, "Superbe", 3)
    assert keels_advance(campaign_id=world.campaign.pk, turn=5) == []  # T+1: settling, nothing launched
    last.refresh_from_db()
    longer.refresh_from_db()
    assert (last.condition, last.building_turns_left) == (Ship.Condition.BUILDING, 1)
    assert longer.building_turns_left == 2
    launched = keels_advance(campaign_id=world.campaign.pk, turn=6)  # T+2: the port works again
    assert [ship.name for ship, _ in launched] == ["Pompée"]
    last.refresh_from_db()
    longer.refresh_from_db()
    assert last.condition == Ship.Condition.READY and last.fleet is not None
    assert longer.building_turns_left == 1


def test_12_2_a_port_taken_longer_ago_launches_as_usual() -> None:
    """§1: "at 0 they are launched" — once the port has settled (taken two turns before), keels launch."""
    world = two_power_world()
    Port.objects.filter(pk=world.portsmouth.pk).update(owner=world.fr, taken_turn=3)
    _keel(world, "Pompée", 1)
    assert [ship.name for ship, _ in keels_advance(campaign_id=world.campaign.pk, turn=5)] == ["Pompée"]
