"""Phase 3's orders before movement (RULES.md §3, §4, §0, §7): standing orders (posture, battle
orders, line order), fleet organisation (transfer, form, merge), appointments and embarkation.
Each handler returns the note of a done order or raises :class:`Refused` with the reason.

House resolutions:

* A fleet left with no ship keeps its place and name; an admiral left commanding it in port goes
  ashore to wait there, at sea he stays with it until appointed elsewhere in that zone.
* Embarking takes units ashore (re-embarking) before the garrison, each by id; fewer transports or
  units than ordered embark what they can, and the report says so.
"""

from __future__ import annotations

from battles.engagements import ship_line_key
from campaign.models import Order
from campaign.turn.context import PhaseContext
from fleets.models import Admiral, Fleet, Ship
from fleets.rows import rows_update
from ports.models import LandUnit, Port, SeaZone
from rules.turn_events import counted


class Refused(ValueError):
    """An order that cannot be carried out now; the message is the reason reported to its nation, ``code``
    the order check's refusal code for the same reason (the report's ``order_skipped`` code)."""

    def __init__(self, message: str, code: str = "not_possible") -> None:
        super().__init__(message)
        self.code = code


def _fleet(ctx: PhaseContext, order: Order, key: str = "fleet") -> Fleet:
    try:
        # The fleet's row alone: its nation is compared by id, its port and zone are named only in a
        # refusal (read then, lazily), and most orders are carried out.
        fleet = Fleet.objects.get(campaign=ctx.campaign, pk=int(order.body.get(key)))
    except (Fleet.DoesNotExist, TypeError, ValueError):
        raise Refused(f"fleet {order.body.get(key)!r} does not exist", "unknown_fleet") from None
    if fleet.nation_id != order.nation_id:
        raise Refused(f"{fleet.name} is not one of your fleets", "unknown_fleet")
    return fleet


def _place(fleet: Fleet) -> tuple[str, int]:
    return ("port", fleet.port_id) if fleet.port_id is not None else ("sea", fleet.sea_zone_id)


def _place_name(fleet: Fleet) -> str:
    return f"in {fleet.port.name}" if fleet.port is not None else f"at sea in {fleet.sea_zone.name}"


def posture_set(ctx: PhaseContext, order: Order) -> str:
    """§4 posture (standing): seek, avoid, or blockade P."""
    fleet = _fleet(ctx, order)
    posture = order.body.get("posture")
    if posture not in Fleet.Posture.values:
        raise Refused(f"unknown posture {posture!r}; allowed: {', '.join(Fleet.Posture.values)}", "not_a_choice")
    port = None
    if posture == Fleet.Posture.BLOCKADE:
        port = Port.objects.filter(campaign=ctx.campaign, key=order.body.get("port")).first()
        if port is None:
            raise Refused(f"there is no port {order.body.get('port')!r} to blockade", "unknown_port")
    fleet.posture = posture
    fleet.blockade_port = port
    fleet.save(update_fields=["posture", "blockade_port"])
    return f"{fleet.name} will {posture}" + (f" {port.name}" if port is not None else " battle")


def battle_orders_set(ctx: PhaseContext, order: Order) -> str:
    """§4/§5 battle standing orders: after a day both held (auto, continue, evade), retreat port, retreat zone."""
    fleet = _fleet(ctx, order)
    body = order.body
    after = body.get("after_battle", fleet.after_battle)
    if after not in Fleet.AfterBattle.values:
        raise Refused(
            f"unknown after-battle order {after!r}; allowed: {', '.join(Fleet.AfterBattle.values)}", "not_a_choice"
        )
    port = zone = None
    if body.get("retreat_port"):
        port = Port.objects.filter(campaign=ctx.campaign, key=body["retreat_port"]).first()
        if port is None:
            raise Refused(f"there is no port {body['retreat_port']!r}", "unknown_port")
    if body.get("retreat_zone"):
        zone = SeaZone.objects.filter(campaign=ctx.campaign, key=body["retreat_zone"]).first()
        if zone is None:
            raise Refused(f"there is no sea zone {body['retreat_zone']!r}", "unknown_zone")
    fleet.after_battle = after
    fleet.retreat_port = port
    fleet.retreat_zone = zone
    fleet.save(update_fields=["after_battle", "retreat_port", "retreat_zone"])
    where = port.name if port is not None else zone.name if zone is not None else "towards the nearest own port"
    return f"{fleet.name}'s battle orders: {after} after a day both held; retreat {where}"


def line_order_set(ctx: PhaseContext, order: Order) -> str:
    """§4: "each fleet in the order its player set (default: class EP descending, then ship id),
    flagship first". Listed ships come first in the listed order, the others keep theirs after."""
    fleet = _fleet(ctx, order)
    listed = order.body.get("ships")
    if not isinstance(listed, list):
        raise Refused("the order lists no ships", "missing_key")
    ships = sorted(Ship.objects.filter(fleet=fleet, condition__in=Ship.AFLOAT), key=ship_line_key(ctx.ruleset))
    by_id = {s.pk: s for s in ships}
    first = [by_id[i] for i in dict.fromkeys(listed) if isinstance(i, int) and i in by_id]
    if not first:
        raise Refused(f"none of the listed ships is in {fleet.name}", "unknown_ship")
    rest = [s for s in ships if s not in first]
    for position, ship in enumerate(first + rest, start=1):
        ship.line_position = position
    rows_update(Ship, ships, ["line_position"])
    return f"{fleet.name}'s line: {', '.join(s.name for s in first)} first"


