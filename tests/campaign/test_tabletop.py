"""Battles on the table (issue 15): a marked battle is held back while the other zones are fought, the
turn waits for it, and its approved result changes the campaign exactly as the dice's result would.

The world is two sallies (tests.worlds.two_sallies): one battle off Brest (in Biscay) and one off
Calais (in the Channel), found without dice. Brest's battle goes to the table.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from battles.engagements.table import TableResultRefused
from battles.models import Battle, Engagement, TabletopBattle
from campaign.backup.document import campaign_export
from campaign.models import Delivery, MailEvent, Turn, TurnPhase
from campaign.tabletop.services import (
    table_fight_automatically,
    table_mark,
    table_request_decide,
    table_result_approve,
    table_result_confirm,
    table_result_dispute,
    table_result_enter,
)
from campaign.tasks import turn_resolve
from campaign.turn.lifecycle import (
    campaign_pause,
    campaign_resume,
    turn_claim,
    turn_extend,
    turns_stalled,
    turns_table_due,
)
from campaign.turn.runner import turn_dry_run
from fleets.models import Ship
from ports.models import LandUnit
from tests.support.exports import differences, strip_ids
from tests.support.sieges import ashore, garrison, seed_where, siege_dice
from tests.support.turns import report_texts
from tests.worlds import World, two_power_world, two_sallies

pytestmark = pytest.mark.django_db


class _Rollback(Exception):
    pass


def _resolve_until_table(world: World) -> Turn:
    assert turn_claim(turn_id=world.turn.pk, now=timezone.now())
    assert turn_resolve(world.turn.pk) == "table"
    return Turn.objects.get(pk=world.turn.pk)


def _comparable(world: World) -> dict[str, Any]:
    """The export with what only the way of fighting changes left out: each battle's report and
    seed (the dice's log against the table's entry), the turn's strategic dice (the dice's weather
    gauge) and the reports' texts (a table's battle is one day); the table battles themselves and the audit
    log (every table action is audited)."""
    doc = strip_ids(campaign_export(campaign=world.campaign))
    for battle in doc["battles"]:
        for key in ("report", "seed", "id"):
            battle.pop(key)
    doc["battles"].sort(key=lambda b: (b["turn"], b["place"], b["sequence"]))
    for key in ("turns", "reports", "snapshots", "phases", "table_battles", "audit"):
        doc.pop(key, None)
    return doc


def _automatic(world: World) -> tuple[dict[str, Any], list[dict[str, Any]], int | None]:
    """Resolve the turn by the dice alone, keep its export and the Brest battle's fates, roll it back."""
    kept: dict[str, Any] = {}
    try:
        with transaction.atomic():
            assert turn_claim(turn_id=world.turn.pk, now=timezone.now())
            assert turn_resolve(world.turn.pk) == "done"
            battle = Battle.objects.get(turn=world.turn, place="biscay")
            kept["export"] = _comparable(world)
            kept["winner"] = battle.winner
            rows = []
            for row in battle.report["ships"]:
                ship = Ship.objects.get(campaign=world.campaign, name=row["name"])
                captor = row["captured_by"]
                rows.append(
                    {
                        "ship": ship.pk,
                        "fate": row["fate"],
                        "captured_by": None if captor is None else battle.sides[captor]["nations"][0],
                        "taken_in": ship.condition if row["fate"] == "captured" else None,
                    }
                )
            kept["ships"] = rows
            kept["outcome"] = battle.report["outcome"]
            raise _Rollback
    except _Rollback:
        pass
    return kept["export"], kept["ships"], kept["winner"]


