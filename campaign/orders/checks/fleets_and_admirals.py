"""Checks of the fleet organisation orders (RULES.md §0, §3): transfer ships, form a fleet, merge
fleets, appoint an admiral. They come first in phase 3, so later orders see the fleets they make."""

from __future__ import annotations

from collections.abc import Sequence

from campaign.orders.board import ship_names
from campaign.orders.checks.result import Checked
from campaign.orders.context import OrderContext, ShipAfloat
from campaign.orders.errors import OrderCheck, RefusalCode
from campaign.orders.schema import FLEET_NAME_MAX, Fields, checked_name
from fleets.models import Admiral


def _organised_ships(ctx: OrderContext, chk: OrderCheck, ids: Sequence[int]) -> list[ShipAfloat]:
    """The ships afloat named, none of them moved already by a transfer or new fleet listed before."""
    ships = ctx.ship_list(chk, ids)
    for ship in ships:
        earlier = ctx.listed.org_ships.get(ship.pk)
        if earlier is not None:
            chk.refuse(
                f"{ship.name} is already moved by order {earlier}", code=RefusalCode.SHIP_REORGANISED, field="ships"
            )
    return ships


def transfer_check(ctx: OrderContext, chk: OrderCheck, f: Fields) -> Checked:
    """RULES.md §3: ships join another fleet in the same place."""
    ids = f.integers("ships")
    to = ctx.fleet(chk, f, "to_fleet", subject="to fleet")
    ctx.once(chk, to, "to_fleet")
    ships = _organised_ships(ctx, chk, ids)
    where = ctx.place_key(to.pk)
    org = ctx.org_map()
    for ship in ships:
        if org.get(ship.pk) == to.pk:
            chk.refuse(f"{ship.name} is already in {to.name}", code=RefusalCode.ALREADY_IN_FLEET, field="ships")
        place = ctx.place_key(ship.fleet_id)
        if place != where:
            chk.refuse(
                f"{ship.name} is {ctx.place_name(place)} and {to.name} is {ctx.place_name(where)}; ships "
                "move between fleets only in one place (the same zone, and the same port or both at sea)",
                code=RefusalCode.DIFFERENT_PLACE,
                field="ships",
            )
    return {"ships": ids, "to_fleet": to.pk}, to, 0


def form_fleet_check(ctx: OrderContext, chk: OrderCheck, f: Fields) -> Checked:
    """RULES.md §3: ships in one place form a new fleet with a name of its own."""
    ids = f.integers("ships")
    name = checked_name(chk, f)
    chk.subject = f"{name!r}"
    if len(name) > FLEET_NAME_MAX:
        chk.refuse(
            f"a fleet name has at most {FLEET_NAME_MAX} characters; this one has {len(name)}",
            code=RefusalCode.BAD_NAME,
            field="name",
            numbers={"limit": FLEET_NAME_MAX, "length": len(name)},
        )
    if any(fleet.name == name for fleet in ctx.fleets.values()):
        chk.refuse(
            f"{ctx.nation.name} already has a fleet named {name!r}; choose another name",
            code=RefusalCode.BAD_NAME,
            field="name",
        )
    earlier = ctx.listed.fleet_names.get(name)
    if earlier is not None:
        chk.refuse(
            f"order {earlier} already forms a fleet named {name!r}; choose another name",
            code=RefusalCode.BAD_NAME,
            field="name",
        )
    ships = _organised_ships(ctx, chk, ids)
    places = {ctx.place_key(s.fleet_id) for s in ships}
    if len(places) > 1:
        where = "; ".join(
            f"{ship_names(s for s in ships if ctx.place_key(s.fleet_id) == p)} {ctx.place_name(p)}"
            for p in sorted(places, key=str)
        )
        chk.refuse(
            f"a new fleet is formed from ships in one place; these are in several: {where}",
            code=RefusalCode.DIFFERENT_PLACE,
            field="ships",
        )
    return {"ships": ids, "name": name}, None, 0


def merge_check(ctx: OrderContext, chk: OrderCheck, f: Fields) -> Checked:
    """RULES.md §3: a fleet joins another in the same place."""
    fleet = ctx.fleet(chk, f, "fleet")
    into = ctx.fleet(chk, f, "into")
    if into.pk == fleet.pk:
        chk.refuse("a fleet cannot be merged into itself", code=RefusalCode.MERGE_INTO_ITSELF, field="into")
    ctx.once(chk, fleet)
    here, there = ctx.place_key(fleet.pk), ctx.place_key(into.pk)
    if here != there:
        chk.refuse(
            f"{fleet.name} is {ctx.place_name(here)} and {into.name} is {ctx.place_name(there)}; fleets "
            "merge only in one place",
            code=RefusalCode.DIFFERENT_PLACE,
            field="into",
        )
    return {"fleet": fleet.pk, "into": into.pk}, fleet, 0


def appoint_check(ctx: OrderContext, chk: OrderCheck, f: Fields) -> Checked:
    """RULES.md §0: an active admiral of the nation takes command of a fleet, once a turn."""
    name = f.text("admiral")
    fleet = ctx.fleet(chk, f, "fleet")
    ctx.once(chk, fleet)
    admiral = Admiral.objects.filter(campaign=ctx.campaign, nation=ctx.nation, name=name).first()
    if admiral is None:
        chk.refuse(
            f"{ctx.nation.name} has no admiral named {name!r}", code=RefusalCode.UNKNOWN_ADMIRAL, field="admiral"
        )
    if admiral.status != Admiral.Status.ACTIVE:
        chk.refuse(
            f"{admiral.name} is {admiral.get_status_display().lower()}; only an active admiral is appointed",
            code=RefusalCode.ADMIRAL_NOT_ACTIVE,
            field="admiral",
        )
    if fleet.admiral_id == admiral.pk:
        chk.refuse(f"{admiral.name} already commands {fleet.name}", code=RefusalCode.ALREADY_COMMANDS, field="admiral")
    earlier = ctx.listed.appointed.get(admiral.name)
    if earlier is not None:
        chk.refuse(
            f"{admiral.name} is already appointed by order {earlier}", code=RefusalCode.ONE_PER_TURN, field="admiral"
        )
    return {"admiral": admiral.name, "fleet": fleet.pk}, fleet, 0
