"""Phase 7 of RULES.md §3: storms, supply and attrition (§8).

Phase 7 "storms, supply, attrition": storms per zone in key order (the zone's d6, then its ships by
fleet id and line order, seeded from (campaign seed, turn, 7, zone key)); then supply, decided once
for every fleet and land unit; then attrition of what is out of supply. Attrition's dice are seeded
from the place ``attrition:<zone or port key>`` (logged with the plain key as their place): a zone
that rolls for storms and for attrition must not draw the same faces twice.

The phase orchestrates; the rules are in ``rules.weather`` and ``rules.supply``, the writes in
``fleets.weather`` and ``ports.services``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

from campaign.models import Nation
from campaign.orders.in_port import upkeep_unpaid_lately
from campaign.selectors import Diplomacy, diplomacy_for_campaign
from campaign.turn.context import PhaseContext
from fleets.models import Blockade, Fleet, Ship
from fleets.selectors import blockades_for_turn
from fleets.weather import fleets_supply_record, ships_weather_apply, weather_outcome
from ports.models import LandUnit, Port, SeaZone
from ports.selectors import land_units_by_port, ports_for_campaign, zone_graph
from ports.services import land_units_supply_record, port_taken_record, siege_end
from rules.siege import SiegeUnit, captor_of
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
from rules.turn_events import (
    FleetNoted,
    LandUnitsOutOfSupply,
    PlaceNoted,
    PortNoted,
    StormStruck,
    counted,
)
from rules.weather import AttritionShip, AttritionUnit, Effect, WeatherShip, attrition_roll_all, storms_roll
from rules.weather import Condition as WeatherCondition

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
    names: dict[int, str] = {}
    for ship_id, fleet_id, position, condition, cargo_id, zone, nation_id, name in rows:
        label = f"{name} ({nations[nation_id].name})"
        at_sea[zone].append(WeatherShip(ship_id, fleet_id, position, _afloat(condition), cargo_id, label))
        nation_of[ship_id] = nation_id
        names[ship_id] = name
    if not at_sea:
        return
    storms = storms_roll(at_sea, ctx.turn.season, ctx.ruleset, ctx.dice, ctx.log)
    blockades = list(
        Blockade.objects.filter(campaign=ctx.campaign, turn=turn, lifted=False, fleet__port__isnull=True)
        .select_related("fleet__sea_zone", "port")
        .order_by("port__key", "fleet_id")
    )
    struck = [z for z in storms if z.storm]
    zone_names = _place_names(ctx) if struck else {}
    # Every storm's damage in one set of writes; each zone's report reads its own share.
    ships_weather_apply(results=[r for z in struck for r in z.ships], units_lost=(), turn=turn)
    for storm in struck:
        zone_name = zone_names.get(storm.zone, storm.zone)
        applied = weather_outcome(results=storm.ships, units_lost=())
        for nation_id in sorted({nation_of[r.ship_id] for r in storm.ships}, key=lambda n: nations[n].code):
            mine = [r for r in storm.ships if nation_of[r.ship_id] == nation_id]
            damaged = [names[r.ship_id] for r in mine if r.effect is Effect.DAMAGED]
            lost = [names[r.ship_id] for r in mine if r.effect is Effect.LOST]
            units = [r.land_unit_lost for r in mine if r.land_unit_lost is not None]
            went_down = "went down with its transport" if len(units) == 1 else "went down with their transports"
            ctx.report(
                [nations[nation_id].code],
                StormStruck(
                    text=f"A storm swept {zone_name}: "
                    + (f"damaged {', '.join(damaged)}; " if damaged else "")
                    + (f"lost {', '.join(lost)}; " if lost else "")
                    + (f"{counted(len(units), 'land unit')} {went_down}; " if units else "")
                    + ("no harm done." if not mine or not (damaged or lost) else "that is all."),
                    zone_key=storm.zone,
                    zone_name=zone_name,
                    damaged=tuple(r.ship_id for r in mine if r.ship_id in applied.damaged),
                    lost=tuple(r.ship_id for r in mine if r.ship_id in applied.lost),
                ),
            )
        here = [b for b in blockades if b.fleet.sea_zone.key == storm.zone]
        sizes = {b.fleet_id: sum(1 for r in storm.ships if r.fleet_id == b.fleet_id) for b in here}
        lifted = storm.fleets_lifted(sizes, ctx.ruleset)
        for blockade in here:
            if blockade.fleet_id in lifted:
                Blockade.objects.filter(pk=blockade.pk).update(lifted=True)
                ctx.report(
                    None,
                    PortNoted(
                        text=f"The storm in {zone_name} lifted the blockade of {blockade.port.name} by "
                        f"{blockade.fleet.name} ({nations[blockade.fleet.nation_id].name}) for supply, repairs and "
                        "income.",
                        port_key=blockade.port.key,
                        port_name=blockade.port.name,
                        code="blockade_lifted_by_storm",
                    ),
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


def _place_names(ctx: PhaseContext) -> dict[str, str]:
    """Zone and port keys → their names, for the reports (the rules work on keys)."""
    names = dict(SeaZone.objects.filter(campaign=ctx.campaign).values_list("key", "name"))
    names.update(Port.objects.filter(campaign=ctx.campaign).values_list("key", "name"))
    return names


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
    blockades = blockades_for_turn(campaign_id=ctx.campaign.pk, turn=turn, at_war=diplomacy.at_war)
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
            # §4: blockaded "against every nation at war with it that owns P or has ships or land units in P".
            blockaded_against=frozenset(code[n] for n in blockades.against_any(p.pk, {p.owner_id, *present[p.pk]})),
            # §7: a port taken this turn or last is no supply point (it settles in the next turn).
            supply_point=p.taken_turn is None or p.taken_turn < turn - 1,
        )
        for p in ports
    ]
    allies = {code[a]: {code[b] for b in nations if b != a and diplomacy.allied(a, b)} for a in nations}
    # §2: an unpaid upkeep puts the nation's ships out of supply "until the end of the next turn".
    unpaid = {n.code for n in nations.values() if upkeep_unpaid_lately(n, turn)}
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
    positions, unit_verdicts, unit_streaks = _units_supply(ctx, code, ports, units_at, supply, verdicts)
    _supply_report(ctx, code, fleets, verdicts, fleet_streaks, positions, unit_verdicts)
    place_of_fleet = {f.pk: _fleet_place(f) for f in fleets}
    unit_place = {p.unit_id: p.port if p.port is not None else place_of_fleet[p.fleet_id or 0] for p in positions}
    return _SupplyDecided(ports, units_at, fleets, fleet_streaks, unit_place, unit_verdicts, unit_streaks)


def _units_supply(
    ctx: PhaseContext,
    code: dict[int, str],
    ports: list[Port],
    units_at: dict[int, list[LandUnit]],
    supply: SupplyContext,
    verdicts: Mapping[int, Supply],
) -> tuple[list[UnitPosition], dict[int, Supply], dict[int, int]]:
    """RULES.md §8 "Supply of land units" (garrisons and armies ashore, then units aboard), stored:
    (positions, verdicts by unit id, consecutive turns out of supply by unit id)."""
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
    return positions, unit_verdicts, unit_streaks


def _supply_report(
    ctx: PhaseContext,
    code: dict[int, str],
    fleets: list[Fleet],
    verdicts: Mapping[int, Supply],
    fleet_streaks: dict[int, int],
    positions: list[UnitPosition],
    unit_verdicts: Mapping[int, Supply],
) -> None:
    """Tell each nation which of its fleets with ships, and which of its land units, are out of supply."""
    manned = set(
        Ship.objects.filter(campaign=ctx.campaign, condition__in=Ship.AFLOAT).values_list("fleet_id", flat=True)
    )
    for fleet in fleets:
        verdict = verdicts[fleet.pk]
        if not verdict.in_supply and fleet.pk in manned:
            ctx.report(
                [code[fleet.nation_id]],
                FleetNoted(
                    text=f"{fleet.name} is out of supply ({verdict.reason.replace('_', ' ')}), "
                    f"{counted(fleet_streaks[fleet.pk], 'turn')} running.",
                    fleet_id=fleet.pk,
                    fleet_name=fleet.name,
                    code="out_of_supply",
                ),
            )
    starving: dict[str, list[str]] = defaultdict(list)
    starving_ids: dict[str, list[int]] = defaultdict(list)
    places = _place_names(ctx) if any(not unit_verdicts[p.unit_id].in_supply for p in positions) else {}
    fleet_names = {f.pk: f.name for f in fleets}
    for position in positions:
        verdict = unit_verdicts[position.unit_id]
        if not verdict.in_supply:
            where = (
                f"at {places.get(position.port, position.port)}"
                if position.port is not None
                else f"aboard {fleet_names.get(position.fleet_id or 0, 'a fleet')}"
            )
            starving[position.nation].append(f"one {where} ({verdict.reason.replace('_', ' ')})")
            starving_ids[position.nation].append(position.unit_id)
    for nation_code in sorted(starving):
        text = f"Land units out of supply: {', '.join(starving[nation_code])}."
        ctx.report([nation_code], LandUnitsOutOfSupply(text=text, unit_ids=tuple(starving_ids[nation_code])))


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
            ship_id, fleet_id, position, _afloat(condition), cargo_id, f"{name} ({nations[nation_id].name})"
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
    place_names = _place_names(ctx)
    # Every place's attrition in one set of writes; each place's report reads its own share.
    ships_weather_apply(
        results=[r for place in results for r in place.ships],
        units_lost=[u for place in results for u in place.units_lost],
        turn=turn,
    )
    for place in results:
        applied = weather_outcome(results=place.ships, units_lost=place.units_lost)
        lost_units.update(applied.units_lost)
        by_nation: dict[int, list[str]] = defaultdict(list)
        for r in place.ships:
            if r.effect is not Effect.NONE:
                by_nation[nation_of_ship[r.ship_id]].append(f"{names[r.ship_id]} {r.effect}")
        for unit_id in applied.units_lost:
            by_nation[nation_of_unit[unit_id]].append("a land unit lost")
        place_name = place_names.get(place.place, place.place)
        for nation_id in sorted(by_nation, key=lambda n: nations[n].code):
            ctx.report(
                [nations[nation_id].code],
                PlaceNoted(
                    text=f"Attrition at {place_name}: {', '.join(by_nation[nation_id])}.",
                    place_key=place.place,
                    place_name=place_name,
                    code="attrition",
                ),
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
            text = f"The siege of {port.name} ({nations[owner].name}) has ended: no besiegers are left."
            ctx.report(None, PortNoted(text=text, port_key=port.key, port_name=port.name, code="siege_ended"))
        if port.captor_id is not None or not garrison or any(u.pk not in lost for u in garrison):
            continue
        if left:
            by_code = {n.code: n for n in nations.values()}
            captor = by_code[captor_of([SiegeUnit(u.pk, nations[u.nation_id].code, u.siege_train) for u in left])]
            port_taken_record(port=port, captor_id=captor.pk, turn=ctx.turn.number)
            ctx.report(
                None,
                PortNoted(
                    text=f"{port.name}'s garrison ({nations[owner].name}) starved to the last man: "
                    f"{captor.code} takes the port at the end of the turn.",
                    port_key=port.key,
                    port_name=port.name,
                    taken=True,
                    code="garrison_starved",
                ),
            )
        else:
            ctx.report(
                None,
                PortNoted(
                    text=f"{port.name}'s garrison starved to the last man; it stays {nations[owner].name}'s, "
                    "ungarrisoned.",
                    port_key=port.key,
                    port_name=port.name,
                    code="garrison_starved",
                ),
            )
