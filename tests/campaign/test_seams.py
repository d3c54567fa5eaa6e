"""Seams between features that each work on their own path (issue 25): each test plays one seam as a
club would meet it, and fails on the defect that was found there."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from battles.models import Engagement, TabletopBattle
from battles.tabletop_pack import battle_pack
from campaign.models import Campaign, Nation, Relation, Turn
from campaign.tabletop import table_mark
from campaign.turn.runner import phase_run
from fleets.models import Fleet
from ports.models import LandUnit, Port
from tests.factories import NationFactory
from tests.support.tabletop import gibraltar_siege
from tests.worlds import sea_world, two_sallies


@pytest.mark.django_db(transaction=True)
@pytest.mark.worker
def test_two_battles_at_the_table_in_one_turn_both_reach_it_on_real_workers(start_worker, capsys) -> None:
    """Two battles marked for the table in one turn, fought by two battle tasks at once: each task
    locks only its own table markings (not the turn, which the other task holds a key-share lock on),
    so there is no deadlock, ``resolve_turn`` succeeds and both battles wait at the table."""
    world = two_sallies()
    table_mark(campaign=world.campaign, place="brest")
    table_mark(campaign=world.campaign, place="calais")
    start_worker("one")
    start_worker("two")
    call_command("resolve_turn", world.campaign.slug, "--timeout", "60")
    assert "waits for a battle on the table" in capsys.readouterr().out
    assert Turn.objects.get(pk=world.turn.pk).status == Turn.Status.TABLE
    waiting = TabletopBattle.objects.filter(turn=world.turn, status=TabletopBattle.Status.WAITING)
    assert sorted(waiting.values_list("place", flat=True)) == ["brest", "calais"]
    assert Engagement.objects.filter(turn=world.turn, status=Engagement.Status.AT_TABLE).count() == 2


@pytest.mark.django_db
def test_missing_orders_bring_a_blockading_fleet_home_and_its_blockade_ends() -> None:
    """ "Fleets return to port" with a nation that entered nothing and whose fleet blockades a port: the
    fleet comes home, its blockade ends with the station it left (seek, no port named), and the turn runs
    on — it used to crash on the fleet_blockade_names_a_port constraint and fail at every retry."""
    world = sea_world()
    calais = Port.objects.get(campaign=world.campaign, key="calais")
    Nation.objects.filter(pk=world.gb.pk).update(player=get_user_model().objects.create_user("nelson", "n@example.org"))
    Campaign.objects.filter(pk=world.campaign.pk).update(nmr_policy="return_to_port")
    Fleet.objects.filter(pk=world.channel_fleet.pk).update(port=None, posture="blockade", blockade_port=calais)
    world.campaign.refresh_from_db()
    for number in (1, 2, 3):
        phase_run(turn_id=world.turn.pk, number=number, now=timezone.now())
    fleet = Fleet.objects.get(pk=world.channel_fleet.pk)
    assert (fleet.port_id, fleet.posture, fleet.blockade_port_id) == (world.portsmouth.pk, "seek", None)
    events = json.dumps(world.turn.phases.get(phase=3).summary)
    assert "Channel Fleet returned to Portsmouth" in events and "no longer blockades Calais" in events


@pytest.mark.django_db
def test_allied_guests_ashore_are_no_besiegers_in_a_battle_pack() -> None:
    """RULES.md §7 "Siege": "a port with land units ashore from nations at war with its owner is
    besieged". The pack of a battle at Gibraltar counts the French besiegers only, not the units of
    Britain's ally ashore as guests; with only guests ashore there is no storming aid at all."""
    world, table, _ = gibraltar_siege()
    batavia = NationFactory.create(campaign=world.campaign, code="NL", name="Batavian Republic", navy="SP")
    a, b = sorted((world.gb, batavia), key=lambda n: n.pk)
    Relation.objects.create(campaign=world.campaign, a=a, b=b, state=Relation.State.ALLIANCE)
    gibraltar = Port.objects.get(campaign=world.campaign, key="gibraltar")
    for _ in range(2):
        LandUnit.objects.create(campaign=world.campaign, nation=batavia, state="ashore", port=gibraltar)
    assist = battle_pack(table).assault
    assert assist is not None and assist.besiegers == ["France: 2 land units"]
    LandUnit.objects.filter(nation=world.fr, port=gibraltar).delete()  # the siege lifted: guests only
    assert battle_pack(table).assault is None