def _ships(ctx: PhaseContext, order: Order) -> list[Ship]:
    """The order's ships that are the nation's and afloat in a fleet (in listed order)."""
    listed = order.body.get("ships")
    if not isinstance(listed, list) or not listed:
        raise Refused("the order lists no ships", "missing_key")
    ids = [i for i in dict.fromkeys(listed) if isinstance(i, int)]
    found = {
        s.pk: s
        for s in Ship.objects.filter(campaign=ctx.campaign, pk__in=ids, nation=order.nation_id)
        .filter(condition__in=Ship.AFLOAT, fleet__isnull=False)
        .select_related("fleet")  # compared by place ids; the names only in a refusal (read then)
    }
    return [found[i] for i in ids if i in found]


def _append(fleet: Fleet, ships: list[Ship]) -> None:
    top = max(Ship.objects.filter(fleet=fleet).values_list("line_position", flat=True), default=0)
    for k, ship in enumerate(ships, start=1):
        ship.fleet = fleet
        ship.line_position = top + k
    rows_update(Ship, ships, ["fleet", "line_position"])


def _fleet_emptied(fleet: Fleet) -> None:
    """A fleet left with no ship: an admiral commanding it in port goes ashore to wait there."""
    if fleet.port_id is None or fleet.admiral_id is None:
        return
    if Ship.objects.filter(fleet=fleet, condition__in=Ship.AFLOAT).exists():
        return
    Admiral.objects.filter(pk=fleet.admiral_id).update(port=fleet.port_id)
    fleet.admiral = None
    fleet.save(update_fields=["admiral"])


def _oldest(turns: list[int | None]) -> int | None:
    """§8: "a merged fleet takes the oldest date" (of those it has)."""
    dated = [t for t in turns if t is not None]
    return min(dated) if dated else None


def ships_transfer(ctx: PhaseContext, order: Order) -> str:
    """Move ships between fleets in one place (§3 fleet organisation)."""
    target = _fleet(ctx, order, "to_fleet")
    ships = [s for s in _ships(ctx, order) if s.fleet_id != target.pk]
    here = [s for s in ships if s.fleet is not None and _place(s.fleet) == _place(target)]
    if not here:
        raise Refused(f"none of the listed ships is {_place_name(target)} with {target.name}", "different_place")
    sources = {s.fleet_id: s.fleet for s in here if s.fleet is not None}
    _append(target, here)
    for source in sources.values():
        _fleet_emptied(source)
    away = len(ships) - len(here)
    return f"{counted(len(here), 'ship')} moved to {target.name}" + (f"; {away} not in the same place" if away else "")


def fleet_form(ctx: PhaseContext, order: Order) -> str:
    """Form a new fleet of ships in one place; it inherits its ships' fleets' supply (§8)."""
    name = " ".join(str(order.body.get("name", "")).split())
    if not name or len(name) > 80:
        raise Refused("a fleet needs a name of 1–80 characters", "bad_name")
    if Fleet.objects.filter(campaign=ctx.campaign, nation=order.nation_id, name=name).exists():
        raise Refused(f"you already have a fleet named {name!r}", "bad_name")
    ships = _ships(ctx, order)
    if not ships:
        raise Refused("none of the listed ships is yours and afloat", "unknown_ship")
    first = ships[0].fleet
    assert first is not None
    here = [s for s in ships if s.fleet is not None and _place(s.fleet) == _place(first)]
    sources = {s.fleet_id: s.fleet for s in here if s.fleet is not None}
    nation = order.nation  # read with the order in this phase (orders_pending): no query of its own
    fleet = Fleet.objects.create(
        campaign=ctx.campaign,
        nation=nation,
        name=name,
        sea_zone_id=first.sea_zone_id,
        port_id=first.port_id,
        crew=nation.crew,
        left_port_turn=_oldest([f.left_port_turn for f in sources.values()]),
        in_supply=all(f.in_supply for f in sources.values()),
        out_of_supply_turns=max(f.out_of_supply_turns for f in sources.values()),
        created_turn=ctx.turn.number,
    )
    _append(fleet, here)
    for source in sources.values():
        _fleet_emptied(source)
    away = len(ships) - len(here)
    elsewhere = f"; {away} {'was' if away == 1 else 'were'} elsewhere" if away else ""
    return f"{name} formed of {counted(len(here), 'ship')}{elsewhere}"


