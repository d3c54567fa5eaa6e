"""Phase 4 of RULES.md §3: battles and blockades.

Phase 4: every pending engagement is fought (:mod:`battles.engagements`) — usually already by the
battle tasks the turn fanned out, one per zone (``campaign.tasks``); whatever is left is fought here,
inline. Then the engagements' strategic dice go into the turn's dice log and their events into the
reports, zone by zone in key order, and blockades are established (§4 "Blockade").
"""

from __future__ import annotations

from collections import defaultdict

from battles.engagements import (
    engagement_zones_pending,
    engagements_fight_zones,
    engagements_fought,
    fleets_worsted,
    ports_unblockaded_by_sally,
)
from battles.engagements.table import engagements_at_table
from battles.models import TabletopBattle
from battles.selectors import alliances_now
from campaign.selectors import Diplomacy, diplomacy_for_campaign
from campaign.turn.context import PhaseContext
from fleets.models import Blockade, Fleet, Ship
from ports.models import LandUnit, Port
from rules.ruleset import SOL_CLASSES
from rules.strategic_log import StrategicDie
from rules.turn_events import PortBlockaded, PortLookedInto, SeenShip, counted, event_from_json


def battles_phase(ctx: PhaseContext) -> None:
    """Phase 4 (RULES.md §3, §4, §5): fight what the battle tasks left, report, establish blockades."""
    turn_id = ctx.turn.pk
    zones = engagement_zones_pending(turn_id=turn_id)
    if zones:
        engagements_fight_zones(
            turn_id=turn_id, zone_ids=zones, fought_by="inline", alliances=alliances_now(campaign=ctx.campaign)
        )
    for engagement in engagements_fought(turn_id=turn_id):
        for die in engagement.result.get("strategic_dice", []):
            ctx.log.append(StrategicDie.from_dict(die))
        for stored in engagement.result.get("events", []):
            ctx.report(stored["nations"], event_from_json(stored))
    blockades_establish(ctx)
    # A place marked for the table where no battle came about this turn (issue 15).
    TabletopBattle.objects.filter(
        turn=ctx.turn, kind=TabletopBattle.Kind.BATTLE, status__in=TabletopBattle.BEFORE
    ).update(status=TabletopBattle.Status.NO_BATTLE, note="No battle was fought there this turn.")


def battles_wait(turn_id: int) -> bool:
    """Before phase 4 (issue 15): fight every zone still pending inline (committed before the phase,
    as a battle task's would be) and say whether a battle sent to the table holds the phase back.
    Phase 4 runs once every such battle's approved result is applied (or the GM falls back to the
    dice); until then the turn waits, with phases 1–3 and the other zones' battles done."""
    zones = engagement_zones_pending(turn_id=turn_id)
    if zones:
        engagements_fight_zones(turn_id=turn_id, zone_ids=zones, fought_by="inline")
    return engagements_at_table(turn_id=turn_id)


def blockades_establish(ctx: PhaseContext) -> list[Blockade]:
    """§4: "a fleet with posture "blockade P" blockades P if, at the end of phase 4, it is at sea in
    P's zone, has at least 1 SOL, and did not retire, break, evade or get beaten there this turn";
    not a port whose blockaders a sally drove off this turn. Everyone sees the blockade; the
    blockader sees the ships in the port of the nations it blockades P against (§3 fog of war).

    §12.9: "If no nation at war with the fleet owns P or has ships or land units in P, P is not
    blockaded: nothing is recorded or announced and the fleet sees nothing in P"; its posture stands
    and counts again at the end of each later phase 4."""
    turn = ctx.turn
    blockaders = _blockaders(ctx)
    # One query per kind of row, whatever the blockaders: the blockades already recorded this turn,
    # the ships inside the ports blockaded and the nations with land units there.
    recorded = {
        (b.port_id, b.fleet_id): b
        for b in Blockade.objects.filter(campaign=ctx.campaign, turn=turn.number, fleet__in=[f.pk for f in blockaders])
    }
    ports = {f.blockade_port_id for f in blockaders if f.blockade_port_id is not None}
    inside = _ships_inside(ports)
    ashore = _land_unit_nations(ports)
    diplomacy = diplomacy_for_campaign(campaign_id=ctx.campaign.pk) if blockaders else Diplomacy({})
    made = []
    new: list[Blockade] = []
    for fleet in blockaders:
        port = fleet.blockade_port
        assert port is not None  # a candidate's
        against = _blockaded_nations(fleet, port, inside[port.pk], ashore[port.pk], diplomacy)
        if not against:
            continue  # §12.9: the port of a nation at peace (and nobody at war inside) is no blockade
        blockade = recorded.get((port.pk, fleet.pk))
        if blockade is None:
            blockade = Blockade(campaign=ctx.campaign, turn=turn.number, port=port, fleet=fleet)
            new.append(blockade)
        made.append(blockade)
        _blockade_report(ctx, fleet, port, [s for s in inside[port.pk] if s.nation_id in against])
    # Inserted in the order the loop met them, as get_or_create one by one did (same ids).
    Blockade.objects.bulk_create(new)
    return made


