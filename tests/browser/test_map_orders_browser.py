"""Issue 28, the map, in Chromium at a 390-px phone (and 1366 px where said): a move entered from the map
is drawn on it, a second tap replaces it, it is withdrawn from the map, a blockade is given from the
fleet's panel; every clickable thing on the map is at least 44 CSS px at every zoom; the zoom is kept
after an action; the last-turn layer links each battle to its report; all of it without JavaScript
too. Screenshots go to artifacts/screenshots/map-orders-*.png (not committed)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from campaign.models import Campaign, Nation, Order
from fleets.models import Fleet
from tests.web.fog_worlds import PASSWORD, europe, europe_seen_a_turn

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
SIZES = {"phone": PHONE, "desktop": DESKTOP}


def _logged_in(browser: Browser, base: str, viewport: dict[str, int], username: str, *, js: bool = True) -> Page:
    context = browser.new_context(viewport=viewport, timezone_id="Europe/London", java_script_enabled=js)  # type: ignore[arg-type]
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    return page


def _gb_player(campaign: Campaign) -> str:
    gb = Nation.objects.get(campaign=campaign, code="GB")
    assert gb.player is not None
    return str(gb.player.username)


def _zone_centre(page: Page, key: str) -> tuple[float, float]:
    transform = page.locator(f"svg.seamap .zone[data-zone='{key}']").get_attribute("transform") or ""
    x, y = re.findall(r"-?[\d.]+", transform)[:2]
    return float(x), float(y)


def _zoom(page: Page) -> float:
    full = float((page.locator("svg.seamap").get_attribute("data-full") or "").split()[2])
    return full / float((page.locator("svg.seamap").get_attribute("viewBox") or "").split()[2])


def _small_targets(page: Page) -> list[str]:
    """Every visible link on the map narrower or lower than 44 CSS px, described."""
    small = page.evaluate(
        """() => Array.from(document.querySelectorAll('svg.seamap a')).map(a => {
            const r = a.getBoundingClientRect();
            const shown = getComputedStyle(a).display !== 'none' && r.width + r.height > 0;
            const small = shown && (r.width < 44 || r.height < 44);
            return small ? a.outerHTML.slice(0, 120) + ` ${r.width}x${r.height}` : null;
        }).filter(Boolean)"""
    )
    return list(small)


def _fits(page: Page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_a_move_is_drawn_replaced_and_withdrawn_and_a_blockade_given_on_a_phone(
    live_server: Any, browser: Browser, screenshots: Path
) -> None:
    campaign = europe()
    fleet = Fleet.objects.get(campaign=campaign, name="Mediterranean Fleet")  # Nelson, at sea off Toulon
    page = _logged_in(browser, live_server.url, PHONE, _gb_player(campaign))
    map_url = f"{live_server.url}/campaigns/{campaign.slug}/map/"
    page.goto(map_url)
    x, y = _zone_centre(page, "gulf-of-lion")
    page.goto(f"{map_url}?zoom=4&cx={x:.0f}&cy={y:.0f}")
    assert page.locator("svg.seamap .order-move").count() == 0

    fleet_link = page.locator(f"svg.seamap a.fleet-link:has([data-fleet='{fleet.pk}'])")
    fleet_link.click()
    expect(page.locator("#move-h")).to_have_text("Move Mediterranean Fleet")
    page.locator("svg.seamap a.dest-link[data-dest='ligurian-sea']").click()
    added = page.locator("#map-area .message.success")
    expect(added).to_contain_text("Order added: Mediterranean Fleet to Ligurian Sea")
    # The map draws it: a line from the fleet to the Ligurian Sea, with an arrowhead.
    drawn = page.locator(f"svg.seamap .order-move.order-own[data-order-fleet='{fleet.pk}']")
    expect(drawn).to_have_count(1)
    assert "Ligurian Sea" in (drawn.locator("title").text_content() or "")
    assert drawn.locator("path.order-line").bounding_box() is not None
    # The zoom was kept through the tap on the fleet and the tap on the ring.
    assert _zoom(page) == pytest.approx(4, rel=0.02)
    _fits(page, PHONE["width"])
    page.screenshot(path=str(screenshots / "map-orders-phone-move-drawn.png"))

    # A second tap on the fleet and another ring: the move is replaced, not refused.
    fleet_link.click()
    expect(page.locator(".move-panel")).to_contain_text("to change its move")
    page.locator("svg.seamap a.dest-link[data-dest='tyrrhenian-sea']").click()
    expect(page.locator("#map-area .message.success")).to_contain_text("Move changed")
    expect(drawn).to_have_count(1)
    expect(drawn.locator("title")).to_contain_text("Tyrrhenian Sea")
    order = Order.objects.get(nation__campaign=campaign, kind=Order.Kind.MOVE)
    assert order.body["path"] == ["tyrrhenian-sea"]

    # Withdrawn from the map: the drawing goes with it.
    fleet_link.click()
    page.locator("button[data-withdraw='move']").click()
    expect(page.locator("#map-area .message.success")).to_contain_text("Withdrawn")
    expect(drawn).to_have_count(0)
    assert not Order.objects.filter(nation__campaign=campaign).exists()

    # Another order from the fleet's panel: a blockade of Toulon, drawn as a ring round the port.
    page.locator("details:has(form[data-order-form='posture']) summary").click()
    form = page.locator("form[data-order-form='posture']")
    form.get_by_label("Posture").select_option(label="Blockade")
    form.get_by_label("Port to blockade").select_option(value="toulon")
    form.get_by_role("button", name="Give this order").click()
    expect(page.locator("#map-area .message.success")).to_contain_text("Toulon")
    expect(page.locator(f"svg.seamap .order-blockade[data-order-fleet='{fleet.pk}']")).to_have_count(1)
    assert _zoom(page) == pytest.approx(4, rel=0.02)
    assert Order.objects.get(nation__campaign=campaign).body["posture"] == "blockade"
    assert _small_targets(page) == []
    _fits(page, PHONE["width"])
    page.locator("svg.seamap").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "map-orders-phone-blockade.png"))


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_every_clickable_map_element_is_at_least_44_px_at_every_zoom(
    live_server: Any, browser: Browser, screenshots: Path, size: str
) -> None:
    campaign = europe()
    europe_seen_a_turn(campaign)  # a battle on the map too
    fleet = Fleet.objects.get(campaign=campaign, name="Mediterranean Fleet")
    page = _logged_in(browser, live_server.url, SIZES[size], _gb_player(campaign))
    map_url = f"{live_server.url}/campaigns/{campaign.slug}/map/"
    page.goto(map_url)
    assert page.locator("svg.seamap a").count() > 40
    assert _small_targets(page) == []
    # A crowd of forces (the Channel's) is one cluster at the whole map; a tap zooms in on it.
    clusters = page.locator("svg.seamap a.cluster-link")
    assert clusters.count() >= 2
    page.screenshot(path=str(screenshots / f"map-orders-{size}-whole.png"))
    clusters.first.click()
    assert _zoom(page) == pytest.approx(4, rel=0.02)
    expect(clusters.first).to_be_hidden()
    assert _small_targets(page) == []
    page.locator("[data-map-zoom=reset]").click()
    for _ in range(3):  # the script's zoom: ×2, ×4, ×8
        page.locator("[data-map-zoom=in]").click()
        assert _small_targets(page) == []
    expect(page.locator("svg.seamap a.cluster-link").first).to_be_hidden()
    # Ports are named when zoomed in (the Channel at ×4; names that would overlap wait for a closer look).
    x, y = _zone_centre(page, "channel-west")
    page.goto(f"{map_url}?zoom=4&cx={x:.0f}&cy={y:.0f}")
    assert _small_targets(page) == []
    names = page.locator("svg.seamap .port-name:visible").all_text_contents()
    assert {"Portsmouth", "Plymouth", "Cherbourg"} & set(names), names
    page.locator("svg.seamap").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / f"map-orders-{size}-zoomed.png"))
    # The server's zooms (no script) and a fleet's rings.
    for query in ("zoom=2&", "zoom=4&", "zoom=8&cx=500&cy=400&", ""):
        page.goto(f"{map_url}?{query}fleet={fleet.pk}")
        assert _small_targets(page) == [], query
    page.screenshot(path=str(screenshots / f"map-orders-{size}-fleet-chosen.png"))
    _fits(page, SIZES[size]["width"])


def test_the_last_turn_layer_links_each_battle_to_its_report(
    live_server: Any, browser: Browser, screenshots: Path
) -> None:
    campaign = europe()
    europe_seen_a_turn(campaign)
    page = _logged_in(browser, live_server.url, PHONE, _gb_player(campaign))
    page.goto(f"{live_server.url}/campaigns/{campaign.slug}/map/")
    battle = page.locator("svg.seamap .last-battles a.battle-link")
    expect(battle).to_have_count(1)
    expect(battle.locator("title")).to_contain_text("Battle at")
    x, y = _zone_centre(page, "gulf-of-cadiz")
    page.goto(f"{live_server.url}/campaigns/{campaign.slug}/map/?zoom=4&cx={x:.0f}&cy={y:.0f}")
    expect(battle).to_have_count(1)
    assert _small_targets(page) == []
    page.locator("svg.seamap").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "map-orders-phone-last-turn.png"))
    battle.click()
    page.wait_for_url(re.compile(r"/battles/\d+/"))
    expect(page.locator("h1")).to_be_visible()
    # The layer can be hidden (and shown again) without losing the map.
    page.go_back()
    page.get_by_role("link", name="Hide last turn").click()
    expect(page.locator("svg.seamap .last-battles")).to_have_count(0)
    page.get_by_role("link", name="Show last turn").click()
    expect(page.locator("svg.seamap .last-battles")).to_have_count(1)


def test_without_javascript_a_move_is_entered_drawn_and_withdrawn(
    live_server: Any, browser: Browser, screenshots: Path
) -> None:
    campaign = europe()
    fleet = Fleet.objects.get(campaign=campaign, name="Mediterranean Fleet")
    page = _logged_in(browser, live_server.url, PHONE, _gb_player(campaign), js=False)
    page.goto(f"{live_server.url}/campaigns/{campaign.slug}/map/?zoom=2&cx=560&cy=420")
    page.goto(f"{live_server.url}/campaigns/{campaign.slug}/map/?zoom=2&cx=560&cy=420&fleet={fleet.pk}")
    page.locator(".move-list form:has(input[value='ligurian-sea']) button").click()
    expect(page.locator(".message.success")).to_contain_text("Order added")
    expect(page.locator(f"svg.seamap .order-move[data-order-fleet='{fleet.pk}']")).to_have_count(1)
    assert "zoom=2" in page.url  # the view is kept without the script too
    page.screenshot(path=str(screenshots / "map-orders-phone-nojs-move.png"))
    page.goto(f"{live_server.url}/campaigns/{campaign.slug}/map/?fleet={fleet.pk}")
    page.locator("button[data-withdraw='move']").click()
    expect(page.locator(".message.success")).to_contain_text("Withdrawn")
    expect(page.locator("svg.seamap .order-move")).to_have_count(0)
    _fits(page, PHONE["width"])
