"""What must be mailed: delivery records written in the same transaction as the events they tell of.

Each event (a turn resolved, a turn opened, a missed deadline, the GM's digest, a clock change)
writes one :class:`~campaign.models.Delivery` per recipient under a unique constraint, so writing it
twice (a resumed resolution, a repeated GM action) records nothing new; once the transaction
commits, the mail task (``campaign.mail_deliveries_send``, on the ``MAIL_QUEUE`` queue) is asked to
send what is due. Nothing is sent from here: rendering and sending live in ``campaign.mail``, which
reads the players' pages — the turn, which writes these records, must not reach them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from celery import signature
from django.conf import settings
from django.db import transaction

from campaign.models import Campaign, Delivery, MailEvent, Nation, NationTurn, Turn

#: The Celery name of the task that sends due deliveries (a stable name: queued messages carry it).
MAIL_SEND_TASK = "campaign.mail_deliveries_send"


def mail_send_after_commit() -> None:
    """Ask the mail task to send what is due once the current transaction commits (never if it rolls
    back, as a dry run does). Named by its Celery name: the turn must not import the tasks."""
    task = signature(MAIL_SEND_TASK).set(queue=settings.MAIL_QUEUE)
    transaction.on_commit(task.delay)


def deliveries_record(
    *,
    campaign_id: int,
    event: MailEvent,
    recipients: Iterable[tuple[int, Nation | None]],
    turn_id: int | None,
    now: datetime,
    key: str = "",
    data: Mapping[str, Any] | None = None,
) -> int:
    """Record one delivery per recipient (user id, and the nation it is about if any); returns how
    many are new. A recipient already recorded for this event (the unique constraint) is skipped."""
    turn = Turn.objects.get(pk=turn_id) if turn_id is not None else None
    created = 0
    for user_id, nation in recipients:
        _, new = Delivery.objects.get_or_create(
            recipient_id=user_id,
            event=event,
            campaign_id=campaign_id,
            turn=turn,
            # A player of two nations gets a mail for each.
            key=":".join(part for part in (nation.code if nation else "", key) if part),
            defaults={"nation": nation, "data": dict(data or {}), "due_at": now},
        )
        created += new
    if created:
        mail_send_after_commit()
    return created


def _players(campaign_id: int) -> list[tuple[int, Nation]]:
    nations = Nation.objects.filter(campaign_id=campaign_id, player__isnull=False).order_by("code")
    return [(n.player_id, n) for n in nations if n.player_id is not None]


def turn_resolved_record(*, turn: Turn, now: datetime) -> int:
    """Each player's own report of the resolved turn, and the GM's digest of it."""
    count = deliveries_record(
        campaign_id=turn.campaign_id,
        event=MailEvent.TURN_RESOLVED,
        recipients=_players(turn.campaign_id),
        turn_id=turn.pk,
        now=now,
    )
    gm_id = Campaign.objects.filter(pk=turn.campaign_id).values_list("gm_id", flat=True).first()
    if gm_id is not None:
        count += deliveries_record(
            campaign_id=turn.campaign_id,
            event=MailEvent.GM_DIGEST,
            recipients=[(gm_id, None)],
            turn_id=turn.pk,
            now=now,
        )
    return count


def missed_deadline_record(*, turn: Turn, now: datetime) -> int:
    """To each player whose nation entered no orders for the turn (its standing orders held)."""
    submitted = set(
        NationTurn.objects.filter(turn=turn, submitted_at__isnull=False).values_list("nation_id", flat=True)
    )
    missing = [(user_id, nation) for user_id, nation in _players(turn.campaign_id) if nation.pk not in submitted]
    return deliveries_record(
        campaign_id=turn.campaign_id, event=MailEvent.MISSED_DEADLINE, recipients=missing, turn_id=turn.pk, now=now
    )


def turn_opened_record(*, turn: Turn, now: datetime) -> int:
    """To every player: the new turn is open, with its deadline."""
    return deliveries_record(
        campaign_id=turn.campaign_id,
        event=MailEvent.TURN_OPENED,
        recipients=_players(turn.campaign_id),
        turn_id=turn.pk,
        now=now,
    )


def clock_changed_record(*, campaign: Campaign, turn: Turn | None, change: str, now: datetime) -> int:
    """To every player: the GM paused, resumed or extended the clock (``change``), with the deadline
    as it now stands. Each change is its own mail (keyed by its time)."""
    data = {"change": change, "deadline": turn.deadline.isoformat() if turn and turn.deadline else None}
    return deliveries_record(
        campaign_id=campaign.pk,
        event=MailEvent.CLOCK_CHANGED,
        recipients=_players(campaign.pk),
        turn_id=turn.pk if turn else None,
        now=now,
        key=f"{change}@{now.isoformat()}",
        data=data,
    )
