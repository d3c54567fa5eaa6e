"""Campaigns with players, past turns and turn reports for the players' read pages.

A report is written here the way the pipeline writes it (``campaign.turn.phase_10_next_turn.reports_store``: a
body of ``turn``, ``season``, ``year`` and ``events``, each event ``{"phase", "text", **data}`` as
``ctx.report`` noted it), so the pages are tested against the stored shape, not a guess.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from battles.models import Battle
from campaign.backup.document import campaign_export
from campaign.models import Campaign, Nation, NationTurn, Relation, Turn, TurnReport
from fleets.models import Blockade, Fleet
from ports.models import SeaZone
from rules.calendar import TurnDate
from rules.turn_events import BattleFought, BattleShip, ContactMade, PortLookedInto, SeenShip
from tests.factories import FleetFactory, NationFactory, PortFactory, SeaZoneFactory, ShipFactory
from tests.support.played_campaign import kept
from tests.worlds import World, two_power_world

PASSWORD = "a-long-test-password"


def user(name: str, *, staff: bool = False) -> Any:
    users = get_user_model()
    if staff:
        return users.objects.create_superuser(name, f"{name}@example.org", PASSWORD)
    return users.objects.create_user(name, f"{name}@example.org", PASSWORD)


def client_for(user: Any) -> Client:
    """A test client logged in as ``user``."""
    client = Client()
    client.force_login(user)
    return client


def players_world(*, treasury: int = 50) -> World:
    """``two_power_world`` with Britain played by ``nelson`` and France by ``villeneuve``."""
    world = two_power_world(treasury=treasury)
    world.gb.player = user("nelson")
    world.gb.save(update_fields=["player"])
    world.fr.player = user("villeneuve")
    world.fr.save(update_fields=["player"])
    return world


def relate(a: Nation, b: Nation, state: str) -> None:
    low, high = sorted((a, b), key=lambda n: n.pk)
    Relation.objects.update_or_create(campaign=a.campaign, a=low, b=high, defaults={"state": state})


@dataclass
class FogWorld:
    """Britain (played by nelson) at war with France (villeneuve), allied to Portugal, at peace
    with the Netherlands; every fleet at sea or in port somewhere the map can draw."""

    w: World
    pt: Nation
    nl: Nation
    lisbon_fleet: Fleet
    dutch_fleet: Fleet
    nelson: Any
    villeneuve: Any
    gm: Any
    outsider: Any

    @property
    def campaign(self) -> Campaign:
        return self.w.campaign


def fog_world() -> FogWorld:
    """The fog world's rows copied in (tests/support/played_campaign.py ``kept``: built once by the
    first process that asks, kept in the played-rows cache): the same rows and ids as ``fog_world_built``
    gives, its time stamps as if built now, for about a tenth of the CPU (Python's and PostgreSQL's)
    of building it again through the factories in every test. Built for real when the test made
    game rows or users before asking."""
    return kept(fog_world_built, shift="exact", fresh_ids=True)


def fog_world_built() -> FogWorld:
    """The fog world built through the factories and services."""
    w = two_power_world(treasury=60)
    nelson, villeneuve, gm, outsider = user("nelson"), user("villeneuve"), user("barham"), user("outsider")
    w.gb.player, w.gb.color = nelson, "#c0392b"
    w.gb.save(update_fields=["player", "color"])
    w.fr.player, w.fr.color = villeneuve, "#2e5cb8"
    w.fr.save(update_fields=["player", "color"])
    w.campaign.gm = gm
    w.campaign.save(update_fields=["gm"])
    w.channel.x, w.channel.y = 300, 200
    w.channel.save(update_fields=["x", "y"])
    w.biscay.x, w.biscay.y = 320, 420
    w.biscay.save(update_fields=["x", "y"])
    tagus = SeaZoneFactory.create(campaign=w.campaign, key="tagus", name="Mouth of the Tagus", x=250, y=560)
    north_sea = SeaZoneFactory.create(campaign=w.campaign, key="north-sea", name="North Sea", x=520, y=140)
    w.biscay.adjacent.add(tagus)
    w.channel.adjacent.add(north_sea)
    pt = NationFactory.create(campaign=w.campaign, code="PT", name="Portugal", navy="PT", color="#1e8449")
    nl = NationFactory.create(campaign=w.campaign, code="NL", name="Batavian Republic", navy="NL", color="#e67e22")
    relate(w.gb, pt, Relation.State.ALLIANCE)
    relate(w.gb, nl, Relation.State.PEACE)
    relate(w.fr, nl, Relation.State.ALLIANCE)
    NationTurn.objects.bulk_create([NationTurn(turn=w.turn, nation=n) for n in (pt, nl)])
    PortFactory.create(owner=pt, sea_zone=tagus, key="lisbon", name="Lisbon", x=240, y=575)
    PortFactory.create(owner=nl, sea_zone=north_sea, key="texel", name="Texel", x=540, y=120)
    for port, (x, y) in ((w.portsmouth, (290, 215)), (w.brest, (330, 400))):
        port.x, port.y = x, y
        port.save(update_fields=["x", "y"])
    lisbon_fleet = FleetFactory.create(nation=pt, name="Tagus Squadron", sea_zone=tagus)
    for i in range(3):
        ShipFactory.create(fleet=lisbon_fleet, name=f"Principe {i}", ship_class="3rd-74")
    dutch_fleet = FleetFactory.create(nation=nl, name="Texel Squadron", sea_zone=north_sea)
    for i in range(4):
        ShipFactory.create(fleet=dutch_fleet, name=f"Vrijheid {i}", ship_class="3rd-64")
    # The French fleet puts to sea in Biscay: whether anyone sees it is the reports' business.
    w.brest_fleet.port = None
    w.brest_fleet.save(update_fields=["port"])
    return FogWorld(w, pt, nl, lisbon_fleet, dutch_fleet, nelson, villeneuve, gm, outsider)


def turn_close(campaign: Campaign, reports: dict[Nation, list[dict[str, Any]]] | None = None) -> Turn:
    """Resolve the open turn the way phase 10 leaves it, without running the phases: the turn is
    resolved, every nation gets its report (``reports`` or an empty one), the next turn opens with
    the campaign's export as its snapshot. Returns the resolved turn."""
    turn = Turn.objects.get(campaign=campaign, status=Turn.Status.OPEN)
    Turn.objects.filter(pk=turn.pk).update(status=Turn.Status.RESOLVED, resolved_at=timezone.now())
    reports = reports or {}
    for nation in Nation.objects.filter(campaign=campaign):
        events = [{"phase": 3, **e} if "phase" not in e else e for e in reports.get(nation, [])]
        TurnReport.objects.create(
            turn=turn,
            nation=nation,
            body={"turn": turn.number, "season": turn.season, "year": turn.year, "events": events},
        )
    date = TurnDate(turn.year, turn.season).next()
    new = Turn.objects.create(
        campaign=campaign,
        number=turn.number + 1,
        year=date.year,
        season=date.season,
        deadline=timezone.now() + timedelta(days=7),
    )
    Campaign.objects.filter(pk=campaign.pk).update(turn_number=new.number, year=date.year, season=date.season)
    NationTurn.objects.bulk_create([NationTurn(turn=new, nation=n) for n in Nation.objects.filter(campaign=campaign)])
    new.snapshot = campaign_export(campaign=Campaign.objects.get(pk=campaign.pk))
    new.save(update_fields=["snapshot"])
    return turn


