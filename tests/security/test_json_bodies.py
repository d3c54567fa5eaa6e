"""Hostile JSON on every JSON endpoint answers 400 naming the problem, and changes nothing (issue 9).

Before: a NUL (``"\\u0000"``) or a lone surrogate (``"\\ud800"``) in a string, or a document nested
a thousand levels deep, gave a 500 on orders, the simulator and ready.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.test import override_settings
from rest_framework.exceptions import ParseError
from rest_framework.test import APIClient

from campaign.models import NationTurn, Order
from campaign.plumbing.json_text import json_depth
from config.parsers import MAX_JSON_DEPTH, StrictJSONParser
from tests.web.fog_worlds import FogWorld, fog_world

pytestmark = pytest.mark.django_db

BASE = "/api/v1/campaigns/channel-1805"
LAY_DOWN = '{"kind": "lay_down", "class": "frigate", "name": %s, "port": "portsmouth"}'

HOSTILE_BODIES: dict[str, tuple[str, str]] = {
    "nul": (LAY_DOWN % '"Ami\\u0000thyst"', "NUL character"),
    "lone surrogate": (LAY_DOWN % '"Ami\\ud800thyst"', "unpaired surrogate"),
    "lone low surrogate": (LAY_DOWN % '"\\udfff"', "unpaired surrogate"),
    "nul in a key": ('{"kind\\u0000": "lay_down"}', "NUL character"),
    "deep nesting": ("[" * 1000 + "]" * 1000, "nested deeper than"),
    "deep objects": ('{"a":' * 200 + "1" + "}" * 200, "nested deeper than"),
}
# Not JSON at all: each endpoint's own parser refuses these in its own format, so only the status
# is common.
UNDECODABLE_BODIES: dict[str, tuple[str | bytes, str]] = {
    "huge integer": ('{"ready": ' + "9" * 5000 + "}", "JSON parse error"),
    "not utf-8": (b'{"ready": "\xff\xfe"}', "not utf-8 text"),
}


@pytest.fixture
def fw() -> FogWorld:
    return fog_world()


def _as(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _state() -> tuple[list[Any], list[Any]]:
    return (
        list(Order.objects.order_by("id").values_list("id", "body")),
        list(NationTurn.objects.order_by("id").values_list("id", "ready")),
    )


def _endpoints(fw: FogWorld) -> list[tuple[str, str]]:
    client = _as(fw.nelson)
    created = client.post(
        f"{BASE}/orders/", {"kind": "lay_down", "class": "frigate", "name": "Hero", "port": "portsmouth"}, format="json"
    )
    assert created.status_code == 201
    order_id = created.json()["id"]
    return [
        ("post", f"{BASE}/orders/"),
        ("put", f"{BASE}/orders/"),
        ("put", f"{BASE}/orders/{order_id}/"),
        ("post", f"{BASE}/ready/"),
        ("post", "/api/v1/simulator/"),
    ]


@pytest.mark.parametrize("kind", sorted(HOSTILE_BODIES | UNDECODABLE_BODIES))
def test_every_json_endpoint_refuses_a_hostile_body_with_400(fw: FogWorld, kind: str) -> None:
    body, _ = (HOSTILE_BODIES | UNDECODABLE_BODIES)[kind]
    endpoints = _endpoints(fw)
    before = _state()
    client = _as(fw.nelson)
    for method, url in endpoints:
        response = getattr(client, method)(url, body, content_type="application/json")
        assert response.status_code == 400, (kind, method, url, response.status_code)
        # The order endpoints refuse bad text by field in their own words (the order validator,
        # tests/api/test_campaign_api.py); every other problem is the guard's, with its words.
        by_field = "/orders/" in url and HOSTILE_BODIES.get(kind, ("", ""))[1] in (
            "NUL character",
            "unpaired surrogate",
        )
        if kind in HOSTILE_BODIES and not by_field:
            assert HOSTILE_BODIES[kind][1] in response.json()["detail"], response.json()
    assert _state() == before


def test_the_problem_names_where_the_string_is(fw: FogWorld) -> None:
    spec = '{"type": "fleet_action", "sides": [{"name": "A\\u0000"}]}'
    response = _as(fw.nelson).post("/api/v1/simulator/", spec, content_type="application/json")
    assert (
        response.json()["detail"]
        == "JSON parse error - the string at $.sides[0].name contains a NUL character (U+0000)."
    )
    order = _as(fw.nelson).post(f"{BASE}/orders/", LAY_DOWN % '"A\\u0000"', content_type="application/json")
    [refusal] = order.json()["errors"]
    assert (refusal["code"], refusal["field"]) == ("bad_text", "name")


def test_a_proper_surrogate_pair_and_brackets_in_strings_are_fine(fw: FogWorld) -> None:
    name = '"\\ud83d\\udea2 [[[{{{"'
    response = _as(fw.nelson).post(f"{BASE}/orders/", LAY_DOWN % name, content_type="application/json")
    assert response.status_code == 201, response.json()
    assert Order.objects.get(pk=response.json()["id"]).body["name"] == "\U0001f6a2 [[[{{{"


def test_nesting_up_to_the_limit_is_parsed() -> None:
    assert json_depth("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH) == MAX_JSON_DEPTH
    assert json_depth('["[[[", {"a": "]}"}]') == 2


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
def test_a_body_beyond_the_size_limit_is_refused(fw: FogWorld) -> None:
    endpoints = _endpoints(fw)
    before = _state()
    big = LAY_DOWN % ('"' + "x" * 2000 + '"')
    for method, url in endpoints:
        response = getattr(_as(fw.nelson), method)(url, big, content_type="application/json")
        assert response.status_code == 400 and "too large" in response.json()["detail"], (method, url)
    assert _state() == before


@pytest.mark.parametrize("kind", sorted(HOSTILE_BODIES | UNDECODABLE_BODIES))
def test_the_default_parser_refuses_the_same_bodies(kind: str) -> None:
    body, words = (HOSTILE_BODIES | UNDECODABLE_BODIES)[kind]
    raw = body if isinstance(body, bytes) else str(body).encode()
    with pytest.raises(ParseError, match=words):
        StrictJSONParser().parse(io.BytesIO(raw), "application/json", {"encoding": "utf-8"})


def test_the_refusal_is_the_apis_one_problem_format(fw: FogWorld) -> None:
    """RFC 9457 problem details, the field and code in ``errors``, like every other 4xx of the API."""
    response = _as(fw.nelson).post(
        "/api/v1/simulator/", '{"sides": [{"ships": [{"name": "\\u0000"}]}]}', content_type="application/json"
    )
    assert response.status_code == 400
    body = response.json()
    assert response["Content-Type"] == "application/problem+json"
    assert body["type"] == "urn:admiralty:problem:bad_text" and body["status"] == 400
    assert body["errors"] == [
        {"index": None, "field": "sides[0].ships[0].name", "code": "bad_text", "message": body["detail"]}
    ]
    assert (
        body["detail"] == "JSON parse error - the string at $.sides[0].ships[0].name contains a NUL character (U+0000)."
    )
