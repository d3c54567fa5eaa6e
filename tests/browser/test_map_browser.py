"""Issue 13, "A real map" and "Orders from the map", in Chromium at desktop and phone widths: the
europe-1805 map shows Natural Earth coastlines, zooms (with the script and without), fits a 390 px
phone, and a move is entered by clicking a fleet and then a destination. Screenshots go to
artifacts/screenshots/ (not committed)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from campaign.models import Campaign, Nation, Order
from fleets.models import Fleet
from tests.web.fog_worlds import PASSWORD, europe

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
SIZES = {"desktop": DESKTOP, "phone": PHONE}


def _logged_in(browser: Browser, base: str, viewport: dict[str, int], username: str, *, js: bool = True) -> Page:
    context = browser.new_context(
        viewport=viewport,  # type: ignore[arg-type]
        timezone_id="Europe/London",
        java_script_enabled=js,
    )
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    return page


def _viewbox_width(page: Page) -> float:
    return float(page.locator("svg.seamap").get_attribute("viewBox").split()[2])  # type: ignore[union-attr]


def _europe() -> tuple[Campaign, str]:
    campaign = europe()
    gb = Nation.objects.get(campaign=campaign, code="GB")
    assert gb.player is not None
    return campaign, gb.player.username


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_map_shows_coastlines_and_zooms(live_server: Any, browser: Browser, screenshots: Path, size: str) -> None:
    campaign, username = _europe()
    page = _logged_in(browser, live_server.url, SIZES[size], username)
    page.goto(f"{live_server.url}/campaigns/{campaign.slug}/map/")
    land = page.locator("svg.seamap path.land").first
    assert len(land.get_attribute("d") or "") > 10_000  # Europe's coasts, not a placeholder
    assert page.locator("svg.seamap .inset").count() == 2
    # The map fits the page: nothing sticks out sideways, at a phone's width too.
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    box = page.locator("svg.seamap").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= SIZES[size]["width"]
    page.screenshot(path=str(screenshots / f"map-{size}.png"), full_page=False)

    whole = _viewbox_width(page)
    page.locator("[data-map-zoom=in]").click()
    assert _viewbox_width(page) == pytest.approx(whole / 2, rel=0.01)
    page.locator("[data-map-zoom=in]").click()
    assert _viewbox_width(page) == pytest.approx(whole / 4, rel=0.01)
    # Labels keep their size on screen: the zone label's font shrinks in map units as the map grows.
    height = page.locator("text.zone-label:visible").first.bounding_box()
    assert height is not None and 6 <= height["height"] <= 40
    page.locator("svg.seamap").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / f"map-{size}-zoomed.png"), full_page=False)
    page.locator("[data-map-zoom=reset]").click()
    assert _viewbox_width(page) == pytest.approx(whole, rel=0.01)


def test_the_zoom_links_work_without_javascript(live_server: Any, browser: Browser, screenshots: Path) -> None:
    campaign, username = _europe()
    page = _logged_in(browser, live_server.url, PHONE, username, js=False)
    page.goto(f"{live_server.url}/campaigns/{campaign.slug}/map/")
    whole = _viewbox_width(page)
    page.locator("a[data-map-zoom=in]").click()
    page.wait_for_url(re.compile(r"zoom=2"))
    assert _viewbox_width(page) == pytest.approx(whole / 2, rel=0.01)
    page.locator("a[data-map-pan=east]").click()
    page.wait_for_url(re.compile(r"zoom=2"))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(screenshots / "map-phone-nojs-zoomed.png"), full_page=False)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_move_is_entered_by_clicking_the_map(
    live_server: Any, browser: Browser, screenshots: Path, size: str
) -> None:
    campaign, username = _europe()
    fleet = Fleet.objects.get(campaign=campaign, name="Mediterranean Fleet")  # Nelson, at sea off Toulon
    page = _logged_in(browser, live_server.url, SIZES[size], username)
    page.goto(f"{live_server.url}/campaigns/{campaign.slug}/map/")
    page.locator(f"svg.seamap a.fleet-link:has([data-fleet='{fleet.pk}'])").click()
    # Its legal moves are ringed on the map and listed beside it.
    expect(page.locator("#move-h")).to_have_text("Move Mediterranean Fleet")
    targets = page.locator("svg.seamap a.dest-link")
    assert targets.count() >= 4
    assert page.locator("svg.seamap .zone.reach[data-zone='ligurian-sea']").count() == 1
    page.screenshot(path=str(screenshots / f"map-{size}-fleet-chosen.png"), full_page=False)

    page.locator("svg.seamap a.dest-link[data-dest='ligurian-sea']").click()
    expect(page.locator("#map-area .message.success")).to_contain_text("Ligurian Sea")
    page.screenshot(path=str(screenshots / f"map-{size}-move-entered.png"), full_page=False)
    order = Order.objects.get(nation__campaign=campaign, kind=Order.Kind.MOVE)
    assert order.body["fleet"] == fleet.pk and order.body["path"] == ["ligurian-sea"]
    # The page stayed put (HTMX): the click did not also follow the link to the order form.
    assert "/orders/" not in page.url and "/map/" in page.url
