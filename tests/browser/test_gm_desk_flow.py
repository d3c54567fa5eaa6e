"""The GM's main flows in Chromium (issue 11): start a campaign from a scenario, invite two players (the
invitations through real SMTP, their links followed), replace one, end the campaign, read the audit
log; and a second GM who tries to reach that campaign (404s). Revert and re-fight are tested with
their own pages (branch w4-revert)."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from campaign.models import Campaign, Invitation, Nation
from campaign.tasks import mail_deliveries_send
from tests.support.mail import parts

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-sea-shanty-1805"


def _login(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/admin/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()


def _link_in_mail(inbox: Any, address: str) -> str:
    [message] = [m for m in inbox.messages if m["X-Envelope-To"] == address and "invited" in str(m["Subject"])]
    text = parts(message)["text/plain"]
    match = re.search(r"https?://\S+/invitations/\S+/", text)
    assert match, text
    return match.group(0)


def _desk_lists_pending_invitations(page: Page, desk_url: str, nations: list[Nation], screenshots: Path) -> None:
    """The desk lists each invitation until it is accepted, with its Send again / Revoke buttons (at 390 px too)."""
    page.goto(desk_url)
    pending = page.locator("table", has=page.get_by_role("columnheader", name="Link expires"))
    for nation in nations:
        [invitation] = Invitation.objects.filter(nation=nation)
        row = pending.get_by_role("row", name=re.compile(re.escape(nation.name)))
        expect(row).to_contain_text(invitation.email)
        revoke = f"Revoke the invitation of {invitation.email} to command {nation.name}"
        expect(row.get_by_role("link", name=revoke)).to_be_visible()
        expect(row.get_by_role("button", name=re.compile("^Send again"))).to_be_visible()
    page.set_viewport_size({"width": 390, "height": 844})
    pending.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "gm_desk_invitations_phone.png"))
    page.set_viewport_size({"width": 1280, "height": 720})


def test_a_gm_starts_invites_replaces_ends_and_reads_the_audit_log(
    live_server: Any, page: Page, browser: Browser, smtp_inbox: Any, screenshots: Path, settings: Any
) -> None:
    settings.SITE_URL = live_server.url
    users = get_user_model().objects
    users.create_user("barham", "barham@example.org", PASSWORD, is_staff=True)
    users.create_user("villeneuve", "villeneuve@example.org", PASSWORD)  # an existing account
    users.create_user("gravina", "gravina@example.org", PASSWORD)
    base = live_server.url

    # Start a campaign from a scenario: "Add campaign" leads to the start page.
    _login(page, base, "barham")
    page.goto(f"{base}/admin/campaign/campaign/add/")
    expect(page.locator("h1")).to_contain_text("Start a campaign from a scenario")
    page.get_by_label("Scenario").select_option("europe-1805")
    page.get_by_label("Name").fill("Trafalgar Year")
    page.get_by_label("Slug").fill("trafalgar")
    page.get_by_label("Seed").fill("1805")
    deadline = timezone.localtime(timezone.now() + timedelta(days=5), timezone.get_fixed_timezone(0))
    page.evaluate(
        "([v]) => { document.querySelector('#id_first_deadline').value = v; }", [deadline.strftime("%Y-%m-%dT20:00")]
    )
    page.get_by_label("Deadline rhythm (days)").fill("7")
    page.screenshot(path=str(screenshots / "gm_start_campaign.png"), full_page=True)
    page.get_by_role("button", name="Create the campaign").click()
    expect(page.locator("h1")).to_contain_text("Desk of Trafalgar Year")
    body = page.locator("body")
    expect(body).to_contain_text("Trafalgar Year is being set up: its clock does not run yet.")
    expect(body).to_contain_text("Turn 1 (Spring 1805)")
    expect(body).to_contain_text("The whole map (no fog of war)")
    page.screenshot(path=str(screenshots / "gm_desk.png"), full_page=True)
    campaign = Campaign.objects.get(slug="trafalgar")
    gb = Nation.objects.get(campaign=campaign, code="GB")
    fr = Nation.objects.get(campaign=campaign, code="FR")

    # Invite two players: a newcomer for Britain, an existing account for France.
    for nation, address in ((gb, "collingwood@example.org"), (fr, "villeneuve@example.org")):
        page.goto(f"{base}/admin/campaign/nation/{nation.pk}/invite/")
        page.get_by_label("Email").fill(address)
        page.get_by_role("button", name="Save").click()
        # (The admin's message list shows its first letter capitalised.)
        expect(body).to_contain_text(re.compile(f"{re.escape(address)} is invited to command {nation.name}", re.I))
    _desk_lists_pending_invitations(page, f"{base}/admin/campaign/campaign/{campaign.pk}/desk/", [gb, fr], screenshots)
    mail_deliveries_send()  # the mail task, as a worker would run it: through the real SMTP server
    newcomer_link = _link_in_mail(smtp_inbox, "collingwood@example.org")
    existing_link = _link_in_mail(smtp_inbox, "villeneuve@example.org")

    # The newcomer follows the link, chooses a password and takes command.
    newcomer = browser.new_page(viewport={"width": 390, "height": 844})
    newcomer.goto(newcomer_link)
    expect(newcomer.locator("h1")).to_contain_text("Command Great Britain")
    newcomer.screenshot(path=str(screenshots / "invitation_new_account.png"), full_page=True)
    newcomer.get_by_label("Password", exact=True).fill(PASSWORD)
    newcomer.get_by_label("The password again").fill(PASSWORD)
    newcomer.get_by_role("button", name="Create my account and take command").click()
    expect(newcomer.locator("body")).to_contain_text("You command Great Britain in Trafalgar Year")

    # The existing account signs in first, then accepts.
    existing = browser.new_page()
    existing.goto(existing_link)
    existing.get_by_label("Username").fill("villeneuve")
    existing.get_by_label("Password").fill(PASSWORD)
    existing.get_by_role("button", name=re.compile("log in", re.I)).click()
    existing.get_by_role("button", name="Take command of France").click()
    expect(existing.locator("body")).to_contain_text("You command France in Trafalgar Year")
    fr.refresh_from_db()
    gb.refresh_from_db()
    assert fr.player is not None and fr.player.get_username() == "villeneuve"
    assert gb.player is not None and gb.player.get_username() == "collingwood"

    # Start the clock from the desk: the check list names each nation's player, the rules, the deadline.
    page.goto(f"{base}/admin/campaign/campaign/{campaign.pk}/desk/")
    page.get_by_role("link", name="Start the campaign…").click()
    expect(body).to_contain_text("✔ France: played by villeneuve")
    expect(body).to_contain_text("✘ Spain: nobody invited")
    expect(body).to_contain_text("No house rules")
    assert Campaign.objects.get(pk=campaign.pk).status == "setup"
    page.get_by_label("The players are invited").check()
    page.get_by_label("I have reviewed the campaign's rules.").check()
    for width, name in ((390, "gm_start_clock_phone.png"), (1366, "gm_start_clock.png")):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(screenshots / name), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.get_by_role("button", name="Start the campaign").click()
    expect(body).to_contain_text("Trafalgar Year has started: its clock runs. Turn 1 ends")
    assert Campaign.objects.get(pk=campaign.pk).status == "active"

    # Replace France's player: Villeneuve loses it at once; both are told.
    page.goto(f"{base}/admin/campaign/nation/{fr.pk}/replace/")
    # Gravina is not one of the campaign's people: the picker does not offer him; his address finds him.
    assert "gravina" not in page.get_by_label("Player").locator("option").all_text_contents()
    page.get_by_label("Or an account by email").fill("gravina@example.org")
    page.get_by_label("Reason").fill("Villeneuve resigned")
    page.get_by_role("button", name="Save").click()
    expect(body).to_contain_text("France has a new player; both are told.")
    response = existing.goto(f"{base}/campaigns/trafalgar/")
    assert response is not None and response.status == 404
    mail_deliveries_send()
    subjects = {(m["X-Envelope-To"], str(m["Subject"])) for m in smtp_inbox.messages}
    assert ("villeneuve@example.org", "[Trafalgar Year] You no longer command France") in subjects
    assert ("gravina@example.org", "[Trafalgar Year] Turn 1: you command France") in subjects

    # End the campaign: the standings by the victory condition, mailed to everyone.
    page.goto(f"{base}/admin/campaign/campaign/{campaign.pk}/end/")
    page.get_by_label("Reason").fill("The season is over")
    page.get_by_label("Yes, end the campaign now").check()
    page.get_by_role("button", name="End the campaign now").click()
    expect(body).to_contain_text("Trafalgar Year has ended")
    expect(page.locator("h1")).to_contain_text("Final standings of Trafalgar Year")
    page.screenshot(path=str(screenshots / "gm_final_standings.png"), full_page=True)

    # Read the audit log (on a phone too).
    page.goto(f"{base}/admin/campaign/campaign/{campaign.pk}/change/")
    page.get_by_role("link", name="Audit log").first.click()
    for line in (
        "Trafalgar Year created from the scenario europe-1805",
        "Trafalgar Year started: its clock runs",
        "collingwood@example.org invited to command Great Britain.",
        "collingwood accepted the invitation and commands Great Britain.",
        "villeneuve accepted the invitation and commands France.",
        "France: player villeneuve → gravina.",
        "Trafalgar Year ended by the GM",
    ):
        expect(body).to_contain_text(line)
    expect(body).to_contain_text("Villeneuve resigned")
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(screenshots / "gm_audit_log_phone.png"), full_page=True)
    page.goto(f"{base}/admin/campaign/campaign/{campaign.pk}/desk/")
    expect(body).to_contain_text("None: every invitation was accepted, revoked or replaced.")
    page.screenshot(path=str(screenshots / "gm_desk_phone.png"), full_page=True)
    # Eleven nations' table scrolls inside its box; the page itself never scrolls sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_second_gm_cannot_reach_a_campaign_that_is_not_theirs(live_server: Any, page: Page) -> None:
    users = get_user_model().objects
    owner = users.create_user("barham", "barham@example.org", PASSWORD, is_staff=True)
    rival = users.create_user("rival", "rival@example.org", PASSWORD, is_staff=True)
    from campaign.scenarios.loading import scenario_load
    from tests.factories import CampaignFactory

    campaign = scenario_load(name="europe-1805", slug="trafalgar", seed=1805, gm=owner)
    CampaignFactory.create(slug="baltic-1807", name="Baltic 1807", gm=rival)  # the rival runs their own
    gb = Nation.objects.get(campaign=campaign, code="GB")
    base = live_server.url
    _login(page, base, "rival")
    for path in (
        f"/admin/campaign/campaign/{campaign.pk}/desk/",
        f"/admin/campaign/campaign/{campaign.pk}/end/",
        f"/admin/campaign/campaign/{campaign.pk}/rules/",
        f"/admin/campaign/nation/{gb.pk}/invite/",
        f"/admin/campaign/nation/{gb.pk}/replace/",
        "/campaigns/trafalgar/",
        "/campaigns/trafalgar/map/",
        f"/admin/campaign/delivery/?campaign__id__exact={campaign.pk}",
        f"/admin/campaign/announcement/?campaign__id__exact={campaign.pk}",
    ):
        response = page.goto(base + path)
        assert response is not None and response.status == 404, path
    page.goto(f"{base}/admin/campaign/campaign/{campaign.pk}/change/")
    expect(page.locator("body")).not_to_contain_text("Europe")  # "doesn't exist", back to the index
    page.goto(f"{base}/admin/campaign/auditentry/")
    expect(page.locator("body")).not_to_contain_text("trafalgar")
