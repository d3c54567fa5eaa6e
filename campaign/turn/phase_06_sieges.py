"""Phase 6 of RULES.md §3: landings and sieges (§7).

Phase 6 "landings and sieges, captures": the land orders of every nation (nations in code order,
orders in listed order), then every besieged port's siege roll (ports in key order, one d10 each,
seeded from (campaign seed, turn, 6, port key)). A port taken here records its captor and the
turn; it changes owner after phase 9 (``campaign.turn.captures``), so the garrison keeps the guns until
then [S].

A port whose storming was sent to the table (issue 15) rolls no die: its siege waits at the table
while every other port's rolls as usual, and phase 7 waits for it (``campaign.turn.storming``).

The phase orchestrates; the rules are in ``rules.siege``, the writes in ``ports.services``.
"""

from __future__ import annotations

from battles.models import Battle
from campaign.models import Nation, Order, Turn
from campaign.selectors import Diplomacy, diplomacy_for_campaign
from campaign.turn.context import PhaseContext
from campaign.turn.outcomes import order_done, order_skip, orders_pending
from campaign.turn.storming import siege_outcome_apply, storming_hold, stormings_marked, stormings_unheld_close
from fleets.models import Fleet, Ship
from fleets.selectors import blockades_for_turn
from fleets.weather import transports_cargo_lose
from ports.models import LandUnit, Port
from ports.selectors import land_units_by_port, ports_for_campaign
from ports.services import land_units_land, siege_end
from rules.siege import SiegeState, SiegeUnit, garrison_strength, siege_can_roll, siege_roll
from rules.turn_events import LandUnitsLost, PortNoted, UnitsLanded, counted

# --- selectors -------------------------------------------------------------------------------------

#: RULES.md §4 blockade and §7 landing: "a fleet that did not retire, break, evade or get beaten".
BARRED_OUTCOMES = frozenset({"retired", "broke", "evaded", "beaten"})


#: Fates after which a ship no longer tells which fleet fought: it went down or changed hands.
_GONE_FATES = frozenset({"sunk", "captured"})


def _ship_ref_id(ref: object) -> int | None:
    """A battle report's ship ``ref`` as a ship id: a whole number, or text such as "ship:12"."""
    if isinstance(ref, bool):
        return None
    if isinstance(ref, int):
        return ref
    if isinstance(ref, str):
        tail = ref.rsplit(":", 1)[-1]
        return int(tail) if tail.isascii() and tail.isdigit() else None
    return None


def fleets_beaten_this_turn(*, turn: Turn) -> frozenset[int]:
    """Ids of the fleets that retired, broke, evaded or were beaten in any battle of ``turn``.

    Reads the Battle rows of the turn: ``report["outcome"]`` gives each side's outcome (side 0
    first). A side's fleets are ``Battle.sides[i]["fleets"]`` (fleet ids) when the battle recorded
    them; otherwise the fleets that now hold the side's ships named by the report's ship ``ref``
    (ship ids), leaving out ships that ended sunk or captured (they tell nothing of their old fleet).
    A turn without battles bars no fleet.
    """
    barred: set[int] = set()
    wanted_ships: set[int] = set()
    by_ref: list[tuple[int, set[int]]] = []  # (side index, ship ids) still to be turned into fleets
    for sides, report in Battle.objects.filter(turn=turn).values_list("sides", "report"):
        outcome = report.get("outcome") if isinstance(report, dict) else None
        if not isinstance(outcome, list):
            continue
        for index, side_outcome in enumerate(outcome):
            if side_outcome not in BARRED_OUTCOMES:
                continue
            side = sides[index] if isinstance(sides, list) and index < len(sides) else {}
            fleets = side.get("fleets") if isinstance(side, dict) else None
            if isinstance(fleets, list):
                barred.update(f for f in fleets if isinstance(f, int) and not isinstance(f, bool))
                continue
            ships = {
                ship_id
                for s in report.get("ships", [])
                if isinstance(s, dict) and s.get("side") == index and s.get("fate") not in _GONE_FATES
                for ship_id in [_ship_ref_id(s.get("ref"))]
                if ship_id is not None
            }
            wanted_ships |= ships
            by_ref.append((index, ships))
    if wanted_ships:
        fleet_of = dict(Ship.objects.filter(pk__in=wanted_ships, fleet__isnull=False).values_list("id", "fleet_id"))
        for _, ships in by_ref:
            barred.update(fleet_of[s] for s in ships if s in fleet_of)
    return frozenset(barred)


