"""The campaign resources of /api/v1/: each endpoint's answer, its refusals, and fog of war.

RULES.md §3 "Fog of war": "A nation sees its own and allied forces; enemies it sighted or fought this
turn; ... It sees nothing of neutral fleets." And never another nation's orders, treasury or ledger:
the API answers 403 or 404 exactly where the web pages do.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from campaign.models import NationTurn, Order, Turn
from campaign.orders.services import order_add
from tests.web.fog_worlds import PASSWORD, FogWorld, battle_event, battle_in, sighting, turn_close

pytestmark = pytest.mark.django_db

SLUG = "channel-1805"
BASE = f"/api/v1/campaigns/{SLUG}"


def _as(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _lay_down(name: str = "Amethyst", ship_class: str = "frigate") -> dict[str, Any]:
    return {"kind": "lay_down", "class": ship_class, "name": name, "port": "portsmouth"}


# --- authentication and the campaign list -----------------------------------------------------------


def test_an_anonymous_caller_is_refused_everywhere(fw: FogWorld) -> None:
    client = APIClient()
    for url in ("/api/v1/campaigns/", f"{BASE}/", f"{BASE}/fleets/", f"{BASE}/ledger/", f"{BASE}/orders/"):
        assert client.get(url).status_code in (401, 403), url
    assert client.post(f"{BASE}/ready/", {"ready": True}, format="json").status_code in (401, 403)


def test_basic_auth_lists_the_callers_campaigns_with_their_nation(fw: FogWorld) -> None:
    client = APIClient()
    token = base64.b64encode(f"nelson:{PASSWORD}".encode()).decode()
    client.credentials(HTTP_AUTHORIZATION=f"Basic {token}")
    response = client.get("/api/v1/campaigns/")
    assert response.status_code == 200
    [row] = response.json()["results"]
    assert row["slug"] == SLUG and row["nation"] == "GB" and row["gm"] is False
    assert row["turn"] == 1 and row["year"] == 1805 and row["deadline"] is not None


def test_the_gm_is_flagged_and_an_outsider_has_no_campaigns(fw: FogWorld) -> None:
    [row] = _as(fw.gm).get("/api/v1/campaigns/").json()["results"]
    assert row["gm"] is True and row["nation"] is None
    assert _as(fw.outsider).get("/api/v1/campaigns/").json()["results"] == []


# --- the nation view -----------------------------------------------------------------------------------


def test_the_nation_view_counts_committed_ep_from_the_orders(fw: FogWorld) -> None:
    client = _as(fw.nelson)
    data = client.get(f"{BASE}/").json()
    assert data["nation"] == "GB" and data["treasury"] == 60 and data["committed_ep"] == 0
    assert data["ready"] is False and data["deadline"] is not None
    assert data["projection"]["income"] >= data["projection"]["base"]
    assert data["quota"]["ships_of_the_line"] == 10
    assert client.post(f"{BASE}/orders/", _lay_down(), format="json").status_code == 201
    data = client.get(f"{BASE}/").json()
    assert data["committed_ep"] == 4 and data["available_ep"] == 56 and data["quota"]["pending_keels"] == 1


def test_a_player_may_not_look_through_another_nation_but_the_gm_may(fw: FogWorld) -> None:
    assert _as(fw.nelson).get(f"{BASE}/?nation=FR").status_code == 403
    assert _as(fw.outsider).get(f"{BASE}/").status_code == 404
    assert _as(fw.nelson).get("/api/v1/campaigns/no-such-campaign/").status_code == 404
    data = _as(fw.gm).get(f"{BASE}/?nation=FR").json()
    assert data["nation"] == "FR" and data["gm"] is True


# --- fleets --------------------------------------------------------------------------------------------


def test_fleets_are_own_and_allied_only_even_after_a_sighting(fw: FogWorld) -> None:
    """An enemy seen in the turn report is a contact, never one of "our" fleets; a neutral one not even that."""
    turn_close(fw.campaign, {fw.w.gb: [sighting(fw.w.biscay, [("FR", "3rd-74", "ready")] * 10)]})
    fleets = _as(fw.nelson).get(f"{BASE}/fleets/").json()["results"]
    by_name = {f["name"]: f for f in fleets}
    assert set(by_name) == {"Channel Fleet", "Tagus Squadron"}
    channel = by_name["Channel Fleet"]
    assert channel["own"] is True and channel["nation"] == "GB" and channel["port"] == "portsmouth"
    assert len(channel["ships"]) == 10 and channel["ships"][0]["ship_class"] == "3rd-74"
    assert by_name["Tagus Squadron"]["own"] is False and len(by_name["Tagus Squadron"]["ships"]) == 3


def test_france_sees_its_dutch_ally_and_not_the_british(fw: FogWorld) -> None:
    names = {f["name"] for f in _as(fw.villeneuve).get(f"{BASE}/fleets/").json()["results"]}
    assert names == {"Brest Fleet", "Texel Squadron"}
    assert _as(fw.villeneuve).get(f"{BASE}/fleets/?nation=GB").status_code == 403


# --- the ledger ----------------------------------------------------------------------------------------


def test_the_ledger_is_paginated_and_the_nations_own(fw: FogWorld) -> None:
    data = _as(fw.nelson).get(f"{BASE}/ledger/").json()
    assert data["count"] == 1 and data["next"] is None
    assert data["results"][0]["amount"] == 60 and data["results"][0]["balance"] == 60
    assert _as(fw.nelson).get(f"{BASE}/ledger/?nation=FR").status_code == 403
    assert _as(fw.outsider).get(f"{BASE}/ledger/").status_code == 404
    assert _as(fw.gm).get(f"{BASE}/ledger/?nation=FR").json()["count"] == 1


# --- orders --------------------------------------------------------------------------------------------


def test_an_order_round_trip(fw: FogWorld) -> None:
    """POST a lay-down, see it listed, PUT an invalid list (400, every refusal, nothing changed), DELETE."""
    client = _as(fw.nelson)
    created = client.post(f"{BASE}/orders/", _lay_down(), format="json")
    assert created.status_code == 201
    order = created.json()
    assert order["position"] == 1 and order["body"]["name"] == "Amethyst"
    listed = client.get(f"{BASE}/orders/").json()
    assert listed["open"] is True and listed["turn"] == 1
    assert [o["id"] for o in listed["orders"]] == [order["id"]]
    assert client.get(f"{BASE}/orders/{order['id']}/").json()["kind"] == "lay_down"

    invalid = [
        _lay_down("Ajax"),
        {"kind": "move", "fleet": fw.w.brest_fleet.pk, "path": ["channel"]},  # France's fleet
        _lay_down("Galleon", ship_class="galleon"),
    ]
    refused = client.put(f"{BASE}/orders/", invalid, format="json")
    assert refused.status_code == 400
    body = refused.json()
    assert body["detail"] == "2 of 3 orders refused; nothing was stored."
    assert refused["Content-Type"] == "application/problem+json"
    assert body["type"] == "urn:admiralty:problem:orders_refused" and body["status"] == 400
    assert len(body["errors"]) == 2
    messages = [e["message"] for e in body["errors"]]
    assert messages[0].startswith("Order 2 (move") and messages[1].startswith("Order 3 (lay down")
    assert [(e["code"], e["field"]) for e in body["errors"]] == [
        ("unknown_fleet", "[1].fleet"),
        ("not_a_choice", "[2].class"),
    ]
    assert [e["index"] for e in body["errors"]] == [1, 2]
    assert [o["id"] for o in client.get(f"{BASE}/orders/").json()["orders"]] == [order["id"]]

    assert client.delete(f"{BASE}/orders/{order['id']}/").status_code == 204
    assert client.get(f"{BASE}/orders/").json()["orders"] == []


def test_replace_and_update_store_valid_bodies(fw: FogWorld) -> None:
    client = _as(fw.nelson)
    replaced = client.put(f"{BASE}/orders/", [_lay_down("Ajax"), _lay_down("Hero")], format="json")
    assert replaced.status_code == 200
    orders = replaced.json()["orders"]
    assert [o["body"]["name"] for o in orders] == ["Ajax", "Hero"]
    changed = client.put(f"{BASE}/orders/{orders[1]['id']}/", _lay_down("Mars"), format="json")
    assert changed.status_code == 200 and changed.json()["body"]["name"] == "Mars"
    clash = client.put(f"{BASE}/orders/{orders[1]['id']}/", _lay_down("Ajax"), format="json")
    assert clash.status_code == 400 and clash.json()["errors"][0]["message"].startswith("Order 2 (lay down")
    assert client.put(f"{BASE}/orders/", [], format="json").json()["orders"] == []


def test_a_refused_order_names_itself_and_its_reason(fw: FogWorld) -> None:
    client = _as(fw.nelson)
    response = client.post(f"{BASE}/orders/", {"kind": "lay_down", "class": "1st"}, format="json")
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["message"].startswith("Order 1 (lay down")
    assert (error["code"], error["field"]) == ("missing_key", "name")
    assert response.json()["detail"] == error["message"]
    not_json = client.generic("POST", f"{BASE}/orders/", "{nope", content_type="application/json")
    assert not_json.status_code == 400 and not_json.json()["errors"][0]["code"] == "not_json"
    assert client.put(f"{BASE}/orders/", {"kind": "sally"}, format="json").status_code == 400


def test_another_nations_orders_are_not_there(fw: FogWorld) -> None:
    french = order_add(nation=fw.w.fr, body={"kind": "lay_down", "class": "frigate", "name": "Sirène", "port": "brest"})
    client = _as(fw.nelson)
    assert client.get(f"{BASE}/orders/?nation=FR").status_code == 403
    for method in ("get", "put", "delete"):
        body = _lay_down() if method == "put" else None  # a GET's data would be query parameters
        response = getattr(client, method)(f"{BASE}/orders/{french.pk}/", body, format="json")
        assert response.status_code == 404, method
    assert Order.objects.filter(pk=french.pk).exists()
    assert _as(fw.gm).get(f"{BASE}/orders/{french.pk}/?nation=FR").status_code == 200


def test_orders_and_ready_are_409_once_the_turn_is_resolving(fw: FogWorld) -> None:
    client = _as(fw.nelson)
    order = client.post(f"{BASE}/orders/", _lay_down(), format="json").json()
    Turn.objects.filter(pk=fw.w.turn.pk).update(status=Turn.Status.RESOLVING)
    assert client.post(f"{BASE}/orders/", _lay_down("Hero"), format="json").status_code == 409
    assert client.put(f"{BASE}/orders/", [], format="json").status_code == 409
    assert client.put(f"{BASE}/orders/{order['id']}/", _lay_down("Hero"), format="json").status_code == 409
    assert client.delete(f"{BASE}/orders/{order['id']}/").status_code == 409
    assert client.post(f"{BASE}/ready/", {"ready": True}, format="json").status_code == 409
    assert client.get(f"{BASE}/orders/").json()["open"] is False


# --- ready ---------------------------------------------------------------------------------------------


def test_ready_marks_the_nation_and_refuses_anything_but_a_boolean(fw: FogWorld) -> None:
    client = _as(fw.nelson)
    response = client.post(f"{BASE}/ready/", {"ready": True}, format="json")
    assert response.status_code == 200 and response.json() == {"nation": "GB", "turn": 1, "ready": True}
    assert NationTurn.objects.get(turn=fw.w.turn, nation=fw.w.gb).ready is True
    assert client.post(f"{BASE}/ready/", {"ready": "yes"}, format="json").status_code == 400
    assert client.post(f"{BASE}/ready/?nation=FR", {"ready": True}, format="json").status_code == 403
    assert client.post(f"{BASE}/ready/", {"ready": False}, format="json").json()["ready"] is False


# --- battles and turn reports --------------------------------------------------------------------------


def test_battles_show_only_what_the_nation_fought_or_saw(fw: FogWorld) -> None:
    ours = battle_in(fw.campaign, fw.w.biscay, [["GB"], ["FR"]])
    theirs = battle_in(fw.campaign, fw.w.channel, [["FR"], ["NL"]])
    client = _as(fw.nelson)
    listing = client.get(f"{BASE}/battles/").json()
    assert [b["id"] for b in listing["results"]] == [ours.pk] and listing["count"] == 1
    detail = client.get(f"{BASE}/battles/{ours.pk}/").json()
    assert detail["report"]["type"] == "fleet_action" and detail["sides"][0]["nations"] == ["GB"]
    assert client.get(f"{BASE}/battles/{theirs.pk}/").status_code == 404
    assert _as(fw.outsider).get(f"{BASE}/battles/").status_code == 404
    assert _as(fw.gm).get(f"{BASE}/battles/").json()["count"] == 2
    assert client.get(f"{BASE}/battles/?page=2").status_code == 404
    assert client.get(f"{BASE}/battles/?page=x").status_code == 404


def test_a_path_no_route_matches_is_a_json_404(fw: FogWorld) -> None:
    response = _as(fw.nelson).get(f"{BASE}/orders/not-a-number/")
    assert response.status_code == 404 and response["Content-Type"] == "application/problem+json"
    assert response.json() == {
        "type": "urn:admiralty:problem:not_found",
        "title": "Not Found",
        "status": 404,
        "detail": "No such API resource.",
        "errors": [{"index": None, "field": None, "code": "not_found", "message": "No such API resource."}],
    }


def test_a_turn_report_is_the_callers_own(fw: FogWorld) -> None:
    battle = battle_in(fw.campaign, fw.w.biscay, [["GB"], ["FR"]])
    turn_close(
        fw.campaign,
        {fw.w.gb: [battle_event(battle, [(0, "3rd-74", "intact"), (1, "3rd-74", "sunk")])]},
    )
    client = _as(fw.nelson)
    data = client.get(f"{BASE}/turns/1/").json()
    assert data["nation"] == "GB" and data["number"] == 1
    assert [(e["kind"], e["battle_id"]) for e in data["events"]] == [("battle_fought", battle.pk)]
    assert data["battles"][0]["id"] == battle.pk and data["battles"][0]["fought"] is True
    assert client.get(f"{BASE}/turns/1/?nation=FR").status_code == 403
    assert client.get(f"{BASE}/turns/2/").status_code == 404  # open, not resolved
    assert _as(fw.villeneuve).get(f"{BASE}/turns/1/").json()["events"] == []


# --- text and numbers that cannot be stored (issue 9) ------------------------------------------------------


def _raw(client: APIClient, method: str, url: str, data: Any) -> Any:
    """Send ``data`` as JSON with every non-ASCII character escaped, so "\\ud800" reaches the server."""
    return client.generic(method, url, json.dumps(data), content_type="application/json")


@pytest.mark.parametrize("text", ["Aja\x00x", "\ud800", "Hero\udfff"])
def test_nul_and_lone_surrogates_are_refused_by_field_on_every_order_write(fw: FogWorld, text: str) -> None:
    client = _as(fw.nelson)
    stored = order_add(nation=fw.w.gb, body=_lay_down("Ajax"))
    for method, url, data in [
        ("POST", f"{BASE}/orders/", _lay_down(text)),
        ("PUT", f"{BASE}/orders/", [_lay_down("Hero"), _lay_down(text)]),
        ("PUT", f"{BASE}/orders/{stored.pk}/", {**_lay_down("Mars"), "port": text}),
    ]:
        response = _raw(client, method, url, data)
        assert response.status_code == 400, (method, url)
        [refusal] = response.json()["errors"]
        # A list's refusal names the order's place in it: "[1].name" is the second order's name.
        assert refusal["code"] == "bad_text" and refusal["field"] in ("name", "port", "[1].name")
        assert "cannot contain NUL characters or unpaired surrogates" in refusal["message"]
    assert [(o.pk, o.body["name"]) for o in Order.objects.filter(nation=fw.w.gb)] == [(stored.pk, "Ajax")]


def test_integers_beyond_the_database_are_refused_by_field(fw: FogWorld) -> None:
    client = _as(fw.nelson)
    for body, field in [
        ({"kind": "sally", "fleet": 2**70}, "fleet"),
        ({"kind": "sally", "fleet": -3}, "fleet"),
        ({"kind": "repair", "ship": 2**64}, "ship"),
        ({"kind": "transfer", "ships": [1, 2**63], "to_fleet": fw.w.channel_fleet.pk}, "ships"),
        ({"kind": "embark", "fleet": fw.w.channel_fleet.pk, "port": "portsmouth", "units": 2**31}, "units"),
    ]:
        response = _raw(client, "POST", f"{BASE}/orders/", body)
        assert response.status_code == 400, body
        [refusal] = response.json()["errors"]
        assert (refusal["code"], refusal["field"]) == ("out_of_range", field), body
    assert not Order.objects.filter(nation=fw.w.gb).exists()


def test_a_page_parameter_that_is_not_a_page_number_is_refused(fw: FogWorld) -> None:
    """Issue 9/12: ``?page=`` (empty) or a word is not read as page 1; a real page still is."""
    client = _as(fw.nelson)
    for page in ("", "abc", "-1", "1.5", "99999999999999999999"):
        response = client.get(f"{BASE}/ledger/", {"page": page})
        assert response.status_code == 404, page
    assert client.get(f"{BASE}/ledger/", {"page": "1"}).status_code == 200
    assert client.get(f"{BASE}/ledger/", {"page": "last"}).status_code == 200
