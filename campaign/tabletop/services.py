"""Battles on the table (issue 15): the services of the flow, from marking a place before the turn
resolves to the approved result that lets the turn resolve on.

* Before the turn resolves: the GM marks a sea zone or a port "to the table"
  (:func:`table_mark`); a player asks for one (:func:`table_mark` with a nation), and the GM approves
  or declines (:func:`table_request_decide`) or withdraws a marking (:func:`table_unmark`). The house
  rule ``table.above_ships`` marks large battles by itself when phase 4 finds them.
* While the turn waits: a side's player enters the result (:func:`table_result_enter`), the other
  side's player confirms it (:func:`table_result_confirm`) or disputes it
  (:func:`table_result_dispute`: it stays open for the GM); the GM may enter it alone. The GM approves
  a confirmed result (:func:`table_result_approve`): it is applied exactly as the dice's would be
  (:mod:`battles.engagements.table`) and, once nothing else waits at the table, the turn resolves on.
* At any time the GM may have it fought by the usual dice instead (:func:`table_fight_automatically`).
* A besieged port's storming (``kind="storming"``) follows the same flow: marked for a port, held by
  phase 6 when its siege roll would be made, its result the units each side lost and whether the port
  was taken, applied by the code phase 6 applies its d10 with (:mod:`campaign.turn.storming`).

Every refusal is a :class:`~battles.engagements.table.TableResultRefused` naming what was wrong and
what is allowed; a refused call changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone

from battles.engagements.table import (
    TableResultRefused,
    table_fall_back,
    table_result_apply,
    table_result_check,
    table_sides,
)
from battles.models import Battle, TabletopBattle
from battles.tabletop.pack import (
    pack_roll,
    setup_dice_check,
    wind_dice_check,
)
from battles.tabletop.storming import storming_pack_roll
from campaign.models import Campaign, Nation, Order, Turn
from campaign.models.audit import AuditAction
from campaign.selectors import diplomacy_for_campaign
from campaign.tabletop.record import (
    Actor,
    gm_entered,
    pack_record,
    player_may_enter,
    result_keys_check,
    table_audit,
    table_history_add,
    table_place,
)
from campaign.tabletop.thread import table_post_add
from campaign.turn.lifecycle import turn_table_resume
from campaign.turn.storming import storming_result_check, storming_settle
from fleets.models import Fleet
from ports.models import LandUnit, Port, SeaZone
from rules.siege import SiegeResultRefused

__all__ = [
    "TableResultRefused",
    "table_fight_automatically",
    "table_mark",
    "table_pack_roll",
    "table_request_decide",
    "table_result_approve",
    "table_result_confirm",
    "table_result_dispute",
    "table_result_enter",
    "table_setup_dice_set",
    "table_side_of",
    "table_unmark",
]


def _refuse(message: str, field: str = "status", code: str = "not_now") -> TableResultRefused:
    return TableResultRefused(message, field=field, code=code)


def _storming_may_ask(*, campaign: Campaign, turn: Turn, port: Port, nation: Nation) -> None:
    """A player may ask for a storming only for a port their nation holds, or besieges (units ashore
    there, or landing there this turn, at war with its owner)."""
    if port.owner_id == nation.pk:
        return
    at_war = port.owner_id is not None and diplomacy_for_campaign(campaign_id=campaign.pk).at_war(
        nation.pk, port.owner_id
    )
    ashore = LandUnit.objects.filter(port=port, nation=nation, state=LandUnit.State.ASHORE).exists()
    landing = Order.objects.filter(
        turn=turn, nation=nation, kind=Order.Kind.LAND, outcome=Order.Outcome.PENDING, body__port=port.key
    ).exists()
    if not (at_war and (ashore or landing)):
        raise _refuse(
            f"{nation.name} neither holds nor besieges {port.name}: only the port's owner or a nation at war with "
            "it that has land units ashore there (or landing there this turn) can ask for its storming.",
            field="place",
            code="not_a_side",
        )


def _has_forces_at(*, nation: Nation, zone: SeaZone, port: Port | None) -> bool:
    """Whether ``nation`` has a fleet in ``port`` (a port's battle) or anywhere in ``zone``."""
    fleets = Fleet.objects.filter(nation=nation, sea_zone=zone)
    if port is not None:
        fleets = fleets.filter(port=port) | Fleet.objects.filter(nation=nation, sea_zone=zone, port__isnull=True)
    return fleets.exists()


@transaction.atomic
def table_mark(
    *,
    campaign: Campaign,
    place: str,
    nation: Nation | None = None,
    kind: str = TabletopBattle.Kind.BATTLE,
    actor: Actor = None,
) -> TabletopBattle:
    """Mark a sea zone or a port (by key) "to the table" for the open turn: by the GM (``nation``
    None: marked at once) or asked for by ``nation``'s player (the GM decides). A GM marking a place
    a player asked for approves the request. ``kind="storming"``: a port's siege is stormed on the
    table instead of phase 6's d10 (a player asks only for a port their nation holds or besieges)."""
    if kind not in TabletopBattle.Kind.values:
        raise _refuse(f"kind: {kind!r}; use battle or storming.", field="kind", code="invalid")
    storming = kind == TabletopBattle.Kind.STORMING
    turn = Turn.objects.select_for_update().filter(campaign=campaign, status=Turn.Status.OPEN).first()
    if turn is None:
        what = "a storming" if storming else "a battle"
        raise _refuse(f"{campaign.name} has no open turn: {what} can go to the table only before the turn resolves.")
    port = Port.objects.filter(campaign=campaign, key=place).select_related("sea_zone").first()
    zone = port.sea_zone if port is not None else SeaZone.objects.filter(campaign=campaign, key=place).first()
    if zone is None:
        raise _refuse(
            f"{place!r} is neither a sea zone nor a port of {campaign.name}; choose one from the list.",
            field="place",
            code="unknown_place",
        )
    if storming and port is None:
        raise _refuse(
            f"{zone.name} is a sea zone: only a port can be stormed; choose a besieged port.",
            field="place",
            code="not_a_port",
        )
    if storming and nation is not None:
        assert port is not None
        _storming_may_ask(campaign=campaign, turn=turn, port=port, nation=nation)
    where = port.name if port is not None else zone.name
    if not storming and nation is not None and not _has_forces_at(nation=nation, zone=zone, port=port):
        # A nation asks only where it has ships: otherwise the table (its pack, its status) would tell
        # it of a battle it never witnessed.
        raise _refuse(
            f"{nation.name} has no fleet at {where}: a nation can ask for a battle on the table only where "
            "its own ships are.",
            field="place",
            code="not_a_side",
        )
    name = f"storming of {where}" if storming else f"battle at {where}"
    existing = TabletopBattle.objects.select_for_update().filter(turn=turn, kind=kind, place=place).first()
    if existing is not None:
        if nation is None and existing.status in (TabletopBattle.Status.REQUESTED, TabletopBattle.Status.DECLINED):
            existing.status = TabletopBattle.Status.MARKED
            existing.save(update_fields=["status", "updated_at"])
            table_audit(existing, actor=actor, action=AuditAction.TABLE_SENT, summary=f"Sent the {name} to the table")
            return existing
        raise _refuse(
            f"The {name} is already {existing.get_status_display().lower()} this turn.",
            field="place",
            code="already",
        )
    table = TabletopBattle.objects.create(
        campaign=campaign,
        turn=turn,
        kind=kind,
        place=place,
        sea_zone=zone,
        port=port,
        origin=TabletopBattle.Origin.GM if nation is None else TabletopBattle.Origin.PLAYER,
        requested_by=nation,
        status=TabletopBattle.Status.MARKED if nation is None else TabletopBattle.Status.REQUESTED,
    )
    if nation is None:
        table_audit(table, actor=actor, action=AuditAction.TABLE_SENT, summary=f"Sent the {name} to the table")
    else:
        summary = f"{nation.name} asked for the {name} to go to the table"
        table_audit(table, actor=actor, action=AuditAction.TABLE_ASKED, summary=summary)
    return table


def _locked(table: TabletopBattle) -> TabletopBattle:
    # The marking's row only: FOR UPDATE over the join would also lock its turn and campaign, stalling
    # every other writer of the campaign. Whoever must see the turn whole locks it itself
    # (turn_table_resume, the pack's dice log).
    return (
        TabletopBattle.objects.select_for_update(of=("self",))
        .select_related("turn", "campaign", "sea_zone", "port", "engagement", "requested_by")
        .get(pk=table.pk)
    )


@transaction.atomic
def table_request_decide(*, table: TabletopBattle, approve: bool, actor: Actor = None) -> TabletopBattle:
    """The GM's answer to a player's request: to the table, or fought by the dice as usual."""
    table = _locked(table)
    if table.status != TabletopBattle.Status.REQUESTED:
        raise _refuse(f"This is not a request awaiting an answer: it is {table.get_status_display().lower()}.")
    table.status = TabletopBattle.Status.MARKED if approve else TabletopBattle.Status.DECLINED
    table.save(update_fields=["status", "updated_at"])
    asker = table.requested_by.name if table.requested_by is not None else "A player"
    if approve:
        action, summary = AuditAction.TABLE_REQUEST_APPROVED, f"Approved {asker}'s request: {table_place(table)}"
    else:
        action, summary = AuditAction.TABLE_REQUEST_DECLINED, f"Declined {asker}'s request: {table_place(table)}"
    table_audit(table, actor=actor, action=action, summary=summary + (" goes to the table" if approve else ""))
    return table


@transaction.atomic
def table_unmark(*, table: TabletopBattle, actor: Actor = None) -> None:
    """The GM withdraws a marking or a request before the turn resolves."""
    table = _locked(table)
    if table.status not in (*TabletopBattle.BEFORE, TabletopBattle.Status.DECLINED):
        raise _refuse("Only a marking made for a turn not yet resolved can be withdrawn.")
    table_audit(
        table, actor=actor, action=AuditAction.TABLE_UNMARKED, summary=f"Withdrew {table_place(table)} from the table"
    )
    table.delete()


def table_side_of(table: TabletopBattle, nation: Nation) -> int | None:
    """The side (0, 1) ``nation`` fought on in the battle held at the table, or None (a storming:
    side 0 the besiegers, side 1 the garrison)."""
    for k, codes in enumerate(table.side_nations()):
        if nation.code in codes:
            return k
    return None


def _at_table(table: TabletopBattle) -> TabletopBattle:
    table = _locked(table)
    if table.status not in TabletopBattle.OUTSTANDING:
        raise _refuse(f"This battle is not waiting for a result: it is {table.get_status_display().lower()}.")
    return table


@transaction.atomic
def table_result_enter(
    *, table: TabletopBattle, body: Mapping[str, Any], side: int | None, by: str, actor: Actor = None
) -> TabletopBattle:
    """Enter (or change) the result: by a side's player (``side``; the other side must confirm it)
    or by the GM alone (``side`` None: confirmed for both, awaiting only the GM's approval). The
    result is checked against the battle as it stands and refused, changing nothing, if it cannot be;
    a side's player cannot replace a disputed, confirmed or GM-entered result (:func:`_player_may_enter`)."""
    table = _at_table(table)
    if side is not None:
        player_may_enter(table)
    result_keys_check(table, body)
    if table.is_storming:
        try:
            storming_result_check(table, body)
        except SiegeResultRefused as refused:
            raise TableResultRefused(str(refused), field=refused.field, code=refused.code) from refused
    else:
        assert table.engagement is not None
        table_result_check(table_sides(table.engagement), body)
    table.result = dict(body)
    table.entered_by = by[:150]
    if side is None:
        table.confirmed = [0, 1]
        table.status = TabletopBattle.Status.CONFIRMED
    else:
        table.confirmed = [side]
        table.status = TabletopBattle.Status.ENTERED
    table_history_add(table, act="entered" if side is not None else "gm_entered", side=side, actor=actor)
    table.save(update_fields=["result", "entered_by", "confirmed", "status", "history", "updated_at"])
    who = "The game master" if side is None else f"Side {side + 1}"
    table_audit(
        table,
        actor=actor,
        action=AuditAction.TABLE_RESULT_ENTERED,
        summary=f"{who} entered the result of {table_place(table)}",
        after={"result": table.result, "side": side},
    )
    return table


@transaction.atomic
def table_result_confirm(*, table: TabletopBattle, side: int, actor: Actor = None) -> TabletopBattle:
    """A side's player agrees with the result entered; with both sides agreed it awaits the GM."""
    table = _at_table(table)
    if table.status != TabletopBattle.Status.ENTERED:
        raise _refuse("There is no entered result awaiting confirmation.")
    if side in table.confirmed:
        raise _refuse("Your side has already confirmed this result; the other side must confirm it.", code="already")
    table.confirmed = sorted({*table.confirmed, side})
    if table.confirmed == [0, 1]:
        table.status = TabletopBattle.Status.CONFIRMED
    table_history_add(table, act="confirmed", side=side, actor=actor)
    table.save(update_fields=["confirmed", "status", "history", "updated_at"])
    table_audit(
        table,
        actor=actor,
        action=AuditAction.TABLE_RESULT_CONFIRMED,
        summary=f"Side {side + 1} confirmed the result of {table_place(table)}",
    )
    return table


@transaction.atomic
def table_result_dispute(*, table: TabletopBattle, side: int, reason: str, actor: Actor = None) -> TabletopBattle:
    """A side's player disagrees: the result stays open for the GM, who enters the one that stands.
    The reason is the first post of the battle's thread (mailed to the others)."""
    table = _at_table(table)
    reason = reason.strip()
    if not reason:
        raise _refuse("Say what is wrong with the entered result, so the game master can decide.", field="reason")
    if table.status not in (TabletopBattle.Status.ENTERED, TabletopBattle.Status.CONFIRMED):
        raise _refuse("There is no entered result to dispute.")
    if gm_entered(table):
        raise _refuse(
            "The game master entered this result: it stands. Write in the battle's thread to ask the game "
            "master to look again.",
            code="not_now",
        )
    table.status = TabletopBattle.Status.DISPUTED
    table.confirmed = [k for k in table.confirmed if k != side]
    table.dispute = f"Side {side + 1}: {reason}"[:2000]
    table_history_add(table, act="disputed", side=side, actor=actor)
    table.save(update_fields=["status", "confirmed", "dispute", "history", "updated_at"])
    table_audit(
        table,
        actor=actor,
        action=AuditAction.TABLE_RESULT_DISPUTED,
        summary=f"Side {side + 1} disputed the result of {table_place(table)}",
        reason=reason,
    )
    table_post_add(table=table, actor=actor, side=side, body=reason)
    return table


@transaction.atomic
def table_result_approve(*, table: TabletopBattle, actor: Actor = None) -> Battle | None:
    """The GM approves the confirmed result: it is applied as the dice's result would be (prizes,
    retreats, lost admirals, the battle page and its report; a storming's as phase 6 applies its d10:
    None, no battle page), and the turn resolves on once nothing else waits at the table."""
    table = _at_table(table)
    if table.status != TabletopBattle.Status.CONFIRMED:
        raise _refuse(
            "Only a result confirmed by both sides (or entered by the game master) can be approved; "
            f"this one is {table.get_status_display().lower()}."
        )
    # The pack as it stands now, before the result changes the forces it lists: the battle's record.
    now = timezone.now()
    table.record = pack_record(table, approved_at=now)
    table.approved_at = now
    # Before the result is applied: the battle's report says who entered, confirmed, disputed, decided.
    table_history_add(table, act="approved", side=None, actor=actor)
    TabletopBattle.objects.filter(pk=table.pk).update(history=table.history)
    battle: Battle | None = None
    if table.is_storming:
        try:
            storming_settle(table=table, body=table.result, now=timezone.now())
        except SiegeResultRefused as refused:
            raise TableResultRefused(str(refused), field=refused.field, code=refused.code) from refused
    else:
        battle = table_result_apply(table=table, body=table.result)
    table.refresh_from_db(fields=["pack"])
    table.status = TabletopBattle.Status.APPLIED
    table.save(update_fields=["status", "record", "approved_at", "history", "updated_at"])
    table_audit(
        table,
        actor=actor,
        action=AuditAction.TABLE_RESULT_APPROVED,
        summary=f"Approved and applied the result of {table_place(table)}",
        after={"result": table.result},
    )
    turn_table_resume(turn_id=table.turn_id, now=timezone.now())
    return battle


@transaction.atomic
def table_fight_automatically(*, table: TabletopBattle, actor: Actor = None) -> TabletopBattle:
    """The GM's fall-back, at any time before the result is applied: the battle is fought by the
    server's usual dice (with the seed it always had) when phase 4 runs; a storming by the d10 phase 6
    would have rolled (before phase 6: phase 6 rolls it; held: rolled as the turn resolves on)."""
    table = _locked(table)
    settled = (TabletopBattle.Status.APPLIED, TabletopBattle.Status.AUTOMATIC, TabletopBattle.Status.NO_BATTLE)
    if table.status in settled:
        state = table.get_status_display().lower()
        raise _refuse(f"This battle can no longer change how it is fought: it is {state}.")
    outstanding = table.status in TabletopBattle.OUTSTANDING
    if outstanding and not table.is_storming:
        table_fall_back(table=table)
    table.status = TabletopBattle.Status.AUTOMATIC
    table.note = "The game master had it fought by the server's dice."
    table_history_add(table, act="automatic", side=None, actor=actor)
    table.save(update_fields=["status", "note", "history", "updated_at"])
    table_audit(
        table,
        actor=actor,
        action=AuditAction.TABLE_FOUGHT_AUTOMATICALLY,
        summary=f"Had {table_place(table)} fought by the server's dice instead of on the table",
    )
    if outstanding:
        turn_table_resume(turn_id=table.turn_id, now=timezone.now())
    return table


@transaction.atomic
def table_pack_roll(*, table: TabletopBattle, actor: Actor = None) -> TabletopBattle:
    """The group asks the server to roll the pack's dice (a battle's initial wind and first wind speed,
    inshore its set-up dice and tide-effect die; a storming's first fires, the besiegers' then the garrison's,
    and its tide's set-up dice and tide-effect die): rolled
    once, kept with the battle (its report's dice when applied) and in the turn's strategic dice log,
    the same canonical log as every other die of the turn. Asking again changes nothing."""
    table = _locked(table)
    if table.status not in TabletopBattle.OUTSTANDING:
        what = "a storming" if table.is_storming else "a battle"
        raise _refuse(
            f"The pack's dice are rolled only for {what} waiting at the table; "
            f"this one is {table.get_status_display().lower()}."
        )
    if (table.pack or {}).get("dice"):
        return table
    turn = Turn.objects.select_for_update().get(pk=table.turn_id)
    if table.is_storming:
        records, rolled, tide_setup = storming_pack_roll(
            table, campaign_seed=table.campaign.seed, turn_number=turn.number
        )
        table.pack = {**(table.pack or {}), "dice": records, "rolled": rolled, "setup": tide_setup}
    else:
        records, rolled, setup = pack_roll(table, campaign_seed=table.campaign.seed, turn_number=turn.number)
        table.pack = {**(table.pack or {}), "dice": records, "rolled": rolled}
        if setup is not None and not (table.pack.get("setup") or {}):
            table.pack["setup"] = setup
    table.save(update_fields=["pack", "updated_at"])
    Turn.objects.filter(pk=turn.pk).update(dice_log=[*turn.dice_log, *records])
    table_audit(
        table,
        actor=actor,
        action=AuditAction.TABLE_DICE,
        summary=f"Had the server roll the pack's dice for {table_place(table)}",
        after={"rolled": table.pack.get("rolled")},
    )
    return table


@transaction.atomic
def table_setup_dice_set(
    *,
    table: TabletopBattle,
    attacker: object = None,
    defender: object = None,
    wind_initial: object = None,
    wind_speed: object = None,
    actor: Actor = None,
) -> TabletopBattle:
    """Dice the group threw at the table: the set-up dice for the tide (seed 001; the pack then shows
    the tides of the day they give) and/or the wind dice (seed 004; the pack shows the wind they
    give). Refused, changing nothing, if they are not dice; dice the server rolled are kept."""
    table = _locked(table)
    if table.is_storming:
        raise _refuse("A storming's pack has no wind or tide: there are no set-up dice to enter.")
    if table.status not in TabletopBattle.OUTSTANDING:
        raise _refuse("Dice are entered only for a battle waiting at the table.")
    pack = dict(table.pack or {})
    try:
        if attacker is not None or defender is not None:
            pack["setup"] = setup_dice_check(attacker, defender)
        if wind_initial is not None or wind_speed is not None:
            if pack.get("dice"):
                raise ValueError("The server already rolled the wind for this battle.")
            pack["rolled"] = wind_dice_check(wind_initial, wind_speed)
    except ValueError as bad:
        raise _refuse(str(bad), field="dice", code="invalid") from bad
    table.pack = pack
    table.save(update_fields=["pack", "updated_at"])
    given = {"setup": pack.get("setup"), "rolled": pack.get("rolled")}
    summary = f"Entered the dice thrown at the table for {table_place(table)}"
    table_audit(table, actor=actor, action=AuditAction.TABLE_DICE, summary=summary, after=given)
    return table
