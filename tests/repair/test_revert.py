"""Revert a campaign to the start of a turn (issue 11): the state of the turn's snapshot comes back in
place, what came after is archived (readable by the GM, gone for the players), turn N's orders are back
as they were at its deadline, and every bad request is refused with nothing changed."""

from __future__ import annotations

from collections import Counter

import pytest
from django.core.management import CommandError, call_command
from django.db.models import Sum
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from battles.models import Battle, Engagement
from campaign.backup.document import campaign_export
from campaign.gm.repair.refight import battle_refight
from campaign.gm.repair.rerun import turn_rerun
from campaign.gm.repair.services import RepairError, campaign_revert
from campaign.mail.messages import message_for
from campaign.models import (
    CampaignRevert,
    Delivery,
    LedgerEntry,
    MailEvent,
    Nation,
    NationTurn,
    Order,
    Turn,
    TurnPhase,
    TurnReport,
)
from campaign.models.audit import AuditEntry
from fleets.models import Ship
from tests.factories import CampaignFactory
from tests.repair.worlds import sallies_with_snapshot, state_of, with_players
from tests.support.exports import differences
from tests.support.turns import turn_resolve_inline

pytestmark = pytest.mark.django_db


def test_revert_brings_back_the_opening_state_and_archives_what_came_after() -> None:
    world = sallies_with_snapshot()
    players = with_players(world)
    sally_orders = list(Order.objects.filter(turn=world.turn).order_by("pk").values_list("pk", "kind", "body"))
    NationTurn.objects.filter(turn=world.turn).update(ready=True, submitted_at=timezone.now())
    turn2 = turn_resolve_inline(world.turn)
    assert Battle.objects.filter(turn=world.turn).count() == 2
    battles_before = {b.pk: b.place for b in Battle.objects.all()}
    turn_resolve_inline(turn2)
    sunk_or_taken = Ship.objects.filter(campaign=world.campaign).exclude(condition="ready").count()
    assert sunk_or_taken > 0  # the sallies did something to undo

    result = campaign_revert(
        campaign=world.campaign, turn_number=1, reason="France's orders were lost", actor=players.gm
    )

    # The state is the snapshot's, section by section, under the same ids.
    after = state_of(campaign_export(campaign=world.campaign, with_snapshots=False))
    assert world.turn.snapshot is not None
    opening = state_of(world.turn.snapshot)
    assert after == opening, differences(after, opening)
    world.campaign.refresh_from_db()
    assert (world.campaign.turn_number, world.campaign.season, world.campaign.year) == (1, "spring", 1805)
    for nation in Nation.objects.filter(campaign=world.campaign):
        total = LedgerEntry.objects.filter(nation=nation).aggregate(total=Sum("amount"))["total"]
        assert nation.treasury == total  # RULES.md §2: the treasury equals the sum of its ledger
    # Turn 1 is open again; the later turns and every trace of turn 1's resolution are gone from the live tables.
    turn = Turn.objects.get(campaign=world.campaign)
    assert (turn.number, turn.status, turn.resolved_at, turn.dice_log) == (1, "open", None, [])
    assert turn.deadline is not None and turn.deadline > timezone.now()
    assert not Battle.objects.exists() and not Engagement.objects.exists()
    assert not TurnPhase.objects.exists() and not TurnReport.objects.exists()
    # Orders as they were at the deadline: the same orders, nothing carried out yet; readiness asked again.
    assert list(Order.objects.filter(turn=turn).order_by("pk").values_list("pk", "kind", "body")) == sally_orders
    assert set(Order.objects.filter(turn=turn).values_list("outcome", "outcome_note")) == {("pending", "")}
    assert set(NationTurn.objects.filter(turn=turn).values_list("ready", flat=True)) == {False}
    assert NationTurn.objects.filter(turn=turn, submitted_at__isnull=False).count() == 2

    # Archived, not deleted: the GM reads it all in the revert's record.
    revert = CampaignRevert.objects.get()
    assert revert == result.revert and (revert.to_turn, revert.from_turn) == (1, 3)
    assert revert.actor == players.gm and revert.reason == "France's orders were lost"
    assert {b["id"]: b["place"] for b in revert.archived("battles")} == battles_before
    assert Counter(r["turn"] for r in revert.archived("reports")) == {1: 2, 2: 2}
    assert {t["number"] for t in revert.archived("turns")} == {1, 2, 3}
    assert result.archived["later turns"] == 2 and result.archived["battles"] == 2
    assert result.archived["ledger lines"] == len(revert.archive["document"]["ledger"]) - LedgerEntry.objects.count()
    assert {d["event"] for d in revert.archive["deliveries"]} >= {"turn_resolved", "turn_opened"}

    # Players are told, once each, through the mail's records; the audit log has the entry.
    told = Delivery.objects.filter(event=MailEvent.CAMPAIGN_REVERTED)
    assert sorted(d.recipient.username for d in told) == ["nelson", "villeneuve"]
    assert all(d.turn_id == turn.pk and d.data["reason"] == "France's orders were lost" for d in told)
    entry = AuditEntry.objects.get(action="campaign_reverted")
    assert entry.reason == "France's orders were lost" and entry.actor_id == players.gm.pk


