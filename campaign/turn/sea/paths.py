"""Phase 3 movement along a move order's path (RULES.md §4 "Movement", §2 in ordinary): two
simultaneous steps, contacts after each (:mod:`campaign.turn.sea.contacts`)."""

from __future__ import annotations

from collections.abc import Sequence

from campaign.models import Order
from campaign.orders.board import max_steps
from campaign.orders.errors import CheckFailed
from campaign.turn.sea.contacts import contacts_resolve
from campaign.turn.sea.world import SEA, MoveNote, Mover, SeaWorld, fleet_place_name, steps_named
from fleets.models import Fleet, Ship
from fleets.rows import rows_update
from fleets.selectors import free_fleet_name
from rules.turn_events import FleetNoted, counted


def fleets_move(world: SeaWorld, orders: Sequence[Order]) -> list[MoveNote]:
    """Carry out the move orders (§4 "Movement") and resolve contacts after each step.

    ``orders`` come in processing order. Returns the outcome of each order for the caller to mark;
    contacts leading to a fight are appended to ``world.plans``."""
    ruleset = world.ctx.ruleset
    notes: dict[int, MoveNote] = {}
    moving: list[Mover] = []
    for order in orders:
        refused = _order_attach(world, order)
        if refused is not None:
            notes[order.pk] = MoveNote(order, True, refused[0], refused[1])
            continue
        mover = world.movers[int(order.body["fleet"])]
        moving.append(mover)
        limit = max_steps(ruleset, mover.ships)
        if len(mover.path) > limit:
            cut = mover.path[limit:]
            mover.path = mover.path[:limit]
            why = "it has a disabled ship" if limit < ruleset["movement.max_steps"] else "the most a move order allows"
            world.ctx.report(
                [world.code(mover.fleet.nation_id)],
                FleetNoted(
                    text=f"{mover.fleet.name} may sail {counted(limit, 'step')} ({why}): "
                    f"{steps_named(world, cut)} not sailed.",
                    fleet_id=mover.fleet.pk,
                    fleet_name=mover.fleet.name,
                    code="move_cut_short",
                ),
            )
    for step in (1, 2):
        entered: set[int] = set()
        for mover in moving:
            mover.entered_port = False
            if mover.halted or mover.engaged or len(mover.path) < step:
                continue
            token = mover.path[step - 1]
            zone_entered, problem = _step_take(world, mover, token, step)
            if problem is not None:
                mover.halted = True
                rest, why = mover.path[step - 1 :], str(problem)
                world.ctx.report(
                    [world.code(mover.fleet.nation_id)],
                    FleetNoted(
                        text=f"{mover.fleet.name} could not sail {steps_named(world, rest)}: {why}.",
                        fleet_id=mover.fleet.pk,
                        fleet_name=mover.fleet.name,
                        code="move_blocked",
                    ),
                )
                if not mover.sailed and mover.order is not None:
                    notes[mover.order.pk] = MoveNote(mover.order, True, why, str(problem.code))
                continue
            mover.sailed.append(token)
            if zone_entered is not None:
                entered.add(zone_entered)
        if step == 1:
            zone_ids = {m.fleet.sea_zone_id for m in world.movers.values() if m.at_sea_in(m.fleet.sea_zone_id, step)}
        else:
            zone_ids = entered
        for zone in sorted((world.zones[z] for z in zone_ids), key=lambda z: z.key):
            contacts_resolve(world, zone, step)
        for mover in moving:
            if mover.engaged and mover.entered_port and mover.port_step == step:
                mover.fleet.port_id = None  # caught on its way in: it stays at sea (§4)
            mover.entered_port = False
    for mover in moving:
        assert mover.order is not None
        if mover.order.pk in notes:
            continue
        where = fleet_place_name(world, mover.fleet)
        text = f"sailed {steps_named(world, mover.sailed, ' → ')}" if mover.sailed else "did not sail"
        if mover.engaged and len(mover.sailed) < len(mover.path):
            text += f"; stopped by the enemy, {steps_named(world, mover.path[len(mover.sailed) :])} not sailed"
        notes[mover.order.pk] = MoveNote(mover.order, False, f"{text}; now {where}")
    return [notes[o.pk] for o in orders if o.pk in notes]