# --- phase 6: landings and sieges (RULES.md §7) -----------------------------------------------------


def landings_and_sieges_phase(ctx: PhaseContext) -> None:
    """RULES.md §3 phase 6: lost cargo, landings in order, then the sieges, ports in key order."""
    diplomacy = diplomacy_for_campaign(campaign_id=ctx.campaign.pk)
    nations = {n.pk: n for n in Nation.objects.filter(campaign=ctx.campaign)}
    for unit in transports_cargo_lose(campaign_id=ctx.campaign.pk):
        text = "A land unit was lost with its transport."  # one event per unit, as it was lost
        ctx.report([nations[unit.nation_id].code], LandUnitsLost(text=text, unit_ids=(unit.pk,)))
    ports = {p.key: p for p in ports_for_campaign(campaign_id=ctx.campaign.pk)}
    _landings(ctx, ports, diplomacy, nations)
    _sieges(ctx, ports, diplomacy, nations)


def _landings(ctx: PhaseContext, ports: dict[str, Port], diplomacy: Diplomacy, nations: dict[int, Nation]) -> None:
    """RULES.md §7: "Landing happens in phase 6 from a fleet that did not retire, break, evade or get
    beaten this turn, at a port in its zone: own port → garrison; allied → guests; enemy →
    besiegers; neutral → refused."
    """

    orders = orders_pending(ctx, (Order.Kind.LAND,))
    if not orders:
        return
    barred = fleets_beaten_this_turn(turn=ctx.turn)
    for order in orders:
        body = order.body
        fleet = (
            Fleet.objects.filter(campaign=ctx.campaign, pk=body.get("fleet"), nation=order.nation)
            .select_related("sea_zone", "port")
            .first()
        )
        port = ports.get(str(body.get("port", "")))
        units_wanted = body.get("units", 1)
        if fleet is None:
            order_skip(
                ctx, order, f"the fleet of this order is no longer one of {order.nation.name}'s fleets", "unknown_fleet"
            )
            continue
        if port is None:
            order_skip(ctx, order, f"port {body.get('port')!r} does not exist", "unknown_port")
            continue
        if not isinstance(units_wanted, int) or isinstance(units_wanted, bool) or units_wanted < 1:
            order_skip(ctx, order, f"units must be a whole number of at least 1, got {units_wanted!r}", "out_of_range")
            continue
        if fleet.pk in barred:
            order_skip(
                ctx,
                order,
                f"{fleet.name} retired, broke, evaded or was beaten this turn and cannot land (§7)",
                "fleet_left_battle",
            )
            continue
        if fleet.sea_zone_id != port.sea_zone_id or fleet.port_id not in (None, port.pk):
            where = fleet.port.name if fleet.port else fleet.sea_zone.name
            order_skip(ctx, order, f"{fleet.name} is at {where}, not at sea in {port.name}'s zone (§7)", "wrong_zone")
            continue
        nation_id = order.nation_id
        if port.owner_id == nation_id:
            state, role = LandUnit.State.GARRISON, "its garrison"
        elif diplomacy.allied(nation_id, port.owner_id):
            state, role = LandUnit.State.ASHORE, "ashore as guests"
        elif diplomacy.at_war(nation_id, port.owner_id):
            state, role = LandUnit.State.ASHORE, "ashore to besiege it"
        else:
            order_skip(
                ctx, order, f"{port.name} belongs to {port.owner.name}, a neutral: landing refused (§7)", "neutral_port"
            )
            continue
        _units_landed(
            ctx,
            order,
            fleet=fleet,
            port=port,
            units_wanted=units_wanted,
            state=state,
            role=role,
            diplomacy=diplomacy,
            nations=nations,
        )


