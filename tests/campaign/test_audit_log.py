"""The audit log (issue 11): append-only in the database, written by one service, read per campaign."""

from __future__ import annotations

import io
import json

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, connection, transaction
from django.test import Client
from django.urls import reverse

from campaign.audit import AuditError, audit_entries_for_campaign, audit_record
from campaign.backup.document import BackupError, campaign_export, campaign_import
from campaign.models import AuditEntry, Campaign
from campaign.selectors import audit_entries_for_user
from tests.factories import CampaignFactory
from tests.support.played_campaign import kept

pytestmark = pytest.mark.django_db


def _entry(campaign: Campaign, actor: User | None = None) -> AuditEntry:
    return audit_record(
        campaign=campaign,
        actor=actor,
        action="treasury_adjusted",
        summary="Treasury of France adjusted by -5 EP",
        before={"treasury": 20},
        after={"treasury": 15},
        reason="a typo in the scenario",
    )


def test_audit_record_keeps_who_what_before_after_and_reason() -> None:
    gm = User.objects.create_user("ada")
    campaign = CampaignFactory.create(gm=gm, turn_number=4)
    entry = _entry(campaign, gm)
    entry.refresh_from_db()
    assert (entry.actor_id, entry.actor_name, entry.campaign_slug, entry.turn) == (gm.pk, "ada", campaign.slug, 4)
    assert (entry.before, entry.after, entry.reason) == ({"treasury": 20}, {"treasury": 15}, "a typo in the scenario")
    assert entry.action_label == "Treasury adjusted"


def test_command_line_actor_is_named_by_its_login() -> None:
    entry = _entry(CampaignFactory.create(), None)
    assert entry.actor_id is None
    assert entry.actor_name.startswith("command line (")


@pytest.mark.parametrize(
    "statement", ["UPDATE campaign_auditentry SET summary = 'forged'", "DELETE FROM campaign_auditentry"]
)
def test_the_database_refuses_to_change_or_delete_an_entry(statement: str) -> None:
    entry = _entry(CampaignFactory.create())
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(statement + " WHERE id = %s", [entry.pk])
    entry.refresh_from_db()
    assert entry.summary == "Treasury of France adjusted by -5 EP"


def test_the_orm_cannot_change_or_delete_an_entry_either() -> None:
    entry = _entry(CampaignFactory.create())
    entry.summary = "forged"
    with pytest.raises(IntegrityError), transaction.atomic():
        entry.save()
    with pytest.raises(IntegrityError), transaction.atomic():
        AuditEntry.objects.filter(pk=entry.pk).delete()
    assert AuditEntry.objects.get(pk=entry.pk).summary == "Treasury of France adjusted by -5 EP"


def test_entries_outlive_their_campaign() -> None:
    campaign = CampaignFactory.create()
    entry = _entry(campaign)
    campaign.delete()
    assert AuditEntry.objects.filter(pk=entry.pk, campaign_slug=campaign.slug).exists()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"action": "Treasury Adjusted"}, "lower-case"),
        ({"action": ""}, "lower-case"),
        ({"summary": "   "}, "needs a summary"),
        ({"before": {"when": object()}}, "JSON cannot store"),
        ({"reason": "x" * 2001}, "at most 2000"),
    ],
)
def test_bad_entries_are_refused_and_nothing_is_written(kwargs: dict[str, object], message: str) -> None:
    campaign = CampaignFactory.create()
    args: dict[str, object] = {"campaign": campaign, "actor": None, "action": "campaign_paused", "summary": "Paused"}
    with pytest.raises(AuditError, match=message):
        audit_record(**{**args, **kwargs})  # type: ignore[arg-type]
    assert not AuditEntry.objects.exists()


def test_a_long_summary_is_cut_to_one_line_of_300() -> None:
    entry = audit_record(
        campaign=CampaignFactory.create(), actor=None, action="campaign_paused", summary="word\n" * 100
    )
    assert len(entry.summary) == 300 and entry.summary.endswith("…") and "\n" not in entry.summary


def test_selectors_scope_to_the_campaign_and_to_the_campaigns_a_user_runs() -> None:
    gm, other = User.objects.create_user("gm"), User.objects.create_user("other")
    mine, theirs = CampaignFactory.create(gm=gm), CampaignFactory.create(gm=other)
    first, second, foreign = _entry(mine), _entry(mine), _entry(theirs)
    assert list(audit_entries_for_campaign(campaign_id=mine.pk)) == [second, first]
    assert set(audit_entries_for_user(user=gm)) == {first, second}
    assert foreign not in audit_entries_for_user(user=gm)
    root = User.objects.create_superuser("root")
    assert set(audit_entries_for_user(user=root)) == {first, second, foreign}


# --- export, import, audit_log command ------------------------------------------------------------


def _europe_with_log() -> Campaign:
    call_command("load_scenario", "europe-1805", "--start", "--seed", "1805", stdout=io.StringIO())
    campaign = Campaign.objects.get(slug="europe-1805")
    gm = User.objects.create_user("ada")
    audit_record(campaign=campaign, actor=gm, action="campaign_paused", summary="Europe 1805 paused")
    _entry(campaign, gm)
    return campaign


