"""The desk as the GM's control room (issue 29): the "Needs you" list at its top and its buttons —
a failed resolution with its error and a Retry that works, a turn waiting for missing orders with
Resolve now (confirmed first), a player's request for the table, a disputed result."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from battles.models import TabletopBattle
from campaign.models import Campaign, Nation, NmrPolicy, Turn
from campaign.models.audit import AuditEntry
from campaign.tabletop.services import table_mark, table_result_dispute, table_result_enter
from campaign.tasks import turn_resolve
from campaign.turn.lifecycle import turn_claim
from tests.support.tabletop import table_ships
from tests.worlds import World, two_power_world, two_sallies

pytestmark = pytest.mark.django_db

User = get_user_model()


def _gm(world: World) -> tuple[Any, Client]:
    gm = User.objects.create_user("barham", "barham@example.org", "pw", is_staff=True)
    Campaign.objects.filter(pk=world.campaign.pk).update(gm=gm, status="active")
    world.campaign.refresh_from_db()
    client = Client()
    client.force_login(gm)
    return gm, client


def _desk(client: Client, world: World) -> str:
    response = client.get(reverse("admin:campaign_campaign_desk", args=[world.campaign.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _failed(world: World, error: str) -> None:
    """The turn's resolution failed as often as the sweep allows, as the task records a failure."""
    assert turn_claim(turn_id=world.turn.pk, now=timezone.now())
    Turn.objects.filter(pk=world.turn.pk).update(attempts=settings.TURN_MAX_ATTEMPTS, error=error)


def test_a_failed_turn_shows_on_the_desk_with_its_error_and_its_retry_resolves_it(
    django_capture_on_commit_callbacks: Any,
) -> None:
    world = two_power_world()
    _, client = _gm(world)
    _failed(world, "Traceback (most recent call last):\nValueError: the Channel has no <neighbours>")
    page = _desk(client, world)
    needs = page.split('id="needs-you"')[1].split("</ul>")[0]
    assert "The resolution of turn 1 failed 5 times and stopped" in needs
    assert "ValueError: the Channel has no &lt;neighbours&gt;" in needs  # the error as it was, escaped
    retry = reverse("admin:campaign_campaign_turn_retry", args=[world.campaign.pk, world.turn.pk])
    assert f'action="{retry}"' in needs and ">Retry</button>" in needs

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(retry, follow=True)
    assert "Turn 1 is being resolved again" in response.content.decode()
    assert len(callbacks) == 1  # handed to the workers at once, not left for the next sweep
    turn = Turn.objects.get(pk=world.turn.pk)
    assert (turn.status, turn.attempts, turn.error) == (Turn.Status.RESOLVING, 0, "")
    entry = AuditEntry.objects.get(campaign_id=world.campaign.pk, action="turn_retried")
    assert entry.before is not None and "ValueError: the Channel has no <neighbours>" in entry.before["error"]
    # The retry works: the task the button queued resolves the turn.
    assert turn_resolve(world.turn.pk) == "done"
    assert Turn.objects.get(pk=world.turn.pk).status == Turn.Status.RESOLVED
    assert "Nothing waits for you." in _desk(client, world)


def test_retry_of_a_turn_that_has_not_failed_is_refused_and_changes_nothing() -> None:
    world = two_power_world()
    _, client = _gm(world)
    retry = reverse("admin:campaign_campaign_turn_retry", args=[world.campaign.pk, world.turn.pk])
    response = client.post(retry, follow=True)
    assert "Turn 1 is open for orders: nothing to retry." in response.content.decode()
    assert Turn.objects.get(pk=world.turn.pk).status == Turn.Status.OPEN
    assert not AuditEntry.objects.filter(campaign_id=world.campaign.pk, action="turn_retried").exists()


def test_another_gm_can_neither_see_nor_retry_the_failed_turn() -> None:
    world = two_power_world()
    _gm(world)
    _failed(world, "ValueError: boom")
    rival = User.objects.create_user("rival", "rival@example.org", "pw", is_staff=True)
    client = Client()
    client.force_login(rival)
    retry = reverse("admin:campaign_campaign_turn_retry", args=[world.campaign.pk, world.turn.pk])
    assert client.post(retry).status_code == 404
    assert Turn.objects.get(pk=world.turn.pk).error == "ValueError: boom"


