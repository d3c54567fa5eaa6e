"""Small campaigns built in the database for pipeline tests."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from campaign.models import Campaign, LedgerEntry, Nation, NationTurn, Relation, Turn
from campaign.services import ledger_post
from fleets.models import Fleet
from ports.models import Port, SeaZone
from tests.factories import CampaignFactory, FleetFactory, NationFactory, PortFactory, SeaZoneFactory, ShipFactory


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
