"""Changes of a nation's order list for the open turn: add, update, withdraw, replace.

Each runs in one transaction with the turn row locked (so the turn runner's claim waits for it, and it
for the claim) and, when it refuses, raises :class:`~campaign.orders.errors.OrderRefused` and changes
nothing. The stored list stays valid as a whole, checked in listed order by
:mod:`campaign.orders.validator`: a change that would make another order of the list refused is
refused too. Resolution does not call these checks again; it re-checks what can have changed since
(paths, port entry, landings…) on its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone

from campaign.audit import CommandLine, acting_for_nation_is_audited, audit_record
from campaign.models import Campaign, Nation, NationTurn, Order, Turn
from campaign.models.audit import AuditAction
from campaign.orders.context import OrderContext
from campaign.orders.deadline import LateEntry, deadline_gate
from campaign.orders.describe import order_in_words_checked
from campaign.orders.errors import OrderRefused, OrdersRefused, RefusalCode
from campaign.orders.schema import json_type
from campaign.orders.selectors import order_bodies_for_turn, orders_for_turn
from campaign.orders.turn_lock import list_unchanged, turn_locked
from campaign.orders.validator import CleanOrder, order_check, orders_check, orders_validate

#: Who changes a nation's orders: the signed-in user (its player, or a GM acting in its name), the
#: command line (``submit_orders``), or ``None`` when the caller is the nation's own player by
#: construction (tests, the demo). A GM's or the command line's change is recorded in the audit log.
Actor = AbstractBaseUser | AnonymousUser | CommandLine | None


def _order_json(order: Order) -> dict[str, Any]:
    return {"position": order.position, "kind": order.kind, "body": order.body}


def _audit_for_nation(
    *,
    nation: Nation,
    actor: Actor,
    action: str,
    summary: str,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    late: LateEntry | None = None,
) -> None:
    """Record an order change made in ``nation``'s name by someone other than its player (issue 11),
    in the change's transaction; the player's own changes are theirs and are not audited. A change
    after the deadline (``late``) says so and keeps the GM's reason."""
    if not acting_for_nation_is_audited(actor, nation.player_id):
        return
    campaign = Campaign.objects.get(pk=nation.campaign_id)
    audit_record(
        campaign=campaign,
        actor=None if isinstance(actor, CommandLine) else actor,
        action=action,
        summary=f"For {nation.name}{', after the deadline' if late is not None else ''}: {summary}",
        before=before,
        after=after,
        reason=late.reason if late is not None else "",
    )


def _late_fields(late: LateEntry | None) -> dict[str, str]:
    """The late mark an order entered now carries (empty before the deadline)."""
    return {"late_by": late.by, "late_reason": late.reason} if late is not None else {"late_by": "", "late_reason": ""}


def _change_gate(
    *, turn: Turn, nation: Nation, actor: Actor, version: str | None, late_reason: str = "", entering: bool = True
) -> LateEntry | None:
    """The checks every change of the list makes once its turn is locked, in this order: the deadline
    (:func:`deadline_gate`; returns the late mark), then the list's ``version`` (:func:`list_unchanged`)."""
    late = deadline_gate(turn=turn, nation=nation, actor=actor, late_reason=late_reason, entering=entering)
    list_unchanged(nation=nation, turn=turn, version=version)
    return late


def _mark_submitted(*, nation: Nation, turn: Turn) -> None:
    """The nation has submitted orders; a change of orders after marking ready clears "ready" (the
    turn must not resolve while its player is still editing, issue 26) unless the campaign's house
    option ``orders.keep_ready`` keeps it. ``NationTurn.ready_cleared`` tells the player why."""
    keep = bool(turn.campaign.ruleset["orders.keep_ready"])
    # One upsert (INSERT … ON CONFLICT on the one-row-per-nation constraint) instead of
    # update_or_create's savepoint, locking read and write: this runs on every order change. Raw SQL
    # because the ready mark's update depends on its stored value, which bulk_create cannot say.
    table = connection.ops.quote_name(NationTurn._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (turn_id, nation_id, ready, ready_cleared, submitted_at) "  # names only
            "VALUES (%s, %s, false, false, %s) ON CONFLICT (turn_id, nation_id) DO UPDATE SET "
            "submitted_at = EXCLUDED.submitted_at, "
            f"ready_cleared = {table}.ready_cleared OR ({table}.ready AND NOT %s), "
            f"ready = {table}.ready AND %s",
            [turn.pk, nation.pk, timezone.now(), keep, keep],
        )


def _store_refused(exc: IntegrityError) -> OrderRefused:
    # The checks refuse every conflict the database knows of; this guards the last gap. No savepoint
    # of its own is needed: the refusal leaves the service's atomic block, which rolls back.
    return OrderRefused(
        f"The orders conflict with orders stored meanwhile; reload them and try again ({exc}).",
        code=RefusalCode.STORE_CONFLICT,
    )


