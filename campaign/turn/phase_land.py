"""Phases 6 and 7 of RULES.md §3: landings and sieges (§7), then storms, supply and attrition (§8).

Phase 6 "landings and sieges, captures": the land orders of every nation (nations in code order,
orders in listed order), then every besieged port's siege roll (ports in key order, one d10 each,
seeded from (campaign seed, turn, 6, port key)). A port taken here records its captor and the
turn; it changes owner after phase 9 (``campaign.turn.captures``), so the garrison keeps the guns until
then [S].

Phase 7 "storms, supply, attrition": storms per zone in key order (the zone's d6, then its ships by
fleet id and line order, seeded from (campaign seed, turn, 7, zone key)); then supply, decided once
for every fleet and land unit; then attrition of what is out of supply. Attrition's dice are seeded
from the place ``attrition:<zone or port key>`` (logged with the plain key as their place): a zone
that rolls for storms and for attrition must not draw the same faces twice.

The phase functions orchestrate; the rules are in ``rules.siege``, ``rules.weather`` and
``rules.supply``, and the writes in the services below and in ``ports.services``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import cast

from battles.models import Battle
from campaign.models import Nation, Order, Turn
from campaign.selectors import Diplomacy, diplomacy_for_campaign
from campaign.turn.runner import PhaseContext
from fleets.models import Blockade, Fleet, Ship
from ports.models import LandUnit, Port
from ports.selectors import land_units_by_port, ports_for_campaign, zone_graph
from ports.services import (
    land_units_land,
    land_units_lose,
    land_units_supply_record,
    port_taken_record,
    siege_end,
    siege_result_apply,
)
from rules.siege import SiegeOutcome, SiegeResult, SiegeState, SiegeUnit, captor_of, siege_roll
from rules.supply import (
    FleetPosition,
    Supply,
    SupplyContext,
    SupplyPort,
    UnitPosition,
    fleets_supply,
    out_of_supply_streak,
    units_supply,
)
from rules.weather import (
    AttritionShip,
    AttritionUnit,
    Effect,
    ShipWeatherResult,
    WeatherShip,
    attrition_roll_all,
    storms_roll,
)
from rules.weather import Condition as WeatherCondition

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
        return int(tail) if tail.isdigit() else None
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


def blockaders_by_port(*, campaign_id: int, turn: int) -> dict[int, list[tuple[int, int]]]:
    """This turn's blockades not lifted by a storm: port id → [(fleet id, fleet's nation id)]."""
    out: dict[int, list[tuple[int, int]]] = defaultdict(list)
    rows = (
        Blockade.objects.filter(campaign_id=campaign_id, turn=turn, lifted=False)
        .order_by("port_id", "fleet_id")
        .values_list("port_id", "fleet_id", "fleet__nation_id")
    )
    for port_id, fleet_id, nation_id in rows:
        out[port_id].append((fleet_id, nation_id))
    return out


def blockaded_against(
    *, port: Port, blockaders: Iterable[tuple[int, int]], present: Collection[int], diplomacy: Diplomacy
) -> frozenset[int]:
    """RULES.md §4: a blockade counts "against every nation at war with it that owns P or has ships
    or land units in P". ``present``: nations with ships or land units in the port. Nation ids."""
    candidates = {port.owner_id, *present}
    blockading = {nation for _, nation in blockaders}
    return frozenset(n for n in candidates if any(diplomacy.at_war(n, b) for b in blockading))


# --- services: ships and cargo ----------------------------------------------------------------------


def transports_cargo_lose(*, campaign_id: int) -> list[LandUnit]:
    """RULES.md §4/§7: "A lost or captured transport loses its unit."

    Every land unit aboard a transport that is sunk (or otherwise gone), or now owned by a nation
    other than the unit's, is lost and the transport's cargo cleared. Returns the units lost.
    """
    ships = list(
        Ship.objects.filter(campaign_id=campaign_id, cargo__isnull=False).select_related("cargo__nation").order_by("id")
    )
    gone = [s for s in ships if s.cargo is not None and (s.condition in Ship.GONE or s.nation_id != s.cargo.nation_id)]
    units = [s.cargo for s in gone if s.cargo is not None]
    Ship.objects.filter(pk__in=[s.pk for s in gone]).update(cargo=None)
    land_units_lose(unit_ids=[u.pk for u in units])
    return units


