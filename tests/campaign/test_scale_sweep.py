"""Issue 14: the queues, the sweep at scale (one pass, bounded queries, no double claim), /healthz and
the admin's summary of turns."""

from __future__ import annotations

import re
import threading
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from campaign.models import Turn
from campaign.tasks import turns_sweep
from campaign.turn.health import SWEEP_CACHE_KEY, sweep_record
from campaign.turn.lifecycle import turns_claim_due
from config.celery import app
from tests.factories import TurnFactory


def due_turns(count: int) -> list[int]:
    """``count`` campaigns whose open turn's deadline passed a minute ago."""
    past = timezone.now() - timedelta(minutes=1)
    return [TurnFactory.create(deadline=past).pk for _ in range(count)]


def test_turn_work_battle_work_and_mail_go_to_separate_queues() -> None:
    def queue_of(task: str) -> str:
        return str(app.amqp.router.route({}, task)["queue"].name)

    prefix = app.conf.task_default_queue.removesuffix("turns")
    assert queue_of("campaign.turns_sweep") == queue_of("campaign.turn_resolve") == f"{prefix}turns"
    assert queue_of("battles.battle_resolve") == f"{prefix}battles"
    for mail_task in ("campaign.turn_reports_email", "accounts.password_reset_send"):
        assert queue_of(mail_task) == f"{prefix}mail"
    # A worker started without -Q consumes all three.
    assert sorted(q.name for q in app.conf.task_queues) == [f"{prefix}{n}" for n in ("battles", "mail", "turns")]


@pytest.mark.django_db
def test_the_sweep_claims_every_due_turn_in_a_fixed_number_of_queries() -> None:
    one = due_turns(1)
    with CaptureQueriesContext(connection) as for_one:
        assert turns_claim_due(now=timezone.now()) == one
    many = due_turns(30)
    with CaptureQueriesContext(connection) as for_many:
        assert sorted(turns_claim_due(now=timezone.now())) == sorted(many)
    assert len(for_many.captured_queries) == len(for_one.captured_queries) <= 6
    assert Turn.objects.filter(pk__in=one + many, status=Turn.Status.RESOLVING).count() == 31


@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_claim_each_due_turn_exactly_once() -> None:
    """A second beat (or a duplicated sweep message) runs alongside the first: never a turn claimed twice."""
    turns = due_turns(40)
    start = threading.Barrier(3)
    claims: list[list[int]] = []

    def sweep() -> None:
        try:
            start.wait()
            claims.append(turns_claim_due(now=timezone.now()))
        finally:
            connection.close()

    threads = [threading.Thread(target=sweep) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    claimed = [turn_id for claim in claims for turn_id in claim]
    assert len(claims) == 3
    assert sorted(claimed) == sorted(turns), "every due turn claimed, and only once"
    assert turns_claim_due(now=timezone.now()) == []


@pytest.mark.django_db
def test_healthz_answers_200_when_the_database_the_broker_and_the_sweep_are_fine() -> None:
    sweep_record(now=timezone.now() - timedelta(seconds=5))
    response = Client().get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok" and body["failing"] == []
    assert body["checks"]["database"] == body["checks"]["broker"] == "ok"
    assert re.fullmatch(r"ok, last turn sweep ([5-9]|1\d) s ago", body["checks"]["beat"])


@pytest.mark.django_db
def test_healthz_answers_503_naming_the_beat_when_no_sweep_ran_lately() -> None:
    cache.delete(SWEEP_CACHE_KEY)
    response = Client().get("/healthz")
    assert response.status_code == 503
    assert response.json()["failing"] == ["beat"]
    assert response.json()["checks"]["beat"] == "no turn sweep recorded yet"
    sweep_record(now=timezone.now() - timedelta(hours=1))
    response = Client().get("/healthz")
    assert response.status_code == 503
    assert re.match(r"last turn sweep 36\d\d s ago \(more than 75 s\)", response.json()["checks"]["beat"])
    assert "postgres" not in response.content.decode() and "redis" not in response.content.decode()


@pytest.mark.django_db
def test_a_sweep_records_its_time_and_the_admin_shows_it_with_the_turns_due_resolving_and_failed() -> None:
    due_turns(2)
    failed = TurnFactory.create(status=Turn.Status.RESOLVING, error="ValueError: boom", attempts=5)
    cache.delete(SWEEP_CACHE_KEY)
    gm = Client()
    gm.force_login(get_user_model().objects.create_superuser("gm", "gm@example.org", "correct-horse-battery"))
    page = gm.get("/admin/campaign/campaign/").content.decode()
    assert "No turn sweep recorded" in page
    assert "Turns due: 2 · resolving: 0 ·" in page and "failed: 1</strong>" in page

    result = turns_sweep()  # run in this process, as beat's worker would
    assert len(result["claimed"]) == 2 and failed.pk not in result["resumed"]
    # Queued turns wait for their worker: the next sweeps do not send them again.
    assert turns_sweep() == {"claimed": [], "resumed": []}
    page = gm.get("/admin/campaign/campaign/").content.decode()
    assert re.search(r"Last turn sweep \d+ \w+ \d{4}, \d\d:\d\d:\d\d UTC \(\d+ s ago\)", page)
    assert "Turns due: 0 · resolving: 2 ·" in page