def sighting(
    zone: SeaZone | str, ships: list[tuple[str, str, str]], *, step: int = 1, text: str = ""
) -> dict[str, Any]:
    """A phase-3 sighting event as stored: ships as (nation code, class, condition)."""
    key = zone if isinstance(zone, str) else zone.key
    name = key if isinstance(zone, str) else zone.name
    seen = tuple(SeenShip(nation=n, ship_class=c, condition=cond) for n, c, cond in ships)
    text = text or f"{name}, step {step}: we sighted {len(ships)} {'ship' if len(ships) == 1 else 'ships'}."
    event = ContactMade(text=text, phase=3, how="sighted", zone_key=key, zone_name=name, step=step, ships=seen)
    return event.to_json()


def battle_event(battle: Battle, rows: list[tuple[int, str, str]], *, text: str = "") -> dict[str, Any]:
    """A phase-4 battle event as stored: rows as (side, class, fate)."""
    ships = tuple(
        BattleShip(side=side, ship_id=1000 + i, ship_name=f"Ship {i}", ship_class=c, fate=fate)
        for i, (side, c, fate) in enumerate(rows)
    )
    text = text or f"Battle at {battle.place}."
    return BattleFought(text=text, phase=4, battle_id=battle.pk, place_key=battle.place, ships=ships).to_json()


