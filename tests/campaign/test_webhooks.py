"""Webhooks (issue 30) posted to a real HTTP receiver on 127.0.0.1: recorded where the events happen,
signed, fog of war kept (a nation's hook hears only what that nation may see), Discord and Slack
bodies readable in the owner's time zone, and a hook switched off after failing again and again."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from campaign.dispatches.services import conversation_start
from campaign.mail.messages import message_for
from campaign.models import (
    Delivery,
    MailEvent,
    NationTurn,
    Turn,
    UserProfile,
    Webhook,
    WebhookDelivery,
    WebhookEvent,
    WebhookFormat,
)
from campaign.outbox.mail import deadline_reminders_record
from campaign.tasks import webhooks_sweep
from campaign.webhooks.sending import PostRun, webhook_deliveries_send, webhook_delivery_send
from campaign.webhooks.services import WebhookScope, webhook_create
from tests.support.mail import players_with_mail
from tests.support.turns import order_store, turn_resolve_inline
from tests.support.webhooks import Received, Receiver
from tests.worlds import World, two_power_world

pytestmark = pytest.mark.django_db

ALL_EVENTS = list(WebhookEvent.values)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    running = Receiver()
    running.start()
    yield running
    running.close()


def hook_for(world: World, who: str, people: dict[str, Any], url: str, **kwargs: Any) -> Webhook:
    """A hook of ``who`` (GB, FR: the nation's player; GM: the campaign's), made by the service."""
    nation = {"GB": world.gb, "FR": world.fr}.get(who)
    scope = WebhookScope(world.campaign, people[who].pk, nation, who == "GM")
    return webhook_create(
        scope=scope,
        url=url,
        events=kwargs.get("events", ALL_EVENTS),
        format=kwargs.get("format", WebhookFormat.JSON),
    )


def post_due() -> None:
    """What the webhook task does once the recording transaction committed (there is none to wait
    for in these tests): post every delivery due now."""
    webhook_deliveries_send(now=timezone.now())


def by_path(receiver: Receiver, path: str, event: str) -> list[Received]:
    return [r for r in receiver.received if r.path == path and r.headers["X-Admiralty-Event"] == event]


def test_a_resolved_turn_tells_each_nation_only_its_own_report_and_the_gm_the_campaigns_facts(
    receiver: Receiver,
) -> None:
    world = two_power_world()
    people = players_with_mail(world)
    hooks = {who: hook_for(world, who, people, receiver.url(f"/{who}")) for who in ("GB", "FR", "GM")}
    keel: dict[str, Any] = {"class": "frigate", "name": "Secret Frigate", "port": "portsmouth"}
    order_store(world.turn, world.gb, "lay_down", **keel)
    NationTurn.objects.filter(turn=world.turn, nation=world.gb).update(submitted_at=timezone.now())

    turn_resolve_inline(world.turn)
    post_due()

    gb, fr, gm = (by_path(receiver, f"/{who}", "turn.resolved") for who in ("GB", "FR", "GM"))
    assert len(gb) == len(fr) == len(gm) == 1
    assert any("Secret Frigate" in line for line in gb[0].json["report"]), gb[0].json["report"]
    assert "Secret Frigate" not in fr[0].body  # fog of war: Britain's keel is Britain's business
    assert fr[0].json["nation"] == {"code": "FR", "name": "France"}
    assert "report" not in gm[0].json and gm[0].json["nation"] is None
    assert gm[0].json["battles"] == 0
    assert sorted(gm[0].json["nations_without_orders"]) == ["France"]
    # Each delivery once, signed with its own hook's secret, and the next turn's opening told too.
    for who, received in (("GB", gb[0]), ("FR", fr[0]), ("GM", gm[0])):
        assert received.signed_with(hooks[who].secret)
        assert not received.signed_with(hooks["GB" if who != "GB" else "FR"].secret)
    assert len(by_path(receiver, "/GB", "turn.opened")) == 1
    assert WebhookDelivery.objects.filter(state=WebhookDelivery.State.SENT).count() == 6


def test_a_json_delivery_carries_the_documented_headers_and_its_id_in_the_body(receiver: Receiver) -> None:
    world = two_power_world()
    people = players_with_mail(world)
    hook = hook_for(world, "GB", people, receiver.url(), events=["turn.opened"])
    before = int(timezone.now().timestamp())

    turn_resolve_inline(world.turn)
    post_due()

    (received,) = receiver.received
    delivery = WebhookDelivery.objects.get(hook=hook)
    assert received.headers["X-Admiralty-Event"] == "turn.opened"
    assert received.headers["X-Admiralty-Delivery"] == str(delivery.delivery_id) == received.json["id"]
    assert before - 1 <= int(received.headers["X-Admiralty-Timestamp"]) <= before + 60
    assert received.headers["Content-Type"] == "application/json"
    assert received.signed_with(hook.secret)
    tampered = Received(received.path, received.headers, received.body.replace("Channel", "Chanel"))
    assert not tampered.signed_with(hook.secret)
    turn_2 = Turn.objects.get(campaign=world.campaign, number=2)
    assert received.json["turn"] == {"number": 2, "season": turn_2.get_season_display(), "year": turn_2.year}
    assert turn_2.deadline is not None and received.json["deadline"] == turn_2.deadline.isoformat()


def test_discord_and_slack_get_one_readable_line_in_the_owners_time_zone(receiver: Receiver) -> None:
    world = two_power_world()
    people = players_with_mail(world)
    UserProfile.objects.create(user=people["GM"], time_zone="Europe/Paris")
    hook_for(world, "GM", people, receiver.url("/discord"), events=["turn.resolved"], format="discord")
    hook_for(world, "GB", people, receiver.url("/slack"), events=["turn.resolved"], format="slack")

    turn_resolve_inline(world.turn)
    post_due()

    deadline = timezone.localtime(
        Turn.objects.get(campaign=world.campaign, number=2).deadline, ZoneInfo("Europe/Paris")
    )
    shown = f"{deadline:%a} {deadline.day} {deadline:%b %H:%M} {deadline.tzname()}"
    (discord,) = by_path(receiver, "/discord", "turn.resolved")
    line = (
        f"[Channel 1805] Turn 1 resolved — no battles; next deadline {shown}. No orders from France and Great Britain"
    )
    assert discord.json == {"content": line}
    (slack,) = by_path(receiver, "/slack", "turn.resolved")
    assert list(slack.json) == ["text"]
    assert slack.json["text"].startswith("[Channel 1805] Turn 1 resolved — no battles; next deadline ")
    assert "UTC" in slack.json["text"]  # Britain's player chose no zone
    assert "Great Britain's report: http" in slack.json["text"]


def test_a_dispatch_is_told_only_to_the_hooks_of_the_nation_it_reached(receiver: Receiver) -> None:
    world = two_power_world()
    people = players_with_mail(world)
    for who in ("GB", "FR", "GM"):
        hook_for(world, who, people, receiver.url(f"/{who}"))

    conversation_start(
        campaign=world.campaign,
        sender=world.gb,
        author_id=people["GB"].pk,
        to=["FR"],
        subject="Terms",
        body="Strike your colours.",
        now=timezone.now(),
    )
    post_due()

    assert [r.path for r in receiver.received] == ["/FR"]
    told = receiver.received[0].json
    assert told["event"] == "dispatch.received"
    assert told["dispatch"]["sender"] == "Great Britain"
    assert told["dispatch"]["subject"] == "Terms" and told["dispatch"]["body"] == "Strike your colours."


def test_a_deadline_reminder_goes_to_the_nations_without_orders_and_the_gm(receiver: Receiver) -> None:
    world = two_power_world(deadline=timezone.now() + timedelta(hours=1))
    people = players_with_mail(world)
    for who in ("GB", "FR", "GM"):
        hook_for(world, who, people, receiver.url(f"/{who}"), events=["deadline.reminder"])
    busy: dict[str, Any] = {"class": "frigate", "name": "Busy", "port": "portsmouth"}
    order_store(world.turn, world.gb, "lay_down", **busy)

    deadline_reminders_record(now=timezone.now())
    deadline_reminders_record(now=timezone.now())  # the sweep again: nothing new
    post_due()

    assert sorted(r.path for r in receiver.received) == ["/FR", "/GM"]
    (gm,) = by_path(receiver, "/GM", "deadline.reminder")
    assert gm.json["waiting_for"] == ["France"]
    (fr,) = by_path(receiver, "/FR", "deadline.reminder")
    assert "waiting_for" not in fr.json


def test_a_hook_failing_again_and_again_is_switched_off_and_its_owner_told_by_mail(
    receiver: Receiver, settings: Any
) -> None:
    settings.WEBHOOK_MAX_FAILURES = 3
    settings.WEBHOOK_RETRY_BASE_SECONDS = 60
    world = two_power_world()
    people = players_with_mail(world)
    hook = hook_for(world, "FR", people, receiver.url("/broken"), events=["turn.opened", "turn.resolved"])
    receiver.status = 500

    turn_resolve_inline(world.turn)  # two deliveries: turn 1 resolved, turn 2 opened
    now = timezone.now()
    for attempt in range(3):
        webhook_deliveries_send(now=now + timedelta(hours=attempt))

    hook.refresh_from_db()
    assert len(receiver.received) == 3  # two, then a retry: the third failure in a row; the rest not posted
    assert not hook.active and hook.disabled_at is not None
    assert "500" in hook.disabled_reason
    # Switched off: nothing more is posted, even once the receiver is back.
    receiver.status = 204
    webhook_deliveries_send(now=now + timedelta(days=1))
    assert len(receiver.received) == 3
    assert WebhookDelivery.objects.filter(hook=hook, state=WebhookDelivery.State.SKIPPED).count() == 2
    (notice,) = Delivery.objects.filter(event=MailEvent.WEBHOOK_DISABLED)
    assert notice.recipient == people["FR"]
    message = message_for(notice)
    assert message is not None
    assert "webhook was switched off" in message.subject
    assert receiver.url("/broken") in message.body and "500" in message.body


def test_a_success_resets_the_count_of_failures(receiver: Receiver, settings: Any) -> None:
    settings.WEBHOOK_MAX_FAILURES = 2
    world = two_power_world()
    people = players_with_mail(world)
    hook = hook_for(world, "FR", people, receiver.url(), events=["turn.opened", "turn.resolved"])
    receiver.status = 503
    turn_resolve_inline(world.turn)
    # One attempt fails, the receiver comes back, the other succeeds: never two failures in a row.
    first, second = WebhookDelivery.objects.filter(hook=hook).order_by("pk")
    webhook_delivery_send(delivery_id=first.pk, now=timezone.now(), run=PostRun())
    receiver.status = 200
    webhook_delivery_send(delivery_id=second.pk, now=timezone.now(), run=PostRun())
    hook.refresh_from_db()
    assert hook.active and hook.failures == 0


def test_the_database_refuses_a_hook_that_is_not_http_or_names_unknown_events() -> None:
    world = two_power_world()
    people = players_with_mail(world)
    base = {"campaign": world.campaign, "owner": people["GB"], "nation": world.gb, "secret": "s" * 64}
    for bad in (
        {"url": "ftp://127.0.0.1/x", "events": ["turn.opened"]},
        {"url": "http://127.0.0.1/x", "events": ["turn.exploded"]},
        {"url": "http://127.0.0.1/x", "events": []},
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            Webhook.objects.create(**base, **bad)
    assert not Webhook.objects.exists()


def test_a_repeated_event_records_each_delivery_once() -> None:
    world = two_power_world()
    people = players_with_mail(world)
    hook_for(world, "GB", people, "http://127.0.0.1:9/never", events=["deadline.reminder"])
    Turn.objects.filter(pk=world.turn.pk).update(deadline=timezone.now() + timedelta(hours=1))
    for _ in range(3):
        deadline_reminders_record(now=timezone.now())
    assert WebhookDelivery.objects.count() == 1
    assert json.loads(json.dumps(WebhookDelivery.objects.get().data))["quiet"]


def test_the_beat_sweep_posts_a_delivery_whose_message_was_lost_with_the_broker(receiver: Receiver) -> None:
    """In this test no task is ever sent (the recording transaction never commits): as if the broker lost
    the message. The beat sweep finds the delivery due and posts it, once."""
    world = two_power_world()
    people = players_with_mail(world)
    hook_for(world, "FR", people, receiver.url(), events=["turn.opened"])
    turn_resolve_inline(world.turn)
    assert WebhookDelivery.objects.get().state == WebhookDelivery.State.PENDING

    assert len(webhooks_sweep()["sent"]) == 1
    assert webhooks_sweep()["sent"] == []
    assert len(receiver.received) == 1
