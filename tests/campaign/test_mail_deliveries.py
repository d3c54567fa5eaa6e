"""Mail players can trust: every event recorded once with its turn, sent once, retried, visible to the GM.

A real SMTP server (aiosmtpd) and real turn resolutions; the send task is called in-process here
(tests/campaign/test_mail_worker.py runs it on a real worker with the SMTP server down).
"""

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from campaign.mail.sending import deliveries_send
from campaign.models import Delivery, MailEvent, NationTurn
from campaign.outbox.mail import delivery_resend, turn_resolved_record
from campaign.tasks import mail_deliveries_send
from campaign.turn.lifecycle import campaign_pause, campaign_resume, turn_extend
from campaign.turn.runner import turn_dry_run
from tests.support.mail import html_links, inbox_of, parts, players_with_mail
from tests.support.turns import order_store, turn_resolve_inline
from tests.worlds import two_power_world

pytestmark = pytest.mark.django_db


def test_a_resolution_mails_each_player_their_own_report_and_the_gm_a_digest_once(smtp_inbox, settings) -> None:
    settings.SITE_URL = "https://admiralty.example.org"
    world = two_power_world()
    people = players_with_mail(world)
    NationTurn.objects.filter(turn=world.turn, nation=world.gb).update(submitted_at=timezone.now())
    # Accepted when given, impossible at resolution: Brest is not Britain's.
    lay_down: dict[str, Any] = {"class": "frigate", "name": "Amazon", "port": "brest"}
    order_store(world.turn, world.gb, "lay_down", **lay_down)
    turn_resolve_inline(world.turn)

    result = mail_deliveries_send()
    assert len(result["sent"]) == 6 and result["failed"] == [] and result["retrying"] == []
    # The report first, named by its news; the "no orders" mail; then the next turn's (issue 28).
    assert inbox_of(smtp_inbox.messages, people["GB"].email) == [
        "[Channel 1805] Turn 1: 1 order skipped, income 5 EP",
        "[Channel 1805] Turn 2 is open for orders",
    ]
    assert inbox_of(smtp_inbox.messages, people["FR"].email) == [
        "[Channel 1805] Turn 1: no orders given, income 4 EP",
        "[Channel 1805] Turn 1: no orders from France",
        "[Channel 1805] Turn 2 is open for orders",
    ]
    assert inbox_of(smtp_inbox.messages, people["GM"].email) == ["[Channel 1805] Turn 1 resolved: GM digest"]

    by_subject = {(m["X-Envelope-To"], str(m["Subject"])): m for m in smtp_inbox.messages}
    british = parts(by_subject[(people["GB"].email, "[Channel 1805] Turn 1: 1 order skipped, income 5 EP")])
    assert "Income 5 EP" in british["text/plain"] and "Income 4 EP" not in british["text/plain"]  # fog of war
    assert "Income 5 EP" in british["text/html"] and "Income 4 EP" not in british["text/html"]
    assert "https://admiralty.example.org/campaigns/channel-1805/orders/" in british["text/plain"]
    digest = parts(by_subject[(people["GM"].email, "[Channel 1805] Turn 1 resolved: GM digest")])["text/plain"]
    assert "No orders from: France." in digest
    assert "Great Britain, order 1 (lay down" in digest

    assert mail_deliveries_send() == {"sent": [], "retrying": [], "failed": []}  # a duplicate task sends nothing
    assert len(smtp_inbox.messages) == 6
    assert set(Delivery.objects.values_list("state", flat=True)) == {Delivery.State.SENT}


def test_html_mail_has_absolute_links_and_nothing_external(smtp_inbox, settings) -> None:
    settings.SITE_URL = "https://admiralty.example.org"
    world = two_power_world()
    players_with_mail(world)
    turn_resolve_inline(world.turn)
    mail_deliveries_send()
    assert smtp_inbox.messages
    for message in smtp_inbox.messages:
        html = parts(message)["text/html"]
        assert html_links(html), message["Subject"]
        assert all(link.startswith("https://admiralty.example.org/") for link in html_links(html))
        assert "<script" not in html and "<img" not in html and "<link" not in html and "src=" not in html


