"""Orders that come by email (issue 29): the GM pastes a nation's orders as the desk writes them, or
uploads a JSON file with names instead of ids; a preview first, then entered through the order service
(turn named, deadline gate, audit), nothing stored when any line is refused."""

from __future__ import annotations

import html
import json
import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaign.models import Campaign, Nation, Order, Turn
from campaign.models.audit import AuditEntry
from campaign.orders.mail_text import Names, NationDirectory, orders_from_json, orders_from_text
from fleets.models import ShipClass
from tests.worlds import World, two_power_world

User = get_user_model()


def _directory() -> NationDirectory:
    ports = [("Portsmouth", "portsmouth"), ("Brest", "brest")]
    zones = [("The Channel", "channel"), ("Bay of Biscay", "biscay")]
    return NationDirectory(
        nation="Great Britain",
        fleets=Names.of("fleet", [("Channel Fleet", 1), ("Western Squadron", 2)]),
        ships=Names.of("ship", [("HMS Victory", 11), ("HMS Temeraire", 12), ("HMS Bellerophon", 13)]),
        ports=Names.of("port", ports, [(k, k) for _, k in ports]),
        zones=Names.of("sea zone", zones, [(k, k) for _, k in zones]),
        nations=Names.of("nation", [("France", "FR")], [("FR", "FR")]),
        classes=Names.of(
            "ship class", [(label, code) for code, label in ShipClass.choices], [(v, v) for v in ShipClass.values]
        ),
    )


def test_every_line_the_desk_writes_reads_back_as_its_order_body() -> None:
    text = """
    # Nelson's orders, spring 1805
    1. Channel Fleet: to sea → Bay of Biscay
    - Western Squadron: blockade Brest
    channel fleet: line HMS Victory, hms temeraire
    Channel Fleet: after a drawn day, evade if our losses are higher; retreat into Portsmouth; else to The Channel
    Western Squadron: run the guns of brest
    Western Squadron: sally against the blockaders
    Western Squadron: fireships into Brest
    Channel Fleet: embark 2 land units at Portsmouth
    Channel Fleet: avoid battle
    Frigate Hero at Portsmouth (20 EP)
    land unit at Portsmouth
    repair HMS Victory
    stop repairing HMS Temeraire
    HMS Bellerophon into ordinary
    HMS Bellerophon back into commission
    HMS Victory, HMS Temeraire → Western Squadron
    HMS Victory -> new fleet Inshore Squadron
    Western Squadron into Channel Fleet
    Collingwood to command Channel Fleet
    declare war on France
    """
    read = orders_from_text(text, _directory())
    assert read.refusals == []
    assert read.lines[0] == 3
    assert read.bodies == [
        {"kind": "move", "fleet": 1, "path": ["sea", "biscay"]},
        {"kind": "posture", "fleet": 2, "posture": "blockade", "port": "brest"},
        {"kind": "line_order", "fleet": 1, "ships": [11, 12]},
        {
            "kind": "battle_orders",
            "fleet": 1,
            "after_battle": "auto",
            "retreat_port": "portsmouth",
            "retreat_zone": "channel",
        },
        {"kind": "run_guns", "fleet": 2, "port": "brest"},
        {"kind": "sally", "fleet": 2},
        {"kind": "fireships", "fleet": 2, "port": "brest"},
        {"kind": "embark", "fleet": 1, "units": 2, "port": "portsmouth"},
        {"kind": "posture", "fleet": 1, "posture": "avoid"},
        {"kind": "lay_down", "class": "frigate", "name": "Hero", "port": "portsmouth"},
        {"kind": "raise", "unit": "land_unit", "port": "portsmouth"},
        {"kind": "repair", "ship": 11, "on": True},
        {"kind": "repair", "ship": 12, "on": False},
        {"kind": "lay_up", "ship": 13},
        {"kind": "recommission", "ship": 13},
        {"kind": "transfer", "ships": [11, 12], "to_fleet": 2},
        {"kind": "form_fleet", "ships": [11], "name": "Inshore Squadron"},
        {"kind": "merge", "fleet": 2, "into": 1},
        {"kind": "appoint", "admiral": "Collingwood", "fleet": 1},
        {"kind": "declare_war", "nation": "FR"},
    ]