def fleets_merge(ctx: PhaseContext, order: Order) -> str:
    """Merge a fleet into another in the same place; the merged fleet takes the oldest
    ``left_port_turn`` (§8) and the worse supply."""
    fleet = _fleet(ctx, order)
    into = _fleet(ctx, order, "into")
    if fleet.pk == into.pk:
        raise Refused("a fleet cannot merge into itself", "merge_into_itself")
    if _place(fleet) != _place(into):
        raise Refused(f"{fleet.name} is {_place_name(fleet)} and {into.name} is {_place_name(into)}", "different_place")
    ships = sorted(Ship.objects.filter(fleet=fleet, condition__in=Ship.AFLOAT), key=ship_line_key(ctx.ruleset))
    _append(into, ships)
    into.left_port_turn = _oldest([fleet.left_port_turn, into.left_port_turn])
    into.in_supply = fleet.in_supply and into.in_supply
    into.out_of_supply_turns = max(fleet.out_of_supply_turns, into.out_of_supply_turns)
    fields = ["left_port_turn", "in_supply", "out_of_supply_turns"]
    if into.admiral_id is None and fleet.admiral_id is not None:
        admiral_id = fleet.admiral_id
        fleet.admiral = None
        fleet.save(update_fields=["admiral"])
        into.admiral_id = admiral_id
        fields.append("admiral")
    into.save(update_fields=fields)
    _fleet_emptied(fleet)
    return f"{fleet.name} merged into {into.name} ({counted(len(ships), 'ship')})"


def admiral_appoint(ctx: PhaseContext, order: Order) -> str:
    """§0: "Appoint admiral X to fleet F" takes effect when both are in the same place."""
    fleet = _fleet(ctx, order)
    name = order.body.get("admiral")
    admiral = Admiral.objects.filter(campaign=ctx.campaign, nation=order.nation_id, name=name).first()
    if admiral is None:
        raise Refused(f"you have no admiral named {name!r}", "unknown_admiral")
    if admiral.status != Admiral.Status.ACTIVE:
        raise Refused(f"Admiral {admiral.name} is lost", "admiral_not_active")
    if fleet.admiral_id == admiral.pk:
        return f"Admiral {admiral.name} already commands {fleet.name}"
    commanding = Fleet.objects.filter(admiral=admiral).first()
    if commanding is not None:
        if _place(commanding) != _place(fleet):
            raise Refused(
                f"Admiral {admiral.name} is {_place_name(commanding)}, {fleet.name} {_place_name(fleet)}",
                "different_place",
            )
    elif fleet.port_id is None or admiral.port_id != fleet.port_id:
        waiting = f"waits in {admiral.port.name}" if admiral.port is not None else "has no post"
        raise Refused(f"Admiral {admiral.name} {waiting}; {fleet.name} is {_place_name(fleet)}", "different_place")
    if fleet.admiral_id is not None:
        if fleet.port_id is None:
            raise Refused(f"{fleet.name} already has an admiral, and at sea he has nowhere to go", "not_possible")
        Admiral.objects.filter(pk=fleet.admiral_id).update(port=fleet.port_id)
    if commanding is not None:
        commanding.admiral = None
        commanding.save(update_fields=["admiral"])
    fleet.admiral = admiral
    fleet.save(update_fields=["admiral"])
    admiral.port = None
    admiral.save(update_fields=["port"])
    return f"Admiral {admiral.name} takes command of {fleet.name}"


def units_embark(ctx: PhaseContext, order: Order) -> str:
    """§7: embarking "onto empty transports of an own fleet in that port or at sea in its zone"."""
    fleet = _fleet(ctx, order)
    port = Port.objects.filter(campaign=ctx.campaign, key=order.body.get("port")).first()
    if port is None:
        raise Refused(f"there is no port {order.body.get('port')!r}", "unknown_port")
    if not (fleet.port_id == port.pk or (fleet.port_id is None and fleet.sea_zone_id == port.sea_zone_id)):
        raise Refused(f"{fleet.name} is neither in {port.name} nor at sea in its zone", "wrong_zone")
    wanted = order.body.get("units")
    if not isinstance(wanted, int) or isinstance(wanted, bool) or wanted < 1:
        raise Refused("the order must name how many units embark (1 or more)", "out_of_range")
    units = sorted(
        LandUnit.objects.filter(
            nation=order.nation_id, port=port, state__in=[LandUnit.State.ASHORE, LandUnit.State.GARRISON]
        ),
        key=lambda u: (u.state == LandUnit.State.GARRISON, u.pk),
    )
    transports = sorted(
        Ship.objects.filter(
            fleet=fleet, ship_class="transport", cargo__isnull=True, condition__in=Ship.AFLOAT, in_ordinary=False
        ),
        key=ship_line_key(ctx.ruleset),
    )
    count = min(wanted, len(units), len(transports))
    if count == 0:
        missing = "no unit of yours is there" if not units else f"{fleet.name} has no empty transport"
        raise Refused(f"nothing can embark at {port.name}: {missing}", "not_enough_units")
    for unit, ship in zip(units[:count], transports[:count], strict=True):
        unit.state = LandUnit.State.EMBARKED
        unit.port = None
        unit.save(update_fields=["state", "port"])
        ship.cargo = unit
        ship.save(update_fields=["cargo"])
    short = f" (of {wanted} ordered)" if count < wanted else ""
    return f"{counted(count, 'unit')}{short} embarked at {port.name} on {fleet.name}"
