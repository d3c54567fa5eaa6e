"""The Settings page's API tokens on a 390-px phone without JavaScript: make one (shown once), see it
listed, revoke it. Screenshots go to artifacts/screenshots/ (settings_api_token_new.png,
settings_api_token_revoked.png)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import ViewportSize, expect

from campaign.models import ApiToken

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE: ViewportSize = {"width": 390, "height": 844}
PASSWORD = "pw-0123456789"


def test_a_token_is_made_shown_once_and_revoked_on_a_phone(live_server: Any, browser: Any, screenshots: Path) -> None:
    get_user_model().objects.create_user("nelson", "nelson@example.org", PASSWORD)
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "nelson")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.goto(f"{live_server.url}/settings/")
    page.get_by_label("Name of a new token").fill("Fleet bot")
    page.get_by_role("button", name="Make a token").click()
    shown = page.get_by_label("Your new API token").input_value()
    assert shown.startswith("adm_")
    page.screenshot(path=str(screenshots / "settings_api_token_new.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.reload()
    assert page.get_by_label("Your new API token").count() == 0
    page.get_by_role("button", name="Revoke Fleet bot").click()
    expect(page.get_by_text("is revoked")).to_be_visible()  # waits for the answer page
    page.screenshot(path=str(screenshots / "settings_api_token_revoked.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert ApiToken.objects.get(name="Fleet bot").revoked_at is not None
    context.close()
