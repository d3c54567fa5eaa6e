"""What must be mailed: delivery records written in the same transaction as the events they tell of.

Each event (a turn resolved, a turn opened, a missed deadline, the GM's digest, a clock change, a
deadline reminder, a GM's announcement, a nation given to a player, the campaign's end, a revert, a
dispatch arrived or reported)
writes one :class:`~campaign.models.Delivery` per recipient under a unique constraint, so writing it
twice (a resumed resolution, a repeated GM action) records nothing new; once the transaction
commits, the mail task (``campaign.mail_deliveries_send``, on the ``MAIL_QUEUE`` queue) is asked to
send what is due. Nothing is sent from here: rendering and sending live in ``campaign.mail``, which
reads the players' pages — the turn, which writes these records, must not reach them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from celery import signature
from django.conf import settings
from django.db.models import Exists, OuterRef

from battles.models import TabletopBattle
from campaign.models import (
    Announcement,
    Campaign,
    Delivery,
    DispatchCopy,
    DispatchReport,
    MailEvent,
    MailPreference,
    Nation,
    NationTurn,
    Order,
    Turn,
    Victory,
    Webhook,
)
from campaign.outbox.webhooks import (
    webhook_deadline_reminder_record,
    webhook_dispatch_received_record,
    webhook_table_waiting_record,
    webhook_turn_opened_record,
    webhook_turn_resolved_record,
)
from campaign.plumbing.queueing import send_after_commit
from campaign.selectors import nations_without_orders
from campaign.standings import campaign_standings, victory_description

#: The Celery name of the task that sends due deliveries (a stable name: queued messages carry it).
MAIL_SEND_TASK = "campaign.mail_deliveries_send"


def mail_send_after_commit() -> None:
    """Ask the mail task to send what is due once the current transaction commits (never if it rolls
    back, as a dry run does). Named by its Celery name: the turn must not import the tasks."""
    task = signature(MAIL_SEND_TASK).set(queue=settings.MAIL_QUEUE)
    send_after_commit(task)


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
    recipients = list(recipients)
    # The turn by id: its row (and its snapshot, the whole campaign) is not read for this.
    of_turn: dict[str, Any] = {"turn_id": turn_id} if turn_id is not None else {"turn__isnull": True}
    choices = {
        p.user_id: p
        for p in MailPreference.objects.filter(
            campaign_id=campaign_id, event=event, user_id__in=[user_id for user_id, _ in recipients]
        )
    }
    created = 0
    for user_id, nation in recipients:
        choice = choices.get(user_id)
        state, digest, due = Delivery.State.PENDING, False, now
        if choice is not None and not choice.enabled:
            state = Delivery.State.SKIPPED  # kept, so the GM sees why nothing went
        elif choice is not None and choice.digest:
            digest, due = True, next_digest_time(now)
        _, new = Delivery.objects.get_or_create(
            recipient_id=user_id,
            event=event,
            campaign_id=campaign_id,
            **of_turn,
            # A player of two nations gets a mail for each.
            key=":".join(part for part in (nation.code if nation else "", key) if part),
            defaults={"nation": nation, "data": dict(data or {}), "due_at": due, "state": state, "digest": digest},
        )
        created += new
    if created:
        mail_send_after_commit()
    return created


def next_digest_time(now: datetime) -> datetime:
    """When the next daily digest goes: the next ``MAIL_DIGEST_HOUR`` o'clock UTC after ``now``."""
    today = now.astimezone(UTC).replace(hour=settings.MAIL_DIGEST_HOUR, minute=0, second=0, microsecond=0)
    return today if today > now else today + timedelta(days=1)


def _players(campaign_id: int) -> list[tuple[int, Nation]]:
    nations = Nation.objects.filter(campaign_id=campaign_id, player__isnull=False).order_by("code")
    return [(n.player_id, n) for n in nations if n.player_id is not None]


def turn_resolved_record(*, turn: Turn, now: datetime) -> int:
    """Each player's own report of the resolved turn, and the GM's digest of it (and the webhooks')."""
    webhook_turn_resolved_record(turn=turn, now=now)
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


