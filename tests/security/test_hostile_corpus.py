"""The hostile-input corpus replayed (issue 27): each input of ``hostile_corpus`` answered with a clear
4xx quickly, building nothing and never a 5xx.
"""

from __future__ import annotations

import contextlib
import copy
import tracemalloc
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from rest_framework.test import APIClient

from battles.engagements.table import TableResultRefused
from battles.engine import SpecError
from battles.models import TabletopBattle
from battles.simulator import MAX_SHIPS_PER_SIDE, parse_ship_lines
from campaign.accounts.preferences import campaigns_of_user
from campaign.tabletop.services import table_mark
from tests.api.test_simulator_api import SPEC
from tests.factories import NationFactory
from tests.security.hostile_corpus import (
    NUL_PATHS,
    NUL_QUERIES,
    SIMULATOR_API_BODIES,
    SIMULATOR_FIELDS,
    SIMULATOR_SHIP_LINES,
)
from tests.support.tabletop import gibraltar_siege
from tests.web.test_simulator import _data
from tests.worlds import fleet, sea_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def player() -> Any:
    return get_user_model().objects.create_user("hostile", "h@example.org", "a-long-test-password")


def _logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@contextlib.contextmanager
def _peak_memory() -> Iterator[list[int]]:
    """The peak of memory Python allocated inside the block (tracemalloc), in ``[0]`` after it: the work
    a refusal did, measured by what it built rather than by the clock (a loaded machine is slow, not big).
    Three million ships take hundreds of megabytes; a refusal before building them takes a few."""
    peak = [0]
    tracemalloc.start()
    try:
        yield peak
        peak[0] = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


#: What refusing a request may allocate at most (the page or problem rendered, the form parsed).
REFUSAL_PEAK_BYTES = 40_000_000


# --- 1. The simulator: counts bounded before anything is built --------------------------------------------


@pytest.mark.parametrize("text", SIMULATOR_SHIP_LINES)
def test_a_huge_ship_count_is_refused_before_a_ship_is_built(text: str) -> None:
    with _peak_memory() as peak, pytest.raises(SpecError) as refused:
        parse_ship_lines(text, side_name="British")
    assert peak[0] < 5_000_000, f"{peak[0]:,} bytes to refuse {text[:30]!r}"
    assert f"at most {MAX_SHIPS_PER_SIDE} ships" in refused.value.message


def test_two_hundred_ships_a_side_are_still_allowed() -> None:
    assert len(parse_ship_lines("1st x 150\n3rd-74 x 50", side_name="British")) == MAX_SHIPS_PER_SIDE


@pytest.mark.parametrize("text", SIMULATOR_SHIP_LINES)
def test_the_simulator_page_answers_a_huge_count_with_a_400_naming_the_limit(player: Any, text: str) -> None:
    client = _logged_in(player)
    with _peak_memory() as peak:
        response = client.post("/simulator/", _data(s0_ships=text))
    assert peak[0] < REFUSAL_PEAK_BYTES, f"{peak[0]:,} bytes to refuse {text[:30]!r}"
    assert response.status_code == 400
    assert "at most" in response.content.decode()


@pytest.mark.parametrize("fields", SIMULATOR_FIELDS)
def test_the_simulator_pages_other_counts_are_bounded(player: Any, fields: dict[str, str]) -> None:
    client = _logged_in(player)
    with _peak_memory() as peak:
        response = client.post("/simulator/", _data(**fields))
    assert peak[0] < REFUSAL_PEAK_BYTES, f"{peak[0]:,} bytes to refuse {fields}"
    assert response.status_code == 400


@pytest.mark.parametrize(("changes", "field"), SIMULATOR_API_BODIES)
def test_the_simulator_api_refuses_counts_out_of_bounds_naming_the_field(
    player: Any, changes: dict[str, Any], field: str
) -> None:
    body = copy.deepcopy(SPEC)
    for key, value in changes.items():
        if key == "sides":
            body["sides"][0]["ships"] = value[0]["ships"]
        else:
            body[key] = value
    if body.get("type") == "running_the_guns":
        body["sides"][1]["ships"] = []
    api = APIClient()
    api.force_authenticate(player)
    with _peak_memory() as peak:
        response = api.post("/api/v1/simulator/", body, format="json")
    assert peak[0] < REFUSAL_PEAK_BYTES, f"{peak[0]:,} bytes to refuse {changes}"
    assert response.status_code == 400, response.content
    assert response.json()["errors"][0]["field"] == field


