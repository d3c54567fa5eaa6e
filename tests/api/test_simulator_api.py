"""POST /api/v1/simulator/: CONTRACT.md's battle spec in, its battle report (or odds) out."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db
URL = "/api/v1/simulator/"

SPEC: dict[str, Any] = {
    "type": "fleet_action",
    "sides": [
        {
            "name": "British",
            "navy": "GB",
            "crew": "B",
            "admiral": {"name": "Nelson", "grade": "A"},
            "ships": [{"name": "Victory", "class": "1st"}, {"name": "Temeraire", "class": "2nd"}],
        },
        {
            "name": "French",
            "navy": "FR",
            "ships": [{"name": "Bucentaure", "class": "3rd-74"}, {"name": "Redoutable", "class": "3rd-74"}],
        },
    ],
}


@pytest.fixture
def client() -> APIClient:
    api = APIClient()
    api.force_authenticate(get_user_model().objects.create_user("captain", "c@example.org", "a-long-password"))
    return api


def test_a_seed_fights_the_same_battle_twice(client: APIClient) -> None:
    first = client.post(URL, {**SPEC, "seed": 7}, format="json")
    assert first.status_code == 200
    report = first.json()
    # Seeds are strings in the API's JSON (beyond 2^53 a JavaScript number would round them).
    assert report["type"] == "fleet_action" and report["seed"] == "7"
    assert {s["name"] for s in report["ships"]} == {"Victory", "Temeraire", "Bucentaure", "Redoutable"}
    assert report["dice"] and report["winner"] in (0, 1, None)
    assert client.post(URL, {**SPEC, "seed": 7}, format="json").json() == report


def test_a_seed_beyond_what_a_json_number_keeps_is_given_and_answered_as_a_string(client: APIClient) -> None:
    seed = str(2**63 - 25)
    report = client.post(URL, {**SPEC, "seed": seed}, format="json").json()
    assert report["seed"] == seed
    assert client.post(URL, {**SPEC, "seed": int(seed)}, format="json").json() == report
    odds = client.post(URL, {**SPEC, "seed": seed, "runs": 3}, format="json").json()
    assert odds["seed"] == seed
    refused = client.post(URL, {**SPEC, "seed": "seven"}, format="json")
    assert refused.status_code == 400 and refused.json()["errors"][0]["field"] == "seed"


def test_dice_replay_a_seeded_report_exactly(client: APIClient) -> None:
    seeded = client.post(URL, {**SPEC, "seed": 1805}, format="json").json()
    faces = [d["raw"] for d in seeded["dice"]]
    replayed = client.post(URL, {**SPEC, "dice": faces}, format="json")
    assert replayed.status_code == 200
    again = replayed.json()
    assert again["seed"] is None
    assert again["dice"] == seeded["dice"] and again["ships"] == seeded["ships"]
    assert again["winner"] == seeded["winner"] and again["outcome"] == seeded["outcome"]


def test_scripted_dice_that_run_out_are_refused(client: APIClient) -> None:
    response = client.post(URL, {**SPEC, "dice": [3]}, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "dice"


def test_runs_give_the_odds(client: APIClient) -> None:
    odds = client.post(URL, {**SPEC, "seed": 3, "runs": 200}, format="json").json()
    assert odds["runs"] == 200 and len(odds["win"]) == 2
    assert abs(sum(odds["win"]) + odds["draw"] - 1) < 1e-9
    assert set(odds["mean_losses"][0]) == {"intact", "damaged", "disabled", "sunk", "captured"}
    assert client.post(URL, {**SPEC, "runs": 10_001}, format="json").json()["errors"][0]["field"] == "runs"
    assert client.post(URL, {**SPEC, "runs": 5, "dice": [1]}, format="json").json()["errors"][0]["field"] == "runs"


def test_a_bad_spec_names_the_field(client: APIClient) -> None:
    spec = copy.deepcopy(SPEC)
    spec["sides"][1]["ships"][0]["class"] = "galleon"
    response = client.post(URL, spec, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "sides[1].ships[0].class" and "galleon" in response.json()["detail"]
    one_side = client.post(URL, {**SPEC, "sides": SPEC["sides"][:1]}, format="json").json()
    assert one_side["errors"][0]["field"] == "sides"
    assert client.post(URL, [1, 2], format="json").json()["errors"][0]["field"] == "spec"


def test_the_simulator_needs_a_login() -> None:
    assert APIClient().post(URL, SPEC, format="json").status_code in (401, 403)
