"""Issue 14: ten campaigns due at the same instant, two worker processes: every turn resolves exactly
once with every invariant of the turns issue — also when one worker is killed part-way."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from campaign.models import Campaign, Turn
from campaign.scenarios.loading import scenario_load
from campaign.tasks import turns_sweep
from fleets.models import Ship
from tests.campaign.test_invariants import check_invariants, everyone_at_sea
from tests.support.turns import assert_resolved_exactly_once, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker, pytest.mark.slow]

CAMPAIGNS = 10
# Short leases and battle grace: the turns of a killed worker go to the survivors within seconds.
QUICK_RESCUE = {"TURN_LEASE_SECONDS": "15", "TURN_BATTLE_GRACE_SECONDS": "15"}


def campaigns_due_now() -> list[tuple[Campaign, int]]:
    """Ten europe-1805 campaigns with every fleet at sea, all due a minute ago; with their ship counts."""
    loaded = []
    for i in range(CAMPAIGNS):
        campaign = scenario_load(name="europe-1805", slug=f"many-{i}", seed=100 + i)
        everyone_at_sea(campaign)
        loaded.append((campaign, Ship.objects.filter(campaign=campaign).count()))
    ids = [campaign.pk for campaign, _ in loaded]
    Turn.objects.filter(campaign_id__in=ids, number=1).update(deadline=timezone.now() - timedelta(minutes=1))
    return loaded


def sweep_until_resolved(turn_ids: list[int], timeout: float) -> None:
    """What beat does: a sweep every few seconds (claiming, and resuming turns of a dead worker)."""
    end = time.monotonic() + timeout
    remaining = Turn.objects.filter(pk__in=turn_ids).exclude(status=Turn.Status.RESOLVED)
    while remaining.exists():
        assert time.monotonic() < end, f"{remaining.count()} turns unresolved after {timeout:.0f} s"
        turns_sweep.delay().get(timeout=60)
        time.sleep(3)


def test_ten_campaigns_due_at_once_resolve_exactly_once_on_two_workers_one_of_them_killed(start_worker) -> None:
    loaded = campaigns_due_now()
    turns = [Turn.objects.get(campaign=campaign, number=1) for campaign, _ in loaded]
    doomed = start_worker("doomed", **QUICK_RESCUE)
    start_worker("steady", **QUICK_RESCUE)
    claimed = turns_sweep.delay().get(timeout=60)["claimed"]
    assert sorted(claimed) == sorted(t.pk for t in turns), "one sweep claims all ten"
    # Kill one worker once the first turn is through: whatever it held is resumed by the other.
    wait_for(lambda: Turn.objects.filter(pk__in=claimed, status=Turn.Status.RESOLVED).exists(), timeout=300)
    doomed.kill()
    sweep_until_resolved(claimed, timeout=900)
    for (campaign, ships), turn in zip(loaded, turns, strict=True):
        assert_resolved_exactly_once(turn)
        check_invariants(campaign, ships)