def test_a_battle_sent_to_the_table_waits_while_the_other_zone_is_fought() -> None:
    world = two_sallies()
    gm = get_user_model().objects.create_user("gm", "gm@example.com", "pw")
    world.campaign.gm = gm
    world.campaign.save()
    table = table_mark(campaign=world.campaign, place="brest")
    assert table.status == TabletopBattle.Status.MARKED and table.port == world.brest
    turn = _resolve_until_table(world)
    assert turn.status == Turn.Status.TABLE
    assert turn.deadline is not None and turn.deadline > timezone.now() + timedelta(days=6)
    assert sorted(TurnPhase.objects.filter(turn=turn).values_list("phase", flat=True)) == [1, 2, 3]
    # The Channel (Calais) was fought by the dice; Brest waits at the table.
    assert Battle.objects.filter(turn=turn, place="channel").exists()
    assert not Battle.objects.filter(turn=turn, place="biscay").exists()
    table.refresh_from_db()
    assert table.status == TabletopBattle.Status.WAITING
    assert table.engagement is not None and table.engagement.status == Engagement.Status.AT_TABLE
    # The sweep never re-claims a turn waiting at the table; a second resolve finds nothing to do.
    assert turn.pk not in turns_stalled(now=timezone.now() + timedelta(days=1))
    assert turn_resolve(turn.pk) == "held"
    # The GM was told by mail (the world's nations have no players).
    mail = Delivery.objects.get(event=MailEvent.TABLE_BATTLE)
    assert mail.recipient == gm and mail.data["place"] == "Brest" and mail.data["nations"] == ["FR", "GB"]
    # Extend works on the table's deadline.
    before = turn.deadline
    turn_extend(campaign=world.campaign, by=timedelta(days=2))
    turn.refresh_from_db()
    assert turn.deadline == before + timedelta(days=2)


def test_an_approved_result_changes_the_campaign_exactly_as_the_dice_would() -> None:
    world = two_sallies()
    dice_export, ships, winner = _automatic(world)
    assert any(row["fate"] != "intact" for row in ships)  # the seed gives a battle with losses
    table = table_mark(campaign=world.campaign, place="brest")
    _resolve_until_table(world)
    body = {"ships": ships, "admirals_lost": [], "held_field": winner}
    table = table_result_enter(table=table, body=body, side=0, by="fr-player")
    assert table.status == TabletopBattle.Status.ENTERED and table.confirmed == [0]
    with pytest.raises(TableResultRefused):
        table_result_approve(table=table)  # not confirmed by the other side yet
    table = table_result_confirm(table=table, side=1)
    assert table.status == TabletopBattle.Status.CONFIRMED
    with transaction.atomic():
        battle = table_result_approve(table=table)
    assert battle is not None and battle.report["type"] == "tabletop"
    turn = Turn.objects.get(pk=world.turn.pk)
    assert turn.status == Turn.Status.RESOLVING
    assert turn_resolve(turn.pk) == "done"
    assert Turn.objects.get(pk=world.turn.pk).status == Turn.Status.RESOLVED
    table.refresh_from_db()
    assert table.status == TabletopBattle.Status.APPLIED
    assert differences(_comparable(world), dice_export) == ""


def test_an_impossible_result_is_refused_and_changes_nothing() -> None:
    world = two_sallies()
    table = table_mark(campaign=world.campaign, place="brest")
    _resolve_until_table(world)
    table.refresh_from_db()
    assert table.engagement is not None
    ships = list(
        Ship.objects.filter(fleet__pk__in=[f for side in table.engagement.sides for f in side["fleets"]]).order_by("id")
    )
    before = _comparable(world)
    fr_ship = next(s for s in ships if s.nation.code == "FR")
    cases = [
        ([{"ship": s.pk, "fate": "intact"} for s in ships] + [{"ship": 999999, "fate": "sunk"}], "ships"),
        ([{"ship": 999999, "fate": "sunk"}], "ships[0].ship"),
        ([{"ship": fr_ship.pk, "fate": "captured", "captured_by": "ES"}], "ships[0].captured_by"),
        ([{"ship": fr_ship.pk, "fate": "captured", "captured_by": "FR"}], "ships[0].captured_by"),
        ([{"ship": fr_ship.pk, "fate": "exploded"}], "ships[0].fate"),
        ([{"ship": s.pk, "fate": "intact"} for s in ships[:-1]], "ships"),
    ]
    for rows, field in cases:
        with pytest.raises(TableResultRefused) as refused:
            table_result_enter(table=table, body={"ships": rows, "held_field": None}, side=None, by="gm")
        assert refused.value.field == field, str(refused.value)
    everything_sunk = [{"ship": s.pk, "fate": "sunk"} for s in ships]
    with pytest.raises(TableResultRefused, match="cannot have held the field"):
        table_result_enter(table=table, body={"ships": everything_sunk, "held_field": 0}, side=None, by="gm")
    table.refresh_from_db()
    assert table.status == TabletopBattle.Status.WAITING and table.result == {}
    assert _comparable(world) == before