def turn_failed_record(*, turn_id: int, now: datetime) -> int:
    """To every GM of the turn's campaign (owner and co-GMs), at once: the turn's resolution failed,
    with its error (read when the mail is sent). Once per turn, however often the sweep retries it."""
    campaign = Campaign.objects.only("gm_id").get(turns__pk=turn_id)
    gms = sorted({*campaign.co_gms.values_list("pk", flat=True), *([campaign.gm_id] if campaign.gm_id else [])})
    return deliveries_record(
        campaign_id=campaign.pk,
        event=MailEvent.TURN_FAILED,
        recipients=[(user_id, None) for user_id in gms],
        turn_id=turn_id,
        now=now,
    )


def missed_deadline_record(*, turn: Turn, now: datetime) -> int:
    """To each player whose nation entered no orders for the turn (its standing orders held) — not to
    one that pressed Ready with none: it chose to let its standing orders stand."""
    ready = NationTurn.objects.filter(turn_id=turn.pk, ready=True).values("nation_id")
    nations = nations_without_orders(campaign_id=turn.campaign_id, turn_id=turn.pk).exclude(pk__in=ready)
    missing = [(n.player_id, n) for n in nations if n.player_id is not None]
    return deliveries_record(
        campaign_id=turn.campaign_id, event=MailEvent.MISSED_DEADLINE, recipients=missing, turn_id=turn.pk, now=now
    )


def turn_opened_record(*, turn: Turn, now: datetime) -> int:
    """To every player: the new turn is open, with its deadline (and to the webhooks)."""
    webhook_turn_opened_record(turn=turn, now=now)
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


def table_battles_record(*, turn: Turn, now: datetime) -> int:
    """Issue 15: the turn waits for battles on the table — each such battle's players (every nation
    of both sides that has one) and the GM are told where, against whom and by when."""
    count = 0
    gm_id = Campaign.objects.filter(pk=turn.campaign_id).values_list("gm_id", flat=True).first()
    tables = (
        TabletopBattle.objects.filter(turn=turn, status__in=TabletopBattle.OUTSTANDING)
        .select_related("engagement", "sea_zone", "port")
        .order_by("place")
    )
    for table in tables:
        codes = sorted({c for side in table.side_nations() for c in side})
        nations = Nation.objects.filter(campaign_id=turn.campaign_id, code__in=codes, player__isnull=False)
        recipients: list[tuple[int, Nation | None]] = [(n.player_id, n) for n in nations if n.player_id is not None]
        if gm_id is not None and gm_id not in {user_id for user_id, _ in recipients}:
            recipients.append((gm_id, None))
        data = {
            "table": table.pk,
            "place": table.port.name if table.port else table.sea_zone.name,
            "nations": codes,
            "deadline": turn.deadline.isoformat() if turn.deadline else None,
        }
        count += deliveries_record(
            campaign_id=turn.campaign_id,
            event=MailEvent.TABLE_BATTLE,
            recipients=recipients,
            turn_id=turn.pk,
            now=now,
            key=f"table-{table.pk}",
            data=data,
        )
        involved = Nation.objects.filter(campaign_id=turn.campaign_id, code__in=codes).values_list("pk", flat=True)
        webhook_table_waiting_record(turn=turn, table_id=table.pk, nation_ids=involved, now=now, data=data)
    return count


