"""Issue 27 item 10: with Redis down (the cache of rate-limit counters and the Celery broker both
unreachable), nothing answers 500. Throttles and limits fail open (logged); writes that need the broker
before they can promise anything answer 503 with a message and change nothing; writes whose work a
beat sweep picks up later (mail, a claimed turn) are kept and answered as usual.

The requests run in a subprocess whose settings name a Redis that is not there (a closed port on
this machine), on this test's database: the same code a production server runs when Redis dies.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from campaign.accounts.api_tokens import api_token_create
from campaign.models import Turn
from campaign.models.audit import AuditEntry
from campaign.models.dispatches import Dispatch
from tests.web.fog_worlds import fog_world

ROOT = Path(__file__).resolve().parents[2]
#: Nothing listens on the discard port here: every connection to it is refused at once.
DEAD_REDIS = "redis://127.0.0.1:9"

SCRIPT = r"""
import json, sys
import django
django.setup()
from django.contrib.auth import get_user_model
from django.test import Client

args = json.loads(sys.argv[1])
User = get_user_model()
out = {}

api = Client(raise_request_exception=False, HTTP_HOST="127.0.0.1", HTTP_AUTHORIZATION="Bearer " + args["token"])
r = api.post(f"/api/v1/campaigns/{args['slug']}/ready/", {"ready": True}, content_type="application/json")
out["api_ready"] = [r.status_code, r.headers.get("Content-Type", "")]

player = Client(raise_request_exception=False, HTTP_HOST="127.0.0.1")
player.force_login(User.objects.get(username="nelson"))
r = player.post(
    f"/campaigns/{args['slug']}/dispatches/",
    {"to": ["FR"], "subject": "Terms", "body": "We propose an exchange of prisoners."},
)
out["dispatch"] = [r.status_code, r.headers.get("Content-Type", "")]

anonymous = Client(raise_request_exception=False, HTTP_HOST="127.0.0.1")
r = anonymous.post("/accounts/password_reset/", {"email": "nelson@example.org"})
out["password_reset"] = [r.status_code, r.content.decode()]

gm = Client(raise_request_exception=False, HTTP_HOST="127.0.0.1")
gm.force_login(User.objects.get(username=args["gm"]))
r = gm.post(f"/admin/campaign/campaign/{args['campaign_pk']}/desk/resolve-now/", follow=True)
out["resolve_now"] = [r.status_code, r.content.decode()]
print(json.dumps(out))
"""


@pytest.mark.django_db(transaction=True)
def test_with_redis_down_nothing_answers_500_and_nothing_is_half_done() -> None:
    fw = fog_world()
    campaign = fw.campaign
    turn = Turn.objects.get(campaign=campaign, status=Turn.Status.OPEN)
    token = api_token_create(user_id=fw.nelson.pk, name="bot").secret
    type(fw.gm).objects.filter(pk=fw.gm.pk).update(is_staff=True)  # the GM works in the admin
    settings_dict = connection.settings_dict
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": f"postgres://{settings_dict['USER'] or 'postgres'}@127.0.0.1:5432/{settings_dict['NAME']}",
        "CACHE_URL": f"{DEAD_REDIS}/1",
        "CELERY_BROKER_URL": f"{DEAD_REDIS}/0",
        "CELERY_RESULT_BACKEND": f"{DEAD_REDIS}/0",
    }
    args = {"token": token, "slug": campaign.slug, "gm": fw.gm.username, "campaign_pk": campaign.pk}
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(args)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(result.stdout.strip().splitlines()[-1])

    # An API write needs no broker: the throttle could not count it and let it through.
    assert out["api_ready"][0] == 200, out
    # A dispatch is stored; its mail waits in the outbox for the sweep once Redis is back.
    assert out["dispatch"][0] in (200, 302), out
    assert Dispatch.objects.filter(campaign=campaign).exists()
    # A password reset cannot be queued: 503 and it says so.
    status, page = out["password_reset"]
    assert status == 503, out
    assert "cannot be sent just now" in page
    # Resolve now refuses before claiming anything: the turn stays open, nothing audited.
    status, page = out["resolve_now"]
    assert status == 200, status
    assert "task queue cannot be reached" in page
    turn.refresh_from_db()
    assert turn.status == Turn.Status.OPEN
    assert not AuditEntry.objects.filter(campaign=campaign, summary__contains="resolved now").exists()


def test_any_other_redis_error_in_a_view_is_a_503_that_says_so() -> None:
    """The net under every path not handled above: problem+json on the API, a plain page elsewhere."""
    from django.http import HttpResponse
    from django.test import RequestFactory
    from kombu.exceptions import OperationalError
    from redis.exceptions import ConnectionError as RedisConnectionError

    from config.middleware import ServiceUnavailableMiddleware

    guard = ServiceUnavailableMiddleware(lambda request: HttpResponse())
    api = guard.process_exception(RequestFactory().post("/api/v1/campaigns/x/orders/"), RedisConnectionError())
    assert api is not None and api.status_code == 503 and api["Retry-After"] == "120"
    assert api["Content-Type"] == "application/problem+json"
    assert json.loads(api.content)["errors"][0]["code"] == "service_unavailable"
    page = guard.process_exception(RequestFactory().get("/campaigns/x/"), OperationalError("down"))
    assert page is not None and page.status_code == 503 and b"cannot be reached" in page.content
    assert guard.process_exception(RequestFactory().get("/"), ValueError("a bug")) is None  # a real 500
