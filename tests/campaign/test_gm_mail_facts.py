"""What the GM's and players' mail says about the campaign's end and who sent it (issue 29): the reason
the GM gave for ending it, the ports the winner really holds, a From naming the campaign and a Reply-To
reaching its GMs (real SMTP server; the send task in-process)."""

from __future__ import annotations

from email.utils import getaddresses

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from campaign.gm.actions import campaign_end
from campaign.models import Campaign, Delivery, MailEvent
from campaign.tasks import mail_deliveries_send, turn_resolve
from campaign.turn.lifecycle import turn_claim
from campaign.turn.runner import phase_run
from rules.ruleset import RulesetError
from tests.factories import PortFactory
from tests.support.mail import inbox_of, parts, players_with_mail
from tests.support.turns import turn_resolve_inline
from tests.worlds import two_power_world

pytestmark = pytest.mark.django_db

ENDED = "[Channel 1805] Turn 1: the campaign has ended, final standings"


def test_the_final_mail_tells_everyone_the_reason_the_gm_gave_for_ending(smtp_inbox) -> None:
    world = two_power_world()
    people = players_with_mail(world)
    Campaign.objects.filter(pk=world.campaign.pk).update(status=Campaign.Status.ACTIVE)
    campaign_end(campaign=world.campaign, actor=people["GM"], reason="The club season is over; thank you all.")
    mail_deliveries_send()
    ended = [m for m in smtp_inbox.messages if m["Subject"] == ENDED]
    assert {m["X-Envelope-To"] for m in ended} == {"nelson@example.org", "villeneuve@example.org", "barham@example.org"}
    for message in ended:
        assert "Why it ended: The club season is over; thank you all." in parts(message)["text/plain"]
        assert "Why it ended: The club season is over; thank you all." in parts(message)["text/html"]


def test_a_hold_n_ports_ending_names_the_ports_the_winner_really_holds(smtp_inbox) -> None:
    """France holds 2 ports where 1 wins: the report and the final mail say "holds 2 ports", not the
    number needed (they used to say "holds 1 ports")."""
    world = two_power_world()
    people = players_with_mail(world)
    Campaign.objects.filter(pk=world.campaign.pk).update(victory="ports", victory_ports=1, status="active")
    PortFactory.create(owner=world.fr, sea_zone=world.biscay, key="rochefort", name="Rochefort")
    world.campaign.refresh_from_db()
    for number in range(1, 11):
        phase_run(turn_id=world.turn.pk, number=number, now=timezone.now())
    assert Campaign.objects.get(pk=world.campaign.pk).status == "ended"
    mail_deliveries_send()
    [to_gm] = [m for m in smtp_inbox.messages if m["Subject"] == ENDED and m["X-Envelope-To"] == people["GM"].email]
    assert "Why it ended: France holds 2 ports (1 needed to win)." in parts(to_gm)["text/plain"]
    condition = "First to hold 1 port; then ports held, ships of the line and treasury"
    assert f"(victory condition: {condition}):" in parts(to_gm)["text/plain"]
    assert f"Ranked by the victory condition: {condition}." in parts(to_gm)["text/html"]
    assert ".." not in parts(to_gm)["text/html"]  # it used to end "treasury.."
    reasons = [d.data["reason"] for d in Delivery.objects.filter(event=MailEvent.CAMPAIGN_ENDED)]
    assert reasons == ["France holds 2 ports (1 needed to win)."] * 3


def test_campaign_mail_comes_from_the_campaign_and_replies_reach_its_gms(smtp_inbox) -> None:
    world = two_power_world()
    people = players_with_mail(world)
    deputy = get_user_model().objects.create_user("cornwallis", "Cornwallis@Example.org", first_name="William")
    world.campaign.co_gms.add(deputy)
    Campaign.objects.filter(pk=world.campaign.pk).update(status=Campaign.Status.ACTIVE)
    campaign_end(campaign=world.campaign, actor=people["GM"], reason="Done.")
    mail_deliveries_send()
    [to_britain] = [m for m in smtp_inbox.messages if m["X-Envelope-To"] == people["GB"].email]
    assert getaddresses([to_britain["From"]]) == [("Channel 1805 (Admiralty)", "admiralty@localhost")]
    assert getaddresses([to_britain["Reply-To"]]) == [
        ("barham", "barham@example.org"),
        ("William", "Cornwallis@example.org"),
    ]


def test_a_failed_resolution_is_mailed_to_every_gm_at_once_with_its_error_and_the_needs_you_list(
    smtp_inbox,
) -> None:
    """A turn whose ruleset is broken (a setting no rule knows, written past the checks) fails in its
    first phase: the GM and the co-GM are mailed at once with the error, what else needs them and the
    desk's link; the sweep's next failure of the same turn mails nobody again."""
    world = two_power_world()
    people = players_with_mail(world)
    deputy = get_user_model().objects.create_user("cornwallis", "cornwallis@example.org")
    world.campaign.co_gms.add(deputy)
    Campaign.objects.filter(pk=world.campaign.pk).update(status="active", settings={"no.such_rule": 3})
    assert turn_claim(turn_id=world.turn.pk, now=timezone.now())
    for _ in range(2):  # as the sweep runs it again
        with pytest.raises(RulesetError):
            turn_resolve(world.turn.pk)
    assert Delivery.objects.filter(event=MailEvent.TURN_FAILED).count() == 2
    mail_deliveries_send()
    subject = "[Channel 1805] Turn 1: its resolution failed"
    for address in (people["GM"].email, "cornwallis@example.org"):
        assert inbox_of(smtp_inbox.messages, address) == [subject]
    assert not inbox_of(smtp_inbox.messages, people["GB"].email)
    [to_gm] = [m for m in smtp_inbox.messages if m["X-Envelope-To"] == people["GM"].email]
    text = parts(to_gm)["text/plain"].replace("\r\n", "\n")
    assert "The resolution of turn 1 of Channel 1805 (Spring 1805) failed; the server tries it again" in text
    assert "RulesetError: no.such_rule: unknown setting" in text
    assert "Needs you now:\n- The resolution of turn 1 failed (twice); the sweep tries it again." in text
    assert f"/admin/campaign/campaign/{world.campaign.pk}/desk/" in text


def test_the_gm_digest_carries_the_needs_you_list(smtp_inbox) -> None:
    world = two_power_world()
    people = players_with_mail(world)
    Campaign.objects.filter(pk=world.campaign.pk).update(status="active", nmr_policy="ask_gm")
    turn_resolve_inline(world.turn)
    mail_deliveries_send()
    [digest] = [m for m in smtp_inbox.messages if m["X-Envelope-To"] == people["GM"].email]
    text = parts(digest)["text/plain"].replace("\r\n", "\n")
    assert "No orders from: France, Great Britain." in text
    assert "Needs you now:\n- Turn 2 has no orders from France, Great Britain" in text
    assert "Needs you now" in parts(digest)["text/html"]
