"""Phase 8: repairs, lay up / recommission (RULES.md §2, §3, §8).

§2: "Repair is a standing order for a ship in an own port with a dockyard, not blockaded and not
taken this turn or last. In phase 8 (listed order) it is paid: ceil(10% of class EP) if damaged,
ceil(25%) if disabled; unaffordable repairs are skipped and reported. A damaged ship is ready at
once; a disabled ship becomes damaged at once and ready in phase 8 of the next turn if it is still
there and the port is not blockaded." §8: "Out of supply: ... no repairs." §2: ""lay up" and
"recommission" orders for a ship in an own port take effect in phase 8."

How the phase keeps what the rules ask it to remember:

* **Standing repair orders.** §3 lists repair among the orders "standing until changed", and a
  nation without orders keeps them. A ship's standing repair order is its owner's latest repair
  order for it, in any turn so far (latest turn, then latest in the list): ``{"on": true}`` puts the
  ship under repair whenever it is damaged or disabled and can be repaired, ``{"on": false}`` takes
  it off. The order row is the memory; nothing else is stored. An order of an earlier owner does not
  count for a captured ship. Orders given this turn are marked done or skipped; a standing order
  from an earlier turn that cannot be carried out is reported to its nation.
  Processing order: nations in code order, then standing orders in the order they were listed
  (older turns first, then position), which is "listed order" over the turns.
* **A disabled ship repaired last turn.** The repair of a disabled ship records its yard and the
  turn it completes on the ship (``Ship.repair_port``, ``Ship.repair_ready_turn`` — so a backup
  carries it). Next turn, phase 8 first makes each such ship ready if it is still damaged, still in
  that port, and the port is not blockaded against it — free, since the repair was paid in full;
  a ship that was captured, sunk, hit again or moved loses the pending repair. Then the repair
  orders run.

Whether a ship can be repaired is decided by the repair order's own check,
:func:`campaign.orders.in_port.repair_check`, called here against the state at resolution (this
turn's blockades and the supply phase 7 decided), so a repair skipped here gives the reason the
order page gives when it refuses the same repair. Blockades count from this turn's blockades that
a storm did not lift (§4: a storm "lifts it for supply, repairs and income"),
:func:`fleets.selectors.blockades_for_turn`.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from campaign.models import LedgerEntry, Nation, Order
from campaign.orders.errors import CheckFailed, RefusalCode
from campaign.orders.in_port import ordinary_check, repair_check
from campaign.selectors import diplomacy_for_campaign
from campaign.services import TreasuryError, ledger_post
from campaign.turn.context import PhaseContext
from campaign.turn.outcomes import order_done, order_skip, orders_pending
from fleets.models import Ship
from fleets.rows import rows_update
from fleets.selectors import Blockades, blockades_for_turn
from rules.economy import repair_cost
from rules.turn_events import ShipNoted

REPAIRABLE = (Ship.Condition.DAMAGED, Ship.Condition.DISABLED)


def repairs_phase(ctx: PhaseContext) -> None:
    """Phase 8: finish last turn's repairs of disabled ships, run the standing repair orders, then
    the lay-up and recommission orders (see the module docstring)."""
    nations = {n.pk: n for n in Nation.objects.filter(campaign=ctx.campaign).order_by("code")}
    diplomacy = diplomacy_for_campaign(campaign_id=ctx.campaign.pk)
    blockades = blockades_for_turn(campaign_id=ctx.campaign.pk, turn=ctx.turn.number, at_war=diplomacy.at_war)
    _pending_finish(ctx, blockades, nations)
    _repairs_run(ctx, blockades, nations)
    _ordinary_orders(ctx)


def _repair_refusal(ctx: PhaseContext, blockades: Blockades, ship: Ship, nation: Nation) -> CheckFailed | None:
    """Why ``ship`` cannot be repaired now, or None: the repair order's own check
    (:func:`campaign.orders.in_port.repair_check`) against the state at resolution."""
    fleet = ship.fleet
    port = fleet.port if fleet is not None else None
    try:
        repair_check(
            nation=nation,
            ship=ship,
            port=port,
            turn=ctx.turn.number,
            blockaded=port is not None and blockades.against(port.pk, nation.pk),
            fleet_in_supply=fleet is None or fleet.in_supply,
        )
    except CheckFailed as failed:
        return failed
    return None


def _ships(ids: set[int]) -> dict[int, Ship]:
    return {s.pk: s for s in Ship.objects.filter(pk__in=ids).select_related("fleet__port")}


def _pending_finish(ctx: PhaseContext, blockades: Blockades, nations: dict[int, Nation]) -> None:
    """§2: a disabled ship repaired last turn is "ready in phase 8 of the next turn if it is still
    there and the port is not blockaded"."""
    due = (
        Ship.objects.filter(campaign=ctx.campaign, repair_ready_turn__isnull=False)
        .select_related("fleet__port", "repair_port", "nation")
        .order_by("nation__code", "id")
    )
    for ship in due:
        port, yard = (ship.fleet.port if ship.fleet is not None else None), ship.repair_port
        Ship.objects.filter(pk=ship.pk).update(repair_port=None, repair_ready_turn=None)
        if ship.repair_ready_turn != ctx.turn.number or ship.condition != Ship.Condition.DAMAGED or yard is None:
            continue  # hit again since, lost, or a stale mark: the repair no longer applies
        nation = nations[ship.nation_id]
        if port is None or port.pk != yard.pk:
            text = f"{ship.name} left {yard.name}: her repair was not completed."
            ctx.report(
                [nation.code], ShipNoted(text=text, ship_id=ship.pk, ship_name=ship.name, code="repair_unfinished")
            )
            continue
        if blockades.against(port.pk, nation.pk):
            text = f"{port.name} is blockaded: {ship.name}'s repair was not completed."
            ctx.report(
                [nation.code], ShipNoted(text=text, ship_id=ship.pk, ship_name=ship.name, code="repair_unfinished")
            )
            continue
        Ship.objects.filter(pk=ship.pk).update(condition=Ship.Condition.READY)
        text = f"{ship.name} completed her repair at {port.name} and is ready."
        ctx.report([nation.code], ShipNoted(text=text, ship_id=ship.pk, ship_name=ship.name, code="repaired"))