def deadline_reminders_record(*, now: datetime) -> int:
    """Remind, once a turn, each player whose nation has neither entered orders nor said it is ready,
    once the open turn's deadline is within the campaign's ``reminder_hours``."""
    count = 0
    turns = (
        Turn.objects.filter(status=Turn.Status.OPEN, campaign__status=Campaign.Status.ACTIVE, deadline__gt=now)
        .select_related("campaign")
        # Only what the reminder needs: every open turn of the server is read here, and each turn's
        # snapshot (the whole campaign as the turn opened) would otherwise be decoded for nothing —
        # with 100 campaigns that took a worker from 140 MB to 450 MB (bench fleet-of-campaigns).
        .only("id", "campaign_id", "deadline", "campaign__id", "campaign__reminder_hours")
    )
    for turn in turns:
        assert turn.deadline is not None  # filtered above
        if turn.deadline - timedelta(hours=turn.campaign.reminder_hours) > now:
            continue
        orders = Order.objects.filter(turn=turn, nation=OuterRef("nation"))
        quiet = set(
            NationTurn.objects.filter(turn=turn, ready=False, submitted_at__isnull=True)
            .exclude(Exists(orders))
            .values_list("nation_id", flat=True)
        )
        recipients = [(user_id, nation) for user_id, nation in _players(turn.campaign_id) if nation.pk in quiet]
        webhook_deadline_reminder_record(turn=turn, quiet_nation_ids=quiet, now=now)
        count += deliveries_record(
            campaign_id=turn.campaign_id,
            event=MailEvent.DEADLINE_REMINDER,
            recipients=recipients,
            turn_id=turn.pk,
            now=now,
        )
    return count


def announcement_record(*, announcement: Announcement, now: datetime) -> int:
    """The GM's announcement, to every player of its campaign (once each)."""
    return deliveries_record(
        campaign_id=announcement.campaign_id,
        event=MailEvent.ANNOUNCEMENT,
        recipients=[(user_id, None) for user_id in {user_id for user_id, _ in _players(announcement.campaign_id)}],
        turn_id=None,
        now=now,
        key=f"announcement-{announcement.pk}",
        data={"announcement": announcement.pk},
    )


def nation_given_record(*, nation: Nation, now: datetime) -> int:
    """To a player just given a nation: the campaign, their nation, where to log in."""
    if nation.player_id is None:
        return 0
    return deliveries_record(
        campaign_id=nation.campaign_id,
        event=MailEvent.NATION_GIVEN,
        recipients=[(nation.player_id, nation)],
        turn_id=None,
        now=now,
    )


def invitation_record(
    *,
    invitation_id: int,
    campaign_id: int,
    nation: Nation | None,
    user_id: int,
    url: str,
    now: datetime,
    again: bool = False,
) -> int:
    """To an invited address's account: the campaign, the nation (none: a co-GM's), and the signed link that gives it
    (``again``: the GM sends it once more, a new mail with a fresh link)."""
    return deliveries_record(
        campaign_id=campaign_id,
        event=MailEvent.INVITATION,
        recipients=[(user_id, nation)],
        turn_id=None,
        now=now,
        key=f"invitation-{invitation_id}" + (f"-again-{now:%Y%m%d%H%M%S%f}" if again else ""),
        data={"url": url},
    )


def nation_taken_record(*, nation: Nation, old_player_id: int, now: datetime) -> int:
    """To a player whose nation the GM gave to someone else: they no longer command it (from now)."""
    return deliveries_record(
        campaign_id=nation.campaign_id,
        event=MailEvent.NATION_TAKEN,
        recipients=[(old_player_id, nation)],
        turn_id=None,
        now=now,
        key=f"{now.isoformat()}",
    )


def players_given_record(*, campaign_id: int, now: datetime) -> int:
    """To every player of a campaign (as an import maps them): the nation they were given, once each."""
    return sum(
        nation_given_record(nation=nation, now=now)
        for nation in Nation.objects.filter(campaign_id=campaign_id, player__isnull=False).order_by("code")
    )


def campaign_ended_record(*, campaign: Campaign, turn: Turn, now: datetime, reason: str = "") -> int:
    """To every player and every GM (owner and co-GMs): the campaign ended with ``turn``, with the
    final standings as they stand in this transaction (kept in the delivery, so later changes to the
    rows cannot alter what the mail says) and why it ended (the GM's reason, or the victory reached)."""
    players = _players(campaign.pk)
    gms: set[int] = set(campaign.co_gms.values_list("pk", flat=True))
    if campaign.gm_id is not None:
        gms.add(campaign.gm_id)
    # A GM who also plays gets the players' mail (it carries the same standings); not a second one.
    gms -= {user_id for user_id, _ in players}
    recipients: list[tuple[int, Nation | None]] = [*players, *((user_id, None) for user_id in sorted(gms))]
    return deliveries_record(
        campaign_id=campaign.pk,
        event=MailEvent.CAMPAIGN_ENDED,
        recipients=recipients,
        turn_id=turn.pk,
        now=now,
        data={
            "standings": [standing.as_data() for standing in campaign_standings(campaign.pk)],
            "victory": victory_description(campaign),
            "points": campaign.victory == Victory.POINTS,
            "reason": reason.strip(),
        },
    )


