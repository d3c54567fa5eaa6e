"""The GM's moderation of dispatches: hide a dispatch from players, mute a nation for some turns, lift
a mute before it runs out. Each is kept (nothing is deleted) and logged in the GM desk's audit; the
players' side of dispatches is :mod:`campaign.dispatches.services`.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction

from campaign.audit import audit_record
from campaign.dispatches.services import MAX_MUTE_TURNS, DispatchRefused, clean_reason
from campaign.models import AuditAction, Campaign, Dispatch, DispatchMute, Nation


@transaction.atomic
def dispatch_hide(
    *, dispatch: Dispatch, actor: AbstractBaseUser | AnonymousUser, reason: str, now: datetime
) -> Dispatch:
    """The GM hides a dispatch from players: kept, marked hidden, with who, when and why, and logged
    in the GM desk's audit."""
    text = clean_reason(reason, what="for hiding it")
    dispatch = (
        Dispatch.objects.select_for_update(of=("self",))
        .select_related("campaign", "sender", "conversation")
        .get(pk=dispatch.pk)
    )
    if dispatch.hidden_at is not None:
        raise DispatchRefused("This dispatch is already hidden.")
    dispatch.hidden_at, dispatch.hidden_by_id, dispatch.hidden_reason = now, actor.pk, text
    dispatch.save(update_fields=["hidden_at", "hidden_by", "hidden_reason"])
    sender = dispatch.sender.name if dispatch.sender is not None else "The Admiralty"
    audit_record(
        campaign=dispatch.campaign,
        actor=actor,
        action=AuditAction.DISPATCH_HIDDEN,
        summary=(
            f"Dispatch from {sender} in “{dispatch.conversation.subject}” (turn {dispatch.turn}) hidden from players"
        ),
        before={"dispatch": dispatch.pk, "hidden": False},
        after={"dispatch": dispatch.pk, "hidden": True},
        reason=text,
    )
    return dispatch


@transaction.atomic
def nation_mute(
    *,
    campaign: Campaign,
    nation: Nation,
    turns: int,
    reason: str,
    actor: AbstractBaseUser | AnonymousUser,
    now: datetime,
) -> DispatchMute:
    """The GM silences a nation's dispatches for ``turns`` turns, this one included."""
    if nation.campaign_id != campaign.pk:
        raise DispatchRefused("That nation is not in this campaign.", field="nation")
    if not 1 <= turns <= MAX_MUTE_TURNS:
        raise DispatchRefused(f"Mute for 1 to {MAX_MUTE_TURNS} turns, not {turns}.", field="turns")
    text = clean_reason(reason, what="for the mute")
    mute = DispatchMute.objects.create(
        campaign=campaign,
        nation=nation,
        from_turn=campaign.turn_number,
        until_turn=campaign.turn_number + turns - 1,
        reason=text,
        muted_by_id=actor.pk,
        created_at=now,
    )
    audit_record(
        campaign=campaign,
        actor=actor,
        action=AuditAction.NATION_MUTED,
        summary=(
            f"{nation.name} muted for {turns} turn{'s' if turns != 1 else ''}: no dispatches until the end of "
            f"turn {mute.until_turn}"
        ),
        after={"nation": nation.code, "from_turn": mute.from_turn, "until_turn": mute.until_turn},
        reason=text,
    )
    return mute


@transaction.atomic
def nation_unmute(
    *, campaign: Campaign, mute_id: int, reason: str, actor: AbstractBaseUser | AnonymousUser, now: datetime
) -> DispatchMute:
    """The GM lifts a nation's mute before it runs out: kept, marked lifted, and audited like the mute."""
    text = clean_reason(reason, what="for lifting the mute")
    mute = (
        DispatchMute.objects.select_for_update(of=("self",))
        .select_related("nation")
        .filter(pk=mute_id, campaign=campaign)
        .first()
    )
    if mute is None:
        raise DispatchRefused("No such mute in this campaign.")
    if mute.lifted_at is not None:
        raise DispatchRefused(f"The mute of {mute.nation.name} has already been lifted.")
    if mute.until_turn < campaign.turn_number:
        raise DispatchRefused(f"The mute of {mute.nation.name} ran out with turn {mute.until_turn}.")
    mute.lifted_at, mute.lifted_by_id = now, actor.pk
    mute.save(update_fields=["lifted_at", "lifted_by"])
    audit_record(
        campaign=campaign,
        actor=actor,
        action=AuditAction.NATION_UNMUTED,
        summary=(
            f"{mute.nation.name}'s mute lifted in turn {campaign.turn_number}: it may send dispatches again "
            f"(it was silenced until the end of turn {mute.until_turn})"
        ),
        before={"nation": mute.nation.code, "from_turn": mute.from_turn, "until_turn": mute.until_turn},
        after={"nation": mute.nation.code, "lifted_in_turn": campaign.turn_number},
        reason=text,
    )
    return mute