@dataclass(frozen=True)
class WeatherApplied:
    """What a batch of storm or attrition results did: ship ids damaged and lost, land units lost."""

    damaged: tuple[int, ...]
    lost: tuple[int, ...]
    units_lost: tuple[int, ...]


def ships_weather_apply(
    *, results: Iterable[ShipWeatherResult], units_lost: Iterable[int], turn: int
) -> WeatherApplied:
    """Apply storm or attrition results (RULES.md §8): a damaged ship becomes damaged; a lost ship is
    sunk — it leaves its fleet, stays in history with ``lost_turn`` — and a lost transport's land
    unit is lost with it. Bulk writes: a few queries however many ships."""
    damaged, lost = [], []
    drowned = set(units_lost)
    for r in results:
        if r.effect is Effect.DAMAGED:
            damaged.append(r.ship_id)
        elif r.effect is Effect.LOST:
            lost.append(r.ship_id)
            if r.land_unit_lost is not None:
                drowned.add(r.land_unit_lost)
    if damaged:
        Ship.objects.filter(pk__in=damaged).update(condition=Ship.Condition.DAMAGED)
    if lost:
        Ship.objects.filter(pk__in=lost).update(condition=Ship.Condition.SUNK, fleet=None, cargo=None, lost_turn=turn)
    land_units_lose(unit_ids=drowned)
    return WeatherApplied(tuple(damaged), tuple(lost), tuple(sorted(drowned)))


def fleets_supply_record(*, fleets: Iterable[Fleet], verdicts: Mapping[int, Supply]) -> dict[int, int]:
    """Store each fleet's supply (RULES.md §8, decided once in phase 7): ``in_supply`` and its
    consecutive turns out of supply. Returns fleet id → the new count."""
    changed, streaks = [], {}
    for fleet in fleets:
        verdict = verdicts[fleet.pk]
        streak = out_of_supply_streak(fleet.out_of_supply_turns, verdict.in_supply)
        streaks[fleet.pk] = streak
        if fleet.in_supply != verdict.in_supply or fleet.out_of_supply_turns != streak:
            fleet.in_supply = verdict.in_supply
            fleet.out_of_supply_turns = streak
            changed.append(fleet)
    Fleet.objects.bulk_update(changed, ["in_supply", "out_of_supply_turns"], batch_size=500)
    return streaks


# --- phase 6: landings and sieges (RULES.md §7) -----------------------------------------------------


def landings_and_sieges_phase(ctx: PhaseContext) -> None:
    """RULES.md §3 phase 6: lost cargo, landings in order, then the sieges, ports in key order."""
    diplomacy = diplomacy_for_campaign(campaign_id=ctx.campaign.pk)
    nations = {n.pk: n for n in Nation.objects.filter(campaign=ctx.campaign)}
    for unit in transports_cargo_lose(campaign_id=ctx.campaign.pk):
        ctx.report([nations[unit.nation_id].code], f"A land unit (#{unit.pk}) was lost with its transport.")
    ports = {p.key: p for p in ports_for_campaign(campaign_id=ctx.campaign.pk)}
    _landings(ctx, ports, diplomacy, nations)
    _sieges(ctx, ports, diplomacy, nations)


