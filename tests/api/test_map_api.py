"""The API's map (issue 12): sea zones with adjacency, ports and coordinates, every place by the key
orders take with its display name beside; each port's owner, forts, sieges and blockades as every
nation sees them (RULES.md §3), never its garrison; the same 401 / 403 / 404 as the other resources."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from campaign.accounts.api_tokens import api_token_create
from ports.models import Port, SeaZone
from tests.web.fog_worlds import FogWorld

pytestmark = pytest.mark.django_db

BASE = "/api/v1/campaigns/channel-1805"


def _as(user: Any) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {api_token_create(user_id=user.pk, name='map').secret}")
    return client


def test_zones_give_keys_names_neighbours_ports_and_coordinates(fw: FogWorld) -> None:
    fw.w.channel.adjacent.add(fw.w.biscay)
    response = _as(fw.nelson).get(f"{BASE}/zones/")
    assert response.status_code == 200
    zones = {z["key"]: z for z in response.json()["results"]}
    assert set(zones) == set(SeaZone.objects.filter(campaign=fw.campaign).values_list("key", flat=True))
    channel = zones["channel"]
    assert channel["name"] == "The Channel" and channel["type"] == "coastal" and channel["type_name"] == "Coastal"
    assert "biscay" in channel["adjacent"] and "channel" in zones["biscay"]["adjacent"], "both ways"
    assert channel["ports"] == ["portsmouth"] and zones["biscay"]["ports"] == ["brest"]
    assert (channel["x"], channel["y"]) == (fw.w.channel.x, fw.w.channel.y)
    for zone in zones.values():  # every neighbour is a zone of the list
        assert set(zone["adjacent"]) <= set(zones)


def test_ports_give_zone_owner_forts_and_dockyard_by_key(fw: FogWorld) -> None:
    response = _as(fw.nelson).get(f"{BASE}/ports/")
    assert response.status_code == 200
    ports = {p["key"]: p for p in response.json()["results"]}
    assert set(ports) == {"brest", "lisbon", "portsmouth", "texel"}
    portsmouth = ports["portsmouth"]
    assert portsmouth["name"] == "Portsmouth" and portsmouth["zone"] == "channel"
    assert portsmouth["zone_name"] == "The Channel" and (portsmouth["x"], portsmouth["y"]) == (290, 215)
    assert portsmouth["owner"] == "GB" and portsmouth["owner_name"] == fw.w.gb.name
    assert portsmouth["dockyard"] is True and portsmouth["can_build"] is True
    assert portsmouth["fortification"] == fw.w.portsmouth.fortification
    assert "garrison" not in portsmouth, "a port's garrison is not every nation's to see"


def test_an_enemy_port_shows_its_owner_as_the_nation_sees_it(fw: FogWorld) -> None:
    """Britain sees France's Brest as French; once Britain has taken it, France sees it British and
    unable to build (taken this turn), exactly as the ports page shows it."""
    brest = _as(fw.nelson).get(f"{BASE}/ports/").json()["results"]
    [row] = [p for p in brest if p["key"] == "brest"]
    assert row["owner"] == "FR" and row["owner_name"] == fw.w.fr.name and row["zone"] == "biscay"
    Port.objects.filter(pk=fw.w.brest.pk).update(owner=fw.w.gb, taken_turn=fw.w.turn.number)
    [row] = [p for p in _as(fw.villeneuve).get(f"{BASE}/ports/").json()["results"] if p["key"] == "brest"]
    assert row["owner"] == "GB" and row["taken_turn"] == fw.w.turn.number and row["can_build"] is False


def test_the_map_is_refused_as_every_campaign_resource_is(fw: FogWorld) -> None:
    for resource in ("zones", "ports"):
        url = f"{BASE}/{resource}/"
        anonymous = APIClient().get(url)
        assert anonymous.status_code == 401 and anonymous["WWW-Authenticate"].startswith("Bearer")
        assert _as(fw.nelson).get(f"{url}?nation=FR").status_code == 403
        assert _as(fw.outsider).get(url).status_code == 404
        assert _as(fw.nelson).get(f"/api/v1/campaigns/no-such/{resource}/").status_code == 404
        assert _as(fw.gm).get(f"{url}?nation=FR").status_code == 200
