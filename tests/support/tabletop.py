"""Battles on the table at Gibraltar built for tests (issue 15): a besieged-port battle and a
storming of the Rock, each sent to the table by the GM and held there by the turn, with a GM
logged in. Used by the pack's pages, the API and the phone-width checks."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.test import Client
from django.utils import timezone

from battles.engagements.table import table_sides
from battles.models import PackPdf, TabletopBattle
from battles.tabletop.pdf import pack_pdf_print
from campaign.tabletop.services import table_mark
from campaign.tasks import turn_resolve
from campaign.turn.lifecycle import turn_claim
from fleets.models import Ship
from ports.models import LandUnit
from tests.factories import PortFactory, SeaZoneFactory
from tests.worlds import World, fleet, sea_world

#: The GM's password in these worlds (the browser tests log in with it).
GM_PASSWORD = "sea-dog-1805"


def gibraltar_siege() -> tuple[World, TabletopBattle, Client]:
    """French troops besiege British Gibraltar (FF 3, one battery); a French squadron lies inside
    and the Mediterranean Fleet comes to fight it: a besieged-port engagement, sent to the table by
    the GM. Seed 3: checked to bring the ships in port to action."""
    world = sea_world(seed=3)
    strait = SeaZoneFactory.create(campaign=world.campaign, key="strait", name="Strait of Gibraltar", type="narrows")
    gib = PortFactory.create(
        owner=world.gb, sea_zone=strait, key="gibraltar", name="Gibraltar", fortification=3, gibraltar=True, batteries=1
    )
    LandUnit.objects.create(campaign=world.campaign, nation=world.fr, state="ashore", port=gib)
    LandUnit.objects.create(campaign=world.campaign, nation=world.fr, state="ashore", port=gib)
    LandUnit.objects.create(campaign=world.campaign, nation=world.gb, state="garrison", port=gib)
    fleet(world, world.fr, "Escadre de Cadix", "gibraltar", [("3rd-74", 3)])
    fleet(world, world.gb, "Mediterranean Fleet", "strait", [("1st", 1), ("3rd-74", 2), ("frigate", 1)])
    table, client = table_held(world, "gibraltar")
    assert table.engagement is not None and table.engagement.kind == "besieged_port"
    return world, table, client


def table_held(world: World, place: str) -> tuple[TabletopBattle, Client]:
    """The GM marks ``place`` for the table and the turn resolves: the battle found there waits at the
    table. Returns it, with a client logged in as the GM."""
    gm = get_user_model().objects.create_user("gm", "gm@example.com", GM_PASSWORD)
    world.campaign.gm = gm
    world.campaign.save()
    table = table_mark(campaign=world.campaign, place=place)
    assert turn_claim(turn_id=world.turn.pk, now=timezone.now())
    assert turn_resolve(world.turn.pk) == "table"
    table.refresh_from_db()
    assert table.status == TabletopBattle.Status.WAITING and table.engagement is not None
    client = Client()
    client.force_login(gm)
    return table, client


def table_ships(table: TabletopBattle) -> list[Ship]:
    """The ships of a battle held at the table, both sides'."""
    assert table.engagement is not None
    return [ship for _, ship in table_sides(table.engagement).ships()]


def gibraltar_besieged(*, settings: dict[str, int] | None = None) -> World:
    """Three French units (one a siege train) besiege British Gibraltar (FF 3: six coastal forts; one
    battery), held by one unit counted five times (G 5 ≤ 2B 6: the siege rolls); the campaign has a
    GM, ``gm``. The turn is open: nothing is marked for the table yet."""
    world = sea_world(seed=3)
    if settings:
        world.campaign.settings = {**world.campaign.settings, **settings}
    strait = SeaZoneFactory.create(campaign=world.campaign, key="strait", name="Strait of Gibraltar", type="narrows")
    gib = PortFactory.create(
        owner=world.gb, sea_zone=strait, key="gibraltar", name="Gibraltar", fortification=3, gibraltar=True, batteries=1
    )
    for train in (False, False, True):
        LandUnit.objects.create(campaign=world.campaign, nation=world.fr, state="ashore", port=gib, siege_train=train)
    LandUnit.objects.create(campaign=world.campaign, nation=world.gb, state="garrison", port=gib)
    world.campaign.gm = get_user_model().objects.create_user("gm", "gm@example.com", GM_PASSWORD)
    world.campaign.save()
    return world


def storming_held(world: World, table: TabletopBattle) -> TabletopBattle:
    """Resolve the open turn until phase 6 holds the storming ``table`` at the table."""
    assert turn_claim(turn_id=world.turn.pk, now=timezone.now())
    assert turn_resolve(world.turn.pk) == "table"
    table.refresh_from_db()
    assert table.status == TabletopBattle.Status.WAITING
    return table


def gibraltar_storming(*, settings: dict[str, int] | None = None) -> tuple[World, TabletopBattle, Client]:
    """Gibraltar besieged (:func:`gibraltar_besieged`); the GM sends the storming to the table and
    phase 6 holds it. Returns a client logged in as the GM."""
    world = gibraltar_besieged(settings=settings)
    table = storming_held(world, table_mark(campaign=world.campaign, place="gibraltar", kind="storming"))
    client = Client()
    assert world.campaign.gm is not None
    client.force_login(world.campaign.gm)
    return world, table, client


def pack_pdf_printed(client: Client, url: str) -> HttpResponse:
    """``url`` (a pack.pdf) asked for, its queued print run here as the worker would run it (the
    worker tests run it on a real worker), and asked for again: the stored PDF's response."""
    preparing = client.get(url)
    assert preparing.status_code == 202, preparing.content[:300]
    for pk in PackPdf.objects.filter(state=PackPdf.State.QUEUED).values_list("pk", flat=True):
        pack_pdf_print(pk)
    response = client.get(url)
    assert isinstance(response, HttpResponse)
    return response
