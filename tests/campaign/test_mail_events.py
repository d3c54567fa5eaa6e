"""The events beyond a resolution: deadline reminders, GM announcements, a nation given to a player,
and the turn-opened mail's .ics attachment (real SMTP server; the send task in-process)."""

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from icalendar import Calendar

from campaign.models import AuditEntry, Campaign, Delivery, MailEvent, NationTurn, Turn
from campaign.outbox.mail import deadline_reminders_record
from campaign.tasks import mail_deliveries_send, mail_reminders
from tests.support.mail import inbox_of, parts, players_with_mail
from tests.support.turns import order_store, turn_resolve_inline
from tests.worlds import two_power_world

pytestmark = pytest.mark.django_db


def active_world(hours_to_deadline: float) -> tuple:
    world = two_power_world(deadline=timezone.now() + timedelta(hours=hours_to_deadline))
    Campaign.objects.filter(pk=world.campaign.pk).update(status=Campaign.Status.ACTIVE)
    return world, players_with_mail(world)


def test_reminders_go_once_a_turn_only_to_nations_without_orders_within_the_lead_time(smtp_inbox) -> None:
    world, people = active_world(hours_to_deadline=30)
    assert mail_reminders() == 0  # 30 h before the deadline: the default lead time is 24 h
    Campaign.objects.filter(pk=world.campaign.pk).update(reminder_hours=36)
    order_store(world.turn, world.gb, "posture", fleet=world.channel_fleet.pk, posture="seek")  # Britain has orders
    assert mail_reminders() == 1
    assert mail_reminders() == 0  # at most once a turn
    mail_deliveries_send()
    assert inbox_of(smtp_inbox.messages, people["FR"].email) == ["[Channel 1805] Turn 1: orders due in 30 hours"]
    assert inbox_of(smtp_inbox.messages, people["GB"].email) == []
    assert "no orders yet" in parts(smtp_inbox.messages[0])["text/plain"]


def test_a_ready_nation_or_one_that_submitted_is_not_reminded() -> None:
    world, _ = active_world(hours_to_deadline=2)
    NationTurn.objects.filter(turn=world.turn, nation=world.gb).update(ready=True)
    NationTurn.objects.filter(turn=world.turn, nation=world.fr).update(submitted_at=timezone.now())  # withdrew all
    assert deadline_reminders_record(now=timezone.now()) == 0
    assert not Delivery.objects.exists()


def test_the_reminder_reads_no_turn_snapshot_or_dice_log() -> None:
    """Every open turn of the server is looked at: their large JSON columns stay in the database."""
    world, _ = active_world(hours_to_deadline=2)
    Turn.objects.filter(pk=world.turn.pk).update(snapshot={"big": "x" * 1000}, dice_log=[{"die": "d6"}])
    with CaptureQueriesContext(connection) as queries:
        assert deadline_reminders_record(now=timezone.now()) == 2
    turn_reads = [q["sql"] for q in queries.captured_queries if 'FROM "campaign_turn"' in q["sql"]]
    assert turn_reads and not any('"snapshot"' in sql or '"dice_log"' in sql for sql in turn_reads), turn_reads


def test_the_turn_opened_mail_carries_the_deadline_as_an_ics_attachment(smtp_inbox) -> None:
    world, people = active_world(hours_to_deadline=2)
    lay_down: dict[str, Any] = {"class": "frigate", "name": "Amazon", "port": "portsmouth"}
    order_store(world.turn, world.gb, "lay_down", **lay_down)
    turn_resolve_inline(world.turn)
    mail_deliveries_send()
    turn2 = Turn.objects.get(campaign=world.campaign, number=2)
    [opened] = [
        m
        for m in smtp_inbox.messages
        if "open for orders" in str(m["Subject"]) and m["X-Envelope-To"] == people["GB"].email
    ]
    text = parts(opened)["text/plain"]
    assert "Under way for Great Britain:" in text and "Amazon (" in text and "building at Portsmouth" in text
    [attachment] = [p for p in opened.walk() if p.get_filename()]
    assert attachment.get_content_type() == "text/calendar" and attachment.get_filename() == "turn-2-deadline.ics"
    calendar = Calendar.from_ical(attachment.get_payload(decode=True))
    [event] = calendar.walk("VEVENT")
    assert event.decoded("dtstart") == turn2.deadline
    assert str(event["summary"]) == "Channel 1805: turn 2 deadline"


def test_a_gm_announcement_written_in_the_admin_reaches_every_player_once(smtp_inbox, django_user_model) -> None:
    world, people = active_world(hours_to_deadline=48)
    admin = django_user_model.objects.create_superuser("admiral", "admiral@example.org", "pw-0123456789")
    client = Client()
    client.force_login(admin)
    response = client.post(
        "/admin/campaign/announcement/add/",
        {"campaign": world.campaign.pk, "title": "Winter quarters", "body": "No sailing in January.\n\nBe warned."},
        follow=True,
    )
    assert "Mailed to 2 players." in response.content.decode()
    mail_deliveries_send()
    for who in ("GB", "FR"):
        assert inbox_of(smtp_inbox.messages, people[who].email) == [
            "[Channel 1805] Turn 1: announcement: Winter quarters"
        ]
    html = parts(smtp_inbox.messages[0])["text/html"]
    assert "<p>No sailing in January.</p>" in html


def test_a_player_given_a_nation_in_the_admin_is_told_with_a_link_to_set_a_password(
    smtp_inbox, django_user_model
) -> None:
    world, _ = active_world(hours_to_deadline=48)
    admin = django_user_model.objects.create_superuser("admiral", "admiral@example.org", "pw-0123456789")
    newcomer = django_user_model.objects.create_user("collingwood", "collingwood@example.org")  # no password
    client = Client()
    client.force_login(admin)
    page = client.get(f"/admin/campaign/nation/{world.gb.pk}/change/")
    assert page.status_code == 200
    form = page.context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and k in form.fields}
    data["player"] = newcomer.pk
    response = client.post(f"/admin/campaign/nation/{world.gb.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    mail_deliveries_send()
    assert inbox_of(smtp_inbox.messages, "collingwood@example.org") == [
        "[Channel 1805] Turn 1: you command Great Britain"
    ]
    [given] = [m for m in smtp_inbox.messages if m["X-Envelope-To"] == "collingwood@example.org"]
    text = parts(given)["text/plain"]
    assert "You have no password yet" in text and "/accounts/password_reset/" in text
    assert Delivery.objects.get(event=MailEvent.NATION_GIVEN).recipient == newcomer
    # The player replaced is told too (issue 11), and the change is in the audit log.
    assert inbox_of(smtp_inbox.messages, "nelson@example.org") == ["[Channel 1805] You no longer command Great Britain"]
    assert AuditEntry.objects.get(campaign_id=world.campaign.pk, action="player_replaced").after == {
        "player": "collingwood"
    }
