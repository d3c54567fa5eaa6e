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

Blockades count from this turn's Blockade rows that a storm did not lift (§4: a storm "lifts it for
supply, repairs and income"), against every nation at war with the blockading fleet's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from campaign.models import LedgerEntry, Nation, Order
from campaign.selectors import Diplomacy, diplomacy_for_campaign
from campaign.services import TreasuryError, ledger_post
from campaign.turn.context import PhaseContext
from campaign.turn.outcomes import order_done, order_skip, orders_pending
from fleets.models import Ship
from fleets.selectors import blockading_nations_by_port
from ports.models import Port
from rules.economy import repair_cost
from rules.turn_events import ShipNoted

REPAIRABLE = (Ship.Condition.DAMAGED, Ship.Condition.DISABLED)


@dataclass(frozen=True, slots=True)
class _Yards:
    """What decides whether a port can repair a nation's ship this turn."""

    turn: int
    relations: Diplomacy
    blockaders: dict[int, list[int]]  # port id → nations blockading it this turn (not lifted)

    def blockaded(self, port: Port, nation_id: int) -> bool:
        return any(self.relations.at_war(b, nation_id) for b in self.blockaders.get(port.pk, ()))

    def refusal(self, ship: Ship, nation: Nation) -> str | None:
        """Why ``ship`` cannot be repaired now (§2, §8), or None."""
        fleet = ship.fleet
        port = fleet.port if fleet is not None else None
        if fleet is None or port is None:
            return f"{ship.name} is not in a port"
        if port.owner_id != nation.pk:
            return f"{port.name} is not an own port"
        if not port.dockyard:
            return f"{port.name} has no dockyard"
        if port.captor_id is not None or (port.taken_turn is not None and port.taken_turn >= self.turn - 1):
            return f"{port.name} was taken this turn or last"
        if self.blockaded(port, nation.pk):
            return f"{port.name} is blockaded"
        unpaid = nation.unpaid_upkeep_turn
        if not fleet.in_supply or (unpaid is not None and unpaid >= self.turn - 1):
            return f"{fleet.name} is out of supply (RULES.md §8: no repairs)"
        return None


def repairs_phase(ctx: PhaseContext) -> None:
    """Phase 8: finish last turn's repairs of disabled ships, run the standing repair orders, then
    the lay-up and recommission orders (see the module docstring)."""
    turn = ctx.turn.number
    nations = {n.pk: n for n in Nation.objects.filter(campaign=ctx.campaign).order_by("code")}
    blockaders = blockading_nations_by_port(campaign_id=ctx.campaign.pk, turn=turn)
    yards = _Yards(turn, diplomacy_for_campaign(campaign_id=ctx.campaign.pk), blockaders)
    _pending_finish(ctx, yards, nations)
    _repairs_run(ctx, yards, nations)
    _ordinary_orders(ctx)


def _ships(ids: set[int]) -> dict[int, Ship]:
    return {s.pk: s for s in Ship.objects.filter(pk__in=ids).select_related("fleet__port")}


def _pending_finish(ctx: PhaseContext, yards: _Yards, nations: dict[int, Nation]) -> None:
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
            ctx.report([nation.code], ShipNoted(text=text, ship_id=ship.pk, ship_name=ship.name))
            continue
        if yards.blockaded(port, nation.pk):
            text = f"{port.name} is blockaded: {ship.name}'s repair was not completed."
            ctx.report([nation.code], ShipNoted(text=text, ship_id=ship.pk, ship_name=ship.name))
            continue
        Ship.objects.filter(pk=ship.pk).update(condition=Ship.Condition.READY)
        text = f"{ship.name} completed her repair at {port.name} and is ready."
        ctx.report([nation.code], ShipNoted(text=text, ship_id=ship.pk, ship_name=ship.name))


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
        .order_by("turn__number", "position")
    )
    for order in orders:
        latest[(order.nation_id, order.body.get("ship"))] = order
    return sorted(latest.values(), key=lambda o: (o.nation.code, o.turn.number, o.position))


