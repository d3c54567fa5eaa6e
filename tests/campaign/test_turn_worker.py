"""Turns resolved by real Celery workers on Redis and PostgreSQL: exactly once, whatever happens."""

import time
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from campaign.models import LedgerEntry, Nation, Turn, TurnPhase
from campaign.tasks import turn_resolve, turns_sweep
from campaign.turn.lifecycle import turn_claim
from tests.worlds import two_power_world

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


def wait_for(condition: Callable[[], bool], timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError("timed out waiting")


def resolved(turn_id: int) -> bool:
    return Turn.objects.get(pk=turn_id).status == Turn.Status.RESOLVED


def assert_resolved_exactly_once(turn: Turn) -> None:
    phases = list(TurnPhase.objects.filter(turn=turn).values_list("phase", flat=True))
    assert len(phases) == len(set(phases))
    assert Turn.objects.filter(campaign=turn.campaign, number=2).count() == 1
    for nation in Nation.objects.filter(campaign=turn.campaign):
        assert LedgerEntry.objects.filter(nation=nation, kind="income", turn=turn.number).count() == 1
        assert nation.treasury == sum(LedgerEntry.objects.filter(nation=nation).values_list("amount", flat=True))


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
