"""Small campaigns built in the database for pipeline tests."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from campaign.models import Campaign, LedgerEntry, Nation, NationTurn, Relation, Turn
from campaign.services import ledger_post
from fleets.models import Fleet
from ports.models import Port, SeaZone
from tests.factories import CampaignFactory, FleetFactory, NationFactory, PortFactory, SeaZoneFactory, ShipFactory
from tests.support.turns import order_store


@dataclass
class World:
    campaign: Campaign
    turn: Turn
    gb: Nation
    fr: Nation
    channel: SeaZone
    biscay: SeaZone
    portsmouth: Port
    brest: Port
    channel_fleet: Fleet
    brest_fleet: Fleet


def two_power_world(*, deadline: datetime | None = None, treasury: int = 50) -> World:
    """Britain and France at war across two zones, each with a dockyard port and a fleet."""
    campaign = CampaignFactory.create(slug="channel-1805", name="Channel 1805", seed=42)
    gb = NationFactory.create(campaign=campaign, code="GB", name="Great Britain", crew="B", base_income=3)
    fr = NationFactory.create(campaign=campaign, code="FR", name="France", navy="FR", crew="D", base_income=2)
    a, b = sorted((gb, fr), key=lambda n: n.pk)
    Relation.objects.create(campaign=campaign, a=a, b=b, state=Relation.State.WAR)
    channel = SeaZoneFactory.create(campaign=campaign, key="channel", name="The Channel", type="coastal")
    biscay = SeaZoneFactory.create(campaign=campaign, key="biscay", name="Bay of Biscay", type="open")
    channel.adjacent.add(biscay)
    portsmouth = PortFactory.create(
        owner=gb, sea_zone=channel, key="portsmouth", name="Portsmouth", ep_value=2, dockyard=True
    )
    brest = PortFactory.create(owner=fr, sea_zone=biscay, key="brest", name="Brest", ep_value=2, dockyard=True)
    channel_fleet = FleetFactory.create(nation=gb, name="Channel Fleet", sea_zone=channel, port=portsmouth)
    brest_fleet = FleetFactory.create(nation=fr, name="Brest Fleet", sea_zone=biscay, port=brest)
    for i in range(10):
        ShipFactory.create(fleet=channel_fleet, nation=gb, name=f"HMS {i}", ship_class="3rd-74", crew="B")
        ShipFactory.create(fleet=brest_fleet, nation=fr, name=f"Vaisseau {i}", ship_class="3rd-74", crew="D")
    for nation in (gb, fr):
        ledger_post(nation=nation, turn=1, amount=treasury, kind=LedgerEntry.Kind.OPENING, reason="Opening balance")
    turn = Turn.objects.create(
        campaign=campaign,
        number=1,
        year=1805,
        season="spring",
        deadline=deadline or timezone.now() + timedelta(days=7),
    )
    NationTurn.objects.bulk_create([NationTurn(turn=turn, nation=n) for n in (gb, fr)])
    return World(campaign, turn, gb, fr, channel, biscay, portsmouth, brest, channel_fleet, brest_fleet)


def sea_world(*, seed: int = 42, season: str = "spring") -> World:
    """two_power_world with every fleet at home in port, plus zones around the Channel:

    downs — channel — north-sea; approaches — channel — biscay (Brest); channel holds Portsmouth
    (GB) and Calais (FR, capacity 1); biscay is open sea, the others coastal.
    """
    world = two_power_world()
    Campaign.objects.filter(pk=world.campaign.pk).update(seed=seed)
    world.campaign.refresh_from_db()
    Turn.objects.filter(pk=world.turn.pk).update(season=season)
    world.turn.refresh_from_db()
    for key in ("downs", "approaches", "north-sea"):
        zone = SeaZoneFactory.create(campaign=world.campaign, key=key, name=key.replace("-", " ").title())
        zone.adjacent.add(world.channel)
    PortFactory.create(owner=world.fr, sea_zone=world.channel, key="calais", name="Calais", capacity=1, dockyard=False)
    return world


def zone(world: World, key: str) -> SeaZone:
    return SeaZone.objects.get(campaign=world.campaign, key=key)


def port(world: World, key: str) -> Port:
    return Port.objects.get(campaign=world.campaign, key=key)


def fleet(
    world: World,
    nation: Nation,
    name: str,
    where: str,
    ships: list[tuple[str, int]] | None = None,
    **fields: Any,
) -> Fleet:
    """A fleet at sea in zone ``where`` (or in the port ``where`` names) with ``ships`` as
    (class, count); ships are named after the fleet."""
    in_port = Port.objects.filter(campaign=world.campaign, key=where).first()
    sea_zone = in_port.sea_zone if in_port is not None else zone(world, where)
    made = FleetFactory.create(nation=nation, name=name, sea_zone=sea_zone, port=in_port, **fields)
    n = 0
    for ship_class, count in ships or [("3rd-74", 3)]:
        for _ in range(count):
            n += 1
            ShipFactory.create(fleet=made, nation=nation, name=f"{name} {n}", ship_class=ship_class, crew=nation.crew)
    return made


def two_sallies() -> World:
    """Sallies from Brest into Biscay and from Calais into the Channel: two contested zones, no dice
    needed to find them."""
    world = sea_world()
    calais = port(world, "calais")
    fleet(world, world.gb, "Biscay Squadron", "biscay", [("3rd-74", 2)], posture="blockade", blockade_port=world.brest)
    fleet(world, world.gb, "Downs Squadron", "channel", [("3rd-74", 2)], posture="blockade", blockade_port=calais)
    flotilla = fleet(world, world.fr, "Flotilla", "calais", [("3rd-74", 3)])
    order_store(world.turn, world.fr, "sally", fleet=world.brest_fleet.pk)
    order_store(world.turn, world.fr, "sally", fleet=flotilla.pk)
    return world
