"""Invitations not yet accepted, on the GM's desk (issue 11): listed with the nation, the address, when
the newest link was sent and when it expires, in the GM's time zone; revoked or sent again by a
no-JavaScript form with its CSRF token, each audited; a revoked or accepted link says so to whoever
opens it, and a GM of another campaign can do neither."""

from __future__ import annotations

import io
import json
import re
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaign.gm.actions import gm_invitation_resend, gm_invitation_revoke
from campaign.models import Campaign, Delivery, Invitation, MailEvent, UserProfile
from campaign.models.audit import AuditEntry
from campaign.players.services import PlayerError, invitation_accept, invitation_url, player_invite
from tests.factories import CampaignFactory
from tests.worlds import World, two_power_world

pytestmark = pytest.mark.django_db

User = get_user_model()


def _desk_with_gm(world: World) -> tuple[Any, Client]:
    """The campaign's GM, reading times in New York, with a client that checks CSRF like a browser."""
    gm = User.objects.create_user("barham", "barham@example.org", "pw", is_staff=True)
    UserProfile.objects.create(user=gm, time_zone="America/New_York")
    Campaign.objects.filter(pk=world.campaign.pk).update(gm=gm, status="active")
    client = Client(enforce_csrf_checks=True)
    client.force_login(gm)
    return gm, client


