"""Mail through a real Celery worker and a real SMTP server that is down during a resolution."""

import pytest
from django.conf import settings
from django.utils import timezone

from campaign.models import Delivery
from campaign.tasks import mail_deliveries_send, turn_resolve
from campaign.turn.lifecycle import turn_claim
from tests.support.mail import players_with_mail
from tests.support.turns import resolved, wait_for
from tests.worlds import two_power_world

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


#: The turn's mail in this world: a report to each of the two players, and the others the turn sends.
MAILS = 7


def attempted_and_waiting() -> bool:
    """Every mail of the turn exists and was tried once and is back waiting: not only the first ones
    queued (under load the worker can try those before the rest are written), and none still in the
    worker's hands (a claim counts the attempt before the refusal's error is written)."""
    return (
        Delivery.objects.count() == MAILS
        and not Delivery.objects.filter(attempts=0).exists()
        and not Delivery.objects.filter(state=Delivery.State.SENDING).exists()
    )


def all_sent() -> bool:
    return Delivery.objects.exists() and not Delivery.objects.exclude(state=Delivery.State.SENT).exists()


def test_mail_refused_during_a_resolution_arrives_once_when_the_server_is_back(start_worker, smtp_server) -> None:
    world = two_power_world()
    players_with_mail(world)
    smtp_server.stop()
    start_worker("mail", MAIL_RETRY_BASE_SECONDS="2", **smtp_server.worker_env)
    assert turn_claim(turn_id=world.turn.pk, now=timezone.now())
    assert turn_resolve.delay(world.turn.pk).get(timeout=60) == "done"
    wait_for(lambda: resolved(world.turn.pk))
    wait_for(attempted_and_waiting)  # the task ran after phase 10's commit and every send was refused
    assert not Delivery.objects.filter(state=Delivery.State.SENT).exists()
    errors = list(Delivery.objects.values_list("error", flat=True))
    assert all("onnection refused" in error for error in errors), errors

    smtp_server.start()
    wait_for(all_sent)  # the retry the failed run queued for itself
    # Duplicate tasks after the fact send nothing again.
    for result in [mail_deliveries_send.apply_async(queue=settings.MAIL_QUEUE) for _ in range(3)]:
        assert result.get(timeout=30)["sent"] == []
    received = [(m["X-Envelope-To"], str(m["Subject"])) for m in smtp_server.inbox.messages]
    assert len(received) == Delivery.objects.count() == MAILS
    assert len(set(received)) == len(received)  # each mail once
