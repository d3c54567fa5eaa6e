"""Issue 13, "Phones": every player page at 390 × 844 in Chromium without sideways scrolling (the
document no wider than the viewport), after a turn with a battle so that every page has its full
content; and every page of a storming fought on the table (issue 15), used without JavaScript.
Screenshots of each page at phone and desktop widths go to artifacts/screenshots/."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from battles.models import Battle, TabletopBattle
from campaign.orders.forms import ORDER_FORMS
from campaign.orders.services import order_add
from campaign.tasks import turn_resolve
from campaign.turn.lifecycle import turn_claim
from tests.browser.test_player_journey import PASSWORD, journey_world
from tests.support.tabletop import GM_PASSWORD, gibraltar_besieged, storming_held

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def _pages(slug: str, battle_id: int, order_id: int) -> dict[str, str]:
    """Every page a player uses, by a name for the screenshot: each order form too, and an order
    being changed."""
    pages = {
        "home": "/",
        "dashboard": f"/campaigns/{slug}/",
        "map": f"/campaigns/{slug}/map/",
        "map-zone": f"/campaigns/{slug}/map/?zone=gulf-of-cadiz",
        "orders": f"/campaigns/{slug}/orders/",
        "order-edit": f"/campaigns/{slug}/orders/{order_id}/",
        "battles": f"/campaigns/{slug}/battles/",
        "battle": f"/campaigns/{slug}/battles/{battle_id}/",
        "turns": f"/campaigns/{slug}/turns/",
        "turn": f"/campaigns/{slug}/turns/1/",
        "rules": f"/campaigns/{slug}/rules/",
        "simulator": f"/campaigns/{slug}/simulator/",
        "mail-preferences": f"/campaigns/{slug}/mail/",
        "dispatches": f"/campaigns/{slug}/dispatches/",
        "settings": "/settings/",
    }
    pages.update({f"orders-{kind}": f"/campaigns/{slug}/orders/?kind={kind}" for kind in ORDER_FORMS})
    return pages


def _logged_in(
    browser: Browser,
    base: str,
    viewport: dict[str, int],
    *,
    username: str = "nelson",
    password: str = PASSWORD,
    javascript: bool = True,
) -> Page:
    context = browser.new_context(
        viewport=viewport,  # type: ignore[arg-type]
        timezone_id="Europe/London",
        java_script_enabled=javascript,
    )
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    return page


def _too_wide(page: Page) -> tuple[int, list[str]] | None:
    """The page's width and the elements that stick out, if it is wider than a phone."""
    width = page.evaluate("document.documentElement.scrollWidth")
    if width <= PHONE["width"]:
        return None
    # Name the elements that stick out, so a failure says what to fix.
    culprits = page.evaluate(
        """(limit) => [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > limit + 0.5)
            .slice(0, 8).map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
                + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : '')
                + ' ' + Math.round(e.getBoundingClientRect().right))""",
        PHONE["width"],
    )
    return width, culprits


def test_no_player_page_is_wider_than_a_phone(live_server: Any, browser: Browser, screenshots: Path) -> None:
    world = journey_world()
    turn = world["turn"]
    assert turn_claim(turn_id=turn.pk, now=timezone.now())
    assert turn_resolve(turn.pk) == "done"
    battle = Battle.objects.filter(turn=turn, kind=Battle.Kind.FLEET_ACTION).get()
    gb = world["campaign"].nations.get(code="GB")
    order = order_add(nation=gb, body={"kind": "raise", "unit": "land_unit", "port": "portsmouth"})
    order_add(nation=gb, body={"kind": "raise", "unit": "siege_train", "port": "portsmouth"})
    pages = _pages(world["campaign"].slug, battle.pk, order.pk)

    too_wide: dict[str, tuple[int, list[str]]] = {}
    widths: dict[str, int] = {}
    phone = _logged_in(browser, live_server.url, PHONE)
    for name, path in pages.items():
        response = phone.goto(live_server.url + path)
        assert response is not None and response.status == 200, path
        widths[name] = phone.evaluate("document.documentElement.scrollWidth")
        if (wide := _too_wide(phone)) is not None:
            too_wide[name] = wide
        if name == "dashboard":
            # Not only the page: no table of the dashboard is cut off inside its card (the ports
            # table stacks its rows on a phone rather than scrolling within its box).
            cut = phone.evaluate(
                "[...document.querySelectorAll('.card')].filter(c => c.scrollWidth > c.clientWidth + 1).map(c => c.id)"
            )
            assert cut == [], cut
        phone.screenshot(path=str(screenshots / f"phone-{name}.png"), full_page=True)
    # The measured widths beside the screenshots, for whoever checks them by eye.
    (screenshots / "phone-widths.json").write_text(json.dumps(widths, indent=1) + "\n")
    desktop = _logged_in(browser, live_server.url, DESKTOP)
    for name, path in pages.items():
        desktop.goto(live_server.url + path)
        desktop.screenshot(path=str(screenshots / f"desktop-{name}.png"), full_page=True)
    assert too_wide == {}, too_wide