@pytest.fixture
def europe_with_log(db: None) -> Campaign:
    """europe-1805 with two entries in its log, its rows copied in (made once, kept under
    the played-rows cache): the tests read, export and import the log; the tests above write it for real."""
    return kept(_europe_with_log)


def test_the_log_round_trips_through_export_and_import(europe_with_log: Campaign) -> None:
    document = json.loads(json.dumps(campaign_export(campaign=europe_with_log)))
    assert [e["summary"] for e in document["audit"]] == ["Europe 1805 paused", "Treasury of France adjusted by -5 EP"]
    assert document["audit"][1] | {"at": "-"} == {
        "at": "-",
        "actor": "ada",
        "turn": 1,
        "action": "treasury_adjusted",
        "summary": "Treasury of France adjusted by -5 EP",
        "before": {"treasury": 20},
        "after": {"treasury": 15},
        "reason": "a typo in the scenario",
    }
    copy = campaign_import(document=document, slug="copy")
    again = json.loads(json.dumps(campaign_export(campaign=copy)))
    assert again["audit"] == document["audit"]
    restored = audit_entries_for_campaign(campaign_id=copy.pk).first()
    assert restored is not None and restored.actor_id is None and restored.campaign_slug == "copy"


def test_a_turn_snapshot_and_a_campaign_without_gm_actions_have_no_log(europe_with_log: Campaign) -> None:
    assert "audit" not in campaign_export(campaign=europe_with_log, with_snapshots=False)
    call_command("load_scenario", "europe-1805", "--start", "--slug", "fresh", stdout=io.StringIO())
    assert "audit" not in campaign_export(campaign=Campaign.objects.get(slug="fresh"))


def test_an_entry_with_a_bad_time_or_action_is_refused_by_its_path(europe_with_log: Campaign) -> None:
    document = json.loads(json.dumps(campaign_export(campaign=europe_with_log)))
    document["audit"][0]["at"] = "yesterday"
    document["audit"][1]["action"] = "DROP TABLE"
    with pytest.raises(BackupError) as refused:
        campaign_import(document=document, slug="copy")
    assert any(p.startswith("audit[1].action") for p in refused.value.problems)
    document["audit"][1]["action"] = "treasury_adjusted"
    with pytest.raises(BackupError, match=r"audit\[0\]\.at: 'yesterday' is not a date and time"):
        campaign_import(document=document, slug="copy")
    assert not Campaign.objects.filter(slug="copy").exists()


def test_audit_log_command_prints_the_log_oldest_first(europe_with_log: Campaign) -> None:
    out = io.StringIO()
    call_command("audit_log", "europe-1805", stdout=out)
    text = out.getvalue()
    assert text.index("ada: Europe 1805 paused") < text.index("ada: Treasury of France adjusted by -5 EP")
    assert 'before {"treasury": 20} → after {"treasury": 15}' in text
    assert "reason: a typo in the scenario" in text and text.rstrip().endswith("2 entries.")
    out = io.StringIO()
    call_command("audit_log", "europe-1805", "--json", stdout=out)
    entries = json.loads(out.getvalue())
    assert [e["action"] for e in entries] == ["campaign_paused", "treasury_adjusted"]


def test_audit_log_command_refuses_an_unknown_campaign(db: None) -> None:
    with pytest.raises(CommandError, match="No campaign with slug 'nowhere'") as refused:
        call_command("audit_log", "nowhere")
    assert refused.value.returncode == 2


# --- the admin page ---------------------------------------------------------------------------------


def test_the_admin_shows_each_gm_only_their_campaigns_entries_read_only(db: None) -> None:
    ada = User.objects.create_user("ada", password="x", is_staff=True)
    bob = User.objects.create_user("bob", password="x", is_staff=True)
    mine = CampaignFactory.create(gm=ada, name="Channel 1805")
    theirs = CampaignFactory.create(gm=bob, name="Baltic 1807")
    own = _entry(mine, ada)
    audit_record(campaign=theirs, actor=bob, action="campaign_paused", summary="Baltic secret pause")
    client = Client()
    client.force_login(ada)
    listing = client.get(reverse("admin:campaign_auditentry_changelist"))
    page = listing.content.decode()
    assert listing.status_code == 200
    assert "Treasury of France adjusted by -5 EP" in page and "Baltic secret pause" not in page
    assert "Baltic 1807" not in page  # not even offered as a filter
    detail = client.get(reverse("admin:campaign_auditentry_change", args=[own.pk]))
    assert detail.status_code == 200 and 'name="summary"' not in detail.content.decode()
    assert client.post(reverse("admin:campaign_auditentry_delete", args=[own.pk]), {"post": "yes"}).status_code == 403
    assert client.get(reverse("admin:campaign_auditentry_add")).status_code == 403
    foreign = AuditEntry.objects.get(summary="Baltic secret pause")
    assert client.get(reverse("admin:campaign_auditentry_change", args=[foreign.pk])).status_code == 302
    assert AuditEntry.objects.count() == 2
