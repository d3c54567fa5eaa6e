"""Issue 16, the mail of dispatches beyond the plain case: a report to the GM mailed to the GM and the
co-GMs (once each, as each chose), and a dispatch held back by distance whose mail names the same
turns in its subject and its text. Sent through a real SMTP server."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from campaign.dispatches.services import conversation_start, dispatch_report
from campaign.mail.sending import digests_send
from campaign.models import Campaign, Delivery, MailEvent, MailPreference, Nation, Turn
from campaign.tasks import mail_deliveries_send
from tests.support.dispatches import Powers, three_powers
from tests.support.mail import inbox_of, parts
from tests.support.turns import turn_resolve_inline

pytestmark = pytest.mark.django_db


@pytest.fixture
def p() -> Powers:
    return three_powers()


def send(p: Powers, sender: Nation, to: list[str], body: str) -> Any:
    return conversation_start(
        campaign=Campaign.objects.get(pk=p.campaign.pk),
        sender=sender,
        author_id=sender.player_id,
        to=to,
        subject="Terms",
        body=body,
        now=timezone.now(),
    )


def mails_to(smtp_inbox: Any, address: str, about: str = "dispatch") -> list[str]:
    """The text and HTML of the mails to ``address`` whose subject mentions ``about``."""
    return [
        parts(m)["text/plain"] + parts(m)["text/html"]
        for m in smtp_inbox.messages
        if m["X-Envelope-To"] == address and about in str(m["Subject"])
    ]


def dispatch_subjects(smtp_inbox: Any, address: str) -> list[str]:
    """The subjects of the dispatch mails to ``address`` (a turn's resolution mails its own too)."""
    unfolded = (s.replace("\r\n", "") for s in inbox_of(smtp_inbox.messages, address))  # a long header is folded
    return [s for s in unfolded if "dispatch from" in s]


def test_a_report_is_mailed_once_to_the_gm_and_each_co_gm_as_each_chose(p: Powers, smtp_inbox: Any) -> None:
    users = get_user_model()
    hood = users.objects.create_user("hood", "hood@example.org", "a-long-test-password")
    jervis = users.objects.create_user("jervis", "jervis@example.org", "a-long-test-password")
    p.campaign.co_gms.add(hood, jervis)
    MailPreference.objects.create(user=hood, campaign=p.campaign, event=MailEvent.DISPATCH_REPORTED, digest=True)
    MailPreference.objects.create(user=jervis, campaign=p.campaign, event=MailEvent.DISPATCH_REPORTED, enabled=False)
    sent = send(p, p.gb, ["FR"], "Your admiral is a coward and your ships are rotten.")
    for _ in range(2):  # a second report by the same nation is no second mail
        dispatch_report(
            dispatch=sent.dispatch, nation=p.fr, reporter_id=p.villeneuve.pk, reason="Insults", now=timezone.now()
        )
    for _ in range(3):  # the mail task run again sends nothing twice
        mail_deliveries_send()
    rows = {
        d.recipient.username: (d.state, d.digest) for d in Delivery.objects.filter(event=MailEvent.DISPATCH_REPORTED)
    }
    assert rows == {"barham": ("sent", False), "hood": ("pending", True), "jervis": ("skipped", False)}
    subject = "[Channel 1805] Turn 1: France reported a dispatch: Terms"
    assert inbox_of(smtp_inbox.messages, "barham@example.org") == [subject]
    assert inbox_of(smtp_inbox.messages, "hood@example.org") == []  # waiting for the digest
    assert digests_send(now=timezone.now() + timedelta(days=1)).sent != []
    assert digests_send(now=timezone.now() + timedelta(days=2)).sent == []
    assert inbox_of(smtp_inbox.messages, "hood@example.org") == ["Your Admiralty digest: 1 mail"]
    assert inbox_of(smtp_inbox.messages, "jervis@example.org") == []
    link = f"/campaigns/{p.campaign.slug}/dispatches/{sent.dispatch.conversation_id}/#d{sent.dispatch.pk}"
    for address in ("barham@example.org", "hood@example.org"):
        (text,) = mails_to(smtp_inbox, address, about="")
        assert "France reported a dispatch" in text and "Reason given: Insults" in text, address
        assert "from Great Britain" in text and "sent in Turn 1, Spring 1805" in text and link in text, address
        # Which dispatch and why: no fleet, no port, nothing of any nation's forces.
        assert "Channel Fleet" not in text and "Portsmouth" not in text and "Brest" not in text, address
    # The players are not mailed of a report.
    assert not Delivery.objects.filter(event=MailEvent.DISPATCH_REPORTED, recipient__in=[p.nelson, p.villeneuve])


def test_a_dispatch_held_back_by_distance_names_the_turn_it_was_sent_in_and_the_one_it_arrived_in(
    p: Powers, smtp_inbox: Any
) -> None:
    Campaign.objects.filter(pk=p.campaign.pk).update(dispatch_delay_zones=2)
    send(p, p.gb, ["FR", "ES"], "Meet at Lisbon.")  # France is near (1 zone), Spain far (3)
    mail_deliveries_send()
    turn_resolve_inline(Turn.objects.get(pk=p.w.turn.pk))
    arrival = Turn.objects.get(campaign=p.campaign, number=2)
    # Mail may go out later than the turn it tells of (a digest, a retry): the subject keeps its turn.
    Campaign.objects.filter(pk=p.campaign.pk).update(turn_number=3)
    mail_deliveries_send()
    assert dispatch_subjects(smtp_inbox, "villeneuve@example.org") == [
        "[Channel 1805] Turn 1: a dispatch from Great Britain: Terms"
    ]
    assert dispatch_subjects(smtp_inbox, "gravina@example.org") == [
        "[Channel 1805] Turn 2: a dispatch from Great Britain (sent in turn 1): Terms"
    ]
    (near,) = mails_to(smtp_inbox, "villeneuve@example.org")
    assert "Sent in Turn 1, Spring 1805." in near and "reached" not in near
    (far,) = mails_to(smtp_inbox, "gravina@example.org")
    reached = f"Turn 2, {arrival.get_season_display()} {arrival.year}"
    assert f"Sent in Turn 1, Spring 1805. It reached Spain at the start of {reached}." in far
    assert f"reached Spain at the start of {reached}" in far.split("<html", 1)[-1]  # the HTML part says the same
