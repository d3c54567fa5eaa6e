"""The per-kind order checks, as one explicit table: :data:`CHECKS` maps every order kind to the
function that checks it (after :func:`campaign.orders.schema.shape_check` has checked the body's form).

One module per group of the order page: fleets at sea, building and ships, fleets and admirals,
armies, diplomacy. "Where is the quota check?" — :func:`building_and_ships.lay_down_check`.
"""

from __future__ import annotations

from campaign.models import Order
from campaign.orders.checks import armies, building_and_ships, diplomacy, fleets_and_admirals, fleets_at_sea
from campaign.orders.checks.result import Check, Checked

CHECKS: dict[str, Check] = {
    Order.Kind.MOVE: fleets_at_sea.move_check,
    Order.Kind.POSTURE: fleets_at_sea.posture_check,
    Order.Kind.BATTLE_ORDERS: fleets_at_sea.battle_orders_check,
    Order.Kind.LINE_ORDER: fleets_at_sea.line_order_check,
    Order.Kind.RUN_GUNS: fleets_at_sea.run_guns_check,
    Order.Kind.SALLY: fleets_at_sea.sally_check,
    Order.Kind.FIRESHIPS: fleets_at_sea.fireships_check,
    Order.Kind.LAY_DOWN: building_and_ships.lay_down_check,
    Order.Kind.RAISE: building_and_ships.raise_check,
    Order.Kind.REPAIR: building_and_ships.repair_order_check,
    Order.Kind.LAY_UP: building_and_ships.lay_up_check,
    Order.Kind.RECOMMISSION: building_and_ships.recommission_check,
    Order.Kind.TRANSFER: fleets_and_admirals.transfer_check,
    Order.Kind.FORM_FLEET: fleets_and_admirals.form_fleet_check,
    Order.Kind.MERGE: fleets_and_admirals.merge_check,
    Order.Kind.APPOINT: fleets_and_admirals.appoint_check,
    Order.Kind.EMBARK: armies.embark_check,
    Order.Kind.LAND: armies.land_check,
    Order.Kind.DECLARE_WAR: diplomacy.diplomacy_check,
    Order.Kind.OFFER_PEACE: diplomacy.diplomacy_check,
    Order.Kind.PROPOSE_ALLIANCE: diplomacy.diplomacy_check,
    Order.Kind.LEAVE_ALLIANCE: diplomacy.diplomacy_check,
}
assert set(CHECKS) == set(Order.Kind.values), "every order kind needs a check"

__all__ = ["CHECKS", "Check", "Checked"]
