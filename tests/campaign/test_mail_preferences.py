"""Players control their mail: events on or off, at once or in a daily digest; one-click unsubscribe
by a signed link (RFC 8058) that works only for its own user and event; a calendar feed of deadlines."""

import json
import re
from datetime import timedelta

import pytest
from django.core import signing
from django.test import Client
from django.utils import timezone
from icalendar import Calendar

from campaign.accounts.preferences import unsubscribe_token
from campaign.mail.sending import digests_send
from campaign.models import Delivery, MailEvent, MailPreference, Turn
from campaign.tasks import mail_deliveries_send
from campaign.turn.lifecycle import turn_extend
from tests.support.mail import inbox_of, parts, players_with_mail
from tests.support.turns import turn_resolve_inline
from tests.web.fog_worlds import client_for
from tests.worlds import two_power_world

pytestmark = pytest.mark.django_db


def test_every_mail_carries_one_click_unsubscribe_headers_for_its_own_event(smtp_inbox) -> None:
    world = two_power_world()
    people = players_with_mail(world)
    turn_resolve_inline(world.turn)
    mail_deliveries_send()
    report = next(
        m
        for m in smtp_inbox.messages
        if m["X-Envelope-To"] == people["GB"].email
        and str(m["Subject"]).startswith("[Channel 1805] Turn 1: no orders given")
    )
    assert report["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    link = "".join(str(report["List-Unsubscribe"]).split()).strip("<>")  # unfolded
    assert link.startswith("http://") and "/mail/unsubscribe/" in link
    assert link in parts(report)["text/plain"]

    path = link.split("8000", 1)[1] if "8000" in link else link
    anonymous = Client(enforce_csrf_checks=True)
    page = anonymous.get(path)  # a link scanner's GET changes nothing
    assert page.status_code == 200 and "Stop <strong>turn resolved (your report)</strong>" in page.content.decode()
    assert not MailPreference.objects.exists()
    done = anonymous.post(path, {"List-Unsubscribe": "One-Click"})  # what the mail client sends, no CSRF token
    assert done.status_code == 200 and "no more" in done.content.decode()
    [choice] = MailPreference.objects.all()
    assert (choice.user, choice.campaign, choice.event, choice.enabled) == (
        people["GB"],
        world.campaign,
        MailEvent.TURN_RESOLVED,
        False,
    )


def test_an_unsubscribe_link_cannot_be_turned_to_another_user_or_event() -> None:
    world = two_power_world()
    people = players_with_mail(world)
    token = unsubscribe_token(user_id=people["GB"].pk, campaign_id=world.campaign.pk, event="turn_resolved")
    # Britain's signature on a payload naming France's player; a token signed for another purpose.
    payload = json.dumps({"u": people["FR"].pk, "c": world.campaign.pk, "e": "turn_resolved"}, separators=(",", ":"))
    forged = signing.b64_encode(payload.encode()).decode() + ":" + token.split(":", 1)[1]
    other_purpose = signing.dumps({"u": people["FR"].pk, "c": world.campaign.pk, "e": "turn_resolved"})
    client = Client()
    assert client.get(f"/mail/unsubscribe/{token}/").status_code == 200
    for bad in (forged, other_purpose, token[:-2] + "xx", "nonsense"):
        assert client.post(f"/mail/unsubscribe/{bad}/").status_code == 404
    assert not MailPreference.objects.exists()


def test_a_turned_off_event_is_not_sent_and_the_others_are(smtp_inbox) -> None:
    world = two_power_world()
    people = players_with_mail(world)
    client = client_for(people["GB"])
    page = client.get(f"/campaigns/{world.campaign.slug}/mail/")
    assert page.status_code == 200 and "Turn resolved (your report)" in page.content.decode()
    choices = {event.value: "now" for event in MailEvent}
    choices["turn_opened"] = "off"
    assert client.post(f"/campaigns/{world.campaign.slug}/mail/", choices).status_code == 302
    turn_resolve_inline(world.turn)
    mail_deliveries_send()
    assert not any("open for orders" in s for s in inbox_of(smtp_inbox.messages, people["GB"].email))
    assert any("open for orders" in s for s in inbox_of(smtp_inbox.messages, people["FR"].email))
    assert Delivery.objects.get(recipient=people["GB"], event="turn_opened").state == Delivery.State.SKIPPED


def test_the_preferences_page_refuses_bad_choices_and_strangers() -> None:
    world = two_power_world()
    people = players_with_mail(world)
    client = client_for(people["GB"])
    bad = {event.value: "now" for event in MailEvent} | {"turn_opened": "sometimes"}
    response = client.post(f"/campaigns/{world.campaign.slug}/mail/", bad)
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()
    assert not MailPreference.objects.exists()
    stranger = client_for(type(people["GB"]).objects.create_user("bonaparte", "b@example.org", "pw-0123456789"))
    assert stranger.get(f"/campaigns/{world.campaign.slug}/mail/").status_code == 404


def test_the_digest_gathers_a_days_events_into_one_mail(smtp_inbox) -> None:
    world = two_power_world()
    people = players_with_mail(world)
    world.campaign.status = "active"
    world.campaign.save()
    for event in MailEvent:
        MailPreference.objects.create(user=people["GB"], campaign=world.campaign, event=event, digest=True)
    turn_resolve_inline(world.turn)
    turn_extend(campaign=world.campaign, by=timedelta(days=1))
    mail_deliveries_send()
    assert inbox_of(smtp_inbox.messages, people["GB"].email) == []  # waiting for the digest
    assert len(inbox_of(smtp_inbox.messages, people["FR"].email)) == 4
    assert digests_send(now=timezone.now()).sent == []  # not due before the digest hour
    run = digests_send(now=timezone.now() + timedelta(days=1))
    assert len(run.sent) == 4
    [digest] = [m for m in smtp_inbox.messages if m["X-Envelope-To"] == people["GB"].email]
    assert digest["Subject"] == "Your Admiralty digest: 4 mails"
    text = parts(digest)["text/plain"]
    for subject in (
        "Turn 1: no orders given",  # the report: its subject names the turn's news
        "Turn 2 is open for orders",
        "no orders from Great Britain",
        "the deadline is extended",
    ):
        assert subject in text
    assert digests_send(now=timezone.now() + timedelta(days=2)).sent == []  # once


def test_the_calendar_feed_lists_every_deadline_and_can_be_revoked() -> None:
    world = two_power_world()
    people = players_with_mail(world)
    turn_resolve_inline(world.turn)
    client = client_for(people["FR"])
    assert client.post("/settings/calendar/", {"action": "renew"}).status_code == 302
    settings_page = client.get("/settings/").content.decode()
    found = re.search(r'value="([^"]*\.ics)"', settings_page)
    assert found is not None
    address = found.group(1)
    assert "/calendar/" in address and address.endswith(".ics")
    feed = Client().get(address.split("testserver", 1)[1])  # no login: the secret is the address
    assert feed.status_code == 200 and feed["Content-Type"].startswith("text/calendar")
    events = Calendar.from_ical(feed.content).walk("VEVENT")
    deadlines = {str(e["summary"]): e.decoded("dtstart") for e in events}
    turn2 = Turn.objects.get(campaign=world.campaign, number=2)
    assert world.turn.deadline is not None and turn2.deadline is not None
    assert deadlines == {
        "Channel 1805: turn 1 deadline": world.turn.deadline.replace(microsecond=0),  # iCalendar keeps seconds
        "Channel 1805: turn 2 deadline": turn2.deadline.replace(microsecond=0),
    }
    client.post("/settings/calendar/", {"action": "revoke"})
    assert Client().get(address.split("testserver", 1)[1]).status_code == 404