def test_a_misspelt_name_is_refused_by_line_listing_the_names_allowed() -> None:
    read = orders_from_text(
        "Channel Fleet: to sea\n\nChanel Fleet: seek battle\nrepair HMS Nelson\nmake it so", _directory()
    )
    assert read.refusals == [
        "line 3: no fleet named 'Chanel Fleet' — Great Britain's fleets are: Channel Fleet, Western Squadron. "
        "Did you mean 'Channel Fleet'?",
        "line 4: no ship named 'HMS Nelson' — Great Britain's ships are: HMS Bellerophon, HMS Temeraire, HMS Victory.",
        "line 5: cannot read this order; write it as the desk shows orders, e.g. 'FLEET: to sea → ZONE', "
        "'FLEET: blockade PORT', 'repair SHIP' or 'declare war on NATION'",
    ]
    assert orders_from_text("\n# nothing\n", _directory()).refusals == [
        "there are no orders in the text: write one order a line"
    ]


def test_json_with_names_reads_as_the_api_body_and_refuses_by_order() -> None:
    data = [
        {"kind": "move", "fleet": "Channel Fleet", "path": ["to sea", "Bay of Biscay"]},
        {"kind": "line_order", "fleet": "Western Squadron", "ships": ["HMS Victory"]},
        {"kind": "declare_war", "nation": "France"},
        {"kind": "repair", "ship": "HMS Nobody"},
        "sally",
    ]
    read = orders_from_json({"orders": data}, _directory())
    assert read.bodies == [
        {"kind": "move", "fleet": 1, "path": ["sea", "biscay"]},
        {"kind": "line_order", "fleet": 2, "ships": [11]},
        {"kind": "declare_war", "nation": "FR"},
    ]
    assert read.refusals == [
        "order 4: no ship named 'HMS Nobody' — Great Britain's ships are: HMS Bellerophon, HMS Temeraire, HMS Victory.",
        'order 5: each order must be a JSON object with a "kind"',
    ]
    assert orders_from_json({"fleet": 1}, _directory()).refusals[0].startswith("the file must hold a JSON list")


# The page, through the order service.


def _gm(world: World) -> tuple[Any, Client]:
    gm = User.objects.create_user("barham", "barham@example.org", "pw", is_staff=True)
    Campaign.objects.filter(pk=world.campaign.pk).update(gm=gm, status="active")
    client = Client()
    client.force_login(gm)
    return gm, client


def _problems(page: str) -> list[str]:
    """The refusals the page lists, as read."""
    listed = re.search(r'<ul class="errorlist nonfield">(.*?)</ul>', page, re.S)
    return [html.unescape(li) for li in re.findall(r"<li>(.*?)</li>", listed.group(1))] if listed else []


def _url(nation: Nation) -> str:
    return reverse("admin:campaign_nation_orders_by_mail", args=[nation.pk])


ORDERS = "Channel Fleet: to sea → Bay of Biscay\nland unit at Portsmouth\n"


@pytest.mark.django_db
def test_the_gm_previews_then_enters_pasted_orders_audited() -> None:
    world = two_power_world()
    _, client = _gm(world)
    Order.objects.create(
        campaign=world.campaign,
        turn=world.turn,
        nation=world.gb,
        position=1,
        kind="sally",
        body={"kind": "sally", "fleet": world.channel_fleet.pk},
        fleet=world.channel_fleet,
    )
    desk = client.get(reverse("admin:campaign_campaign_desk", args=[world.campaign.pk])).content.decode()
    assert _url(world.gb) in desk

    preview = client.post(_url(world.gb), {"text": ORDERS, "turn": "1"})
    page = preview.content.decode()
    assert "Channel Fleet: to sea → Bay of Biscay" in page
    assert "land unit at Portsmouth" in page
    assert "Enter these 2 orders" in page
    assert list(Order.objects.filter(nation=world.gb).values_list("kind", flat=True)) == ["sally"]  # nothing yet

    entered = client.post(
        _url(world.gb), {"payload": ORDERS, "as_json": "no", "turn": "1", "confirmed": "yes", "late_reason": ""}
    )
    assert entered.status_code == 302
    assert [(o.kind, o.body) for o in Order.objects.filter(nation=world.gb).order_by("position")] == [
        ("move", {"kind": "move", "fleet": world.channel_fleet.pk, "path": ["sea", "biscay"]}),
        ("raise", {"kind": "raise", "unit": "land_unit", "port": "portsmouth"}),
    ]
    entry = AuditEntry.objects.get(campaign=world.campaign, action="orders_replaced")
    assert entry.summary == "For Great Britain: replaced 1 order with 2"
    assert entry.actor is not None
    assert entry.actor.username == "barham"


