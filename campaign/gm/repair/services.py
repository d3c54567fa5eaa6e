"""The GM's repairs (issue 11): revert a campaign to the start of a turn, re-run the open turn, re-fight
one battle. Each is one service, used by the admin's pages and by a management command, and audited.

* :func:`campaign_revert` — the campaign as turn N opened, from the turn's snapshot. Later turns,
  battles, phase records, reports, ledger lines and mail are taken off the record into a
  :class:`~campaign.models.CampaignRevert` (the GM reads them in the admin; players, the API and the
  exports no longer see them); turn N is open again, its orders back as they stood at its deadline
  (outcomes cleared, readiness asked again), with a new deadline; the players are mailed.
* :func:`~campaign.gm.repair.rerun.turn_rerun` (:mod:`campaign.gm.repair.rerun`) — the open turn resolved
  now through the workers, with the campaign's seed (the same orders and seed give the same result)
  or with a new seed and a reason.
* :func:`~campaign.gm.repair.refight.battle_refight` (:mod:`campaign.gm.repair.refight`) — one battle of the
  latest resolved turn fought again with a new seed: the campaign is reverted to that turn's start and
  the turn resolved again with only that battle's dice re-seeded, so everything after it (pursuits,
  sieges, supply, income, reports) follows the new result and no EP, ship or report is counted twice.

This module holds the revert and the checks the three share. Every bad input raises
:class:`RepairError` naming what was wrong and what is allowed, before anything is written;
everything else happens in one transaction with the campaign locked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.utils import timezone

from battles.models import Battle, Engagement
from campaign.audit import REASON_MAX, actor_label, audit_record
from campaign.backup.document import campaign_export
from campaign.gm.repair.restore import IdMap, RestoreError, state_restore, table_battles_reopened
from campaign.models import (
    Campaign,
    CampaignRevert,
    Delivery,
    LedgerEntry,
    NationTurn,
    Order,
    Turn,
    TurnPhase,
    TurnReport,
)
from campaign.models.audit import AuditAction
from campaign.outbox.mail import campaign_reverted_record
from rules.calendar import deadline_after

#: Seeds are stored in a signed 64-bit column and must not be negative (Campaign's constraint).
MAX_SEED = 2**63 - 1


Actor = AbstractBaseUser | AnonymousUser | None


class RepairError(ValueError):
    """A repair that cannot be done as asked; the message says why and what is allowed. Nothing changed."""


@dataclass(frozen=True)
class RevertResult:
    revert: CampaignRevert
    turn: Turn
    archived: dict[str, int] = field(default_factory=dict)


# --- checks shared by the three ------------------------------------------------------------------


def reason_checked(reason: str | None) -> str:
    """The GM's reason, trimmed; refused when empty or longer than the audit log keeps."""
    cleaned = (reason or "").strip()
    if not cleaned:
        raise RepairError("A reason is required: say why, e.g. 'orders for France were lost in the post'.")
    if len(cleaned) > REASON_MAX:
        raise RepairError(f"The reason is {len(cleaned)} characters long; at most {REASON_MAX} are allowed.")
    return cleaned


def seed_checked(seed: int | None) -> int | None:
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise RepairError(f"Seed {seed} is out of range: give a whole number from 0 to {MAX_SEED}.")
    return seed


def campaign_repair_closed(campaign: Campaign) -> str | None:
    """Why no repair (revert, re-run, re-fight) can be made to ``campaign`` whatever is chosen, or None:
    the pages say it before asking for anything, and every repair refuses with the same words."""
    if campaign.status == Campaign.Status.ENDED:
        return f"{campaign.name} has ended; an ended campaign cannot be turned back."
    if campaign.status == Campaign.Status.SETUP:
        return f"{campaign.name} is still being set up: it has no turns to go back to."
    return None


def campaign_locked(campaign: Campaign) -> tuple[Campaign, Turn | None]:
    """The campaign row and its unresolved turn, locked (the beat sweep skips a locked turn); refused
    while a turn is resolving or when the campaign has ended or not started."""
    locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
    closed = campaign_repair_closed(locked)
    if closed is not None:
        raise RepairError(closed)
    turn = (
        Turn.objects.select_for_update()
        .filter(campaign=locked, status__in=[Turn.Status.OPEN, Turn.Status.RESOLVING])
        .first()
    )
    if turn is not None and turn.status == Turn.Status.RESOLVING:
        raise RepairError(
            f"Turn {turn.number} of {locked.name} is resolving now; wait until it has resolved (Turns list), "
            "then try again."
        )
    return locked, turn


