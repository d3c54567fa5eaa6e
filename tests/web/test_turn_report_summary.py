"""A turn report opens with its news (issue 28): a summary — battles won and lost, ships lost and taken,
ports, money, what each order did and why one was skipped, every capture explained with its rule —
then the events in the order they happened, then the fleets where the turn left them (collapsed).
The report's mail says the same, its subject names the news and its battle links are named."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from battles.models import Battle
from campaign.mail.content import context_for, subject_for
from campaign.mail.messages import message_for
from campaign.models import Delivery, MailEvent, Turn
from rules.turn_events import FleetMoved, LedgerChanged, OrderCarriedOut, OrderSkipped, PortBlockaded
from tests.support.mail import parts
from tests.web.fog_worlds import FogWorld, battle_event, battle_in, client_for, fog_world, turn_close

pytestmark = pytest.mark.django_db


def _played(fw: FogWorld) -> tuple[Turn, Battle]:
    """Turn 1 for Britain: a battle in Biscay won (an enemy 74 taken in the line, a frigate outside it),
    Brest blockaded, one order carried out and one skipped; the Channel Fleet ends the turn in Biscay."""
    w = fw.w
    battle = battle_in(fw.campaign, w.biscay, [["GB"], ["FR"]], winner=0)
    battle.report = {**battle.report, "ships": [{"ref": 1000}, {"ref": 1001}]}
    battle.save(update_fields=["report"])
    before = FleetMoved(
        text="Channel Fleet is at sea in The Channel.", phase=3, fleet_id=w.channel_fleet.pk, zone_key="channel"
    )
    events: list[dict[str, Any]] = [
        OrderCarriedOut(
            text="Channel Fleet will seek battle.",
            phase=3,
            order_id=1,
            order_position=1,
            order_kind="posture",
            code="carried_out",
        ).to_json(),
        before.to_json(),
        battle_event(
            battle,
            [(0, "3rd-74", "intact"), (1, "3rd-74", "captured"), (1, "frigate", "captured")],
            text="Battle at Bay of Biscay: Great Britain against France; Great Britain won.",
        ),
        PortBlockaded(
            text="Channel Fleet blockades Brest.", phase=4, nation="GB", port_key="brest", port_name="Brest"
        ).to_json(),
        OrderSkipped(
            text="Order 2 (run the guns) skipped: Brest's guns are held by its own side",
            phase=5,
            order_id=2,
            order_position=2,
            order_kind="run_guns",
            code="own_port",
        ).to_json(),
        LedgerChanged(text="Income 12 EP; treasury 72 EP.", phase=9, treasury=72, income=12, upkeep=0).to_json(),
    ]
    w.channel_fleet.port = None
    w.channel_fleet.sea_zone = w.biscay
    w.channel_fleet.save(update_fields=["port", "sea_zone"])
    return turn_close(fw.campaign, {w.gb: events}), battle


def test_the_report_page_puts_the_summary_first_and_the_positions_after_the_turn_last() -> None:
    fw = fog_world()
    _played(fw)
    page = client_for(fw.nelson).get(reverse("campaign:turn", args=[fw.campaign.slug, 1])).content.decode()
    summary, story, positions = page.index('id="summary"'), page.index('id="events-h"'), page.index('id="positions"')
    battle_line = page.index("Battle at Bay of Biscay: Great Britain against France")
    assert summary < story < battle_line < positions
    head = page[summary:story]
    assert "Battle at Bay of Biscay won, Brest blockaded." in head
    assert "1 won, 0 lost" in head and "0 lost, 2 taken" in head and "income 12 EP" in head
    assert "1 carried out, 1 skipped." in head
    assert (
        "Order 2</strong> (run the guns at a port) <em>skipped</em>: Brest&#x27;s guns are held by its own side<"
        in head
    )
    # Each capture in one sentence with its rule, linked to the rules page.
    assert "Ship 2 (Frigate) was taken at Bay of Biscay without fighting: ships outside the line share" in head
    assert "Ship 1 (3rd rate (74/80)) was taken as a prize at Bay of Biscay" in head
    assert head.count('class="rule-link"') >= 2 and "#at-sea" in head and "#battle" in head
    # Positions are the ones after the turn (the Channel Fleet in Biscay), collapsed; the position
    # before the battles ("at sea in The Channel") is not in the story.
    tail = page[positions:]
    assert tail.startswith('id="positions"') and "<details" in page[positions - 40 : positions]
    assert "Channel Fleet (" in tail and "at sea in Bay of Biscay" in tail.split("</details>", 1)[0]
    assert "Channel Fleet is at sea in The Channel." not in page


def test_turn_history_shows_each_turns_headline() -> None:
    fw = fog_world()
    _played(fw)
    page = client_for(fw.nelson).get(reverse("campaign:turns", args=[fw.campaign.slug])).content.decode()
    assert "Battle at Bay of Biscay won, Brest blockaded" in page and "Report lines" not in page


def test_the_report_mail_names_the_news_and_its_battles() -> None:
    fw = fog_world()
    turn, battle = _played(fw)
    delivery = Delivery.objects.create(
        recipient=fw.nelson,
        event=MailEvent.TURN_RESOLVED,
        campaign=fw.campaign,
        turn=turn,
        nation=fw.w.gb,
        key="GB",
        due_at=timezone.now(),
    )
    context = context_for(delivery)
    assert context is not None
    assert (
        subject_for(delivery, context) == f"[{fw.campaign.name}] Turn 1: battle at Bay of Biscay won, Brest blockaded"
    )
    fw.nelson.email = fw.nelson.email or "nelson@example.org"
    fw.nelson.save(update_fields=["email"])
    message = message_for(Delivery.objects.get(pk=delivery.pk))
    assert message is not None
    body = parts(message.message())
    html, text = body["text/html"], body["text/plain"]
    url = reverse("battles:detail", args=[fw.campaign.slug, battle.pk])
    assert f'{url}" style="color:#1d4e89;">Battle at Bay of Biscay won</a>' in html
    assert "- Battle at Bay of Biscay won: http" in text and text.rstrip().count(url) == 1
    assert text.index("Battle at Bay of Biscay won, Brest blockaded.") < text.index("What your orders did")
    assert text.index("What your orders did") < text.index("What happened, in order")
    assert "Order 2 (run the guns at a port) SKIPPED: Brest's guns are held by its own side" in text
