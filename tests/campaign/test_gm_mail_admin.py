"""The mail in the GM's admin, scoped like every campaign admin (issue 11): a GM sees, resends and announces
only for the campaigns they run — without Django's model permissions — another campaign's deliveries
and announcements do not exist for them (404), a superuser sees all; resends and announcements are
audited and read back by ``audit_log --json``."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from campaign.models import Announcement, Campaign, Delivery, MailEvent, Nation
from campaign.models.audit import AuditEntry
from tests.factories import CampaignFactory, NationFactory
from tests.worlds import World, two_power_world

pytestmark = pytest.mark.django_db

User = get_user_model()
DELIVERIES = "/admin/campaign/delivery/"
ANNOUNCEMENTS = "/admin/campaign/announcement/"


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _failed(campaign: Campaign, nation: Nation, recipient: Any, error: str) -> Delivery:
    return Delivery.objects.create(
        recipient=recipient,
        event=MailEvent.TURN_OPENED,
        campaign=campaign,
        nation=nation,
        state=Delivery.State.FAILED,
        attempts=12,
        error=error,
        due_at=timezone.now(),
    )


def _two_campaigns() -> tuple[World, Campaign, dict[str, Any], dict[str, Delivery]]:
    """Channel 1805 run by barham (Britain played by nelson), Baltic 1807 run by rival (Russia played by
    ushakov); one failed mail in each. Neither GM has any Django model permission: staff only."""
    world = two_power_world()
    barham = User.objects.create_user("barham", "barham@example.org", "pw", is_staff=True)
    rival = User.objects.create_user("rival", "rival@example.org", "pw", is_staff=True)
    nelson = User.objects.create_user("nelson", "nelson@example.org")
    ushakov = User.objects.create_user("ushakov", "ushakov@example.org")
    Campaign.objects.filter(pk=world.campaign.pk).update(gm=barham, status="active")
    Nation.objects.filter(pk=world.gb.pk).update(player=nelson)
    baltic = CampaignFactory.create(slug="baltic-1807", name="Baltic 1807", gm=rival, status="active")
    russia = NationFactory.create(campaign=baltic, code="RU", name="Russia", player=ushakov)
    mails = {
        "channel": _failed(world.campaign, world.gb, nelson, "550 Channel mailbox full"),
        "baltic": _failed(baltic, russia, ushakov, "550 Baltic mailbox full"),
    }
    people = {"barham": barham, "rival": rival, "nelson": nelson, "ushakov": ushakov}
    return world, baltic, people, mails


def test_a_gm_lists_sees_and_resends_only_their_campaigns_deliveries() -> None:
    world, baltic, people, mails = _two_campaigns()
    assert not people["barham"].user_permissions.exists() and not people["barham"].is_superuser
    gm = _client(people["barham"])
    listing = gm.get(DELIVERIES).content.decode()
    assert "550 Channel mailbox full" in listing and "Baltic" not in listing and "ushakov" not in listing
    assert "Channel 1805" in listing  # the campaign filter, by name
    other = mails["baltic"]
    for page in ("change", "history"):
        assert gm.get(f"{DELIVERIES}{other.pk}/{page}/").status_code == 404, page
    assert gm.get(f"{DELIVERIES}{other.pk}/delete/").status_code == 403  # as for any id: no deleting here
    assert gm.get(f"{DELIVERIES}?campaign__id__exact={baltic.pk}").status_code == 404

    # A forged resend of the Baltic's mail: not in this GM's list, so nothing happens and nothing is logged.
    gm.post(DELIVERIES, {"action": "resend", "_selected_action": [other.pk]})
    other.refresh_from_db()
    assert (other.state, other.attempts) == (Delivery.State.FAILED, 12)
    assert not AuditEntry.objects.exists()

    # The desk's link: this campaign's failed mail, from which the GM resends it.
    desk = gm.get(f"/admin/campaign/campaign/{world.campaign.pk}/desk/").content.decode()
    link = f"{DELIVERIES}?campaign__id__exact={world.campaign.pk}&amp;state__exact=failed"
    assert link in desk
    assert "550 Channel mailbox full" in gm.get(link.replace("&amp;", "&")).content.decode()
    done = gm.post(DELIVERIES, {"action": "resend", "_selected_action": [mails["channel"].pk]}, follow=True)
    assert "1 mail queued to be sent again." in done.content.decode()
    mine = Delivery.objects.get(pk=mails["channel"].pk)
    assert (mine.state, mine.attempts, mine.error) == (Delivery.State.PENDING, 0, "")
    entry = AuditEntry.objects.get(action="mail_resent")
    assert (entry.campaign_id, entry.actor_id) == (world.campaign.pk, people["barham"].pk)
    assert entry.after == {"mails": ["Turn opened (new deadline) to nelson (Great Britain)"]}

    # The other GM sees only theirs; a superuser sees both.
    rival = _client(people["rival"]).get(DELIVERIES).content.decode()
    assert "550 Baltic mailbox full" in rival and "550 Channel mailbox full" not in rival
    root = User.objects.create_superuser("admiral", "admiral@example.org", "pw")
    everything = _client(root).get(DELIVERIES).content.decode()
    assert "550 Baltic mailbox full" in everything and "Channel 1805" in everything
    assert _client(root).get(f"{DELIVERIES}{other.pk}/change/").status_code == 200


def test_the_desk_button_sends_the_campaigns_failed_mail_again_audited() -> None:
    world, _, people, mails = _two_campaigns()
    rival = _client(people["rival"])
    url = f"/admin/campaign/campaign/{world.campaign.pk}/mail/resend-failed/"
    assert rival.post(url).status_code == 404  # not their campaign
    gm = _client(people["barham"])
    assert gm.get(url).status_code == 405  # a button, never a link
    assert gm.post(url).status_code == 302
    assert Delivery.objects.get(pk=mails["channel"].pk).state == Delivery.State.PENDING
    assert Delivery.objects.get(pk=mails["baltic"].pk).state == Delivery.State.FAILED
    [entry] = AuditEntry.objects.filter(action="mail_resent")
    assert entry.campaign_id == world.campaign.pk and "1 mail sent again" in entry.summary
    again = gm.post(url, follow=True).content.decode()
    assert "No mail of this campaign has failed: nothing to send again." in again
    assert AuditEntry.objects.filter(action="mail_resent").count() == 1


def test_a_gm_announces_only_to_their_campaigns_and_a_forged_campaign_is_a_form_error() -> None:
    world, baltic, people, _ = _two_campaigns()
    Announcement.objects.create(campaign=baltic, title="Baltic news", body="Ice in the Gulf.")
    gm = _client(people["barham"])
    add = gm.get(f"{ANNOUNCEMENTS}add/")
    assert add.status_code == 200
    choices = [label for _, label in add.context["adminform"].form.fields["campaign"].choices]
    assert choices == ["---------", "Channel 1805"]
    assert "Baltic news" not in gm.get(ANNOUNCEMENTS).content.decode()
    baltic_news = Announcement.objects.get(title="Baltic news")
    assert gm.get(f"{ANNOUNCEMENTS}{baltic_news.pk}/change/").status_code == 404
    before = Delivery.objects.count()

    forged = gm.post(f"{ANNOUNCEMENTS}add/", {"campaign": baltic.pk, "title": "Surrender", "body": "Now."})
    assert forged.status_code == 200
    assert "Choose one of the campaigns you run: an announcement goes only to their players." in (
        forged.content.decode()
    )
    blank = gm.post(f"{ANNOUNCEMENTS}add/", {"campaign": world.campaign.pk, "title": "  ", "body": "Now."})
    assert "This field is required." in blank.content.decode()
    assert Announcement.objects.count() == 1 and Delivery.objects.count() == before
    assert not AuditEntry.objects.exists()

    sent = gm.post(
        f"{ANNOUNCEMENTS}add/",
        {"campaign": world.campaign.pk, "title": "Winter   quarters", "body": "The fleets winter in port."},
        follow=True,
    )
    assert "Mailed to 1 player." in sent.content.decode()
    announcement = Announcement.objects.get(campaign=world.campaign)
    assert announcement.title == "Winter quarters"
    [mail] = Delivery.objects.filter(event=MailEvent.ANNOUNCEMENT)
    assert mail.recipient == people["nelson"] and mail.data == {"announcement": announcement.pk}
    entry = AuditEntry.objects.get(action="announcement_sent")
    assert entry.summary == "Announcement “Winter quarters” mailed to 1 player."
    assert entry.after == {"title": "Winter quarters", "players": 1}

    everything = _client(User.objects.create_superuser("admiral", "a@example.org", "pw")).get(ANNOUNCEMENTS)
    assert "Baltic news" in everything.content.decode() and "Winter quarters" in everything.content.decode()


def test_resends_and_announcements_are_in_the_audit_log_and_its_json() -> None:
    world, _, people, mails = _two_campaigns()
    gm = _client(people["barham"])
    gm.post(DELIVERIES, {"action": "resend", "_selected_action": [mails["channel"].pk]})
    gm.post(f"{ANNOUNCEMENTS}add/", {"campaign": world.campaign.pk, "title": "Prize money", "body": "Paid."})
    out = io.StringIO()
    call_command("audit_log", world.campaign.slug, "--json", stdout=out)
    entries = {entry["action"]: entry for entry in json.loads(out.getvalue())}
    assert entries["mail_resent"]["actor"] == "barham"
    assert entries["mail_resent"]["after"] == {"mails": ["Turn opened (new deadline) to nelson (Great Britain)"]}
    assert entries["announcement_sent"]["summary"] == "Announcement “Prize money” mailed to 1 player."
    page = gm.get(f"/admin/campaign/auditentry/?campaign__id__exact={world.campaign.pk}").content.decode()
    assert "Mail sent again" in page and "Announcement sent" in page
