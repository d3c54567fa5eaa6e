"""Issue 16, the dispatches API: list, read, send and mark read, with the pages' permissions."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from campaign.accounts.api_tokens import api_token_create
from campaign.models import Campaign, Dispatch, DispatchCopy
from tests.support.dispatches import Powers, three_powers

pytestmark = pytest.mark.django_db

BASE = "/api/v1/campaigns/channel-1805/dispatches/"


@pytest.fixture
def p() -> Powers:
    return three_powers()


def api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_send_list_read_and_mark_read_between_two_nations(p: Powers) -> None:
    sent = api(p.nelson).post(BASE, {"to": ["FR"], "subject": "Alliance", "body": "Join us?"}, format="json")
    assert sent.status_code == 201, sent.json()
    shown = sent.json()
    assert (shown["sender"], shown["own"], shown["stamp"], shown["in_transit_to"]) == (
        "Great Britain (you)",
        True,
        "Turn 1, Spring 1805",
        [],
    )
    listed = api(p.villeneuve).get(BASE).json()
    assert listed["count"] == 1
    row = listed["results"][0]
    assert (row["sender"], row["sender_code"], row["body"], row["unread"]) == ("Great Britain", "GB", "Join us?", True)
    # Reading one does not mark it read; the read call does.
    one = api(p.villeneuve).get(f"{BASE}{row['id']}/")
    assert one.status_code == 200 and one.json()["unread"] is True
    marked = api(p.villeneuve).post(f"{BASE}{row['id']}/read/")
    assert marked.json() == {"dispatch": row["id"], "read": True}
    assert api(p.villeneuve).get(f"{BASE}{row['id']}/").json()["unread"] is False
    # A reply in the conversation.
    reply = api(p.villeneuve).post(BASE, {"conversation": row["conversation"], "body": "Gladly."}, format="json")
    assert reply.status_code == 201
    assert [r["body"] for r in api(p.nelson).get(BASE + f"?conversation={row['conversation']}").json()["results"]] == [
        "Gladly.",
        "Join us?",
    ]


def test_a_third_nation_reads_nothing_and_cannot_reply_or_mark(p: Powers) -> None:
    api(p.nelson).post(BASE, {"to": ["FR"], "subject": "Secret", "body": "Between us."}, format="json")
    dispatch = Dispatch.objects.get()
    assert api(p.gravina).get(BASE).json()["count"] == 0
    assert api(p.gravina).get(f"{BASE}{dispatch.pk}/").status_code == 404
    assert api(p.gravina).post(f"{BASE}{dispatch.pk}/read/").status_code == 404
    reply = api(p.gravina).post(BASE, {"conversation": dispatch.conversation_id, "body": "Me too"}, format="json")
    assert reply.status_code == 404
    assert api(p.gravina).get(BASE + "?nation=FR").status_code == 403
    assert Dispatch.objects.count() == 1


def test_refusals_are_400s_naming_the_problem(p: Powers) -> None:
    Campaign.objects.filter(pk=p.campaign.pk).update(dispatch_max_length=5)
    cases = [
        ({"to": ["FR"], "subject": "S", "body": "Too long"}, "8 characters long; this campaign allows at most 5"),
        ({"subject": "S", "body": "Hi"}, "one of the two"),
        ({"to": ["FR"], "public": True, "subject": "S", "body": "Hi"}, "one of the two"),
        ({"to": ["ZZ"], "subject": "S", "body": "Hi"}, "No nation ZZ"),
        ({"to": "FR", "subject": "S", "body": "Hi"}, "to:"),
        ({"to": ["FR"], "subject": "S", "body": "a\x00b"}, "contains a NUL character"),
    ]
    for body, message in cases:
        response = api(p.nelson).post(BASE, body, format="json")
        assert response.status_code == 400 and message in response.json()["detail"], (body, response.json())
    # The body key a refusal concerns is named, as for every problem of the API.
    too_long = api(p.nelson).post(BASE, {"to": ["FR"], "subject": "S", "body": "Too long"}, format="json").json()
    assert [(e["field"], e["code"]) for e in too_long["errors"]] == [("body", "dispatch_refused")]
    unknown = api(p.nelson).post(BASE, {"to": ["ZZ"], "subject": "S", "body": "Hi"}, format="json").json()
    assert [e["field"] for e in unknown["errors"]] == ["to"]
    assert api(p.nelson).get(BASE + "?conversation=x").status_code == 400
    assert not Dispatch.objects.exists()


def test_a_bearer_token_sends_and_the_gm_posts_as_the_admiralty(p: Powers) -> None:
    token = api_token_create(user_id=p.nelson.pk, name="script").secret
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert client.post(BASE, {"public": True, "subject": "To all", "body": "Peace!"}, format="json").status_code == 201
    gm = api(p.gm).post(BASE + "?nation=GB", {"public": True, "subject": "Notice", "body": "Storms."}, format="json")
    assert gm.status_code == 201 and gm.json()["sender"] == "The Admiralty"
    assert api(p.gm).post(f"{BASE}{gm.json()['id']}/read/?nation=GB").status_code == 403
    assert DispatchCopy.objects.filter(dispatch_id=gm.json()["id"]).count() == 3
