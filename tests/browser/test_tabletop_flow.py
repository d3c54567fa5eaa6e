"""A GM sends a battle to the table, downloads its pack and enters its result, in Chromium at
390 px (issue 15). The turn is resolved in between as the deadline would (same task, called here)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Page, expect

from battles.models import Battle, TabletopBattle
from campaign.models import Turn
from campaign.tasks import turn_resolve
from campaign.turn.lifecycle import turn_claim
from tests.worlds import two_sallies

pytestmark = pytest.mark.django_db(transaction=True)


def _fits(page: Page, what: str, shot: Path) -> None:
    page.screenshot(path=str(shot), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"{what}: the page is {width} px wide on a 390-px phone"


def test_a_gm_sends_a_battle_to_the_table_prints_its_pack_and_enters_its_result(
    live_server: Any, page: Page, screenshots: Path
) -> None:
    world = two_sallies()
    gm = get_user_model().objects.create_user("gm", "gm@example.com", "sea-dog-1805")
    world.campaign.gm = gm
    world.campaign.save()
    slug = world.campaign.slug
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("gm")
    page.get_by_label("Password").fill("sea-dog-1805")
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    expect(page).not_to_have_url(re.compile("/accounts/login/"))

    page.goto(f"{live_server.url}/campaigns/{slug}/table/")
    page.get_by_label("Where").select_option(label="Brest (port)")
    page.get_by_role("button", name="To the table").click()
    expect(page.get_by_role("cell", name="To the table when the turn resolves")).to_be_visible()
    _fits(page, "the table list", screenshots / "table-list-390.png")

    assert turn_claim(turn_id=world.turn.pk, now=timezone.now())
    assert turn_resolve(world.turn.pk) == "table"
    table = TabletopBattle.objects.get()

    page.goto(f"{live_server.url}/campaigns/{slug}/table/{table.pk}/")
    expect(page.get_by_text("Waiting for a battle on the table").first).to_be_visible()
    expect(page.get_by_text("At the table: waiting for the result", exact=True)).to_be_visible()
    with page.expect_download() as download:
        page.get_by_role("link", name="Battle pack (PDF)").click()
    pdf = Path(download.value.path())
    assert pdf.read_bytes().startswith(b"%PDF")
    page.get_by_role("link", name="Battle pack (printable page)").click()
    expect(page.get_by_role("heading", name="Battle pack: the battle at Brest")).to_be_visible()
    _fits(page, "the battle pack", screenshots / "table-pack-390.png")
    page.go_back()

    # Brest's sally: the French lose a ship sunk and one taken by the British, who hold the field.
    page.get_by_label("Vaisseau 0", exact=True).select_option("sunk")
    page.get_by_label("Vaisseau 1", exact=True).select_option("captured")
    page.get_by_label("Vaisseau 1 captured by").select_option("GB")
    page.get_by_label("Great Britain", exact=True).check()
    _fits(page, "the result form", screenshots / "table-result-form-390.png")
    page.get_by_role("button", name="Enter the result (as game master)").click()
    expect(page.get_by_text("Result confirmed, awaiting the game master", exact=True)).to_be_visible()
    page.get_by_role("button", name="Approve and apply").click()
    expect(page).to_have_url(re.compile(r"/battles/\d+/$"))
    battle = Battle.objects.get(turn=world.turn, place="biscay")
    assert battle.report["type"] == "tabletop" and battle.winner is not None
    assert battle.sides[battle.winner]["nations"] == ["GB"]
    _fits(page, "the battle page", screenshots / "table-battle-applied-390.png")
    assert Turn.objects.get(pk=world.turn.pk).status == Turn.Status.RESOLVING