def _units_landed(
    ctx: PhaseContext,
    order: Order,
    *,
    fleet: Fleet,
    port: Port,
    units_wanted: int,
    state: str,
    role: str,
    diplomacy: Diplomacy,
    nations: dict[int, Nation],
) -> None:
    """One landing order the checks of :func:`_landings` let through: its transports unload up to
    ``units_wanted`` units at ``port`` as ``state``, reported; kept apart so the checks read on their own."""
    transports = list(
        fleet.ships.filter(ship_class="transport", cargo__isnull=False, condition__in=Ship.AFLOAT)
        .select_related("cargo")
        .order_by("line_position", "id")[:units_wanted]
    )
    if not transports:
        order_skip(ctx, order, f"{fleet.name} has no land unit aboard", "not_enough_units")
        return
    units = [t.cargo for t in transports if t.cargo is not None]
    Ship.objects.filter(pk__in=[t.pk for t in transports]).update(cargo=None)
    land_units_land(units=units, port=port, state=state)
    short = f" (only {len(units)} aboard)" if len(units) < units_wanted else ""
    order_done(ctx, order, f"{counted(len(units), 'land unit')} landed at {port.name}{short}")
    ctx.report(
        [order.nation.code],
        UnitsLanded(
            text=f"{fleet.name} landed {counted(len(units), 'land unit')} at {port.name}, {role}{short}.",
            fleet_id=fleet.pk,
            fleet_name=fleet.name,
            port_key=port.key,
            port_name=port.name,
            unit_ids=tuple(u.pk for u in units),
        ),
    )
    if state == LandUnit.State.ASHORE and diplomacy.at_war(order.nation_id, port.owner_id):
        text = f"{order.nation.name} landed {counted(len(units), 'land unit')} before {port.name}."
        noted = PortNoted(text=text, port_key=port.key, port_name=port.name, code="landing")
        ctx.report([nations[port.owner_id].code], noted)


def _sieges(ctx: PhaseContext, ports: dict[str, Port], diplomacy: Diplomacy, nations: dict[int, Nation]) -> None:
    """RULES.md §7 "Siege": "in phase 6, after landings, a port with land units ashore from nations
    at war with its owner is besieged (no order needed)". One d10 per port, ports in key order; a
    port whose storming was sent to the table rolls none and waits for it (``campaign.turn.storming``)."""
    turn = ctx.turn.number
    units_at = land_units_by_port(campaign_id=ctx.campaign.pk)
    blockades = blockades_for_turn(campaign_id=ctx.campaign.pk, turn=turn, at_war=diplomacy.at_war)
    code_to_nation = {n.code: n for n in nations.values()}
    to_table = stormings_marked(ctx)
    rolled: set[str] = set()
    for key in sorted(ports):
        port = ports[key]
        owner = port.owner_id
        units = units_at.get(port.pk, [])
        besiegers = [u for u in units if u.state == LandUnit.State.ASHORE and diplomacy.at_war(u.nation_id, owner)]
        if not besiegers:
            if port.siege_turns:
                siege_end(port=port)
                text = f"The siege of {port.name} ({nations[owner].name}) has ended."
                ctx.report(None, PortNoted(text=text, port_key=port.key, port_name=port.name, code="siege_ended"))
            continue
        garrison = [u for u in units if u not in besiegers and diplomacy.allied(u.nation_id, owner)]
        state = SiegeState(
            port=port.key,
            besiegers=tuple(SiegeUnit(u.pk, u.nation.code, u.siege_train) for u in besiegers),
            garrison=tuple(SiegeUnit(u.pk, u.nation.code, u.siege_train) for u in garrison),
            fortification=port.fortification,
            gibraltar=port.gibraltar,
            earlier_turns=port.siege_turns,
            blockaded=blockades.against(port.pk, owner),
            commander=port.commander or None,
        )
        g = garrison_strength(len(garrison), port.gibraltar, ctx.ruleset)
        if siege_can_roll(len(besiegers), g, ctx.ruleset):
            if key in to_table:
                storming_hold(ctx, to_table[key], port, state, nations[owner])
                continue
            rolled.add(key)
        result = siege_roll(state, ctx.ruleset, ctx.dice(port.key), ctx.log)
        siege_outcome_apply(ctx, port, result, [u.nation.code for u in besiegers], code_to_nation)
    stormings_unheld_close(ctx, rolled)
