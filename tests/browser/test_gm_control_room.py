"""The GM's control room in Chromium (issue 29): a failed turn on the desk with its error and a Retry
that works; an exact deadline set in the GM's time zone; the campaign exported and imported as a copy
in the admin, no shell; the desk at 390 px. Screenshots under the browser screenshots folder."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Page, expect

from campaign.accounts.preferences import profile_time_zone_set
from campaign.models import Campaign, Turn
from campaign.models.audit import AuditEntry
from campaign.tasks import turn_resolve
from campaign.turn.lifecycle import turn_claim
from tests.worlds import World, two_power_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-sea-shanty-1805"


def _gm_logged_in(page: Page, base: str, world: World) -> Any:
    gm = get_user_model().objects.create_user("barham", "barham@example.org", PASSWORD, is_staff=True)
    profile_time_zone_set(user_id=gm.pk, name="Europe/Paris")
    Campaign.objects.filter(pk=world.campaign.pk).update(gm=gm, status="active")
    page.goto(f"{base}/admin/login/")
    page.get_by_label("Username").fill("barham")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    return gm


def test_a_failed_turn_is_retried_from_the_desk_and_an_exact_deadline_is_set(
    live_server: Any, page: Page, screenshots: Path
) -> None:
    world = two_power_world(deadline=datetime(2099, 1, 20, 18, 0, tzinfo=UTC))
    _gm_logged_in(page, live_server.url, world)
    assert turn_claim(turn_id=world.turn.pk, now=timezone.now())
    limit = django_settings.TURN_MAX_ATTEMPTS
    Turn.objects.filter(pk=world.turn.pk).update(attempts=limit, error="ValueError: no route to the Channel")
    desk = f"{live_server.url}/admin/campaign/campaign/{world.campaign.pk}/desk/"
    page.goto(desk)
    needs = page.locator("ul.needs-you")
    expect(needs).to_contain_text(f"The resolution of turn 1 failed {limit} times and stopped")
    expect(needs).to_contain_text("ValueError: no route to the Channel")
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(screenshots / "gm_desk_needs_you_phone.png"), full_page=False)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.set_viewport_size({"width": 1366, "height": 768})
    needs.get_by_role("button", name="Retry").click()
    expect(page.get_by_text("Turn 1 is being resolved again")).to_be_visible()
    turn = Turn.objects.get(pk=world.turn.pk)
    assert (turn.attempts, turn.error) == (0, "")
    assert turn_resolve(world.turn.pk) == "done"  # what the queued task does: the turn resolves
    page.goto(desk)
    expect(page.get_by_text("Nothing waits for you.")).to_be_visible()

    # Turn 2 is open: its deadline set to an exact time, in Paris time, with a reason.
    page.get_by_role("link", name="Set the deadline").click()
    expect(page.locator(".current-deadline")).to_contain_text("Europe/Paris")
    page.get_by_label("New deadline").fill("2099-03-01T20:30")
    page.get_by_label("Reason").first.fill("The club meets on Sunday evening.")
    page.get_by_role("button", name="Set the deadline").click()
    expect(page.get_by_text("now ends Sunday 1 March 2099, 20:30 (CET)")).to_be_visible()
    page.screenshot(path=str(screenshots / "gm_deadline_set.png"))
    turn2 = Turn.objects.get(campaign=world.campaign, number=2)
    assert turn2.deadline == datetime(2099, 3, 1, 19, 30, tzinfo=UTC)
    assert AuditEntry.objects.get(action="turn_deadline_set").reason == "The club meets on Sunday evening."


def test_the_gm_exports_and_imports_a_copy_in_the_admin(live_server: Any, page: Page, screenshots: Path) -> None:
    world = two_power_world()
    gm = _gm_logged_in(page, live_server.url, world)
    page.goto(f"{live_server.url}/admin/campaign/campaign/{world.campaign.pk}/desk/")
    with page.expect_download() as info:
        page.get_by_role("button", name="Download the export").click()
    download = info.value
    assert download.suggested_filename == "channel-1805-turn-1.json"
    path = Path(download.path())
    assert json.loads(path.read_text())["campaign"]["slug"] == "channel-1805"

    page.get_by_role("link", name="Import a copy").click()
    page.get_by_label("Export file").set_input_files(str(path))
    page.get_by_label("Name").fill("Channel 1805 (rehearsal)")
    page.get_by_label("Slug").fill("channel-1805-rehearsal")
    page.screenshot(path=str(screenshots / "gm_import_copy.png"))
    page.get_by_role("button", name="Import the copy").click()
    expect(page.get_by_text("Channel 1805 (rehearsal) is imported as a copy; you run it.")).to_be_visible()
    copy = Campaign.objects.get(slug="channel-1805-rehearsal")
    assert copy.gm == gm and copy.name == "Channel 1805 (rehearsal)"
    assert AuditEntry.objects.filter(campaign_id=copy.pk, action="campaign_imported").count() == 1
    assert AuditEntry.objects.filter(campaign_id=world.campaign.pk, action="campaign_exported").count() == 1
