"""Issue 28, the map's orders and its last-turn layer, through the pages (no browser): what is drawn for
whom (own solid, allied dashed, enemies' never), last turn's moves and battles from the nation's own
report only, and the map's order endpoints refusing bad input clearly and writing nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import Campaign, Nation, Order
from campaign.orders.services import order_add
from fleets.models import Fleet
from ports.models import SeaZone
from rules.turn_events import FleetMoved
from tests.support.played_campaign import kept
from tests.web.fog_worlds import battle_event, battle_in, client_for, europe, turn_close, user

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign() -> Campaign:
    return kept(europe)


def _svg(client: Client, campaign: Campaign, query: str = "") -> str:
    response = client.get(reverse("campaign:map", args=[campaign.slug]) + query)
    assert response.status_code == 200
    page = response.content.decode()
    return page[page.index("<svg") : page.index("</svg>")]


def _player(campaign: Campaign, code: str) -> Any:
    nation = Nation.objects.get(campaign=campaign, code=code)
    if nation.player is None:
        nation.player = user(f"{campaign.slug}-{code.lower()}")
        nation.save(update_fields=["player"])
    return nation.player


def _move_somewhere(campaign: Campaign, code: str) -> Fleet:
    """A move for the nation's first fleet (by name, reserves in ordinary left out) through the order
    service: out of its port into the zone, or at sea to an adjacent zone."""
    nation = Nation.objects.get(campaign=campaign, code=code)
    fleet = Fleet.objects.filter(campaign=campaign, nation=nation).exclude(name__contains="Reserve").order_by("name")[0]
    to = fleet.sea_zone.adjacent.order_by("key").first()
    assert to is not None
    path = ["sea"] if fleet.port_id is not None else [to.key]
    order_add(nation=nation, body={"kind": "move", "fleet": fleet.pk, "path": path})
    return fleet


def _drawn(svg: str) -> list[tuple[str, str]]:
    """(own|ally, fleet id) of every order drawn."""
    return re.findall(r'class="order order-\w+ order-(own|ally)" data-order-fleet="(\d+)"', svg)


def test_own_and_allied_orders_are_drawn_distinctly_and_an_enemys_never(campaign: Campaign) -> None:
    french = _move_somewhere(campaign, "FR")
    spanish = _move_somewhere(campaign, "ES")  # allied to France in 1805
    british = _move_somewhere(campaign, "GB")  # at war with both
    as_france = _drawn(_svg(client_for(_player(campaign, "FR")), campaign))
    assert sorted(as_france) == sorted([("own", str(french.pk)), ("ally", str(spanish.pk))])
    as_britain = _drawn(_svg(client_for(_player(campaign, "GB")), campaign))
    assert as_britain == [("own", str(british.pk))]


def test_a_move_is_drawn_along_its_path_through_every_step(campaign: Campaign) -> None:
    fleet = Fleet.objects.get(campaign=campaign, name="Mediterranean Fleet")
    gb = Nation.objects.get(campaign=campaign, code="GB")
    order_add(nation=gb, body={"kind": "move", "fleet": fleet.pk, "path": ["tyrrhenian-sea", "ionian-sea"]})
    svg = _svg(client_for(_player(campaign, "GB")), campaign)
    drawn = rf'data-order-fleet="{fleet.pk}"[^>]*><title>([^<]*)</title><path class="order-line" d="([^"]+)"'
    match = re.search(drawn, svg)
    assert match is not None
    assert match[1] == "Mediterranean Fleet (Great Britain) moves to Tyrrhenian Sea → Ionian Sea"
    assert match[2].count("L") == 2  # from the Gulf of Lion, through the Tyrrhenian Sea, to the Ionian Sea


def test_last_turn_shows_only_the_moves_and_battles_of_the_nations_own_report(campaign: Campaign) -> None:
    gb = Nation.objects.get(campaign=campaign, code="GB")
    ours = Fleet.objects.get(campaign=campaign, name="Mediterranean Fleet")  # starts the turn in the Gulf of Lion
    theirs = Fleet.objects.get(campaign=campaign, name="Toulon Fleet")
    ligurian = SeaZone.objects.get(campaign=campaign, key="ligurian-sea")
    # Both fleets moved; only ours is in Britain's report (fog of war was applied when it was written).
    Fleet.objects.filter(pk__in=[ours.pk, theirs.pk]).update(sea_zone=ligurian, port=None)
    moved = FleetMoved(
        text="Mediterranean Fleet (Great Britain, 9 ships) is at sea in Ligurian Sea.",
        phase=3,
        fleet_id=ours.pk,
        fleet_name=ours.name,
        nation="GB",
        zone_key="ligurian-sea",
        zone_name="Ligurian Sea",
    ).to_json()
    battle = battle_in(campaign, ligurian, [["GB"], ["FR"]])
    turn_close(campaign, {gb: [moved, battle_event(battle, [(0, "1st", "damaged"), (1, "3rd-74", "sunk")])]})
    client = client_for(_player(campaign, "GB"))
    svg = _svg(client, campaign)
    titles = re.findall(r'<g class="last-move[^"]*"><title>([^<]*)</title>', svg)
    assert titles == ["Turn 1: Mediterranean Fleet moved from Gulf of Lion to Ligurian Sea"]
    links = re.findall(r'<a href="([^"]+)" class="battle-link">', svg)
    assert links == [reverse("battles:detail", args=[campaign.slug, battle.pk])]
    # France's report says nothing: France's map draws no last turn at all.
    svg = _svg(client_for(_player(campaign, "FR")), campaign)
    assert "last-move" not in svg and "battle-link" not in svg
    # Hidden on request.
    assert "battle-link" not in _svg(client, campaign, "?last=0")


def _post(client: Client, campaign: Campaign, name: str, data: dict[str, Any]) -> str:
    response = client.post(
        reverse(f"campaign:{name}", args=[campaign.slug]), data, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="map-area"
    )
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ({"kind": "lay_down"}, "That order cannot be given from the map: use the orders page."),
        ({"kind": "posture", "posture": "sideways"}, "Select a valid choice."),
        ({"kind": "run_guns", "port": "portsmouth"}, "Choose a port from the list."),
        ({"kind": "posture", "posture": "blockade", "port": ""}, "a blockade names the port it blockades"),
    ],
)
def test_a_bad_order_from_the_fleets_panel_is_refused_clearly_and_nothing_is_written(
    campaign: Campaign, data: dict[str, Any], says: str
) -> None:
    fleet = Fleet.objects.get(campaign=campaign, name="Mediterranean Fleet")
    body = _post(client_for(_player(campaign, "GB")), campaign, "map_order", {"fleet": fleet.pk, "turn": 1, **data})
    assert says in body
    assert not Order.objects.filter(nation__campaign=campaign).exists()


def test_a_blockade_from_the_panel_is_entered_and_a_second_replaces_it(campaign: Campaign) -> None:
    fleet = Fleet.objects.get(campaign=campaign, name="Mediterranean Fleet")
    client = client_for(_player(campaign, "GB"))
    data = {"kind": "posture", "fleet": fleet.pk, "posture": "blockade", "port": "toulon", "turn": 1}
    assert "Order added:" in _post(client, campaign, "map_order", data)
    body = _post(client, campaign, "map_order", {**data, "posture": "seek", "port": ""})
    assert "Order changed:" in body
    order = Order.objects.get(nation__campaign=campaign)
    assert (order.kind, order.body["posture"]) == (Order.Kind.POSTURE, "seek")


def test_withdrawing_from_the_map_refuses_another_nations_order_and_an_old_turns_page(campaign: Campaign) -> None:
    french = _move_somewhere(campaign, "FR")
    theirs = Order.objects.get(fleet=french)
    client = client_for(_player(campaign, "GB"))
    url = reverse("campaign:map_withdraw", args=[campaign.slug])
    assert client.post(url, {"order": theirs.pk, "turn": 1}).status_code == 404
    response = client.post(url, {"order": "", "turn": 1})
    assert response.status_code == 400 and "Name the order to withdraw" in response.content.decode()
    ours = Order.objects.get(fleet=_move_somewhere(campaign, "GB"))
    response = client.post(url, {"order": ours.pk, "turn": 0})  # a page of another turn
    assert response.status_code == 302
    assert Order.objects.filter(pk__in=[theirs.pk, ours.pk]).count() == 2
    body = _post(client, campaign, "map_withdraw", {"order": ours.pk, "turn": 1})
    assert "Withdrawn:" in body and not Order.objects.filter(pk=ours.pk).exists()


def test_a_crowd_of_forces_is_one_cluster_that_links_to_a_closer_view(campaign: Campaign) -> None:
    svg = _svg(client_for(_player(campaign, "GB")), campaign)
    clusters = re.findall(r'<a href="([^"]+)" class="cluster-link"[^>]*>.*?<title>([^<]*)</title>', svg)
    assert clusters, "the Channel's ports and zones hold more than three of Britain's forces"
    for href, title in clusters:
        assert "zoom=4&amp;cx=" in href  # without the script the link itself zooms in
        assert title.startswith("Around ") and "Great Britain:" in title
    # Each force in a crowd is still drawn, hidden by the stylesheet until the map is zoomed in.
    hidden = svg.count('in-cluster"')
    assert hidden >= 3 * len(clusters)
