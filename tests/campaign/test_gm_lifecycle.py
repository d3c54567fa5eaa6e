"""A campaign's life (issue 29): set up with its clock stopped (the admin's "Add campaign" and
load_scenario without --start), started by its GM from a check list, and closed once ended."""

from __future__ import annotations

import io
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaign.gm.actions import campaign_end, gm_campaign_clock_start
from campaign.models import Campaign, Delivery, MailEvent, Turn
from campaign.models.audit import AuditEntry
from campaign.tasks import mail_deliveries_send
from campaign.turn.lifecycle import TurnControlError, turns_due
from tests.support.mail import inbox_of, parts, players_with_mail
from tests.worlds import two_power_world

pytestmark = pytest.mark.django_db

User = get_user_model()


def _load(*args: str) -> str:
    out = io.StringIO()
    call_command("load_scenario", "europe-1805", *args, stdout=out)
    return out.getvalue().strip()


def test_load_scenario_sets_up_a_campaign_whose_clock_does_not_run_until_started() -> None:
    assert _load("--slug", "quiet", "--seed", "1") == "quiet"
    campaign = Campaign.objects.get(slug="quiet")
    assert (campaign.status, campaign.gm) == ("setup", None)
    turn = Turn.objects.get(campaign=campaign, number=1)
    Turn.objects.filter(pk=turn.pk).update(deadline=timezone.now() - timedelta(hours=1))
    assert turn.pk not in turns_due(now=timezone.now())  # its deadline passed, but the clock stands still
    assert _load("--slug", "running", "--seed", "1", "--start") == "running"
    assert Campaign.objects.get(slug="running").status == "active"


def test_load_scenario_gm_makes_a_staff_account_the_campaigns_gm_and_refuses_any_other() -> None:
    barham = User.objects.create_user("barham", "barham@example.org", is_staff=True)
    User.objects.create_user("nelson", "nelson@example.org")
    assert _load("--slug", "run-by-barham", "--gm", "barham") == "run-by-barham"
    assert Campaign.objects.get(slug="run-by-barham").gm == barham
    with pytest.raises(CommandError, match="No account with the username 'nobody'"):
        _load("--slug", "orphan", "--gm", "nobody")
    with pytest.raises(CommandError, match="'nelson' is not staff"):
        _load("--slug", "orphan", "--gm", "nelson")
    assert not Campaign.objects.filter(slug="orphan").exists()


def test_starting_sets_the_first_deadline_tells_every_player_and_is_audited(smtp_inbox: Any) -> None:
    world = two_power_world()
    people = players_with_mail(world)
    Campaign.objects.filter(pk=world.campaign.pk).update(status="setup")
    with pytest.raises(TurnControlError, match="first deadline has passed"):
        gm_campaign_clock_start(
            campaign=world.campaign, actor=people["GM"], first_deadline=timezone.now() - timedelta(minutes=1)
        )
    assert Campaign.objects.get(pk=world.campaign.pk).status == "setup"
    when = (timezone.now() + timedelta(days=4)).replace(microsecond=0)
    turn = gm_campaign_clock_start(campaign=world.campaign, actor=people["GM"], first_deadline=when)
    assert turn is not None and turn.deadline == when
    assert Campaign.objects.get(pk=world.campaign.pk).status == "active"
    snapshot = Turn.objects.get(pk=world.turn.pk).snapshot
    assert snapshot is not None and snapshot["campaign"]["status"] == "active"
    entry = AuditEntry.objects.get(campaign_id=world.campaign.pk, action="campaign_started")
    assert (entry.before or {})["status"] == "setup" and (entry.after or {})["status"] == "active"
    with pytest.raises(TurnControlError, match="Channel 1805 is active; only a campaign being set up can be started"):
        gm_campaign_clock_start(campaign=world.campaign, actor=people["GM"], first_deadline=when)
    mail_deliveries_send()
    assert inbox_of(smtp_inbox.messages, "nelson@example.org") == ["[Channel 1805] Turn 1: the campaign has started"]
    [message] = [m for m in smtp_inbox.messages if m["X-Envelope-To"] == "villeneuve@example.org"]
    assert "The campaign has started in Channel 1805, turn 1." in parts(message)["text/plain"]
    assert Delivery.objects.filter(event=MailEvent.CLOCK_CHANGED).count() == 2


