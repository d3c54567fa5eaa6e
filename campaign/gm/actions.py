"""The GM's actions on a running campaign, each one service used by the admin and by its command, audited.

Each function does what the lower-level service it calls does (the turn lifecycle, the ledger, the
ruleset, construction — those stay free of the audit because the turn itself uses them too) and
appends an entry to the campaign's audit log in the same transaction: who (``actor``; ``None`` is the
command line), what, before → after, and the reason when one is given. A refused action raises the
lower service's error, and neither the change nor an entry is written.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from celery import signature
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.utils import timezone

from campaign.audit import audit_record
from campaign.backup.document import campaign_export
from campaign.models import Campaign, Invitation, LedgerEntry, Nation, Turn
from campaign.models.audit import AuditAction
from campaign.outbox.mail import campaign_ended_record, clock_changed_record, invitation_record
from campaign.players.services import INVITATION_MAX_AGE_DAYS, PlayerError, invitation_url
from campaign.plumbing.queueing import QUEUE_DOWN_MESSAGE, broker_problem, send_after_commit
from campaign.scenarios.loading import ScenarioError, scenario_load
from campaign.services import campaign_settings_update, ship_lay_down, treasury_adjust
from campaign.standings import campaign_standings
from campaign.turn.lifecycle import (
    TURN_RESOLVE_TASK,
    TurnControlError,
    campaign_not_ended,
    campaign_pause,
    campaign_resume,
    clock_turn,
    open_turn,
    turn_claim,
    turn_deadline_set,
    turn_extend,
    turn_retry,
)
from campaign.turn.runner import turn_dry_run
from fleets.models import Ship
from ports.models import Port

Actor = AbstractBaseUser | AnonymousUser | None


def _deadline(turn: Turn | None) -> str | None:
    return turn.deadline.isoformat() if turn is not None and turn.deadline is not None else None


@transaction.atomic
def gm_campaign_pause(*, campaign: Campaign, actor: Actor, now: datetime | None = None) -> Turn | None:
    """Pause the campaign's clock (campaign.turn.lifecycle.campaign_pause), audited."""
    turn = campaign_pause(campaign=campaign, now=now)
    audit_record(
        campaign=campaign,
        actor=actor,
        action=AuditAction.CAMPAIGN_PAUSED,
        summary=f"{campaign.name} paused; no turn resolves until it is resumed.",
        before={"status": Campaign.Status.ACTIVE.value},
        after={"status": Campaign.Status.PAUSED.value},
    )
    return turn


@transaction.atomic
def gm_campaign_resume(*, campaign: Campaign, actor: Actor, now: datetime | None = None) -> Turn | None:
    """Restart the clock; the open turn's deadline moves on by the pause (campaign_resume), audited."""
    before = _deadline(open_turn(campaign))
    turn = campaign_resume(campaign=campaign, now=now)
    audit_record(
        campaign=campaign,
        actor=actor,
        action=AuditAction.CAMPAIGN_RESUMED,
        summary=f"{campaign.name} resumed.",
        before={"status": Campaign.Status.PAUSED.value, "deadline": before},
        after={"status": Campaign.Status.ACTIVE.value, "deadline": _deadline(turn)},
    )
    return turn


@transaction.atomic
def gm_turn_extend(*, campaign: Campaign, actor: Actor, by: timedelta, reason: str = "") -> Turn:
    """Move the open turn's deadline on by ``by`` (turn_extend), audited with the reason given."""
    before = _deadline(clock_turn(campaign))
    turn = turn_extend(campaign=campaign, by=by)
    audit_record(
        campaign=campaign,
        actor=actor,
        action=AuditAction.TURN_EXTENDED,
        summary=f"Deadline of turn {turn.number} extended by {_duration(by)}.",
        before={"deadline": before},
        after={"deadline": _deadline(turn)},
        reason=reason,
    )
    return turn


