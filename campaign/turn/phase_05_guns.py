"""Phase 5: garrison guns, fireships, then running the guns (RULES.md §3, §4, §6, §9).

Ports are taken in key order; at each port, in the order of §3: (1) the garrison guns fire at the
hostile ships inside, (2) the fireship orders against the port run (nations in code order, then
listed order), (3) the run-the-guns orders against it run, one action per attacking side. Actions
at different ports touch different ships, so taking them port by port is the same as taking every
garrison barrage first, then every fireship attack, then every running of the guns.

Dice: one stream per port, ``ctx.dice(port key)`` = derive_seed(campaign seed, turn, 5, port key),
drawn in that order, so a re-run of the phase gives the same result (see ``battles.services``).

Who may attack P (§4 "Running the guns in a campaign", §9): a fleet at sea in P's zone that
blockades P this turn (a Blockade row of this turn, written at the end of phase 4) or that was on
the winning side of a fleet action in P's zone this turn (phase 4's Battle rows) — and never
at a port whose guns its own side holds. An order that fails any of this is skipped and reported.
"""

from __future__ import annotations

from collections import defaultdict

from battles.selectors import (
    blockading_fleets,
    fleet_ships_in_line,
    fleet_won_battle_in_zone,
    guns_holder,
    ships_in_ports,
    side_lead_order,
)
from battles.services import (
    Belligerent,
    PortActionContext,
    PortActionResult,
    fireships_send,
    garrison_guns_fire,
    running_the_guns_fight,
)
from campaign.models import Nation, Order
from campaign.selectors import Diplomacy, diplomacy_for_campaign
from campaign.turn.context import PhaseContext
from campaign.turn.outcomes import order_done, order_skip, orders_pending
from fleets.models import Fleet, Ship, ShipClass
from ports.models import Port
from rules.turn_events import PortActionFought

FIGHTING = (Ship.Condition.READY, Ship.Condition.DAMAGED)


def guns_phase(ctx: PhaseContext) -> None:
    """Run phase 5 for the whole campaign (see the module docstring)."""

    relations = diplomacy_for_campaign(campaign_id=ctx.campaign.pk)
    nations = {
        n.pk: Belligerent(n.pk, n.code, n.name, n.navy, n.crew) for n in Nation.objects.filter(campaign=ctx.campaign)
    }
    ports = list(Port.objects.filter(campaign=ctx.campaign).select_related("sea_zone").order_by("key"))
    by_key = {p.key: p for p in ports}
    orders_at: dict[str, list[Order]] = defaultdict(list)
    for order in orders_pending(ctx, (Order.Kind.FIRESHIPS, Order.Kind.RUN_GUNS)):
        key = order.body.get("port")
        if key not in by_key:
            order_skip(ctx, order, f"there is no port {key!r}", "unknown_port")
            continue
        orders_at[key].append(order)
    occupied = ships_in_ports(campaign_id=ctx.campaign.pk, ruleset=ctx.ruleset)

    for port in ports:
        if port.pk not in occupied and port.key not in orders_at:
            continue
        pctx = PortActionContext(
            campaign_id=ctx.campaign.pk,
            turn_id=ctx.turn.pk,
            turn=ctx.turn.number,
            ruleset=ctx.ruleset,
            relations=relations,
            nations=nations,
            dice=ctx.dice(port.key),
            log=ctx.log,
        )
        holder = guns_holder(port, ctx.turn.number)

        # (1) §4 "Garrison guns": the holder's guns fire at the ships inside of nations at war with it.
        if holder is not None:
            hostile = [
                s
                for s in occupied.get(port.pk, [])
                if s.condition in FIGHTING and relations.at_war(holder, s.nation_id)
            ]
            fired = garrison_guns_fire(ctx=pctx, port=port, holder=nations[holder], targets=hostile)
            if fired is not None:
                ctx.report(fired.nations, _fought(port, fired))
        attacks = orders_at.get(port.key, [])
        # (2) §9 fireships, then (3) §4/§6 running the guns.
        _fireships(ctx, pctx, port, [o for o in attacks if o.kind == Order.Kind.FIRESHIPS], relations, holder)
        _guns_run(ctx, pctx, port, [o for o in attacks if o.kind == Order.Kind.RUN_GUNS], relations, holder)


def _fireships(
    ctx: PhaseContext,
    pctx: PortActionContext,
    port: Port,
    orders: list[Order],
    relations: Diplomacy,
    holder: int | None,
) -> None:
    """§9 fireships at ``port``: each fleet's order on its own, in processing order."""
    blockaders = _blockaders(ctx, port) if orders else set()
    for order in orders:
        fleet, refused, code = _attacker(ctx, order, port, relations, holder, blockaders)
        if fleet is None:
            order_skip(ctx, order, refused, code)
            continue
        ships = fleet_ships_in_line([fleet], ctx.ruleset)[fleet.pk]
        fireships = [s for s in ships if s.ship_class == ShipClass.FIRESHIP and s.condition in FIGHTING]
        if not fireships:
            order_skip(ctx, order, f"{fleet.name} has no fireship able to sail", "no_fireship")
            continue
        targets = _enemies_in(ctx, port, relations, {fleet.nation_id}, (*FIGHTING, Ship.Condition.DISABLED))
        sent = fireships_send(
            ctx=pctx, port=port, fleet=fleet, fireships=fireships, targets=targets, guns_holder_id=holder
        )
        if sent is None:
            order_skip(ctx, order, f"there is no enemy ship in {port.name}", "no_target")
            continue
        order_done(ctx, order, sent.text)
        ctx.report(sent.nations, _fought(port, sent))


