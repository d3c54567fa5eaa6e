"""A player's turn in a real browser (Debian Chromium through Playwright), end to end.

The player of Great Britain logs in, lays down a first rate and sees the treasury committed, tries a
second first rate over quota and reads the refusal, orders the Channel Fleet to sea from the map, and
marks ready. The GM resolves the turn (the pipeline inline: ``turn_claim`` + ``turn_resolve``). The
player opens the battle report and its dice log.

The battle is certain, not left to the sighting dice: a British squadron lies in Cádiz, the port of
Britain's ally Spain, beside the Spanish fleet, and the GM enters Spain's order to declare war. War
from alliance leaves everything where it is (RULES.md §10 "Treachery in Port"), so phase 4 fights
the hostile fleets in one port (§4) — no sighting or intercept — and phase 5 the garrison guns.

Screenshots of the dashboard, the map, the orders and the battle report go to artifacts/screenshots/.
"""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Page, expect

from battles.models import Battle
from campaign.models import Campaign, LedgerEntry, Nation, NationTurn, Order, Relation, Turn
from campaign.orders.services import order_add
from campaign.services import ledger_post
from campaign.tasks import turn_resolve
from campaign.turn.lifecycle import turn_claim
from fleets.models import Fleet
from ports.models import Port, SeaZone
from tests.factories import AdmiralFactory, CampaignFactory, NationFactory, ShipFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-player-password"


def _pair(campaign: Campaign, x: Nation, y: Nation, state: str) -> None:
    a, b = sorted((x, y), key=lambda n: n.pk)
    Relation.objects.create(campaign=campaign, a=a, b=b, state=state)


def journey_world() -> dict[str, Any]:
    """Britain (a player), France (at war with Britain) and Spain (Britain's ally, no player)."""
    campaign = CampaignFactory.create(slug="trafalgar", name="Trafalgar 1805", seed=1805)
    gm = get_user_model().objects.create_user("gm", "gm@example.org", PASSWORD)
    campaign.gm = gm
    campaign.save(update_fields=["gm"])
    player = get_user_model().objects.create_user("nelson", "nelson@example.org", PASSWORD)
    gb = NationFactory.create(
        campaign=campaign, code="GB", name="Great Britain", crew="B", player=player, color="#c00000"
    )
    fr = NationFactory.create(campaign=campaign, code="FR", name="France", navy="FR", crew="D", color="#1f3f9f")
    es = NationFactory.create(campaign=campaign, code="ES", name="Spain", navy="ES", crew="E", color="#d9a400")
    _pair(campaign, gb, fr, Relation.State.WAR)
    _pair(campaign, gb, es, Relation.State.ALLIANCE)
    _pair(campaign, fr, es, Relation.State.PEACE)

    def zone(key: str, name: str, kind: str, x: int, y: int) -> SeaZone:
        return SeaZone.objects.create(campaign=campaign, key=key, name=name, type=kind, x=x, y=y)

    channel = zone("channel", "The Channel", "coastal", 430, 170)
    biscay = zone("biscay", "Bay of Biscay", "open", 330, 330)
    cadiz_zone = zone("gulf-of-cadiz", "Gulf of Cádiz", "coastal", 260, 560)
    channel.adjacent.add(biscay)
    biscay.adjacent.add(cadiz_zone)

    def port(owner: Nation, sea: SeaZone, key: str, name: str, x: int, y: int, ff: int) -> Port:
        return Port.objects.create(
            campaign=campaign,
            owner=owner,
            sea_zone=sea,
            key=key,
            name=name,
            x=x,
            y=y,
            fortification=ff,
            capacity=3,
            ep_value=2,
            dockyard=True,
        )

    portsmouth = port(gb, channel, "portsmouth", "Portsmouth", 450, 140, 3)
    port(fr, biscay, "brest", "Brest", 360, 300, 3)
    cadiz = port(es, cadiz_zone, "cadiz", "Cádiz", 280, 590, 3)

    def fleet(nation: Nation, name: str, sea: SeaZone, where: Port) -> Fleet:
        return Fleet.objects.create(
            campaign=campaign, nation=nation, name=name, sea_zone=sea, port=where, crew=nation.crew
        )

    channel_fleet = fleet(gb, "Channel Fleet", channel, portsmouth)
    ShipFactory.create(fleet=channel_fleet, nation=gb, name="Victory", ship_class="1st", crew="B")
    for k, name in enumerate(["Mars", "Bellerophon", "Colossus", "Achilles", "Revenge", "Polyphemus", "Swiftsure"]):
        ShipFactory.create(
            fleet=channel_fleet, nation=gb, name=name, ship_class="3rd-74", crew="B", line_position=k + 1
        )
    squadron = fleet(gb, "Cádiz Squadron", cadiz_zone, cadiz)
    for name in ["Defiance", "Thunderer", "Orion"]:
        ShipFactory.create(fleet=squadron, nation=gb, name=name, ship_class="3rd-74", crew="C")
    AdmiralFactory.create(nation=gb, campaign=campaign, name="Richard Strachan", grade="C")
    spanish = fleet(es, "Armada de Cádiz", cadiz_zone, cadiz)
    for name in ["Santa Ana", "Monarca", "Bahama", "San Juan Nepomuceno"]:
        ShipFactory.create(fleet=spanish, nation=es, name=name, ship_class="3rd-74", crew="E")
    brest_fleet = fleet(fr, "Escadre de Brest", biscay, Port.objects.get(key="brest", campaign=campaign))
    for name in ["Alexandre", "Jupiter", "Diomède"]:
        ShipFactory.create(fleet=brest_fleet, nation=fr, name=name, ship_class="3rd-74", crew="D")
    for nation, amount in ((gb, 120), (fr, 60), (es, 40)):
        ledger_post(nation=nation, turn=1, amount=amount, kind=LedgerEntry.Kind.OPENING, reason="Opening balance")
    turn = Turn.objects.create(
        campaign=campaign, number=1, year=1805, season="summer", deadline=timezone.now() + timedelta(days=7)
    )
    NationTurn.objects.bulk_create([NationTurn(turn=turn, nation=n) for n in (gb, fr, es)])
    # The GM enters Spain's orders (it has no player): war on its ally, its fleet in the same port.
    order_add(nation=es, body={"kind": "declare_war", "nation": "GB"})
    return {"campaign": campaign, "turn": turn, "gb": gb, "channel_fleet": channel_fleet, "squadron": squadron}


