"""Issue 26 through the API: after the deadline, with "the GM is asked", players get 409
``deadline_passed`` and only the GM enters a missing nation's orders, each with its late mark."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from campaign.models import Campaign, NationTurn, Order, Turn
from campaign.orders.services import order_add
from tests.api.test_campaign_api import BASE, _as
from tests.web.fog_worlds import FogWorld

pytestmark = pytest.mark.django_db


def _fr_lay_down(name: str = "Hortense", **extra: Any) -> dict[str, Any]:
    return {"kind": "lay_down", "class": "frigate", "name": name, "port": "brest", **extra}


def _deadline_passed(fw: FogWorld) -> Turn:
    order_add(nation=fw.w.gb, body={"kind": "lay_down", "class": "frigate", "name": "Amethyst", "port": "portsmouth"})
    turn = Turn.objects.get(campaign=fw.campaign, status=Turn.Status.OPEN)
    now = timezone.now()
    Turn.objects.filter(pk=turn.pk).update(deadline=now - timedelta(minutes=1))
    NationTurn.objects.filter(turn=turn, nation=fw.w.gb).update(submitted_at=now - timedelta(hours=1))
    Campaign.objects.filter(pk=fw.campaign.pk).update(nmr_policy="ask_gm")
    return turn


def test_after_the_deadline_a_player_is_refused_409_deadline_passed_and_nothing_is_stored(fw: FogWorld) -> None:
    _deadline_passed(fw)
    france, britain = _as(fw.villeneuve), _as(fw.nelson)
    for response in (
        france.post(f"{BASE}/orders/", _fr_lay_down(turn=1), format="json"),
        france.put(f"{BASE}/orders/", [_fr_lay_down()], format="json"),
        britain.post(f"{BASE}/orders/", {"kind": "lay_down", "class": "brig", "name": "X", "port": "portsmouth"}),
    ):
        assert response.status_code == 409, response.content
        assert response["Content-Type"] == "application/problem+json"
        problem = response.json()
        assert problem["type"].endswith("deadline_passed") and problem["errors"][0]["code"] == "deadline_passed"
        assert "waits for the GM to decide on France's missing orders" in problem["detail"]
    gb_order = Order.objects.get(nation=fw.w.gb)
    assert britain.delete(f"{BASE}/orders/{gb_order.pk}/").status_code == 409
    assert list(Order.objects.values_list("body__name", flat=True)) == ["Amethyst"]


def test_the_gm_enters_a_missing_nations_list_late_with_a_reason(fw: FogWorld) -> None:
    _deadline_passed(fw)
    gm = _as(fw.gm)
    without = gm.put(f"{BASE}/orders/?nation=FR", [_fr_lay_down()], format="json")
    assert without.status_code == 400 and without.json()["errors"][0]["code"] == "late_reason_required"
    assert not Order.objects.filter(nation=fw.w.fr).exists()
    reason = "Orders came by letter"
    done = gm.put(f"{BASE}/orders/?nation=FR", [_fr_lay_down(late_reason=reason)], format="json")
    assert done.status_code == 200, done.content
    row = done.json()["orders"][0]
    assert (row["late_by"], row["late_reason"]) == (fw.gm.get_username(), reason)
    assert "late_reason" not in Order.objects.get(nation=fw.w.fr).body
    one_more = gm.post(f"{BASE}/orders/?nation=FR", _fr_lay_down("Pomone", late_reason=reason), format="json")
    assert one_more.status_code == 201 and one_more.json()["late_reason"] == reason
    on_time = gm.post(
        f"{BASE}/orders/?nation=GB",
        {"kind": "lay_down", "class": "brig", "name": "X", "port": "portsmouth", "late_reason": reason},
        format="json",
    )
    assert on_time.status_code == 409 and "gave its orders in time" in on_time.json()["detail"]
