"""The GM's account and rules pages in Chromium (issue 29): a new staff GM's admin index leads to
"Start a campaign"; the campaign's pickers offer only its own people; the rules editor's every input is
whole on a 390-px phone (it used to be cut off) and at 1366 px."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from campaign.models import Campaign
from tests.worlds import two_power_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-sea-shanty-1805"


def _login(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/admin/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()


def test_a_new_staff_gm_starts_from_the_index_and_the_rules_editor_fits_a_phone(
    live_server: Any, page: Page, screenshots: Path
) -> None:
    users = get_user_model().objects
    gm = users.create_user("barham", "barham@example.org", PASSWORD, is_staff=True)
    users.create_user("stranger", "stranger@example.org", PASSWORD)
    base = live_server.url
    page.set_viewport_size({"width": 390, "height": 844})
    _login(page, base, "barham")
    body = page.locator("body")
    expect(body).not_to_contain_text("have permission to view or edit anything")
    page.screenshot(path=str(screenshots / "gm_new_index_phone.png"), full_page=True)
    page.get_by_role("link", name="Start a campaign").click()
    expect(page.locator("h1")).to_contain_text("Start a campaign from a scenario")

    world = two_power_world()
    Campaign.objects.filter(pk=world.campaign.pk).update(gm=gm)
    page.goto(f"{base}/admin/campaign/campaign/{world.campaign.pk}/change/")
    options = page.locator("select[name=gm] option").all_text_contents()
    assert "stranger" not in options and "barham" in options
    for width in (390, 1366):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{base}/admin/campaign/campaign/{world.campaign.pk}/rules/")
        inputs = page.locator("input[type=number]")
        assert inputs.count() > 20
        for box in (inputs.nth(i).bounding_box() for i in range(inputs.count())):
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(screenshots / f"gm_rules_editor_{width}.png"), full_page=False)