def test_recording_a_turns_mail_again_records_nothing_new() -> None:
    """A resumed resolution (or any repeat of phase 10's records) cannot add a second mail."""
    world = two_power_world()
    players_with_mail(world)
    turn_resolve_inline(world.turn)
    before = Delivery.objects.count()
    assert before == 7  # 2 reports, 2 turn-opened, 2 missed deadlines, 1 digest
    assert turn_resolved_record(turn=world.turn, now=timezone.now()) == 0
    assert Delivery.objects.count() == before


def test_a_dry_run_records_no_mail() -> None:
    world = two_power_world()
    players_with_mail(world)
    assert turn_dry_run(turn_id=world.turn.pk, now=timezone.now())["phases"]
    assert not Delivery.objects.exists()


def test_clock_changes_are_mailed_to_every_player(smtp_inbox) -> None:
    world = two_power_world()
    people = players_with_mail(world)
    world.campaign.status = "active"
    world.campaign.save()
    campaign_pause(campaign=world.campaign)
    campaign_resume(campaign=world.campaign)
    turn_extend(campaign=world.campaign, by=timedelta(days=2))
    mail_deliveries_send()
    expected = [
        "[Channel 1805] Turn 1: the clock is paused",
        "[Channel 1805] Turn 1: the clock is running again",
        "[Channel 1805] Turn 1: the deadline is extended",
    ]
    assert sorted(inbox_of(smtp_inbox.messages, people["GB"].email)) == sorted(expected)
    assert sorted(inbox_of(smtp_inbox.messages, people["FR"].email)) == sorted(expected)
    assert inbox_of(smtp_inbox.messages, people["GM"].email) == []
    extended = next(m for m in smtp_inbox.messages if "extended" in str(m["Subject"]))
    assert "The deadline is now" in parts(extended)["text/plain"]


def test_a_failing_smtp_server_backs_off_then_fails_with_its_error_and_the_gm_can_resend(smtp_server, settings) -> None:
    settings.MAIL_RETRY_BASE_SECONDS = 60
    settings.MAIL_MAX_ATTEMPTS = 3
    world = two_power_world()
    players_with_mail(world)
    world.campaign.status = "active"
    world.campaign.save()
    smtp_server.stop()
    now = timezone.now()
    campaign_pause(campaign=world.campaign, now=now)
    first = deliveries_send(now=now + timedelta(seconds=1))
    assert len(first.retrying) == 2 and first.retry_in == 60
    delivery = Delivery.objects.get(pk=first.retrying[0])
    assert delivery.state == Delivery.State.PENDING and delivery.attempts == 1
    assert "Connection refused" in delivery.error or "ConnectionRefusedError" in delivery.error
    assert deliveries_send(now=now + timedelta(seconds=30)).retrying == []  # not due yet
    second = deliveries_send(now=now + timedelta(seconds=62))
    assert second.retry_in == 120  # doubled
    third = deliveries_send(now=now + timedelta(seconds=62 + 121))
    assert sorted(third.failed) == sorted(first.retrying)
    delivery.refresh_from_db()
    assert delivery.state == Delivery.State.FAILED and delivery.attempts == 3 and delivery.error

    smtp_server.start()
    assert delivery_resend(delivery=delivery, now=timezone.now())
    assert deliveries_send(now=timezone.now()).sent == [delivery.pk]
    assert len(smtp_server.inbox.messages) == 1


def test_the_admin_lists_deliveries_with_state_and_error_and_resends(smtp_inbox, django_user_model) -> None:
    world = two_power_world()
    players_with_mail(world)
    turn_resolve_inline(world.turn)
    Delivery.objects.filter(event=MailEvent.GM_DIGEST).update(state="failed", attempts=12, error="550 Mailbox full")
    admin = django_user_model.objects.create_superuser("admiral", "admiral@example.org", "pw-0123456789")
    client = Client()
    client.force_login(admin)
    page = client.get("/admin/campaign/delivery/?state=failed")
    assert page.status_code == 200
    assert "550 Mailbox full" in page.content.decode() and "barham" in page.content.decode()
    failed = Delivery.objects.get(event=MailEvent.GM_DIGEST)
    response = client.post(
        "/admin/campaign/delivery/", {"action": "resend", "_selected_action": [failed.pk]}, follow=True
    )
    assert "1 mail queued to be sent again." in response.content.decode()
    failed.refresh_from_db()
    assert failed.state == Delivery.State.PENDING and failed.attempts == 0 and failed.error == ""
