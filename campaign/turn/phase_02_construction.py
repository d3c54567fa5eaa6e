"""Phase 2 of RULES.md §3: construction and raising (§1, §7) — keels advance and launch, then the
lay-down and raise orders, nations in code order, orders in listed order."""

from __future__ import annotations

from campaign.models import Order
from campaign.orders.checks.building_and_ships import construction_refusal_code
from campaign.services import land_unit_raise, ship_lay_down
from campaign.turn.context import PhaseContext
from campaign.turn.outcomes import order_done, order_skip, orders_pending
from fleets.services import ShipNameError, keels_advance
from ports.models import Port
from rules.construction import ConstructionRefused
from rules.turn_events import ShipLaidDown, ShipLaunched, UnitRaised


def construction_phase(ctx: PhaseContext) -> None:
    # The campaign and its ruleset go to the services as the phase read them: nothing in this phase
    # changes the campaign's row, and reading it again cost a query and a ruleset per order.
    for ship, fleet in keels_advance(campaign_id=ctx.campaign.pk, turn=ctx.turn.number):
        port = fleet.port
        assert port is not None  # a keel is launched in the port it was laid down in
        ctx.report(
            [ship.nation.code],
            ShipLaunched(
                text=f"{ship.name} ({ship.get_ship_class_display()}) launched at {port.name} and joined {fleet.name}.",
                ship_id=ship.pk,
                ship_name=ship.name,
                fleet_id=fleet.pk,
                fleet_name=fleet.name,
                port_key=port.key,
                port_name=port.name,
            ),
        )
    ports = {p.key: p for p in Port.objects.filter(campaign=ctx.campaign)}
    for order in orders_pending(ctx, (Order.Kind.LAY_DOWN, Order.Kind.RAISE)):
        body = order.body
        port = ports.get(body.get("port", ""))
        if port is None:
            order_skip(ctx, order, f"port {body.get('port')!r} does not exist", "unknown_port")
            continue
        try:
            if order.kind == Order.Kind.LAY_DOWN:
                ship = ship_lay_down(
                    nation=order.nation,
                    ship_class=body["class"],
                    name=body["name"],
                    port=port,
                    campaign=ctx.campaign,
                    ruleset=ctx.ruleset,
                )
                order_done(ctx, order, f"{ship.name} laid down at {port.name}")
                ctx.report(
                    [order.nation.code],
                    ShipLaidDown(
                        text=f"Laid down {ship.name} ({ship.get_ship_class_display()}) at {port.name}.",
                        ship_id=ship.pk,
                        ship_name=ship.name,
                        ship_class=ship.ship_class,
                        port_key=port.key,
                        port_name=port.name,
                    ),
                )
            else:
                train = body.get("unit") == "siege_train"
                land_unit_raise(
                    nation=order.nation, port=port, siege_train=train, campaign=ctx.campaign, ruleset=ctx.ruleset
                )
                what = "siege train" if train else "land unit"
                order_done(ctx, order, f"{what} raised at {port.name}")
                ctx.report(
                    [order.nation.code],
                    UnitRaised(
                        text=f"Raised a {what} at {port.name}.",
                        siege_train=train,
                        port_key=port.key,
                        port_name=port.name,
                    ),
                )
        except ConstructionRefused as refused:
            order_skip(ctx, order, str(refused), construction_refusal_code(refused))
        except ShipNameError as refused:
            order_skip(ctx, order, str(refused), "bad_name")