def test_a_disputed_result_stays_open_for_the_gm_and_the_gm_can_fall_back_to_the_dice() -> None:
    world = two_sallies()
    dice_export, ships, winner = _automatic(world)
    table = table_mark(campaign=world.campaign, place="brest")
    _resolve_until_table(world)
    body = {"ships": ships, "admirals_lost": [], "held_field": winner}
    table = table_result_enter(table=table, body=body, side=0, by="fr-player")
    table = table_result_dispute(table=table, side=1, reason="Two of ours escaped.")
    assert table.status == TabletopBattle.Status.DISPUTED and "escaped" in table.dispute
    with pytest.raises(TableResultRefused):
        table_result_approve(table=table)
    assert Turn.objects.get(pk=world.turn.pk).status == Turn.Status.TABLE
    with transaction.atomic():
        table_fight_automatically(table=table)
    assert turn_resolve(world.turn.pk) == "done"
    # Fought by the usual dice: the very battle the dice would have fought from the start.
    assert differences(_comparable(world), dice_export) == ""
    battle = Battle.objects.get(turn=world.turn, place="biscay")
    assert battle.seed is not None and battle.report.get("type") != "tabletop"


def test_a_player_asks_and_the_gm_decides() -> None:
    world = two_sallies()
    asked = table_mark(campaign=world.campaign, place="channel", nation=world.gb)
    assert asked.status == TabletopBattle.Status.REQUESTED and asked.requested_by == world.gb
    assert table_request_decide(table=asked, approve=False).status == TabletopBattle.Status.DECLINED
    with pytest.raises(TableResultRefused, match="neither a sea zone nor a port"):
        table_mark(campaign=world.campaign, place="atlantis")
    # Declined: the turn does not wait for it; a place without a battle ends "no battle".
    table_mark(campaign=world.campaign, place="portsmouth")
    assert turn_claim(turn_id=world.turn.pk, now=timezone.now())
    assert turn_resolve(world.turn.pk) == "done"
    states = dict(TabletopBattle.objects.values_list("place", "status"))
    assert states == {"channel": "declined", "portsmouth": "no_battle"}


def test_the_table_deadline_passing_falls_back_to_the_dice() -> None:
    world = two_sallies()
    table_mark(campaign=world.campaign, place="brest")
    turn = _resolve_until_table(world)
    assert turn.deadline is not None
    assert turns_table_due(now=timezone.now()) == []
    assert turns_table_due(now=turn.deadline + timedelta(seconds=1)) == [turn.pk]
    assert TabletopBattle.objects.get().status == TabletopBattle.Status.AUTOMATIC
    assert turn_resolve(turn.pk) == "done"
    assert Battle.objects.filter(turn=turn, place="biscay").exists()


def test_the_house_rule_sends_large_battles_to_the_table() -> None:
    """Off Brest 10 French meet 2 British (12 ships), off Calais 3 meet 2 (5): above 11, only Brest's."""
    world = two_sallies()
    world.campaign.settings = {**world.campaign.settings, "table.above_ships": 11}
    world.campaign.save()
    turn = _resolve_until_table(world)
    table = TabletopBattle.objects.get()
    assert (table.place, table.origin, table.status) == ("biscay", "house_rule", "waiting")
    assert Battle.objects.filter(turn=turn, place="channel").exists()


# --- A besieged port's storming on the table (rules §7) -------------------------------------------


def _two_sieges() -> World:
    """France besieges Portsmouth (2 units against 1) and Britain Brest (2 against 1); both sieges
    roll. The seed gives Portsmouth a natural 10: −2 forts +1 (B ≥ 2G) −2 (not blockaded) = 7, a
    garrison unit lost, its last: the port is taken."""
    world = two_power_world()
    garrison(world.portsmouth, world.gb, 1)
    ashore(world.portsmouth, world.fr, 2)
    garrison(world.brest, world.fr, 1)
    ashore(world.brest, world.gb, 2)
    seed_where(world, 1, 6, "portsmouth", lambda f: f[0] == 10, [10])
    return world