def _standing_repairs(ctx: PhaseContext) -> list[Order]:
    """Each ship's latest repair order per nation up to this turn (§3 "standing until changed"),
    nations in code order, then in the order they were listed over the turns.

    Only this turn's orders and the orders for ships that need a repair now are read, so the query
    does not grow with the campaign's history of repaired ships.
    """
    needy = list(Ship.objects.filter(campaign=ctx.campaign, condition__in=REPAIRABLE).values_list("pk", flat=True))
    latest: dict[tuple[int, Any], Order] = {}
    orders = (
        Order.objects.filter(campaign=ctx.campaign, kind=Order.Kind.REPAIR, turn__number__lte=ctx.turn.number)
        .filter(Q(turn=ctx.turn) | Q(body__ship__in=needy))
        .select_related("nation", "turn")
        # Only the turn's number is read: its opening snapshot (the whole campaign) and dice log,
        # decoded for every standing order, were most of this phase's time.
        .defer("turn__snapshot", "turn__dice_log")
        .order_by("turn__number", "position")
    )
    for order in orders:
        latest[(order.nation_id, order.body.get("ship"))] = order
    return sorted(latest.values(), key=lambda o: (o.nation.code, o.turn.number, o.position))


def _repairs_run(ctx: PhaseContext, blockades: Blockades, nations: dict[int, Nation]) -> None:
    turn = ctx.turn.number
    standing = _standing_repairs(ctx)
    ships = _ships({o.body["ship"] for o in standing if isinstance(o.body.get("ship"), int)})
    for order in standing:
        this_turn = order.turn_id == ctx.turn.pk
        nation = nations[order.nation_id]
        ship = ships.get(order.body.get("ship"))
        if not order.body.get("on", True):
            if this_turn:
                order_done(ctx, order, "standing repair order cancelled", "cancelled")
            continue
        if ship is None or ship.nation_id != nation.pk or ship.condition not in (*REPAIRABLE, Ship.Condition.READY):
            if this_turn:
                order_skip(ctx, order, f"the ship of this order is not an afloat ship of {nation.name}", "unknown_ship")
            continue
        if ship.condition == Ship.Condition.READY:
            if this_turn:
                order_done(ctx, order, f"{ship.name} needs no repair; the order stands", "already_so")
            continue
        if not this_turn and (ship.fleet is None or ship.fleet.port is None):
            continue  # at sea: the standing order waits for the ship to come into port, silently
        refused = _repair_refusal(ctx, blockades, ship, nation)
        if refused is not None:
            reason = f"{ship.name} cannot be repaired: {refused}"
            if this_turn:
                order_skip(ctx, order, reason, str(refused.code))
            else:
                text = f"Standing repair order: {reason}."
                noted = ShipNoted(text=text, ship_id=ship.pk, ship_name=ship.name, code="repair_refused")
                ctx.report([nation.code], noted)
            continue
        assert ship.fleet is not None and ship.fleet.port is not None  # checked by repair_check()
        port = ship.fleet.port
        was = ship.condition
        cost = repair_cost(ship.ship_class, was, ctx.ruleset)
        if cost:
            try:
                ledger_post(
                    nation=nation,
                    turn=turn,
                    amount=-cost,
                    kind=LedgerEntry.Kind.REPAIR,
                    reason=f"Repair of {ship.name} ({was}) at {port.name}",
                )
            except TreasuryError:
                reason = f"the repair of {ship.name} ({was}) costs {cost} EP and {nation.name} has {nation.treasury}"
                if this_turn:
                    order_skip(ctx, order, reason, "not_enough_ep")
                else:
                    text = f"Standing repair order skipped: {reason}."
                    noted = ShipNoted(text=text, ship_id=ship.pk, ship_name=ship.name, code="repair_unpaid")
                    ctx.report([nation.code], noted)
                continue
        if was == Ship.Condition.DAMAGED:
            ship.condition = Ship.Condition.READY
            text = f"{ship.name} was repaired at {port.name} for {cost} EP and is ready."
            ship.save(update_fields=["condition"])
            ctx.report([nation.code], ShipNoted(text=text, ship_id=ship.pk, ship_name=ship.name, code="repaired"))
        else:
            ship.condition = Ship.Condition.DAMAGED
            ship.repair_port = port
            ship.repair_ready_turn = turn + 1
            ship.save(update_fields=["condition", "repair_port", "repair_ready_turn"])
            text = (
                f"{ship.name} was repaired from disabled to damaged at {port.name} for {cost} EP; she will be ready "
                "in the next turn's repairs if she is still there and the port is not blockaded."
            )
            ctx.report([nation.code], ShipNoted(text=text, ship_id=ship.pk, ship_name=ship.name, code="repaired"))
        if this_turn:
            order_done(ctx, order, text)


