"""Checks of the orders for fleets at sea (RULES.md §4–§6, §9): move, posture, battle orders, line
order, run the guns, fireships, sally."""

from __future__ import annotations

from campaign.orders.board import leave_port_check, max_steps, sally_place_check, ship_names
from campaign.orders.checks.result import Checked
from campaign.orders.context import OrderContext, ShipAfloat
from campaign.orders.errors import CheckFailed, OrderCheck, RefusalCode
from campaign.orders.schema import Fields
from fleets.models import Fleet, Ship
from ports.models import Port


def move_check(ctx: OrderContext, chk: OrderCheck, f: Fields) -> Checked:
    """RULES.md §4: a path of at most 2 steps (1 with a disabled ship), each one a legal step."""
    fleet = ctx.fleet(chk, f, "fleet")
    path = f.texts("path")
    ctx.once(chk, fleet)
    sally = ctx.listed.sallies.get(fleet.pk)
    if sally is not None:
        chk.refuse(
            f"the fleet sallies by order {sally}; a sallying fleet does not move as well",
            code=RefusalCode.CONFLICTING_ORDER,
            field="fleet",
        )
    ships = ctx.afloat(chk, fleet)
    limit = max_steps(ctx.ruleset, ships)
    if len(path) > limit:
        disabled = [s for s in ships if s.condition == Ship.Condition.DISABLED]
        why = f"a fleet with a disabled ship ({ship_names(disabled)})" if disabled else "a fleet"
        chk.refuse(
            f"the path has {len(path)} steps; {why} moves at most {limit} step{'s' if limit != 1 else ''} "
            "a turn (rules §4)",
            code=RefusalCode.PATH_TOO_LONG,
            field="path",
            numbers={"steps": len(path), "limit": limit},
        )
    zone, port = ctx.board.place(fleet)
    try:
        ctx.board.walk(nation=ctx.nation, zone=zone, port=port, path=path, ships=ships)
    except CheckFailed as failed:
        chk.refuse_failed(failed, field="path")
    return {"fleet": fleet.pk, "path": path}, fleet, 0


def posture_check(ctx: OrderContext, chk: OrderCheck, f: Fields) -> Checked:
    """RULES.md §4: seek or avoid battle, or blockade a named port."""
    fleet = ctx.fleet(chk, f, "fleet")
    posture = f.choice("posture", Fleet.Posture.values)
    key = f.optional_text("port")
    if posture == Fleet.Posture.BLOCKADE:
        if key is None:
            chk.refuse(
                'a blockade names the port it blockades: "port": "<port key>"',
                code=RefusalCode.PORT_REQUIRED,
                field="port",
            )
        ctx.port(chk, key)
    elif key is not None:
        chk.refuse(
            f'"port" goes only with the blockade posture, not with {posture}',
            code=RefusalCode.PORT_NOT_ALLOWED,
            field="port",
        )
    ctx.once(chk, fleet)
    return {"fleet": fleet.pk, "posture": posture, "port": key}, fleet, 0


def battle_orders_check(ctx: OrderContext, chk: OrderCheck, f: Fields) -> Checked:
    """RULES.md §4, §5: what to do after a drawn day, and where to retreat (an own or allied port)."""
    fleet = ctx.fleet(chk, f, "fleet")
    after = f.choice("after_battle", Fleet.AfterBattle.values)
    port_key = f.optional_text("retreat_port")
    zone_key = f.optional_text("retreat_zone")
    if port_key is not None:
        port = ctx.port(chk, port_key, "retreat_port")
        if not ctx.board.friendly(ctx.nation, port):
            chk.refuse(
                f"{port.name} is {ctx.board.owner_name(port)}'s; a fleet retreats only into an own or allied "
                "port (rules §4)",
                code=RefusalCode.PORT_NOT_FRIENDLY,
                field="retreat_port",
            )
    if zone_key is not None:
        ctx.zone(chk, zone_key, "retreat_zone")
    ctx.once(chk, fleet)
    return {"fleet": fleet.pk, "after_battle": after, "retreat_port": port_key, "retreat_zone": zone_key}, fleet, 0