@pytest.mark.django_db
def test_any_refused_line_stores_nothing_and_says_which_line() -> None:
    world = two_power_world()
    _, client = _gm(world)
    bad_name = client.post(_url(world.gb), {"text": "Chanel Fleet: to sea\nland unit at Portsmouth", "turn": "1"})
    page = bad_name.content.decode()
    assert "Nothing was entered" in page
    assert "Line 1: no fleet named &#x27;Chanel Fleet&#x27; — Great Britain&#x27;s fleets are: Channel Fleet." in page
    assert "Enter these" not in page
    # A line read well but refused by the rules (Brest is not a British dockyard): named by its line.
    by_rule = client.post(
        _url(world.gb),
        {
            "payload": "land unit at Portsmouth\n\nFrigate Hero at Brest",
            "as_json": "no",
            "turn": "1",
            "confirmed": "yes",
        },
    )
    assert by_rule.status_code == 200
    assert _problems(by_rule.content.decode()) == [
        "Line 3: Order 2 (lay down, Frigate 'Hero'): Ships are laid down only in an own port (rules §1); "
        "Brest is not Great Britain's."
    ]
    assert not Order.objects.filter(nation=world.gb).exists()
    assert not AuditEntry.objects.filter(action="orders_replaced").exists()


@pytest.mark.django_db
def test_a_json_file_with_names_is_entered_and_a_stale_turn_is_refused() -> None:
    world = two_power_world()
    _, client = _gm(world)
    data = [{"kind": "move", "fleet": "Brest Fleet", "path": ["to sea", "The Channel"]}]
    upload = SimpleUploadedFile("orders.json", json.dumps(data).encode(), content_type="application/json")
    preview = client.post(_url(world.fr), {"upload": upload, "turn": "1"}).content.decode()
    assert "Brest Fleet: to sea → The Channel" in preview
    assert 'name="as_json" value="yes"' in preview
    payload = json.dumps(data)
    stale = client.post(_url(world.fr), {"payload": payload, "as_json": "yes", "turn": "0", "confirmed": "yes"})
    assert "Turn 0" in stale.content.decode()
    assert not Order.objects.filter(nation=world.fr).exists()
    done = client.post(_url(world.fr), {"payload": payload, "as_json": "yes", "turn": "1", "confirmed": "yes"})
    assert done.status_code == 302
    assert Order.objects.get(nation=world.fr).body["path"] == ["sea", "channel"]


@pytest.mark.django_db
def test_after_the_deadline_the_gm_gives_a_reason_and_the_orders_are_marked_late() -> None:
    world = two_power_world(deadline=timezone.now() - timedelta(minutes=5))
    _, client = _gm(world)
    Campaign.objects.filter(pk=world.campaign.pk).update(nmr_policy="ask_gm")
    page = client.get(_url(world.gb)).content.decode()
    assert "The deadline has passed and Great Britain gave no orders" in page
    fields = {"payload": ORDERS, "as_json": "no", "turn": "1", "confirmed": "yes"}
    refused = client.post(_url(world.gb), {**fields, "late_reason": ""}).content.decode()
    assert "Nothing was entered" in refused
    assert "reason" in refused
    assert not Order.objects.filter(nation=world.gb).exists()
    client.post(_url(world.gb), {**fields, "late_reason": "Orders came by post"})
    late = list(Order.objects.filter(nation=world.gb).values_list("late_by", "late_reason"))
    assert late == [("barham", "Orders came by post")] * 2
    assert Turn.objects.get(pk=world.turn.pk).status == "open"


@pytest.mark.django_db
def test_the_page_is_for_the_campaign_gms_only_and_asks_for_some_orders() -> None:
    world = two_power_world()
    _, client = _gm(world)
    empty = client.post(_url(world.gb), {"text": "  ", "turn": "1"}).content.decode()
    assert "Paste the orders or choose a JSON file." in empty
    stranger = User.objects.create_user("stranger", "s@example.org", "pw", is_staff=True)
    other = Client()
    other.force_login(stranger)
    assert other.get(_url(world.gb)).status_code in (403, 404)
