"""Seams between features that each work on their own path (issue 25): each test plays one seam as a
club would meet it, and fails on the defect that was found there."""

from __future__ import annotations

import json
import threading
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from battles.models import Engagement, TabletopBattle
from battles.tabletop.pack import battle_pack
from campaign.gm.actions import campaign_end, gm_turn_resolve_now
from campaign.models import Campaign, Delivery, Nation, NationTurn, Relation, Turn
from campaign.orders.services import OrderRefused, order_add
from campaign.tabletop.services import table_mark, table_result_approve, table_result_enter
from campaign.tasks import mail_deliveries_send, turn_resolve
from campaign.turn.lifecycle import TurnControlError, nation_ready_set, turn_claim, turn_extend
from campaign.turn.runner import phase_run
from fleets.models import Fleet
from ports.models import LandUnit, Port
from tests.factories import NationFactory
from tests.repair.worlds import sallies_with_snapshot, with_players
from tests.support.mail import inbox_of, parts, players_with_mail
from tests.support.tabletop import gibraltar_siege, table_ships
from tests.support.turns import turn_resolve_inline, wait_for
from tests.worlds import sea_world, two_power_world, two_sallies


@pytest.mark.django_db(transaction=True)
@pytest.mark.worker
def test_two_battles_at_the_table_in_one_turn_both_reach_it_on_real_workers(start_worker, capsys) -> None:
    """Two battles marked for the table in one turn, fought by two battle tasks at once: each task
    locks only its own table markings (not the turn, which the other task holds a key-share lock on),
    so there is no deadlock, ``resolve_turn`` succeeds and both battles wait at the table."""
    world = two_sallies()
    table_mark(campaign=world.campaign, place="brest")
    table_mark(campaign=world.campaign, place="calais")
    start_worker("one")
    start_worker("two")
    call_command("resolve_turn", world.campaign.slug, "--timeout", "60")
    assert "waits for a battle on the table" in capsys.readouterr().out
    assert Turn.objects.get(pk=world.turn.pk).status == Turn.Status.TABLE
    waiting = TabletopBattle.objects.filter(turn=world.turn, status=TabletopBattle.Status.WAITING)
    assert sorted(waiting.values_list("place", flat=True)) == ["brest", "calais"]
    assert Engagement.objects.filter(turn=world.turn, status=Engagement.Status.AT_TABLE).count() == 2


@pytest.mark.django_db
def test_missing_orders_bring_a_blockading_fleet_home_and_its_blockade_ends() -> None:
    """ "Fleets return to port" with a nation that entered nothing and whose fleet blockades a port: the
    fleet comes home, its blockade ends with the station it left (seek, no port named), and the turn runs
    on — it used to crash on the fleet_blockade_names_a_port constraint and fail at every retry."""
    world = sea_world()
    calais = Port.objects.get(campaign=world.campaign, key="calais")
    Nation.objects.filter(pk=world.gb.pk).update(player=get_user_model().objects.create_user("nelson", "n@example.org"))
    Campaign.objects.filter(pk=world.campaign.pk).update(nmr_policy="return_to_port")
    Fleet.objects.filter(pk=world.channel_fleet.pk).update(port=None, posture="blockade", blockade_port=calais)
    world.campaign.refresh_from_db()
    for number in (1, 2, 3):
        phase_run(turn_id=world.turn.pk, number=number, now=timezone.now())
    fleet = Fleet.objects.get(pk=world.channel_fleet.pk)
    assert (fleet.port_id, fleet.posture, fleet.blockade_port_id) == (world.portsmouth.pk, "seek", None)
    events = json.dumps(world.turn.phases.get(phase=3).summary)
    assert "Channel Fleet returned to Portsmouth" in events and "no longer blockades Calais" in events