def _guns_run(
    ctx: PhaseContext,
    pctx: PortActionContext,
    port: Port,
    orders: list[Order],
    relations: Diplomacy,
    holder: int | None,
) -> None:
    """§4/§6 running the guns at ``port``: the fleets of one side go together, lead fleet first."""
    sides: list[tuple[list[Order], list[Fleet]]] = []
    blockaders = _blockaders(ctx, port) if orders else set()
    for order in orders:
        fleet, refused, code = _attacker(ctx, order, port, relations, holder, blockaders)
        if fleet is None:
            order_skip(ctx, order, refused, code)
            continue
        for side_orders, side_fleets in sides:
            if all(relations.allied(fleet.nation_id, f.nation_id) for f in side_fleets):
                side_orders.append(order)
                if all(f.pk != fleet.pk for f in side_fleets):
                    side_fleets.append(fleet)
                break
        else:
            sides.append(([order], [fleet]))
    for side_orders, side_fleets in sides:
        in_line = side_lead_order(side_fleets, fleet_ships_in_line(side_fleets, ctx.ruleset))
        attacking = {f.nation_id for f in side_fleets}
        # Disabled ships in port cannot fight but count for the barrage's ship dice (§6).
        defenders = _enemies_in(ctx, port, relations, attacking, (*FIGHTING, Ship.Condition.DISABLED))
        fought = running_the_guns_fight(ctx=pctx, port=port, fleets=in_line, defenders=defenders, guns_holder_id=holder)
        if fought is None:
            for order in side_orders:
                order_skip(
                    ctx,
                    order,
                    f"nothing to fight at {port.name}: no ship able to form a line, or no enemy ship "
                    "in port and no hostile gun",
                    "no_target",
                )
            continue
        for order in side_orders:
            order_done(ctx, order, fought.text)
        ctx.report(fought.nations, _fought(port, fought))


def _blockaders(ctx: PhaseContext, port: Port) -> set[int]:
    """The fleets blockading ``port`` this turn, read once for a port's orders (phase 4 wrote the rows;
    phase 5 changes none of them)."""
    return blockading_fleets(campaign_id=ctx.campaign.pk, turn=ctx.turn.number, port_id=port.pk)


def _attacker(
    ctx: PhaseContext, order: Order, port: Port, relations: Diplomacy, holder: int | None, blockaders: set[int]
) -> tuple[Fleet | None, str, str]:
    """The order's fleet if it may attack ``port`` now, else None, the reason it may not and its code.

    RULES.md §4: "a fleet ordered to "run the guns at P" attacks P if it blockades P or won a battle
    in P's zone this turn ... Nobody runs the guns of a port whose guns its own side holds"; §9: "a
    fleet allowed to run the guns at P may send its fireship-class ships".
    """
    fleet_id = order.body.get("fleet")
    fleet = None
    if isinstance(fleet_id, int) and not isinstance(fleet_id, bool):
        fleet = (
            Fleet.objects.filter(pk=fleet_id, campaign=ctx.campaign, nation=order.nation)
            .select_related("admiral")
            .first()
        )
    if fleet is None:
        return None, f"fleet {order.body.get('fleet')!r} is not one of {order.nation.name}'s fleets", "unknown_fleet"
    if fleet.port_id is not None or fleet.sea_zone_id != port.sea_zone_id:
        return None, f"{fleet.name} is not at sea in {port.sea_zone.name}, the zone of {port.name}", "wrong_zone"
    blockades = fleet.pk in blockaders
    if not blockades and not fleet_won_battle_in_zone(
        turn_id=ctx.turn.pk, sea_zone_id=port.sea_zone_id, fleet_id=fleet.pk, nation_code=order.nation.code
    ):
        return (
            None,
            f"{fleet.name} neither blockades {port.name} nor won a battle in {port.sea_zone.name} this turn (rules §4)",
            "fleet_left_battle",
        )
    if holder is not None and relations.allied(holder, fleet.nation_id):
        return None, f"the guns of {port.name} are held by its own side: nobody runs them (rules §4)", "own_port"
    return fleet, "", ""


def _enemies_in(
    ctx: PhaseContext, port: Port, relations: Diplomacy, attackers: set[int], conditions: tuple[str, ...]
) -> list[Ship]:
    """The ships in ``port`` now of nations at war with every attacking nation (allies are never
    dragged into each other's wars, §10), in ``conditions``, fleet id and line order."""
    ships = ships_in_ports(campaign_id=ctx.campaign.pk, ruleset=ctx.ruleset, port_id=port.pk).get(port.pk, [])
    return [s for s in ships if s.condition in conditions and all(relations.at_war(a, s.nation_id) for a in attackers)]


def _fought(port: Port, result: PortActionResult) -> PortActionFought:
    return PortActionFought(text=result.text, battle_id=result.battle.pk, port_key=port.key, port_name=port.name)
