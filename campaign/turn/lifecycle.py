"""The turn lifecycle (RULES.md §3): open → resolving → resolved, claims and leases, GM controls.

Exactly-once resolution rests on the database, not on Celery's delivery guarantees:

* a due turn is **claimed** by a conditional UPDATE (``open`` → ``resolving``) whose row count is
  checked, so two sweeps or two workers cannot both start it;
* the worker resolving it holds a **lease** (token + expiry) taken by another conditional UPDATE
  and renewed after every phase; a duplicate task finds the lease held and stops; a worker that dies
  lets the lease run out, and the beat sweep hands the turn to the next worker, which resumes at the
  first phase without a ``TurnPhase`` row.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from celery import signature
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone

from battles.engagements.table import table_fall_back
from battles.models import TabletopBattle
from campaign.audit import acting_for_nation_is_audited, audit_record
from campaign.models import Campaign, Nation, NationTurn, NmrPolicy, Turn
from campaign.models.audit import AuditAction
from campaign.orders.errors import TurnClosed
from campaign.outbox.mail import clock_changed_record, table_battles_record
from campaign.plumbing.queueing import send_after_commit
from rules.calendar import deadline_after, deadline_after_pause, deadline_extended

#: The Celery name of the task that resolves a turn (the turn must not import the tasks).
TURN_RESOLVE_TASK = "campaign.turn_resolve"


class TurnControlError(ValueError):
    """A GM control that does not apply now (e.g. pausing a paused campaign)."""


def lease_seconds() -> int:
    return int(getattr(settings, "TURN_LEASE_SECONDS", 120))


def open_turn(campaign: Campaign) -> Turn | None:
    return Turn.objects.filter(campaign=campaign, status=Turn.Status.OPEN).first()


def campaign_not_ended(campaign_id: int, doing: str) -> Campaign:
    """The campaign, refused with :class:`TurnControlError` once it has ended: its last turn may still
    be open, but nothing about it moves on any more (every control of the turn asks here, so the web,
    the API, the admin and the commands refuse alike). ``doing`` completes "… cannot …"."""
    campaign = Campaign.objects.get(pk=campaign_id)
    if campaign.status == Campaign.Status.ENDED:
        raise TurnControlError(f"{campaign.name} has ended; {doing} is no longer possible.")
    return campaign


def clock_turn(campaign: Campaign) -> Turn | None:
    """The turn whose deadline the clock runs: the open turn, or one waiting for a battle on the
    table (its deadline is then the table's; pause and extend work on it alike, issue 15)."""
    return Turn.objects.filter(campaign=campaign, status__in=[Turn.Status.OPEN, Turn.Status.TABLE]).first()


# --- Battles on the table (issue 15) -------------------------------------------------------------


def turn_table_wait(*, turn_id: int, token: uuid.UUID, now: datetime) -> bool:
    """Phase 4 waits for a battle on the table: the turn leaves ``resolving`` for ``table`` with the
    table's deadline (``table.days`` on, rounded to the deadline hour), gives up its lease (the
    sweep never re-claims a waiting turn) and its battles' players and the GM are told by mail.
    False if the lease was lost meanwhile (another worker has the turn)."""
    with transaction.atomic():
        turn = Turn.objects.select_for_update().select_related("campaign").get(pk=turn_id)
        if turn.status != Turn.Status.RESOLVING or turn.lease_token != token:
            return False
        campaign = turn.campaign
        turn.status = Turn.Status.TABLE
        turn.deadline = deadline_after(now, campaign.ruleset, timedelta(days=campaign.ruleset["table.days"]))
        turn.paused_at = now if campaign.status == Campaign.Status.PAUSED else None
        turn.lease_token = None
        turn.lease_until = None
        turn.save(update_fields=["status", "deadline", "paused_at", "lease_token", "lease_until"])
        table_battles_record(turn=turn, now=now)
    return True


def turn_table_resume(*, turn_id: int, now: datetime) -> bool:
    """Once no battle of the turn is outstanding at the table, the turn resolves on through the normal
    task path: ``table`` → ``resolving`` with the sweep's lease (any worker may take it), and
    ``turn_resolve`` is sent after commit. Call inside the transaction that settled the last battle.
    Idempotent: True only for the call that moved the turn.

    The turn row is locked before the question is asked: two last battles settled at once would
    otherwise each see the other still outstanding (neither committed) and neither move the turn. The
    second waits here for the first to commit, then sees its result. FOR NO KEY UPDATE: a settling
    battle holds the turn FOR KEY SHARE (its Battle row's foreign key), which this must not wait for."""
    Turn.objects.select_for_update(no_key=True).filter(pk=turn_id).values_list("pk", flat=True).first()
    if TabletopBattle.objects.filter(turn_id=turn_id, status__in=TabletopBattle.OUTSTANDING).exists():
        return False
    moved = Turn.objects.filter(pk=turn_id, status=Turn.Status.TABLE).update(
        status=Turn.Status.RESOLVING,
        paused_at=None,
        lease_token=None,
        lease_until=now + timedelta(seconds=lease_seconds()),
        error="",
    )
    if moved:
        send_after_commit(signature(TURN_RESOLVE_TASK, args=(turn_id,)))
    return moved == 1


def turns_table_due(*, now: datetime) -> list[int]:
    """Turns of active campaigns waiting for the table past their deadline: every battle still at the
    table is fought by the server's dice after all (the fall-back), and the turn resolves on. Returns
    the turns moved to ``resolving`` (the sweep enqueues them)."""
    moved: list[int] = []
    due = Turn.objects.filter(
        status=Turn.Status.TABLE, campaign__status=Campaign.Status.ACTIVE, deadline__lte=now
    ).values_list("pk", flat=True)
    for turn_id in list(due):
        with transaction.atomic():
            if not Turn.objects.select_for_update(skip_locked=True).filter(pk=turn_id, status=Turn.Status.TABLE):
                continue
            for table in TabletopBattle.objects.select_for_update().filter(
                turn_id=turn_id, status__in=TabletopBattle.OUTSTANDING
            ):
                table_fall_back(table=table)
                table.status = TabletopBattle.Status.AUTOMATIC
                table.note = "The table's deadline passed without an approved result: fought by the dice."
                table.save(update_fields=["status", "note", "updated_at"])
            if Turn.objects.filter(pk=turn_id, status=Turn.Status.TABLE).update(
                status=Turn.Status.RESOLVING,
                lease_token=None,
                lease_until=now + timedelta(seconds=lease_seconds()),
                error="",
            ):
                moved.append(turn_id)
    return moved


def turns_due(*, now: datetime) -> list[int]:
    """Open turns of active campaigns whose deadline has passed or whose players are all ready.

    "A turn resolves at its deadline or as soon as every nation with a player is ready" (§3); a
    campaign without any player never resolves early.
    """
    not_ready = NationTurn.objects.filter(turn=OuterRef("pk"), nation__player__isnull=False, ready=False)
    with_players = Nation.objects.filter(campaign=OuterRef("campaign"), player__isnull=False)
    players_without_state = Nation.objects.filter(campaign=OuterRef("campaign"), player__isnull=False).exclude(
        turn_states__turn=OuterRef("pk")
    )
    everyone_ready = Exists(with_players) & ~Exists(not_ready) & ~Exists(players_without_state)
    # The "GM is asked" NMR house option: while a nation with a player has given no orders by the
    # deadline, the turn waits for the GM, deadline or not — who enters them, extends the deadline or
    # resolves it now. Orders the GM enters after the deadline do not end the wait: the GM may enter
    # several, one by one, and resolves the turn once they are complete.
    submitted = NationTurn.objects.filter(
        Q(turn__deadline__isnull=True) | Q(submitted_at__lte=F("turn__deadline")),
        turn=OuterRef(OuterRef("pk")),
        nation=OuterRef("pk"),
        submitted_at__isnull=False,
    )
    without_orders = Nation.objects.filter(campaign=OuterRef("campaign"), player__isnull=False).exclude(
        Exists(submitted)
    )
    gm_asked = Q(campaign__nmr_policy=NmrPolicy.ASK_GM) & Exists(without_orders)
    return list(
        Turn.objects.filter(status=Turn.Status.OPEN, campaign__status=Campaign.Status.ACTIVE)
        .filter(Q(deadline__lte=now) | everyone_ready)
        .exclude(gm_asked)
        .order_by("deadline", "pk")
        .values_list("pk", flat=True)
    )


def turn_claim(*, turn_id: int, now: datetime) -> bool:
    """Move an open turn to ``resolving``; True for exactly one caller."""
    claimed = Turn.objects.filter(pk=turn_id, status=Turn.Status.OPEN).update(
        status=Turn.Status.RESOLVING, lease_token=None, lease_until=None, error=""
    )
    return claimed == 1


def turns_claim_due(*, now: datetime) -> list[int]:
    """Claim every due turn in one pass: a fixed number of queries however many are due (issue 14).

    The due turns are locked with ``FOR UPDATE SKIP LOCKED`` and moved to ``resolving`` by one
    UPDATE, in one transaction: a second beat or a duplicated sweep running alongside skips the
    locked rows, and one running after finds them no longer open — each turn is claimed once.
    """
    with transaction.atomic():
        claimed = list(
            Turn.objects.select_for_update(skip_locked=True)
            .filter(pk__in=turns_due(now=now), status=Turn.Status.OPEN)
            .order_by("deadline", "pk")
            .values_list("pk", flat=True)
        )
        if claimed:
            # A lease without a token: the turn waits in the queue for a worker, and the sweeps before
            # it runs out do not enqueue it again (a hundred turns queued behind each other would
            # otherwise be re-sent at every sweep). Any worker may take a lease without a token.
            Turn.objects.filter(pk__in=claimed).update(
                status=Turn.Status.RESOLVING,
                lease_token=None,
                lease_until=now + timedelta(seconds=lease_seconds()),
                error="",
            )
    return claimed


def turns_stalled(*, now: datetime) -> list[int]:
    """Turns being resolved whose lease has run out: their worker died or never started.

    A turn whose resolution failed with an error ``TURN_MAX_ATTEMPTS`` times is left alone — retrying a
    bug every sweep would only repeat it — until the GM retries it (:func:`turn_retry`); its error is
    shown on the admin's Turns page.
    """
    return list(
        Turn.objects.filter(status=Turn.Status.RESOLVING)
        .filter(Q(lease_until__isnull=True) | Q(lease_until__lt=now))
        .exclude(Q(attempts__gte=settings.TURN_MAX_ATTEMPTS) & ~Q(error=""))
        .values_list("pk", flat=True)
    )


def turn_retry(*, turn: Turn) -> Turn:
    """The GM's retry of a resolution that gave up after repeated errors: the next sweep resumes it
    at its first unfinished phase (finished phases are never repeated)."""
    if turn.status != Turn.Status.RESOLVING:
        raise TurnControlError(f"Turn {turn.number} is {turn.get_status_display().lower()}: nothing to retry.")
    Turn.objects.filter(pk=turn.pk, status=Turn.Status.RESOLVING).update(
        attempts=0, error="", lease_token=None, lease_until=None
    )
    turn.refresh_from_db()
    return turn


def lease_acquire(*, turn_id: int, now: datetime, handover: uuid.UUID | None = None) -> uuid.UUID | None:
    """Take the resolution lease of a resolving turn; returns the new token or None if it is held.

    ``handover`` lets the chord callback take over the lease its own dispatcher left for it. A lease
    without a token is the sweep's (the turn is queued, :func:`turns_claim_due`): free to take.
    """
    token = uuid.uuid4()
    free = Q(lease_token__isnull=True) | Q(lease_until__isnull=True) | Q(lease_until__lt=now)
    if handover is not None:
        free |= Q(lease_token=handover)
    taken = (
        Turn.objects.filter(pk=turn_id, status=Turn.Status.RESOLVING)
        .filter(free)
        .update(lease_token=token, lease_until=now + timedelta(seconds=lease_seconds()))
    )
    return token if taken == 1 else None


def lease_renew(*, turn_id: int, token: uuid.UUID, now: datetime, seconds: int | None = None) -> bool:
    """Extend the lease; False if it was lost (expired and taken by another worker)."""
    until = now + timedelta(seconds=seconds if seconds is not None else lease_seconds())
    return Turn.objects.filter(pk=turn_id, lease_token=token).update(lease_until=until) == 1


def lease_release(*, turn_id: int, token: uuid.UUID) -> None:
    Turn.objects.filter(pk=turn_id, lease_token=token).update(lease_token=None, lease_until=None)


# --- GM controls ------------------------------------------------------------------------------------


@transaction.atomic
def campaign_pause(*, campaign: Campaign, now: datetime | None = None) -> Turn | None:
    """Stop the clock: nothing resolves while paused; the deadline moves by the pause's length on resume."""
    now = now or timezone.now()
    locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if locked.status != Campaign.Status.ACTIVE:
        state = locked.get_status_display().lower()
        raise TurnControlError(f"{locked.name} is {state}; only an active campaign can be paused.")
    locked.status = Campaign.Status.PAUSED
    locked.save(update_fields=["status"])
    campaign.status = locked.status
    turn = clock_turn(locked)
    if turn is not None:
        turn.paused_at = now
        turn.save(update_fields=["paused_at"])
    clock_changed_record(campaign=locked, turn=turn, change="paused", now=now)
    return turn


@transaction.atomic
def campaign_resume(*, campaign: Campaign, now: datetime | None = None) -> Turn | None:
    """Restart the clock; the open turn's deadline moves on by the time spent paused (§3)."""
    now = now or timezone.now()
    locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if locked.status != Campaign.Status.PAUSED:
        raise TurnControlError(f"{locked.name} is not paused.")
    locked.status = Campaign.Status.ACTIVE
    locked.save(update_fields=["status"])
    campaign.status = locked.status
    turn = clock_turn(locked)
    if turn is not None and turn.paused_at is not None:
        if turn.deadline is not None:
            turn.deadline = deadline_after_pause(turn.deadline, turn.paused_at, now)
        turn.paused_at = None
        turn.save(update_fields=["deadline", "paused_at"])
    clock_changed_record(campaign=locked, turn=turn, change="resumed", now=now)
    return turn


@transaction.atomic
def turn_extend(*, campaign: Campaign, by: timedelta) -> Turn:
    """Give the players more time: the open turn's deadline moves on by ``by`` (§3 "extend adds time")."""
    if by <= timedelta(0):
        raise TurnControlError("An extension must be a positive length of time, e.g. 2 days or 12 hours.")
    campaign_not_ended(campaign.pk, "extending the deadline")
    turn = (
        Turn.objects.select_for_update()
        .filter(campaign=campaign, status__in=[Turn.Status.OPEN, Turn.Status.TABLE])
        .first()
    )
    if turn is None:
        raise TurnControlError(f"{campaign.name} has no open turn, nor one waiting for the table, to extend.")
    if turn.deadline is None:
        raise TurnControlError(f"Turn {turn.number} has no deadline to extend.")
    turn.deadline = deadline_extended(turn.deadline, by)
    turn.save(update_fields=["deadline"])
    clock_changed_record(campaign=campaign, turn=turn, change="extended", now=timezone.now())
    return turn


@transaction.atomic
def turn_deadline_set(*, campaign: Campaign, deadline: datetime, now: datetime | None = None) -> tuple[Turn, datetime]:
    """Set the deadline of the turn the clock runs (the open turn, or one waiting for the table) to an
    exact time, earlier or later than it was; it must lie in the future. Every player is told by mail.
    Returns the turn and its previous deadline."""
    now = now or timezone.now()
    if deadline <= now:
        raise TurnControlError(
            f"The new deadline ({deadline:%Y-%m-%d %H:%M %Z}) has passed; choose a time in the future "
            "(to resolve the turn at once, use Resolve now)."
        )
    turn = (
        Turn.objects.select_for_update()
        .filter(campaign=campaign, status__in=[Turn.Status.OPEN, Turn.Status.TABLE])
        .first()
    )
    if turn is None:
        raise TurnControlError(
            f"{campaign.name} has no open turn, nor one waiting for the table, to set a deadline for."
        )
    before = turn.deadline
    if before == deadline:
        raise TurnControlError(f"Turn {turn.number}'s deadline is that time already.")
    turn.deadline = deadline
    turn.save(update_fields=["deadline"])
    clock_changed_record(campaign=campaign, turn=turn, change="deadline_set", now=now)
    return turn, before if before is not None else deadline


@transaction.atomic
def nation_ready_set(
    *,
    nation: Nation,
    ready: bool,
    actor: AbstractBaseUser | AnonymousUser | None = None,
    named_turn: int | None = None,
) -> NationTurn:
    """Mark a nation ready (or not) for the open turn; a GM doing it in the nation's name is audited.

    ``named_turn``: the turn the page or client read (issue 26). A "Mark ready" pressed on a page of
    a turn that has resolved must not mark the next turn ready: :class:`TurnClosed`, nothing stored.
    The turn row is locked so that the turn's claim and this wait for each other.
    """
    with transaction.atomic():
        return _nation_ready_set(nation=nation, ready=ready, actor=actor, named_turn=named_turn)


def _nation_ready_set(
    *, nation: Nation, ready: bool, actor: AbstractBaseUser | AnonymousUser | None, named_turn: int | None
) -> NationTurn:
    campaign = campaign_not_ended(nation.campaign_id, "marking a nation ready")
    turn = Turn.objects.select_for_update().filter(campaign=campaign, status=Turn.Status.OPEN).first()
    if named_turn is not None and (turn is None or turn.number != named_turn):
        raise TurnClosed(asked=named_turn, open_turn=turn.number if turn is not None else None)
    if turn is None:
        raise TurnControlError("There is no open turn: orders are being resolved.")
    state, _ = NationTurn.objects.get_or_create(turn=turn, nation=nation)
    was = state.ready
    state.ready = ready
    state.ready_cleared = False  # the player's own choice now: no change of orders cleared it
    state.save(update_fields=["ready", "ready_cleared"])
    if was != ready and acting_for_nation_is_audited(actor, nation.player_id):
        audit_record(
            campaign=campaign,
            actor=actor,
            action=AuditAction.READY_SET,
            summary=f"For {nation.name}: marked {'ready' if ready else 'not ready'} in turn {turn.number}.",
            before={"ready": was},
            after={"ready": ready},
        )
    return state
