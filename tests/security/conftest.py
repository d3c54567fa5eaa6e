"""Fixtures of the security tests."""

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from config import accounts, tasks


@pytest.fixture
def gm_client() -> Client:
    """A superuser (the GM of every campaign) logged in to the admin."""
    user = get_user_model().objects.create_superuser("gm", "gm@example.org", "correct-horse-battery")
    client = Client()
    client.force_login(user)
    return client


class _SendAtOnce:
    """Stands in for the task in ``config.accounts``: runs it in the request, as if a worker had."""

    @staticmethod
    def apply_async(*, kwargs: dict[str, Any], **options: Any) -> None:
        tasks.password_reset_send(**kwargs)


@pytest.fixture(autouse=True)
def send_password_reset_mail_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Password-reset mail leaves from a Celery task after commit; tests read it from the outbox at once."""
    monkeypatch.setattr(accounts, "password_reset_send", _SendAtOnce)
