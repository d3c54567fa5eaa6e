"""Issue 26 through the web forms (plain posts; the htmx path is in tests/browser/test_stale_turn_pages.py):
a form of a turn that has resolved stores nothing in the next turn and the page says what happened."""

from __future__ import annotations

import pytest

from campaign.models import NationTurn, Order
from campaign.orders.services import order_add
from tests.web.fog_worlds import FogWorld, client_for, turn_close

pytestmark = pytest.mark.django_db

ORDERS = "/campaigns/channel-1805/orders/"
LAY_DOWN = {"kind": "lay_down", "class": "frigate", "name": "Amethyst", "port": "portsmouth"}


def test_an_order_form_of_a_resolved_turn_is_refused_with_the_fresh_page(fw: FogWorld) -> None:
    client = client_for(fw.nelson)
    turn_close(fw.campaign)
    response = client.post(ORDERS, {**LAY_DOWN, "turn": "1"}, follow=True)
    page = response.content.decode()
    assert "Turn 1 has resolved — here is turn 2" in page
    assert not Order.objects.filter(nation=fw.w.gb).exists()
    client.post(ORDERS, {**LAY_DOWN, "turn": "2"})
    assert [o.turn.number for o in Order.objects.filter(nation=fw.w.gb)] == [2]


def test_editing_an_order_of_a_resolved_turn_names_the_turn_rather_than_404(fw: FogWorld) -> None:
    order = order_add(nation=fw.w.gb, body=dict(LAY_DOWN))
    turn_close(fw.campaign)
    client = client_for(fw.nelson)
    response = client.get(f"{ORDERS}{order.pk}/", follow=True)
    assert response.status_code == 200
    assert "Turn 1 has resolved — here is turn 2" in response.content.decode()
    withdrawn = client.post(f"{ORDERS}{order.pk}/withdraw/", {"turn": "1"}, follow=True)
    assert "Turn 1 has resolved — here is turn 2" in withdrawn.content.decode()
    assert Order.objects.filter(pk=order.pk).exists()


def test_ready_of_a_resolved_turn_marks_nothing(fw: FogWorld) -> None:
    client = client_for(fw.nelson)
    turn_close(fw.campaign)
    response = client.post("/campaigns/channel-1805/ready/", {"ready": "1", "turn": "1"}, follow=True)
    assert "Turn 1 has resolved — here is turn 2" in response.content.decode()
    assert not NationTurn.objects.filter(nation=fw.w.gb, ready=True).exists()


def test_a_change_after_ready_says_it_cleared_ready(fw: FogWorld) -> None:
    client = client_for(fw.nelson)
    client.post("/campaigns/channel-1805/ready/", {"ready": "1", "turn": "1"})
    response = client.post(ORDERS, {**LAY_DOWN, "turn": "1"}, follow=True)
    assert "is no longer marked ready: its orders changed after it was" in response.content.decode()
    assert not NationTurn.objects.filter(nation=fw.w.gb, ready=True).exists()
