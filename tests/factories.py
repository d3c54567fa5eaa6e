"""factory_boy factories for the game's models (DESIGN.md: factories for data)."""

from __future__ import annotations

import factory
from factory.django import DjangoModelFactory

from campaign.models import Campaign, Nation, Turn
from fleets.models import Admiral, Fleet, Ship
from ports.models import Port, SeaZone
from rules.ruleset import DEFAULTS


class CampaignFactory(DjangoModelFactory[Campaign]):
    class Meta:
        model = Campaign

    slug = factory.Sequence(lambda n: f"campaign-{n}")
    name = factory.Sequence(lambda n: f"Campaign {n}")
    start_year = 1805
    year = 1805
    season = "spring"
    status = Campaign.Status.ACTIVE
    seed = 1805
    settings = factory.LazyFunction(lambda: dict(DEFAULTS))


class TurnFactory(DjangoModelFactory[Turn]):
    class Meta:
        model = Turn

    campaign = factory.SubFactory(CampaignFactory)
    number = 1
    year = factory.SelfAttribute("campaign.year")
    season = factory.SelfAttribute("campaign.season")


class NationFactory(DjangoModelFactory[Nation]):
    class Meta:
        model = Nation

    campaign = factory.SubFactory(CampaignFactory)
    code = "GB"
    name = "Great Britain"
    navy = factory.SelfAttribute("code")
    crew = "B"
    treasury = 0


class SeaZoneFactory(DjangoModelFactory[SeaZone]):
    class Meta:
        model = SeaZone

    campaign = factory.SubFactory(CampaignFactory)
    key = factory.Sequence(lambda n: f"zone-{n}")
    name = factory.Sequence(lambda n: f"Zone {n}")
    type = "coastal"
    x = 100
    y = 100


class PortFactory(DjangoModelFactory[Port]):
    class Meta:
        model = Port

    campaign = factory.SelfAttribute("owner.campaign")
    owner = factory.SubFactory(NationFactory)
    sea_zone = factory.SubFactory(SeaZoneFactory, campaign=factory.SelfAttribute("..campaign"))
    key = factory.Sequence(lambda n: f"port-{n}")
    name = factory.Sequence(lambda n: f"Port {n}")
    fortification = 2
    capacity = 3
    ep_value = 2
    dockyard = True


class FleetFactory(DjangoModelFactory[Fleet]):
    class Meta:
        model = Fleet

    campaign = factory.SelfAttribute("nation.campaign")
    nation = factory.SubFactory(NationFactory)
    name = factory.Sequence(lambda n: f"Squadron {n}")
    sea_zone = factory.SubFactory(SeaZoneFactory, campaign=factory.SelfAttribute("..campaign"))
    crew = factory.SelfAttribute("nation.crew")


class ShipFactory(DjangoModelFactory[Ship]):
    class Meta:
        model = Ship

    fleet = factory.SubFactory(FleetFactory)
    campaign = factory.SelfAttribute("fleet.campaign")
    nation = factory.SelfAttribute("fleet.nation")
    original_nation = factory.SelfAttribute("nation")
    name = factory.Sequence(lambda n: f"Ship {n}")
    ship_class = "3rd-74"
    crew = "D"


class AdmiralFactory(DjangoModelFactory[Admiral]):
    class Meta:
        model = Admiral

    nation = factory.SubFactory(NationFactory)
    campaign = factory.SelfAttribute("nation.campaign")
    name = factory.Sequence(lambda n: f"Admiral {n}")
    grade = "C"
