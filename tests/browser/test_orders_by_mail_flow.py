"""The GM enters a nation's orders that came by email, on a 390-px phone in Chromium (issue 29): from the
desk's "orders by email" link, a line refused by name (nothing stored), then the corrected text previewed
in words and confirmed; the page never scrolls sideways."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from campaign.models import Campaign, Order
from tests.worlds import two_power_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _fits(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_gm_pastes_a_nations_orders_on_a_phone(live_server: Any, page: Page, screenshots: Path) -> None:
    world = two_power_world()
    gm = get_user_model().objects.create_user("barham", "barham@example.org", "gm-password-123", is_staff=True)
    Campaign.objects.filter(pk=world.campaign.pk).update(gm=gm, status="active")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/admin/login/")
    page.get_by_label("Username").fill("barham")
    page.get_by_label("Password").fill("gm-password-123")
    page.get_by_role("button", name=re.compile("log in", re.I)).click()

    page.goto(f"{live_server.url}/admin/campaign/campaign/{world.campaign.pk}/desk/")
    page.get_by_role("link", name="Orders by email for Great Britain").click()
    expect(page.get_by_role("heading", name="Orders by email for Great Britain")).to_be_visible()
    page.get_by_label("Orders as text").fill("Chanel Fleet: to sea → Bay of Biscay\nland unit at Portsmouth")
    page.get_by_role("button", name="Check the orders").click()
    expect(page.locator(".errorlist")).to_contain_text(
        "Line 1: no fleet named 'Chanel Fleet' — Great Britain's fleets are: Channel Fleet. "
        "Did you mean 'Channel Fleet'?"
    )
    _fits(page)
    page.screenshot(path=str(screenshots / "gm_orders_by_mail_refused_390.png"), full_page=True)
    assert not Order.objects.exists()

    page.get_by_label("Orders as text").fill("Channel Fleet: to sea → Bay of Biscay\nland unit at Portsmouth")
    page.get_by_role("button", name="Check the orders").click()
    expect(page.locator("ol")).to_contain_text("Channel Fleet: to sea → Bay of Biscay")
    _fits(page)
    page.screenshot(path=str(screenshots / "gm_orders_by_mail_preview_390.png"), full_page=True)
    assert not Order.objects.exists()
    page.get_by_role("button", name="Enter these 2 orders").click()
    expect(page.locator("body")).to_contain_text("2 orders entered for Great Britain")
    assert list(Order.objects.order_by("position").values_list("kind", flat=True)) == ["move", "raise"]


def test_the_gm_invites_a_co_gm_and_archives_an_ended_campaign_on_a_phone(
    live_server: Any, page: Page, screenshots: Path
) -> None:
    world = two_power_world()
    gm = get_user_model().objects.create_user("barham", "barham@example.org", "gm-password-123", is_staff=True)
    Campaign.objects.filter(pk=world.campaign.pk).update(gm=gm, status="ended")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/admin/login/")
    page.get_by_label("Username").fill("barham")
    page.get_by_label("Password").fill("gm-password-123")
    page.get_by_role("button", name=re.compile("log in", re.I)).click()

    page.goto(f"{live_server.url}/admin/campaign/campaign/{world.campaign.pk}/desk/")
    page.get_by_role("link", name="Invite a co-GM by email…").click()
    page.get_by_label("Email").fill("hood@example.org")
    page.get_by_role("button", name="Send the invitation").click()
    # An ended campaign takes no one new: the refusal says so.
    expect(page.locator(".errorlist")).to_contain_text("Channel 1805 has ended; nobody can be invited to it.")
    _fits(page)
    page.screenshot(path=str(screenshots / "gm_co_gm_invite_390.png"), full_page=True)

    page.goto(f"{live_server.url}/admin/campaign/campaign/{world.campaign.pk}/desk/")
    page.get_by_role("link", name="Archive this campaign…").click()
    _fits(page)
    page.screenshot(path=str(screenshots / "gm_archive_confirm_390.png"), full_page=True)
    page.get_by_role("button", name="Yes, archive it").click()
    expect(page.locator("body")).to_contain_text("Channel 1805 is archived.")
    page.screenshot(path=str(screenshots / "gm_archived_page_390.png"), full_page=True)
    assert Campaign.objects.get(pk=world.campaign.pk).archived_at is not None