def _ordinary_orders(ctx: PhaseContext) -> None:
    """§2: "lay up" and "recommission" orders "for a ship in an own port take effect in phase 8",
    checked by the order's own check (:func:`campaign.orders.in_port.ordinary_check`) as the ship is now."""

    orders = orders_pending(ctx, (Order.Kind.LAY_UP, Order.Kind.RECOMMISSION))
    ships = _ships({o.body["ship"] for o in orders if isinstance(o.body.get("ship"), int)})
    # Written together after the orders (one UPDATE): each order checks the ship as the orders
    # before it left it in memory, so nothing reads the rows in between.
    changed: dict[int, Ship] = {}
    for order in orders:
        ship = ships.get(order.body.get("ship"))
        if ship is None or ship.nation_id != order.nation_id or ship.condition not in Ship.AFLOAT:
            order_skip(
                ctx, order, f"the ship of this order is not an afloat ship of {order.nation.name}", "unknown_ship"
            )
            continue
        port = ship.fleet.port if ship.fleet is not None else None
        lay_up = order.kind == Order.Kind.LAY_UP
        try:
            ordinary_check(nation=order.nation, ship=ship, port=port, lay_up=lay_up)
        except CheckFailed as failed:
            if failed.code in (RefusalCode.ALREADY_IN_ORDINARY, RefusalCode.NOT_IN_ORDINARY):
                order_done(ctx, order, str(failed), "already_so")  # already as ordered: nothing left to do
            else:
                order_skip(ctx, order, str(failed), str(failed.code))
            continue
        assert port is not None  # ordinary_check: an own port
        ship.in_ordinary = lay_up
        changed[ship.pk] = ship
        text = f"{ship.name} was {'laid up in ordinary' if lay_up else 'recommissioned'} at {port.name}."
        order_done(ctx, order, text)
        code = "laid_up" if lay_up else "recommissioned"
        ctx.report([order.nation.code], ShipNoted(text=text, ship_id=ship.pk, ship_name=ship.name, code=code))
    rows_update(Ship, list(changed.values()), ["in_ordinary"])