def _storming_pages(slug: str, table_id: int) -> dict[str, str]:
    """Every page of a storming on the table once phase 6 holds it: the list, the storming with its
    result form, and its pack."""
    return {
        "tables-storming": f"/campaigns/{slug}/table/",
        "table-storming": f"/campaigns/{slug}/table/{table_id}/",
        "table-storming-pack": f"/campaigns/{slug}/table/{table_id}/pack/",
    }


def test_every_storming_page_fits_a_phone_without_javascript(
    live_server: Any, browser: Browser, screenshots: Path
) -> None:
    """The GM sends Gibraltar's storming to the table from the list's form, has the server roll its
    first fires and enters the result, with JavaScript off; the garrison's player reads the same
    pages. Each page is checked at 390 px before and after the dice."""
    world = gibraltar_besieged()
    world.gb.player = get_user_model().objects.create_user("eliott", "eliott@example.com", PASSWORD)
    world.gb.save(update_fields=["player"])
    slug = world.campaign.slug
    too_wide: dict[str, tuple[int, list[str]]] = {}

    def look(page: Page, name: str) -> None:
        if (wide := _too_wide(page)) is not None:
            too_wide[name] = wide
        page.screenshot(path=str(screenshots / f"phone-{name}.png"), full_page=True)

    gm = _logged_in(browser, live_server.url, PHONE, username="gm", password=GM_PASSWORD, javascript=False)
    player = _logged_in(browser, live_server.url, PHONE, username="eliott", javascript=False)
    gm.goto(f"{live_server.url}/campaigns/{slug}/table/")
    look(gm, "tables-storming-form")
    player.goto(f"{live_server.url}/campaigns/{slug}/table/")
    look(player, "tables-storming-ask")
    gm.get_by_label("Port").select_option(label="Gibraltar")
    gm.get_by_role("button", name="Storm it on the table").click()
    expect(gm.get_by_role("link", name="Storming of Gibraltar")).to_be_visible()
    look(gm, "tables-storming-marked")

    table = storming_held(world, TabletopBattle.objects.get(campaign=world.campaign))
    pages = _storming_pages(slug, table.pk)
    for who, page in (("gm", gm), ("player", player)):
        for name, path in pages.items():
            response = page.goto(live_server.url + path)
            assert response is not None and response.status == 200, path
            look(page, f"{name}-{who}")
    gm.goto(live_server.url + pages["table-storming"])
    gm.get_by_role("button", name="Have the server roll the first fires").click()
    expect(gm.get_by_text("The server rolled the first fires")).to_be_visible()
    look(gm, "table-storming-rolled")
    gm.goto(live_server.url + pages["table-storming-pack"])
    expect(gm.get_by_role("heading", name="Dice rolled by the server")).to_be_visible()
    look(gm, "table-storming-pack-rolled")
    gm.goto(live_server.url + pages["table-storming"])
    gm.get_by_label("Garrison units lost (of 1)").fill("1")
    gm.get_by_label("Taken (only when no garrison unit is left)").check()
    gm.get_by_role("button", name="Enter the result (as game master)").click()
    expect(gm.get_by_role("button", name="Approve and apply")).to_be_visible()
    look(gm, "table-storming-entered")
    assert TabletopBattle.objects.get(pk=table.pk).status == TabletopBattle.Status.CONFIRMED
    assert too_wide == {}, too_wide


