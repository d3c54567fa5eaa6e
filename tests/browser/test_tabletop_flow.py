"""A GM sends a battle to the table, downloads its pack and enters its result, in Chromium at
390 px (issue 15), the PDF printed by a real worker (issue 27); both sides and the GM settle a disputed result
on the battle's thread (issue 29). The turn is resolved in between as the deadline would (same task,
called here)."""

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
from tests.support.tabletop import GM_PASSWORD, gibraltar_siege
from tests.worlds import two_sallies

pytestmark = pytest.mark.django_db(transaction=True)


def _fits(page: Page, what: str, shot: Path) -> None:
    page.screenshot(path=str(shot), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"{what}: the page is {width} px wide on a 390-px phone"


@pytest.mark.worker
def test_a_gm_sends_a_battle_to_the_table_prints_its_pack_and_enters_its_result(
    live_server: Any, page: Page, screenshots: Path, start_worker: Any
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
    # The PDF is printed by a worker, not in the request: the page says so and reloads itself (no
    # JavaScript: a meta refresh) until the stored PDF downloads.
    page.get_by_role("link", name="Battle pack (PDF)").click()
    expect(page.get_by_text("Preparing the PDF.")).to_be_visible()
    _fits(page, "the PDF being prepared", screenshots / "table-pdf-preparing-390.png")
    start_worker("pack-pdf")
    with page.expect_download(timeout=120_000) as download:
        pass  # the page's own refresh fetches it once printed
    pdf = Path(download.value.path())
    assert pdf.read_bytes().startswith(b"%PDF")
    page.goto(f"{live_server.url}/campaigns/{slug}/table/{table.pk}/")
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


def _log_in(page: Page, live_server: Any, username: str, password: str) -> None:
    page.context.clear_cookies()
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    expect(page).not_to_have_url(re.compile("/accounts/login/"))


def test_a_disputed_result_is_settled_on_the_battles_thread(live_server: Any, page: Page, screenshots: Path) -> None:
    world, table, _ = gibraltar_siege()
    users = get_user_model().objects
    world.fr.player = users.create_user("villeneuve", "v@example.com", "a-long-test-password")
    world.gb.player = users.create_user("nelson", "n@example.com", "a-long-test-password")
    world.fr.save()
    world.gb.save()
    url = f"{live_server.url}/campaigns/{world.campaign.slug}/table/{table.pk}/"
    page.set_viewport_size({"width": 390, "height": 844})

    _log_in(page, live_server, "villeneuve", "a-long-test-password")
    page.goto(url)
    page.get_by_label("Mediterranean Fleet 4", exact=True).select_option("sunk")
    page.get_by_label("France", exact=True).check()
    page.get_by_role("button", name="Enter the result").click()
    expect(page.get_by_text("Result entered, awaiting the other side", exact=True)).to_be_visible()

    _log_in(page, live_server, "nelson", "a-long-test-password")
    page.goto(url)
    page.get_by_label(re.compile("What is wrong with it")).fill("The frigate was never engaged: she stood off.")
    page.get_by_role("button", name="Dispute").click()
    expect(page.get_by_text("Result disputed: the game master decides", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Enter the result")).to_have_count(0)  # the dispute stands
    page.get_by_label(re.compile("Post to both sides")).fill("Her log is in the pack's notes.")
    page.get_by_role("button", name="Post").click()
    expect(page.locator("#thread")).to_contain_text("Her log is in the pack's notes.")

    _log_in(page, live_server, "gm", GM_PASSWORD)
    page.goto(url)
    thread = page.locator("#thread")
    expect(thread).to_contain_text("The frigate was never engaged")
    expect(thread).to_contain_text("Great Britain (nelson)")
    page.get_by_label(re.compile("Post to both sides")).fill("Agreed with Great Britain: the frigate is intact.")
    page.get_by_role("button", name="Post").click()
    _fits(page, "the battle's thread", screenshots / "table-thread-390.png")
    page.get_by_label("Mediterranean Fleet 4", exact=True).select_option("intact")
    page.get_by_role("button", name="Enter the result (as game master)").click()
    page.get_by_role("button", name="Approve and apply").click()
    expect(page).to_have_url(re.compile(r"/battles/\d+/$"))
    expect(page.locator("body")).to_contain_text("After the dispute the game master entered the result that stands.")
    page.goto(url)
    record = page.locator("#record")
    expect(record).to_contain_text("France (villeneuve) entered the result.")
    expect(record).to_contain_text("Great Britain (nelson) disputed it.")
    _fits(page, "the record of the result", screenshots / "table-record-390.png")
    applied = TabletopBattle.objects.get(pk=table.pk)
    assert applied.status == TabletopBattle.Status.APPLIED
    assert [r["fate"] for r in applied.result["ships"]].count("sunk") == 0
