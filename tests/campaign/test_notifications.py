"""Every player gets an email with their own turn report, once (real SMTP server)."""

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from campaign.models import TurnReport
from campaign.tasks import turn_reports_email, turn_resolve
from campaign.turn.lifecycle import turn_claim
from tests.worlds import two_power_world

pytestmark = pytest.mark.django_db


def test_each_player_is_emailed_their_own_report_once(smtp_inbox) -> None:
    world = two_power_world()
    users = get_user_model()
    world.gb.player = users.objects.create_user("nelson", "nelson@example.org", "pw-0123456789")
    world.fr.player = users.objects.create_user("villeneuve", "villeneuve@example.org", "pw-0123456789")
    world.gb.save()
    world.fr.save()
    assert turn_claim(turn_id=world.turn.pk, now=timezone.now())
    assert turn_resolve(world.turn.pk) == "done"

    assert turn_reports_email(world.turn.pk) == 2
    by_recipient = {m["X-Envelope-To"]: m for m in smtp_inbox.messages}
    assert set(by_recipient) == {"nelson@example.org", "villeneuve@example.org"}
    british = by_recipient["nelson@example.org"]
    assert "Turn 1 report for Great Britain" in british["Subject"]
    body = british.get_payload(decode=True).decode()
    assert "Income 5 EP" in body and "Income 4 EP" not in body  # France's income is not Britain's business
    assert TurnReport.objects.filter(turn=world.turn, emailed_at__isnull=True).count() == 0

    assert turn_reports_email(world.turn.pk) == 0  # a second delivery of the task sends nothing
    assert len(smtp_inbox.messages) == 2