@override_settings(API_THROTTLE_RATES={"api_write": "100/minute", "simulator": "2/minute"})
def test_the_web_simulator_is_throttled_like_the_api(player: Any) -> None:
    client = _logged_in(player)
    assert client.post("/simulator/", _data(runs=10)).status_code == 200
    assert client.post("/simulator/", _data(runs=10)).status_code == 200
    refused = client.post("/simulator/", _data(runs=10))
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert "Too many simulations" in refused.content.decode()
    # Per user: another player still simulates.
    other = get_user_model().objects.create_user("other", "o@example.org", "a-long-test-password")
    assert _logged_in(other).post("/simulator/", _data(runs=10)).status_code == 200


# --- 6. NUL bytes: never a 5xx ----------------------------------------------------------------------------


@pytest.mark.parametrize("path", NUL_PATHS)
def test_a_nul_in_a_path_is_a_400(player: Any, path: str) -> None:
    for client in (Client(), _logged_in(player)):
        response = client.get(path)
        assert response.status_code == 400
        assert "NUL" in response.content.decode()


@pytest.mark.parametrize("query", NUL_QUERIES)
@pytest.mark.parametrize("page", ["/", "/accounts/login/", "/api/v1/campaigns/", "/admin/campaign/campaign/"])
def test_a_nul_in_a_query_string_is_a_400(player: Any, page: str, query: str) -> None:
    response = _logged_in(player).get(page + query)
    if page.startswith("/api/"):
        # The API's views refuse their own query parameters, in the API's one error format (the
        # schema fuzz holds each to its documented answer): a 4xx problem, never a 5xx.
        assert 400 <= response.status_code < 500 and response["Content-Type"] == "application/problem+json"
    else:
        assert response.status_code == 400


def test_a_nul_in_a_header_or_a_form_field_is_a_400(player: Any) -> None:
    client = _logged_in(player)
    assert client.get("/", HTTP_X_SOMETHING="a\x00b").status_code == 400
    assert client.post("/accounts/login/", {"username": "a\x00b", "password": "x"}).status_code == 400
    assert client.post("/settings/", {"name": "token\x00"}).status_code == 400


# --- 3. The table: no fog leaks -------------------------------------------------------------------------


def test_a_nation_cannot_ask_for_a_table_battle_where_it_has_no_fleet() -> None:
    world = sea_world()
    with pytest.raises(TableResultRefused) as refused:
        table_mark(campaign=world.campaign, place="north-sea", nation=world.fr)
    assert refused.value.code == "not_a_side" and "no fleet at North Sea" in str(refused.value)
    assert not TabletopBattle.objects.filter(campaign=world.campaign).exists()
    fleet(world, world.fr, "Escadre du Nord", "north-sea", [("3rd-74", 2)])
    asked = table_mark(campaign=world.campaign, place="north-sea", nation=world.fr)
    assert asked.status == TabletopBattle.Status.REQUESTED


def test_a_table_battle_the_asker_took_no_part_in_shows_it_nothing() -> None:
    """A third nation that asked for the battle at Gibraltar (say, its fleet left before it was fought)
    gets neither the pack nor the status: 404, on the page and through the API, like any stranger."""
    world, table, _ = gibraltar_siege()
    spain_player = get_user_model().objects.create_user("gravina", "g@example.com", "a-long-test-password")
    spain = NationFactory.create(campaign=world.campaign, code="ES", name="Spain", player=spain_player)
    TabletopBattle.objects.filter(pk=table.pk).update(requested_by=spain)
    api = APIClient()
    api.force_authenticate(spain_player)
    slug = world.campaign.slug
    assert api.get(f"/api/v1/campaigns/{slug}/table/{table.pk}/").status_code == 404
    assert _logged_in(spain_player).get(f"/campaigns/{slug}/table/{table.pk}/").status_code == 404
    listed = api.get(f"/api/v1/campaigns/{slug}/table/")
    assert listed.status_code == 200 and str(table.pk) not in listed.content.decode().replace(" ", "")


# --- 8. Co-GMs are among a campaign's people ---------------------------------------------------------------


def test_a_co_gm_gets_the_campaigns_it_helps_run() -> None:
    world = sea_world()
    helper = get_user_model().objects.create_user("collingwood", "c@example.com", "a-long-test-password")
    world.campaign.co_gms.add(helper)
    assert [c.pk for c in campaigns_of_user(helper.pk)] == [world.campaign.pk]
