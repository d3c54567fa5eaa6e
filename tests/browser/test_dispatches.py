"""Issue 16 in Chromium: three players negotiate an alliance by dispatch and one betrays it by order;
each reads only what was meant for them, when the campaign's options say it arrives. Also: a group
dispatch, a public proclamation, the unread count, the delay option, the mail sent once through a real
SMTP server, and anonymous press hiding the sender from players but not from a GM who reads all.

Screenshots go to artifacts/screenshots/ (dispatches_*.png), taken at 390 px, and of the list, a
conversation and the GM's desk at 1280 px (dispatches_*_desktop.png).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from campaign.models import Campaign, Delivery, Dispatch, MailEvent, Relation, Turn
from campaign.tasks import mail_deliveries_send
from tests.support.dispatches import PASSWORD, Powers, three_powers
from tests.support.mail import parts
from tests.support.turns import order_store, report_texts, turn_resolve_inline

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}


def player(browser: Browser, base: str, username: str, viewport: ViewportSize = PHONE) -> Page:
    """A browser of its own for one person (phone-sized unless told), logged in."""
    page = browser.new_context(viewport=viewport, timezone_id="Europe/London").new_page()
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    expect(page).not_to_have_url(re.compile("/accounts/login/"))
    return page


def no_sideways_scroll(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"))


def write(page: Page, base: str, slug: str, to: list[str], subject: str, body: str) -> None:
    page.goto(f"{base}/campaigns/{slug}/dispatches/")
    for name in to:
        page.get_by_label(name, exact=True).check()
    page.get_by_role("textbox", name="Subject").fill(subject)
    page.get_by_role("textbox", name="Dispatch").fill(body)
    page.get_by_role("button", name="Send").click()


def unread_badge(page: Page) -> str:
    return page.locator("nav.tabs").get_by_role("link", name=re.compile("^Dispatches")).inner_text()


def peace_all_round(p: Powers) -> None:
    Relation.objects.filter(campaign=p.campaign).delete()
    for a, b in ((p.gb, p.fr), (p.gb, p.es), (p.fr, p.es)):
        low, high = sorted((a, b), key=lambda n: n.pk)
        Relation.objects.create(campaign=p.campaign, a=low, b=high, state=Relation.State.PEACE)


def state_between(p: Powers, a: Any, b: Any) -> str:
    low, high = sorted((a, b), key=lambda n: n.pk)
    return Relation.objects.get(a=low, b=high).state


def test_three_players_negotiate_an_alliance_and_one_betrays_it(
    live_server: Any, browser: Browser, screenshots: Path
) -> None:
    p = three_powers()
    peace_all_round(p)
    Campaign.objects.filter(pk=p.campaign.pk).update(dispatch_delay_zones=2)  # GB–ES capitals are 3 zones apart
    base, slug = live_server.url, p.campaign.slug
    nelson, villeneuve, gravina = (player(browser, base, n) for n in ("nelson", "villeneuve", "gravina"))

    # Britain proposes an alliance to France, privately.
    write(
        nelson, base, slug, ["France"], "An alliance", "Ally with us against all comers: we both propose it this turn."
    )
    expect(nelson.locator("body")).to_contain_text("Dispatch sent.")
    nelson.screenshot(path=str(screenshots / "dispatches_conversation.png"), full_page=True)
    assert no_sideways_scroll(nelson)

    # France sees one unread dispatch in the header of any campaign page, reads it and agrees.
    villeneuve.goto(f"{base}/campaigns/{slug}/")
    assert unread_badge(villeneuve) == "Dispatches 1"
    villeneuve.locator("nav.tabs").get_by_role("link", name=re.compile("^Dispatches")).click()
    expect(villeneuve.get_by_role("link", name="An alliance")).to_be_visible()  # the list, not the page before
    villeneuve.screenshot(path=str(screenshots / "dispatches_list.png"), full_page=True)
    assert no_sideways_scroll(villeneuve)
    villeneuve.get_by_role("link", name="An alliance").click()
    expect(villeneuve.locator("li.dispatch")).to_contain_text("Great Britain")
    expect(villeneuve.locator("li.dispatch")).to_contain_text("Turn 1, Spring 1805")
    assert unread_badge(villeneuve) == "Dispatches"  # read now
    villeneuve.get_by_role("textbox", name="Dispatch").fill("Agreed. France proposes it too.")
    villeneuve.get_by_role("button", name="Send").click()
    expect(villeneuve.locator("ol.dispatch-list")).to_contain_text("Agreed. France proposes it too.")
    conversation_url = villeneuve.url.split("#")[0]

    # Spain reads none of it: not in its list, and the conversation does not exist for it.
    gravina.goto(f"{base}/campaigns/{slug}/dispatches/")
    expect(gravina.locator("body")).not_to_contain_text("An alliance")
    assert unread_badge(gravina) == "Dispatches"
    response = gravina.goto(conversation_url)
    assert response is not None and response.status == 404

    # A group dispatch to France and Spain: France has it at once, Spain (3 zones off) next turn.
    write(nelson, base, slug, ["France", "Spain"], "A congress", "Let the three of us meet at Lisbon.")
    expect(nelson.locator("body")).to_contain_text("In transit to Spain: it arrives at the start of the next turn.")
    expect(nelson.locator("li.dispatch").last).to_contain_text("in transit to Spain")
    nelson.screenshot(path=str(screenshots / "dispatches_in_transit.png"), full_page=True)
    gravina.goto(f"{base}/campaigns/{slug}/dispatches/")
    expect(gravina.locator("body")).not_to_contain_text("A congress")
    villeneuve.goto(f"{base}/campaigns/{slug}/dispatches/")
    expect(villeneuve.locator("body")).to_contain_text("A congress")

    # Spain's public proclamation reaches everybody (the delay is between capitals; Spain is near France
    # but far from Britain, so Britain reads it next turn).
    write(gravina, base, slug, ["All nations — a public proclamation"], "To all", "Spain wants peace with all.")
    villeneuve.goto(f"{base}/campaigns/{slug}/dispatches/")
    expect(villeneuve.locator("body")).to_contain_text("To all")

    # Both give the alliance order; the turn resolves; the next opens and the held dispatches arrive.
    order_store(p.w.turn, p.gb, "propose_alliance", nation="FR")
    order_store(p.w.turn, p.fr, "propose_alliance", nation="GB")
    turn_resolve_inline(Turn.objects.get(pk=p.w.turn.pk))
    assert state_between(p, p.gb, p.fr) == Relation.State.ALLIANCE
    gravina.goto(f"{base}/campaigns/{slug}/dispatches/")
    expect(gravina.locator("body")).to_contain_text("A congress")
    assert unread_badge(gravina) == "Dispatches 1"
    gravina.get_by_role("link", name="A congress").click()
    expect(gravina.locator("ol.dispatch-list")).to_contain_text("Let the three of us meet at Lisbon.")
    expect(gravina.locator("ol.dispatch-list")).to_contain_text("Turn 1, Spring 1805")  # stamped when sent
    nelson.goto(f"{base}/campaigns/{slug}/dispatches/")
    expect(nelson.locator("body")).to_contain_text("To all")

    # France betrays the alliance by order, whatever its dispatches say.
    write(villeneuve, base, slug, ["Great Britain"], "Loyalty", "France stands by Britain, always.")
    turn2 = Turn.objects.get(campaign=p.campaign, status=Turn.Status.OPEN)
    order_store(turn2, p.fr, "declare_war", nation="GB")
    turn_resolve_inline(turn2)
    assert state_between(p, p.gb, p.fr) == Relation.State.WAR
    assert any("France" in line and "war" in line.lower() for line in report_texts(turn2, p.gb))
    # Spain never read a word of the alliance.
    gravina.goto(f"{base}/campaigns/{slug}/dispatches/")
    expect(gravina.locator("body")).not_to_contain_text("An alliance")
    expect(gravina.locator("body")).not_to_contain_text("Loyalty")

    # The same pages at a desktop's width.
    desk = player(browser, base, "villeneuve", DESKTOP)
    desk.goto(f"{base}/campaigns/{slug}/dispatches/")
    desk.screenshot(path=str(screenshots / "dispatches_list_desktop.png"), full_page=True)
    desk.get_by_role("link", name="A congress").click()
    expect(desk.locator("ol.dispatch-list")).to_contain_text("Let the three of us meet at Lisbon.")
    desk.screenshot(path=str(screenshots / "dispatches_conversation_desktop.png"), full_page=True)


def test_the_mail_of_a_dispatch_goes_once_through_a_real_smtp_server(
    live_server: Any, browser: Browser, smtp_inbox: Any, settings: Any, screenshots: Path
) -> None:
    settings.SITE_URL = live_server.url
    p = three_powers()
    base, slug = live_server.url, p.campaign.slug
    nelson = player(browser, base, "nelson")
    write(nelson, base, slug, ["France"], "Terms", "Malta for Minorca?")
    expect(nelson.locator("body")).to_contain_text("Dispatch sent.")
    for _ in range(3):  # duplicate runs of the mail task send nothing twice
        mail_deliveries_send()
    mails = [m for m in smtp_inbox.messages if "dispatch" in str(m["Subject"])]
    assert [(m["X-Envelope-To"], str(m["Subject"])) for m in mails] == [
        ("villeneuve@example.org", "[Channel 1805] Turn 1: a dispatch from Great Britain: Terms")
    ]
    assert Delivery.objects.get(event=MailEvent.DISPATCH).state == Delivery.State.SENT
    body = parts(mails[0])
    assert "Malta for Minorca?" in body["text/plain"]
    assert "Channel Fleet" not in body["text/plain"]  # nothing of the sender's forces
    # The link in the mail opens the conversation for France's player.
    villeneuve = player(browser, base, "villeneuve")
    link = re.search(r"(http://\S+/dispatches/\d+/#d\d+)", body["text/plain"])
    assert link is not None
    villeneuve.goto(link.group(1))
    expect(villeneuve.locator("ol.dispatch-list")).to_contain_text("Malta for Minorca?")
    page = villeneuve.context.new_page()
    page.set_content(body["text/html"])
    page.screenshot(path=str(screenshots / "dispatches_mail.png"), full_page=True)
    assert no_sideways_scroll(page)


def test_anonymous_press_hides_the_sender_from_players_not_from_a_gm_who_reads_all(
    live_server: Any, browser: Browser, screenshots: Path
) -> None:
    p = three_powers()
    Campaign.objects.filter(pk=p.campaign.pk).update(anonymous_press=True, gm_reads_dispatches=True)
    base, slug = live_server.url, p.campaign.slug
    nelson, villeneuve, gm = (player(browser, base, n) for n in ("nelson", "villeneuve", "barham"))
    write(nelson, base, slug, ["France"], "A warning", "Your admiral is not what he seems.")
    villeneuve.goto(f"{base}/campaigns/{slug}/dispatches/")
    villeneuve.get_by_role("link", name="A warning").click()
    expect(villeneuve.locator("li.dispatch")).to_contain_text("a foreign power")
    expect(villeneuve.locator("main")).not_to_contain_text("Great Britain")
    villeneuve.screenshot(path=str(screenshots / "dispatches_anonymous.png"), full_page=True)
    gm.goto(f"{base}/campaigns/{slug}/dispatches/?nation=GB")
    gm.get_by_role("link", name="A warning").click()
    expect(gm.locator("li.dispatch")).to_contain_text("Great Britain (anonymous to players)")
    gm.screenshot(path=str(screenshots / "dispatches_gm.png"), full_page=True)
    assert no_sideways_scroll(gm)
    gm_desktop = player(browser, base, "barham", DESKTOP)
    gm_desktop.goto(f"{base}/campaigns/{slug}/dispatches/?nation=GB")
    expect(gm_desktop.locator("#mute")).to_contain_text("Mute a nation")
    gm_desktop.screenshot(path=str(screenshots / "dispatches_gm_desktop.png"), full_page=True)


def test_a_letter_longer_than_the_limit_is_never_cut_the_count_and_the_refusal_say_by_how_much(
    live_server: Any, browser: Browser
) -> None:
    """Issue 28: a 3,605-character letter pasted into the 2,000-character box was cut without a word
    (the box's maxlength). Now the whole text stays, a live count says how far over it is, and sending
    it is refused with the same figures and the text kept in the box; nothing is sent."""
    p = three_powers()
    base, slug = live_server.url, p.campaign.slug
    limit = Campaign.objects.get(pk=p.campaign.pk).dispatch_max_length
    letter = ("My dear Admiral, the fleet sails at dawn. " * 200)[: limit + 1605]
    nelson = player(browser, base, "nelson")
    nelson.goto(f"{base}/campaigns/{slug}/dispatches/")
    nelson.get_by_label("France", exact=True).check()
    nelson.get_by_role("textbox", name="Subject").fill("A long letter")
    box = nelson.get_by_role("textbox", name="Dispatch")
    box.fill(letter)
    assert len(box.input_value()) == len(letter)  # nothing cut
    expect(nelson.locator("#id_body-count")).to_have_text(
        f"1,605 characters over the limit of {limit:,}: shorten it before sending."
    )
    expect(box).to_have_attribute("aria-invalid", "true")
    assert no_sideways_scroll(nelson)

    nelson.get_by_role("button", name="Send").click()
    expect(nelson.locator("form.dispatch-form")).to_contain_text(
        f"The dispatch is {len(letter):,} characters long; this campaign allows at most {limit:,}: shorten it by 1,605"
    )
    assert nelson.get_by_role("textbox", name="Dispatch").input_value().replace("\r\n", "\n") == letter.strip()
    assert not Dispatch.objects.filter(campaign=p.campaign).exists()

    # Shortened to the limit, the count turns back to "N of 2,000" and the letter goes.
    nelson.get_by_role("textbox", name="Dispatch").fill(letter[:limit])
    expect(nelson.locator("#id_body-count")).to_have_text(f"{limit:,} of {limit:,} characters")
    nelson.get_by_role("button", name="Send").click()
    expect(nelson.locator("body")).to_contain_text("Dispatch sent.")
