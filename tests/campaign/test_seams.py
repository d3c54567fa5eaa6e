"""Seams between features that each work on their own path (issue 25): each test plays one seam as a
club would meet it, and fails on the defect that was found there."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from battles.models import Engagement, TabletopBattle
from campaign.models import Turn
from campaign.tabletop import table_mark
from tests.worlds import two_sallies



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
