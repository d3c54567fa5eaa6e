"""A co-GM on a phone in the admin: their campaign and nothing else (issue 9), as Chromium shows it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.security.people import cast
from tests.web.fog_worlds import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_co_gm_sees_only_their_campaign_in_the_admin(live_server: Any, page: Page, screenshots: Path) -> None:
    c = cast()
    c.people["co_gm"].set_password(PASSWORD)
    c.people["co_gm"].save(update_fields=["password"])
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/admin/login/")
    page.get_by_label("Username").fill("co-gm")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    page.goto(f"{live_server.url}/admin/campaign/campaign/")
    body = page.locator("body")
    expect(body).to_contain_text("Channel 1805")
    expect(body).not_to_contain_text("Baltic 1807")
    page.screenshot(path=str(screenshots / "admin_co_gm_campaigns.png"), full_page=True)
    page.goto(f"{live_server.url}/admin/campaign/campaign/{c.campaign.pk}/change/")
    expect(body).to_contain_text("Co-GMs")
    page.screenshot(path=str(screenshots / "admin_co_gm_campaign.png"), full_page=True)
    page.goto(f"{live_server.url}/admin/")
    expect(body).not_to_contain_text("Periodic tasks")
