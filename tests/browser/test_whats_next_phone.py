"""On a 390-px phone: the dashboard's "What's next" strip answers an offer in one tap — Accept enters
exactly one diplomatic order through the order service, and a page left open over a resolution is
refused with nothing stored (issue 28)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from campaign.accounts.preferences import time_zone_of_user
from campaign.models import DiplomaticOffer, Order, Turn
from tests.web.fog_worlds import PASSWORD, europe, europe_seen_a_turn, fog_world, turn_close

pytestmark = pytest.mark.django_db(transaction=True)


def _log_in(page: Page, live_server: Any) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("nelson")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    expect(page).not_to_have_url(re.compile("/accounts/login/"))


def test_one_tap_accept_enters_one_order_and_a_stale_page_is_refused(
    live_server: Any, page: Page, screenshots: Path
) -> None:
    fw = fog_world()
    DiplomaticOffer.objects.create(campaign=fw.campaign, from_nation=fw.w.fr, to_nation=fw.w.gb, kind="peace", turn=1)
    _log_in(page, live_server)
    page.goto(live_server.url + reverse("campaign:dashboard", args=[fw.campaign.slug]))
    accept = page.get_by_role("button", name="Accept France's offer of peace")
    expect(accept).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = accept.bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] >= 44
    page.screenshot(path=str(screenshots / "whats-next-offer-390.png"))

    turn_close(fw.campaign)  # the turn resolves while the page is open
    accept.click()
    expect(page.locator("body")).to_contain_text("Turn 1 has resolved")
    assert not Order.objects.filter(nation=fw.w.gb).exists()

    page.get_by_role("button", name="Accept France's offer of peace").click()
    expect(page.locator("body")).to_contain_text("Accepted France's offer of peace: order 1 is entered for turn 2")
    orders = list(Order.objects.filter(nation=fw.w.gb).values_list("turn__number", "kind", "body"))
    assert orders == [(2, "offer_peace", {"kind": "offer_peace", "nation": "FR"})]
    strip = page.locator("#whats-next")
    expect(strip).to_contain_text("1 order entered this turn")
    expect(strip).to_contain_text("accepted in this turn's orders")
    expect(page.get_by_role("button", name="Accept France's offer of peace")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(screenshots / "whats-next-accepted-390.png"), full_page=True)
    assert Turn.objects.get(campaign=fw.campaign, status=Turn.Status.OPEN).number == 2


def test_the_browsers_zone_is_offered_once_and_taken_in_one_tap(
    live_server: Any, browser: Browser, browser_context_args: dict[str, Any], screenshots: Path
) -> None:
    fw = fog_world()
    context = browser.new_context(**{**browser_context_args, "timezone_id": "Europe/Paris"})
    page = context.new_page()
    _log_in(page, live_server)
    dashboard = live_server.url + reverse("campaign:dashboard", args=[fw.campaign.slug])
    page.goto(dashboard)
    offer = page.locator("#tz-offer")
    expect(offer).to_contain_text("Times are shown in UTC — use Europe/Paris?")
    expect(offer.locator(".tz-link")).to_be_hidden()
    page.screenshot(path=str(screenshots / "whats-next-time-zone-390.png"))
    offer.get_by_role("button", name="Use it").click()
    expect(page).to_have_url(dashboard)
    expect(page.locator("body")).to_contain_text("Times are now shown in Europe/Paris.")
    expect(page.locator("#tz-offer")).to_have_count(0)
    expect(page.locator("#next-deadline")).to_contain_text("CET")
    assert time_zone_of_user(fw.nelson.pk) == "Europe/Paris"
    context.close()


def test_the_phone_dashboard_fits_in_three_screens(live_server: Any, page: Page, screenshots: Path) -> None:
    """Britain in europe-1805 after a turn (the demo's size: 20 fleets, 30 ports, a long ledger): at
    390×844 the dashboard is at most three screens tall, the long lists behind disclosures, and
    nothing scrolls sideways."""
    campaign = europe()
    europe_seen_a_turn(campaign)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("europe-gb")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    expect(page).not_to_have_url(re.compile("/accounts/login/"))
    page.goto(live_server.url + reverse("campaign:dashboard", args=[campaign.slug]))
    expect(page.locator("#whats-next")).to_be_visible()
    height = page.evaluate("document.documentElement.scrollHeight")
    page.screenshot(path=str(screenshots / "dashboard-phone-390.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert height <= 3 * 844, height