def blockade_event(port_key: str, ships: list[tuple[str, str, str]]) -> dict[str, Any]:
    """A phase-4 blockader's view of the port as stored."""
    seen = tuple(SeenShip(nation=n, ship_class=c, condition=cond, in_ordinary=False) for n, c, cond in ships)
    text = f"Blockading the port, we see {len(ships)} {'ship' if len(ships) == 1 else 'ships'} in it."
    return PortLookedInto(text=text, phase=4, port_key=port_key, ships=seen).to_json()


def battle_in(campaign: Campaign, zone: SeaZone, sides: list[list[str]], *, winner: int | None = 0) -> Battle:
    turn = Turn.objects.get(campaign=campaign, status=Turn.Status.OPEN)
    return Battle.objects.create(
        campaign=campaign,
        turn=turn,
        kind=Battle.Kind.FLEET_ACTION,
        sea_zone=zone,
        place=zone.key,
        sides=[{"name": "/".join(codes), "nations": codes} for codes in sides],
        winner=winner,
        report={"type": "fleet_action", "rounds": 1, "ships": [], "dice": []},
    )


def europe(slug: str = "europe") -> Campaign:
    """The europe-1805 scenario (the demo's size) with a player for Britain."""
    call_command("load_scenario", "europe-1805", "--start", "--slug", slug, stdout=io.StringIO())
    campaign = Campaign.objects.get(slug=slug)
    gb = Nation.objects.get(campaign=campaign, code="GB")
    gb.player = user(f"{slug}-gb")
    gb.save(update_fields=["player"])
    return campaign


def europe_seen_a_turn(campaign: Campaign) -> None:
    """Close europe-1805's first turn with a report for Britain holding every kind of contact
    (sightings, a battle, a blockaded port) and blockades, so every conditional query runs."""
    gb = Nation.objects.get(campaign=campaign, code="GB")
    zones = {z.key: z for z in SeaZone.objects.filter(campaign=campaign)}
    battle = battle_in(campaign, zones["gulf-of-cadiz"], [["GB"], ["ES", "FR"]])
    for fleet in Fleet.objects.filter(campaign=campaign, posture=Fleet.Posture.BLOCKADE, port__isnull=True):
        assert fleet.blockade_port is not None
        Blockade.objects.create(campaign=campaign, turn=1, port=fleet.blockade_port, fleet=fleet)
    events = [
        sighting(zones["bay-of-biscay"], [("FR", "3rd-74", "ready")] * 5 + [("FR", "frigate", "damaged")]),
        sighting(zones["gulf-of-lion"], [("FR", "1st", "ready"), ("ES", "3rd-74", "ready")], step=2),
        battle_event(battle, [(0, "1st", "damaged"), (1, "3rd-74", "sunk"), (1, "3rd-74", "intact")]),
        blockade_event("toulon", [("FR", "3rd-74", "ready")] * 3),
    ]
    turn_close(campaign, {gb: events})