@pytest.mark.django_db
def test_allied_guests_ashore_are_no_besiegers_in_a_battle_pack() -> None:
    """RULES.md §7 "Siege": "a port with land units ashore from nations at war with its owner is
    besieged". The pack of a battle at Gibraltar counts the French besiegers only, not the units of
    Britain's ally ashore as guests; with only guests ashore there is no storming aid at all."""
    world, table, _ = gibraltar_siege()
    batavia = NationFactory.create(campaign=world.campaign, code="NL", name="Batavian Republic", navy="SP")
    a, b = sorted((world.gb, batavia), key=lambda n: n.pk)
    Relation.objects.create(campaign=world.campaign, a=a, b=b, state=Relation.State.ALLIANCE)
    gibraltar = Port.objects.get(campaign=world.campaign, key="gibraltar")
    for _ in range(2):
        LandUnit.objects.create(campaign=world.campaign, nation=batavia, state="ashore", port=gibraltar)
    assist = battle_pack(table).assault
    assert assist is not None and assist.besiegers == ["France: 2 land units"]
    LandUnit.objects.filter(nation=world.fr, port=gibraltar).delete()  # the siege lifted: guests only
    assert battle_pack(table).assault is None


def _all_intact(table: TabletopBattle) -> dict[str, object]:
    """A result where nobody lost anything and neither side held the field, entered by the GM."""
    return {"ships": [{"ship": ship.pk, "fate": "intact"} for ship in table_ships(table)], "held_field": None}


@pytest.mark.django_db(transaction=True)
def test_the_last_two_table_battles_approved_at_once_resume_the_turn_exactly_once() -> None:
    """Two battles at the table, both confirmed; the GM approves them in two requests at the same
    moment. Each approval locks the turn before asking what else is outstanding, so the second sees
    the first's result and the turn resolves on — once. (Both used to see the other still waiting,
    and the turn sat at the table until its deadline.)"""
    world = two_sallies()
    tables = [table_mark(campaign=world.campaign, place=p) for p in ("brest", "calais")]
    assert turn_claim(turn_id=world.turn.pk, now=timezone.now())
    assert turn_resolve(world.turn.pk) == "table"
    for table in tables:
        table.refresh_from_db()
        table_result_enter(table=table, body=_all_intact(table), side=None, by="gm")
    first_in, second_done, release = threading.Event(), threading.Event(), threading.Event()
    outcome: dict[str, object] = {}

    def approve(table: TabletopBattle, name: str) -> None:
        try:
            with transaction.atomic():
                table_result_approve(table=table)
                if name == "first":  # hold the first approval open while the second one runs
                    first_in.set()
                    assert release.wait(30)
            outcome[name] = "approved"
        except Exception as error:  # the test reports it below
            outcome[name] = error
        finally:
            if name == "second":
                second_done.set()
            connection.close()

    first = threading.Thread(target=approve, args=(tables[0], "first"))
    second = threading.Thread(target=approve, args=(tables[1], "second"))
    first.start()
    assert first_in.wait(30)
    second.start()
    # The second approval either finishes or waits for the first's lock; only then does the first commit.
    wait_for(lambda: second_done.is_set() or waiting_on_a_lock(), timeout=30)
    release.set()
    first.join(60)
    second.join(60)
    assert outcome == {"first": "approved", "second": "approved"}
    assert TabletopBattle.objects.filter(turn=world.turn, status=TabletopBattle.Status.APPLIED).count() == 2
    turn = Turn.objects.get(pk=world.turn.pk)
    assert turn.status == Turn.Status.RESOLVING
    assert turn_resolve(turn.pk) == "done"
    assert Turn.objects.get(pk=world.turn.pk).status == Turn.Status.RESOLVED