def _landings(ctx: PhaseContext, ports: dict[str, Port], diplomacy: Diplomacy, nations: dict[int, Nation]) -> None:
    """RULES.md §7: "Landing happens in phase 6 from a fleet that did not retire, break, evade or get
    beaten this turn, at a port in its zone: own port → garrison; allied → guests; enemy →
    besiegers; neutral → refused."
    """
    # The order helpers live with the other phases, which import this module to register it.
    from campaign.turn.phases import _done, _orders, _skip

    orders = _orders(ctx, (Order.Kind.LAND,))
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
            _skip(ctx, order, f"fleet {body.get('fleet')} is no longer one of {order.nation.code}'s fleets")
            continue
        if port is None:
            _skip(ctx, order, f"port {body.get('port')!r} does not exist")
            continue
        if not isinstance(units_wanted, int) or isinstance(units_wanted, bool) or units_wanted < 1:
            _skip(ctx, order, f"units must be a whole number of at least 1, got {units_wanted!r}")
            continue
        if fleet.pk in barred:
            _skip(ctx, order, f"{fleet.name} retired, broke, evaded or was beaten this turn and cannot land (§7)")
            continue
        if fleet.sea_zone_id != port.sea_zone_id or fleet.port_id not in (None, port.pk):
            where = fleet.port.name if fleet.port else fleet.sea_zone.name
            _skip(ctx, order, f"{fleet.name} is at {where}, not at sea in {port.name}'s zone (§7)")
            continue
        nation_id = order.nation_id
        if port.owner_id == nation_id:
            state, role = LandUnit.State.GARRISON, "its garrison"
        elif diplomacy.allied(nation_id, port.owner_id):
            state, role = LandUnit.State.ASHORE, "ashore as guests"
        elif diplomacy.at_war(nation_id, port.owner_id):
            state, role = LandUnit.State.ASHORE, "ashore to besiege it"
        else:
            _skip(ctx, order, f"{port.name} belongs to {port.owner.code}, a neutral: landing refused (§7)")
            continue
        transports = list(
            fleet.ships.filter(ship_class="transport", cargo__isnull=False, condition__in=Ship.AFLOAT)
            .select_related("cargo")
            .order_by("line_position", "id")[:units_wanted]
        )
        if not transports:
            _skip(ctx, order, f"{fleet.name} has no land unit aboard")
            continue
        units = [t.cargo for t in transports if t.cargo is not None]
        Ship.objects.filter(pk__in=[t.pk for t in transports]).update(cargo=None)
        land_units_land(units=units, port=port, state=state)
        short = f" (only {len(units)} aboard)" if len(units) < units_wanted else ""
        _done(order, f"{len(units)} land unit(s) landed at {port.name}{short}")
        ctx.report(
            [order.nation.code],
            f"{fleet.name} landed {len(units)} land unit(s) at {port.name}, {role}{short}.",
            port=port.key,
            units=[u.pk for u in units],
        )
        if state == LandUnit.State.ASHORE and diplomacy.at_war(nation_id, port.owner_id):
            ctx.report(
                [nations[port.owner_id].code],
                f"{order.nation.code} landed {len(units)} land unit(s) before {port.name}.",
                port=port.key,
            )


_OUTCOME_TEXT = {
    SiegeOutcome.TAKEN_UNDEFENDED: "had no garrison and was taken",
    SiegeOutcome.NO_ROLL: "holds: the besiegers are too few to assault it",
    SiegeOutcome.BESIEGER_LOST: "holds; the besiegers lost a unit",
    SiegeOutcome.NOTHING: "holds",
    SiegeOutcome.GARRISON_LOST: "lost a garrison unit",
    SiegeOutcome.STORMED: "was stormed: the garrison was removed and the port taken",
    SiegeOutcome.STORMED_AT_A_COST: "was stormed at the cost of a besieging unit",
}


def _sieges(ctx: PhaseContext, ports: dict[str, Port], diplomacy: Diplomacy, nations: dict[int, Nation]) -> None:
    """RULES.md §7 "Siege": "in phase 6, after landings, a port with land units ashore from nations
    at war with its owner is besieged (no order needed)". One d10 per port, ports in key order."""
    turn = ctx.turn.number
    units_at = land_units_by_port(campaign_id=ctx.campaign.pk)
    blockaders = blockaders_by_port(campaign_id=ctx.campaign.pk, turn=turn)
    code_to_nation = {n.code: n for n in nations.values()}
    for key in sorted(ports):
        port = ports[key]
        owner = port.owner_id
        units = units_at.get(port.pk, [])
        besiegers = [u for u in units if u.state == LandUnit.State.ASHORE and diplomacy.at_war(u.nation_id, owner)]
        if not besiegers:
            if port.siege_turns:
                siege_end(port=port)
                ctx.report(None, f"The siege of {port.name} ({nations[owner].code}) has ended.", port=port.key)
            continue
        garrison = [u for u in units if u not in besiegers and diplomacy.allied(u.nation_id, owner)]
        blockaded = any(diplomacy.at_war(nation, owner) for _, nation in blockaders.get(port.pk, []))
        state = SiegeState(
            port=port.key,
            besiegers=tuple(SiegeUnit(u.pk, u.nation.code, u.siege_train) for u in besiegers),
            garrison=tuple(SiegeUnit(u.pk, u.nation.code, u.siege_train) for u in garrison),
            fortification=port.fortification,
            gibraltar=port.gibraltar,
            earlier_turns=port.siege_turns,
            blockaded=blockaded,
            commander=port.commander or None,
        )
        result = siege_roll(state, ctx.ruleset, ctx.dice(port.key), ctx.log)
        captor = code_to_nation[result.captor] if result.captor else None
        siege_result_apply(port=port, result=result, captor_id=captor.pk if captor else None, turn=turn)
        _siege_report(ctx, port, nations[owner], besiegers, result, captor)