def test_missing_orders_under_the_ask_gm_policy_wait_on_the_desk_and_resolve_now_asks_first(
    django_capture_on_commit_callbacks: Any,
) -> None:
    world = two_power_world()
    _, client = _gm(world)
    nelson = User.objects.create_user("nelson", "nelson@example.org")
    Nation.objects.filter(pk=world.gb.pk).update(player=nelson)
    Campaign.objects.filter(pk=world.campaign.pk).update(nmr_policy=NmrPolicy.ASK_GM)
    page = _desk(client, world)
    needs = page.split('id="needs-you"')[1].split("</ul>")[0]
    assert "Turn 1 has no orders from Great Britain; at its deadline it will wait for you" in needs
    resolve_now = reverse("admin:campaign_campaign_desk_action", args=[world.campaign.pk, "resolve-now"])
    assert resolve_now in needs and "Set the deadline" in needs and "Pause" in needs

    # The button leads to a confirmation page showing the current deadline; nothing happens on GET.
    confirm = client.get(resolve_now).content.decode()
    assert "Resolve the open turn now" in confirm and "current deadline" in confirm
    assert Turn.objects.get(pk=world.turn.pk).status == Turn.Status.OPEN
    with django_capture_on_commit_callbacks(execute=False):
        response = client.post(resolve_now, follow=True)
    assert "Turn 1 is being resolved now." in response.content.decode()
    assert Turn.objects.get(pk=world.turn.pk).status == Turn.Status.RESOLVING
    assert AuditEntry.objects.filter(campaign_id=world.campaign.pk, action="turn_resolve_now").count() == 1


def test_pause_from_the_desk_asks_first_then_pauses() -> None:
    world = two_power_world()
    _, client = _gm(world)
    pause = reverse("admin:campaign_campaign_desk_action", args=[world.campaign.pk, "pause"])
    assert "The clock stops" in client.get(pause).content.decode()
    assert Campaign.objects.get(pk=world.campaign.pk).status == Campaign.Status.ACTIVE
    response = client.post(pause, follow=True)
    assert "Channel 1805 is paused" in response.content.decode()
    assert Campaign.objects.get(pk=world.campaign.pk).status == Campaign.Status.PAUSED
    again = client.post(pause, follow=True).content.decode()
    assert "Channel 1805 is paused; only an active campaign can be paused." in again


def test_a_request_for_the_table_is_approved_or_declined_on_the_desk() -> None:
    world = two_sallies()
    _, client = _gm(world)
    asked = table_mark(campaign=world.campaign, place="channel", nation=world.gb)
    page = _desk(client, world)
    assert "Great Britain asks for the battle at The Channel (turn 1) to be fought at the table." in page
    assert "1 request, 0 at the table, 0 disputes" in page
    approve = reverse("admin:campaign_campaign_table_action", args=[world.campaign.pk, asked.pk, "approve-request"])
    response = client.post(approve, follow=True)
    assert "Approved: the battle at The Channel goes to the table" in response.content.decode()
    assert TabletopBattle.objects.get(pk=asked.pk).status == TabletopBattle.Status.MARKED
    # Answered already: a second answer is refused with the reason, and changes nothing.
    decline = reverse("admin:campaign_campaign_table_action", args=[world.campaign.pk, asked.pk, "decline-request"])
    again = client.post(decline, follow=True).content.decode()
    assert "This is not a request awaiting an answer" in again
    assert TabletopBattle.objects.get(pk=asked.pk).status == TabletopBattle.Status.MARKED


def test_a_disputed_result_is_on_the_desk_and_fought_by_the_dice_after_confirmation() -> None:
    world = two_sallies()
    _, client = _gm(world)
    table = table_mark(campaign=world.campaign, place="brest")
    assert turn_claim(turn_id=world.turn.pk, now=timezone.now())
    assert turn_resolve(world.turn.pk) == "table"
    table.refresh_from_db()
    rows = [{"ship": ship.pk, "fate": "intact"} for ship in table_ships(table)]
    table = table_result_enter(table=table, body={"ships": rows, "held_field": None}, side=0, by="fr-player")
    table_result_dispute(table=table, side=1, reason="Two of ours escaped.")
    page = _desk(client, world)
    assert "The result of the battle at Brest (turn 1) is disputed: Side 2: Two of ours escaped." in page
    assert "0 requests, 1 at the table, 1 dispute." in page
    assert reverse("campaign:table", args=[world.campaign.slug, table.pk]) in page
    automatic = reverse("admin:campaign_campaign_table_action", args=[world.campaign.pk, table.pk, "automatic"])
    assert "cannot be undone" in client.get(automatic).content.decode()
    assert TabletopBattle.objects.get(pk=table.pk).status == TabletopBattle.Status.DISPUTED
    client.post(automatic)
    assert TabletopBattle.objects.get(pk=table.pk).status == TabletopBattle.Status.AUTOMATIC
    assert Turn.objects.get(pk=world.turn.pk).status == Turn.Status.RESOLVING
