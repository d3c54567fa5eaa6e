"""Issue 27 item 5: server-error mail to the admins leaves from a Celery task, never inside the request;
it is limited per kind of error; 4xx-class noise (a disallowed Host) and deliberate 503s (/healthz) mail
nobody. A real worker sends to a real SMTP server."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.utils.log import log_response

from tests.support.turns import wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def _server_error(path: str) -> None:
    """What Django's handler logs for an unhandled exception in a view (django.request, status 500)."""
    try:
        raise RuntimeError(f"the view at {path} broke")
    except RuntimeError as exc:
        log_response(
            "Internal Server Error: %s",
            path,
            response=HttpResponse(status=500),
            request=RequestFactory().get(path),
            exception=exc,
        )


def test_error_mail_is_queued_limited_and_never_for_noise(settings: Any, smtp_server: Any, start_worker: Any) -> None:
    settings.ADMINS = [("Ops", "ops@example.org")]
    settings.ERROR_MAIL_RATES = {"kind": "2/hour", "all": "20/hour"}

    # The mail server is down while the request fails: the request does not wait for it, nor fail.
    smtp_server.stop()
    began = time.monotonic()
    _server_error("/campaigns/demo/")
    assert time.monotonic() - began < 2.0, "the request waited for the mail server"

    # Noise: a bad Host (400, django.security) and a failing health check (503) mail nobody.
    assert Client(HTTP_HOST="evil.example.com").get("/").status_code == 400
    assert Client().get("/healthz").status_code == 503  # no beat sweep has run in this test
    # The same error again and again mails twice (the limit per kind), another kind once more.
    for _ in range(4):
        _server_error("/campaigns/demo/")
    _server_error("/campaigns/demo/map/")

    smtp_server.start()
    start_worker("mail", DJANGO_ADMINS="Ops <ops@example.org>", **smtp_server.worker_env)
    wait_for(lambda: len(smtp_server.inbox.messages) >= 3, timeout=60)
    time.sleep(1)  # anything else queued would have followed by now (one worker, one queue, in order)
    subjects = [str(m["Subject"]) for m in smtp_server.inbox.messages]
    assert len(subjects) == 3, subjects
    assert sum("/campaigns/demo/map/" in s for s in subjects) == 1, subjects
    assert all("Internal Server Error" in s for s in subjects), subjects
    assert all(str(m["To"]) == "ops@example.org" for m in smtp_server.inbox.messages)
