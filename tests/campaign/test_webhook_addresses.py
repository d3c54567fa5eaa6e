"""Webhooks never post into the server's own network when the site does not allow it
(``WEBHOOK_PRIVATE_ADDRESSES`` off, production's default): a private address is refused when a hook is
registered, and a delivery whose host has become a private address is not sent — the receiver on
127.0.0.1 gets nothing, and the attempt fails saying why."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from campaign.models import Webhook, WebhookDelivery, WebhookEvent, WebhookFormat
from campaign.outbox.webhooks import webhook_turn_opened_record
from campaign.webhooks.addresses import address_is_private
from campaign.webhooks.sending import webhook_deliveries_send
from campaign.webhooks.services import WebhookScope, webhook_create
from tests.support.mail import players_with_mail
from tests.support.webhooks import Receiver
from tests.worlds import two_power_world

pytestmark = pytest.mark.django_db

BASE = "/api/v1/campaigns/channel-1805/webhooks/"


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "10.1.2.3",
        "172.16.0.1",
        "192.168.1.1",
        "169.254.169.254",  # a cloud's metadata service
        "100.64.0.1",  # shared address space (carrier-grade NAT)
        "0.0.0.0",
        "224.0.0.1",
        "::1",
        "fe80::1%eth0",
        "fc00::1",
        "::ffff:127.0.0.1",
        "::ffff:10.0.0.1",
    ],
)
def test_every_kind_of_private_address_is_private(address: str) -> None:
    assert address_is_private(address)


@pytest.mark.parametrize("address", ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8"])
def test_public_addresses_are_not(address: str) -> None:
    assert not address_is_private(address)


@pytest.fixture
def people() -> dict[str, Any]:
    return players_with_mail(two_power_world())


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    running = Receiver()
    running.start()
    yield running
    running.close()


def _api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("http://127.0.0.1:9/hook", "the address 127.0.0.1, of a private network"),
        ("http://localhost/hook", "of a private network"),
        ("https://169.254.169.254/latest/meta-data/", "the address 169.254.169.254"),
        ("http://[::1]:8000/", "the address ::1"),
        ("http://10.0.0.7/", "the address 10.0.0.7"),
    ],
)
def test_a_private_address_is_refused_when_the_site_does_not_allow_it(
    settings: Any, people: dict[str, Any], url: str, says: str
) -> None:
    settings.WEBHOOK_PRIVATE_ADDRESSES = False
    body = {"url": url, "events": ["turn.resolved"]}
    refused = _api(people["GB"]).post(BASE, body, format="json")
    assert refused.status_code == 400, refused.content
    problem = refused.json()
    assert [(e["field"], e["code"]) for e in problem["errors"]] == [("url", "address_not_public")]
    assert says in problem["detail"]
    assert "only to public internet addresses" in problem["detail"]
    assert not Webhook.objects.exists()


def test_a_public_address_is_registered_and_a_private_one_when_allowed(settings: Any, people: dict[str, Any]) -> None:
    settings.WEBHOOK_PRIVATE_ADDRESSES = False
    public = _api(people["GB"]).post(
        BASE, {"url": "https://93.184.216.34/hook", "events": ["turn.resolved"]}, format="json"
    )
    assert public.status_code == 201, public.content
    settings.WEBHOOK_PRIVATE_ADDRESSES = True
    local = _api(people["GB"]).post(
        BASE, {"url": "http://127.0.0.1:9/hook", "events": ["turn.resolved"]}, format="json"
    )
    assert local.status_code == 201, local.content
    assert Webhook.objects.count() == 2


def test_a_delivery_to_a_host_now_private_is_not_sent(settings: Any, receiver: Receiver) -> None:
    """A hook registered while allowed (or a name that resolves elsewhere by the time it is posted):
    the connection is checked after it is made, and closed unused."""
    world = two_power_world()
    people = players_with_mail(world)
    scope = WebhookScope(world.campaign, people["GB"].pk, world.gb, False)
    hook = webhook_create(
        scope=scope, url=receiver.url("/gb"), events=[WebhookEvent.TURN_OPENED], format=WebhookFormat.JSON
    )
    settings.WEBHOOK_PRIVATE_ADDRESSES = False
    assert webhook_turn_opened_record(turn=world.turn, now=timezone.now()) == 1
    webhook_deliveries_send(now=timezone.now())

    assert receiver.received == []
    delivery = WebhookDelivery.objects.get(hook=hook)
    assert delivery.state == WebhookDelivery.State.PENDING  # retried later, like any unreachable receiver
    assert "of a private network: nothing was sent" in delivery.error

    settings.WEBHOOK_PRIVATE_ADDRESSES = True  # the site allows it again: the retry goes out
    WebhookDelivery.objects.filter(pk=delivery.pk).update(due_at=timezone.now())
    webhook_deliveries_send(now=timezone.now())
    assert [r.path for r in receiver.received] == ["/gb"]