def test_an_ended_campaign_cannot_be_started() -> None:
    world = two_power_world()
    Campaign.objects.filter(pk=world.campaign.pk).update(status="setup")
    campaign_end(campaign=world.campaign, actor=None)
    with pytest.raises(TurnControlError, match="Channel 1805 is ended; only a campaign being set up can be started"):
        gm_campaign_clock_start(campaign=world.campaign, actor=None, first_deadline=timezone.now() + timedelta(days=1))


def test_the_start_page_shows_the_check_list_and_starts_only_with_both_boxes_ticked() -> None:
    world = two_power_world()
    people = players_with_mail(world)
    User.objects.filter(pk=people["GM"].pk).update(is_staff=True)
    world.campaign.settings = {"economy.upkeep_divisor": 25}
    world.campaign.status = Campaign.Status.SETUP
    world.campaign.nmr_policy = "ask_gm"
    world.campaign.save()
    client = Client()
    client.force_login(people["GM"])
    desk = client.get(reverse("admin:campaign_campaign_desk", args=[world.campaign.pk])).content.decode()
    assert "Channel 1805 is being set up: its clock does not run yet." in desk
    assert "When orders are missing: The GM is asked (the turn waits)" in desk  # not "the gm is asked"
    url = reverse("admin:campaign_campaign_clock_start", args=[world.campaign.pk])
    assert url in desk
    page = client.get(url).content.decode()
    assert "✔ France: played by villeneuve" in page and "✔ Great Britain: played by nelson" in page
    assert "Every nation has a player." in page and "1 house rule: a number differs" in page
    when = timezone.localtime(timezone.now() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    refused = client.post(url, {"first_deadline": when, "players_checked": "on"}).content.decode()
    assert "Tick this once you have reviewed the rules" in refused
    assert Campaign.objects.get(pk=world.campaign.pk).status == "setup"
    past = client.post(url, {"first_deadline": "2001-01-01T10:00", "players_checked": "on", "rules_checked": "on"})
    assert "the first deadline must be in the future" in past.content.decode()
    done = client.post(url, {"first_deadline": when, "players_checked": "on", "rules_checked": "on"})
    assert done.status_code == 302
    assert Campaign.objects.get(pk=world.campaign.pk).status == "active"
    again = client.get(url).content.decode()
    assert "Channel 1805 is active: only a campaign being set up can be started." in again


def test_the_owner_gm_deletes_an_ended_campaign_after_typing_its_name_with_its_export_offered() -> None:
    world = two_power_world()
    people = players_with_mail(world)
    User.objects.filter(pk=people["GM"].pk).update(is_staff=True)
    deputy = User.objects.create_user("cornwallis", "cornwallis@example.org", is_staff=True)
    world.campaign.co_gms.add(deputy)
    Campaign.objects.filter(pk=world.campaign.pk).update(status="active")
    client, helper = Client(), Client()
    client.force_login(people["GM"])
    helper.force_login(deputy)
    url = reverse("admin:campaign_campaign_delete", args=[world.campaign.pk])
    assert client.get(url).status_code == 403  # in play: end it first
    campaign_end(campaign=world.campaign, actor=None)
    assert helper.get(url).status_code == 403  # a co-GM runs it but does not delete it
    page = client.get(url).content.decode()
    assert reverse("admin:campaign_campaign_export", args=[world.campaign.pk]) in page
    assert "Download its export" in page
    wrong = client.post(url, {"name": "Channel 1806"}).content.decode()
    assert "Type the campaign&#x27;s name exactly as it is written, Channel 1805, to delete it." in wrong
    assert Campaign.objects.filter(pk=world.campaign.pk).exists()
    done = client.post(url, {"name": "Channel 1805"})
    assert done.status_code == 302
    assert not Campaign.objects.filter(pk=world.campaign.pk).exists()
    assert not Turn.objects.filter(pk=world.turn.pk).exists()
    entry = AuditEntry.objects.get(campaign_id=world.campaign.pk, action="campaign_deleted")
    assert entry.actor_id == people["GM"].pk and "Channel 1805 (ended) deleted by its GM" in entry.summary
