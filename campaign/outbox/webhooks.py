"""What must be told to webhooks: delivery records written in the same transaction as the events they
tell of (a turn opened or resolved, a deadline near, a dispatch arrived, a battle waiting on the table).

Each event writes one :class:`~campaign.models.WebhookDelivery` per hook that asked for it and may see
it, under a unique constraint, so a repeated event records nothing new; once the transaction commits
the webhook task (``campaign.webhook_deliveries_send``, on the mail queue) is asked to post what is
due. Fog of war is decided here: a nation's hook (a player's) is told only of its own nation's events,
and only while its owner still plays that nation; a campaign hook (a GM's) of the campaign's, while its
owner runs the campaign. Nothing is rendered or sent here: that lives in ``campaign.webhooks``, which
reads the players' pages — the turn, which writes these records, must not reach them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from celery import signature
from django.conf import settings
from django.db.models import Exists, F, OuterRef, Q

from campaign.models import Campaign, Nation, Turn, Webhook, WebhookDelivery, WebhookEvent
from campaign.plumbing.queueing import send_after_commit

#: The Celery name of the task that posts due webhook deliveries (stable: queued messages carry it).
WEBHOOK_SEND_TASK = "campaign.webhook_deliveries_send"


def webhooks_send_after_commit() -> None:
    """Ask the webhook task to post what is due once the current transaction commits (never if it rolls
    back). Named by its Celery name: the turn must not import the tasks."""
    task = signature(WEBHOOK_SEND_TASK).set(queue=settings.MAIL_QUEUE)
    # With the broker down the records wait for the beat sweep (webhooks_sweep) rather than fail the write.
    send_after_commit(task)


def hooks_told(*, campaign_id: int, event: WebhookEvent, nation_ids: Iterable[int], campaign_hooks: bool) -> Q:
    """The hooks of ``campaign_id`` that hear ``event``: active, asking for it, and either a hook of one of
    ``nation_ids`` whose owner plays that nation or runs the campaign (a GM may look through any nation's
    eyes), or (``campaign_hooks``) a campaign hook whose owner runs the campaign (its GM, a co-GM or a
    superuser). A player who lost their nation, or a GM who no longer runs the campaign, hears nothing."""
    co_gm = Campaign.co_gms.through.objects.filter(campaign_id=OuterRef("campaign_id"), user_id=OuterRef("owner_id"))
    runs = Q(owner_id=F("campaign__gm_id")) | Q(Exists(co_gm)) | Q(owner__is_superuser=True)
    told = Q(nation_id__in=list(nation_ids)) & (Q(nation__player_id=F("owner_id")) | runs)
    if campaign_hooks:
        told |= Q(nation__isnull=True) & runs
    return Q(campaign_id=campaign_id, active=True, events__contains=[event.value]) & told


def webhook_deliveries_record(
    *,
    campaign_id: int,
    event: WebhookEvent,
    nation_ids: Iterable[int],
    campaign_hooks: bool,
    turn_id: int | None,
    key: str,
    now: datetime,
    data: Mapping[str, Any] | None = None,
) -> int:
    """One delivery per hook told (:func:`hooks_told`); returns how many are new. A hook already told of
    this occurrence (``key``) is skipped: the unique constraint keeps it once."""
    hooks = Webhook.objects.filter(
        hooks_told(campaign_id=campaign_id, event=event, nation_ids=nation_ids, campaign_hooks=campaign_hooks)
    ).values_list("pk", flat=True)
    created = 0
    for hook_id in hooks:
        _, new = WebhookDelivery.objects.get_or_create(
            hook_id=hook_id,
            event=event.value,
            key=key,
            defaults={"turn_id": turn_id, "data": dict(data or {}), "due_at": now},
        )
        created += new
    if created:
        webhooks_send_after_commit()
    return created


def _nation_ids(campaign_id: int) -> list[int]:
    return list(Nation.objects.filter(campaign_id=campaign_id).values_list("pk", flat=True))


def webhook_turn_opened_record(*, turn: Turn, now: datetime) -> int:
    """Every nation's hooks and the GM's: the new turn is open, with its deadline."""
    return webhook_deliveries_record(
        campaign_id=turn.campaign_id,
        event=WebhookEvent.TURN_OPENED,
        nation_ids=_nation_ids(turn.campaign_id),
        campaign_hooks=True,
        turn_id=turn.pk,
        key=f"turn-{turn.pk}",
        now=now,
        data={"deadline": turn.deadline.isoformat() if turn.deadline else None},
    )


def webhook_turn_resolved_record(*, turn: Turn, now: datetime) -> int:
    """Every nation's hooks (each its own report's summary, read when posted) and the GM's (the
    campaign's facts); the next turn's deadline is read when posted (it opens later in phase 10)."""
    return webhook_deliveries_record(
        campaign_id=turn.campaign_id,
        event=WebhookEvent.TURN_RESOLVED,
        nation_ids=_nation_ids(turn.campaign_id),
        campaign_hooks=True,
        turn_id=turn.pk,
        key=f"turn-{turn.pk}",
        now=now,
    )


def webhook_deadline_reminder_record(*, turn: Turn, quiet_nation_ids: Iterable[int], now: datetime) -> int:
    """The hooks of the nations that have entered no orders yet, and the GM's (which nations those are)."""
    quiet = sorted(quiet_nation_ids)
    if not quiet:
        return 0
    return webhook_deliveries_record(
        campaign_id=turn.campaign_id,
        event=WebhookEvent.DEADLINE_REMINDER,
        nation_ids=quiet,
        campaign_hooks=True,
        turn_id=turn.pk,
        key=f"turn-{turn.pk}",
        now=now,
        data={"deadline": turn.deadline.isoformat() if turn.deadline else None, "quiet": quiet},
    )


def webhook_dispatch_received_record(
    *, campaign_id: int, dispatch_id: int, nation_ids: Iterable[int], now: datetime
) -> int:
    """Only the hooks of the nations the dispatch has reached (never the GM's, never the sender's)."""
    return webhook_deliveries_record(
        campaign_id=campaign_id,
        event=WebhookEvent.DISPATCH_RECEIVED,
        nation_ids=nation_ids,
        campaign_hooks=False,
        turn_id=None,
        key=f"dispatch-{dispatch_id}",
        now=now,
        data={"dispatch": dispatch_id},
    )


def webhook_table_waiting_record(
    *, turn: Turn, table_id: int, nation_ids: Iterable[int], now: datetime, data: Mapping[str, Any]
) -> int:
    """The hooks of the nations whose battle waits on the table, and the GM's."""
    return webhook_deliveries_record(
        campaign_id=turn.campaign_id,
        event=WebhookEvent.TABLE_WAITING,
        nation_ids=nation_ids,
        campaign_hooks=True,
        turn_id=turn.pk,
        key=f"table-{table_id}",
        now=now,
        data=data,
    )
