"""The GM repairs a campaign from the admin on a phone, in Chromium (issue 11): reverts a turn through
the campaign list's action and its confirmation page, re-runs the turn, re-fights a disputed battle from
its page, and reads what was set aside — with real workers resolving the turns."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from battles.models import Battle
from campaign.models import CampaignRevert, Turn
from tests.repair.worlds import sallies_with_snapshot, with_players
from tests.support.turns import resolved, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_the_gm_reverts_a_turn_and_refights_a_battle_from_the_admin(
    live_server: Any, page: Page, screenshots: Path, start_worker: Any
) -> None:
    world = sallies_with_snapshot()
    with_players(world)
    start_worker("admin-repair")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/admin/login/")
    page.get_by_label("Username").fill("gm-ruth")
    page.get_by_label("Password").fill("gm-password-123")
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    body = page.locator("body")

    # Turn 1 resolves (the GM's "resolve now"), with its two sallies fought.
    page.goto(f"{live_server.url}/admin/campaign/campaign/")
    page.locator("input[name=_selected_action]").first.check()
    page.locator("select[name=action]").select_option("resolve_now")
    page.get_by_role("button", name="Go").click()
    expect(body).to_contain_text("current deadline")  # the action asks first
    page.get_by_role("button", name="Yes, resolve the open turns now").click()
    wait_for(lambda: resolved(world.turn.pk))
    assert Battle.objects.count() == 2

    # Revert to the start of turn 1: the action, the form, the confirmation.
    page.goto(f"{live_server.url}/admin/campaign/campaign/")
    page.locator("input[name=_selected_action]").first.check()
    page.locator("select[name=action]").select_option("revert_action")
    page.get_by_role("button", name="Go").click()
    expect(page.get_by_role("heading", name="Revert Channel 1805 to the start of a turn")).to_be_visible()
    page.get_by_label("Back to the start of turn").select_option(label="Turn 1 (Spring 1805)")
    page.get_by_label("Reason").fill("France's orders were lost in the post")
    page.screenshot(path=str(screenshots / "admin_revert_form.png"), full_page=True)
    page.get_by_role("button", name="Revert").click()
    expect(body).to_contain_text("Please confirm")
    expect(page.locator("#repair-confirm")).to_contain_text("2 battles")
    page.screenshot(path=str(screenshots / "admin_revert_confirm.png"), full_page=True)
    page.get_by_role("button", name="Yes, revert").click()
    expect(body).to_contain_text("Channel 1805 is back at the start of turn 1")
    assert not Battle.objects.exists() and Turn.objects.get(campaign=world.campaign).status == "open"

    # Re-run it with the campaign's seed, from the campaign's page.
    page.get_by_role("link", name="Re-run the open turn").click()
    page.get_by_role("button", name="Re-run now").click()
    expect(body).to_contain_text("Turn 1 of Channel 1805 is resolving again with the campaign's seed")
    wait_for(lambda: resolved(world.turn.pk))
    disputed = Battle.objects.get(place="biscay")
    hit = next(s for s in disputed.report["ships"] if s["fate"] != "intact")

    # Re-fight the disputed battle from its own page, with a chosen seed.
    page.goto(f"{live_server.url}/admin/battles/battle/{disputed.pk}/change/")
    page.get_by_role("link", name="Re-fight this battle with a new seed").click()
    expect(page.get_by_label("Battle")).to_have_value(str(disputed.pk))
    page.get_by_label("Seed").fill("2024")
    page.get_by_label("Reason").fill("The Brest sally's dice were disputed")
    page.get_by_role("button", name="Re-fight").click()
    expect(page.locator("#repair-confirm")).to_contain_text("1 later turn")
    page.get_by_role("button", name="Yes, re-fight it").click()
    expect(body).to_contain_text("is being fought again with seed 2024")
    page.screenshot(path=str(screenshots / "admin_refight_done.png"), full_page=True)
    wait_for(lambda: resolved(world.turn.pk))
    assert Battle.objects.get(place="biscay").seed == 2024

    # What was set aside, readable by the GM.
    refight = CampaignRevert.objects.get(kind="refight")
    page.goto(f"{live_server.url}/admin/campaign/campaignrevert/{refight.pk}/change/")
    expect(body).to_contain_text("The Brest sally's dice were disputed")
    expect(body).to_contain_text("fleet action at Brest (Bay of Biscay), turn 1")
    expect(body).to_contain_text(f"{hit['name']}: {hit['fate']}")
    expect(body).to_contain_text("Brest (Bay of Biscay)")
    page.screenshot(path=str(screenshots / "admin_revert_archive.png"), full_page=True)
    page.locator(".field-archived_battles").screenshot(path=str(screenshots / "admin_revert_archive_battles.png"))
