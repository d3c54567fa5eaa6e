"""Phase 10 queues the mailing of the turn's reports by the task's Celery name, after the commit."""

from unittest import mock

import pytest
from django.utils import timezone

from campaign.notifications import TURN_REPORTS_EMAIL_TASK
from campaign.tasks import turn_reports_email, turn_resolve
from campaign.turn.lifecycle import turn_claim
from campaign.turn.runner import turn_dry_run
from tests.worlds import two_power_world

pytestmark = pytest.mark.django_db


def test_the_name_phase_10_queues_is_the_mailing_task() -> None:
    assert turn_reports_email.name == TURN_REPORTS_EMAIL_TASK


def test_resolving_a_turn_queues_its_reports_mail_once_it_commits(django_capture_on_commit_callbacks) -> None:
    world = two_power_world()
    assert turn_claim(turn_id=world.turn.pk, now=timezone.now())
    with (
        mock.patch.object(turn_reports_email, "apply_async") as queued,
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert turn_resolve(world.turn.pk) == "done"
    assert [call.args[0] for call in queued.call_args_list] == [(world.turn.pk,)]


def test_a_dry_run_queues_no_mail(django_capture_on_commit_callbacks) -> None:
    world = two_power_world()
    with (
        mock.patch.object(turn_reports_email, "apply_async") as queued,
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert turn_dry_run(turn_id=world.turn.pk, now=timezone.now())["phases"]
    queued.assert_not_called()
