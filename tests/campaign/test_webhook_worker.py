"""Webhooks through a real Celery worker to a real receiver on 127.0.0.1 that is down while a turn
resolves: every delivery is retried with backoff and arrives exactly once when the receiver is back,
under the delivery id it was recorded with."""

from collections.abc import Iterator

import pytest
from django.conf import settings
from django.utils import timezone

from campaign.models import WebhookDelivery, WebhookFormat
from campaign.tasks import turn_resolve, webhook_deliveries_send, webhooks_sweep
from campaign.turn.lifecycle import turn_claim
from campaign.webhooks.services import WebhookScope, webhook_create
from tests.support.mail import players_with_mail
from tests.support.turns import resolved, wait_for
from tests.support.webhooks import Receiver
from tests.worlds import two_power_world

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    made = Receiver()  # not started: the receiver is down
    yield made
    made.close()


def all_tried_and_waiting() -> bool:
    """Both deliveries of the turn (turn 1 resolved, turn 2 opened) tried at least once and back waiting."""
    rows = list(WebhookDelivery.objects.values_list("attempts", "state"))
    return len(rows) == 2 and all(a >= 1 and s == WebhookDelivery.State.PENDING for a, s in rows)


def all_sent() -> bool:
    states = list(WebhookDelivery.objects.values_list("state", flat=True))
    return len(states) == 2 and all(s == WebhookDelivery.State.SENT for s in states)


def test_deliveries_refused_while_the_receiver_is_down_arrive_once_when_it_is_back(
    start_worker, receiver: Receiver
) -> None:
    world = two_power_world()
    people = players_with_mail(world)
    hook = webhook_create(
        scope=WebhookScope(world.campaign, people["GB"].pk, world.gb, False),
        url=receiver.url(),
        events=["turn.resolved", "turn.opened"],
        format=WebhookFormat.JSON,
    )
    start_worker("hooks", WEBHOOK_RETRY_BASE_SECONDS="1", WEBHOOK_MAX_FAILURES="50")
    assert turn_claim(turn_id=world.turn.pk, now=timezone.now())
    assert turn_resolve.delay(world.turn.pk).get(timeout=60) == "done"
    wait_for(lambda: resolved(world.turn.pk))
    wait_for(all_tried_and_waiting)  # posted after phase 10's commit, and refused
    recorded = dict(WebhookDelivery.objects.values_list("event", "delivery_id"))
    assert all("onnection refused" in e for e in WebhookDelivery.objects.values_list("error", flat=True))

    receiver.start()
    wait_for(all_sent, timeout=90)  # the retry the failed run queued for itself
    # Duplicate tasks and the beat sweep afterwards post nothing again.
    for result in [webhook_deliveries_send.apply_async(queue=settings.MAIL_QUEUE) for _ in range(3)]:
        assert result.get(timeout=30)["sent"] == []
    assert webhooks_sweep.apply_async(queue=settings.MAIL_QUEUE).get(timeout=30)["sent"] == []

    got = {r.headers["X-Admiralty-Event"]: r for r in receiver.received}
    assert len(receiver.received) == 2 and set(got) == {"turn.resolved", "turn.opened"}
    for event, received in got.items():
        assert received.headers["X-Admiralty-Delivery"] == str(recorded[event])  # the id it had before
        assert received.signed_with(hook.secret)
    hook.refresh_from_db()
    assert hook.active and hook.failures == 0
