"""On a 390-px phone: the turn report opens with its summary and keeps the positions after the turn
behind a disclosure; a battle's dice log is a card per round with each die in words; neither page
scrolls sideways (issue 28)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from fleets.models import Ship
from tests.web.fog_worlds import PASSWORD, fog_world
from tests.web.test_battle_pages import fleet_action_battle
from tests.web.test_turn_report_summary import _played

pytestmark = pytest.mark.django_db(transaction=True)


def _ships(code: str) -> list[Ship]:
    return list(Ship.objects.filter(nation__code=code).select_related("nation", "fleet__sea_zone").order_by("pk"))


def test_report_summary_and_dice_cards_read_on_a_phone(live_server: Any, page: Page, screenshots: Path) -> None:
    fw = fog_world()
    fought = fleet_action_battle(fw.campaign, fw.w.turn, _ships("GB")[:6], _ships("FR")[:6])
    _played(fw)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("nelson")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    expect(page).not_to_have_url(re.compile("/accounts/login/"))

    page.goto(live_server.url + reverse("campaign:turn", args=[fw.campaign.slug, 1]))
    summary = page.locator("#summary")
    expect(summary).to_contain_text("Battle at Bay of Biscay won, Brest blockaded.")
    # The summary is the first thing of the report, above the story; the positions are collapsed.
    assert page.locator("#summary").bounding_box()["y"] < page.locator("#events-h").bounding_box()["y"]  # type: ignore[index]
    expect(page.locator("#positions ul")).to_be_hidden()
    page.locator("#positions summary").click()
    expect(page.locator("#positions")).to_contain_text("Channel Fleet (10 ships): at sea in Bay of Biscay")
    expect(summary.get_by_role("link", name="§4")).to_have_attribute("href", re.compile(r"/rules/#at-sea$"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(screenshots / "turn-report-summary-390.png"), full_page=True)

    page.goto(live_server.url + reverse("battles:detail", args=[fw.campaign.slug, fought.pk]))
    page.locator("#dice-log summary").click()
    cards = page.locator("#dice-log .dice-card")
    expect(cards.first).to_be_visible()
    assert cards.count() >= 2
    expect(page.locator("#dice-log .dice-lines li")).to_have_count(len(fought.report["dice"]))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(screenshots / "battle-dice-cards-390.png"), full_page=True)
