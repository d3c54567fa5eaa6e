"""The OpenAPI schema against the API (STACK.md "OpenAPI fuzzing"): schemathesis generates requests
from /api/schema/ and checks every answer against it (status codes, content types, response bodies,
no server error, authentication enforced). Settings are in schemathesis.toml at the repository root."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import override_settings
from hypothesis import HealthCheck, settings

from campaign.accounts.api_tokens import api_token_create
from config.wsgi import application
from tests.web.fog_worlds import FogWorld, fog_world

# Read at import time, before any user exists: opened for the read, as API_DOCS_PUBLIC would.
with override_settings(API_DOCS_PUBLIC=True):
    schema = schemathesis.openapi.from_wsgi("/api/schema/", application)


#: The token of the current test's world (each test rolls back the one it made).
TOKEN = {"secret": "not-made-yet"}


@schema.auth(refresh_interval=None)  # no cache: each test rolls back the token it made
class NelsonTokenAuth:
    """Every generated request is made as Britain's player with a personal token, as a script would
    (so schemathesis knows the credentials are real and probes that the API refuses requests without
    them). The token is made for each test's world: the database is rolled back between examples."""

    def get(self, case: schemathesis.Case, ctx: Any) -> str:
        return TOKEN["secret"]

    def set(self, case: schemathesis.Case, data: str, ctx: Any) -> None:
        case.headers["Authorization"] = f"Bearer {data}"


@pytest.fixture
def world(db: None) -> Iterator[FogWorld]:
    """The campaign, and the WSGI handler kept from closing the test's connection after each request
    (Django's own test client does the same), so requests see the test's transaction."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        world = fog_world()
        TOKEN["secret"] = api_token_create(user_id=world.nelson.pk, name="schemathesis").secret
        yield world
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.mark.slow
@schema.parametrize()
@settings(deadline=None, suppress_health_check=list(HealthCheck))
def test_the_api_keeps_to_its_schema(case: schemathesis.Case, world: FogWorld) -> None:
    # Each example is a new write, so it gets a new Idempotency-Key: the examples of one test share its
    # database, and a key generated twice for two requests is refused 422 by design (the caller's
    # history, not the schema's; tests/api/test_turn_writes.py checks it).
    if case.headers and "Idempotency-Key" in case.headers:
        case.headers["Idempotency-Key"] = f"fuzz-{uuid.uuid4().hex}"
    case.call_and_validate()
