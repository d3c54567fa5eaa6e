"""The turn report page on a 390-px phone, for an old stored report and for one of typed events."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from rules.turn_events import event_from_json
from tests.web.fog_worlds import PASSWORD, fog_world, sighting, turn_close

pytestmark = pytest.mark.django_db(transaction=True)

OLD_EVENTS = Path(__file__).parent.parent / "fixtures" / "old_turn_events.json"


def test_old_and_typed_turn_reports_read_on_a_phone(live_server: Any, page: Page, screenshots: Path) -> None:
    fw = fog_world()
    old = [{k: v for k, v in e.items() if k != "nations"} for e in json.loads(OLD_EVENTS.read_text())["events"]]
    turn_close(fw.campaign, {fw.w.gb: old})
    seen = sighting(fw.w.biscay, [("FR", "1st", "damaged"), ("FR", "3rd-74", "ready")], step=1)
    turn_close(fw.campaign, {fw.w.gb: [event_from_json(e).to_json() for e in old] + [seen]})
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("nelson")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    expect(page).not_to_have_url(re.compile("/accounts/login/"))
    for number, name in ((1, "turn-report-old-390.png"), (2, "turn-report-typed-390.png")):
        page.goto(f"{live_server.url}/campaigns/{fw.campaign.slug}/turns/{number}/")
        expect(page.get_by_text(str(old[0]["text"]), exact=True)).to_be_visible()
        assert page.get_by_role("link", name="Battle report").count() >= 2
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"turn {number}: the page is {width} px wide on a 390-px phone"
        page.screenshot(path=str(screenshots / name), full_page=True)
    # The dashboard reads the latest report's typed sighting as a known enemy force.
    page.goto(f"{live_server.url}/campaigns/{fw.campaign.slug}/")
    page.locator("#enemies-more > summary").click()  # the forces seen are behind a disclosure on a phone
    expect(page.get_by_text("1 × 1st rate (1 damaged), 1 × 3rd rate (74/80)").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(screenshots / "dashboard-known-enemies-390.png"), full_page=True)
