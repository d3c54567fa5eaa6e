"""Setting the deadline to an exact time (issue 29): earlier or later, typed in the GM's own time zone,
with a reason; audited, every player mailed; refused, changing nothing, when it has passed or has no
reason. The page shows the current deadline."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaign.accounts.preferences import profile_time_zone_set
from campaign.models import Campaign, Delivery, MailEvent, Nation, Turn
from campaign.models.audit import AuditEntry
from tests.worlds import World, two_power_world

pytestmark = pytest.mark.django_db

User = get_user_model()


def _gm_in_paris(world: World) -> tuple[Any, Client]:
    gm = User.objects.create_user("barham", "barham@example.org", "pw", is_staff=True)
    profile_time_zone_set(user_id=gm.pk, name="Europe/Paris")
    Campaign.objects.filter(pk=world.campaign.pk).update(gm=gm, status="active")
    client = Client()
    client.force_login(gm)
    return gm, client


def test_the_gm_brings_the_deadline_forward_to_an_exact_time_in_their_own_time_zone() -> None:
    deadline = datetime(2099, 1, 20, 18, 0, tzinfo=UTC)
    world = two_power_world(deadline=deadline)
    _, client = _gm_in_paris(world)
    nelson = User.objects.create_user("nelson", "nelson@example.org")
    Nation.objects.filter(pk=world.gb.pk).update(player=nelson)
    page = client.get(reverse("admin:campaign_campaign_extend", args=[world.campaign.pk])).content.decode()
    # The current deadline, in Paris time (UTC+1 in January).
    assert "current deadline <strong>Tuesday 20 January 2099, 19:00 CET</strong>" in page
    assert "Europe/Paris" in page

    url = reverse("admin:campaign_campaign_extend", args=[world.campaign.pk])
    response = client.post(url, {"deadline": "2099-01-15T09:30", "reason": "Everyone has sent orders early."})
    assert response.status_code == 302
    turn = Turn.objects.get(pk=world.turn.pk)
    assert turn.deadline == datetime(2099, 1, 15, 8, 30, tzinfo=UTC)  # 09:30 in Paris
    entry = AuditEntry.objects.get(campaign_id=world.campaign.pk, action="turn_deadline_set")
    assert entry.reason == "Everyone has sent orders early."
    assert entry.summary == "Deadline of turn 1 brought forward to 2099-01-15 08:30 UTC."
    assert entry.before == {"deadline": deadline.isoformat()}
    mail = Delivery.objects.get(campaign=world.campaign, event=MailEvent.CLOCK_CHANGED)
    assert mail.recipient == nelson and mail.data["change"] == "deadline_set"
    desk = client.get(response["Location"]).content.decode()
    assert "Turn 1 now ends Thursday 15 January 2099, 09:30 (CET)." in desk

    # Later again, past the old deadline.
    client.post(url, {"deadline": "2099-02-01T12:00", "reason": "Carnival."})
    assert Turn.objects.get(pk=world.turn.pk).deadline == datetime(2099, 2, 1, 11, 0, tzinfo=UTC)
    assert AuditEntry.objects.filter(campaign_id=world.campaign.pk, summary__contains="put back").count() == 1


@pytest.mark.parametrize(
    ("post", "error"),
    [
        ({"deadline": "2001-01-01T10:00", "reason": "Oops."}, "That time has passed; choose one in the future"),
        ({"deadline": "2099-01-15T09:30", "reason": "  "}, "This field is required."),
        ({"deadline": "next tuesday", "reason": "Soon."}, "Enter a date and time, e.g. 2026-12-24 18:00."),
    ],
)
def test_a_deadline_in_the_past_without_a_reason_or_unreadable_is_refused_and_changes_nothing(
    post: dict[str, str], error: str
) -> None:
    world = two_power_world()
    _, client = _gm_in_paris(world)
    before = Turn.objects.get(pk=world.turn.pk).deadline
    response = client.post(reverse("admin:campaign_campaign_extend", args=[world.campaign.pk]), post)
    assert response.status_code == 200 and error in response.content.decode()
    assert Turn.objects.get(pk=world.turn.pk).deadline == before
    assert not AuditEntry.objects.filter(campaign_id=world.campaign.pk).exists()


def test_extending_keeps_working_and_records_its_reason() -> None:
    world = two_power_world()
    _, client = _gm_in_paris(world)
    before = Turn.objects.get(pk=world.turn.pk).deadline
    assert before is not None
    url = reverse("admin:campaign_campaign_extend", args=[world.campaign.pk])
    assert client.post(url, {"days": 2, "hours": 0, "reason": "Holidays."}).status_code == 302
    assert Turn.objects.get(pk=world.turn.pk).deadline == before + timedelta(days=2)
    assert AuditEntry.objects.get(campaign_id=world.campaign.pk, action="turn_extended").reason == "Holidays."


def test_a_resolved_campaign_turn_has_no_deadline_to_set() -> None:
    world = two_power_world()
    _, client = _gm_in_paris(world)
    Turn.objects.filter(pk=world.turn.pk).update(status=Turn.Status.RESOLVED)
    url = reverse("admin:campaign_campaign_extend", args=[world.campaign.pk])
    later = timezone.localtime(timezone.now() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    response = client.post(url, {"deadline": later, "reason": "Why not."})
    assert "has no open turn, nor one waiting for the table, to set a deadline for." in response.content.decode()
