"""Turns resolved by real Celery workers on Redis and PostgreSQL: exactly once, whatever happens."""

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from campaign.models import Nation, Turn, TurnPhase
from campaign.tasks import turn_resolve, turns_sweep
from campaign.turn.lifecycle import turn_claim
from tests.support.turns import assert_resolved_exactly_once, resolved, wait_for
from tests.worlds import two_power_world

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


def test_the_beat_sweep_resolves_a_due_turn(start_worker) -> None:
    world = two_power_world(deadline=timezone.now() - timedelta(minutes=1))
    start_worker("sweep")
    result = turns_sweep.delay().get(timeout=30)
    assert result["claimed"] == [world.turn.pk]
    wait_for(lambda: resolved(world.turn.pk))
    assert_resolved_exactly_once(world.turn)
    assert turns_sweep.delay().get(timeout=30) == {"claimed": [], "resumed": []}


def test_duplicate_deliveries_and_two_workers_give_one_resolution(start_worker) -> None:
    world = two_power_world()
    start_worker("one")
    start_worker("two")
    assert turn_claim(turn_id=world.turn.pk, now=timezone.now())
    results = [turn_resolve.delay(world.turn.pk) for _ in range(4)]
    outcomes = sorted(r.get(timeout=60) for r in results)
    assert outcomes.count("done") >= 1
    assert set(outcomes) <= {"done", "held"}
    wait_for(lambda: resolved(world.turn.pk))
    assert_resolved_exactly_once(world.turn)


def waiting_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
        )
        return cursor.fetchone()[0] > 0


def test_a_worker_killed_mid_turn_is_resumed_by_another_exactly_once(start_worker) -> None:
    """Phase 9 blocks on a nation row this test holds; the worker is killed there, the lease runs out,
    the sweep hands the turn to a new worker, which resumes at phase 9 and finishes the turn."""
    world = two_power_world()
    doomed = start_worker("doomed", TURN_LEASE_SECONDS="3")
    assert turn_claim(turn_id=world.turn.pk, now=timezone.now())
    with transaction.atomic():
        Nation.objects.select_for_update().get(pk=world.gb.pk)  # phase 9 will wait for this lock
        turn_resolve.delay(world.turn.pk)
        wait_for(lambda: TurnPhase.objects.filter(turn=world.turn, phase=2).exists())
        wait_for(waiting_on_a_lock)
        doomed.kill()
    assert not TurnPhase.objects.filter(turn=world.turn, phase=9).exists()
    assert Turn.objects.get(pk=world.turn.pk).status == Turn.Status.RESOLVING
    start_worker("rescuer", TURN_LEASE_SECONDS="3")
    wait_for(lambda: turns_sweep.delay().get(timeout=30)["resumed"] == [world.turn.pk], timeout=30)
    wait_for(lambda: resolved(world.turn.pk))
    assert_resolved_exactly_once(world.turn)
    assert Turn.objects.get(pk=world.turn.pk).attempts == 2


def test_resolve_turn_goes_through_the_workers_and_prints_the_summary(start_worker, capsys) -> None:
    from django.core.management import call_command

    world = two_power_world()
    start_worker("command")
    call_command("resolve_turn", "channel-1805", "--timeout", "60")
    out = capsys.readouterr().out
    assert "Turn 1 (Spring 1805) resolved" in out and "phase 9 economy" in out
    assert_resolved_exactly_once(world.turn)


def test_resolve_turn_without_a_worker_says_so_and_changes_nothing() -> None:
    from django.core.management import call_command
    from django.core.management.base import CommandError

    world = two_power_world()
    with pytest.raises(CommandError, match="No Celery worker answered"):
        call_command("resolve_turn", "channel-1805", "--timeout", "2")
    assert Turn.objects.get(pk=world.turn.pk).status == Turn.Status.OPEN
