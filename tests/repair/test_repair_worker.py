"""Re-run and re-fight through real Celery workers (issue 11): after a revert the same seed gives the
same campaign, export for export; a re-fought battle changes that battle only, and the books, the fleets
and the reports stay consistent (no EP, ship or report counted twice); players are mailed."""

from __future__ import annotations

from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db.models import Sum
from django.test import Client
from django.utils import timezone

from battles.models import Battle
from campaign.backup.document import campaign_export
from campaign.gm.repair.refight import battle_refight
from campaign.gm.repair.rerun import turn_rerun
from campaign.gm.repair.services import campaign_revert
from campaign.models import CampaignRevert, LedgerEntry, Nation, Turn, TurnReport
from campaign.models.audit import AuditEntry
from campaign.tasks import turn_resolve
from campaign.turn.lifecycle import turn_claim
from fleets.models import Ship
from tests.repair.worlds import (
    id_sequences,
    id_sequences_restore,
    sallies_with_snapshot,
    with_players,
    without_clock_times,
)
from tests.support.exports import differences
from tests.support.turns import resolved, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


def resolve_through_worker(turn: Turn) -> None:
    assert turn_claim(turn_id=turn.pk, now=timezone.now())
    turn_resolve.delay(turn.pk)
    wait_for(lambda: resolved(turn.pk))


def books_balance(campaign_id: int) -> None:
    """RULES.md §2: every treasury equals the sum of its ledger; one income and one upkeep line a turn."""
    for nation in Nation.objects.filter(campaign_id=campaign_id):
        assert nation.treasury == LedgerEntry.objects.filter(nation=nation).aggregate(t=Sum("amount"))["t"]
        kinds = Counter(LedgerEntry.objects.filter(nation=nation, turn=1).values_list("kind", flat=True))
        assert kinds["income"] == 1 and kinds["upkeep"] <= 1


def test_revert_and_rerun_with_the_same_seed_gives_the_same_export(start_worker) -> None:
    """The acceptance test of "re-run gives the same result with the same seed": the whole export, every
    battle round, ledger line, report and snapshot, equal but for wall-clock times. The ids the export
    quotes are the same because the test winds the id sequences back to where the first run started,
    as tests/golden does (the rows made by the first run are gone after the revert)."""
    world = sallies_with_snapshot()
    start_worker("rerun")
    sequences = id_sequences()
    resolve_through_worker(world.turn)
    first = campaign_export(campaign=world.campaign)
    assert len(first["battles"]) == 2

    campaign_revert(campaign=world.campaign, turn_number=1, reason="Replay it", actor=None)
    assert campaign_export(campaign=world.campaign)["battles"] == []
    id_sequences_restore(sequences)
    rerun = turn_rerun(campaign=world.campaign, actor=None)
    assert rerun.seed == rerun.seed_before == world.campaign.seed
    wait_for(lambda: resolved(world.turn.pk))

    again = campaign_export(campaign=world.campaign)
    # The audit log differs by design: it records the revert and the re-run.
    first.pop("audit", None), again.pop("audit", None)
    a, b = without_clock_times(first), without_clock_times(again)
    assert a == b, differences(a, b)


def test_rerun_with_a_new_seed_rolls_other_dice(start_worker) -> None:
    world = sallies_with_snapshot()
    start_worker("reseed")
    resolve_through_worker(world.turn)
    first = {b.place: (b.seed, b.report["dice"]) for b in Battle.objects.all()}
    campaign_revert(campaign=world.campaign, turn_number=1, reason="Replay with other dice", actor=None)

    rerun = turn_rerun(campaign=world.campaign, seed=99, reason="The seed was leaked to a player", actor=None)
    assert (rerun.seed_before, rerun.seed) == (42, 99)
    wait_for(lambda: resolved(world.turn.pk))
    again = {b.place: (b.seed, b.report["dice"]) for b in Battle.objects.all()}
    assert set(again) == set(first) == {"biscay", "channel"}
    assert all(again[place][0] != first[place][0] for place in first)
    assert all(again[place][1] != first[place][1] for place in first)
    books_balance(world.campaign.pk)
    entry = AuditEntry.objects.get(action="turn_rerun")
    assert (entry.before, entry.after, entry.reason) == ({"seed": 42}, {"seed": 99}, "The seed was leaked to a player")


