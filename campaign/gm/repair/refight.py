"""The GM's re-fight of one battle (issue 11): a battle of the latest resolved turn fought again with a
new seed — the campaign is reverted to that turn's start (:func:`campaign.gm.repair.services.revert_locked`)
and the turn resolved again with only that battle's dice re-seeded, so everything after it (pursuits,
sieges, supply, income, reports) follows the new result and no EP, ship or report is counted twice.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime

from celery import signature
from django.db import transaction
from django.utils import timezone

from battles.models import Battle
from campaign.audit import audit_record
from campaign.gm.repair.services import (
    MAX_SEED,
    Actor,
    RepairError,
    campaign_locked,
    numbers_listed,
    reason_checked,
    revert_locked,
    seed_checked,
)
from campaign.models import Campaign, CampaignRevert, Turn
from campaign.models.audit import AuditAction
from campaign.plumbing.queueing import send_after_commit
from campaign.turn.lifecycle import TURN_RESOLVE_TASK, turn_claim
from rules.dice import reseed_key

#: The phases whose fights a GM can re-seed: phase 4's engagements, phase 5's port actions.
_PHASE_OF_KIND = {
    Battle.Kind.FLEET_ACTION: 4,
    Battle.Kind.RUNNING_THE_GUNS: 5,
    Battle.Kind.GARRISON_GUNS: 5,
    Battle.Kind.FIRESHIPS: 5,
}


@dataclass(frozen=True)
class RefightResult:
    revert: CampaignRevert
    turn: Turn
    battle_id: int
    battle_label: str
    seed: int
    seed_before: int | None


def battle_label(battle: Battle) -> str:
    """A battle as people name it: "fleet action in the Bay of Biscay, turn 3 (battle 17)"."""
    zone = battle.sea_zone.name
    where = f"{battle.port.name} ({zone})" if battle.port is not None else zone
    return f"{battle.get_kind_display().lower()} at {where}, turn {battle.turn.number} (battle {battle.pk})"


def refightable_battles(campaign: Campaign) -> list[Battle]:
    """The battles a GM can re-fight now: those of the latest resolved turn, while the next is open."""
    return list(
        Battle.objects.filter(campaign=campaign, turn__number=campaign.turn_number - 1)
        .select_related("turn", "sea_zone", "port")
        .defer("turn__snapshot", "turn__dice_log")  # labelled by the turn's number; the snapshot is megabytes
        .order_by("pk")
    )


def battle_refight(
    *,
    campaign: Campaign,
    battle_id: int,
    reason: str,
    seed: int | None = None,
    actor: Actor,
    now: datetime | None = None,
) -> RefightResult:
    """Fight battle ``battle_id`` again with ``seed`` (a random one if None): see the module's note.
    Only a battle of the latest resolved turn, while the next turn is open; otherwise revert first."""
    cleaned = reason_checked(reason)
    seed_checked(seed)
    now = now or timezone.now()
    with transaction.atomic():
        locked, open_now = campaign_locked(campaign)
        battle = Battle.objects.select_related("turn", "sea_zone", "port").filter(pk=battle_id).first()
        if battle is None or battle.campaign_id != locked.pk:
            ids = [b.pk for b in refightable_battles(locked)]
            raise RepairError(
                f"There is no battle {battle_id} in {locked.name}; "
                + (
                    f"battles that can be re-fought now: {numbers_listed(ids)}."
                    if ids
                    else "no battle can be re-fought now."
                )
            )
        label = battle_label(battle)
        turn = battle.turn
        if open_now is None or turn.number != open_now.number - 1:
            raise RepairError(
                f"The {label} was fought in turn {turn.number}, which is not the latest resolved turn"
                + (f" (that is turn {open_now.number - 1})" if open_now is not None and open_now.number > 1 else "")
                + f". Only a battle of the latest turn can be re-fought: revert {locked.name} to turn "
                f"{turn.number} first, then re-run that turn with a new seed."
            )
        phase = _PHASE_OF_KIND.get(Battle.Kind(battle.kind))
        if phase is None:
            raise RepairError(f"A {battle.get_kind_display().lower()} cannot be re-fought.")
        key = reseed_key(phase, battle.place, battle.sequence if phase == 4 else None)
        new_seed = seed if seed is not None else secrets.randbelow(MAX_SEED)
        if battle.seed is not None and new_seed == battle.seed:
            raise RepairError(f"Seed {new_seed} is the one the battle was fought with; give another seed.")
        result = revert_locked(
            locked,
            turn.number,
            cleaned,
            actor,
            now,
            kind=CampaignRevert.Kind.REFIGHT,
            battle=label,
            battle_seed=new_seed,
        )
        target = result.turn
        target.reseeds = {**(target.reseeds or {}), key: new_seed}
        target.save(update_fields=["reseeds"])
        if not turn_claim(turn_id=target.pk, now=now):  # pragma: no cover - the turn is locked by us
            raise RepairError(f"Turn {target.number} of {locked.name} could not be queued; nothing was changed.")
        send_after_commit(signature(TURN_RESOLVE_TASK, args=(target.pk,)))
        audit_record(
            campaign=locked,
            actor=actor,
            action=AuditAction.BATTLE_REFOUGHT,
            summary=f"The {label} is re-fought with seed {new_seed}; turn {turn.number} is resolved again.",
            before={"battle": battle.pk, "seed": battle.seed, "winner": battle.winner},
            after={"seed": new_seed, "revert": result.revert.pk, "archived": result.archived},
            reason=cleaned,
        )
    campaign.refresh_from_db()
    target.refresh_from_db()
    return RefightResult(
        revert=result.revert,
        turn=target,
        battle_id=battle_id,
        battle_label=label,
        seed=new_seed,
        seed_before=battle.seed,
    )


def battle_refought(*, turn: Turn, result: RefightResult) -> Battle | None:
    """The battle that took the re-fought one's place once its turn has resolved again (same place)."""
    reseeded = result.turn.reseeds or {}
    for battle in Battle.objects.filter(turn=turn).select_related("turn", "sea_zone", "port"):
        phase = _PHASE_OF_KIND.get(Battle.Kind(battle.kind))
        if phase is not None and reseed_key(phase, battle.place, battle.sequence if phase == 4 else None) in reseeded:
            return battle
    return None