def revertible_turns(campaign: Campaign) -> list[int]:
    """The turns the campaign can be turned back to: earlier than the open one and with a snapshot."""
    return list(
        Turn.objects.filter(campaign=campaign, number__lt=campaign.turn_number, snapshot__isnull=False)
        .order_by("number")
        .values_list("number", flat=True)
    )


# --- revert -------------------------------------------------------------------------------------


def campaign_revert(
    *, campaign: Campaign, turn_number: int, reason: str, actor: Actor, now: datetime | None = None
) -> RevertResult:
    """Turn ``campaign`` back to the start of turn ``turn_number`` (see the module's note)."""
    cleaned = reason_checked(reason)
    now = now or timezone.now()
    with transaction.atomic():
        locked, _ = campaign_locked(campaign)
        result = revert_locked(locked, turn_number, cleaned, actor, now, kind=CampaignRevert.Kind.REVERT)
        audit_record(
            campaign=locked,
            actor=actor,
            action=AuditAction.CAMPAIGN_REVERTED,
            summary=f"{locked.name} reverted to the start of turn {turn_number} (from turn {result.revert.from_turn}).",
            before={"open_turn": result.revert.from_turn},
            after={"open_turn": turn_number, "archived": result.archived, "revert": result.revert.pk},
            reason=cleaned,
        )
    campaign.refresh_from_db()
    return result


def revert_locked(
    campaign: Campaign,
    turn_number: int,
    reason: str,
    actor: Actor,
    now: datetime,
    *,
    kind: str,
    battle: str = "",
    battle_seed: int | None = None,
) -> RevertResult:
    """The revert itself, inside the caller's transaction with the campaign locked."""
    current = campaign.turn_number
    if turn_number < 1 or turn_number >= current:
        allowed = revertible_turns(campaign)
        raise RepairError(
            f"Turn {turn_number} is not an earlier turn of {campaign.name} (its open turn is {current}); "
            f"it can be turned back to turn {numbers_listed(allowed)}."
            if allowed
            else f"{campaign.name} has no earlier turn to go back to (its open turn is {current})."
        )
    target = Turn.objects.select_for_update().get(campaign=campaign, number=turn_number)
    if target.snapshot is None:
        allowed = revertible_turns(campaign)
        raise RepairError(
            f"Turn {turn_number} of {campaign.name} has no snapshot of its opening state to go back to; "
            + (f"turns with one: {numbers_listed(allowed)}." if allowed else "no earlier turn has one.")
        )
    snapshot = dict(target.snapshot)
    document = campaign_export(campaign=campaign, with_snapshots=False)
    later = Turn.objects.filter(campaign=campaign, number__gte=turn_number)
    revert = CampaignRevert.objects.create(
        campaign=campaign,
        kind=kind,
        to_turn=turn_number,
        from_turn=current,
        reason=reason,
        actor_id=actor.pk if actor is not None and actor.is_authenticated else None,
        actor_name=actor_label(actor)[:150],
        created_at=now,
        battle=battle[:200],
        battle_seed=battle_seed,
        archive={"document": document, "deliveries": _deliveries(later)},
    )
    archived = revert_preview(campaign=campaign, turn_number=turn_number)
    try:
        fleets, ships = state_restore(campaign=campaign, snapshot=snapshot)
    except RestoreError as exc:
        raise RepairError(f"Turn {turn_number}'s snapshot does not fit {campaign.name} any more: {exc}") from exc
    _resolution_undone(campaign, target)
    _orders_reopened(target, fleets, ships)
    NationTurn.objects.filter(turn=target).update(ready=False)
    opening: dict[str, Any] = next((t for t in snapshot.get("turns", []) if t.get("number") == turn_number), {})
    paused = campaign.status == Campaign.Status.PAUSED
    deadline = deadline_after(now, campaign.ruleset)
    _turn_reopened(target, dice_log=opening.get("dice_log", []), deadline=deadline)
    target.paused_at = now if paused else None
    target.save()
    campaign_reverted_record(
        campaign=campaign,
        turn=target,
        revert_id=revert.pk,
        now=now,
        data={
            "reason": reason,
            "battle": battle,
            "archived_turns": archived["later turns"],
            "deadline": deadline.isoformat(),
            "paused": paused,
        },
    )
    revert.archive["archived"] = archived
    CampaignRevert.objects.filter(pk=revert.pk).update(archive=revert.archive)
    return RevertResult(revert=revert, turn=target, archived=archived)