def _siege_report(
    ctx: PhaseContext, port: Port, owner: Nation, besiegers: list[LandUnit], result: SiegeResult, captor: Nation | None
) -> None:
    """Everyone sees "every port's owner, sieges" (§3 fog of war); the numbers and the die go to the
    owner and the besieging nations."""
    besieging = sorted({u.nation.code for u in besiegers})
    text = f"{port.name} ({owner.code}), besieged by {', '.join(besieging)}, {_OUTCOME_TEXT[result.outcome]}"
    if result.outcome is SiegeOutcome.GARRISON_LOST and result.taken:
        text += ", its last: the port is taken"
    if captor is not None:
        text += f". {captor.code} takes it over at the end of the turn"
    elif result.still_besieged:
        text += f" (besieged {result.next_earlier_turns} turn(s) running)"
    elif not result.taken:
        text += ". The siege has ended: no besiegers are left"
    ctx.report(None, text + ".", port=port.key, outcome=str(result.outcome), taken=result.taken)
    detail = f"Siege of {port.name}: B {result.b} against G {result.g}"
    if result.die is not None and result.modifiers is not None:
        detail += f"; d10 {result.die.raw} {result.modifiers.total:+d} = {result.die.result} ({result.die.detail})"
    else:
        detail += "; no roll"
    detail += f"; besiegers lost {len(result.besiegers_lost)}, garrison lost {len(result.garrison_lost)}."
    ctx.report(
        sorted({owner.code, *besieging}),
        detail,
        port=port.key,
        besiegers_lost=list(result.besiegers_lost),
        garrison_lost=list(result.garrison_lost),
    )


# --- phase 7: storms, supply, attrition (RULES.md §8) -----------------------------------------------


def _afloat(condition: str) -> WeatherCondition:
    """A ship condition read from the database as the weather rules' type (the query asked for
    afloat ships only, and ``WeatherShip`` checks it again)."""
    return cast(WeatherCondition, condition)


def storms_supply_attrition_phase(ctx: PhaseContext) -> None:
    """RULES.md §3 phase 7: storms first, then supply decided once, then attrition."""
    diplomacy = diplomacy_for_campaign(campaign_id=ctx.campaign.pk)
    nations = {n.pk: n for n in Nation.objects.filter(campaign=ctx.campaign)}
    _storms(ctx, nations)
    supply = _supply(ctx, diplomacy, nations)
    _attrition(ctx, diplomacy, nations, supply)


