"""Checks of the orders for building and ships (RULES.md §1, §2, §7): lay down, raise, repair, lay up,
recommission."""

from __future__ import annotations

from campaign.orders.checks.result import Checked
from campaign.orders.context import OrderContext, ShipAfloat
from campaign.orders.errors import CheckFailed, OrderCheck, RefusalCode
from campaign.orders.in_port import ordinary_check, repair_check
from campaign.orders.schema import RAISE_COST_KEY, RAISE_UNITS, SHIP_ORDER_GROUP, Fields, checked_name
from campaign.services import lay_down_port_check, raise_port_check
from fleets.services import ShipNameError, ship_name_validate
from rules.construction import ConstructionRefused, check_lay_down
from rules.ruleset import SHIP_CLASS_NAMES, SHIP_CLASSES

#: The rule a ConstructionRefused names (rules/construction.py) → the refusal's code and field.
_CONSTRUCTION_RULES: dict[str, tuple[RefusalCode, str]] = {
    "port": (RefusalCode.PORT_CANNOT_BUILD, "port"),
    "quota": (RefusalCode.OVER_QUOTA, "class"),
    "four_decker_limit": (RefusalCode.FOUR_DECKER_LIMIT, "class"),
    "treasury": (RefusalCode.NOT_ENOUGH_EP, "class"),
    "class": (RefusalCode.NOT_A_CHOICE, "class"),
}


def _construction_refusal(refused: ConstructionRefused) -> tuple[RefusalCode, str]:
    return _CONSTRUCTION_RULES.get(refused.rule, (RefusalCode.PORT_CANNOT_BUILD, "port"))


def construction_refusal_code(refused: ConstructionRefused) -> RefusalCode:
    """The refusal code of a lay-down the rules refuse (also a skipped order's code at resolution)."""
    return _construction_refusal(refused)[0]


def lay_down_check(ctx: OrderContext, chk: OrderCheck, f: Fields) -> Checked:
    """RULES.md §1: an own dockyard port, a free name, within quota and the four-decker limit, paid for."""
    ship_class = f.choice("class", SHIP_CLASSES)
    name = checked_name(chk, f)
    chk.subject = f"{SHIP_CLASS_NAMES[ship_class]} {name!r}"
    port = ctx.port(chk, f.text("port"))
    try:
        lay_down_port_check(nation=ctx.nation, port=port, turn=ctx.turn.number)
    except ConstructionRefused as refused:
        code, field = _construction_refusal(refused)
        chk.refuse(str(refused).rstrip("."), code=code, field=field, numbers=refused.numbers)
    try:
        name = ship_name_validate(campaign_id=ctx.campaign.pk, original_nation_id=ctx.nation.pk, name=name)
    except ShipNameError as refused:
        chk.refuse(str(refused).rstrip("."), code=RefusalCode.BAD_NAME, field="name")
    earlier = ctx.listed.keel_names.get(name)
    if earlier is not None:
        chk.refuse(
            f"order {earlier} already lays down a ship named {name!r}; choose another name",
            code=RefusalCode.BAD_NAME,
            field="name",
        )
    counts = ctx.navy_counts
    for listed_class in ctx.listed.keel_classes:
        counts = counts.plus(listed_class)
    cost = ctx.ruleset.ship_cost[ship_class]
    try:
        # The treasury is checked below, with the raises counted too.
        check_lay_down(
            ctx.ruleset,
            navy=ctx.nation.navy,
            nation_name=ctx.nation.name,
            year=ctx.turn.year,
            ship_class=ship_class,
            counts=counts,
            available_ep=cost,
        )
    except ConstructionRefused as refused:
        code, field = _construction_refusal(refused)
        chk.refuse(
            refused.message.rstrip(".") + " (lay-downs listed before this one are counted)",
            code=code,
            field=field,
            numbers=refused.numbers,
        )
    ctx.money_check(chk, f"a {SHIP_CLASS_NAMES[ship_class].lower()}", cost, field="class")
    return {"class": ship_class, "name": name, "port": port.key}, None, cost


def raise_check(ctx: OrderContext, chk: OrderCheck, f: Fields) -> Checked:
    """RULES.md §7: a land unit or siege train in an own port that is not besieged, paid for."""
    unit = f.choice("unit", RAISE_UNITS)
    port = ctx.port(chk, f.text("port"))
    what = unit.replace("_", " ")
    chk.subject = f"{what} at {port.name}"
    try:
        raise_port_check(nation=ctx.nation, port=port, what=what)
    except ConstructionRefused as refused:
        code = RefusalCode.BESIEGED if refused.rule == "besieged" else RefusalCode.NOT_OWN_PORT
        chk.refuse(refused.message, code=code, field="port", numbers=refused.numbers)
    cost = ctx.ruleset[RAISE_COST_KEY[unit]]
    ctx.money_check(chk, f"a {what}", cost, field="unit")
    return {"unit": unit, "port": port.key}, None, cost


def _ship_once(ctx: OrderContext, chk: OrderCheck, ship: ShipAfloat) -> None:
    """One repair order, and one lay-up or recommission order, per ship a turn."""
    group = SHIP_ORDER_GROUP[chk.kind]
    earlier = ctx.listed.ship_kinds.get((ship.pk, group))
    if earlier is not None:
        what = "a repair order" if group == "repair" else "a lay_up or recommission order"
        chk.refuse(
            f"{ship.name} already has {what} this turn (order {earlier})", code=RefusalCode.ONE_PER_TURN, field="ship"
        )


def repair_order_check(ctx: OrderContext, chk: OrderCheck, f: Fields) -> Checked:
    """RULES.md §2: start (or stop) repairing a damaged or disabled ship in an own dockyard port."""
    ship = ctx.ship(chk, f)
    on = f.boolean("on", default=True)
    _ship_once(ctx, chk, ship)
    if on:
        try:
            repair_check(nation=ctx.nation, ship=ship, port=ctx.ship_port(ship), turn=ctx.turn.number)
        except CheckFailed as failed:
            chk.refuse_failed(failed, field="ship")
    return {"ship": ship.pk, "on": on}, None, 0


def _ordinary(ctx: OrderContext, chk: OrderCheck, f: Fields, *, lay_up: bool) -> Checked:
    ship = ctx.ship(chk, f)
    _ship_once(ctx, chk, ship)
    try:
        ordinary_check(nation=ctx.nation, ship=ship, port=ctx.ship_port(ship), lay_up=lay_up)
    except CheckFailed as failed:
        chk.refuse_failed(failed, field="ship")
    return {"ship": ship.pk}, None, 0


def lay_up_check(ctx: OrderContext, chk: OrderCheck, f: Fields) -> Checked:
    """RULES.md §2: a ship in commission in an own port goes into ordinary."""
    return _ordinary(ctx, chk, f, lay_up=True)


def recommission_check(ctx: OrderContext, chk: OrderCheck, f: Fields) -> Checked:
    """RULES.md §2: a ship in ordinary in an own port returns to commission."""
    return _ordinary(ctx, chk, f, lay_up=False)