@transaction.atomic
def order_add(
    *,
    nation: Nation,
    body: object,
    actor: Actor = None,
    named_turn: int | None = None,
    version: str | None = None,
    late_reason: str = "",
) -> Order:
    """Append an order at the end of the nation's list for the open turn.

    Every change of the list takes ``named_turn``, the number of the turn the writer read (refused with
    :class:`TurnClosed` unless it is still the open one), and ``version``, the list version it read
    (refused with :class:`ListChanged` if the list changed since); either may be None (not named).
    After the deadline only a GM changes a missing nation's list (:func:`deadline_gate`), and an order
    the GM enters then needs ``late_reason``."""
    turn = turn_locked(campaign_id=nation.campaign_id, named=named_turn)
    late = _change_gate(turn=turn, nation=nation, actor=actor, version=version, late_reason=late_reason)
    existing = order_bodies_for_turn(nation_id=nation.pk, turn_id=turn.pk)
    ctx = OrderContext(nation=nation, turn=turn)
    for _, listed in existing:
        ctx.absorb(listed)
    clean = order_check(ctx, body)
    position = (max((p for p, _ in existing), default=0)) + 1
    try:
        order = Order.objects.create(
            campaign_id=nation.campaign_id,
            turn=turn,
            nation=nation,
            position=position,
            kind=clean.kind,
            body=clean.body,
            fleet=clean.fleet,
            **_late_fields(late),
        )
    except IntegrityError as exc:
        raise _store_refused(exc) from exc
    _mark_submitted(nation=nation, turn=turn)
    _audit_for_nation(
        nation=nation,
        actor=actor,
        action=AuditAction.ORDER_ENTERED,
        summary=f"entered {order_in_words_checked(order, ctx)}",
        before=None,
        after=_order_json(order),
        late=late,
    )
    return order


def _list_change_check(
    *,
    nation: Nation,
    turn: Turn,
    before: Sequence[Order],
    after: Sequence[tuple[int, object]],
    changed: int | None,
    nation_read: bool = False,
) -> tuple[dict[int, CleanOrder], OrderContext]:
    """Refuse a change of the list that makes an order refused that was not refused before; else the
    clean orders by id, and the context that checked them (its reads name the orders in words).

    ``after``: (order id, body) in the new listed order; ``changed``: the id whose body is new.
    Orders that were already refused (the world changed under them) do not block the change.
    Both lists are checked against the same reads. ``nation_read``: ``nation`` was read in this
    transaction (see :class:`OrderContext`).
    """
    ctx = OrderContext(nation=nation, turn=turn, nation_read=nation_read)
    _, old_refusals = orders_check(ctx, [o.body for o in before])
    was_refused = {o.pk for o, refused in zip(before, old_refusals, strict=True) if refused}
    cleans, refusals = orders_check(ctx.relisted(), [body for _, body in after])
    if changed is not None:
        for (order_id, _), refused in zip(after, refusals, strict=True):
            if order_id == changed and refused:
                raise refused
    for (order_id, _), refused in zip(after, refusals, strict=True):
        if refused and (order_id == changed or order_id not in was_refused):
            raise OrderRefused(
                f"That change would leave another order refused: {refused.message}",
                code=RefusalCode.BREAKS_ANOTHER_ORDER,
            )
    return {order_id: clean for (order_id, _), clean in zip(after, cleans, strict=True) if clean is not None}, ctx


@transaction.atomic
def order_update(
    *,
    order: Order,
    body: object,
    actor: Actor = None,
    named_turn: int | None = None,
    version: str | None = None,
    late_reason: str = "",
) -> Order:
    """Replace an order's body (its kind may change); it keeps its place in the list."""
    turn = turn_locked(campaign_id=order.campaign_id, turn_id=order.turn_id, named=named_turn)
    nation = Nation.objects.get(pk=order.nation_id)
    late = _change_gate(turn=turn, nation=nation, actor=actor, version=version, late_reason=late_reason)
    before = list(orders_for_turn(nation=nation, turn=turn))
    if order.pk not in {o.pk for o in before}:
        raise OrderRefused(f"Order {order.position} no longer exists; it was withdrawn.", code=RefusalCode.ORDER_GONE)
    after = [(o.pk, body if o.pk == order.pk else o.body) for o in before]
    cleans, ctx = _list_change_check(
        nation=nation, turn=turn, before=before, after=after, changed=order.pk, nation_read=True
    )
    clean = cleans[order.pk]
    stored = next(o for o in before if o.pk == order.pk)
    old = _order_json(stored)
    stored.kind, stored.body, stored.fleet = clean.kind, clean.body, clean.fleet
    if late is not None:
        stored.late_by, stored.late_reason = late.by, late.reason
    try:
        stored.save(update_fields=["kind", "body", "fleet", "late_by", "late_reason", "updated_at"])
    except IntegrityError as exc:
        raise _store_refused(exc) from exc
    _mark_submitted(nation=nation, turn=turn)
    order.kind, order.body, order.fleet, order.position = stored.kind, stored.body, stored.fleet, stored.position
    _audit_for_nation(
        nation=nation,
        actor=actor,
        action=AuditAction.ORDER_CHANGED,
        summary=f"changed {order_in_words_checked(stored, ctx)}",
        before=old,
        after=_order_json(stored),
        late=late,
    )
    return stored