def _desk(client: Client, world: World) -> str:
    response = client.get(reverse("admin:campaign_campaign_desk", args=[world.campaign.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _post(client: Client, url: str) -> Any:
    """A button on the desk pressed: the form's CSRF token sent with it."""
    return client.post(url, {"csrfmiddlewaretoken": client.cookies["csrftoken"].value}, follow=True)


def _shown(when: datetime) -> str:
    return timezone.localtime(when, ZoneInfo("America/New_York")).strftime("%-d %b %Y, %H:%M")


def _token(invitation: Invitation) -> str:
    return invitation_url(invitation).rstrip("/").rsplit("/", 1)[1]


def test_the_desk_lists_pending_invitations_in_the_gms_time_zone() -> None:
    world = two_power_world()
    gm, client = _desk_with_gm(world)
    assert "None: every invitation was accepted, revoked or replaced." in _desk(client, world)
    gb = player_invite(nation=world.gb, email="collingwood@example.org", actor=gm)
    fr = player_invite(nation=world.fr, email="villeneuve@example.org", actor=gm)
    invitation_accept(invitation=fr, user=fr.user, password="a-long-sea-shanty-1805")
    page = _desk(client, world)
    section = page[page.index("Invitations not yet accepted") : page.index("Delivery problems")]
    assert "Great Britain" in section and "collingwood@example.org" in section
    assert "villeneuve@example.org" not in section  # accepted: no longer pending
    assert gb.sent_at is not None
    assert _shown(gb.sent_at) in section and _shown(gb.sent_at + timedelta(days=30)) in section
    assert re.search(r"\d{2}:\d{2} E[SD]T", section)  # the GM's zone, named
    assert section.count('name="csrfmiddlewaretoken"') == 1  # Send again: a plain form
    assert section.count(">Revoke…</a>") == 1  # Revoke: asks first, on its own page


def test_revoking_an_invitation_is_audited_and_its_link_then_says_so() -> None:
    world = two_power_world()
    gm, client = _desk_with_gm(world)
    invitation = player_invite(nation=world.gb, email="collingwood@example.org", actor=gm)
    token = _token(invitation)
    url = reverse("admin:campaign_invitation_revoke", args=[world.campaign.pk, invitation.pk])
    _desk(client, world)  # the page sets the CSRF cookie
    asked = client.get(url)  # Revoke asks first, with the current deadline; nothing changes yet
    page = asked.content.decode()
    assert asked.status_code == 200 and "Revoke the invitation of collingwood@example.org" in page
    assert "current deadline" in page and 'value="Revoke the invitation"' in page
    assert Invitation.objects.get(pk=invitation.pk).open
    assert client.post(url).status_code == 403  # no CSRF token: refused
    assert Invitation.objects.get(pk=invitation.pk).open

    done = _post(client, url).content.decode()
    assert "The invitation of collingwood@example.org to command Great Britain is revoked" in done
    revoked = Invitation.objects.get(pk=invitation.pk)
    assert revoked.revoked and revoked.withdrawn_at is not None and revoked.accepted_at is None
    entry = AuditEntry.objects.get(action="invitation_revoked")
    assert entry.summary == "Invitation of collingwood@example.org to command Great Britain revoked."
    assert entry.actor_id == gm.pk
    assert "collingwood@example.org" not in done[done.index("Invitations not yet accepted") :]

    opened = Client().get(f"/invitations/{token}/")
    assert opened.status_code == 410
    assert "was revoked by the GM on" in opened.content.decode()
    assert "Channel 1805" in opened.content.decode()
    again = _post(client, url).content.decode()
    assert "was revoked already; invite the player anew." in again
    assert AuditEntry.objects.filter(action="invitation_revoked").count() == 1


def test_sending_an_invitation_again_mails_a_fresh_link_audited() -> None:
    world = two_power_world()
    gm, client = _desk_with_gm(world)
    invitation = player_invite(nation=world.gb, email="collingwood@example.org", actor=gm)
    first = invitation.sent_at
    _desk(client, world)
    url = reverse("admin:campaign_invitation_resend", args=[world.campaign.pk, invitation.pk])
    done = _post(client, url).content.decode()
    assert "is mailed again, with a fresh link" in done
    mails = Delivery.objects.filter(event=MailEvent.INVITATION).order_by("pk")
    assert mails.count() == 2 and mails[1].recipient == invitation.user
    resent = Invitation.objects.get(pk=invitation.pk)
    assert resent.open and resent.sent_at is not None and first is not None and resent.sent_at > first
    link = mails[1].data["url"]
    assert link.startswith("/invitations/") and Client().get(link).status_code == 200  # the fresh link works
    entry = AuditEntry.objects.get(action="invitation_resent")
    assert (
        entry.summary == "Invitation of collingwood@example.org to command Great Britain sent again with a fresh link."
    )
    assert entry.after is not None and entry.after["sent"] == resent.sent_at.isoformat()

    invitation_accept(invitation=resent, user=resent.user, password="a-long-sea-shanty-1805")
    refused = _post(client, url).content.decode()
    assert "was accepted already; sending it is no longer possible (replace the player instead)." in refused
    assert Delivery.objects.filter(event=MailEvent.INVITATION).count() == 2
    opened = Client().get(link)
    assert opened.status_code == 410 and "This invitation was accepted already" in opened.content.decode()


def test_invitation_actions_are_in_audit_log_json_and_refused_when_closed() -> None:
    world = two_power_world()
    gm, _ = _desk_with_gm(world)
    invitation = player_invite(nation=world.gb, email="collingwood@example.org", actor=gm)
    gm_invitation_resend(invitation=invitation, actor=gm)
    gm_invitation_revoke(invitation=invitation, actor=gm)
    with pytest.raises(PlayerError, match="revoked already"):
        gm_invitation_resend(invitation=invitation, actor=gm)
    out = io.StringIO()
    call_command("audit_log", world.campaign.slug, "--json", stdout=out)
    actions = [entry["action"] for entry in json.loads(out.getvalue())]
    assert actions == ["player_invited", "invitation_resent", "invitation_revoked"]


def test_a_gm_of_another_campaign_can_neither_revoke_nor_resend() -> None:
    world = two_power_world()
    gm, _ = _desk_with_gm(world)
    invitation = player_invite(nation=world.gb, email="collingwood@example.org", actor=gm)
    rival = User.objects.create_user("rival", "rival@example.org", "pw", is_staff=True)
    client = Client()
    client.force_login(rival)
    for name in ("revoke", "resend"):
        url = reverse(f"admin:campaign_invitation_{name}", args=[world.campaign.pk, invitation.pk])
        assert client.post(url).status_code == 404, name
    # Through the address of the rival's own campaign: the invitation is not one of its campaign's.
    other = CampaignFactory.create(slug="baltic-1807", name="Baltic 1807", gm=rival)
    url = reverse("admin:campaign_invitation_revoke", args=[other.pk, invitation.pk])
    assert client.post(url).status_code == 404
    assert Invitation.objects.get(pk=invitation.pk).open
    assert AuditEntry.objects.filter(action__startswith="invitation_").count() == 0


def test_an_address_invited_to_one_nation_is_refused_for_a_second_one_up_front() -> None:
    """One nation each (issue 25): an address with an open invitation to Britain cannot be invited to
    command France too — not on the web, not by the command — and the desk keeps only the first. It
    used to be accepted, refused only at the link, and left a dead invitation on the desk."""
    world = two_power_world()
    gm, client = _desk_with_gm(world)
    player_invite(nation=world.gb, email="collingwood@example.org", actor=gm)
    _desk(client, world)
    url = reverse("admin:campaign_nation_invite", args=[world.fr.pk])
    page = client.post(
        url, {"email": "Collingwood@example.org", "csrfmiddlewaretoken": client.cookies["csrftoken"].value}
    )
    assert page.status_code == 200
    said = page.content.decode().replace("&#x27;", "'")
    assert "is already invited to command Great Britain; one nation each" in said
    with pytest.raises(Exception, match="already invited to command Great Britain"):
        call_command("invite_player", world.campaign.slug, "--nation", "FR", "--email", "collingwood@example.org")
    assert list(Invitation.objects.values_list("nation__code", flat=True)) == ["GB"]
    desk = _desk(client, world)
    pending = desk[desk.index("Invitations not yet accepted") :]
    pending = pending[: pending.index("</table>")]
    assert "Great Britain" in pending and "France" not in pending


def test_an_expiring_invitation_on_needs_you_gives_its_time_in_the_gms_time_zone() -> None:
    world = two_power_world()
    gm, client = _desk_with_gm(world)
    invitation = player_invite(nation=world.gb, email="collingwood@example.org", actor=gm)
    sent = timezone.now() - timedelta(days=29)  # the link's 30 days end tomorrow
    Invitation.objects.filter(pk=invitation.pk).update(sent_at=sent)
    page = _desk(client, world)
    ends = timezone.localtime(sent + timedelta(days=30), ZoneInfo("America/New_York"))
    line = "The invitation of collingwood@example.org to command Great Britain is not accepted and its link expires "
    assert line + f"{ends:%a %-d %b %H:%M} ({ends.tzname()})." in page
    assert " UTC." not in page