def test_an_order_moves_down_its_list_on_a_phone_with_and_without_javascript(
    live_server: Any, browser: Browser, screenshots: Path
) -> None:
    """Issue 13, "Forms": reorder orders with up/down buttons that work without JavaScript."""
    world = journey_world()
    gb = world["campaign"].nations.get(code="GB")
    first = order_add(nation=gb, body={"kind": "raise", "unit": "land_unit", "port": "portsmouth"})
    second = order_add(nation=gb, body={"kind": "raise", "unit": "siege_train", "port": "portsmouth"})
    url = f"{live_server.url}/campaigns/{world['campaign'].slug}/orders/"
    for javascript in (False, True):
        context = browser.new_context(viewport=PHONE, java_script_enabled=javascript)  # type: ignore[arg-type]
        page = context.new_page()
        page.goto(f"{live_server.url}/accounts/login/")
        page.get_by_label("Username").fill("nelson")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url(lambda u: "/accounts/login/" not in u)
        page.goto(url)
        rows = page.locator("table.orders tbody tr")
        top = first if not javascript else second  # the first pass moved it down
        assert rows.nth(0).get_attribute("id") == f"order-{top.pk}"
        rows.nth(0).get_by_role("button", name="Move order 1 down").click()
        page.wait_for_selector(f"table.orders tbody tr:first-child#order-{(second if top == first else first).pk}")
        assert "Moved down to place 2" in page.locator("body").inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.screenshot(
            path=str(screenshots / f"phone-order-moved-{'js' if javascript else 'nojs'}.png"), full_page=True
        )
        context.close()
    assert list(gb.orders.values_list("pk", flat=True)) == [first.pk, second.pk]


LANDSCAPE = {"width": 844, "height": 390}


def test_in_landscape_the_header_and_tabs_leave_most_of_the_first_screen_to_the_page(
    live_server: Any, browser: Browser, screenshots: Path
) -> None:
    """Issue 28: on a phone held sideways (844 × 390) the masthead, the campaign's header and its tabs
    filled the first screen. Now they take at most 40 % of it, on every page with the campaign header,
    and there is one navigation: the masthead names the simulator only off the campaign pages."""
    world = journey_world()
    slug = world["campaign"].slug
    phone = _logged_in(browser, live_server.url, LANDSCAPE)
    heights: dict[str, float] = {}
    for name in ("dashboard", "orders", "turns", "dispatches"):
        path = _pages(slug, 0, 0)[name]
        response = phone.goto(live_server.url + path)
        assert response is not None and response.status == 200, path
        heights[name] = phone.evaluate("document.querySelector('nav.tabs').getBoundingClientRect().bottom")
        assert phone.get_by_role("link", name="Simulator", exact=True).count() == 1, name
        assert _too_wide(phone) is None or phone.evaluate("document.documentElement.scrollWidth") <= LANDSCAPE["width"]
        phone.screenshot(path=str(screenshots / f"landscape-{name}.png"))
    assert max(heights.values()) <= 0.4 * LANDSCAPE["height"], heights
    phone.goto(live_server.url + "/")
    assert phone.get_by_role("link", name="Simulator", exact=True).count() == 1  # off the campaign pages


def test_the_site_has_a_favicon_and_a_manifest_a_phone_can_pin(live_server: Any, browser: Browser) -> None:
    """Issue 28: /favicon.ico was 404; a phone could not pin the site to its home screen."""
    page = browser.new_page()
    icon = page.request.get(live_server.url + "/favicon.ico")
    assert icon.status == 200 and icon.headers["content-type"] in ("image/x-icon", "image/vnd.microsoft.icon")
    manifest = page.request.get(live_server.url + "/manifest.webmanifest")
    assert manifest.status == 200 and manifest.headers["content-type"].startswith("application/manifest+json")
    body = manifest.json()
    assert body["name"] == "Admiralty" and body["display"] == "standalone"
    for icon_entry in body["icons"]:
        assert page.request.get(live_server.url + icon_entry["src"]).status == 200, icon_entry["src"]
    page.goto(live_server.url + "/accounts/login/")
    assert page.locator('link[rel="manifest"]').get_attribute("href") == "/manifest.webmanifest"
