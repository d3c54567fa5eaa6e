"""The audit log (issue 11): append-only in the database, written by one service, read per campaign."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction

from campaign.audit import AuditError, audit_entries_for_campaign, audit_entries_for_user, audit_record
from campaign.models import AuditEntry, Campaign
from tests.factories import CampaignFactory

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