def dispatch_arrived_record(*, copies: Iterable[DispatchCopy], now: datetime) -> int:
    """To the player of each nation a dispatch has just reached (never one still in transit): once per
    dispatch and nation, immediately or in the digest as they chose."""
    by_dispatch: dict[int, list[Nation]] = {}
    for copy in copies:
        if copy.arrived_at is not None and copy.nation.player_id is not None:
            by_dispatch.setdefault(copy.dispatch_id, []).append(copy.nation)
    count = 0
    for dispatch_id, nations in sorted(by_dispatch.items()):
        webhook_dispatch_received_record(
            campaign_id=nations[0].campaign_id, dispatch_id=dispatch_id, nation_ids=[n.pk for n in nations], now=now
        )
        count += deliveries_record(
            campaign_id=nations[0].campaign_id,
            event=MailEvent.DISPATCH,
            recipients=[(n.player_id, n) for n in nations if n.player_id is not None],
            turn_id=None,
            now=now,
            key=f"dispatch-{dispatch_id}",
            data={"dispatch": dispatch_id},
        )
    return count


def dispatch_reported_record(*, report: DispatchReport, now: datetime) -> int:
    """To the campaign's GM and co-GMs, each once, as each chose: a player reported a dispatch (which
    one, by whom and why). The turn it was reported in is kept, so a mail held for the digest names it."""
    campaign = Campaign.objects.only("id", "gm_id", "turn_number").get(pk=report.dispatch.campaign_id)
    gms: set[int] = set(campaign.co_gms.values_list("pk", flat=True))
    if campaign.gm_id is not None:
        gms.add(campaign.gm_id)
    return deliveries_record(
        campaign_id=campaign.pk,
        event=MailEvent.DISPATCH_REPORTED,
        recipients=[(user_id, None) for user_id in sorted(gms)],
        turn_id=None,
        now=now,
        key=f"report-{report.pk}",
        data={"report": report.pk, "turn": campaign.turn_number},
    )


def campaign_reverted_record(
    *, campaign: Campaign, turn: Turn, revert_id: int, now: datetime, data: Mapping[str, Any]
) -> int:
    """To every player: the GM turned the campaign back to the opening of ``turn`` (a revert, or a
    battle re-fought), with the reason and what happens next (``data``). Each revert is its own mail."""
    return deliveries_record(
        campaign_id=campaign.pk,
        event=MailEvent.CAMPAIGN_REVERTED,
        recipients=_players(campaign.pk),
        turn_id=turn.pk,
        now=now,
        key=f"revert-{revert_id}",
        data=data,
    )


def webhook_disabled_record(*, hook: Webhook, now: datetime) -> int:
    """To a hook's owner: it was switched off after failing again and again (which URL, why). Each
    switching off is its own mail."""
    return deliveries_record(
        campaign_id=hook.campaign_id,
        event=MailEvent.WEBHOOK_DISABLED,
        recipients=[(hook.owner_id, None)],
        turn_id=None,
        now=now,
        key=f"webhook-{hook.pk}-{now:%Y%m%d%H%M%S%f}",
        data={"webhook": hook.pk, "url": hook.url, "nation": hook.nation.name if hook.nation else None},
    )


def delivery_resend(*, delivery: Delivery, now: datetime) -> bool:
    """The GM's resend: the delivery (sent or failed) is due again now, with a fresh set of attempts.
    A delivery being sent right now is left alone (False)."""
    return (
        Delivery.objects.filter(pk=delivery.pk)
        .exclude(state=Delivery.State.SENDING)
        .update(state=Delivery.State.PENDING, due_at=now, attempts=0, error="", lease_until=None)
        == 1
    )
