"""Content-Security-Policy on every page, no inline script in any template, the API docs behind a
setting (issue 9)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client, override_settings

from tests.web.fog_worlds import FogWorld, fog_world

pytestmark = pytest.mark.django_db

TEMPLATES = Path(settings.BASE_DIR) / "templates"
SCRIPT_TAG = re.compile(r"<script\b([^>]*)>", re.IGNORECASE)
EVENT_HANDLER = re.compile(r"\s(on[a-z]+|hx-on[:\w-]*)\s*=", re.IGNORECASE)


def test_no_template_holds_an_inline_script_or_event_handler() -> None:
    offenders = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        for attributes in SCRIPT_TAG.findall(text):
            if "src=" not in attributes and 'type="application/json"' not in attributes:
                offenders.append(f"{path.relative_to(TEMPLATES)}: <script{attributes}>")
        offenders += [f"{path.relative_to(TEMPLATES)}: {m}=" for m in EVENT_HANDLER.findall(text)]
    assert offenders == []


def _pages(fw: FogWorld) -> list[tuple[Client, str]]:
    anonymous = Client()
    player = Client()
    player.force_login(fw.nelson)
    superuser = Client()
    superuser.force_login(get_user_model().objects.create_superuser("root", "root@example.org", "pw-long-enough-1"))
    slug = fw.campaign.slug
    return [
        (anonymous, "/"),
        (anonymous, "/accounts/login/"),
        (anonymous, "/accounts/password_reset/"),
        (anonymous, "/admin/login/"),
        (anonymous, "/schemas/campaign-document.json"),
        (anonymous, "/no-such-page/"),
        (player, "/"),
        (player, "/settings/"),
        (player, f"/campaigns/{slug}/"),
        (player, f"/campaigns/{slug}/orders/"),
        (player, f"/campaigns/{slug}/turns/"),
        (player, f"/campaigns/{slug}/map/"),
        (player, "/api/v1/campaigns/"),
        (player, "/api/docs/"),
        (superuser, "/admin/"),
        (superuser, "/admin/campaign/nation/"),
    ]


def test_every_page_carries_the_policy_and_the_other_security_headers() -> None:
    fw = fog_world()
    for client, url in _pages(fw):
        response = client.get(url)
        assert response.status_code < 500, url
        policy = response.headers.get("Content-Security-Policy", "")
        assert "script-src 'self'" in policy and "'unsafe-eval'" not in policy, url
        assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy, url
        assert response.headers.get("X-Content-Type-Options") == "nosniff", url
        assert response.headers.get("Referrer-Policy") == "same-origin", url
        assert response.headers.get("X-Frame-Options") == "DENY", url


def test_htmx_is_configured_without_eval_or_injected_styles() -> None:
    response = Client().get("/accounts/login/")
    config = re.search(r'<meta name="htmx-config" content=\'([^\']*)\'', response.content.decode())
    assert config is not None
    assert '"includeIndicatorStyles": false' in config.group(1) and '"allowEval": false' in config.group(1)


def test_the_api_docs_are_for_logged_in_users_by_default_and_the_schema_is_public() -> None:
    anonymous = Client()
    # A bot writer downloads the schema before having a token (curl saves the schema, not a 401).
    assert anonymous.get("/api/schema/").status_code == 200
    assert anonymous.get("/api/schema/", HTTP_AUTHORIZATION="Bearer adm_wrong").status_code == 200
    assert anonymous.get("/api/docs/").status_code in (401, 403)
    user = Client()
    user.force_login(get_user_model().objects.create_user("reader", password="pw-long-enough-1"))
    assert user.get("/api/schema/").status_code == 200
    docs = user.get("/api/docs/")
    assert docs.status_code == 200 and b"<script>" not in docs.content
    assert user.get("/api/docs/?script=").status_code == 200


@override_settings(API_DOCS_PUBLIC=True)
def test_the_api_docs_open_to_anyone_by_the_setting() -> None:
    anonymous = Client()
    assert anonymous.get("/api/schema/").status_code == 200
    assert anonymous.get("/api/docs/").status_code == 200