def test_the_revert_mail_says_what_happened_in_the_players_words() -> None:
    world = sallies_with_snapshot()
    with_players(world)
    turn_resolve_inline(world.turn)
    campaign_revert(campaign=world.campaign, turn_number=1, reason="A sally was entered twice", actor=None)
    delivery = Delivery.objects.filter(event=MailEvent.CAMPAIGN_REVERTED, recipient__username="nelson").get()
    message = message_for(delivery)
    assert message is not None
    assert message.subject == "[Channel 1805] Turn 1: the game master turned the campaign back"
    html = str(message.alternatives[0][0])
    for text in (message.body, html):
        assert "Channel 1805 is back at the start of turn 1 (Spring 1805)" in text
        assert "A sally was entered twice" in text
        assert "orders you gave for turn 1 are back as they stood at its deadline" in text
        assert "gulf" not in text and "RULES.md" not in text


def test_archived_rows_are_gone_for_players_and_readable_by_the_gm(client: Client) -> None:
    world = sallies_with_snapshot()
    players = with_players(world)
    turn_resolve_inline(world.turn)
    battle = Battle.objects.filter(place="biscay").get()
    hit = next(s for s in battle.report["ships"] if s["fate"] != "intact")
    client.force_login(players.gb)
    slug = world.campaign.slug
    assert client.get(reverse("battles:detail", args=[slug, battle.pk])).status_code == 200
    before = client.get(reverse("campaign:turn", args=[slug, 1]))
    assert before.status_code == 200 and "Bay of Biscay" in before.content.decode()

    campaign_revert(campaign=world.campaign, turn_number=1, reason="Disputed sallies", actor=players.gm)

    # Players: the battle's old link says it was set aside and why (410, issue 25: links in mails
    # stay alive); the list, the turn's report, the API and the export know nothing of it.
    gone = client.get(reverse("battles:detail", args=[slug, battle.pk]))
    assert gone.status_code == 410 and "Disputed sallies" in gone.content.decode()
    listed = client.get(reverse("battles:list", args=[slug])).content.decode()
    assert "Bay of Biscay" not in listed
    api = client.get(f"/api/v1/campaigns/{slug}/battles/")
    assert api.status_code == 200 and api.json()["count"] == 0
    assert client.get(reverse("campaign:turn", args=[slug, 1])).status_code == 404  # turn 1 is open again
    assert campaign_export(campaign=world.campaign)["battles"] == []

    # The GM: the revert's page in the admin shows the archived battle, reports and ledger lines.
    gm = Client()
    gm.force_login(players.gm)
    revert = CampaignRevert.objects.get()
    listing = gm.get(reverse("admin:campaign_campaignrevert_changelist"))
    assert listing.status_code == 200 and "Channel 1805" in listing.content.decode()
    page = gm.get(reverse("admin:campaign_campaignrevert_change", args=[revert.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Disputed sallies" in html and ">Brest (Bay of Biscay)<" in html and ">Calais (The Channel)<" in html
    assert f"{hit['name']}: {hit['fate']}" in html  # a ship's fate in the archived battle
    assert "Income" in html or "income" in html  # the archived ledger lines
    # ... and a player reaches none of it.
    assert client.get(reverse("admin:campaign_campaignrevert_change", args=[revert.pk])).status_code == 302


def _refused(call, message: str, world) -> None:
    before = campaign_export(campaign=world.campaign)
    entries, reverts = AuditEntry.objects.count(), CampaignRevert.objects.count()
    with pytest.raises(RepairError) as refusal:
        call()
    assert message in str(refusal.value)
    assert campaign_export(campaign=world.campaign) == before
    assert (AuditEntry.objects.count(), CampaignRevert.objects.count()) == (entries, reverts)


def test_every_bad_request_is_refused_clearly_and_changes_nothing() -> None:
    world = sallies_with_snapshot()
    turn2 = turn_resolve_inline(world.turn)
    turn_resolve_inline(turn2)  # the open turn is 3
    c = world.campaign
    c.refresh_from_db()
    _refused(lambda: campaign_revert(campaign=c, turn_number=5, reason="x", actor=None),
             "Turn 5 is not an earlier turn of Channel 1805 (its open turn is 3); it can be turned back to turn 1 or 2",
             world)  # fmt: skip
    _refused(lambda: campaign_revert(campaign=c, turn_number=3, reason="x", actor=None), "not an earlier turn", world)
    _refused(lambda: campaign_revert(campaign=c, turn_number=0, reason="x", actor=None), "not an earlier turn", world)
    _refused(
        lambda: campaign_revert(campaign=c, turn_number=2, reason="   ", actor=None), "A reason is required", world
    )
    Turn.objects.filter(campaign=c, number=2).update(snapshot=None)
    _refused(lambda: campaign_revert(campaign=c, turn_number=2, reason="x", actor=None),
             "Turn 2 of Channel 1805 has no snapshot of its opening state to go back to; turns with one: 1.",
             world)  # fmt: skip
    other = CampaignFactory.create(slug="elsewhere", name="Elsewhere")
    foreign = Battle.objects.filter(turn=world.turn).first()
    assert foreign is not None
    _refused(lambda: battle_refight(campaign=other, battle_id=foreign.pk, reason="x", actor=None),
             f"There is no battle {foreign.pk} in Elsewhere", world)  # fmt: skip
    _refused(lambda: battle_refight(campaign=c, battle_id=foreign.pk, reason="x", actor=None),
             "was fought in turn 1, which is not the latest resolved turn (that is turn 2). Only a battle of the "
             "latest turn can be re-fought: revert Channel 1805 to turn 1 first", world)  # fmt: skip
    _refused(lambda: battle_refight(campaign=c, battle_id=foreign.pk, reason="", actor=None), "A reason", world)
    _refused(lambda: turn_rerun(campaign=c, seed=7, reason="", actor=None), "A reason is required", world)
    _refused(lambda: turn_rerun(campaign=c, seed=-1, reason="x", actor=None), "Seed -1 is out of range", world)
    Turn.objects.filter(campaign=c, number=3).update(status=Turn.Status.RESOLVING)
    _refused(lambda: campaign_revert(campaign=c, turn_number=1, reason="x", actor=None),
             "Turn 3 of Channel 1805 is resolving now; wait until it has resolved", world)  # fmt: skip
    _refused(lambda: turn_rerun(campaign=c, actor=None), "is resolving now", world)


def test_the_command_reverts_and_refuses_with_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    world = sallies_with_snapshot()
    turn_resolve_inline(world.turn)
    slug = world.campaign.slug
    for args, message in [
        (["nowhere", "--turn", "1", "--reason", "x"], "No campaign with slug 'nowhere'."),
        ([slug, "--turn", "4", "--reason", "x"], "Turn 4 is not an earlier turn of Channel 1805"),
        ([slug, "--turn", "1", "--reason", " "], "A reason is required"),
    ]:
        with pytest.raises(CommandError) as refusal:
            call_command("revert_campaign", *args)
        assert refusal.value.returncode == 2 and message in str(refusal.value)
    assert Battle.objects.count() == 2 and not CampaignRevert.objects.exists()

    call_command("revert_campaign", slug, "--turn", "1", "--reason", "Orders lost")
    out = capsys.readouterr().out
    assert "Channel 1805 is back at the start of turn 1 (Spring 1805)" in out
    assert "archived: 1 later turn, 2 battles, 2 reports, 4 ledger lines (revert" in out
    assert not Battle.objects.exists() and CampaignRevert.objects.get().actor_name.startswith("command line")
