"""Phase 3 of RULES.md §3: the fleets' turn at sea.


Phase 3, in this order (§3 "3. fleet organisation and appointments; embarkation; movement in two
steps with sighting and interception after each"):

(Fleets in the port of a former ally now at peace were put to sea by phase 1, §10.)

1. Standing orders take effect: posture (seek, avoid, blockade P), battle orders (after a battle:
   auto, continue or evade; retreat port; retreat zone), line order (``Ship.line_position``).
2. Fleet organisation in processing order: transfer ships to a fleet, form a fleet, merge fleets —
   in one place only (the same port, or at sea in the same zone). A merged fleet takes the oldest
   ``left_port_turn``; a new fleet inherits it (and its supply) from the fleets its ships came from.
3. Appointments (§0): an admiral takes a fleet when both are in one place — waiting in the fleet's
   port, or commanding another fleet there; a fleet has at most one (in port the one it had goes
   ashore to wait; at sea the appointment is skipped).
4. Embarkation (§7): the nation's units in garrison or ashore at the port board the empty
   transports of an own fleet in that port or at sea in its zone, one unit a transport.
5. With the "fleets return to port" NMR house option, the fleets at sea of nations without orders
   enter an own port of their zone (:mod:`campaign.turn.sea.nmr`).
6. Movement, contacts, port capacity and the engagements for phase 4 (:mod:`campaign.turn.sea`).
"""

from __future__ import annotations

from campaign.models import Order
from campaign.turn.context import PhaseContext
from campaign.turn.outcomes import order_done, order_skip, orders_pending
from campaign.turn.sea.in_port import fleets_save, port_capacity_enforce, port_engagements_plan
from campaign.turn.sea.nmr import nmr_fleets_to_port
from campaign.turn.sea.organisation import (
    Refused,
    admiral_appoint,
    battle_orders_set,
    fleet_form,
    fleets_merge,
    line_order_set,
    posture_set,
    ships_transfer,
    units_embark,
)
from campaign.turn.sea.paths import fleets_move
from campaign.turn.sea.records import engagements_record, positions_report
from campaign.turn.sea.world import sea_world_load


def movement_phase(ctx: PhaseContext) -> None:
    """Phase 3 (RULES.md §3, §4, §0, §7): see the module docstring."""
    handlers = {
        Order.Kind.POSTURE: posture_set,
        Order.Kind.BATTLE_ORDERS: battle_orders_set,
        Order.Kind.LINE_ORDER: line_order_set,
        Order.Kind.TRANSFER: ships_transfer,
        Order.Kind.FORM_FLEET: fleet_form,
        Order.Kind.MERGE: fleets_merge,
        Order.Kind.APPOINT: admiral_appoint,
        Order.Kind.EMBARK: units_embark,
    }
    groups: tuple[tuple[str, ...], ...] = (
        (Order.Kind.POSTURE, Order.Kind.BATTLE_ORDERS, Order.Kind.LINE_ORDER),
        (Order.Kind.TRANSFER, Order.Kind.FORM_FLEET, Order.Kind.MERGE),
        (Order.Kind.APPOINT,),
        (Order.Kind.EMBARK,),
    )
    for kinds in groups:
        for order in orders_pending(ctx, kinds):
            try:
                note = handlers[Order.Kind(order.kind)](ctx, order)
            except Refused as refused:
                order_skip(ctx, order, str(refused), refused.code)
                continue
            order_done(ctx, order, note)
    # The campaign's NMR house option: nations without orders may bring their fleets home first.
    nmr_fleets_to_port(ctx)
    world = sea_world_load(ctx)
    for outcome in fleets_move(world, orders_pending(ctx, (Order.Kind.MOVE,))):
        if outcome.skipped:
            order_skip(ctx, outcome.order, outcome.note, outcome.code)
        else:
            order_done(ctx, outcome.order, outcome.note)
    port_capacity_enforce(world)
    fleets_save(world)
    for outcome in port_engagements_plan(world, orders_pending(ctx, (Order.Kind.SALLY,))):
        if outcome.skipped:
            order_skip(ctx, outcome.order, outcome.note, outcome.code)
        else:
            order_done(ctx, outcome.order, outcome.note)
    engagements_record(world)
    positions_report(world)
