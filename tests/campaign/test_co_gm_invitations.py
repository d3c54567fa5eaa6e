"""Co-GMs invited by mail with a link, like players (issue 29): the GM invites an address from the desk,
the mail offers to help run the campaign, and following the link makes the account a co-GM (and staff),
each step audited; the link then says it was used, and a player's link cannot be taken as a co-GM's."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from campaign.mail.messages import message_for
from campaign.models import Campaign, Delivery, Invitation, MailEvent
from campaign.models.audit import AuditEntry
from campaign.permissions import runs_campaign
from campaign.players.services import (
    PlayerError,
    co_gm_accept,
    co_gm_invite,
    invitation_accept,
    invitation_from_token,
    invitation_url,
    player_invite,
)
from tests.worlds import World, two_power_world

pytestmark = pytest.mark.django_db

User = get_user_model()


def _gm(world: World) -> tuple[Any, Client]:
    gm = User.objects.create_user("barham", "barham@example.org", "pw", is_staff=True)
    Campaign.objects.filter(pk=world.campaign.pk).update(gm=gm, status="active")
    world.campaign.refresh_from_db()
    client = Client()
    client.force_login(gm)
    return gm, client


def test_a_new_address_invited_as_co_gm_follows_the_link_and_runs_the_campaign() -> None:
    world = two_power_world()
    _, client = _gm(world)
    desk = client.get(reverse("admin:campaign_campaign_desk", args=[world.campaign.pk])).content.decode()
    url = reverse("admin:campaign_campaign_co_gm_invite", args=[world.campaign.pk])
    assert url in desk
    sent = client.post(url, {"email": "cornwallis@example.org"})
    assert sent.status_code == 302
    invitation = Invitation.objects.get(email="cornwallis@example.org")
    assert invitation.nation is None and invitation.co_gm
    delivery = Delivery.objects.get(event=MailEvent.INVITATION, recipient=invitation.user)
    message = message_for(delivery)
    assert message is not None
    assert message.subject == "[Channel 1805] You are invited to help run it as a co-GM"
    assert "invites you to help run it as a co-GM" in str(message.body)
    # The link's signature holds the second it was signed, so the mailed link is read back rather than
    # compared with one signed now (which may differ by a second).
    [mailed] = re.findall(r"/invitations/([^/\s]+)/", str(message.body))
    assert invitation_from_token(mailed) == invitation
    invited = AuditEntry.objects.get(action="co_gm_invited")
    assert invited.summary == "cornwallis@example.org invited to help run the campaign as a co-GM."

    # The link, followed by the new account: it chooses a password and lands on the desk as a co-GM.
    link = Client()
    page = link.get(invitation_url(invitation)).content.decode()
    assert "Help run Channel 1805" in page and "join as a co-GM" in page
    done = link.post(invitation_url(invitation), {"password1": "Trafalgar-1805!", "password2": "Trafalgar-1805!"})
    assert done.status_code == 302
    assert done["Location"] == reverse("admin:campaign_campaign_desk", args=[world.campaign.pk])
    user = User.objects.get(email="cornwallis@example.org")
    assert user.is_staff
    assert runs_campaign(user, world.campaign.pk)
    assert link.get(done["Location"]).status_code == 200  # the desk, as a co-GM
    joined = AuditEntry.objects.get(action="co_gm_joined")
    assert joined.actor == user
    again = link.get(invitation_url(invitation))
    assert again.status_code == 410
    assert "its co-GM helps run the campaign" in again.content.decode()


def test_co_gm_invitations_refuse_bad_addresses_those_who_run_it_and_the_wrong_kind_of_link() -> None:
    world = two_power_world()
    gm, client = _gm(world)
    page = client.post(reverse("admin:campaign_campaign_co_gm_invite", args=[world.campaign.pk]), {"email": "x"})
    assert page.status_code == 200 and not Invitation.objects.exists()
    with pytest.raises(PlayerError, match=r"barham \(barham@example\.org\) runs Channel 1805 already"):
        co_gm_invite(campaign=world.campaign, email="barham@example.org", actor=gm)
    co_gm = co_gm_invite(campaign=world.campaign, email="hood@example.org", actor=gm)
    player = player_invite(nation=world.fr, email="villeneuve@example.org", actor=gm)
    with pytest.raises(PlayerError, match="to help run the campaign, not to command a nation"):
        invitation_accept(invitation=co_gm, user=co_gm.user, password="Trafalgar-1805!")
    with pytest.raises(PlayerError, match="to command a nation, not to help run the campaign"):
        co_gm_accept(invitation=player, user=player.user, password="Trafalgar-1805!")
    assert not world.campaign.co_gms.exists()
    # A second invitation to the same address replaces the first; the player's invitation stays open.
    second = co_gm_invite(campaign=world.campaign, email="hood@example.org", actor=gm)
    co_gm.refresh_from_db()
    assert co_gm.withdrawn_at is not None and second.open
    player.refresh_from_db()
    assert player.open
    # The desk lists both open invitations (the replaced one is gone).
    desk = client.get(reverse("admin:campaign_campaign_desk", args=[world.campaign.pk])).content.decode()
    assert "villeneuve@example.org" in desk and "hood@example.org" in desk
    stranger = User.objects.create_user("stranger", "s@example.org", "pw", is_staff=True)
    other = Client()
    other.force_login(stranger)
    assert other.get(reverse("admin:campaign_campaign_co_gm_invite", args=[world.campaign.pk])).status_code == 404


def test_the_desk_lists_a_co_gm_invitation_not_yet_accepted_with_send_again_and_revoke() -> None:
    """Issue 29: a co-GM's open invitation is in the desk's "Invitations not yet accepted" table, after
    the players', and can be mailed again or revoked from there like a player's."""
    world = two_power_world()
    gm, client = _gm(world)
    player = player_invite(nation=world.fr, email="villeneuve@example.org", actor=gm)
    co_gm = co_gm_invite(campaign=world.campaign, email=" Hood@Example.ORG", actor=gm)  # shown in lower case
    assert co_gm.email == co_gm.user.email == "hood@example.org"
    desk_url = reverse("admin:campaign_campaign_desk", args=[world.campaign.pk])
    desk = client.get(desk_url).content.decode()
    table = desk.split('id="invitations"', 1)[1].split("</table>", 1)[0]
    assert table.index("villeneuve@example.org") < table.index("hood@example.org")
    assert '<th scope="row">Co-GM</th>' in table
    assert "Send again: the invitation of hood@example.org to help run the campaign as a co-GM" in table
    resend = reverse("admin:campaign_invitation_resend", args=[world.campaign.pk, co_gm.pk])
    revoke = reverse("admin:campaign_invitation_revoke", args=[world.campaign.pk, co_gm.pk])
    assert resend in table and revoke in table

    mailed = Delivery.objects.filter(event=MailEvent.INVITATION, recipient=co_gm.user).count()
    assert client.post(resend).status_code == 302
    assert Delivery.objects.filter(event=MailEvent.INVITATION, recipient=co_gm.user).count() == mailed + 1
    assert AuditEntry.objects.get(action="invitation_resent").summary == (
        "Invitation of hood@example.org to help run the campaign as a co-GM sent again with a fresh link."
    )

    confirm = client.get(revoke).content.decode()
    assert "nobody can join as a co-GM with it" in confirm
    assert client.post(revoke).status_code == 302
    co_gm.refresh_from_db()
    assert co_gm.revoked and not co_gm.open
    player.refresh_from_db()
    assert player.open
    table = client.get(desk_url).content.decode().split('id="invitations"', 1)[1].split("</table>", 1)[0]
    assert "hood@example.org" not in table and "villeneuve@example.org" in table
