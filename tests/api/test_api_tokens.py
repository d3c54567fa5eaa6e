"""Personal API tokens (issue 12): made, listed and revoked on the Settings page, shown once, stored
hashed; ``Authorization: Bearer`` accepted; no credentials, a wrong or a revoked token → 401 with a
``WWW-Authenticate`` challenge, while a known user who may not see something gets 403."""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from rest_framework.test import APIClient

from campaign.accounts.api_tokens import api_token_create
from campaign.models import ApiToken
from tests.web.fog_worlds import FogWorld

pytestmark = pytest.mark.django_db

BASE = "/api/v1/campaigns/channel-1805"
ROOT = Path(__file__).resolve().parent.parent.parent


def _bearer(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def _shown_token(page: str) -> str:
    found = re.findall(r'value="(adm_[^"]+)" aria-label="Your new API token"', page)
    assert len(found) == 1, "the new token is shown once on the page"
    return str(found[0])


def test_a_user_makes_lists_uses_and_revokes_a_token_on_the_settings_page(fw: FogWorld) -> None:
    web = Client()
    web.force_login(fw.nelson)
    response = web.post("/settings/api-tokens/", {"action": "create", "name": "my bot"})
    assert response.status_code == 302
    page = web.get(response["Location"]).content.decode()
    secret = _shown_token(page)
    assert "my bot" in page and "never used" in page
    again = web.get("/settings/").content.decode()
    assert secret not in again and "my bot" in again, "shown once, listed after"

    stored = ApiToken.objects.get(user=fw.nelson)
    assert stored.digest == hashlib.sha256(secret.encode()).hexdigest() and secret not in stored.digest

    api_response = _bearer(secret).get("/api/v1/campaigns/")
    assert api_response.status_code == 200 and api_response.json()["results"][0]["nation"] == "GB"
    stored.refresh_from_db()
    assert stored.last_used_at is not None
    assert "last used" in web.get("/settings/").content.decode()

    web.post("/settings/api-tokens/", {"action": "revoke", "token": stored.pk})
    stored.refresh_from_db()
    assert stored.revoked_at is not None and "revoked" in web.get("/settings/").content.decode()
    api_response = _bearer(secret).get("/api/v1/campaigns/")
    assert api_response.status_code == 401 and api_response["WWW-Authenticate"].startswith('Bearer realm="api"')
    assert "revoked" in api_response.json()["detail"]


def test_a_token_needs_a_name_and_only_its_owner_revokes_it(fw: FogWorld) -> None:
    web = Client()
    web.force_login(fw.villeneuve)
    page = web.post("/settings/api-tokens/", {"action": "create", "name": "  "}, follow=True).content.decode()
    assert "Give the token a name" in page and not ApiToken.objects.exists()
    page = web.post("/settings/api-tokens/", {"name": "x" * 81}, follow=True).content.decode()
    assert "at most 80 characters" in page and not ApiToken.objects.exists()

    nelsons = api_token_create(user_id=fw.nelson.pk, name="nelson's").token
    page = web.post("/settings/api-tokens/", {"action": "revoke", "token": nelsons.pk}, follow=True).content.decode()
    assert "You have no such token" in page
    nelsons.refresh_from_db()
    assert nelsons.revoked_at is None and "nelson&#x27;s" not in page
    assert Client().post("/settings/api-tokens/", {"name": "anon"}).status_code == 302  # to the login
    assert not ApiToken.objects.filter(name="anon").exists()


def test_no_credentials_and_wrong_tokens_get_401_with_a_challenge(fw: FogWorld) -> None:
    real = api_token_create(user_id=fw.nelson.pk, name="real").secret
    wrong_secret = real[:-4] + ("aaaa" if not real.endswith("aaaa") else "bbbb")
    cases = {
        "none": APIClient(),
        "wrong secret": _bearer(wrong_secret),
        "unknown": _bearer("adm_00000000_nothing"),
        "not ours": _bearer("abc"),
    }
    for label, client in cases.items():
        for url in ("/api/v1/campaigns/", f"{BASE}/", f"{BASE}/fleets/"):
            response = client.get(url)
            assert response.status_code == 401, (label, url)
            challenge = response["WWW-Authenticate"]
            assert challenge == 'Bearer realm="api", Basic realm="api"', (label, challenge)
    two_words = APIClient()
    two_words.credentials(HTTP_AUTHORIZATION=f"Bearer {real} extra")
    assert two_words.get("/api/v1/campaigns/").status_code == 401


def test_a_known_user_who_may_not_look_gets_403_not_401(fw: FogWorld) -> None:
    nelson = _bearer(api_token_create(user_id=fw.nelson.pk, name="bot").secret)
    response = nelson.get(f"{BASE}/fleets/?nation=FR")
    assert response.status_code == 403 and "WWW-Authenticate" not in response
    assert nelson.get(f"{BASE}/fleets/").status_code == 200


def test_an_inactive_users_token_is_refused(fw: FogWorld) -> None:
    secret = api_token_create(user_id=fw.nelson.pk, name="bot").secret
    fw.nelson.is_active = False
    fw.nelson.save()
    assert _bearer(secret).get("/api/v1/campaigns/").status_code == 401


def test_the_api_token_command_prints_a_working_token(fw: FogWorld) -> None:
    out = StringIO()
    call_command("api_token", "villeneuve", "--name", "ops", stdout=out)
    secret = out.getvalue().strip()
    assert secret.startswith("adm_") and ApiToken.objects.get(name="ops").user == fw.villeneuve
    assert _bearer(secret).get("/api/v1/campaigns/").json()["results"][0]["nation"] == "FR"
    with pytest.raises(CommandError, match="There is no user 'nobody'"):
        call_command("api_token", "nobody", "--name", "ops")
    with pytest.raises(CommandError, match="Give the token a name"):
        call_command("api_token", "villeneuve", "--name", "")


def test_production_answers_no_basic_auth_and_challenges_only_for_bearer() -> None:
    """Production settings leave HTTP Basic out (a player's password never goes with each call)."""
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE", "API_BASIC_AUTH")},
        "DJANGO_SETTINGS_MODULE": "config.settings.prod",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/test",
        "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0",
        "DJANGO_ALLOWED_HOSTS": "admiralty.example.org",
    }
    script = (
        "from rest_framework.settings import api_settings; "
        "from campaign.api.authentication import BearerTokenAuthentication as B; "
        "print([c.__name__ for c in api_settings.DEFAULT_AUTHENTICATION_CLASSES]); "
        "print(B().authenticate_header(None))"
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-2:] == [
        "['BearerTokenAuthentication', 'SessionAuthentication']",
        'Bearer realm="api"',
    ]
