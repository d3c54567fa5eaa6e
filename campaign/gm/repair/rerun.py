"""The GM's re-run of the open turn (issue 11): resolved now through the workers, with the campaign's
seed (the same orders and seed give the same result) or with a new seed and a reason — see
:mod:`campaign.gm.repair.services` for the checks the repairs share.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from celery import signature
from django.db import transaction
from django.utils import timezone

from campaign.audit import REASON_MAX, audit_record
from campaign.gm.repair.services import Actor, RepairError, campaign_locked, reason_checked, seed_checked
from campaign.models import Campaign, Turn
from campaign.models.audit import AuditAction
from campaign.plumbing.queueing import send_after_commit
from campaign.turn.lifecycle import TURN_RESOLVE_TASK, turn_claim


@dataclass(frozen=True)
class RerunResult:
    turn: Turn
    seed: int
    seed_before: int


def turn_rerun(
    *, campaign: Campaign, reason: str = "", seed: int | None = None, actor: Actor, now: datetime | None = None
) -> RerunResult:
    """Resolve the open turn now through the workers (as at its deadline). With ``seed`` different from
    the campaign's, the campaign takes that seed first — every die from this turn on changes — and a
    reason is required. The turn is queued once the transaction commits."""
    seed_checked(seed)
    now = now or timezone.now()
    with transaction.atomic():
        locked, turn = campaign_locked(campaign)
        if turn is None:
            raise RepairError(f"{locked.name} has no open turn to re-run.")
        before = locked.seed
        new_seed = before if seed is None else seed
        cleaned = (reason or "").strip()
        if new_seed != before:
            cleaned = reason_checked(reason)
            Campaign.objects.filter(pk=locked.pk).update(seed=new_seed)
        elif len(cleaned) > REASON_MAX:
            cleaned = reason_checked(reason)
        if not turn_claim(turn_id=turn.pk, now=now):
            raise RepairError(f"Turn {turn.number} of {locked.name} was claimed a moment ago; it is resolving.")
        send_after_commit(signature(TURN_RESOLVE_TASK, args=(turn.pk,)))
        same = new_seed == before
        audit_record(
            campaign=locked,
            actor=actor,
            action=AuditAction.TURN_RERUN,
            summary=f"Turn {turn.number} of {locked.name} re-run "
            + ("with the campaign's seed." if same else f"with a new seed ({before} → {new_seed})."),
            before={"seed": before},
            after={"seed": new_seed},
            reason=cleaned,
        )
    campaign.refresh_from_db()
    turn.refresh_from_db()
    return RerunResult(turn=turn, seed=new_seed, seed_before=before)
