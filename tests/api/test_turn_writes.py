"""Issue 26 through the API: every write names its turn, If-Match on the order list, ready cleared by a
change of orders, and Idempotency-Key (a retried POST creates one order; two at once run once)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection

from campaign.models import Campaign, IdempotencyKey, NationTurn, Order, Turn
from tests.api.test_campaign_api import BASE, _as
from tests.web.fog_worlds import FogWorld, turn_close


def _lay_down(name: str = "Amethyst", **extra: Any) -> dict[str, Any]:
    return {"kind": "lay_down", "class": "frigate", "name": name, "port": "portsmouth", **extra}


def _gb_orders(fw: FogWorld) -> list[Order]:
    return list(Order.objects.filter(nation__campaign=fw.campaign, nation__code="GB").order_by("turn__number"))


@pytest.mark.django_db
def test_an_order_naming_a_resolved_turn_is_refused_409_and_nothing_lands_in_the_next(fw: FogWorld) -> None:
    client = _as(fw.nelson)
    turn_close(fw.campaign)  # turn 1 resolves while the bot still thinks it is turn 1
    response = client.post(f"{BASE}/orders/", _lay_down(turn=1), format="json")
    assert response.status_code == 409
    assert response["Content-Type"] == "application/problem+json"
    problem = response.json()
    assert problem["type"].endswith("turn_closed") and problem["open_turn"] == 2 and problem["turn"] == 1
    assert "Turn 1 has resolved — here is turn 2" in problem["detail"]
    assert _gb_orders(fw) == []
    ok = client.post(f"{BASE}/orders/", _lay_down(turn=2), format="json")
    assert ok.status_code == 201 and "turn" not in Order.objects.get().body


@pytest.mark.django_db
def test_an_etag_of_a_resolved_turn_refuses_every_write_409(fw: FogWorld) -> None:
    client = _as(fw.nelson)
    tag = client.get(f"{BASE}/orders/")["ETag"]
    view_tag = client.get(f"{BASE}/")["ETag"]
    assert tag.startswith('"t1-list-') and view_tag.startswith('"t1-')
    turn_close(fw.campaign)
    for sent in (tag, view_tag):
        response = client.post(f"{BASE}/orders/", _lay_down(), format="json", HTTP_IF_MATCH=sent)
        assert response.status_code == 409 and response.json()["open_turn"] == 2
        put = client.put(f"{BASE}/orders/", [_lay_down()], format="json", HTTP_IF_MATCH=sent)
        assert put.status_code == 409
    assert _gb_orders(fw) == []


@pytest.mark.django_db
def test_ready_naming_a_resolved_turn_marks_nothing_in_the_next(fw: FogWorld) -> None:
    client = _as(fw.nelson)
    turn_close(fw.campaign)
    response = client.post(f"{BASE}/ready/", {"ready": True, "turn": 1}, format="json")
    assert response.status_code == 409 and response.json()["open_turn"] == 2
    assert not NationTurn.objects.filter(nation__code="GB", nation__campaign=fw.campaign, ready=True).exists()
    assert client.post(f"{BASE}/ready/", {"ready": True, "turn": 2}, format="json").json()["ready"] is True


@pytest.mark.django_db
def test_if_match_refuses_412_when_only_the_list_changed(fw: FogWorld) -> None:
    bot, web = _as(fw.nelson), _as(fw.nelson)
    tag = bot.get(f"{BASE}/orders/")["ETag"]
    first = web.post(f"{BASE}/orders/", _lay_down("Web"), format="json", HTTP_IF_MATCH=tag)
    assert first.status_code == 201 and first["ETag"] != tag
    late = bot.put(f"{BASE}/orders/", [_lay_down("Bot")], format="json", HTTP_IF_MATCH=tag)
    assert late.status_code == 412 and late.json()["type"].endswith("list_changed")
    assert [o.body["name"] for o in _gb_orders(fw)] == ["Web"]
    again = bot.put(f"{BASE}/orders/", [_lay_down("Bot")], format="json", HTTP_IF_MATCH=first["ETag"])
    assert again.status_code == 200 and [o.body["name"] for o in _gb_orders(fw)] == ["Bot"]


@pytest.mark.django_db(transaction=True)
def test_two_clients_racing_on_one_list_with_one_etag_one_wins(fw: FogWorld) -> None:
    tag = _as(fw.nelson).get(f"{BASE}/orders/")["ETag"]
    barrier = threading.Barrier(2)
    codes: list[int] = []

    def write(name: str) -> None:
        try:
            barrier.wait()
            codes.append(
                _as(fw.nelson).put(f"{BASE}/orders/", [_lay_down(name)], format="json", HTTP_IF_MATCH=tag).status_code
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=write, args=(n,)) for n in ("One", "Two")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [200, 412]
    assert len(_gb_orders(fw)) == 1


@pytest.mark.django_db
def test_a_change_of_orders_after_ready_clears_it_and_says_so(fw: FogWorld) -> None:
    client = _as(fw.nelson)
    assert client.post(f"{BASE}/ready/", {"ready": True}, format="json").json()["ready"] is True
    response = client.post(f"{BASE}/orders/", _lay_down(), format="json")
    assert response.status_code == 201
    assert response.json()["ready"] is False and response.json()["ready_cleared"] is True
    listing = client.get(f"{BASE}/orders/").json()
    assert listing["ready"] is False and listing["ready_cleared"] is True
    second = client.post(f"{BASE}/orders/", _lay_down("Second"), format="json").json()
    assert second["ready_cleared"] is False  # this write found the nation not ready


@pytest.mark.django_db
def test_the_house_option_keeps_ready_after_a_change(fw: FogWorld) -> None:
    Campaign.objects.filter(pk=fw.campaign.pk).update(settings={"orders.keep_ready": 1})
    client = _as(fw.nelson)
    client.post(f"{BASE}/ready/", {"ready": True}, format="json")
    response = client.post(f"{BASE}/orders/", _lay_down(), format="json").json()
    assert response["ready"] is True and response["ready_cleared"] is False


@pytest.mark.django_db
def test_a_retried_post_with_one_key_creates_one_order(fw: FogWorld) -> None:
    client = _as(fw.nelson)
    first = client.post(f"{BASE}/orders/", _lay_down(), format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    again = client.post(f"{BASE}/orders/", _lay_down(), format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert again["ETag"] == first["ETag"]
    assert len(_gb_orders(fw)) == 1


@pytest.mark.django_db
def test_the_same_key_with_another_body_is_refused_422(fw: FogWorld) -> None:
    client = _as(fw.nelson)
    client.post(f"{BASE}/orders/", _lay_down(), format="json", HTTP_IDEMPOTENCY_KEY="k-2")
    other = client.post(f"{BASE}/orders/", _lay_down("Other"), format="json", HTTP_IDEMPOTENCY_KEY="k-2")
    assert other.status_code == 422 and other.json()["errors"][0]["code"] == "idempotency_key_reused"
    assert len(_gb_orders(fw)) == 1


@pytest.mark.django_db
def test_keys_are_each_users_own(fw: FogWorld) -> None:
    _as(fw.nelson).post(f"{BASE}/orders/", _lay_down(), format="json", HTTP_IDEMPOTENCY_KEY="shared")
    response = _as(fw.villeneuve).post(
        "/api/v1/campaigns/channel-1805/ready/", {"ready": True}, format="json", HTTP_IDEMPOTENCY_KEY="shared"
    )
    assert response.status_code == 200 and "Idempotent-Replayed" not in response
    assert IdempotencyKey.objects.filter(key="shared").count() == 2


@pytest.mark.django_db(transaction=True)
def test_two_requests_at_once_with_one_key_run_once(fw: FogWorld) -> None:
    barrier = threading.Barrier(2)
    answers: list[tuple[int, Any]] = []

    def post() -> None:
        try:
            barrier.wait()
            r = _as(fw.nelson).post(f"{BASE}/orders/", _lay_down(), format="json", HTTP_IDEMPOTENCY_KEY="race")
            answers.append((r.status_code, r.json()))
        finally:
            connection.close()

    threads = [threading.Thread(target=post) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [code for code, _ in answers] == [201, 201]
    assert answers[0][1] == answers[1][1]
    assert len(_gb_orders(fw)) == 1


@pytest.mark.django_db
def test_an_unknown_if_match_is_refused_and_nothing_stored(fw: FogWorld) -> None:
    response = _as(fw.nelson).post(f"{BASE}/orders/", _lay_down(), format="json", HTTP_IF_MATCH='"abc"')
    assert response.status_code == 400 and _gb_orders(fw) == []
    assert Turn.objects.filter(campaign=fw.campaign, status=Turn.Status.OPEN).get().number == 1
