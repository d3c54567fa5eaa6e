"""The campaign map: an inline SVG drawn from the zones' coordinates (issue 5 "the map")."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import Nation
from campaign.pages.map.drawing import label_box, label_lines, layout, overlap
from campaign.pages.map.page import MapZone
from fleets.models import Blockade, Fleet
from ports.models import LandUnit, Port, SeaZone
from tests.web.fog_worlds import FogWorld, europe, turn_close

pytestmark = pytest.mark.django_db


def _map(fw: FogWorld, query: str = "", *, htmx: bool = False, user: object | None = None) -> str:
    client = Client()
    client.force_login(user or fw.nelson)  # type: ignore[arg-type]
    url = reverse("campaign:map", args=[fw.campaign.slug]) + query
    response = client.get(url, HTTP_HX_REQUEST="true") if htmx else client.get(url)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def _svg(page: str) -> str:
    return page[page.index("<svg") : page.index("</svg>")]


def test_every_zone_is_drawn_at_its_coordinates_with_its_name(fw: FogWorld) -> None:
    svg = _svg(_map(fw))
    for zone in SeaZone.objects.filter(campaign=fw.campaign):
        assert f'transform="translate({zone.x} {zone.y})" data-zone="{zone.key}"' in svg
        assert f"<title>{zone.name} — " in svg
        assert f'zone={zone.key}"' in svg  # clickable: the zone's panel


def test_adjacent_zones_are_joined_by_a_line(fw: FogWorld) -> None:
    svg = _svg(_map(fw))
    lines = re.findall(r'<line x1="(\d+)" y1="(\d+)" x2="(\d+)" y2="(\d+)"/>', svg)
    assert len(lines) == 3  # channel–biscay, biscay–tagus, channel–north sea, each once
    assert ("300", "200", "320", "420") in lines or ("320", "420", "300", "200") in lines


def test_ports_are_coloured_by_their_owner(fw: FogWorld) -> None:
    svg = _svg(_map(fw))
    for port in Port.objects.filter(campaign=fw.campaign).select_related("owner"):
        block = svg.split(f'data-port="{port.key}"')[1].split("</g>")[0]
        assert f"fill: {port.owner.color}" in block
        assert f'transform="translate({port.x} {port.y})"' in svg


def test_blockades_and_sieges_are_marked_on_the_ports(fw: FogWorld) -> None:
    """Every port's sieges and blockades are public (§3 fog of war): this turn's Blockade rows."""
    turn_close(fw.campaign)
    Blockade.objects.create(campaign=fw.campaign, turn=1, port=fw.w.brest, fleet=fw.w.channel_fleet)
    Port.objects.filter(pk=fw.w.portsmouth.pk).update(siege_turns=1)
    LandUnit.objects.create(campaign=fw.campaign, nation=fw.w.fr, state=LandUnit.State.ASHORE, port=fw.w.portsmouth)
    # Seen from France too: the blockade against it and the siege it lays.
    for user in (fw.nelson, fw.villeneuve):
        svg = _svg(_map(fw, user=user))
        brest = svg.split('data-port="brest"')[0].rsplit("<g", 1)[1]
        assert "blockaded" in brest and "besieged" not in brest
        portsmouth = svg.split('data-port="portsmouth"')[0].rsplit("<g", 1)[1]
        assert "besieged" in portsmouth
        assert "besieged 1 turn by France" in svg
        assert "blockaded by Great Britain" in svg
    assert 'class="blockade-ring"' in _svg(_map(fw))
    # Last turn's blockades only: a blockade two turns old is not drawn.
    turn_close(fw.campaign)
    assert "blockaded by GB" not in _svg(_map(fw))


def test_own_fleets_link_to_their_moves_and_others_to_the_zone(fw: FogWorld) -> None:
    Fleet.objects.filter(pk=fw.w.channel_fleet.pk).update(port=None)
    page = _map(fw)
    url = reverse("campaign:map", args=[fw.campaign.slug])
    assert f'href="{url}?fleet={fw.w.channel_fleet.pk}"' in page
    own = page.split(f'href="{url}?fleet={fw.w.channel_fleet.pk}"')[1].split("</a>")[0]
    assert 'data-kind="own"' in own and ">GB 10<" in own and "Channel Fleet" in own
    ally = page.split('data-kind="ally"')[0].rsplit("<a ", 1)[1]
    assert "zone=tagus" in ally


def test_fleets_in_port_are_drawn_beside_their_port(fw: FogWorld) -> None:
    svg = _svg(_map(fw))
    marker = re.search(r'<g class="marker marker-port small" transform="translate\((\d+) (\d+)\)"', svg)
    assert marker is not None
    assert (int(marker[1]), int(marker[2])) == (fw.w.portsmouth.x + 6, fw.w.portsmouth.y - 4)


def test_a_zone_panel_shows_what_the_nation_knows_there(fw: FogWorld) -> None:
    page = _map(fw, "?zone=channel")
    panel = page[page.index('id="zone-panel"') :]
    assert "<h2>The Channel</h2>" in panel
    assert "Channel Fleet</strong> (Great Britain) — 10 ships, 10 of the line, in Portsmouth" in panel
    assert "Give orders" in panel or "Ships and condition" in panel
    assert "Portsmouth</strong> (Great Britain)" in panel
    assert "Bay of Biscay" in panel and "North Sea" in panel  # adjacent zones
    assert 'class="zone zone-coastal selected"' in page


def test_a_zone_panel_under_htmx_is_a_fragment(fw: FogWorld) -> None:
    body = _map(fw, "?zone=tagus", htmx=True)
    assert "<html" not in body and "<svg" not in body
    assert "Mouth of the Tagus" in body and "Tagus Squadron" in body


def test_an_unknown_zone_is_not_found(fw: FogWorld) -> None:
    client = Client()
    client.force_login(fw.nelson)
    response = client.get(reverse("campaign:map", args=[fw.campaign.slug]) + "?zone=atlantis")
    assert response.status_code == 404


def test_the_legend_explains_the_marks_and_names_the_nations(fw: FogWorld) -> None:
    page = _map(fw)
    legend = page[page.index('id="legend-h"') :]
    for words in ("Port under siege", "Port blockaded", "Our ships at sea", "Allied ships", "Enemy ships seen"):
        assert words in legend
    letters = re.sub(r"<[^>]+>", "", legend)  # each nation's letter (a map symbol) beside its name
    assert "GB Great Britain" in letters and "PT Portugal" in letters
    assert "NL Batavian Republic" in letters  # it owns a port on the map


def test_the_map_scales_to_its_content_and_keeps_labels_apart() -> None:
    """The viewBox covers what is drawn and little else (so the map fills the page), and two zones
    close together get labels that overlap neither each other nor the zones."""
    zones = [
        MapZone("a", "Strait of Dover and the Downs", "narrows", 436, 292, ()),
        MapZone("b", "Eastern Channel", "coastal", 406, 307, ()),
    ]
    labels, viewbox = layout(zones, [], [])
    x, y, w, h = (int(v) for v in viewbox.split())
    boxes = [label_box(lb.x, lb.y, lb.anchor, lb.lines) for lb in labels]
    circles = [(z.x - 9, z.y - 9, z.x + 9, z.y + 9) for z in zones]
    for left, top, right, bottom in boxes + circles:
        assert x <= left and y <= top and right <= x + w and bottom <= y + h
    assert (w, h) == (400, 280)  # a small area is shown at 10:7 and at least 400 units wide
    assert overlap(boxes[0], boxes[1]) == 0
    assert all(overlap(box, circle) == 0 for box in boxes for circle in circles)
    assert labels[0].lines == ("Strait of Dover", "and the Downs")
    assert label_lines("Coast of Galicia (Ortegal to Finisterre)") == ("Coast of Galicia",)


def test_the_europe_map_draws_every_zone_and_port() -> None:
    campaign = europe()
    client = Client()
    client.force_login(Nation.objects.get(campaign=campaign, code="GB").player)  # type: ignore[arg-type]
    page = client.get(reverse("campaign:map", args=[campaign.slug])).content.decode()
    svg = _svg(page)
    assert svg.count("data-zone=") == SeaZone.objects.filter(campaign=campaign).count() == 44
    assert svg.count("data-port=") == Port.objects.filter(campaign=campaign).count()
    assert 'data-kind="own"' in svg and 'data-kind="enemy"' not in svg
    assert "Spanish" not in svg
