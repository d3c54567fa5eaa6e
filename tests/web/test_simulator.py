"""The battle simulator page: two fleets in, the engine's Monte-Carlo odds out, errors by field."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from battles.engine import SpecError, parse_spec, simulate_odds
from battles.simulator import CHUNK, MAX_RUNS_AT_ONCE, SimulatorForm, parse_ship_lines

pytestmark = pytest.mark.django_db

URL = "/simulator/"


@pytest.fixture
def client() -> Client:
    user = get_user_model().objects.create_user("tester", "t@example.org", "a-long-test-password")
    c = Client()
    c.force_login(user)
    return c


def _data(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "type": "fleet_action",
        "runs": 300,
        "seed": 17,
        "s0_name": "British",
        "s0_navy": "GB",
        "s0_admiral": "B",
        "s0_crew": "B",
        "s0_in_supply": "on",
        "s0_ships": "3rd-74 × 8\n1st",
        "s1_name": "French",
        "s1_navy": "FR",
        "s1_admiral": "D",
        "s1_crew": "D",
        "s1_in_supply": "on",
        "s1_ships": "3rd-74 x 10",
        "port_name": "Toulon",
        "port_fortification": "3",
        "port_batteries": "0",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def _spec(data: dict[str, Any]) -> Any:
    form = SimulatorForm(data)
    assert form.is_valid(), form.errors
    return parse_spec(form.spec_json())


def _win_cells(page: str) -> list[str]:
    return re.findall(r'<td class="win">([^<]+)</td>', page)


def test_the_simulator_needs_a_login() -> None:
    assert reverse("battles:simulator") == URL
    response = Client().get(URL)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_odds_are_the_engines_monte_carlo_odds(client: Client) -> None:
    data = _data()
    response = client.post(URL, data)
    assert response.status_code == 200
    page = response.content.decode()
    odds = simulate_odds(_spec(data), 300, 17)
    assert "Odds over 300 runs (seed 17)" in page
    assert _win_cells(page) == [f"{odds.win[0]:.1%}", f"{odds.win[1]:.1%}"]
    assert f"<td>{odds.mean_losses[1]['sunk']:.2f}</td>" in page


def test_a_long_run_goes_in_chunks_with_progress_and_ends_with_the_same_odds(client: Client) -> None:
    runs = 2 * CHUNK + 150
    data = _data(runs=runs)
    response = client.post(URL, data, HTTP_HX_REQUEST="true")
    page = response.content.decode()
    chunks = 1
    while "Odds over" not in page:
        assert f'<progress max="{runs}" value="{CHUNK * chunks}">' in page
        state = re.search(r'"state": "([^"]+)"', page)
        assert state is not None
        page = client.post(URL, {"state": state.group(1)}, HTTP_HX_REQUEST="true").content.decode()
        chunks += 1
    assert chunks == 3
    odds = simulate_odds(_spec(data), runs, 17)
    assert _win_cells(page) == [f"{odds.win[0]:.1%}", f"{odds.win[1]:.1%}"]


def test_a_forged_state_is_refused(client: Client) -> None:
    assert client.post(URL, {"state": "forged:state"}, HTTP_HX_REQUEST="true").status_code == 400


def test_an_unknown_class_is_shown_next_to_that_sides_ships(client: Client) -> None:
    page = client.post(URL, _data(s1_ships="galleon × 3")).content.decode()
    block = page[page.index('id="field-s1_ships"') : page.index('id="field-port_name"')]
    assert "sides[1].ships: line 1: unknown class &#x27;galleon&#x27;" in block
    assert "Odds over" not in page


def test_the_engines_spec_error_names_the_field(client: Client) -> None:
    page = client.post(URL, _data(s0_weather_gauge="on", s1_weather_gauge="on")).content.decode()
    block = page[page.index('id="field-s1_weather_gauge"') : page.index('id="field-s1_at_anchor"')]
    assert "sides[1].weather_gauge: both sides cannot have the weather gauge" in block


def test_a_fleet_action_needs_ships_on_both_sides(client: Client) -> None:
    page = client.post(URL, _data(s1_ships="")).content.decode()
    assert "sides[1].ships: a side needs at least one ship" in page


def test_running_the_guns_fights_against_the_port(client: Client) -> None:
    data = _data(type="running_the_guns", s1_ships="", port_fortification="4", port_batteries="2")
    page = client.post(URL, data).content.decode()
    odds = simulate_odds(_spec(data), 300, 17)
    assert "Odds over 300 runs" in page
    assert _win_cells(page) == [f"{odds.win[0]:.1%}", f"{odds.win[1]:.1%}"]


def test_without_javascript_the_runs_are_bounded(client: Client) -> None:
    page = client.post(URL, _data(runs=MAX_RUNS_AT_ONCE + 1)).content.decode()
    assert "at most 5,000 runs at once" in page and "Odds over" not in page


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3rd-74 × 2", [("3rd-74", None, "ready")] * 2),
        ("2 x frigate C damaged", [("frigate", "C", "damaged")] * 2),
        ("1st\n# a comment\n74", [("1st", None, "ready"), ("3rd-74", None, "ready")]),
    ],
)
def test_ship_lines_are_class_times_count(text: str, expected: list[tuple[str, str | None, str]]) -> None:
    ships = parse_ship_lines(text, side_name="X")
    assert [(s["class"], s.get("crew"), s["condition"]) for s in ships] == expected
    assert len({s["name"] for s in ships}) == len(ships)


@pytest.mark.parametrize("text", ["galleon", "3rd-74 × 2 sinking", "× ×"])
def test_bad_ship_lines_name_the_line(text: str) -> None:
    with pytest.raises(SpecError, match="line 1"):
        parse_ship_lines(text, side_name="X")


def test_a_campaigns_simulator_fights_under_its_house_rules() -> None:
    """RULES.md: every number is a setting of the campaign; the campaign's simulator uses them. A house rule
    giving the French +5 on every combat d10 turns the same battle (same seed) their way; the rulebook's
    simulator is unchanged; someone outside the campaign is refused."""
    from battles.engine import Ruleset
    from campaign.services import campaign_settings_update
    from tests.factories import NationFactory

    player = get_user_model().objects.create_user("jervis", "j@example.org", "a-long-test-password")
    nation = NationFactory.create(player=player)
    campaign = nation.campaign
    campaign_settings_update(campaign=campaign, values={"nationality.combat.FR": 5})
    client = Client()
    client.force_login(player)
    url = reverse("campaign:simulator", args=[campaign.slug])
    house = client.post(url, _data()).content.decode()
    rulebook = client.post(URL, _data()).content.decode()
    assert "1 house rule differs from the rulebook" in house
    spec = _spec(_data())
    house_odds = simulate_odds(spec, 300, 17, Ruleset.from_flat({"nationality.combat.FR": 5}))
    rulebook_odds = simulate_odds(spec, 300, 17)
    assert house_odds.win[1] > rulebook_odds.win[1]
    assert f"{house_odds.win[1]:.1%}" in house and f"{rulebook_odds.win[1]:.1%}" in rulebook

    outsider = get_user_model().objects.create_user("stranger", "s@example.org", "a-long-test-password")
    client.force_login(outsider)
    assert client.get(url).status_code == 404