@transaction.atomic
def gm_turn_deadline_set(
    *, campaign: Campaign, actor: Actor, deadline: datetime, reason: str, now: datetime | None = None
) -> Turn:
    """Set the deadline of the turn the clock runs to an exact time, earlier or later
    (turn_deadline_set), audited with the reason, which is required."""
    reason = reason.strip()
    if not reason:
        raise TurnControlError("Give a reason for the new deadline; the players and the audit log read it.")
    turn, before = turn_deadline_set(campaign=campaign, deadline=deadline, now=now)
    assert turn.deadline is not None
    moved = "brought forward" if turn.deadline < before else "put back"
    audit_record(
        campaign=campaign,
        actor=actor,
        action=AuditAction.TURN_DEADLINE_SET,
        summary=f"Deadline of turn {turn.number} {moved} to {turn.deadline.astimezone(UTC):%Y-%m-%d %H:%M} UTC.",
        before={"deadline": before.isoformat()},
        after={"deadline": _deadline(turn)},
        reason=reason,
    )
    return turn


def _duration(by: timedelta) -> str:
    days, seconds = by.days, by.seconds
    parts = [(days, "day"), (seconds // 3600, "hour"), (seconds % 3600 // 60, "minute")]
    return " ".join(f"{n} {unit}{'s' if n != 1 else ''}" for n, unit in parts if n) or "0 minutes"


def _queue_reachable_or_refuse(what: str) -> None:
    """Actions that exist to start a resolution now refuse while the broker is down, before they change
    anything: a claimed turn would otherwise sit in "resolving" until Redis is back and a sweep runs."""
    if broker_problem() is not None:
        raise TurnControlError(f"{what} {QUEUE_DOWN_MESSAGE}")


@transaction.atomic
def gm_turn_resolve_now(*, campaign: Campaign, actor: Actor) -> Turn:
    """Claim the open turn and hand it to the workers now, as its deadline would (after commit), audited."""
    campaign_not_ended(campaign.pk, "resolving a turn")
    _queue_reachable_or_refuse("The turn was not sent to be resolved.")
    turn = open_turn(campaign)
    if turn is None or not turn_claim(turn_id=turn.pk, now=timezone.now()):
        raise TurnControlError(f"{campaign.name} has no open turn to resolve (a resolution may be under way).")
    audit_record(
        campaign=campaign,
        actor=actor,
        action=AuditAction.TURN_RESOLVE_NOW,
        summary=f"Turn {turn.number} sent to be resolved now, before its deadline.",
        before={"turn": turn.number, "status": Turn.Status.OPEN.value, "deadline": _deadline(turn)},
        after={"turn": turn.number, "status": Turn.Status.RESOLVING.value},
    )
    send_after_commit(signature(TURN_RESOLVE_TASK, args=(turn.pk,)))
    return turn


@transaction.atomic
def gm_turn_retry(*, turn: Turn, actor: Actor) -> Turn:
    """Resume a turn whose resolution failed (turn_retry), audited: it is handed to the workers after
    commit at once (the task's lease keeps a sweep enqueuing it too from running it twice)."""
    error = turn.error
    _queue_reachable_or_refuse(f"Turn {turn.number} was not retried.")
    retried = turn_retry(turn=turn)
    send_after_commit(signature(TURN_RESOLVE_TASK, args=(turn.pk,)))
    campaign = Campaign.objects.get(pk=turn.campaign_id)
    audit_record(
        campaign=campaign,
        actor=actor,
        action=AuditAction.TURN_RETRIED,
        summary=f"Resolution of turn {turn.number} retried.",
        before={"error": error},
        after={"error": ""},
    )
    return retried


def gm_turn_dry_run(*, campaign: Campaign, actor: Actor) -> dict[str, Any]:
    """What the open turn would do if it resolved now (nothing of the game is written); the look is audited."""
    turn = open_turn(campaign)
    if turn is None:
        raise TurnControlError(f"{campaign.name} has no open turn.")
    result = turn_dry_run(turn_id=turn.pk, now=timezone.now())
    audit_record(
        campaign=campaign,
        actor=actor,
        action=AuditAction.TURN_DRY_RUN,
        summary=f"Dry run of turn {turn.number} (nothing changed).",
    )
    return result


@transaction.atomic
def gm_rules_update(*, campaign: Campaign, actor: Actor, values: dict[str, object], reason: str = "") -> Campaign:
    """Change some rule settings (campaign_settings_update), audited with each setting's old and new value."""
    old = dict(campaign.settings)
    updated = campaign_settings_update(campaign=campaign, values=values)
    changed = sorted(k for k in values if old.get(k) != updated.settings.get(k))
    if changed:
        audit_record(
            campaign=campaign,
            actor=actor,
            action=AuditAction.RULES_CHANGED,
            summary=f"{len(changed)} rule setting{'s' if len(changed) != 1 else ''} changed: {', '.join(changed)}.",
            before={k: old.get(k) for k in changed},
            after={k: updated.settings.get(k) for k in changed},
            reason=reason,
        )
    return updated


@transaction.atomic
def gm_treasury_adjust(*, nation: Nation, actor: Actor, amount: int, reason: str) -> LedgerEntry:
    """A GM's correction of a treasury through the ledger (treasury_adjust), audited."""
    before = Nation.objects.only("treasury").get(pk=nation.pk).treasury
    line = treasury_adjust(nation=nation, amount=amount, reason=reason)
    audit_record(
        campaign=Campaign.objects.get(pk=nation.campaign_id),
        actor=actor,
        action=AuditAction.TREASURY_ADJUSTED,
        summary=f"Treasury of {nation.name} adjusted by {amount:+d} EP.",
        before={"treasury": before},
        after={"treasury": line.balance},
        reason=reason,
    )
    return line


@transaction.atomic
def gm_ship_lay_down(*, nation: Nation, actor: Actor, ship_class: str, name: str, port: Port) -> Ship:
    """Lay a ship down now for a nation, paid through the ledger (ship_lay_down), audited."""
    before = Nation.objects.only("treasury").get(pk=nation.pk).treasury
    ship = ship_lay_down(nation=nation, ship_class=ship_class, name=name, port=port)
    audit_record(
        campaign=Campaign.objects.get(pk=nation.campaign_id),
        actor=actor,
        action=AuditAction.SHIP_LAID_DOWN,
        summary=f"{ship.name} ({ship.get_ship_class_display()}) laid down for {nation.name} at {port.name}.",
        before={"treasury": before},
        after={"treasury": nation.treasury, "ship": ship.name, "class": ship.ship_class, "port": port.name},
    )
    return ship


# --- start and end ---------------------------------------------------------------------------------


@transaction.atomic
def campaign_start(
    *,
    scenario: str,
    name: str,
    slug: str,
    seed: int | None,
    first_deadline: datetime,
    turn_length_days: int,
    gm: AbstractBaseUser,
    actor: Actor,
    now: datetime | None = None,
) -> Campaign:
    """A new campaign from a scenario (the ``load_scenario`` service), run by ``gm`` and being set up: its
    clock does not run until the GM starts it (:func:`gm_campaign_clock_start`). Its first turn is planned
    to end at ``first_deadline`` and each later one ``turn_length_days`` after the previous resolution
    (the deadline rhythm, a ruleset setting). Raises ``ScenarioError``/``RulesetError`` and writes nothing."""
    now = now or timezone.now()
    if first_deadline <= now:
        raise ScenarioError(
            f"The first deadline ({first_deadline:%Y-%m-%d %H:%M} UTC) has passed; choose a time in the future."
        )
    campaign = scenario_load(
        name=scenario,
        slug=slug,
        display_name=name,
        seed=seed,
        gm=gm,  # type: ignore[arg-type]
        now=now,
        start=False,
    )
    campaign = campaign_settings_update(campaign=campaign, values={"calendar.turn_length_days": turn_length_days})
    turn = Turn.objects.get(campaign=campaign, number=1)
    turn.deadline = first_deadline
    turn.save(update_fields=["deadline"])
    # The opening snapshot again: it must hold the deadline and rhythm just set (revert goes back to it).
    turn.snapshot = campaign_export(campaign=campaign, with_snapshots=False)
    turn.save(update_fields=["snapshot"])
    audit_record(
        campaign=campaign,
        actor=actor,
        action=AuditAction.CAMPAIGN_CREATED,
        summary=f"{campaign.name} created from the scenario {scenario}, run by {gm.get_username()}; "
        "its clock runs once the GM starts it.",
        after={
            "scenario": scenario,
            "slug": campaign.slug,
            "seed": campaign.seed,
            "first_deadline": first_deadline.isoformat(),
            "turn_length_days": turn_length_days,
        },
    )
    return campaign


@transaction.atomic
def gm_campaign_clock_start(
    *, campaign: Campaign, actor: Actor, first_deadline: datetime, now: datetime | None = None
) -> Turn | None:
    """Start a campaign that is being set up: its clock runs from now, the open turn ending at
    ``first_deadline``; every player is told by mail, audited. Refused (nothing written) unless the
    campaign is being set up, or when the deadline is not in the future."""
    now = now or timezone.now()
    locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if locked.status != Campaign.Status.SETUP:
        state = locked.get_status_display().lower()
        raise TurnControlError(f"{locked.name} is {state}; only a campaign being set up can be started.")
    if first_deadline <= now:
        raise TurnControlError("That first deadline has passed; choose a time in the future.")
    locked.status = Campaign.Status.ACTIVE
    locked.save(update_fields=["status"])
    campaign.status = locked.status
    turn = clock_turn(locked)
    before = _deadline(turn)
    if turn is not None:
        turn.deadline = first_deadline
        # The turn's opening backup again: a revert to it must find the campaign running, with this deadline.
        turn.snapshot = campaign_export(campaign=locked, with_snapshots=False)
        turn.save(update_fields=["deadline", "snapshot"])
    clock_changed_record(campaign=locked, turn=turn, change="started", now=now)
    audit_record(
        campaign=locked,
        actor=actor,
        action=AuditAction.CAMPAIGN_STARTED,
        summary=f"{locked.name} started: its clock runs; turn {locked.turn_number} ends "
        f"{first_deadline.astimezone(UTC):%Y-%m-%d %H:%M} UTC.",
        before={"status": Campaign.Status.SETUP.value, "deadline": before},
        after={"status": locked.status, "deadline": _deadline(turn)},
    )
    return turn


@transaction.atomic
def campaign_end(*, campaign: Campaign, actor: Actor, reason: str = "", now: datetime | None = None) -> Campaign:
    """End the campaign now: no more turns resolve and orders close; everyone is mailed the final
    standings by the campaign's victory condition. Refused while a turn is resolving or once ended."""
    now = now or timezone.now()
    locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if locked.status == Campaign.Status.ENDED:
        raise TurnControlError(f"{locked.name} has ended already.")
    if Turn.objects.filter(campaign=locked, status=Turn.Status.RESOLVING).exists():
        raise TurnControlError(f"A turn of {locked.name} is resolving; end the campaign once it is done.")
    before = locked.status
    locked.status = Campaign.Status.ENDED
    locked.save(update_fields=["status"])
    campaign.status = locked.status
    turn = Turn.objects.filter(campaign=locked).order_by("-number").first()
    standings = campaign_standings(locked.pk)
    if turn is not None:
        campaign_ended_record(campaign=locked, turn=turn, now=now, reason=reason)
    leader = ", ".join(s.name for s in standings if s.place == 1) or "nobody"
    audit_record(
        campaign=locked,
        actor=actor,
        action=AuditAction.CAMPAIGN_ENDED,
        summary=f"{locked.name} ended by the GM in turn {locked.turn_number}; first: {leader}.",
        before={"status": before},
        after={"status": locked.status, "standings": [s.as_data() for s in standings]},
        reason=reason,
    )
    return locked


@transaction.atomic
def gm_campaign_delete(*, campaign: Campaign, actor: Actor, typed_name: str) -> str:
    """Delete a campaign that is being set up or has ended, with all its rows; the GM types its name to
    confirm. The audit log keeps a last entry saying who deleted it (the log outlives its campaign).
    Returns the name; ``TurnControlError`` (nothing deleted) for a campaign in play or a wrong name."""
    locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if locked.status not in (Campaign.Status.SETUP, Campaign.Status.ENDED):
        state = locked.get_status_display().lower()
        raise TurnControlError(
            f"{locked.name} is {state}: only a campaign being set up or ended can be deleted; end it first."
        )
    if " ".join(typed_name.split()) != locked.name:
        raise TurnControlError(f"Type the campaign's name exactly as it is written, {locked.name}, to delete it.")
    audit_record(
        campaign=locked,
        actor=actor,
        action=AuditAction.CAMPAIGN_DELETED,
        summary=f"{locked.name} ({locked.get_status_display().lower()}) deleted by its GM, with all its rows.",
        before={"status": locked.status, "slug": locked.slug, "turn": locked.turn_number},
    )
    name = locked.name
    locked.delete()
    return name


# --- invitations not yet accepted ----------------------------------------------------------------


def _open_invitation(invitation: Invitation, doing: str) -> Invitation:
    """The invitation locked, if it can still be acted on; ``PlayerError`` saying why not otherwise."""
    locked = (
        Invitation.objects.select_for_update(of=("self", "campaign"))
        .select_related("campaign", "nation")
        .get(pk=invitation.pk)
    )
    who = f"The invitation of {locked.email} to {locked.offered}"
    if locked.accepted_at is not None:
        raise PlayerError(f"{who} was accepted already; {doing} it is no longer possible (replace the player instead).")
    if locked.withdrawn_at is not None:
        raise PlayerError(f"{who} was {'revoked' if locked.revoked else 'replaced'} already; invite the player anew.")
    return locked


@transaction.atomic
def gm_invitation_revoke(*, invitation: Invitation, actor: Actor, now: datetime | None = None) -> Invitation:
    """Withdraw an invitation not yet accepted: its link then says it was revoked, and gives nothing. Audited."""
    now = now or timezone.now()
    locked = _open_invitation(invitation, "revoking")
    locked.withdrawn_at, locked.revoked = now, True
    locked.save(update_fields=["withdrawn_at", "revoked"])
    audit_record(
        campaign=locked.campaign,
        actor=actor,
        action=AuditAction.INVITATION_REVOKED,
        summary=f"Invitation of {locked.email} to {locked.offered} revoked.",
        before={"invitation": "open", "email": locked.email, "nation": locked.nation.name if locked.nation else None},
        after={"invitation": "revoked"},
    )
    return locked


@transaction.atomic
def gm_invitation_resend(*, invitation: Invitation, actor: Actor, now: datetime | None = None) -> Invitation:
    """Mail an invitation not yet accepted once more, with a fresh link (valid INVITATION_MAX_AGE_DAYS from
    now; the earlier link keeps its own time). Audited."""
    now = now or timezone.now()
    locked = _open_invitation(invitation, "sending")
    if locked.campaign.status == Campaign.Status.ENDED:
        raise PlayerError(f"{locked.campaign.name} has ended; nobody can join it.")
    before = locked.sent_at or locked.created_at
    locked.sent_at = now
    locked.save(update_fields=["sent_at"])
    invitation_record(
        invitation_id=locked.pk,
        campaign_id=locked.campaign_id,
        nation=locked.nation,
        user_id=locked.user_id,
        url=invitation_url(locked),
        now=now,
        again=True,
    )
    audit_record(
        campaign=locked.campaign,
        actor=actor,
        action=AuditAction.INVITATION_RESENT,
        summary=f"Invitation of {locked.email} to {locked.offered} sent again with a fresh link.",
        before={"sent": before.isoformat()},
        after={"sent": now.isoformat(), "expires": (now + timedelta(days=INVITATION_MAX_AGE_DAYS)).isoformat()},
    )
    return locked


__all__ = [
    "Actor",
    "campaign_end",
    "campaign_start",
    "gm_campaign_pause",
    "gm_campaign_resume",
    "gm_invitation_resend",
    "gm_invitation_revoke",
    "gm_rules_update",
    "gm_ship_lay_down",
    "gm_treasury_adjust",
    "gm_turn_deadline_set",
    "gm_turn_dry_run",
    "gm_turn_extend",
    "gm_turn_resolve_now",
    "gm_turn_retry",
]
