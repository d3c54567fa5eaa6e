"""Issue 26 in Chromium: a page kept open over a turn's resolution never acts on the next turn. The htmx
answer that refuses is shown (the fresh page with its message), never dropped."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from campaign.models import NationTurn, Order
from campaign.orders.services import order_add
from tests.web.fog_worlds import PASSWORD, FogWorld, turn_close

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "channel-1805"


def _logged_in(browser: Browser, base: str, username: str) -> Page:
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_url(lambda url: "/login/" not in url)
    return page


def test_mark_ready_on_a_page_of_a_resolved_turn_marks_nothing_and_says_so(
    live_server: Any, browser: Browser, fw: FogWorld
) -> None:
    page = _logged_in(browser, live_server.url, "nelson")
    page.goto(f"{live_server.url}/campaigns/{SLUG}/")
    button = page.locator("#ready-box").get_by_role("button", name="Mark ready")
    expect(button).to_be_visible()
    turn_close(fw.campaign)  # turn 1 resolves while the page still shows it
    button.click()
    expect(page.get_by_text("Turn 1 has resolved — here is turn 2")).to_be_visible()
    expect(page.locator("#ready-box").get_by_role("button", name="Mark ready")).to_be_visible()
    assert not NationTurn.objects.filter(nation__campaign=fw.campaign, ready=True).exists()


def test_withdraw_on_a_page_of_a_resolved_turn_changes_nothing_and_shows_the_fresh_page(
    live_server: Any, browser: Browser, fw: FogWorld
) -> None:
    gb = fw.w.gb
    order_add(nation=gb, body={"kind": "lay_down", "class": "frigate", "name": "Amethyst", "port": "portsmouth"})
    page = _logged_in(browser, live_server.url, "nelson")
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{live_server.url}/campaigns/{SLUG}/orders/")
    withdraw = page.locator(".order-list").get_by_role("button", name="Withdraw")
    expect(withdraw).to_be_visible()
    turn_close(fw.campaign)
    withdraw.click()
    expect(page.get_by_text("Turn 1 has resolved — here is turn 2")).to_be_visible()
    expect(page.get_by_text("No orders yet this turn")).to_be_visible()
    assert [o.turn.number for o in Order.objects.filter(nation=gb)] == [1]


def test_a_change_after_marking_ready_clears_it_and_the_ready_box_says_why(
    live_server: Any, browser: Browser, fw: FogWorld
) -> None:
    page = _logged_in(browser, live_server.url, "nelson")
    page.goto(f"{live_server.url}/campaigns/{SLUG}/")
    page.locator("#ready-box").get_by_role("button", name="Mark ready").click()
    expect(page.locator("#ready-box").get_by_text("✓ Ready")).to_be_visible()
    order_add(nation=fw.w.gb, body={"kind": "lay_down", "class": "frigate", "name": "Amethyst", "port": "portsmouth"})
    page.reload()
    expect(page.locator("#ready-cleared")).to_contain_text("the orders changed after you marked ready")
