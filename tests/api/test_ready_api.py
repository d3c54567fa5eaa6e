"""The API's ready toggle: whose readiness a call sets (issue 9: "A GM's ready toggle without a nation acts
on the first nation by code")."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from campaign.models import NationTurn
from tests.web.fog_worlds import FogWorld, fog_world

pytestmark = pytest.mark.django_db

READY = "/api/v1/campaigns/channel-1805/ready/"


@pytest.fixture
def fw() -> FogWorld:
    return fog_world()


def test_a_gm_who_names_no_nation_is_asked_to_choose_one(fw: FogWorld) -> None:
    client = APIClient()
    client.force_authenticate(fw.gm)
    response = client.post(READY, {"ready": True}, format="json")
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert (error["field"], error["code"]) == ("nation", "nation_required")
    assert "DK, FR, GB" in error["message"] or "FR" in error["message"]
    assert not NationTurn.objects.filter(turn=fw.w.turn, ready=True).exists()
    response = client.post(READY + "?nation=FR", {"ready": True}, format="json")
    assert response.status_code == 200 and response.json()["nation"] == "FR"


def test_a_player_sets_their_own_nation_without_naming_it(fw: FogWorld) -> None:
    client = APIClient()
    client.force_authenticate(fw.nelson)
    response = client.post(READY, {"ready": True}, format="json")
    assert response.status_code == 200 and response.json()["nation"] == "GB"


def test_an_unknown_key_is_refused_naming_it_and_nothing_changes(fw: FogWorld) -> None:
    client = APIClient()
    client.force_authenticate(fw.nelson)
    response = client.post(READY, {"ready": True, "redy": False}, format="json")
    assert response.status_code == 400 and response["Content-Type"] == "application/problem+json"
    [error] = response.json()["errors"]
    assert (error["index"], error["field"], error["code"]) == (None, "redy", "unknown_key")
    assert not NationTurn.objects.filter(turn=fw.w.turn, ready=True).exists()
    assert client.post(READY, {"ready": True, "turn": 1}, format="json").status_code == 200
