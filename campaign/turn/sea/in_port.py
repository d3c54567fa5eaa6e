"""Phase 3 in port (RULES.md §4 "Zones and ports", "Sally", "Besieged-port engagement", "Hostile fleets in
one port"): port capacity at the end of movement, and the engagements planned in ports."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from battles.models import Engagement
from campaign.models import Order
from campaign.orders.board import sally_place_check
from campaign.orders.errors import CheckFailed
from campaign.turn.sea.contacts import parties_split
from campaign.turn.sea.world import EngagementPlan, MoveNote, Mover, SeaWorld
from fleets.models import Fleet
from fleets.rows import rows_update
from ports.models import LandUnit, Port, SeaZone
from rules.ruleset import SOL_CLASSES
from rules.supply import retreat_step
from rules.turn_events import FleetNoted, counted


def port_capacity_enforce(world: SeaWorld) -> None:
    """§4: at most capacity × ``movement.port_ships_per_capacity`` ships afloat in a port at the end
    of phase 3; ships already there count first, then fleets that entered in processing order; a
    fleet whose entry would exceed the limit stays at sea in the zone."""
    per = world.ctx.ruleset["movement.port_ships_per_capacity"]
    inside: dict[int, list[Mover]] = defaultdict(list)
    for mover in world.movers.values():
        if mover.fleet.port_id is not None:
            inside[mover.fleet.port_id].append(mover)
    for port in sorted((world.ports[p] for p in inside), key=lambda p: p.key):
        movers = inside[port.pk]
        entering = [m for m in movers if m.left_port or m.start_port_id != port.pk]
        count = sum(len(m.ships) for m in movers if m not in entering)
        limit = port.capacity * per
        for mover in sorted(entering, key=lambda m: _processing_key(world, m)):
            if count + len(mover.ships) <= limit:
                count += len(mover.ships)
                continue
            mover.fleet.port_id = None
            world.ctx.report(
                [world.code(mover.fleet.nation_id)],
                FleetNoted(
                    text=f"{mover.fleet.name} could not enter {port.name}: it holds {counted(limit, 'ship')} and "
                    f"{count} {'is' if count == 1 else 'are'} there; the fleet stays at sea in "
                    f"{world.zones[port.sea_zone_id].name}.",
                    fleet_id=mover.fleet.pk,
                    fleet_name=mover.fleet.name,
                    port_key=port.key,
                    port_name=port.name,
                    code="port_full",
                ),
            )


def _processing_key(world: SeaWorld, mover: Mover) -> tuple[str, int, int]:
    position = mover.order.position if mover.order is not None else 0
    return (world.code(mover.fleet.nation_id), position, mover.fleet.pk)


def fleets_save(world: SeaWorld) -> None:
    """Write where each fleet ended the phase. Only the fleets that moved: most stay where they were,
    and a bulk update builds and sends three CASE branches per fleet given."""
    moved = [m.fleet for m in world.movers.values() if m.place != m.loaded]
    if moved:
        rows_update(Fleet, moved, ["sea_zone", "port", "left_port_turn"])


def port_engagements_plan(world: SeaWorld, sally_orders: Sequence[Order]) -> list[MoveNote]:
    """The engagements phase 4 fights besides the contacts at sea, port by port in key order:
    hostile fleets in one port (§4, after a declaration of war), sallies against blockaders (§4
    "Sally"), and the besieged-port engagement (§4 [S]). Returns the outcome of each sally order."""
    notes: list[MoveNote] = []
    sallying: dict[int, list[tuple[Order, Mover]]] = defaultdict(list)
    for order in sally_orders:
        try:
            mover = world.movers[int(order.body.get("fleet"))]
        except (KeyError, TypeError, ValueError):
            notes.append(MoveNote(order, True, f"fleet {order.body.get('fleet')!r} does not exist", "unknown_fleet"))
            continue
        fleet = mover.fleet
        if fleet.nation_id != order.nation_id:
            notes.append(MoveNote(order, True, f"{fleet.name} is not one of your fleets", "unknown_fleet"))
            continue
        port = world.ports[fleet.port_id] if fleet.port_id is not None else None
        try:  # the sally order's own check, as the fleet is now (it may have moved)
            sally_place_check(zone=world.zones[fleet.sea_zone_id], port=port)
        except CheckFailed as failed:
            notes.append(MoveNote(order, True, str(failed), str(failed.code)))
            continue
        assert port is not None  # sally_place_check: in a port
        if not [s for s in mover.ships if not s.in_ordinary]:
            notes.append(MoveNote(order, True, f"{fleet.name} has no ship fit to sail", "no_ships"))
        else:
            sallying[port.pk].append((order, mover))
    besiegers: dict[int, set[int]] = defaultdict(set)
    for port_id, nation_id in LandUnit.objects.filter(
        campaign=world.ctx.campaign, state=LandUnit.State.ASHORE
    ).values_list("port_id", "nation_id"):
        assert port_id is not None
        if world.diplomacy.at_war(nation_id, world.ports[port_id].owner_id):
            besiegers[port_id].add(nation_id)
    for port in sorted(world.ports.values(), key=lambda p: p.key):
        zone = world.zones[port.sea_zone_id]
        in_port = [m for m in world.movers.values() if m.fleet.port_id == port.pk and _fit(m)]
        hostile = parties_split(world, in_port, in_port=True) if in_port else None
        if hostile is not None:
            owner = [k for k, p in enumerate(hostile) if port.owner_id in p.nations]
            world.plans.append(
                EngagementPlan(
                    Engagement.Kind.IN_PORT,
                    zone,
                    hostile,
                    port=port,
                    context={"guns_side": owner[0] if owner else None},
                )
            )
        sallied: set[int] = set()
        if port.pk in sallying:
            notes += _sally_plan(world, port, sallying[port.pk], sallied)
        if besiegers.get(port.pk):
            _besieged_plan(world, port, besiegers[port.pk], sallied)
    return notes


def _fit(mover: Mover) -> bool:
    """Has a ship that can fight in port (not laid up in ordinary)."""
    return any(not s.in_ordinary for s in mover.ships)


def _blockaders(world: SeaWorld, port: Port) -> list[Mover]:
    """Fleets at sea in the port's zone with posture "blockade <port>" and at least 1 SOL."""
    return [
        m
        for m in world.movers.values()
        if m.fleet.port_id is None
        and m.fleet.sea_zone_id == port.sea_zone_id
        and m.fleet.posture == Fleet.Posture.BLOCKADE
        and m.fleet.blockade_port_id == port.pk
        and any(s.ship_class in SOL_CLASSES for s in m.ships)
    ]


