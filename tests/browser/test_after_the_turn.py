"""Issue 13's checks of a played turn in Chromium, at desktop and phone widths.

- The relations table after a declaration of war: Spain declares war on its ally Britain; before the
  turn the dashboard shows Spain as Britain's ally, after it as an enemy, on the dashboard and the map.
- A destroyed fleet gone after the battle: Britain's one-ship squadron at Cádiz is taken in the fleet
  action the war starts; its marker is gone from the map, the dashboard sets the empty fleet apart and
  counts the ship taken as lost, and the battle page lists every ship with its fate.
- The rules page shows a house-rule change: the GM changes a number in the admin's rules editor and the
  players' rules page shows the campaign's value marked against the rulebook's.

Every page is also checked for sideways scrolling at the phone's width. Screenshots go to
artifacts/screenshots/ (after-turn-*.png, rules-house-*.png)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Browser, Locator, Page, expect

from battles.models import Battle
from campaign.tasks import turn_resolve
from campaign.turn.lifecycle import turn_claim
from fleets.models import Fleet, Ship
from tests.browser.test_player_journey import PASSWORD, journey_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
SIZES = {"desktop": DESKTOP, "phone": PHONE}


def _logged_in(browser: Browser, base: str, viewport: dict[str, int], username: str, *, admin: bool = False) -> Page:
    page = browser.new_context(viewport=viewport, timezone_id="Europe/London").new_page()  # type: ignore[arg-type]
    page.goto(f"{base}/admin/login/" if admin else f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_url(lambda url: "/login/" not in url)
    return page


def _fits(page: Page, width: int) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{page.url} is {scroll} px wide in a {width}-px window"


def _relations_row(page: Page, nation: str) -> Locator:
    """The relations table's row of ``nation`` (its header cell also names the nation's player). On
    the dashboard the table is behind a disclosure (issue 28: the phone dashboard in three screens)."""
    closed = page.locator("#relations-more:not([open]) > summary")
    if closed.count():
        closed.click()
    header = page.get_by_role("rowheader", name=re.compile(f"^{re.escape(nation)}"))
    return page.locator("#diplomacy table.relations tbody tr").filter(has=header)


def _squadron_of_one(world: dict[str, Any]) -> Fleet:
    """Britain's squadron in Cádiz cut to one ship, Defiance, against Spain's four: with the campaign's
    seed the fleet action the war starts is Spain's, Defiance is taken and the squadron has no ship left."""
    squadron: Fleet = world["squadron"]
    Ship.objects.filter(fleet=squadron).exclude(name="Defiance").delete()
    return squadron


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_declaration_of_war_and_a_destroyed_fleet_show_after_the_turn(
    live_server: Any, browser: Browser, screenshots: Path, size: str
) -> None:
    world = journey_world()
    squadron = _squadron_of_one(world)
    base, slug, width = live_server.url, world["campaign"].slug, SIZES[size]["width"]
    squadron_marker = f"svg.seamap a.fleet-link:has([data-fleet='{squadron.pk}'])"
    nelson = _logged_in(browser, base, SIZES[size], "nelson")

    nelson.goto(f"{base}/campaigns/{slug}/")
    britain = _relations_row(nelson, "Great Britain")
    expect(britain.locator("td").nth(0)).to_have_text("France")
    expect(britain.locator("td").nth(1)).to_have_text("Spain")
    nelson.goto(f"{base}/campaigns/{slug}/map/")
    expect(nelson.locator(squadron_marker)).to_have_count(1)

    turn = world["turn"]
    assert turn_claim(turn_id=turn.pk, now=timezone.now())
    assert turn_resolve(turn.pk) == "done"
    defiance = Ship.objects.get(name="Defiance")
    assert defiance.nation.code == "ES" and not squadron.ships.exists(), "the seed's battle: Defiance taken"

    # The relations table after the declaration of war, on the dashboard and on the map.
    for tab in ("", "map/"):
        nelson.goto(f"{base}/campaigns/{slug}/{tab}")
        britain = _relations_row(nelson, "Great Britain")
        expect(britain.locator("td").nth(0)).to_have_text("France, Spain")  # by name, as the table lists them
        expect(britain.locator("td").nth(1)).to_have_text("—")
        expect(_relations_row(nelson, "Spain").locator("td").nth(0)).to_have_text("Great Britain")
        _fits(nelson, width)
        shot = f"after-turn-relations-{tab[:-1] or 'dashboard'}-{size}.png"
        nelson.locator("#diplomacy").screenshot(path=str(screenshots / shot))

    # The squadron is gone from the map, and set apart on the dashboard with its ship lost to Spain.
    nelson.goto(f"{base}/campaigns/{slug}/map/")
    expect(nelson.locator(squadron_marker)).to_have_count(0)
    expect(nelson.locator(f"svg.seamap a.fleet-link:has([data-fleet='{world['channel_fleet'].pk}'])")).to_have_count(1)
    nelson.screenshot(path=str(screenshots / f"after-turn-map-{size}.png"), full_page=True)
    nelson.goto(f"{base}/campaigns/{slug}/")
    fleets = nelson.locator("#fleets")
    expect(fleets).to_contain_text("No ships left in Cádiz Squadron: it is no longer a force.")
    expect(fleets.locator("details.lost summary")).to_have_text(re.compile(r"Ships lost\s*1$"))
    expect(fleets.locator("details.lost")).to_contain_text("Defiance (3rd rate (74/80)), captured by Spain")
    _fits(nelson, width)
    nelson.screenshot(path=str(screenshots / f"after-turn-dashboard-{size}.png"), full_page=True)

    # The battle page lists every ship that took part, with its fate.
    battle = Battle.objects.get(turn=turn, kind=Battle.Kind.FLEET_ACTION)
    nelson.goto(f"{base}/campaigns/{slug}/battles/{battle.pk}/")
    fates = nelson.locator("body")
    for ship in ("Santa Ana", "Monarca", "Bahama", "San Juan Nepomuceno", "Defiance"):
        expect(fates).to_contain_text(ship)
    _fits(nelson, width)
    nelson.screenshot(path=str(screenshots / f"after-turn-battle-{size}.png"), full_page=True)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_house_rule_set_in_the_rules_editor_shows_on_the_players_rules_page(
    live_server: Any, browser: Browser, screenshots: Path, size: str
) -> None:
    world = journey_world()
    campaign = world["campaign"]
    base = live_server.url
    get_user_model().objects.filter(pk=campaign.gm_id).update(is_staff=True)

    nelson = _logged_in(browser, base, SIZES[size], "nelson")
    nelson.goto(f"{base}/campaigns/{campaign.slug}/rules/")
    expect(nelson.locator(".rules-intro")).to_contain_text("has changed none of the rulebook's numbers.")

    gm = _logged_in(browser, base, DESKTOP, "gm", admin=True)
    gm.goto(f"{base}/admin/campaign/campaign/{campaign.pk}/rules/")
    gm.get_by_label("battle.max_rounds").fill("8")
    gm.get_by_role("button", name="Save rules").click()
    expect(gm.locator(".messagelist")).to_contain_text("Saved 1 change to the rules of")

    nelson.goto(f"{base}/campaigns/{campaign.slug}/rules/")
    intro = nelson.locator(".rules-intro")
    expect(intro).to_contain_text("The game master has changed 1 number from the rulebook")
    expect(intro.locator("ul.house-rules li")).to_have_count(1)
    battle = nelson.locator("section#battle")
    expect(battle.locator("mark.house-rule", has_text="8").first).to_be_visible()
    expect(battle).to_contain_text("A battle is fought by days of up to 8 (rulebook: 6) rounds")
    _fits(nelson, SIZES[size]["width"])
    nelson.screenshot(path=str(screenshots / f"rules-house-{size}.png"), full_page=False)
    battle.scroll_into_view_if_needed()
    nelson.screenshot(path=str(screenshots / f"rules-house-battle-{size}.png"), full_page=False)
