"""Issue 30, the webhooks API: register (the secret shown once), list and delete, each owner only their
own hooks (a GM also the campaign's), and every bad registration refused saying what is allowed."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from campaign.models import Webhook
from tests.support.mail import players_with_mail
from tests.worlds import two_power_world

pytestmark = pytest.mark.django_db

BASE = "/api/v1/campaigns/channel-1805/webhooks/"
HOOK = {"url": "https://hooks.example.org/admiralty", "events": ["turn.resolved", "dispatch.received"]}


@pytest.fixture
def people() -> dict[str, Any]:
    return players_with_mail(two_power_world())


def api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_player_registers_a_hook_for_their_nation_and_sees_its_secret_only_once(people: dict[str, Any]) -> None:
    made = api(people["GB"]).post(BASE, {**HOOK, "format": "discord"}, format="json")
    assert made.status_code == 201, made.json()
    body = made.json()
    assert (body["url"], body["events"], body["format"], body["nation"], body["active"]) == (
        HOOK["url"],
        ["turn.resolved", "dispatch.received"],
        "discord",
        "GB",
        True,
    )
    assert len(body["secret"]) == 64 and Webhook.objects.get(pk=body["id"]).secret == body["secret"]
    listed = api(people["GB"]).get(BASE).json()
    assert [row["id"] for row in listed["results"]] == [body["id"]]
    assert "secret" not in listed["results"][0]


def test_a_gm_registers_for_the_campaign_and_sees_the_campaigns_hooks_not_the_players(people: dict[str, Any]) -> None:
    player_hook = api(people["GB"]).post(BASE, HOOK, format="json").json()
    gm_hook = api(people["GM"]).post(BASE, {**HOOK, "events": ["table.waiting"]}, format="json").json()
    assert gm_hook["nation"] is None and gm_hook["format"] == "json"
    assert [row["id"] for row in api(people["GM"]).get(BASE).json()["results"]] == [gm_hook["id"]]
    # Not the GM's to delete: a player's chat webhook address is the player's.
    assert api(people["GM"]).delete(f"{BASE}{player_hook['id']}/").status_code == 404
    assert Webhook.objects.filter(pk=player_hook["id"]).exists()


def test_an_owner_deletes_their_own_hook_and_no_other(people: dict[str, Any]) -> None:
    gb_hook = api(people["GB"]).post(BASE, HOOK, format="json").json()
    refused = api(people["FR"]).delete(f"{BASE}{gb_hook['id']}/")
    assert refused.status_code == 404
    assert refused["Content-Type"] == "application/problem+json"
    assert api(people["FR"]).get(BASE).json()["results"] == []
    assert api(people["GB"]).delete(f"{BASE}{gb_hook['id']}/").status_code == 204
    assert not Webhook.objects.exists()


@pytest.mark.parametrize(
    ("body", "field", "says"),
    [
        ({**HOOK, "url": "ftp://files.example.org/x"}, "url", "must start with http:// or https://"),
        ({**HOOK, "url": "javascript:alert(1)"}, "url", "must start with http:// or https://"),
        ({**HOOK, "url": "http:///no-host"}, "url", "names no host"),
        ({**HOOK, "url": "https://user:pw@example.org/"}, "url", "user name or password"),
        ({**HOOK, "events": ["turn.exploded"]}, "events", "choose from turn.opened, turn.resolved"),
        ({**HOOK, "events": []}, "events", "events"),
        ({**HOOK, "format": "teams"}, "format", "choose json, discord or slack"),
        ({"url": HOOK["url"]}, "events", "required"),
        ({**HOOK, "secret": "mine"}, "secret", "takes url, events and format"),
    ],
)
def test_a_bad_registration_is_refused_saying_what_is_allowed(
    people: dict[str, Any], body: dict[str, Any], field: str, says: str
) -> None:
    refused = api(people["GB"]).post(BASE, body, format="json")
    assert refused.status_code == 400
    assert refused["Content-Type"] == "application/problem+json"
    problem = refused.json()
    assert field in [e["field"] for e in problem["errors"]], problem
    assert says in problem["detail"], problem["detail"]
    assert not Webhook.objects.exists()


def test_a_player_may_not_register_for_another_nation(people: dict[str, Any]) -> None:
    refused = api(people["FR"]).post(f"{BASE}?nation=GB", HOOK, format="json")
    assert refused.status_code == 403
    assert not Webhook.objects.exists()