def _blockaded_nations(fleet: Fleet, port: Port, ships: list[Ship], units: set[int], diplomacy: Diplomacy) -> set[int]:
    """§4: the nations ``fleet`` blockades ``port`` against: "every nation at war with it that owns P
    or has ships or land units in P" (ids; empty: no blockade, §12.9)."""
    present = {s.nation_id for s in ships} | units
    if port.owner_id is not None:
        present.add(port.owner_id)
    return {n for n in present if diplomacy.at_war(fleet.nation_id, n)}


def _land_unit_nations(ports: set[int]) -> dict[int, set[int]]:
    """The nations with land units in each of ``ports`` (garrison or ashore), by port id (one query)."""
    out: dict[int, set[int]] = defaultdict(set)
    rows = LandUnit.objects.filter(
        port__in=ports, state__in=[LandUnit.State.GARRISON, LandUnit.State.ASHORE]
    ).values_list("port_id", "nation_id")
    for port_id, nation_id in rows:
        out[port_id].add(nation_id)
    return out


def _blockaders(ctx: PhaseContext) -> list[Fleet]:
    """The fleets that blockade their port this turn (§4), by nation code and id: at sea in its zone,
    not worsted, the port not relieved by a sally, and with a SOL afloat (one query for all)."""
    worsted = fleets_worsted(turn_id=ctx.turn.pk)
    lifted = ports_unblockaded_by_sally(turn_id=ctx.turn.pk)
    fleets = (
        Fleet.objects.filter(campaign=ctx.campaign, posture=Fleet.Posture.BLOCKADE, port__isnull=True)
        .select_related("nation", "blockade_port")
        .order_by("nation__code", "id")
    )
    candidates = [
        fleet
        for fleet in fleets
        if fleet.blockade_port is not None
        and fleet.sea_zone_id == fleet.blockade_port.sea_zone_id
        and fleet.pk not in worsted
        and fleet.blockade_port.pk not in lifted
    ]
    with_sol = set(
        Ship.objects.filter(
            fleet__in=[f.pk for f in candidates], condition__in=Ship.AFLOAT, ship_class__in=SOL_CLASSES
        ).values_list("fleet_id", flat=True)
    )
    return [f for f in candidates if f.pk in with_sol]


def _ships_inside(ports: set[int]) -> dict[int, list[Ship]]:
    """The ships afloat in each of ``ports``' fleets, by nation code and id (one query)."""
    inside: dict[int, list[Ship]] = defaultdict(list)
    for ship in (
        Ship.objects.filter(fleet__port__in=ports, condition__in=Ship.AFLOAT)
        .select_related("nation", "fleet")
        .order_by("nation__code", "id")
    ):
        assert ship.fleet is not None and ship.fleet.port_id is not None  # afloat ships in a port's fleet
        inside[ship.fleet.port_id].append(ship)
    return inside


def _blockade_report(ctx: PhaseContext, fleet: Fleet, port: Port, ships: list[Ship]) -> None:
    """Everyone reads that ``fleet`` blockades ``port``; its nation reads what it sees inside."""
    ctx.report(
        None,
        PortBlockaded(
            text=f"{fleet.name} ({fleet.nation.name}) blockades {port.name}.",
            fleet_id=fleet.pk,
            fleet_name=fleet.name,
            nation=fleet.nation.code,
            port_key=port.key,
            port_name=port.name,
        ),
    )
    seen = tuple(
        SeenShip(nation=s.nation.code, ship_class=s.ship_class, condition=s.condition, in_ordinary=s.in_ordinary)
        for s in ships
    )
    ctx.report(
        [fleet.nation.code],
        PortLookedInto(
            text=f"Blockading {port.name}, {fleet.name} sees {counted(len(seen), 'ship')} in the port.",
            fleet_id=fleet.pk,
            fleet_name=fleet.name,
            port_key=port.key,
            port_name=port.name,
            ships=seen,
        ),
    )
