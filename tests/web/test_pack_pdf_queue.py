"""A battle pack's PDF is printed by a queued task on a real worker (issue 27: Chromium never runs
inside a request): the page says "preparing" and refreshes itself, a second request while it is
printed starts no second print, the stored PDF is then served; each user may start only so many; with
the task queue down the page says so (never a 500) and its "Try again" queues the print again."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from battles.models import PackPdf
from tests.support.tabletop import gibraltar_siege


@pytest.mark.django_db(transaction=True)
@pytest.mark.worker
def test_the_pdf_is_prepared_by_the_worker_once_and_then_served(start_worker: Any) -> None:
    world, table, client = gibraltar_siege()
    url = f"/campaigns/{world.campaign.slug}/table/{table.pk}/pack.pdf"
    first = client.get(url)
    assert first.status_code == 202
    html = first.content.decode()
    assert "Preparing the PDF" in html and '<meta http-equiv="refresh" content="3">' in html
    assert f'href="{url}' in html  # a link for a browser that does not refresh
    second = client.get(url)  # while it waits: the same print, no second one
    assert second.status_code == 202
    assert PackPdf.objects.filter(table=table).count() == 1
    start_worker("pdf")
    deadline = time.monotonic() + 120
    while PackPdf.objects.get(table=table).state != PackPdf.State.READY:
        assert PackPdf.objects.get(table=table).state != PackPdf.State.FAILED, PackPdf.objects.get(table=table).error
        assert time.monotonic() < deadline, "the worker did not print the pack in two minutes"
        time.sleep(0.5)
    served = client.get(url)
    assert served.status_code == 200 and served["Content-Type"] == "application/pdf"
    assert served.content.startswith(b"%PDF")
    assert "attachment" in served["Content-Disposition"]
    assert PackPdf.objects.filter(table=table).count() == 1


@pytest.mark.django_db
def test_a_user_past_the_allowance_gets_429_and_nothing_is_queued(settings: Any) -> None:
    settings.PACK_PDF_PER_USER = 1
    world, table, client = gibraltar_siege()
    url = f"/campaigns/{world.campaign.slug}/table/{table.pk}/pack.pdf"
    assert client.get(url).status_code == 202
    # Another pack (the server rolled its dice: the page reads otherwise) would be a second print.
    assert client.post(f"/campaigns/{world.campaign.slug}/table/{table.pk}/", {"action": "roll"}).status_code == 302
    refused = client.get(url)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "ask again in" in refused.content.decode() and "printable page" in refused.content.decode()
    assert PackPdf.objects.filter(table=table).count() == 1


#: Nothing listens on the discard port here: every connection to it is refused at once.
DEAD_REDIS = "redis://127.0.0.1:9"
ROOT = Path(__file__).resolve().parents[2]
SCRIPT = r"""
import json, sys
import django
django.setup()
from django.contrib.auth import get_user_model
from django.test import Client

args = json.loads(sys.argv[1])
gm = Client(raise_request_exception=False, HTTP_HOST="127.0.0.1")
gm.force_login(get_user_model().objects.get(username="gm"))
first = gm.get(args["url"])
second = gm.get(args["url"])
print(json.dumps([[first.status_code, first.content.decode()], [second.status_code, second.content.decode()]]))
"""


@pytest.mark.django_db(transaction=True)
def test_with_the_task_queue_down_the_pdf_says_so_and_is_queued_again_later() -> None:
    """Redis down (a subprocess whose settings name a closed port, on this test's database): no 500;
    the print is marked failed with the reason, and asking again once the queue is back queues it."""
    world, table, client = gibraltar_siege()
    url = f"/campaigns/{world.campaign.slug}/table/{table.pk}/pack.pdf"
    database = connection.settings_dict
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": f"postgres://{database['USER'] or 'postgres'}@127.0.0.1:5432/{database['NAME']}",
        "CACHE_URL": f"{DEAD_REDIS}/1",
        "CELERY_BROKER_URL": f"{DEAD_REDIS}/0",
        "CELERY_RESULT_BACKEND": f"{DEAD_REDIS}/0",
    }
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps({"url": url})],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    (first, _), (second, page) = json.loads(run.stdout.strip().splitlines()[-1])
    assert first == 202  # recorded and answered; the send after commit found the queue down
    assert second == 503, run.stderr[-2000:]
    assert "task queue cannot be reached" in page and "retry=1" in page  # says why, offers to try again
    pdf = PackPdf.objects.get(table=table)
    assert pdf.state == PackPdf.State.FAILED
    # The queue is back (this process's settings): "Try again" queues the same print again.
    assert client.get(url).status_code == 503  # a plain reload does not
    assert client.get(url + "?nation=FR&retry=1").status_code == 202
    assert PackPdf.objects.get(pk=pdf.pk).state == PackPdf.State.QUEUED
