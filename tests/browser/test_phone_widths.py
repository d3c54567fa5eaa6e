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
from campaign.tasks import turn_resolve
from campaign.turn.lifecycle import turn_claim
from tests.browser.test_player_journey import PASSWORD, journey_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def _pages(slug: str, battle_id: int) -> dict[str, str]:
    """Every page a player uses, by a name for the screenshot."""
    return {
        "dashboard": f"/campaigns/{slug}/",
        "map": f"/campaigns/{slug}/map/",
        "map-zone": f"/campaigns/{slug}/map/?zone=gulf-of-cadiz",
        "orders": f"/campaigns/{slug}/orders/",
        "battles": f"/campaigns/{slug}/battles/",
        "battle": f"/campaigns/{slug}/battles/{battle_id}/",
        "turns": f"/campaigns/{slug}/turns/",
        "turn": f"/campaigns/{slug}/turns/1/",
        "simulator": f"/campaigns/{slug}/simulator/",
        "settings": "/settings/",
    }


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
    pages = _pages(world["campaign"].slug, battle.pk)

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