@transaction.atomic
def order_withdraw(
    *, order: Order, actor: Actor = None, named_turn: int | None = None, version: str | None = None
) -> None:
    """Withdraw an order; the orders after it move up one place (positions stay 1, 2, 3…)."""
    turn = turn_locked(campaign_id=order.campaign_id, turn_id=order.turn_id, named=named_turn)
    nation = Nation.objects.get(pk=order.nation_id)
    _change_gate(turn=turn, nation=nation, actor=actor, version=version, entering=False)
    before = list(orders_for_turn(nation=nation, turn=turn))
    if order.pk not in {o.pk for o in before}:
        raise OrderRefused(
            f"Order {order.position} no longer exists; it was already withdrawn.", code=RefusalCode.ORDER_GONE
        )
    after = [(o.pk, o.body) for o in before if o.pk != order.pk]
    _, ctx = _list_change_check(nation=nation, turn=turn, before=before, after=after, changed=None, nation_read=True)
    gone = next(o for o in before if o.pk == order.pk)
    _audit_for_nation(
        nation=nation,
        actor=actor,
        action=AuditAction.ORDER_REMOVED,
        summary=f"withdrew {order_in_words_checked(gone, ctx)}",
        before=_order_json(gone),
        after=None,
    )
    Order.objects.filter(pk=order.pk).delete()
    # One row at a time, upwards: each position is free when an order moves into it.
    for position, stored in enumerate((o for o in before if o.pk != order.pk), 1):
        if stored.position != position:
            stored.position = position
            stored.save(update_fields=["position", "updated_at"])
    _mark_submitted(nation=nation, turn=turn)


def _positions_store(orders: Sequence[Order]) -> None:
    """Give ``orders`` the positions 1, 2, 3… in that order. The unique (turn, nation, position)
    constraint is checked row by row, so the rows that move are first parked past the end of the list
    (one UPDATE), then put in place."""
    moving = [o for k, o in enumerate(orders, 1) if o.position != k]
    if not moving:
        return
    park = len(orders) + max(o.position for o in orders)
    Order.objects.filter(pk__in=[o.pk for o in moving]).update(position=F("position") + park)
    for k, order in enumerate(orders, 1):
        if order.position != k:
            order.position = k
            order.save(update_fields=["position", "updated_at"])


@transaction.atomic
def orders_reorder(
    *,
    nation: Nation,
    order_ids: Sequence[int],
    actor: Actor = None,
    named_turn: int | None = None,
    version: str | None = None,
) -> list[Order]:
    """Put the nation's orders of the open turn in the order ``order_ids`` gives (each order once).

    The listed order matters at resolution (nations' orders are carried out in listed order within a
    phase: two lay-downs against one treasury, two fleets for the last room in a port), so the new
    list is checked as a whole like any change: a reordering that would leave an order refused is
    refused (:data:`RefusalCode.BREAKS_ANOTHER_ORDER`) and nothing moves. Returns the orders in
    their new order.
    """
    turn = turn_locked(campaign_id=nation.campaign_id, named=named_turn)
    _change_gate(turn=turn, nation=nation, actor=actor, version=version, entering=False)
    before = list(orders_for_turn(nation=nation, turn=turn))
    by_id = {o.pk: o for o in before}
    ids = list(order_ids)
    if sorted(ids) != sorted(by_id) or len(set(ids)) != len(ids):
        listed = ", ".join(str(o.position) for o in before) or "none"
        raise OrderRefused(
            f"A new order of the list must name each of this turn's {len(before)} orders exactly once "
            f"(orders {listed}); the list may have changed meanwhile: reload it.",
            code=RefusalCode.NOT_THE_LIST,
        )
    after = [by_id[i] for i in ids]
    _list_change_check(nation=nation, turn=turn, before=before, after=[(o.pk, o.body) for o in after], changed=None)
    _audit_for_nation(
        nation=nation,
        actor=actor,
        action=AuditAction.ORDER_CHANGED,
        summary="put the orders in a new listed order",
        before={"order": [o.pk for o in before]},
        after={"order": ids},
    )
    _positions_store(after)
    _mark_submitted(nation=nation, turn=turn)
    return after