def _storms(ctx: PhaseContext, nations: dict[int, Nation]) -> None:
    """RULES.md §8 "Storms" and §4: "A storm in phase 7 that damages or sinks at least half the
    blockading fleet's ships lifts it for supply, repairs and income."""
    turn = ctx.turn.number
    rows = (
        Ship.objects.filter(campaign=ctx.campaign, condition__in=Ship.AFLOAT, fleet__port__isnull=True)
        .order_by("fleet_id", "line_position", "id")
        .values_list(
            "id", "fleet_id", "line_position", "condition", "cargo_id", "fleet__sea_zone__key", "nation_id", "name"
        )
    )
    at_sea: dict[str, list[WeatherShip]] = defaultdict(list)
    nation_of: dict[int, int] = {}
    for ship_id, fleet_id, position, condition, cargo_id, zone, nation_id, name in rows:
        label = f"{name} ({nations[nation_id].code})"
        at_sea[zone].append(WeatherShip(ship_id, fleet_id, position, _afloat(condition), cargo_id, label))
        nation_of[ship_id] = nation_id
    if not at_sea:
        return
    storms = storms_roll(at_sea, ctx.turn.season, ctx.ruleset, ctx.dice, ctx.log)
    blockades = list(
        Blockade.objects.filter(campaign=ctx.campaign, turn=turn, lifted=False, fleet__port__isnull=True)
        .select_related("fleet__sea_zone", "port")
        .order_by("port__key", "fleet_id")
    )
    names = dict(Ship.objects.filter(pk__in=list(nation_of)).values_list("id", "name"))
    for storm in (z for z in storms if z.storm):
        applied = ships_weather_apply(results=storm.ships, units_lost=(), turn=turn)
        for nation_id in sorted({nation_of[r.ship_id] for r in storm.ships}, key=lambda n: nations[n].code):
            mine = [r for r in storm.ships if nation_of[r.ship_id] == nation_id]
            damaged = [names[r.ship_id] for r in mine if r.effect is Effect.DAMAGED]
            lost = [names[r.ship_id] for r in mine if r.effect is Effect.LOST]
            units = [r.land_unit_lost for r in mine if r.land_unit_lost is not None]
            ctx.report(
                [nations[nation_id].code],
                f"A storm swept {storm.zone}: "
                + (f"damaged {', '.join(damaged)}; " if damaged else "")
                + (f"lost {', '.join(lost)}; " if lost else "")
                + (f"{len(units)} land unit(s) went down with their transports; " if units else "")
                + ("no harm done." if not mine or not (damaged or lost) else "that is all."),
                zone=storm.zone,
                damaged=[r.ship_id for r in mine if r.ship_id in applied.damaged],
                lost=[r.ship_id for r in mine if r.ship_id in applied.lost],
            )
        here = [b for b in blockades if b.fleet.sea_zone.key == storm.zone]
        sizes = {b.fleet_id: sum(1 for r in storm.ships if r.fleet_id == b.fleet_id) for b in here}
        lifted = storm.fleets_lifted(sizes, ctx.ruleset)
        for blockade in here:
            if blockade.fleet_id in lifted:
                Blockade.objects.filter(pk=blockade.pk).update(lifted=True)
                ctx.report(
                    None,
                    f"The storm in {storm.zone} lifted the blockade of {blockade.port.name} by {blockade.fleet.name} "
                    f"({nations[blockade.fleet.nation_id].code}) for supply, repairs and income.",
                    port=blockade.port.key,
                )


@dataclass
class _SupplyDecided:
    """Phase 7's supply verdicts and where everything is, for attrition."""

    ports: list[Port]
    units_at: dict[int, list[LandUnit]]
    fleets: list[Fleet]
    fleet_streaks: dict[int, int]
    unit_place: dict[int, str]
    unit_verdicts: dict[int, Supply]
    unit_streaks: dict[int, int]


def _fleet_place(fleet: Fleet) -> str:
    """Where a fleet's ships roll attrition: its port, or its zone when at sea."""
    return fleet.port.key if fleet.port else fleet.sea_zone.key


