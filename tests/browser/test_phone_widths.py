"""Issue 13, "Phones": every player page at 390 × 844 in Chromium without sideways scrolling (the
document no wider than the viewport), after a turn with a battle so that every page has its full
content. Screenshots of each page at phone and desktop widths go to artifacts/screenshots/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page

from battles.models import Battle
from campaign.orders.forms import ORDER_FORMS
from campaign.orders.services import order_add
from campaign.tasks import turn_resolve
from campaign.turn.lifecycle import turn_claim
from tests.browser.test_player_journey import PASSWORD, journey_world

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
        "settings": "/settings/",
    }
    pages.update({f"orders-{kind}": f"/campaigns/{slug}/orders/?kind={kind}" for kind in ORDER_FORMS})
    return pages


def _logged_in(browser: Browser, base: str, viewport: dict[str, int]) -> Page:
    context = browser.new_context(viewport=viewport, timezone_id="Europe/London")  # type: ignore[arg-type]
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill("nelson")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    return page


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
    phone = _logged_in(browser, live_server.url, PHONE)
    for name, path in pages.items():
        response = phone.goto(live_server.url + path)
        assert response is not None and response.status == 200, path
        width = phone.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            # Name the elements that stick out, so a failure says what to fix.
            culprits = phone.evaluate(
                """(limit) => [...document.querySelectorAll('body *')]
                    .filter(e => e.getBoundingClientRect().right > limit + 0.5)
                    .slice(0, 8).map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
                        + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : '')
                        + ' ' + Math.round(e.getBoundingClientRect().right))""",
                PHONE["width"],
            )
            too_wide[name] = (width, culprits)
        phone.screenshot(path=str(screenshots / f"phone-{name}.png"), full_page=True)
    desktop = _logged_in(browser, live_server.url, DESKTOP)
    for name, path in pages.items():
        desktop.goto(live_server.url + path)
        desktop.screenshot(path=str(screenshots / f"desktop-{name}.png"), full_page=True)
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
