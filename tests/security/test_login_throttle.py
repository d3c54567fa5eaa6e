"""Login throttling for the web login, the admin login and the API's Basic auth (issue 9).

Ten failures from one address for one username lock that username out from that address for 15
minutes with a readable 429 page; a success before that wipes the count. Made-up usernames lock no
real account (issue 27): an address is only slowed, per minute.
"""

from __future__ import annotations

import base64
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery-staple"
LIMIT = settings.AXES_FAILURE_LIMIT


@pytest.fixture
def nelson() -> object:
    return get_user_model().objects.create_user("nelson", "nelson@example.org", PASSWORD)


def _web_login(
    client: Client, username: str, password: str, *, ip: str = "10.0.0.1", url: str = "/accounts/login/", **extra: Any
):
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR=ip, **extra)


def test_the_limit_is_ten_failures_and_fifteen_minutes() -> None:
    assert LIMIT == 10 and settings.AXES_COOLOFF_TIME.total_seconds() == 15 * 60


def test_ten_failures_lock_the_account_from_that_address(nelson: object) -> None:
    client = Client()
    for _ in range(LIMIT - 1):
        assert _web_login(client, "nelson", "wrong").status_code == 200  # the form again, with its error
    locked = _web_login(client, "nelson", "wrong")
    assert locked.status_code == 429
    assert "Too many failed logins" in locked.content.decode()
    # Locked out even with the right password, from that address; another address is not.
    assert _web_login(client, "nelson", PASSWORD).status_code == 429
    assert _web_login(Client(), "nelson", PASSWORD, ip="10.0.0.2").status_code == 302


def test_made_up_usernames_from_one_address_lock_out_no_real_account(nelson: object) -> None:
    client = Client()
    for i in range(3 * LIMIT):
        _web_login(client, f"guess{i}", "wrong", ip="10.9.9.9")
    assert _web_login(client, "nelson", PASSWORD, ip="10.9.9.9").status_code == 302


def test_another_address_cannot_lock_out_a_user(nelson: object) -> None:
    for _ in range(LIMIT + 2):
        _web_login(Client(), "nelson", "wrong", ip="10.6.6.6")
    assert _web_login(Client(), "nelson", PASSWORD, ip="10.7.7.7").status_code == 302


@override_settings(LOGIN_ATTEMPTS_PER_ADDRESS="5/minute")
def test_an_address_past_its_rate_is_only_slowed(nelson: object) -> None:
    for i in range(5):
        _web_login(Client(), f"spray{i}", "wrong", ip="10.8.8.8")
    assert _web_login(Client(), "nelson", PASSWORD, ip="10.8.8.8").status_code == 429
    assert _web_login(Client(), "nelson", PASSWORD, ip="10.8.8.9").status_code == 302


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_behind_a_trusted_proxy_the_client_is_the_forwarded_address(nelson: object) -> None:
    """Every request comes from the proxy (REMOTE_ADDR); the lockout counts the forwarded client."""
    for _ in range(LIMIT):
        _web_login(Client(), "nelson", "wrong", ip="10.0.0.99", HTTP_X_FORWARDED_FOR="203.0.113.5")
    locked = _web_login(Client(), "nelson", PASSWORD, ip="10.0.0.99", HTTP_X_FORWARDED_FOR="203.0.113.5")
    assert locked.status_code == 429
    # The same proxy, another client: not locked out. A forged left-hand entry changes nothing.
    other = _web_login(Client(), "nelson", PASSWORD, ip="10.0.0.99", HTTP_X_FORWARDED_FOR="203.0.113.6")
    assert other.status_code == 302
    forged = _web_login(Client(), "nelson", PASSWORD, ip="10.0.0.99", HTTP_X_FORWARDED_FOR="198.51.100.1, 203.0.113.5")
    assert forged.status_code == 429


def test_a_success_before_the_limit_resets_the_count(nelson: object) -> None:
    client = Client()
    for _ in range(LIMIT - 1):
        _web_login(client, "nelson", "wrong")
    assert _web_login(client, "nelson", PASSWORD).status_code == 302
    assert not AccessAttempt.objects.filter(username="nelson", failures_since_start__gt=0).exists()


def test_the_admin_login_is_throttled_too() -> None:
    get_user_model().objects.create_superuser("admiral", "a@example.org", PASSWORD)
    client = Client()
    for _ in range(LIMIT):
        _web_login(client, "admiral", "wrong", url="/admin/login/")
    assert _web_login(client, "admiral", PASSWORD, url="/admin/login/").status_code == 429


def test_the_api_basic_auth_counts_and_is_locked(nelson: object) -> None:
    client = Client()

    def call(password: str) -> int:
        token = base64.b64encode(f"nelson:{password}".encode()).decode()
        return client.get("/api/v1/campaigns/", HTTP_AUTHORIZATION=f"Basic {token}", REMOTE_ADDR="10.1.1.1").status_code

    assert call(PASSWORD) == 200
    for _ in range(LIMIT - 1):
        assert call("wrong") in (401, 403)
    assert call("wrong") == 429  # the failure that reaches the limit already says to wait
    # Locked: the right password too is told to wait (429 with Retry-After), never "invalid password".
    token = base64.b64encode(f"nelson:{PASSWORD}".encode()).decode()
    locked = client.get("/api/v1/campaigns/", HTTP_AUTHORIZATION=f"Basic {token}", REMOTE_ADDR="10.1.1.1")
    assert locked.status_code == 429
    assert int(locked["Retry-After"]) > 0