def _supply(ctx: PhaseContext, diplomacy: Diplomacy, nations: dict[int, Nation]) -> _SupplyDecided:
    """RULES.md §8 "Supply of fleets" and "Supply of land units", decided once after the storms."""
    turn = ctx.turn.number
    code = {pk: n.code for pk, n in nations.items()}
    ports = ports_for_campaign(campaign_id=ctx.campaign.pk)
    fleets = list(Fleet.objects.filter(campaign=ctx.campaign).select_related("sea_zone", "port").order_by("id"))
    units_at = land_units_by_port(campaign_id=ctx.campaign.pk)
    blockaders = blockaders_by_port(campaign_id=ctx.campaign.pk, turn=turn)
    present: dict[int, set[int]] = defaultdict(set)
    for fleet_port, nation_id in (
        Ship.objects.filter(campaign=ctx.campaign, condition__in=Ship.AFLOAT, fleet__port__isnull=False)
        .values_list("fleet__port_id", "nation_id")
        .distinct()
    ):
        present[fleet_port].add(nation_id)
    for port_id, units in units_at.items():
        present[port_id].update(u.nation_id for u in units)
    supply_ports = [
        SupplyPort(
            key=p.key,
            zone=p.sea_zone.key,
            owner=code[p.owner_id],
            besieged=p.siege_turns > 0,
            blockaded_against=frozenset(
                code[n]
                for n in blockaded_against(
                    port=p, blockaders=blockaders.get(p.pk, []), present=present[p.pk], diplomacy=diplomacy
                )
            ),
            # §7: a port taken this turn or last is no supply point (it settles in the next turn).
            supply_point=p.taken_turn is None or p.taken_turn < turn - 1,
        )
        for p in ports
    ]
    allies = {code[a]: {code[b] for b in nations if b != a and diplomacy.allied(a, b)} for a in nations}
    # §2: an unpaid upkeep puts the nation's ships out of supply "until the end of the next turn".
    unpaid = {n.code for n in nations.values() if n.unpaid_upkeep_turn in (turn - 1, turn)}
    supply = SupplyContext.build(
        graph=zone_graph(campaign_id=ctx.campaign.pk),
        ports=supply_ports,
        allies=allies,
        turn=turn,
        ruleset=ctx.ruleset,
        unpaid_upkeep=unpaid,
    )
    verdicts = fleets_supply(
        (
            FleetPosition(
                fleet_id=f.pk,
                nation=code[f.nation_id],
                zone=f.sea_zone.key,
                port=f.port.key if f.port else None,
                left_port_turn=f.left_port_turn,
            )
            for f in fleets
        ),
        supply,
    )
    fleet_streaks = fleets_supply_record(fleets=fleets, verdicts=verdicts)

    positions = [
        UnitPosition(unit_id=u.pk, nation=code[u.nation_id], port=p.key) for p in ports for u in units_at.get(p.pk, [])
    ]
    aboard = Ship.objects.filter(
        campaign=ctx.campaign, cargo__isnull=False, condition__in=Ship.AFLOAT, fleet__isnull=False
    ).values_list("cargo_id", "cargo__nation_id", "fleet_id")
    positions += [UnitPosition(unit_id=u, nation=code[n], fleet_id=f) for u, n, f in aboard]
    unit_verdicts = units_supply(positions, supply, verdicts)
    previous = dict(LandUnit.objects.filter(pk__in=list(unit_verdicts)).values_list("id", "out_of_supply_turns"))
    unit_streaks = {u: out_of_supply_streak(previous[u], v.in_supply) for u, v in unit_verdicts.items()}
    land_units_supply_record(streaks=unit_streaks)

    manned = set(
        Ship.objects.filter(campaign=ctx.campaign, condition__in=Ship.AFLOAT).values_list("fleet_id", flat=True)
    )
    for fleet in fleets:
        verdict = verdicts[fleet.pk]
        if not verdict.in_supply and fleet.pk in manned:
            ctx.report(
                [code[fleet.nation_id]],
                f"{fleet.name} is out of supply ({verdict.reason.replace('_', ' ')}), "
                f"{fleet_streaks[fleet.pk]} turn(s) running.",
                fleet=fleet.pk,
            )
    starving: dict[str, list[str]] = defaultdict(list)
    for position in positions:
        verdict = unit_verdicts[position.unit_id]
        if not verdict.in_supply:
            starving[position.nation].append(f"#{position.unit_id} ({verdict.reason.replace('_', ' ')})")
    for nation_code in sorted(starving):
        ctx.report([nation_code], f"Land units out of supply: {', '.join(starving[nation_code])}.")
    place_of_fleet = {f.pk: _fleet_place(f) for f in fleets}
    unit_place = {p.unit_id: p.port if p.port is not None else place_of_fleet[p.fleet_id or 0] for p in positions}
    return _SupplyDecided(ports, units_at, fleets, fleet_streaks, unit_place, unit_verdicts, unit_streaks)


