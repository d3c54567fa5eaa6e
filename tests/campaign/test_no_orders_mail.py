"""The "no orders" mail (issue 28): not sent to a nation whose player pressed Ready with no orders (it
chose to let its standing orders stand), and it speaks of the deadline only when the deadline passed —
not when the game master resolved the turn early. Real SMTP (aiosmtpd), real resolution."""

from datetime import timedelta

import pytest
from django.utils import timezone

from campaign.models import NationTurn, Turn
from campaign.tasks import mail_deliveries_send
from tests.support.mail import inbox_of, parts, players_with_mail
from tests.support.turns import turn_resolve_inline
from tests.worlds import two_power_world

pytestmark = pytest.mark.django_db


def test_a_ready_nation_gets_no_no_orders_mail_and_an_early_resolution_names_no_deadline(smtp_inbox) -> None:
    world = two_power_world(deadline=timezone.now() + timedelta(days=2))
    people = players_with_mail(world)
    NationTurn.objects.filter(turn=world.turn, nation=world.gb).update(ready=True)  # Ready, no orders
    turn_resolve_inline(world.turn)  # the GM resolves two days early
    mail_deliveries_send()
    assert not [s for s in inbox_of(smtp_inbox.messages, people["GB"].email) if "no orders from" in s]
    [missed] = [
        m
        for m in smtp_inbox.messages
        if m["X-Envelope-To"] == people["FR"].email and str(m["Subject"]).endswith("no orders from France")
    ]
    for body in parts(missed).values():
        assert "before the deadline" not in body
        assert "before the game master resolved" in body


def test_after_the_deadline_the_no_orders_mail_says_so(smtp_inbox) -> None:
    world = two_power_world(deadline=timezone.now() + timedelta(days=2))
    people = players_with_mail(world)
    Turn.objects.filter(pk=world.turn.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    turn_resolve_inline(world.turn)
    mail_deliveries_send()
    [missed] = [
        m
        for m in smtp_inbox.messages
        if m["X-Envelope-To"] == people["GB"].email and str(m["Subject"]).endswith("no orders from Great Britain")
    ]
    assert "before the deadline" in parts(missed)["text/plain"]