def _sally_plan(world: SeaWorld, port: Port, orders: list[tuple[Order, Mover]], sallied: set[int]) -> list[MoveNote]:
    """§4 "Sally": the fleets of one nation and its allies sally together against the blockaders
    at war with them; a sally needs no sighting or intercept."""
    notes: list[MoveNote] = []
    first = min((m.fleet.nation_id for _, m in orders), key=world.code)
    group = [(o, m) for o, m in orders if world.friendly(first, m.fleet.nation_id)]
    for order, mover in orders:
        if (order, mover) not in group:
            notes.append(
                MoveNote(
                    order,
                    True,
                    f"{world.nations[first].name} sallies from {port.name} against other enemies",
                    "overruled",
                )
            )
    nations = {m.fleet.nation_id for _, m in group}
    enemies = [
        m
        for m in _blockaders(world, port)
        if any(world.diplomacy.at_war(m.fleet.nation_id, n) for n in nations)
        and not any(world.friendly(m.fleet.nation_id, n) for n in nations)
    ]
    if not enemies:
        for order, mover in group:
            notes.append(MoveNote(order, True, f"{port.name} is not blockaded against {mover.fleet.name}", "no_target"))
        return notes
    sally = world.party([m for _, m in group], in_port=True)
    blockade = world.party(enemies)
    parties = sorted([sally, blockade], key=world.lead_code)
    world.plans.append(
        EngagementPlan(
            Engagement.Kind.SALLY,
            world.zones[port.sea_zone_id],
            parties,
            port=port,
            context={"sally_side": parties.index(sally), "port": port.key},
        )
    )
    for order, mover in group:
        sallied.add(mover.fleet.pk)
        against = f"the blockaders of {world.words(blockade)}"
        notes.append(MoveNote(order, False, f"sallies from {port.name} against {against}"))
    return notes


def _besieged_plan(world: SeaWorld, port: Port, besieging: set[int], sallied: set[int]) -> None:
    """§4 [S]: a fleet at sea (seek or blockade) in the zone of a besieged port, at war with the
    besiegers' ships inside, may fight them in phase 4."""
    inside = [
        m
        for m in world.movers.values()
        if m.fleet.port_id == port.pk and m.fleet.nation_id in besieging and m.fleet.pk not in sallied and _fit(m)
    ]
    if not inside:
        return
    port_party = world.party(inside, in_port=True)
    lead = port_party.lead.fleet.nation_id
    sea: list[Mover] = []
    for m in sorted(world.movers.values(), key=lambda m: (world.code(m.fleet.nation_id), m.fleet.pk)):
        n = m.fleet.nation_id
        if (
            m.fleet.port_id is None
            and m.fleet.sea_zone_id == port.sea_zone_id
            and m.ships
            and m.fleet.posture in (Fleet.Posture.SEEK, Fleet.Posture.BLOCKADE)
            and world.diplomacy.at_war(n, lead)
            and not any(world.friendly(n, x) for x in port_party.nations)
            and not any(world.diplomacy.at_war(n, o.fleet.nation_id) for o in sea)
        ):
            sea.append(m)
    if not sea:
        return
    sea_party = world.party(sea)
    parties = sorted([port_party, sea_party], key=world.lead_code)
    world.plans.append(
        EngagementPlan(
            Engagement.Kind.BESIEGED_PORT,
            world.zones[port.sea_zone_id],
            parties,
            port=port,
            context={"in_port_side": parties.index(port_party)},
        )
    )


def fleet_retreat(world: SeaWorld, fleet: Fleet, zone: SeaZone) -> dict[str, str | None]:
    """§4: where one fleet goes from ``zone`` if its side retires, breaks, evades or is beaten:
    "into an own or allied port in the zone if its standing order names one, else to the adjacent
    zone its order names (default: the first step towards its nearest own port; ties: lower zone
    key)". ``zone`` is also given with a port, for a sally's blockaders, who must leave the zone."""
    port: Port | None = world.ports.get(fleet.retreat_port_id) if fleet.retreat_port_id is not None else None
    if port is not None and (port.sea_zone_id != zone.pk or not world.friendly(fleet.nation_id, port.owner_id)):
        port = None
    named = world.zones.get(fleet.retreat_zone_id) if fleet.retreat_zone_id is not None else None
    if named is not None and named.key in world.graph[zone.key]:
        step: str | None = named.key
    else:
        step = retreat_step(world.graph, zone.key, world.own_port_zones(fleet.nation_id))
    return {"port": port.key if port is not None else None, "zone": step}