def _attrition(ctx: PhaseContext, diplomacy: Diplomacy, nations: dict[int, Nation], supply: _SupplyDecided) -> None:
    """RULES.md §8 "Attrition": every ship out of supply (at sea or in port, not building) and every
    land unit out of supply rolls; "A garrison wiped out this way loses the port to its besiegers at
    the end of the turn; with no besiegers it stays with its owner, ungarrisoned."
    """
    turn = ctx.turn.number
    out_fleets = {f.pk: f for f in supply.fleets if not f.in_supply}
    places: dict[str, tuple[list[AttritionShip], list[AttritionUnit]]] = defaultdict(lambda: ([], []))
    nation_of_ship: dict[int, int] = {}
    names: dict[int, str] = {}
    rows = (
        Ship.objects.filter(campaign=ctx.campaign, condition__in=Ship.AFLOAT, fleet_id__in=list(out_fleets))
        .order_by("fleet_id", "line_position", "id")
        .values_list("id", "fleet_id", "line_position", "condition", "cargo_id", "nation_id", "name")
    )
    for ship_id, fleet_id, position, condition, cargo_id, nation_id, name in rows:
        ship = WeatherShip(
            ship_id, fleet_id, position, _afloat(condition), cargo_id, f"{name} ({nations[nation_id].code})"
        )
        places[_fleet_place(out_fleets[fleet_id])][0].append(AttritionShip(ship, supply.fleet_streaks[fleet_id]))
        nation_of_ship[ship_id] = nation_id
        names[ship_id] = name
    nation_of_unit = {u.pk: u.nation_id for units in supply.units_at.values() for u in units}
    nation_of_unit.update(
        LandUnit.objects.filter(pk__in=[u for u in supply.unit_place if u not in nation_of_unit]).values_list(
            "id", "nation_id"
        )
    )
    for unit_id, verdict in sorted(supply.unit_verdicts.items()):
        if not verdict.in_supply:
            places[supply.unit_place[unit_id]][1].append(AttritionUnit(unit_id, supply.unit_streaks[unit_id]))
    if not places:
        return
    results = attrition_roll_all(places, ctx.ruleset, lambda place: ctx.dice(f"attrition:{place}"), ctx.log)
    lost_units: set[int] = set()
    for place in results:
        applied = ships_weather_apply(results=place.ships, units_lost=place.units_lost, turn=turn)
        lost_units.update(applied.units_lost)
        by_nation: dict[int, list[str]] = defaultdict(list)
        for r in place.ships:
            if r.effect is not Effect.NONE:
                by_nation[nation_of_ship[r.ship_id]].append(f"{names[r.ship_id]} {r.effect}")
        for unit_id in applied.units_lost:
            by_nation[nation_of_unit[unit_id]].append(f"land unit #{unit_id} lost")
        for nation_id in sorted(by_nation, key=lambda n: nations[n].code):
            ctx.report(
                [nations[nation_id].code],
                f"Attrition at {place.place}: {', '.join(by_nation[nation_id])}.",
                place=place.place,
            )
    if lost_units:
        _garrisons_starved(ctx, diplomacy, nations, supply, lost_units)


def _garrisons_starved(
    ctx: PhaseContext, diplomacy: Diplomacy, nations: dict[int, Nation], supply: _SupplyDecided, lost: set[int]
) -> None:
    """Ports whose garrison attrition wiped out fall to their besiegers; sieges whose besiegers it
    wiped out end (§7 "A siege with no besiegers left ends, and its count resets")."""
    for port in supply.ports:  # key order
        units = supply.units_at.get(port.pk, [])
        owner = port.owner_id
        besiegers = [u for u in units if u.state == LandUnit.State.ASHORE and diplomacy.at_war(u.nation_id, owner)]
        garrison = [u for u in units if u not in besiegers and diplomacy.allied(u.nation_id, owner)]
        left = [u for u in besiegers if u.pk not in lost]
        if besiegers and not left and port.siege_turns:
            siege_end(port=port)
            ctx.report(None, f"The siege of {port.name} ({nations[owner].code}) has ended: no besiegers are left.")
        if port.captor_id is not None or not garrison or any(u.pk not in lost for u in garrison):
            continue
        if left:
            by_code = {n.code: n for n in nations.values()}
            captor = by_code[captor_of([SiegeUnit(u.pk, nations[u.nation_id].code, u.siege_train) for u in left])]
            port_taken_record(port=port, captor_id=captor.pk, turn=ctx.turn.number)
            ctx.report(
                None,
                f"{port.name}'s garrison ({nations[owner].code}) starved to the last man: "
                f"{captor.code} takes the port at the end of the turn.",
                port=port.key,
                taken=True,
            )
        else:
            ctx.report(
                None,
                f"{port.name}'s garrison starved to the last man; it stays {nations[owner].code}'s, ungarrisoned.",
                port=port.key,
            )