def _log_in(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    expect(page).not_to_have_url(re.compile("/accounts/login/"))


def test_a_player_orders_a_turn_and_reads_the_battle(live_server: Any, page: Page, screenshots: Path) -> None:
    world = journey_world()
    base = live_server.url
    slug = world["campaign"].slug
    gb: Nation = world["gb"]

    _log_in(page, base, "nelson")
    page.goto(f"{base}/campaigns/{slug}/")
    expect(page.locator("body")).to_contain_text("Great Britain")
    expect(page.locator("body")).to_contain_text("120 EP")
    page.screenshot(path=str(screenshots / "dashboard.png"), full_page=True)

    # Lay down a first rate: 20 EP committed, 100 available.
    page.goto(f"{base}/campaigns/{slug}/orders/")
    page.get_by_role("link", name="Lay down a ship").click()
    page.locator("input[name=class][value='1st']").check()
    page.locator("#id_name").fill("Caledonia")
    page.get_by_role("button", name="Add the order").click()
    expect(page.locator(".message")).to_contain_text("Added order 1 — 1st rate Caledonia at Portsmouth (20 EP)")
    expect(page.locator("#committed")).to_have_text("20 EP")
    expect(page.locator("#available")).to_have_text("100 EP")

    # A second first rate breaks the quota (11 SOL, 1 first rate; with Caledonia 12 and 2; one more
    # would be 100×3 = 300 > 20×13 = 260): the refusal is shown next to the class.
    page.locator("input[name=class][value='1st']").check()
    page.locator("#id_name").fill("Hibernia")
    page.get_by_role("button", name="Add the order").click()
    error = page.locator("#field-class .field-errors")
    expect(error).to_contain_text("1st/2nd-rate quota")
    expect(error).to_contain_text("100×3=300 > 20×13=260")
    expect(page.locator("#available")).to_have_text("100 EP")
    page.screenshot(path=str(screenshots / "orders.png"), full_page=True)
    assert Order.objects.filter(nation=gb).count() == 1

    # The dashboard shows the committed treasury too.
    page.goto(f"{base}/campaigns/{slug}/")
    expect(page.locator("body")).to_contain_text("100 EP")

    # From the map: the Channel, the fleet's "Give orders", to sea.
    page.goto(f"{base}/campaigns/{slug}/map/")
    page.locator("a.zone-link[href*='zone=channel']").first.click()
    expect(page.locator("#zone-panel")).to_contain_text("Channel Fleet")
    page.screenshot(path=str(screenshots / "map.png"), full_page=True)
    page.locator("#zone-panel").get_by_role("link", name="Give orders").first.click()
    expect(page.locator("#id_fleet")).to_have_value(str(world["channel_fleet"].pk))
    page.locator("#id_path").select_option("sea")
    page.get_by_role("button", name="Add the order").click()
    expect(page.locator(".message")).to_contain_text("Added order 2 — Channel Fleet: to sea")

    # Ready.
    page.goto(f"{base}/campaigns/{slug}/")
    page.get_by_role("button", name="Mark ready").click()
    expect(page.locator("#ready-box")).to_contain_text("Ready")
    assert NationTurn.objects.get(turn=world["turn"], nation=gb).ready

    # The GM resolves the turn (the pipeline, inline).
    turn: Turn = world["turn"]
    assert turn_claim(turn_id=turn.pk, now=timezone.now())
    assert turn_resolve(turn.pk) == "done"
    battle = Battle.objects.filter(turn=turn, kind=Battle.Kind.FLEET_ACTION).get()
    assert {code for side in battle.sides for code in side["nations"]} == {"GB", "ES"}

    # The player reads the report of the battle and its dice log.
    page.goto(f"{base}/campaigns/{slug}/battles/")
    page.get_by_role("link", name=re.compile("Fleet action at Cádiz")).click()
    expect(page.get_by_role("heading", level=2)).to_contain_text("Fleet action at Cádiz")
    expect(page.locator("body")).to_contain_text("Cádiz Squadron")
    expect(page.locator("body")).to_contain_text("Each ship's fate")
    page.locator("#dice-log summary").click()
    dice = battle.report["dice"]
    expect(page.locator("#dice-log .dice-lines li")).to_have_count(len(dice))
    expect(page.locator("#dice-log .dice-lines li").first).to_be_visible()
    page.screenshot(path=str(screenshots / "battle_report.png"), full_page=True)