def waiting_on_a_lock() -> bool:
    """Whether a session of the test database waits for a row lock (the second approval, on the turn).
    Asked outside any transaction: pg_stat_activity is read once per transaction."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
        )
        row = cursor.fetchone()
    return bool(row and row[0])


@pytest.mark.django_db
def test_the_gm_digest_names_every_nation_mailed_for_missing_orders(smtp_inbox) -> None:
    """Spain joined with a player after the turn opened (no turn state of its own) and entered nothing:
    it is mailed "no orders from Spain", and the GM's digest of the same turn says so too — the digest
    and the mail ask one question (campaign.selectors.nations_without_orders). The digest used to
    read only the turn states and said "Every player entered orders"."""
    world = two_power_world()
    people = players_with_mail(world)
    NationTurn.objects.filter(turn=world.turn).update(submitted_at=timezone.now())  # GB and FR gave orders
    spain = NationFactory.create(campaign=world.campaign, code="ES", name="Spain", navy="SP")
    spain.player = get_user_model().objects.create_user("gravina", "gravina@example.org")
    spain.save()
    turn_resolve_inline(world.turn)
    mail_deliveries_send()
    # In the order things happened: the report, the "no orders" mail, then the next turn's.
    assert inbox_of(smtp_inbox.messages, "gravina@example.org") == [
        "[Channel 1805] Turn 1: no orders given, income 0 EP",
        "[Channel 1805] Turn 1: no orders from Spain",
        "[Channel 1805] Turn 2 is open for orders",
    ]
    digest = next(m for m in smtp_inbox.messages if m["X-Envelope-To"] == people["GM"].email)
    text = parts(digest)["text/plain"]
    assert "No orders from: Spain." in text and "Every player entered orders" not in text


@pytest.mark.django_db
def test_after_the_end_no_control_of_the_last_turn_is_accepted() -> None:
    """After ``end_campaign`` the last turn may still be open, but extending its deadline, marking a
    nation ready, resolving it now, entering orders and reverting are all refused by the services every
    entry point calls, each saying the campaign has ended; nothing changes and nobody is mailed."""
    world = two_power_world()
    Campaign.objects.filter(pk=world.campaign.pk).update(status="active")
    world.campaign.refresh_from_db()
    campaign_end(campaign=world.campaign, actor=None)
    deadline = Turn.objects.get(pk=world.turn.pk).deadline
    mails = Delivery.objects.count()
    with pytest.raises(TurnControlError, match="Channel 1805 has ended; extending the deadline is no longer possible"):
        turn_extend(campaign=world.campaign, by=timedelta(days=2))
    with pytest.raises(TurnControlError, match="has ended; marking a nation ready is no longer possible"):
        nation_ready_set(nation=world.gb, ready=True)
    with pytest.raises(TurnControlError, match="has ended; resolving a turn is no longer possible"):
        gm_turn_resolve_now(campaign=world.campaign, actor=None)
    with pytest.raises(OrderRefused, match="has ended; orders are closed"):
        order_add(nation=world.gb, body={"kind": "lay_down", "class": "frigate", "name": "Hero", "port": "portsmouth"})
    with pytest.raises(CommandError, match="an ended campaign cannot be turned back"):
        call_command("revert_campaign", world.campaign.slug, "--turn", "1", "--reason", "oops")
    turn = Turn.objects.get(pk=world.turn.pk)
    assert (turn.status, turn.deadline) == (Turn.Status.OPEN, deadline)
    assert not NationTurn.objects.filter(turn=turn, ready=True).exists()
    assert Delivery.objects.count() == mails


@pytest.mark.django_db
def test_after_the_end_the_pages_offer_no_clock_no_ready_and_no_revert() -> None:
    """After the end, a player's page shows no countdown and no ready toggle, the desk does not talk of
    standing orders holding at a deadline, and the revert page says at once that an ended campaign
    cannot be turned back (it used to ask for a turn, a reason and a confirmation first)."""
    world = sallies_with_snapshot()
    players = with_players(world)
    turn_resolve_inline(world.turn)
    Campaign.objects.filter(pk=world.campaign.pk).update(status="active")
    world.campaign.refresh_from_db()
    player, gm = Client(), Client()
    player.force_login(players.gb)
    gm.force_login(players.gm)
    before = player.get(f"/campaigns/{world.campaign.slug}/").content.decode()
    assert 'class="countdown"' in before and "Mark ready" in before  # the page did offer both
    campaign_end(campaign=world.campaign, actor=None)
    page = player.get(f"/campaigns/{world.campaign.slug}/").content.decode()
    assert 'class="countdown"' not in page and "Mark ready" not in page
    desk = gm.get(reverse("admin:campaign_campaign_desk", args=[world.campaign.pk])).content.decode()
    assert "standing orders hold" not in desk and "No orders yet" not in desk
    revert = gm.get(reverse("admin:campaign_campaign_revert", args=[world.campaign.pk])).content.decode()
    assert "has ended; an ended campaign cannot be turned back." in revert
    assert "Back to the start of turn" not in revert and 'name="reason"' not in revert
