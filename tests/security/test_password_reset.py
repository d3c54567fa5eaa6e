"""Password reset: the same work for known and unknown addresses, limited per address and per client
(issue 9). Before: a known address answered twice as slowly, and mails went out without limit."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from config import accounts

pytestmark = pytest.mark.django_db

URL = "/accounts/password_reset/"


def _ip() -> str:
    """A fresh client address per test: the counters live in the (Redis) cache, not the database."""
    return f"10.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}"


class _Recorder:
    calls: list[dict[str, Any]] = []

    @classmethod
    def apply_async(cls, *, kwargs: dict[str, Any], **options: Any) -> None:
        cls.calls.append(kwargs)


def test_known_and_unknown_addresses_do_the_same_work_in_the_request(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(accounts, "password_reset_send", _Recorder)
    _Recorder.calls = []
    known = f"{uuid.uuid4().hex}@example.org"
    get_user_model().objects.create_user("someone", known, "pw-long-enough-1")
    answers = []
    for email in (known, f"{uuid.uuid4().hex}@example.org"):
        with CaptureQueriesContext(connection) as queries:
            response = Client().post(URL, {"email": email}, REMOTE_ADDR=_ip())
        answers.append((response.status_code, response["Location"], len(queries)))
    assert answers[0] == answers[1]
    assert [c["email"] for c in _Recorder.calls] == [known, _Recorder.calls[1]["email"]]
    assert mail.outbox == []  # nothing is sent in the request itself


def test_the_task_sends_to_a_known_address_only() -> None:
    known = f"{uuid.uuid4().hex}@example.org"
    get_user_model().objects.create_user("someone", known, "pw-long-enough-1")
    Client().post(URL, {"email": f"{uuid.uuid4().hex}@example.org"}, REMOTE_ADDR=_ip())
    assert mail.outbox == []
    Client().post(URL, {"email": known}, REMOTE_ADDR=_ip())
    assert [m.to for m in mail.outbox] == [[known]]


def test_requests_for_one_address_are_limited(settings: Any) -> None:
    email = f"{uuid.uuid4().hex}@example.org"
    for _ in range(settings.PASSWORD_RESET_PER_ADDRESS):
        assert Client().post(URL, {"email": email}, REMOTE_ADDR=_ip()).status_code == 302
    refused = Client().post(URL, {"email": email.upper()}, REMOTE_ADDR=_ip())
    assert refused.status_code == 429
    assert "Too many password reset requests for this address" in refused.content.decode()


def test_requests_from_one_client_are_limited(settings: Any) -> None:
    ip = _ip()
    for _ in range(settings.PASSWORD_RESET_PER_CLIENT):
        assert Client().post(URL, {"email": f"{uuid.uuid4().hex}@example.org"}, REMOTE_ADDR=ip).status_code == 302
    refused = Client().post(URL, {"email": f"{uuid.uuid4().hex}@example.org"}, REMOTE_ADDR=ip)
    assert refused.status_code == 429
    assert "Too many password reset requests from your network" in refused.content.decode()
    assert len(mail.outbox) == 0