@transaction.atomic
def order_move(*, order: Order, by: int, actor: Actor = None, named_turn: int | None = None) -> Order:
    """Move ``order`` ``by`` places in its nation's list (−1: up, one place earlier; +1: down), the
    orders between shifting to make room; see :func:`orders_reorder` for what is checked."""
    turn = turn_locked(campaign_id=order.campaign_id, turn_id=order.turn_id, named=named_turn)
    nation = Nation.objects.get(pk=order.nation_id)
    before = list(orders_for_turn(nation=nation, turn=turn))
    ids = [o.pk for o in before]
    if order.pk not in ids:
        raise OrderRefused(f"Order {order.position} no longer exists; it was withdrawn.", code=RefusalCode.ORDER_GONE)
    here = ids.index(order.pk)
    there = here + by
    if by == 0:
        return order
    if not 0 <= there < len(ids):
        where = "first" if there < 0 else "last"
        raise OrderRefused(
            f"Order {here + 1} is already {where} of {len(ids)}; it can move only within the list.",
            code=RefusalCode.CANNOT_MOVE,
        )
    ids.insert(there, ids.pop(here))
    moved = orders_reorder(nation=nation, order_ids=ids, actor=actor, named_turn=named_turn)
    return next(o for o in moved if o.pk == order.pk)


def _replacement_checked(
    *, nation: Nation, bodies: object, actor: Actor, named_turn: int | None, version: str | None, late_reason: str
) -> tuple[Turn, list[CleanOrder], LateEntry | None]:
    """The one check of a whole new list (orders_replace's, and the API's validation without storing):
    the open turn (locked), the deadline (a late list's mark), the list's version, then every order in
    listed order. Raises
    :class:`OrdersRefused` listing every refused order (each with its ``index`` in ``bodies``), or a
    plain :class:`OrderRefused` when the submission as a whole cannot be taken."""
    if isinstance(bodies, str | bytes | Mapping) or not isinstance(bodies, Sequence):
        raise OrderRefused(
            f"The orders must be a JSON list of order objects, not {json_type(bodies)}.",
            code=RefusalCode.NOT_A_LIST,
        )
    turn = turn_locked(campaign_id=nation.campaign_id, named=named_turn)
    late = _change_gate(turn=turn, nation=nation, actor=actor, version=version, late_reason=late_reason)
    cleans, refusals = orders_validate(nation=nation, turn=turn, bodies=bodies)
    refused = [r for r in refusals if r is not None]
    if refused:
        raise OrdersRefused(refused)
    return turn, [clean for clean in cleans if clean is not None], late


@transaction.atomic
def orders_replace_check(
    *,
    nation: Nation,
    bodies: object,
    actor: Actor = None,
    named_turn: int | None = None,
    version: str | None = None,
    late_reason: str = "",
) -> list[CleanOrder]:
    """What :func:`orders_replace` would store for ``bodies``, or its refusals; stores nothing (the
    API's ``POST /orders/validate/``). The same check as a replacement, so the two never disagree."""
    checked = _replacement_checked(
        nation=nation, bodies=bodies, actor=actor, named_turn=named_turn, version=version, late_reason=late_reason
    )
    return checked[1]


@transaction.atomic
def orders_replace(
    *,
    nation: Nation,
    bodies: Sequence[object],
    actor: Actor = None,
    named_turn: int | None = None,
    version: str | None = None,
    late_reason: str = "",
) -> list[Order]:
    """Replace the nation's whole list for the open turn, all or nothing.

    Raises :class:`OrdersRefused` listing every refused order with its reason, or a plain
    :class:`OrderRefused` when the submission as a whole cannot be taken (orders closed, not a list);
    then nothing is stored. An empty list withdraws every order (and still counts as submitted).
    """
    turn, cleans, late = _replacement_checked(
        nation=nation, bodies=bodies, actor=actor, named_turn=named_turn, version=version, late_reason=late_reason
    )
    old = [_order_json(o) for o in Order.objects.filter(turn=turn, nation=nation).order_by("position")]
    Order.objects.filter(turn=turn, nation=nation).delete()
    orders = [
        Order(
            campaign_id=nation.campaign_id,
            turn=turn,
            nation=nation,
            position=clean.position,
            kind=clean.kind,
            body=clean.body,
            fleet=clean.fleet,
            **_late_fields(late),
        )
        for clean in cleans
    ]
    try:
        stored = Order.objects.bulk_create(orders)
    except IntegrityError as exc:
        raise OrdersRefused([_store_refused(exc)]) from exc
    _mark_submitted(nation=nation, turn=turn)
    _audit_for_nation(
        nation=nation,
        actor=actor,
        action=AuditAction.ORDERS_REPLACED,
        summary=f"replaced {len(old)} order{'s' if len(old) != 1 else ''} with {len(stored)}",
        before={"orders": old},
        after={"orders": [_order_json(o) for o in stored]},
        late=late,
    )
    return stored