def _order_attach(world: SeaWorld, order: Order) -> tuple[str, str] | None:
    """Check a move order against the fleet as it is now: None if it can be sailed, else why (in words,
    and as the order check's refusal code)."""
    body = order.body
    try:
        mover = world.movers[int(body.get("fleet"))]
    except (KeyError, TypeError, ValueError):
        return f"fleet {body.get('fleet')!r} does not exist", "unknown_fleet"
    fleet = mover.fleet
    if fleet.nation_id != order.nation_id:
        return f"{fleet.name} is not one of your fleets", "unknown_fleet"
    path = body.get("path")
    if not isinstance(path, list) or not path or not all(isinstance(t, str) for t in path):
        return "the order has no path", "missing_key"
    if mover.order is not None:
        return f"{fleet.name} already has a move order", "one_per_turn"
    if not mover.ships:
        return f"{fleet.name} has no ships", "no_ships"
    if fleet.port_id is not None and path[0] == SEA:
        laid_up = [s for s in mover.ships if s.in_ordinary]
        if len(laid_up) == len(mover.ships):
            return f"every ship of {fleet.name} is laid up in ordinary and cannot leave port", "in_ordinary"
        if laid_up:
            _leave_behind(world, mover, laid_up)
    mover.order = order
    mover.path = list(path)
    return None


def _leave_behind(world: SeaWorld, mover: Mover, ships: list[Ship]) -> None:
    """§2: ships in ordinary cannot leave port; they stay in it (module docstring)."""
    fleet = mover.fleet
    port = world.ports[fleet.port_id] if fleet.port_id is not None else None
    assert port is not None
    staying = [
        m
        for m in world.movers.values()
        if m is not mover and m.fleet.port_id == port.pk and m.fleet.nation_id == fleet.nation_id and m.order is None
    ]
    if staying:
        keeper = min(staying, key=lambda m: m.fleet.pk)
    else:
        nation = world.nations[fleet.nation_id]
        new = Fleet.objects.create(
            campaign_id=fleet.campaign_id,
            nation_id=fleet.nation_id,
            name=free_fleet_name(campaign_id=fleet.campaign_id, nation_id=fleet.nation_id, base=port.name),
            sea_zone_id=port.sea_zone_id,
            port=port,
            crew=nation.crew,
            left_port_turn=fleet.left_port_turn,
            created_turn=world.ctx.turn.number,
        )
        keeper = Mover(new, [], port.pk)
        world.movers[new.pk] = keeper
    top = max((s.line_position for s in keeper.ships), default=0)
    for k, ship in enumerate(ships, start=1):
        ship.fleet = keeper.fleet
        ship.line_position = top + k
    rows_update(Ship, ships, ["fleet", "line_position"])
    keeper.ships.extend(ships)
    mover.ships = [s for s in mover.ships if s not in ships]
    world.ctx.report(
        [world.code(fleet.nation_id)],
        FleetNoted(
            text=f"{counted(len(ships), 'ship')} of {fleet.name} in ordinary stayed in {port.name} with "
            f"{keeper.fleet.name}.",
            fleet_id=fleet.pk,
            fleet_name=fleet.name,
            port_key=port.key,
            port_name=port.name,
            code="ships_left_behind",
        ),
    )


def _step_take(world: SeaWorld, mover: Mover, token: str, step: int) -> tuple[int | None, CheckFailed | None]:
    """One step (§4), checked by the move order's own check (:meth:`Board.step`) against where the
    fleet is now. Returns (zone entered, None) or (None, why it is impossible). Ships in ordinary
    were left behind when the order was attached (:func:`_leave_behind`)."""
    fleet = mover.fleet
    zone = world.zones[fleet.sea_zone_id]
    port = world.ports[fleet.port_id] if fleet.port_id is not None else None
    try:
        to_zone, to_port = world.board.step(nation=world.nations[fleet.nation_id], zone=zone, port=port, step=token)
    except CheckFailed as failed:
        return None, failed
    if port is not None:  # "sea": out of the port into its zone
        fleet.port_id = None
        mover.left_port = True
        mover.port_step = step
        if world.friendly(fleet.nation_id, port.owner_id):
            fleet.left_port_turn = world.ctx.turn.number  # §8 supply (c)
        return to_zone.pk, None
    if to_port is not None:  # into an own or allied port of the zone
        fleet.port_id = to_port.pk
        mover.entered_port = True
        mover.port_step = step
        return None, None
    fleet.sea_zone_id = to_zone.pk
    return to_zone.pk, None
