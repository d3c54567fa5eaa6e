"""What holds for every endpoint of /api/v1/ (issue 12): one problem format for every 4xx, writes
throttled with Retry-After, unknown query parameters refused, one paginator, filters, conditional GET
on what bots poll, a GM names the nation, and one representation of a battle everywhere."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from campaign.models import NationTurn
from tests.web.fog_worlds import FogWorld, battle_event, battle_in, turn_close

pytestmark = pytest.mark.django_db

SLUG = "channel-1805"
BASE = f"/api/v1/campaigns/{SLUG}"
PROBLEM_KEYS = {"type", "title", "status", "detail", "errors"}


def _as(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _is_problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert set(body) == PROBLEM_KEYS and body["status"] == status and body["detail"]
    assert body["type"] == f"urn:admiralty:problem:{code}", body
    assert body["errors"] and all({"index", "field", "code", "message"} <= set(e) for e in body["errors"])
    return body


def test_every_kind_of_refusal_is_a_problem(fw: FogWorld) -> None:
    anonymous = APIClient().get(f"{BASE}/")
    _is_problem(anonymous, 401, "not_authenticated")
    assert anonymous["WWW-Authenticate"].startswith("Bearer")
    wrong = APIClient()
    wrong.credentials(HTTP_AUTHORIZATION="Bearer not-a-token")
    _is_problem(wrong.get(f"{BASE}/"), 401, "authentication_failed")
    _is_problem(_as(fw.nelson).get(f"{BASE}/?nation=FR"), 403, "permission_denied")
    _is_problem(_as(fw.outsider).get(f"{BASE}/"), 404, "not_found")
    not_allowed = _as(fw.nelson).delete(f"{BASE}/orders/")
    _is_problem(not_allowed, 405, "method_not_allowed")
    assert "PUT" in not_allowed["Allow"]
    _is_problem(_as(fw.nelson).post(f"{BASE}/ready/", {"ready": 1}, format="json"), 400, "wrong_type")
    refused = _as(fw.nelson).post(f"{BASE}/orders/", {"kind": "sally", "fleet": 999_999}, format="json")
    [error] = _is_problem(refused, 400, "unknown_fleet")["errors"]
    assert error["field"] == "fleet" and error["message"].startswith("Order 1 (sally")
    simulator = _as(fw.nelson).post("/api/v1/simulator/", {"type": "broadside", "sides": []}, format="json")
    [error] = _is_problem(simulator, 400, "invalid_spec")["errors"]
    assert error["field"] == "type" and "broadside" in error["message"]


@override_settings(API_THROTTLE_RATES={"api_write": "3/minute", "simulator": "1/minute"})
def test_writes_are_throttled_per_user_with_retry_after(fw: FogWorld) -> None:
    client = _as(fw.nelson)
    for _ in range(3):
        assert client.post(f"{BASE}/ready/", {"ready": True}, format="json").status_code == 200
    throttled = client.post(f"{BASE}/ready/", {"ready": False}, format="json")
    _is_problem(throttled, 429, "throttled")
    assert 1 <= int(throttled["Retry-After"]) <= 60
    assert NationTurn.objects.get(turn=fw.w.turn, nation=fw.w.gb).ready is True, "the refused write did nothing"
    assert client.get(f"{BASE}/").status_code == 200, "reads are not throttled"
    other = _as(fw.villeneuve)
    assert other.post(f"{BASE}/ready/", {"ready": True}, format="json").status_code == 200, "per user"
    spec = {"type": "fleet_action", "sides": []}
    assert other.post("/api/v1/simulator/", spec, format="json").status_code == 400
    _is_problem(other.post("/api/v1/simulator/", spec, format="json"), 429, "throttled")


def test_unknown_query_parameters_are_refused_naming_the_allowed_ones(fw: FogWorld) -> None:
    response = _as(fw.nelson).get(f"{BASE}/battles/", {"trun": "1", "colour": "red"})
    body = _is_problem(response, 400, "unknown_parameter")
    assert [e["field"] for e in body["errors"]] == ["trun", "colour"]
    assert "turn" in body["detail"] and "page_size" in body["detail"]
    assert _as(fw.nelson).get(f"{BASE}/ready/").status_code == 405
    zones = _is_problem(_as(fw.nelson).get(f"{BASE}/zones/", {"nation": "GB", "x": "1"}), 400, "unknown_parameter")
    assert "nation, page, page_size" in zones["detail"]


def test_every_list_is_one_paginator_with_filters(fw: FogWorld) -> None:
    client = _as(fw.nelson)
    for url in ("/api/v1/campaigns/", f"{BASE}/fleets/", f"{BASE}/ledger/", f"{BASE}/zones/", f"{BASE}/ports/"):
        page = client.get(url).json()
        assert set(page) == {"count", "next", "previous", "results"}, url
    zones = client.get(f"{BASE}/zones/", {"page_size": 1}).json()
    assert len(zones["results"]) == 1 and zones["count"] > 1 and "page=2" in zones["next"]
    _is_problem(client.get(f"{BASE}/zones/", {"page_size": 0}), 400, "out_of_range")
    assert client.get(f"{BASE}/ledger/", {"turn": 1}).json()["count"] == 1
    assert client.get(f"{BASE}/ledger/", {"turn": 2}).json()["count"] == 0
    _is_problem(client.get(f"{BASE}/ledger/", {"kind": "bribe"}), 400, "invalid_choice")
    # An empty choice is no choice: refused, not read as "every kind".
    for url in (f"{BASE}/ledger/", f"{BASE}/battles/"):
        empty = _is_problem(client.get(url, {"kind": ""}), 400, "invalid_choice")
        assert [e["field"] for e in empty["errors"]] == ["kind"] and "leave it out" in empty["detail"], url
        # Likewise an empty turn number (the schema fuzz found it on the ledger too).
        empty = _is_problem(client.get(url, {"turn": ""}), 400, "invalid")
        assert [e["field"] for e in empty["errors"]] == ["turn"] and "leave it out" in empty["detail"], url


def test_battles_filter_by_turn_kind_and_zone_and_read_alike_everywhere(fw: FogWorld) -> None:
    first = battle_in(fw.campaign, fw.w.biscay, [["GB"], ["FR"]])
    turn_close(fw.campaign, {fw.w.gb: [battle_event(first, [(0, "3rd-74", "intact"), (1, "3rd-74", "sunk")])]})
    second = battle_in(fw.campaign, fw.w.channel, [["GB"], ["FR"]], winner=None)
    client = _as(fw.nelson)
    assert [b["id"] for b in client.get(f"{BASE}/battles/", {"turn": 1}).json()["results"]] == [first.pk]
    assert [b["id"] for b in client.get(f"{BASE}/battles/", {"turn": 2}).json()["results"]] == [second.pk]
    assert [b["id"] for b in client.get(f"{BASE}/battles/", {"zone": "channel"}).json()["results"]] == [second.pk]
    assert client.get(f"{BASE}/battles/", {"kind": "fireships"}).json()["count"] == 0
    # A turn is a whole number: "1.0" is refused as the schema says, not read as turn 1.
    for fraction in ("1.0", "0.0", "1.5"):
        _is_problem(client.get(f"{BASE}/battles/", {"turn": fraction}), 400, "invalid")
    listed = client.get(f"{BASE}/battles/", {"turn": 1}).json()["results"][0]
    detail = client.get(f"{BASE}/battles/{first.pk}/").json()
    [in_report] = client.get(f"{BASE}/turns/1/").json()["battles"]
    assert in_report.pop("fought") is True
    assert in_report == listed == {k: v for k, v in detail.items() if k != "report"}
    assert listed["kind"] == "fleet_action" and listed["kind_name"] == "Fleet action"
    assert listed["place"] == "biscay" and listed["place_name"] == fw.w.biscay.name
    assert listed["winner"] == 0 and listed["winner_name"] == listed["sides"][0].get("name", "GB")


def test_the_campaign_and_reports_answer_a_conditional_get_with_304(fw: FogWorld) -> None:
    turn_close(fw.campaign)
    client = _as(fw.nelson)
    for url in (f"{BASE}/", f"{BASE}/turns/1/"):
        first = client.get(url)
        tag, modified = first["ETag"], first["Last-Modified"]
        again = client.get(url, HTTP_IF_NONE_MATCH=tag)
        assert again.status_code == 304 and again["ETag"] == tag and not again.content, url
        assert client.get(url, HTTP_IF_MODIFIED_SINCE=modified).status_code == 304, url
        assert client.get(url, HTTP_IF_NONE_MATCH='"stale"').status_code == 200, url
    tag = client.get(f"{BASE}/")["ETag"]
    client.post(f"{BASE}/ready/", {"ready": True}, format="json")
    changed = client.get(f"{BASE}/", HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed.json()["ready"] is True and changed["ETag"] != tag


def test_a_gm_must_name_the_nation_on_every_campaign_endpoint(fw: FogWorld) -> None:
    gm = _as(fw.gm)
    for url in ("", "fleets/", "ledger/", "orders/", "zones/", "ports/", "turns/1/"):
        body = _is_problem(gm.get(f"{BASE}/{url}"), 400, "nation_required")
        assert body["errors"][0]["field"] == "nation" and "FR, GB" in body["detail"], url
    _is_problem(gm.put(f"{BASE}/orders/", [], format="json"), 400, "nation_required")
    assert gm.get(f"{BASE}/?nation=FR").json()["nation"] == "FR"
    assert _as(fw.nelson).get(f"{BASE}/").json()["nation"] == "GB", "a player's own nation needs no naming"
