"""The end of phase 3 (RULES.md §4, §3 "Fog of war"): the engagements it leaves for phase 4 recorded,
and where every fleet stands reported to those who may see it."""

from __future__ import annotations

from collections import defaultdict

from battles.models import Engagement
from campaign.turn.sea.in_port import fleet_retreat
from campaign.turn.sea.world import SeaWorld, fleet_place_name
from rules.turn_events import FleetMoved, counted


def engagements_record(world: SeaWorld) -> list[Engagement]:
    """Store ``world.plans`` as :class:`~battles.models.Engagement` rows, numbered per zone in
    the order planned (at-sea contacts by step, then the ports' own engagements)."""
    turn = world.ctx.turn
    sequence: dict[int, int] = defaultdict(int)
    rows = []
    for plan in world.plans:
        sequence[plan.zone.pk] += 1
        sides = []
        for k, party in enumerate(plan.parties):
            retreat = (
                {}
                if party.in_port
                else {str(m.fleet.pk): fleet_retreat(world, m.fleet, plan.zone) for m in party.movers}
            )
            sides.append(
                {
                    "nations": world.codes(party),
                    "fleets": [m.fleet.pk for m in party.movers],
                    "lead_fleet": party.lead.fleet.pk,
                    "seeks": party.seeks,
                    "sighted": plan.sighted[k],
                    "in_port": party.in_port,
                    "retreat": retreat,
                }
            )
        rows.append(
            Engagement(
                campaign=world.ctx.campaign,
                turn=turn,
                sea_zone=plan.zone,
                port=plan.port,
                place=plan.port.key if plan.port is not None and plan.kind != Engagement.Kind.SALLY else plan.zone.key,
                sequence=sequence[plan.zone.pk],
                kind=plan.kind,
                step=plan.step,
                sides=sides,
                interceptor=plan.interceptor,
                context=plan.context,
            )
        )
    return Engagement.objects.bulk_create(rows)


def positions_report(world: SeaWorld) -> None:
    """§3 fog of war: each nation (and its allies) learns where its fleets ended the phase."""
    for mover in sorted(world.movers.values(), key=lambda m: (world.code(m.fleet.nation_id), m.fleet.pk)):
        if not mover.ships:
            continue
        fleet = mover.fleet
        zone = world.zones[fleet.sea_zone_id]
        port = world.ports[fleet.port_id] if fleet.port_id is not None else None
        world.ctx.report(
            world.friends_of(fleet.nation_id),
            FleetMoved(
                text=f"{fleet.name} ({world.nations[fleet.nation_id].name}, {counted(len(mover.ships), 'ship')})"
                f" is {fleet_place_name(world, fleet)}.",
                fleet_id=fleet.pk,
                fleet_name=fleet.name,
                nation=world.code(fleet.nation_id),
                ship_count=len(mover.ships),
                zone_key=zone.key,
                zone_name=zone.name,
                port_key=port.key if port is not None else None,
                port_name=port.name if port is not None else "",
            ),
        )
