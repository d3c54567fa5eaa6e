"""The real map and orders from it, served (issue 13 "A real map", "Orders from the map"): the
europe-1805 campaign drawn at its coordinates with Natural Earth land, the zoom query, a fleet's
legal moves, a move entered by POST (with and without HTMX) or refused with nothing written, the
coordinates through export and import, and the fallback for campaigns without them."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from campaign.backup.document import BackupError, campaign_export, campaign_import
from campaign.geo.theatre import THEATRES
from campaign.models import Campaign, Nation, Order
from campaign.orders.choices import OrderChoices, order_desk_for_player
from campaign.pages.history import snapshot_map
from campaign.scenarios.loading import ScenarioError, scenario_read, scenario_validate
from campaign.viewer import viewer_for_player
from fleets.models import Fleet
from ports.models import Port, SeaZone
from tests.support.played_campaign import kept
from tests.web.fog_worlds import client_for, europe, turn_close

pytestmark = pytest.mark.django_db

EUROPE = THEATRES["europe"]


@pytest.fixture
def campaign() -> Campaign:
    """europe-1805 with Britain's player, its rows copied in (loaded once, kept in the played-rows cache):
    these tests read its maps, none checks what loading writes."""
    return kept(europe)


def _player(campaign: Campaign, code: str = "GB") -> Any:
    return Nation.objects.get(campaign=campaign, code=code).player


def _get(client: Client, campaign: Campaign, query: str = "") -> str:
    response = client.get(reverse("campaign:map", args=[campaign.slug]) + query)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def _svg(page: str) -> str:
    return page[page.index("<svg") : page.index("</svg>")]


def _viewbox(page: str) -> tuple[float, ...]:
    match = re.search(r'<svg class="seamap[^"]*" viewBox="([^"]+)"', page)
    assert match is not None
    return tuple(float(v) for v in match[1].split())


def _fleet(campaign: Campaign, name: str = "Mediterranean Fleet") -> Fleet:
    return Fleet.objects.get(campaign=campaign, name=name)


def test_zones_and_ports_are_drawn_at_their_real_coordinates_over_natural_earth_land(campaign: Campaign) -> None:
    page = _get(client_for(_player(campaign)), campaign)
    svg = _svg(page)
    assert 'class="seamap geo"' in svg and '<path class="land" d="M' in svg
    assert svg.count('class="inset"') == 2 and "The Cape and the East Indies" in svg
    lion = SeaZone.objects.get(campaign=campaign, key="gulf-of-lion")
    assert (lion.lon, lion.lat) == (5.0, 42.2)
    x, y = EUROPE.place(5.0, 42.2)
    assert f'transform="translate({round(x, 1)} {round(y, 1)})" data-zone="gulf-of-lion"' in svg
    toulon = Port.objects.get(campaign=campaign, key="toulon")
    x, y = EUROPE.place(toulon.lon, toulon.lat)  # type: ignore[arg-type]
    assert f'transform="translate({round(x, 1)} {round(y, 1)})" data-port="toulon"' in svg
    # Every place of the scenario has coordinates, the far stations included (drawn in the insets).
    assert not SeaZone.objects.filter(campaign=campaign, lon__isnull=True).exists()
    assert not Port.objects.filter(campaign=campaign, lon__isnull=True).exists()
    halifax = Port.objects.get(campaign=campaign, key="halifax")
    assert EUROPE.frame_for(halifax.lon, halifax.lat).key == "americas"  # type: ignore[arg-type]
    # Markers carry the nation's letters as well as its colour.
    assert re.search(r"<text aria-hidden=\"true\" x=\"\d+\" y=\"[\d.]+\">GB \d+</text>", svg)
    # The page stays light: the SVG with the land of Europe and both insets.
    assert len(svg.encode()) < 200_000, len(svg.encode())


def test_the_zoom_query_narrows_the_view_and_bad_values_show_the_whole_map(campaign: Campaign) -> None:
    client = client_for(_player(campaign))
    whole = _viewbox(_get(client, campaign))
    assert whole == (0.0, 0.0, round(EUROPE.width, 1), round(EUROPE.height, 1))
    page = _get(client, campaign, "?zoom=2&cx=500&cy=300")
    assert _viewbox(page) == pytest.approx((250.0, 300 - EUROPE.height / 4, 500.0, EUROPE.height / 2), abs=0.06)
    assert 'class="seamap geo zoomed"' in page
    # The links step the zoom and keep the centre; zone links keep the zoom.
    assert "zoom=4&amp;cx=500&amp;cy=300" in page
    assert "zoom=2&amp;cx=500&amp;cy=300&amp;zone=gulf-of-lion" in page
    # Near an edge the view is kept on the map.
    assert _viewbox(_get(client, campaign, "?zoom=8&cx=0&cy=0"))[:2] == (0.0, 0.0)
    # A level between the links' is the script's (pinch, wheel): kept when the map is drawn again.
    assert _viewbox(_get(client, campaign, "?zoom=2.5&cx=500&cy=300"))[2] == pytest.approx(whole[2] / 2.5, abs=0.06)
    bad_views = ("?zoom=9", "?zoom=0.5", "?zoom=-2", "?zoom=abc", "?zoom=2&cx=nan&cy=%C2%B2", "?zoom=%C2%B2")
    for bad in (*bad_views, "?zoom=2&cx=1e999"):
        box = _viewbox(_get(client, campaign, bad))
        assert box[2] in (whole[2], pytest.approx(whole[2] / 2, abs=0.06)), bad


def test_an_own_fleet_chosen_on_the_map_shows_exactly_the_order_forms_moves(campaign: Campaign) -> None:
    user = _player(campaign)
    fleet = _fleet(campaign)
    page = _get(client_for(user), campaign, f"?fleet={fleet.pk}")
    assert "Move Mediterranean Fleet" in page
    desk = order_desk_for_player(user=user, slug=campaign.slug)
    choices = OrderChoices(desk=desk)
    paths = choices.move_paths(choices.fleets_by_id[fleet.pk])
    # Every legal path is offered (the shortest to each place on the map, every one in the panel).
    for path in paths:
        assert f'name="path" value="{path.value}"' in page
    ends = {p.steps[-1] for p in paths if not p.steps[-1].startswith("port:")}
    svg = _svg(page)
    assert set(re.findall(r'data-dest="([^"]+)"', svg)) == ends
    for key in ends:
        assert re.search(rf'class="zone zone-\w+ reach" transform="[^"]+" data-zone="{key}"', svg)
    assert "black-sea-east" not in re.findall(r'data-dest="([^"]+)"', svg)
    # Without JavaScript a destination on the map opens the ordinary form with the path chosen.
    assert f"kind=move&amp;fleet={fleet.pk}&amp;path=ligurian-sea" in svg


def test_another_nations_fleet_or_a_made_up_id_gives_no_moves(campaign: Campaign) -> None:
    client = client_for(_player(campaign))
    french = _fleet(campaign, "Toulon Fleet")
    for query in (f"?fleet={french.pk}", "?fleet=999999999"):
        page = _get(client, campaign, query)
        assert "No move to give" in page and "dest-link" not in page
    page = _get(client, campaign, "?fleet=abc")
    assert "No move to give" not in page and "Move " not in page.split("<aside")[1].split("Legend")[0]


def _move(client: Client, campaign: Campaign, fleet: Any, path: str, **headers: Any) -> Any:
    return client.post(reverse("campaign:map_move", args=[campaign.slug]), {"fleet": fleet, "path": path}, **headers)


def test_a_move_posted_from_the_map_is_entered_through_the_order_service(campaign: Campaign) -> None:
    client = client_for(_player(campaign))
    fleet = _fleet(campaign)
    response = _move(client, campaign, fleet.pk, "tyrrhenian-sea|ionian-sea")
    assert response.status_code == 302 and response["Location"] == reverse("campaign:map", args=[campaign.slug])
    order = Order.objects.get(nation__campaign=campaign)
    assert order.kind == Order.Kind.MOVE and order.body == {
        "kind": "move",
        "fleet": fleet.pk,
        "path": ["tyrrhenian-sea", "ionian-sea"],
    }
    page = client.get(response["Location"]).content.decode()
    assert "Order added: Mediterranean Fleet to Tyrrhenian Sea → Ionian Sea." in page
    # Under HTMX the map area comes back with the outcome in it (a fleet takes one move a turn:
    # the first is withdrawn).
    Order.objects.filter(nation__campaign=campaign).delete()
    response = _move(client, campaign, fleet.pk, "ligurian-sea", HTTP_HX_REQUEST="true", HTTP_HX_TARGET="map-area")
    body = response.content.decode()
    assert response.status_code == 200 and body.lstrip().startswith('<div id="map-area"')
    assert response["HX-Push-Url"] == reverse("campaign:map", args=[campaign.slug])
    assert "Order added: Mediterranean Fleet to Ligurian Sea." in body
    assert Order.objects.get(nation__campaign=campaign).body["path"] == ["ligurian-sea"]
    # A second move for the same fleet (a second tap) replaces the first, in its place in the list,
    # through the order service.
    first = Order.objects.get(nation__campaign=campaign)
    body = _move(client, campaign, fleet.pk, "tyrrhenian-sea", HTTP_HX_REQUEST="true", HTTP_HX_TARGET="map-area")
    body = body.content.decode()
    assert "Move changed: Mediterranean Fleet now to Tyrrhenian Sea (the earlier move is replaced)." in body
    order = Order.objects.get(nation__campaign=campaign)
    assert (order.pk, order.position, order.body["path"]) == (first.pk, first.position, ["tyrrhenian-sea"])


@pytest.mark.parametrize(
    ("fleet", "path", "says"),
    [
        ("own", "black-sea-east", "Choose a path from the list"),
        ("own", "", "This field is required"),
        ("french", "ligurian-sea", "Choose one of your fleets from the list."),
        ("abc", "ligurian-sea", "Choose one of your fleets from the list."),
    ],
)
def test_a_bad_move_from_the_map_is_refused_clearly_and_nothing_is_written(
    campaign: Campaign, fleet: str, path: str, says: str
) -> None:
    client = client_for(_player(campaign))
    fleet_id = {"own": _fleet(campaign).pk, "french": _fleet(campaign, "Toulon Fleet").pk}.get(fleet, fleet)
    response = _move(client, campaign, fleet_id, path, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="map-area")
    body = response.content.decode()
    assert response.status_code == 200
    assert 'class="message error"' in body and "Move not entered:" in body and says in body
    assert not Order.objects.filter(nation__campaign=campaign).exists()
    # Without HTMX: back to the map with the message, the fleet still chosen if it was a number.
    response = _move(client, campaign, fleet_id, path)
    assert response.status_code == 302
    assert ("fleet=" in response["Location"]) == (fleet != "abc")
    assert says in client.get(response["Location"]).content.decode()


def test_moves_from_the_map_need_an_open_turn_and_the_nations_own_player(campaign: Campaign) -> None:
    fleet = _fleet(campaign)
    other = get_user_model().objects.create_user("stranger", "s@example.org", "a-long-test-password")
    assert _move(client_for(other), campaign, fleet.pk, "ligurian-sea").status_code == 404
    assert _move(Client(), campaign, fleet.pk, "ligurian-sea").status_code == 302  # to the login page
    assert Client().get(reverse("campaign:map_move", args=[campaign.slug])).status_code in (302, 405)
    turn_close(campaign)  # the next turn opens: still open, so close it for good
    campaign.turns.filter(status="open").update(status="resolved")
    client = client_for(_player(campaign))
    response = _move(client, campaign, fleet.pk, "ligurian-sea", HTTP_HX_REQUEST="true", HTTP_HX_TARGET="map-area")
    assert "Orders are closed" in response.content.decode()
    assert not Order.objects.filter(nation__campaign=campaign).exists()
    assert "No move to give" in _get(client, campaign, f"?fleet={fleet.pk}")


def test_coordinates_survive_export_and_import_and_old_exports_import_without_them(campaign: Campaign) -> None:
    document = json.loads(json.dumps(campaign_export(campaign=campaign)))
    lion = next(z for z in document["sea_zones"] if z["key"] == "gulf-of-lion")
    assert (lion["lon"], lion["lat"]) == (5.0, 42.2)
    copy = campaign_import(document=document, slug="europe-copy")
    assert campaign_export(campaign=copy)["sea_zones"] == document["sea_zones"]
    assert campaign_export(campaign=copy)["ports"] == document["ports"]
    # An export from before coordinates: no lon/lat anywhere. It imports, and its map is the
    # abstract layout from x/y (no land, no zoom).
    for record in document["sea_zones"] + document["ports"]:
        record.pop("lon"), record.pop("lat")
    old = campaign_import(document=document, slug="europe-old")
    assert not SeaZone.objects.filter(campaign=old, lon__isnull=False).exists()
    gb = Nation.objects.get(campaign=old, code="GB")
    gb.player = get_user_model().objects.create_user("old-gb", "old@example.org", "a-long-test-password")
    gb.save(update_fields=["player"])
    page = _get(client_for(gb.player), old)
    assert 'class="land"' not in page and 'class="seamap"' in page and "map-zoom" not in page
    # Half a pair is refused by name, before the database.
    document["sea_zones"][0]["lon"] = 3.0
    with pytest.raises(BackupError) as refused:
        campaign_import(document=document, slug="europe-half")
    assert "sea_zones[0]: 'lat' must be given with 'lon'" in str(refused.value)
    document["sea_zones"][0]["lat"] = 95.0
    with pytest.raises(BackupError) as refused:
        campaign_import(document=document, slug="europe-north")
    assert "sea_zones[0].lat" in str(refused.value)


def test_the_database_keeps_coordinates_paired_and_on_the_globe(campaign: Campaign) -> None:
    zone = SeaZone.objects.get(campaign=campaign, key="azores")
    for lon, lat in ((10.0, None), (None, 10.0), (181.0, 10.0), (10.0, -91.0)):
        with pytest.raises(IntegrityError), transaction.atomic():
            SeaZone.objects.filter(pk=zone.pk).update(lon=lon, lat=lat)


def test_a_scenario_with_bad_coordinates_is_refused_by_name() -> None:
    data = scenario_read("europe-1805")
    data["sea_zones"][0]["lat"] = None
    data["ports"][0]["lon"] = "west"
    with pytest.raises(ScenarioError) as refused:
        scenario_validate(data)
    message = str(refused.value)
    assert "zone american-seaboard: lon and lat must both be given" in message
    assert "port portsmouth: lon and lat must both be given, lon from -180 to 180" in message


def test_the_turn_history_map_is_the_real_map_when_its_snapshot_has_coordinates(campaign: Campaign) -> None:
    turn_close(campaign)
    viewer = viewer_for_player(user=_player(campaign), slug=campaign.slug)
    snapshot = campaign_export(campaign=campaign, with_snapshots=False)
    drawn = snapshot_map(viewer, snapshot, [], [])
    assert drawn.theatre is EUROPE and drawn.main_land
    lion = next(z for z in drawn.zones if z.key == "gulf-of-lion")
    assert (lion.x, lion.y) == tuple(round(v, 1) for v in EUROPE.place(5.0, 42.2))
    page = client_for(_player(campaign)).get(reverse("campaign:turn", args=[campaign.slug, 1])).content.decode()
    assert '<path class="land"' in page
