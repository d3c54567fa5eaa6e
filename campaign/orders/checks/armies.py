"""Checks of the army orders (RULES.md §7): embark land units on transports, land them."""

from __future__ import annotations

from campaign.orders.checks.result import Checked
from campaign.orders.context import OrderContext
from campaign.orders.errors import CheckFailed, OrderCheck, RefusalCode
from campaign.orders.schema import Fields
from ports.models import LandUnit


def embark_check(ctx: OrderContext, chk: OrderCheck, f: Fields) -> Checked:
    """RULES.md §7: units at a port of the fleet's place board its empty transports, one unit each."""
    fleet = ctx.fleet(chk, f, "fleet")
    port = ctx.port(chk, f.text("port"))
    units = f.count("units")
    ctx.once(chk, fleet)
    zone, in_port = ctx.board.place(fleet)
    if in_port is not None and in_port.pk != port.pk:
        chk.refuse(
            f"the fleet is in {in_port.name}; it embarks units only in the port it is in",
            code=RefusalCode.IN_PORT,
            field="port",
        )
    if in_port is None and zone.pk != port.sea_zone_id:
        chk.refuse(
            f"{port.name} is not in {zone.name}, where the fleet is; units embark from a port of its zone",
            code=RefusalCode.WRONG_ZONE,
            field="port",
        )
    there = LandUnit.objects.filter(
        nation=ctx.nation, port=port, state__in=(LandUnit.State.GARRISON, LandUnit.State.ASHORE)
    ).count()
    available = there - ctx.listed.embarked_at[port.key]
    if units > available:
        chk.refuse(
            f"{ctx.nation.name} has {there} land unit{'s' if there != 1 else ''} at {port.name}"
            + (f", {there - available} of them embarked by earlier orders" if there != available else "")
            + f"; {units} cannot embark",
            code=RefusalCode.NOT_ENOUGH_UNITS,
            field="units",
            numbers={"units": units, "have": there, "available": available},
        )
    empty = [s for s in ctx.afloat(chk, fleet) if s.ship_class == "transport" and s.cargo_id is None]
    if units > len(empty):
        chk.refuse(
            f"fleet {fleet.name!r} has {len(empty)} empty transport{'s' if len(empty) != 1 else ''}; each "
            f"carries one land unit (rules §7), so {units} cannot embark",
            code=RefusalCode.NOT_ENOUGH_TRANSPORTS,
            field="units",
            numbers={"units": units, "available": len(empty)},
        )
    return {"fleet": fleet.pk, "port": port.key, "units": units}, fleet, 0


def land_check(ctx: OrderContext, chk: OrderCheck, f: Fields) -> Checked:
    """RULES.md §7: units land at a port of the fleet's zone after its move; never a neutral one."""
    fleet = ctx.fleet(chk, f, "fleet")
    port = ctx.port(chk, f.text("port"))
    units = f.count("units")
    ctx.once(chk, fleet)
    zone, in_port = ctx.end_place(fleet)
    try:
        ctx.board.landing_check(nation=ctx.nation, port=port, zone=zone, in_port=in_port)
    except CheckFailed as failed:
        chk.refuse_failed(failed, field="port")
    loaded = sum(1 for s in ctx.fleet_ships(fleet) if s.ship_class == "transport" and s.cargo_id is not None)
    aboard = loaded + ctx.listed.embarked_by_fleet.get(fleet.pk, 0)
    if units > aboard:
        chk.refuse(
            f"fleet {fleet.name!r} carries {aboard} land unit{'s' if aboard != 1 else ''} "
            f"(counting any embarked by an earlier order); {units} cannot land",
            code=RefusalCode.NOT_ENOUGH_UNITS,
            field="units",
            numbers={"units": units, "available": aboard},
        )
    return {"fleet": fleet.pk, "port": port.key, "units": units}, fleet, 0