def _repairs_run(ctx: PhaseContext, yards: _Yards, nations: dict[int, Nation]) -> None:

    turn = ctx.turn.number
    standing = _standing_repairs(ctx)
    ships = _ships({o.body["ship"] for o in standing if isinstance(o.body.get("ship"), int)})
    for order in standing:
        this_turn = order.turn_id == ctx.turn.pk
        nation = nations[order.nation_id]
        ship = ships.get(order.body.get("ship"))
        if not order.body.get("on", True):
            if this_turn:
                order_done(order, "standing repair order cancelled")
            continue
        if ship is None or ship.nation_id != nation.pk or ship.condition not in (*REPAIRABLE, Ship.Condition.READY):
            if this_turn:
                order_skip(ctx, order, f"the ship of this order is not an afloat ship of {nation.name}")
            continue
        if ship.condition == Ship.Condition.READY:
            if this_turn:
                order_done(order, f"{ship.name} needs no repair; the order stands")
            continue
        if not this_turn and (ship.fleet is None or ship.fleet.port is None):
            continue  # at sea: the standing order waits for the ship to come into port, silently
        refused = yards.refusal(ship, nation)
        if refused is not None:
            reason = f"{ship.name} cannot be repaired: {refused} (RULES.md §2)"
            if this_turn:
                order_skip(ctx, order, reason)
            else:
                text = f"Standing repair order: {reason}."
                ctx.report([nation.code], ShipNoted(text=text, ship_id=ship.pk, ship_name=ship.name))
            continue
        assert ship.fleet is not None and ship.fleet.port is not None  # checked by refusal()
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
                reason = f"the repair of {ship.name} ({was}) costs {cost} EP and {nation.code} has {nation.treasury}"
                if this_turn:
                    order_skip(ctx, order, reason)
                else:
                    text = f"Standing repair order skipped: {reason}."
                    ctx.report([nation.code], ShipNoted(text=text, ship_id=ship.pk, ship_name=ship.name))
                continue
        if was == Ship.Condition.DAMAGED:
            ship.condition = Ship.Condition.READY
            text = f"{ship.name} was repaired at {port.name} for {cost} EP and is ready."
            ship.save(update_fields=["condition"])
            ctx.report([nation.code], ShipNoted(text=text, ship_id=ship.pk, ship_name=ship.name))
        else:
            ship.condition = Ship.Condition.DAMAGED
            ship.repair_port = port
            ship.repair_ready_turn = turn + 1
            ship.save(update_fields=["condition", "repair_port", "repair_ready_turn"])
            text = (
                f"{ship.name} was repaired from disabled to damaged at {port.name} for {cost} EP; she will be ready "
                "in the next turn's repairs if she is still there and the port is not blockaded."
            )
            ctx.report([nation.code], ShipNoted(text=text, ship_id=ship.pk, ship_name=ship.name))
        if this_turn:
            order_done(order, text)


def _ordinary_orders(ctx: PhaseContext) -> None:
    """§2: "lay up" and "recommission" orders "for a ship in an own port take effect in phase 8"."""

    orders = orders_pending(ctx, (Order.Kind.LAY_UP, Order.Kind.RECOMMISSION))
    ships = _ships({o.body["ship"] for o in orders if isinstance(o.body.get("ship"), int)})
    for order in orders:
        ship = ships.get(order.body.get("ship"))
        if ship is None or ship.nation_id != order.nation_id or ship.condition not in Ship.AFLOAT:
            order_skip(ctx, order, f"the ship of this order is not an afloat ship of {order.nation.name}")
            continue
        port = ship.fleet.port if ship.fleet is not None else None
        if port is None or port.owner_id != order.nation_id:
            order_skip(ctx, order, f"{ship.name} is not in an own port (RULES.md §2)")
            continue
        lay_up = order.kind == Order.Kind.LAY_UP
        if ship.in_ordinary == lay_up:
            order_done(order, f"{ship.name} is already {'in ordinary' if lay_up else 'in commission'}")
            continue
        ship.in_ordinary = lay_up
        ship.save(update_fields=["in_ordinary"])
        text = f"{ship.name} was {'laid up in ordinary' if lay_up else 'recommissioned'} at {port.name}."
        order_done(order, text)
        ctx.report([order.nation.code], ShipNoted(text=text, ship_id=ship.pk, ship_name=ship.name))
