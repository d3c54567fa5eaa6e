"""A battle pack's PDF is printed by a queued task on a real worker (issue 27: Chromium never runs
inside a request): the page says "preparing" and refreshes itself, a second request while it is
printed starts no second print, the stored PDF is then served; each user may start only so many."""

from __future__ import annotations

import time
from typing import Any

import pytest

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
