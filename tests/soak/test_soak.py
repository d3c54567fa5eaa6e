"""The whole-campaign soak (issue 25) for a bounded number of steps with a fixed seed: the same driver as
``python -m bench soak``, on the test database, with a real worker, beat and SMTP server. The long runs
across seeds are ``python -m bench soak --campaigns N --turns T``."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from bench.soak import Env, run
from bench.soak_web import Processes, SmtpSink, Soak

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.worker]

SEED = 1805
#: Bounded for make test's budget (about a minute); the long runs are the bench's.
STEPS = 6


def test_a_campaign_played_through_every_interface_keeps_every_invariant(settings: Any) -> None:
    smtp = SmtpSink()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", smtp.port
    settings.EMAIL_USE_TLS, settings.EMAIL_TIMEOUT = False, 5
    database = connection.settings_dict
    server = f"{database['USER'] or 'postgres'}@{database['HOST'] or '127.0.0.1'}:{database['PORT'] or 5432}"
    url = f"postgres://{server}/{database['NAME']}"
    processes = Processes(url, settings.CELERY_QUEUE_PREFIX, smtp.port, "test")
    # The killed worker waits out its lease (10 s) and the sweep: left to the bench, and to
    # tests/campaign/test_turn_worker.py's kill tests.
    env = Env(soak=Soak(), smtp=smtp, processes=processes, extra_players=0, skip=frozenset({"kill"}))
    try:
        processes.worker()
        processes.beat()
        failures = run(seed=SEED, campaigns=1, turns=1, steps=STEPS, env=env, twin=False)
    finally:
        print("seconds by action:", dict(env.seconds))
        processes.stop()
        smtp.stop()
    assert failures == [], "\n".join(failures)
    assert env.stats["turns"] >= 1 and env.stats["ended"] == 1
