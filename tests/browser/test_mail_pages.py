"""The mail as a mail client shows it, and the mail's pages, on a 390-px phone in Chromium.

Screenshots go to artifacts/screenshots/ (mail_turn_report.png, mail_preferences.png, settings_mail.png,
mail_unsubscribe.png).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from campaign.tasks import mail_deliveries_send
from tests.support.mail import parts, players_with_mail
from tests.support.turns import order_store, turn_resolve_inline
from tests.worlds import two_power_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE: ViewportSize = {"width": 390, "height": 844}


def no_sideways_scroll(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"))


def test_the_html_turn_report_reads_on_a_phone_with_nothing_external(
    live_server: Any, page: Page, screenshots: Path, smtp_inbox: Any, settings: Any
) -> None:
    settings.SITE_URL = live_server.url
    world = two_power_world()
    people = players_with_mail(world)
    lay_down: dict[str, Any] = {"class": "frigate", "name": "Amazon", "port": "portsmouth"}
    order_store(world.turn, world.gb, "lay_down", **lay_down)
    turn_resolve_inline(world.turn)
    mail_deliveries_send()
    report = next(
        m for m in smtp_inbox.messages if m["X-Envelope-To"] == people["GB"].email and "] Turn 1: " in m["Subject"]
    )
    html = parts(report)["text/html"]
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.set_viewport_size(PHONE)
    page.set_content(html)
    page.screenshot(path=str(screenshots / "mail_turn_report.png"), full_page=True)
    assert no_sideways_scroll(page)
    assert requests == []  # no image, style sheet, font or script is fetched
    page.get_by_role("link", name="Read the report on the site").click()
    page.wait_for_url(f"{live_server.url}/accounts/login/**")  # an absolute link to the site itself

    unsubscribe = "".join(str(report["List-Unsubscribe"]).split()).strip("<>")
    page.goto(unsubscribe)  # no login
    page.screenshot(path=str(screenshots / "mail_unsubscribe.png"), full_page=True)
    assert no_sideways_scroll(page)
    page.get_by_role("button", name="Stop these mails").click()
    expect(page.get_by_text("you will get no more")).to_be_visible()  # waits for the answer page


def test_the_mail_pages_work_on_a_phone_without_javascript(live_server: Any, browser: Any, screenshots: Path) -> None:
    world = two_power_world()
    people = players_with_mail(world)
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "nelson")
    page.fill("input[name=password]", "pw-0123456789")
    page.click("button[type=submit]")
    page.goto(f"{live_server.url}/settings/")
    page.get_by_role("button", name="Make my calendar address").click()
    expect(page.get_by_label("Your calendar address")).to_have_value(re.compile(r"^https?://"))
    page.screenshot(path=str(screenshots / "settings_mail.png"), full_page=True)
    assert no_sideways_scroll(page)
    page.get_by_role("link", name="Mail from Channel 1805").click()
    page.get_by_role("group", name="Turn opened (new deadline)").get_by_label("Off").check()
    page.get_by_role("group", name="Deadline reminder (no orders yet)").get_by_label(
        "In one mail a day (digest)"
    ).check()
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Your mail settings for Channel 1805 are saved.")).to_be_visible()
    page.screenshot(path=str(screenshots / "mail_preferences.png"), full_page=True)
    assert no_sideways_scroll(page)
    expect(page.get_by_role("group", name="Turn opened (new deadline)").get_by_label("Off")).to_be_checked()
    assert people["GB"].mail_preferences.get(event="deadline_reminder").digest
    context.close()
