"""Issue 28, "What's next" in every mail to a player: a short block at the top of the text and HTML
bodies with the open turn's deadline in the reader's zone, the orders entered, the unread dispatches
and the offers waiting for an answer; not in a mail to someone who does not play the nation."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from campaign.models import DiplomaticOffer, Nation, Turn
from campaign.orders.services import order_add
from campaign.tasks import mail_deliveries_send
from tests.support.mail import parts, players_with_mail
from tests.support.turns import turn_resolve_inline
from tests.web.fog_worlds import client_for
from tests.worlds import two_power_world

pytestmark = pytest.mark.django_db


def test_every_players_mail_opens_with_whats_next(smtp_inbox) -> None:
    world = two_power_world()
    people = players_with_mail(world)
    client_for(people["GB"]).post("/settings/", {"time_zone": "Asia/Kolkata"})
    DiplomaticOffer.objects.create(
        campaign=world.campaign, from_nation=world.fr, to_nation=world.gb, kind="peace", turn=1
    )
    turn_resolve_inline(world.turn)
    opened = Turn.objects.get(campaign=world.campaign, status=Turn.Status.OPEN)
    order_add(nation=Nation.objects.get(pk=world.gb.pk), body={"kind": "offer_peace", "nation": "FR"})
    mail_deliveries_send()

    mine = [m for m in smtp_inbox.messages if m["X-Envelope-To"] == people["GB"].email]
    assert len(mine) >= 2  # the turn resolved and the next one opened
    assert opened.deadline is not None
    local = timezone.localtime(opened.deadline, timezone.get_fixed_timezone(330))
    for mail in mine:
        text, html = parts(mail)["text/plain"].replace("\r\n", "\n"), parts(mail)["text/html"]
        assert text.startswith(f"What's next for Great Britain, turn {opened.number}:\n"), mail["Subject"]
        assert "- Deadline: " in text and f"{local:%H:%M} IST" in text.split("\n\n", 1)[0]
        assert "- Orders entered: 1 — " in text
        assert "- Unread dispatches: 0" in text
        assert "- Offers waiting for your answer: France offers peace — answer on your dashboard:" in text
        block = re.sub(r"<[^>]+>", "", html.split("What's next for Great Britain", 1)[1].split("</div>", 1)[0])
        assert f"{local:%H:%M} IST" in block
        assert "Orders entered: 1" in block and "Unread dispatches: 0" in block and "France offers peace" in block
    # France's player reads France's facts: no offer waits for France, and nothing is ordered yet.
    french = [m for m in smtp_inbox.messages if m["X-Envelope-To"] == people["FR"].email]
    assert french
    for mail in french:
        text = parts(mail)["text/plain"].replace("\r\n", "\n")
        assert "- Orders entered: 0 (nothing is ordered yet)" in text
        assert "- Offers waiting for your answer: none" in text
