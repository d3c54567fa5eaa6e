"""Phase 4 fanned out on real Celery workers: one battle task per contested zone, as a chord whose
callback finishes the turn (DESIGN.md "A turn"; issue 4: "battles in two zones run as separate
tasks")."""

from __future__ import annotations

import pytest
from django.utils import timezone

from battles.models import Battle, Engagement
from campaign.models import Turn, TurnPhase
from campaign.tasks import turn_resolve
from campaign.turn.lifecycle import turn_claim
from tests.support.turns import assert_resolved_exactly_once, resolved, wait_for
from tests.worlds import two_sallies

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


def test_battles_in_two_zones_run_as_separate_tasks_and_the_turn_resolves_once(start_worker) -> None:
    """Two sallies, from Brest into Biscay and from Calais into the Channel, need no sighting: two
    contested zones whatever the dice, so the turn fans out two ``battle_resolve`` tasks."""
    world = two_sallies()
    start_worker("one")
    start_worker("two")
    assert turn_claim(turn_id=world.turn.pk, now=timezone.now())
    assert turn_resolve.delay(world.turn.pk).get(timeout=60) == "waiting"
    wait_for(lambda: resolved(world.turn.pk))

    engagements = list(Engagement.objects.filter(turn=world.turn).select_related("sea_zone", "battle"))
    assert sorted(e.sea_zone.key for e in engagements) == ["biscay", "channel"]
    assert all(e.status == "fought" and e.dispatched_at is not None for e in engagements)
    fought_by = {e.fought_by for e in engagements}
    assert len(fought_by) == 2 and all(by.startswith("task ") for by in fought_by)  # two tasks, not inline
    assert sorted(Battle.objects.filter(turn=world.turn).values_list("place", flat=True)) == ["biscay", "channel"]
    assert {e.battle_id for e in engagements} == set(Battle.objects.values_list("pk", flat=True))
    assert TurnPhase.objects.filter(turn=world.turn, phase=4).count() == 1
    assert Turn.objects.get(pk=world.turn.pk).attempts == 2  # the dispatcher, then the chord's callback
    assert_resolved_exactly_once(world.turn)
