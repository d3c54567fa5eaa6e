"""Issue 26: at the deadline orders close for every missing-orders policy. With "the GM is asked", after
the deadline only the GM enters a missing nation's orders, each marked late with the GM's reason — on
the desk, in the audit log and in the nation's turn report; players (on time or missing) are refused."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from campaign.models import Campaign, NationTurn, Order, Turn, TurnReport
from campaign.models.audit import AuditEntry
from campaign.orders.services import order_add
from rules.turn_events import report_events
from tests.support.turns import turn_resolve_inline
from tests.web.fog_worlds import FogWorld, client_for

pytestmark = pytest.mark.django_db

ORDERS = "/campaigns/channel-1805/orders/"
LAY_DOWN = {"kind": "lay_down", "class": "frigate", "name": "Amethyst", "port": "portsmouth"}
FR_LAY_DOWN = {"kind": "lay_down", "class": "frigate", "name": "Hortense", "port": "brest"}


def _deadline_passed(fw: FogWorld, policy: str = "ask_gm") -> Turn:
    """Britain gave an order an hour before the deadline, France none; the deadline passed a minute ago."""
    order_add(nation=fw.w.gb, body=dict(LAY_DOWN))
    turn = Turn.objects.get(campaign=fw.campaign, status=Turn.Status.OPEN)
    now = timezone.now()
    Turn.objects.filter(pk=turn.pk).update(deadline=now - timedelta(minutes=1))
    NationTurn.objects.filter(turn=turn, nation=fw.w.gb).update(submitted_at=now - timedelta(hours=1))
    Campaign.objects.filter(pk=fw.campaign.pk).update(nmr_policy=policy)
    turn.refresh_from_db()
    return turn


def test_after_the_deadline_players_on_time_or_missing_are_refused_and_told_what_the_turn_waits_for(
    fw: FogWorld,
) -> None:
    turn = _deadline_passed(fw)
    waits = (
        "The deadline of turn 1 has passed: orders are closed. The turn waits for the GM to decide on "
        "France&#x27;s missing orders; only the GM can enter them now."
    )
    france = client_for(fw.villeneuve)
    page = france.get(ORDERS).content.decode()
    assert waits in page and "Add the order" not in page  # no form to fill in vain
    refused = france.post(ORDERS, {**FR_LAY_DOWN, "turn": "1"}, follow=True).content.decode()
    assert waits in refused
    britain = client_for(fw.nelson)
    again = britain.post(ORDERS, {**LAY_DOWN, "name": "Late", "turn": "1"}, follow=True).content.decode()
    assert waits in again
    gb_order = Order.objects.get(nation=fw.w.gb)
    withdrawn = britain.post(f"{ORDERS}{gb_order.pk}/withdraw/", {"turn": "1"}, follow=True).content.decode()
    assert waits in withdrawn
    assert [o.body["name"] for o in Order.objects.filter(turn=turn)] == ["Amethyst"]  # nothing changed
    assert not NationTurn.objects.filter(turn=turn, nation=fw.w.fr, submitted_at__isnull=False).exists()


def test_the_gm_enters_a_missing_nations_orders_late_with_a_reason_shown_on_desk_audit_and_report(
    fw: FogWorld,
) -> None:
    turn = _deadline_passed(fw)
    gm = client_for(fw.gm)
    form = gm.get(f"{ORDERS}?nation=FR&kind=lay_down").content.decode()
    assert "Why you enter France's orders after the deadline" in form
    without = gm.post(ORDERS, {**FR_LAY_DOWN, "as_nation": "FR", "turn": "1"}).content.decode()
    assert "say why you enter France&#x27;s orders late" in without
    assert not Order.objects.filter(nation=fw.w.fr).exists()
    reason = "Villeneuve mailed his orders; the server was down"
    gm.post(ORDERS, {**FR_LAY_DOWN, "as_nation": "FR", "turn": "1", "late_reason": reason})
    order = Order.objects.get(nation=fw.w.fr)
    assert (order.late_by, order.late_reason) == (fw.gm.get_username(), reason)
    # A second order for the same nation: it is still the one missing at the deadline.
    gm.post(ORDERS, {**FR_LAY_DOWN, "name": "Pomone", "as_nation": "FR", "turn": "1", "late_reason": reason})
    assert Order.objects.filter(nation=fw.w.fr, late_reason=reason).count() == 2
    entry = AuditEntry.objects.filter(campaign_id=fw.campaign.pk, action="order_entered").latest("pk")
    assert "For France, after the deadline: entered" in entry.summary and entry.reason == reason
    fw.gm.is_staff = True  # the desk is in the admin
    fw.gm.save(update_fields=["is_staff"])
    desk = gm.get(reverse("admin:campaign_campaign_desk", args=[fw.campaign.pk])).content.decode()
    assert f"entered after the deadline by {fw.gm.get_username()}: {reason}" in desk
    # Britain gave its orders in time: after the deadline not even the GM changes them.
    refused = gm.post(
        ORDERS, {**LAY_DOWN, "name": "Late", "as_nation": "GB", "turn": "1", "late_reason": reason}, follow=True
    )
    assert "Great Britain gave its orders in time: they stand as given" in refused.content.decode()
    assert Order.objects.filter(nation=fw.w.gb).count() == 1
    turn_resolve_inline(turn)
    report = TurnReport.objects.get(turn=turn, nation=fw.w.fr)
    texts = [event.text for event in report_events(report.body)]
    assert (
        f"Order 1 (lay down a ship) was entered by the GM ({fw.gm.get_username()}) after the deadline: {reason}"
        in texts
    )
    gb_texts = [event.text for event in report_events(TurnReport.objects.get(turn=turn, nation=fw.w.gb).body)]
    assert not any("after the deadline" in text for text in gb_texts)


def test_with_standing_orders_holding_the_deadline_closes_orders_for_everyone(fw: FogWorld) -> None:
    turn = _deadline_passed(fw, policy="hold")
    closed = "The deadline of turn 1 has passed: orders are closed and the turn resolves now."
    france = client_for(fw.villeneuve)
    assert closed in france.post(ORDERS, {**FR_LAY_DOWN, "turn": "1"}, follow=True).content.decode()
    gm = client_for(fw.gm)
    page = gm.post(
        ORDERS, {**FR_LAY_DOWN, "as_nation": "FR", "turn": "1", "late_reason": "x"}, follow=True
    ).content.decode()
    assert closed in page
    assert not Order.objects.filter(turn=turn, nation=fw.w.fr).exists()


def test_before_the_deadline_nothing_is_marked_late(fw: FogWorld) -> None:
    Campaign.objects.filter(pk=fw.campaign.pk).update(nmr_policy="ask_gm")
    Turn.objects.filter(campaign=fw.campaign, status=Turn.Status.OPEN).update(
        deadline=timezone.now() + timedelta(hours=1)
    )
    client_for(fw.gm).post(ORDERS, {**FR_LAY_DOWN, "as_nation": "FR", "turn": "1", "late_reason": "ignored"})
    order = Order.objects.get(nation=fw.w.fr)
    assert (order.late_by, order.late_reason) == ("", "")


# --- the players' header: what the turn is waiting for ------------------------------------------------


def _waits(client_page: str) -> str:
    start = client_page.index('id="turn-waits"')
    return client_page[client_page.index(">", start) + 1 : client_page.index("</p>", start)]


def test_the_header_says_the_turn_waits_for_the_gm_on_the_missing_nations_never_that_it_resolves_shortly(
    fw: FogWorld,
) -> None:
    _deadline_passed(fw)
    for user in (fw.nelson, fw.villeneuve):
        page = client_for(user).get("/campaigns/channel-1805/").content.decode()
        assert _waits(page) == "Deadline passed — waiting for the GM to decide on France&#x27;s missing orders."
        assert "resolves shortly" not in page


def test_the_header_counts_the_nations_not_yet_ready_before_the_deadline(fw: FogWorld) -> None:
    Turn.objects.filter(campaign=fw.campaign, status=Turn.Status.OPEN).update(
        deadline=timezone.now() + timedelta(days=1)
    )
    client = client_for(fw.nelson)
    assert _waits(client.get(ORDERS).content.decode()) == "Waiting for 2 nations to be ready, or the deadline."
    client.post("/campaigns/channel-1805/ready/", {"ready": "1", "turn": "1"})
    assert _waits(client.get(ORDERS).content.decode()) == "Waiting for 1 nation to be ready, or the deadline."


def test_the_header_says_resolving_now_while_the_turn_resolves_and_after_a_plain_deadline(fw: FogWorld) -> None:
    _deadline_passed(fw, policy="hold")
    client = client_for(fw.villeneuve)
    assert _waits(client.get("/campaigns/channel-1805/").content.decode()) == "Deadline passed — resolving now."
    Turn.objects.filter(campaign=fw.campaign, status=Turn.Status.OPEN).update(status=Turn.Status.RESOLVING)
    assert _waits(client.get("/campaigns/channel-1805/").content.decode()) == "Resolving now."