def _automatic_sieges(world: World) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Resolve the turn by the dice alone; keep its export and its siege dice; roll it back."""
    kept: dict[str, Any] = {}
    try:
        with transaction.atomic():
            assert turn_claim(turn_id=world.turn.pk, now=timezone.now())
            assert turn_resolve(world.turn.pk) == "done"
            kept["export"] = _comparable(world)
            kept["dice"] = siege_dice(world.turn, "brest") + siege_dice(world.turn, "portsmouth")
            raise _Rollback
    except _Rollback:
        pass
    return kept["export"], kept["dice"]


def test_a_storming_on_the_table_waits_after_phase_6_while_the_other_siege_is_rolled() -> None:
    world = _two_sieges()
    dice_export, dice = _automatic_sieges(world)
    assert [(d["place"], d["raw"], d["result"]) for d in dice][1] == ("portsmouth", 10, 7)
    table = table_mark(campaign=world.campaign, place="portsmouth", kind="storming")
    assert table.kind == "storming" and table.status == TabletopBattle.Status.MARKED
    turn = _resolve_until_table(world)
    assert turn.status == Turn.Status.TABLE
    assert sorted(TurnPhase.objects.filter(turn=turn).values_list("phase", flat=True)) == [1, 2, 3, 4, 5, 6]
    # Brest's siege was rolled with the very die the dice alone gave it; Portsmouth's waits.
    assert siege_dice(turn, "brest") == dice[:1]
    assert siege_dice(turn, "portsmouth") == []
    table.refresh_from_db()
    assert table.status == TabletopBattle.Status.WAITING and table.side_nations() == [["FR"], ["GB"]]
    world.portsmouth.refresh_from_db()
    assert world.portsmouth.captor_id is None
    assert LandUnit.objects.filter(port=world.portsmouth, state=LandUnit.State.GARRISON).count() == 1
    assert turn_resolve(turn.pk) == "held"

    body = {"garrison_lost": 1, "besiegers_lost": {}, "port_taken": True}
    table = table_result_enter(table=table, body=body, side=0, by="fr-player")
    table = table_result_confirm(table=table, side=1)
    with transaction.atomic():
        assert table_result_approve(table=table) is None
    assert Turn.objects.get(pk=turn.pk).status == Turn.Status.RESOLVING
    assert turn_resolve(turn.pk) == "done"
    table.refresh_from_db()
    assert table.status == TabletopBattle.Status.APPLIED
    # The campaign is exactly as phase 6's d10 left it: the garrison lost, Portsmouth French.
    assert differences(_comparable(world), dice_export) == ""
    world.portsmouth.refresh_from_db()
    assert world.portsmouth.owner_id == world.fr.pk
    texts = report_texts(turn, world.gb)
    assert any("Portsmouth (Great Britain), besieged by France, was stormed on the table" in t for t in texts)
    assert phase_names_in_order(turn) == list(range(1, 11))


def phase_names_in_order(turn: Turn) -> list[int]:
    return list(TurnPhase.objects.filter(turn=turn).order_by("phase").values_list("phase", flat=True))


def test_an_impossible_storming_result_is_refused_and_changes_nothing() -> None:
    world = _two_sieges()
    table = table_mark(campaign=world.campaign, place="portsmouth", kind="storming")
    _resolve_until_table(world)
    before = _comparable(world)
    cases = [
        ({"garrison_lost": 2, "port_taken": True}, "garrison_lost", "only 1 there"),
        ({"garrison_lost": "one", "port_taken": False}, "garrison_lost", "whole number"),
        ({"garrison_lost": 0, "besiegers_lost": {"GB": 1}, "port_taken": False}, "besiegers_lost.GB", "France (FR)"),
        ({"garrison_lost": 0, "besiegers_lost": {"FR": 3}, "port_taken": False}, "besiegers_lost.FR", "only 2"),
        ({"garrison_lost": 0, "port_taken": True}, "port_taken", "while 1 garrison unit is left"),
        ({"garrison_lost": 1, "port_taken": False}, "port_taken", "no garrison unit left"),
        ({"garrison_lost": 0}, "port_taken", "true (the port was taken)"),
    ]
    for body, field, words in cases:
        assert isinstance(body, dict)
        with pytest.raises(TableResultRefused) as refused:
            table_result_enter(table=table, body=body, side=None, by="gm")
        assert refused.value.field == field and words in str(refused.value), str(refused.value)
    table.refresh_from_db()
    assert table.status == TabletopBattle.Status.WAITING and table.result == {}
    assert _comparable(world) == before


def test_the_gm_falls_back_to_the_siege_roll_phase_6_would_have_made() -> None:
    world = _two_sieges()
    dice_export, dice = _automatic_sieges(world)
    table = table_mark(campaign=world.campaign, place="portsmouth", kind="storming")
    turn = _resolve_until_table(world)
    table = table_result_enter(
        table=table, body={"garrison_lost": 0, "besiegers_lost": {"FR": 1}, "port_taken": False}, side=0, by="fr"
    )
    table = table_result_dispute(table=table, side=1, reason="The breach was never made.")
    with transaction.atomic():
        table_fight_automatically(table=table)
    assert turn_resolve(turn.pk) == "done"
    assert TabletopBattle.objects.get(pk=table.pk).status == TabletopBattle.Status.AUTOMATIC
    assert siege_dice(turn, "brest") + siege_dice(turn, "portsmouth") == dice
    assert differences(_comparable(world), dice_export) == ""


def test_pause_extend_and_the_dry_run_while_a_storming_waits() -> None:
    world = _two_sieges()
    table_mark(campaign=world.campaign, place="portsmouth", kind="storming")
    dry = turn_dry_run(turn_id=world.turn.pk, now=timezone.now())
    assert dry["waits_for_table"] is True and [p["phase"] for p in dry["phases"]] == [1, 2, 3, 4, 5, 6]
    assert TabletopBattle.objects.get().status == TabletopBattle.Status.MARKED  # the dry run wrote nothing
    turn = _resolve_until_table(world)
    assert turn.deadline is not None
    campaign_pause(campaign=world.campaign)
    assert Turn.objects.get(pk=turn.pk).paused_at is not None
    later = timezone.now() + timedelta(hours=5)
    campaign_resume(campaign=world.campaign, now=later)
    resumed = Turn.objects.get(pk=turn.pk)
    assert resumed.paused_at is None and resumed.deadline is not None and resumed.deadline > turn.deadline
    turn_extend(campaign=world.campaign, by=timedelta(days=2))
    assert Turn.objects.get(pk=turn.pk).deadline == resumed.deadline + timedelta(days=2)
    assert Turn.objects.get(pk=turn.pk).status == Turn.Status.TABLE


def test_who_may_ask_for_a_storming_and_a_marking_without_a_roll_ends_no_battle() -> None:
    world = two_power_world()
    with pytest.raises(TableResultRefused, match="only a port can be stormed"):
        table_mark(campaign=world.campaign, place="channel", kind="storming")
    with pytest.raises(TableResultRefused, match="France neither holds nor besieges Portsmouth"):
        table_mark(campaign=world.campaign, place="portsmouth", nation=world.fr, kind="storming")
    asked = table_mark(campaign=world.campaign, place="portsmouth", nation=world.gb, kind="storming")
    assert asked.status == TabletopBattle.Status.REQUESTED
    table_request_decide(table=asked, approve=True)
    # A port may see a battle and a storming at the table in the same turn.
    table_mark(campaign=world.campaign, place="portsmouth")
    assert TabletopBattle.objects.filter(place="portsmouth").count() == 2
    assert turn_claim(turn_id=world.turn.pk, now=timezone.now())
    assert turn_resolve(world.turn.pk) == "done"  # no siege anywhere: nothing waits
    assert set(TabletopBattle.objects.values_list("kind", "status")) == {
        ("storming", "no_battle"),
        ("battle", "no_battle"),
    }