def line_order_check(ctx: OrderContext, chk: OrderCheck, f: Fields) -> Checked:
    """RULES.md §4: the order of the fleet's line lists exactly its ships afloat, each once."""
    fleet = ctx.fleet(chk, f, "fleet")
    ids = f.integers("ships")
    ctx.once(chk, fleet)
    ships = ctx.fleet_ships(fleet)
    have = {s.pk for s in ships}
    missing = [s for s in ships if s.pk not in set(ids)]
    extra = [sid for sid in ids if sid not in have]
    if missing or extra:
        parts = []
        if missing:
            parts.append(f"it leaves out {', '.join(f'{s.name} ({s.pk})' for s in missing)}")
        if extra:
            parts.append(f"{', '.join(map(str, extra))} {'is' if len(extra) == 1 else 'are'} not in the fleet")
        chk.refuse(
            "a line order lists exactly the fleet's ships afloat, each once; " + " and ".join(parts),
            code=RefusalCode.LINE_MISMATCH,
            field="ships",
        )
    return {"fleet": fleet.pk, "ships": ids}, fleet, 0


def _port_attack(ctx: OrderContext, chk: OrderCheck, f: Fields) -> tuple[Fleet, Port, list[ShipAfloat]]:
    """RULES.md §4, §9: a fleet with ships afloat, at sea in the zone of a port of a nation at war."""
    fleet = ctx.fleet(chk, f, "fleet")
    port = ctx.port(chk, f.text("port"))
    ctx.once(chk, fleet)
    ships = ctx.afloat(chk, fleet)
    zone, in_port = ctx.end_place(fleet)
    try:
        ctx.board.run_guns_check(nation=ctx.nation, port=port, zone=zone, in_port=in_port)
    except CheckFailed as failed:
        chk.refuse_failed(failed, field="port")
    return fleet, port, ships


def run_guns_check(ctx: OrderContext, chk: OrderCheck, f: Fields) -> Checked:
    """RULES.md §4, §6: run the guns of a port of a nation at war."""
    fleet, port, _ = _port_attack(ctx, chk, f)
    return {"fleet": fleet.pk, "port": port.key}, fleet, 0


def fireships_check(ctx: OrderContext, chk: OrderCheck, f: Fields) -> Checked:
    """RULES.md §9: as running the guns, by a fleet with fireships."""
    fleet, port, ships = _port_attack(ctx, chk, f)
    if not any(s.ship_class == "fireship" for s in ships):
        chk.refuse(
            f"fleet {fleet.name!r} has no fireship (rules §9: its fireship-class ships attack)",
            code=RefusalCode.NO_FIRESHIP,
            field="fleet",
        )
    return {"fleet": fleet.pk, "port": port.key}, fleet, 0


def sally_check(ctx: OrderContext, chk: OrderCheck, f: Fields) -> Checked:
    """RULES.md §4: a fleet in port, with no move order, none of its ships in ordinary."""
    fleet = ctx.fleet(chk, f, "fleet")
    ctx.once(chk, fleet)
    zone, port = ctx.board.place(fleet)
    try:
        sally_place_check(zone=zone, port=port)
    except CheckFailed as failed:
        chk.refuse_failed(failed, field="fleet")
    move = ctx.listed.moves.get(fleet.pk)
    if move is not None:
        chk.refuse(
            f"the fleet moves by order {move[0]}; a sallying fleet leaves port only to fight the blockaders",
            code=RefusalCode.CONFLICTING_ORDER,
            field="fleet",
        )
    ships = ctx.afloat(chk, fleet)
    try:
        leave_port_check(ships=ships)
    except CheckFailed as failed:
        chk.refuse_failed(failed, field="fleet")
    return {"fleet": fleet.pk}, fleet, 0
