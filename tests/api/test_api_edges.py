"""The API's edges (issue 30): cross-origin calls from listed origins only, a missing trailing slash,
a server error as problem+json, the schema public."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, override_settings
from django.urls import path
from rest_framework.test import APIClient

from config.urls import handler500 as site_handler500
from config.urls import urlpatterns as site_urls
from tests.web.fog_worlds import FogWorld

pytestmark = pytest.mark.django_db

BASE = "/api/v1/campaigns/channel-1805"
DASHBOARD = "https://dashboard.example.org"


def _as(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_cross_origin_calls_are_off_by_default(fw: FogWorld) -> None:
    preflight = Client().options(f"{BASE}/", HTTP_ORIGIN=DASHBOARD, HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET")
    assert "Access-Control-Allow-Origin" not in preflight
    assert "Access-Control-Allow-Origin" not in _as(fw.nelson).get(f"{BASE}/", HTTP_ORIGIN=DASHBOARD)


@override_settings(API_CORS_ORIGINS=[DASHBOARD])
def test_a_listed_origins_preflight_is_answered_without_credentials(fw: FogWorld) -> None:
    preflight = Client().options(
        f"{BASE}/orders/",
        HTTP_ORIGIN=DASHBOARD,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="PUT",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, content-type, if-match",
    )
    assert preflight.status_code == 204
    assert preflight["Access-Control-Allow-Origin"] == DASHBOARD
    assert "PUT" in preflight["Access-Control-Allow-Methods"]
    assert "If-Match" in preflight["Access-Control-Allow-Headers"]
    answer = _as(fw.nelson).get(f"{BASE}/", HTTP_ORIGIN=DASHBOARD)
    assert answer.status_code == 200 and answer["Access-Control-Allow-Origin"] == DASHBOARD
    assert "ETag" in answer["Access-Control-Expose-Headers"] and "Origin" in answer["Vary"]
    # Another origin gets nothing: its browser refuses to hand the answer to its script.
    other = Client().options(f"{BASE}/", HTTP_ORIGIN="https://evil.example", HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET")
    assert other.status_code == 401 and "Access-Control-Allow-Origin" not in other


def test_a_read_without_its_trailing_slash_is_redirected(fw: FogWorld) -> None:
    response = _as(fw.nelson).get(f"{BASE}/nations?nation=GB")
    assert response.status_code == 301 and response["Location"] == f"{BASE}/nations/?nation=GB"
    assert _as(fw.nelson).get(f"{BASE}/no-such-thing").status_code == 404


def test_a_write_without_its_trailing_slash_is_told_the_path_it_meant(fw: FogWorld) -> None:
    response = _as(fw.nelson).post(f"{BASE}/ready", {"ready": True}, format="json")
    assert response.status_code == 404 and response["Content-Type"] == "application/problem+json"
    [error] = response.json()["errors"]
    assert error["code"] == "trailing_slash_missing" and f"{BASE}/ready/" in error["message"]


def _explode(request: Any) -> Any:
    raise RuntimeError("a bug")


#: The site's URLs and its 500 handler, with one view that fails.
urlpatterns = [path("api/v1/explode/", _explode), *site_urls]
handler500 = site_handler500


@override_settings(ROOT_URLCONF=__name__)
def test_a_server_error_on_the_api_is_a_problem() -> None:
    response = Client(raise_request_exception=False).get("/api/v1/explode/")
    assert response.status_code == 500 and response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["status"] == 500 and body["errors"][0]["code"] == "server_error"
    assert "a bug" not in response.content.decode()


def test_the_schema_needs_no_token() -> None:
    response = Client().get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    assert "/api/v1/campaigns/{slug}/nations/" in response.json()["paths"]