def _resolution_undone(campaign: Campaign, target: Turn) -> None:
    """The later turns go with everything hanging from them (orders, readiness, phases, reports, battles,
    engagements, table battles, mail); turn N keeps its orders, readiness rows and table markings but
    loses what its resolution wrote."""
    table_battles_reopened(turn=target)  # before the engagements they hold go
    Turn.objects.filter(campaign=campaign, number__gt=target.number).delete()
    Engagement.objects.filter(turn=target).delete()
    Battle.objects.filter(turn=target).delete()
    TurnPhase.objects.filter(turn=target).delete()
    TurnReport.objects.filter(turn=target).delete()
    Delivery.objects.filter(turn=target).delete()


def _turn_reopened(target: Turn, *, dice_log: list[Any], deadline: datetime) -> None:
    """Turn N open again as it opened (its strategic dice), with a new deadline; the caller saves it."""
    target.status = Turn.Status.OPEN
    target.resolved_at = None
    target.lease_token = None
    target.lease_until = None
    target.attempts = 0
    target.error = ""
    target.dice_log = dice_log
    target.deadline = deadline


def revert_preview(*, campaign: Campaign, turn_number: int) -> dict[str, int]:
    """What a revert to the start of ``turn_number`` takes off the record, counted for the GM: the later
    turns, and from turn N on the battles, reports and ledger lines; the later turns' orders."""
    later = Turn.objects.filter(campaign=campaign, number__gte=turn_number)
    snapshot_lines = (
        Turn.objects.filter(campaign=campaign, number=turn_number).values_list("snapshot__ledger", flat=True).first()
    )
    kept = len(snapshot_lines) if isinstance(snapshot_lines, list) else 0
    return {
        "later turns": later.filter(number__gt=turn_number).count(),
        "battles": Battle.objects.filter(turn__in=later).count(),
        "reports": TurnReport.objects.filter(turn__in=later).count(),
        "ledger lines": max(0, LedgerEntry.objects.filter(campaign=campaign).count() - kept),
        "orders of later turns": Order.objects.filter(turn__in=later.filter(number__gt=turn_number)).count(),
    }


_SINGULAR = {
    "later turns": "later turn",
    "battles": "battle",
    "reports": "report",
    "ledger lines": "ledger line",
    "orders of later turns": "order of later turns",
}


def archived_words(counts: dict[str, int]) -> list[str]:
    """A revert's counts as people read them: "1 later turn", "2 battles" (none left out)."""
    return [f"{n} {_SINGULAR.get(what, what) if n == 1 else what}" for what, n in counts.items() if n]


def _deliveries(turns: Any) -> list[dict[str, Any]]:
    """The mail of the turns a revert archives, as the GM would read it in the admin's Deliveries."""
    return [
        {
            "turn": d.turn.number if d.turn else None,
            "recipient": d.recipient.get_username(),
            "nation": d.nation.code if d.nation else None,
            "event": d.event,
            "state": d.state,
            "sent_at": d.sent_at.isoformat() if d.sent_at else None,
        }
        for d in Delivery.objects.filter(turn__in=turns)
        .select_related("turn", "recipient", "nation")
        .defer("turn__snapshot", "turn__dice_log")  # the turn's number only, not the campaign it opened with
        .order_by("pk")
    ]


_FLEET_KEYS = ("fleet", "to_fleet", "into")


def _orders_reopened(turn: Turn, fleets: IdMap, ships: IdMap) -> None:
    """Turn N's orders as they stood at its deadline: carried out or skipped no more, and naming the same
    fleets and ships (their ids change only if a snapshot from another database had to re-make them)."""
    orders = list(Order.objects.filter(turn=turn))
    for order in orders:
        order.outcome = Order.Outcome.PENDING
        order.outcome_note = ""
        if not (fleets.identity and ships.identity):
            body = dict(order.body)
            for key in _FLEET_KEYS:
                if isinstance(body.get(key), int):
                    body[key] = fleets.of(body[key])
            if isinstance(body.get("ship"), int):
                body["ship"] = ships.of(body["ship"])
            if isinstance(body.get("ships"), list):
                body["ships"] = [ships.of(i) if isinstance(i, int) else i for i in body["ships"]]
            order.body = body
            order.fleet_id = fleets.of(order.fleet_id)
    Order.objects.bulk_update(orders, ["outcome", "outcome_note", "body", "fleet"])


def numbers_listed(numbers: list[int]) -> str:
    if not numbers:
        return "none"
    if numbers == list(range(numbers[0], numbers[-1] + 1)) and len(numbers) > 2:
        return f"{numbers[0]} to {numbers[-1]}"
    return ", ".join(str(n) for n in numbers[:-1]) + (" or " if len(numbers) > 1 else "") + str(numbers[-1])
