"""Fixtures of the security tests."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client


@pytest.fixture
def gm_client() -> Client:
    """A superuser (the GM of every campaign) logged in to the admin."""
    user = get_user_model().objects.create_superuser("gm", "gm@example.org", "correct-horse-battery")
    client = Client()
    client.force_login(user)
    return client
