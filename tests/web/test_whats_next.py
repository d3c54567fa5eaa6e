"""Issue 28, "What's next": the strip at the top of the player's dashboard says what the turn asks of the
nation now — the deadline in the reader's zone, the orders entered, the unread dispatches, the offers
waiting for its answer, last turn's headline and the ready state with what it means."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from campaign.dispatches.services import conversation_start
from campaign.models import DiplomaticOffer, Order, Turn
from campaign.orders.services import order_add
from tests.web.fog_worlds import FogWorld, battle_event, battle_in, client_for, turn_close

pytestmark = pytest.mark.django_db


def _strip(fw: FogWorld, client: object | None = None) -> tuple[str, str]:
    response = (client or client_for(fw.nelson)).get(reverse("campaign:dashboard", args=[fw.campaign.slug]))  # type: ignore[attr-defined]
    assert response.status_code == 200
    html = response.content.decode()
    start = html.index('id="whats-next"')
    part = html[start : html.index("</section>", start)]
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", part))
    return part, re.sub(r" ([.,:;])", r"\1", text)


def test_the_strip_says_what_the_turn_asks_of_the_nation(fw: FogWorld) -> None:
    battle = battle_in(fw.campaign, fw.w.biscay, [["GB"], ["FR"]], winner=0)
    turn_close(fw.campaign, {fw.w.gb: [battle_event(battle, [(0, "3rd-74", "damaged"), (1, "3rd-74", "sunk")])]})
    open_turn = Turn.objects.get(campaign=fw.campaign, status=Turn.Status.OPEN)
    open_turn.deadline = datetime(2027, 3, 5, 18, 0, tzinfo=UTC)
    open_turn.save(update_fields=["deadline"])
    client = client_for(fw.nelson)
    assert client.post("/settings/", {"time_zone": "Asia/Kolkata"}).status_code == 302

    html, text = _strip(fw, client)
    assert "Turn 2 closes Fri 5 Mar, 23:30 IST." in text  # 18:00 UTC in the reader's zone
    assert "0 orders entered this turn — nothing is ordered yet" in text
    assert "0 unread dispatches" in text
    assert "Offers waiting for Great Britain's answer: 0" in text
    assert "Last turn (1): Battle at Bay of Biscay won" in text
    assert reverse("campaign:turn", args=[fw.campaign.slug, 1]) in html
    assert "Not ready — ready means the turn may resolve before the deadline once every nation is ready;" in text
    assert "changing an order clears it." in text

    order_add(nation=fw.w.gb, body={"kind": "lay_down", "class": "3rd-74", "name": "Ajax", "port": "portsmouth"})
    order_add(nation=fw.w.gb, body={"kind": "raise", "unit": "land_unit", "port": "portsmouth"})
    conversation_start(
        campaign=fw.campaign,
        sender=None,
        author_id=fw.gm.pk,
        to=["GB"],
        subject="Orders from the Admiralty",
        body="Hold the Channel.",
        now=timezone.now(),
    )
    DiplomaticOffer.objects.create(campaign=fw.campaign, from_nation=fw.w.fr, to_nation=fw.w.gb, kind="peace", turn=1)
    DiplomaticOffer.objects.create(campaign=fw.campaign, from_nation=fw.w.gb, to_nation=fw.pt, kind="alliance", turn=1)
    html, text = _strip(fw, client)
    assert "2 orders entered this turn" in text
    assert "nothing is ordered yet" not in text
    assert f'href="{reverse("campaign:orders", args=[fw.campaign.slug])}"' in html
    assert "1 unread dispatch " in text
    assert f'href="{reverse("campaign:dispatches", args=[fw.campaign.slug])}"' in html
    assert "Offers waiting for Great Britain's answer: 1" in text
    assert "France offers peace (turn 1)" in text
    assert "Portugal" not in text  # our own offer waits for Portugal's answer, not ours


def _answer(fw: FogWorld, **data: str) -> Any:
    client = client_for(fw.nelson)
    return client.post(reverse("campaign:offer_answer", args=[fw.campaign.slug]), data, follow=True)


def test_decline_withdraws_the_accepting_order_and_bad_answers_change_nothing(fw: FogWorld) -> None:
    DiplomaticOffer.objects.create(campaign=fw.campaign, from_nation=fw.w.fr, to_nation=fw.w.gb, kind="peace", turn=1)
    page = _answer(fw, turn="1", answer="accept", **{"from": "FR", "kind": "peace"}).content.decode()
    assert "Accepted France&#x27;s offer of peace: order 1 is entered for turn 1" in page
    assert list(Order.objects.filter(nation=fw.w.gb).values_list("kind", flat=True)) == ["offer_peace"]
    # Accepting twice is refused as the order page refuses a second diplomatic order towards France.
    page = _answer(fw, turn="1", answer="accept", **{"from": "FR", "kind": "peace"}).content.decode()
    assert "already a diplomatic order towards France" in page
    assert Order.objects.filter(nation=fw.w.gb).count() == 1

    page = _answer(fw, turn="1", answer="decline", **{"from": "FR", "kind": "peace"}).content.decode()
    assert "Declined France&#x27;s offer of peace: its accepting order is withdrawn" in page
    assert not Order.objects.filter(nation=fw.w.gb).exists()

    page = _answer(fw, turn="1", answer="accept", **{"from": "PT", "kind": "alliance"}).content.decode()
    assert "No offer of alliance from that nation waits for Great Britain&#x27;s answer" in page
    page = _answer(fw, turn="1", answer="accept", **{"from": "FR", "kind": "war"}).content.decode()
    assert "&#x27;war&#x27; is not an offer that can be answered: only peace or alliance." in page
    assert _answer(fw, turn="1", answer="maybe", **{"from": "FR", "kind": "peace"}).status_code == 400
    assert not Order.objects.filter(nation=fw.w.gb).exists()


def test_without_javascript_the_zone_offer_is_a_link_and_a_chosen_zone_ends_it(fw: FogWorld) -> None:
    client = client_for(fw.nelson)
    html, text = _strip(fw, client)
    assert "Times are shown in UTC. Choose your time zone to see them in your own." in text
    assert re.search(r'<form method="post" action="/settings/" hidden>', html)
    dashboard = reverse("campaign:dashboard", args=[fw.campaign.slug])
    response = client.post("/settings/", {"time_zone": "Europe/Paris", "next": dashboard})
    assert response.status_code == 302 and response["Location"] == dashboard
    assert 'id="tz-offer"' not in _strip(fw, client)[0]
    # A return address on another site is not followed: Settings, as before.
    response = client.post("/settings/", {"time_zone": "Europe/Paris", "next": "https://evil.example/"})
    assert response["Location"] == reverse("campaign:settings")
