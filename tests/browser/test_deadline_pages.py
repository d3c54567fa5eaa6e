"""Issue 26 in Chromium: an order form left open over the deadline ("the GM is asked") is refused through
htmx with the reason shown in the page — nothing stored — and the header says what the turn waits for."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, expect

from campaign.models import Campaign, Order, Turn
from tests.browser.test_stale_turn_pages import SLUG, _logged_in
from tests.web.fog_worlds import FogWorld

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAITS = "the GM to decide on France and Great Britain's missing orders"


def test_an_order_sent_after_the_deadline_is_refused_in_the_page_and_the_header_says_what_the_turn_waits_for(
    live_server: Any, browser: Browser, fw: FogWorld, tmp_path: Path
) -> None:
    Campaign.objects.filter(pk=fw.campaign.pk).update(nmr_policy="ask_gm")
    Turn.objects.filter(campaign=fw.campaign).update(deadline=timezone.now() + timedelta(hours=1))
    page = _logged_in(browser, live_server.url, "villeneuve")
    page.goto(f"{live_server.url}/campaigns/{SLUG}/orders/?kind=lay_down")
    expect(page.locator("#turn-waits")).to_have_text("Waiting for 2 nations to be ready, or the deadline.")
    page.get_by_label("Frigate", exact=False).first.check()
    page.get_by_label("Name").fill("Hortense")
    Turn.objects.filter(campaign=fw.campaign).update(deadline=timezone.now() - timedelta(minutes=1))
    page.get_by_role("button", name="Add the order").click()
    expect(page.locator("#orders-desk .messages")).to_contain_text(WAITS)
    expect(page.locator("#orders-closed")).to_contain_text("only the GM can enter them now")
    assert not Order.objects.filter(nation=fw.w.fr).exists()
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    expect(page.locator("#turn-waits")).to_have_text(f"Deadline passed — waiting for {WAITS}.")
    page.screenshot(path=str(tmp_path / "deadline-390.png"), full_page=True)