def test_refight_changes_that_battle_only_and_keeps_the_books(start_worker, smtp_server) -> None:
    world = sallies_with_snapshot()
    players = with_players(world)
    start_worker("refight", **smtp_server.worker_env)
    resolve_through_worker(world.turn)
    # The players have read their reports before the GM re-fights (a revert archives the mail of the
    # turns it sets aside, so a report not yet sent would never go).
    # A report's subject names its turn and news: "[Channel 1805] Turn 1: battle at Brest won, …".
    wait_for(lambda: sum("] Turn 1: battle at" in str(m["Subject"]) for m in smtp_server.inbox.messages) == 2)
    old = {b.place: b for b in Battle.objects.all()}
    ships_before = Ship.objects.filter(campaign=world.campaign).count()
    reports_before = TurnReport.objects.count()

    result = battle_refight(
        campaign=world.campaign,
        battle_id=old["biscay"].pk,
        reason="The Brest sally's dice were disputed",
        seed=123456789,
        actor=players.gm,
    )
    assert result.battle_label == f"fleet action at Brest (Bay of Biscay), turn 1 (battle {old['biscay'].pk})"
    wait_for(lambda: resolved(world.turn.pk))

    new = {b.place: b for b in Battle.objects.all()}
    assert set(new) == {"biscay", "channel"}
    # The disputed battle took the new seed and other dice; the other one was fought exactly as before.
    assert new["biscay"].seed == 123456789 and new["biscay"].report["dice"] != old["biscay"].report["dice"]
    assert new["channel"].seed == old["channel"].seed
    assert new["channel"].report == old["channel"].report and new["channel"].winner == old["channel"].winner
    # The fleets carry the new result: every ship's state is its fate in the battle it fought.
    fates = {s["name"]: s["fate"] for b in new.values() for s in b.report["ships"]}
    for ship in Ship.objects.filter(campaign=world.campaign, name__in=fates):
        fate = fates[ship.name]
        if fate in ("sunk", "captured"):
            assert ship.condition == "sunk" or ship.captured, (ship.name, fate, ship.condition)
        else:
            assert ship.condition == ("ready" if fate == "intact" else fate), (ship.name, fate, ship.condition)
    # Nothing counted twice: one turn 2, the same ship rows, one report per nation a turn, balanced books.
    assert list(Turn.objects.filter(campaign=world.campaign).values_list("number", "status")) == [
        (1, "resolved"),
        (2, "open"),
    ]
    assert Ship.objects.filter(campaign=world.campaign).count() == ships_before
    assert TurnReport.objects.count() == reports_before == 2
    books_balance(world.campaign.pk)
    # The old battle is archived with the revert; the audit log has the re-fight.
    revert = CampaignRevert.objects.get()
    assert revert.kind == "refight" and revert.battle_seed == 123456789
    assert {b["place"]: b["seed"] for b in revert.archived("battles")} == {p: b.seed for p, b in old.items()}
    entry = AuditEntry.objects.get(action="battle_refought")
    assert entry.before == {"battle": old["biscay"].pk, "seed": old["biscay"].seed, "winner": old["biscay"].winner}
    # The players are told by mail, then get their new report.
    inbox = smtp_server.inbox.messages

    def subjects() -> list[tuple[str, str]]:
        return [(str(m["X-Envelope-To"]), str(m["Subject"])) for m in inbox]

    wait_for(lambda: sum("turned the campaign back" in s for _, s in subjects()) == 2)
    told = [m for m in inbox if "turned the campaign back" in str(m["Subject"])]
    body = told[0].get_payload()[0].get_payload(decode=True).decode()
    assert "The battle fleet action at Brest (Bay of Biscay), turn 1" in body
    assert "The Brest sally's dice were disputed" in body
    wait_for(lambda: sum("] Turn 1: battle at" in s for _, s in subjects()) == 4)

    # Issue 25: the links in the first report mails still lead somewhere. The re-fought battle's old
    # link leads to its new fight; the battle of the other place, fought again unchanged, likewise.
    gm, nelson = Client(), Client()
    gm.force_login(players.gm)
    nelson.force_login(players.gb)
    slug = world.campaign.slug
    for place in ("biscay", "channel"):
        answer = gm.get(f"/campaigns/{slug}/battles/{old[place].pk}/")
        assert answer.status_code == 302 and answer["Location"] == f"/campaigns/{slug}/battles/{new[place].pk}/"
        assert gm.get(answer["Location"]).status_code == 200
    # A plain revert sets the new fights aside: their links say so, with the GM's reason (410).
    campaign_revert(campaign=world.campaign, turn_number=1, reason="Orders were lost in the post", actor=players.gm)
    for who in (gm, nelson):
        gone = who.get(f"/campaigns/{slug}/battles/{new['biscay'].pk}/")
        assert gone.status_code == 410
        assert "set aside" in gone.content.decode() and "Orders were lost in the post" in gone.content.decode()
        assert "Bay of Biscay" in gone.content.decode()
    # Nobody outside the campaign learns that a battle was ever there.
    stranger = Client()
    stranger.force_login(get_user_model().objects.create_user("stranger", "s@example.org", "stranger-pass-1"))
    assert stranger.get(f"/campaigns/{slug}/battles/{new['biscay'].pk}/").status_code == 404


def test_the_refight_and_rerun_commands_wait_for_the_workers(start_worker, capsys) -> None:
    world = sallies_with_snapshot()
    start_worker("commands")
    resolve_through_worker(world.turn)
    battle = Battle.objects.get(place="channel")

    call_command("refight_battle", world.campaign.slug, str(battle.pk), "--reason", "Disputed", "--seed", "7")
    out = capsys.readouterr().out
    assert f"Re-fighting the fleet action at Calais (The Channel), turn 1 (battle {battle.pk}) with seed 7" in out
    fresh = Battle.objects.get(place="channel")
    names = {"GB": "Great Britain", "FR": "France"}
    winner = names[fresh.sides[fresh.winner]["nations"][0]] if fresh.winner is not None else "neither side"
    assert fresh.seed == 7
    assert f"Resolved again: fleet action at Calais (The Channel), turn 1 (battle {fresh.pk}), won by {winner}." in out

    call_command("revert_campaign", world.campaign.slug, "--turn", "1", "--reason", "Once more")
    call_command("rerun_turn", world.campaign.slug)
    assert "Turn 1 of Channel 1805 resolved again with the campaign's seed." in capsys.readouterr().out
    assert Battle.objects.get(place="channel").seed == 7  # the GM's re-fight seed stays with the turn
