"""The nation dashboard, the ready toggle, the home page and turn history; query budgets at two sizes."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.urls import reverse

from battles.models import Battle
from campaign.models import Campaign, LedgerEntry, Nation, NationTurn, Turn
from campaign.orders.services import order_add
from campaign.services import ledger_post
from fleets.models import Blockade, Ship
from ports.models import LandUnit, Port
from tests.factories import ShipFactory
from tests.web.fog_worlds import (
    FogWorld,
    battle_event,
    battle_in,
    blockade_event,
    client_for,
    europe,
    europe_seen_a_turn,
    fog_world,
    sighting,
    turn_close,
)

pytestmark = pytest.mark.django_db


def _dashboard(fw: FogWorld, query: str = "", user: object | None = None) -> str:
    url = reverse("campaign:dashboard", args=[fw.campaign.slug]) + query
    response = client_for(user or fw.nelson).get(url)
    assert response.status_code == 200
    return response.content.decode()


def _section(page: str, section_id: str) -> str:
    start = page.index(f'id="{section_id}"')
    end = page.find("</section>", start)
    return page[start:end]


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


# --- treasury, ledger, projection ------------------------------------------------------------------


def test_the_treasury_shows_what_this_turns_orders_commit(fw: FogWorld) -> None:
    """README "Committed treasury": lay-downs and raises listed this turn come off what is available."""
    order_add(nation=fw.w.gb, body={"kind": "lay_down", "class": "3rd-74", "name": "Ajax", "port": "portsmouth"})
    order_add(nation=fw.w.gb, body={"kind": "raise", "unit": "land_unit", "port": "portsmouth"})
    treasury = _text(_section(_dashboard(fw), "treasury"))
    assert "60 EP" in treasury
    assert "Committed by this turn's orders 13 EP" in treasury
    assert "Available for new orders 47 EP" in treasury


def test_next_turns_income_and_upkeep_follow_the_economy_rules(fw: FogWorld) -> None:
    """§2: income = base + own ports not besieged; upkeep = ceil(Σ class EP / 20): ten 74s → 5."""
    treasury = _text(_section(_dashboard(fw), "treasury"))
    assert "Base income +3" in treasury
    assert "Ports +2" in treasury
    assert "Upkeep of commissioned ships −5" in treasury
    assert "Treasury after the turn 60 EP" in treasury
    Port.objects.filter(pk=fw.w.portsmouth.pk).update(siege_turns=1)
    Ship.objects.filter(fleet=fw.w.channel_fleet).update(in_ordinary=True)
    treasury = _text(_section(_dashboard(fw), "treasury"))
    assert "Ports +0" in treasury  # a besieged port pays nothing
    assert "Upkeep of commissioned ships −0" in treasury  # ships in ordinary pay no upkeep


def test_the_ledger_is_paginated_newest_first(fw: FogWorld) -> None:
    for i in range(1, 21):
        ledger_post(nation=fw.w.gb, turn=1, amount=i, kind=LedgerEntry.Kind.ADJUSTMENT, reason=f"Prize money {i}")
    first = _section(_dashboard(fw), "ledger")
    assert "Prize money 20" in first and "Prize money 6" in first
    assert "Prize money 5" not in first
    assert first.index("Prize money 20") < first.index("Prize money 19")
    assert "Older" in first and "Newer" not in first
    second = _section(_dashboard(fw, "?ledger=2"), "ledger")
    assert "Prize money 5" in second and "Opening balance" in second
    assert "Prize money 6" not in second
    fragment = client_for(fw.nelson).get(
        reverse("campaign:dashboard", args=[fw.campaign.slug]) + "?ledger=2&part=ledger", HTTP_HX_REQUEST="true"
    )
    body = fragment.content.decode()
    assert "<html" not in body and 'id="ledger-box"' in body and "Prize money 5" in body
    assert "Prize money 6" in _section(_dashboard(fw, "?ledger=nonsense"), "ledger")  # a bad page is page 1


@pytest.mark.parametrize("page", ["99999999999999999999", "1000001"])
def test_a_page_number_beyond_any_page_is_not_found_rather_than_a_server_error(fw: FogWorld, page: str) -> None:
    """Issue 9: "huge page numbers (`?ledger=99999999999999999999`, `turns/?page=…`)" gave 500s."""
    turn_close(fw.campaign, {fw.w.gb: [{"phase": 9, "text": "Income 5 EP."}]})
    client = client_for(fw.nelson)
    slug = fw.campaign.slug
    assert client.get(reverse("campaign:dashboard", args=[slug]) + f"?ledger={page}").status_code == 404
    fragment = reverse("campaign:dashboard", args=[slug]) + f"?ledger={page}&part=ledger"
    assert client.get(fragment, HTTP_HX_REQUEST="true").status_code == 404
    assert client.get(reverse("campaign:turns", args=[slug]) + f"?page={page}").status_code == 404
    assert client.get(f"/campaigns/{slug}/turns/{page}/").status_code == 404
    # The largest page a campaign could have is still a page: past the end, it is empty.
    last = _section(_dashboard(fw, "?ledger=1000000"), "ledger")
    assert "Opening balance" not in last and "Newer" in last
    assert "Opening balance" in _section(_dashboard(fw, "?ledger=-99999999999999999999"), "ledger")
    assert client.get(reverse("campaign:turns", args=[slug]) + "?page=1000000").status_code == 200


# --- construction ------------------------------------------------------------------------------------


def test_quota_status_says_how_many_big_ships_may_be_laid_down(fw: FogWorld) -> None:
    """§1 1800–1808, GB 20%: with ten 74s, a 1st (1 of 11) and a 2nd (2 of 12) fit; a third does not."""
    construction = _text(_section(_dashboard(fw), "construction"))
    assert "Quota 1800–1808: at most 20%" in construction
    assert "Great Britain has 0 of 10 ships of the line — within quota" in construction
    assert "2 more 1st/2nd rates may be laid down now" in construction
    assert "Four-deckers: 0 of 1 allowed" in construction
    assert "Four-decker 30 4 needs 30 EP, 60 EP available" not in construction
    assert "Dockyards free to build: Portsmouth" in construction


def test_quota_status_counts_the_lay_downs_already_ordered(fw: FogWorld) -> None:
    order_add(nation=fw.w.gb, body={"kind": "lay_down", "class": "1st", "name": "Caledonia", "port": "portsmouth"})
    order_add(nation=fw.w.gb, body={"kind": "lay_down", "class": "2nd", "name": "Ocean", "port": "portsmouth"})
    construction = _text(_section(_dashboard(fw), "construction"))
    assert "Great Britain has 2 of 12 ships of the line" in construction
    assert "no 1st or 2nd rate may be laid down now" in construction
    assert "Counting 2 lay-down orders already listed this turn" in construction
    assert re.search(r"1st rate 20 \d+ over the quota", construction)
    assert re.search(r"Frigate 4 \d+ yes", construction)


def test_a_four_decker_over_the_limit_and_a_besieged_dockyard_are_named(fw: FogWorld) -> None:
    ShipFactory.create(fleet=fw.w.channel_fleet, name="Commerce de Marseille", ship_class="four-decker")
    Port.objects.filter(pk=fw.w.portsmouth.pk).update(siege_turns=1)
    construction = _text(_section(_dashboard(fw), "construction"))
    assert "Four-deckers: 1 of 1 allowed — limit reached" in construction
    assert "Four-decker 30 " in construction and "four-decker limit reached" in construction
    assert "Dockyards free to build: none" in construction
    assert "no dockyard port free to build" in construction


# --- fleets, ports, sieges -------------------------------------------------------------------------------


def test_fleets_list_their_ships_with_condition_and_location(fw: FogWorld) -> None:
    ship = Ship.objects.filter(fleet=fw.w.channel_fleet).first()
    assert ship is not None
    Ship.objects.filter(pk=ship.pk).update(condition=Ship.Condition.DAMAGED, in_ordinary=True)
    fleets = _section(_dashboard(fw), "fleets")
    assert f'id="fleet-{fw.w.channel_fleet.pk}"' in fleets
    text = _text(fleets)
    assert "Channel Fleet 10 ships (10 SOL) · in Portsmouth" in text
    assert "1 needs repair" in text
    assert f"{ship.name} 3rd rate (74/80) Damaged B in ordinary" in text
    assert "Brest Fleet" not in fleets


def test_ports_sieges_and_blockades_are_shown(fw: FogWorld) -> None:
    """Every port's sieges and blockades are seen by all (§3 fog of war)."""
    turn_close(fw.campaign)
    Port.objects.filter(pk=fw.w.portsmouth.pk).update(siege_turns=2)
    LandUnit.objects.create(campaign=fw.campaign, nation=fw.w.fr, state=LandUnit.State.ASHORE, port=fw.w.portsmouth)
    Blockade.objects.create(campaign=fw.campaign, turn=1, port=fw.w.brest, fleet=fw.w.channel_fleet)
    page = _dashboard(fw)
    ports = _text(_section(page, "ports"))
    assert "Portsmouth ⚓ The Channel 2 2" in ports
    assert "besieged 2 turns" in ports and "no income" in ports
    sieges = _text(_section(page, "sieges"))
    assert "Portsmouth Great Britain France 2" in sieges
    assert "Brest (France) blockaded by Great Britain" in sieges


# --- ready ----------------------------------------------------------------------------------------------


def test_marking_ready_works_as_a_plain_form(fw: FogWorld) -> None:
    client = client_for(fw.nelson)
    url = reverse("campaign:ready", args=[fw.campaign.slug])
    dashboard = reverse("campaign:dashboard", args=[fw.campaign.slug])
    response = client.post(url, {"ready": "1", "nation": "GB", "next": dashboard})
    assert response.status_code == 302 and response["Location"] == dashboard
    assert NationTurn.objects.get(turn=fw.w.turn, nation=fw.w.gb).ready
    page = client.get(dashboard).content.decode()
    assert "Great Britain is ready" in page and "✓ Ready" in page
    response = client.post(url, {"ready": "0", "nation": "GB", "next": "https://elsewhere.example/"})
    assert response["Location"] == dashboard  # never sent off the site
    assert not NationTurn.objects.get(turn=fw.w.turn, nation=fw.w.gb).ready


def test_marking_ready_with_htmx_returns_the_toggle_only(fw: FogWorld) -> None:
    response = client_for(fw.nelson).post(
        reverse("campaign:ready", args=[fw.campaign.slug]), {"ready": "1", "nation": "GB"}, HTTP_HX_REQUEST="true"
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body and 'id="ready-box"' in body and "✓ Ready" in body
    assert 'name="ready" value="0"' in body


def test_ready_is_refused_with_a_reason_while_the_turn_resolves(fw: FogWorld) -> None:
    Turn.objects.filter(pk=fw.w.turn.pk).update(status=Turn.Status.RESOLVING)
    client = client_for(fw.nelson)
    url = reverse("campaign:ready", args=[fw.campaign.slug])
    body = client.post(url, {"ready": "1", "nation": "GB"}, HTTP_HX_REQUEST="true").content.decode()
    assert "There is no open turn" in body
    page = client.post(url, {"ready": "1", "nation": "GB"}, follow=True).content.decode()
    assert "There is no open turn" in page
    assert not NationTurn.objects.filter(nation=fw.w.gb, ready=True).exists()
    assert client.post(url, {"ready": "yes", "nation": "GB"}).status_code == 400
    assert client.get(url).status_code == 405


def test_a_gm_who_names_no_nation_is_asked_to_choose_one_rather_than_marking_the_first(fw: FogWorld) -> None:
    """Issue 9: "A GM's ready toggle without a nation acts on the first nation by code." The GM plays no
    nation here, so the toggle is refused (400) with a reason and no nation is marked."""
    client = client_for(fw.gm)
    url = reverse("campaign:ready", args=[fw.campaign.slug])
    for headers in ({}, {"HX-Request": "true"}):
        response = client.post(url, {"ready": "1"}, headers=headers)
        assert response.status_code == 400
        assert "Choose a nation" in response.content.decode()
    response = client.post(url, {"ready": "1", "nation": ""})
    assert response.status_code == 400
    assert not NationTurn.objects.filter(turn=fw.w.turn, ready=True).exists()
    assert client.post(url, {"ready": "1", "nation": "FR"}).status_code == 302
    assert list(NationTurn.objects.filter(turn=fw.w.turn, ready=True).values_list("nation__code", flat=True)) == ["FR"]


def test_a_player_may_mark_their_own_nation_ready_without_naming_it(fw: FogWorld) -> None:
    response = client_for(fw.nelson).post(reverse("campaign:ready", args=[fw.campaign.slug]), {"ready": "1"})
    assert response.status_code == 302
    assert NationTurn.objects.get(turn=fw.w.turn, nation=fw.w.gb).ready


# --- deadline and time zone -----------------------------------------------------------------------------


def test_the_deadline_is_shown_in_the_viewers_time_zone_with_a_countdown(fw: FogWorld) -> None:
    Turn.objects.filter(pk=fw.w.turn.pk).update(deadline=datetime(2030, 1, 15, 12, 0, tzinfo=UTC))
    client = client_for(fw.nelson)
    page = client.get(reverse("campaign:dashboard", args=[fw.campaign.slug])).content.decode()
    assert "Tue 15 Jan 2030, 12:00 UTC" in page
    client.post(reverse("campaign:settings"), {"time_zone": "America/New_York"})
    page = client.get(reverse("campaign:dashboard", args=[fw.campaign.slug])).content.decode()
    assert "Tue 15 Jan 2030, 07:00 EST" in page
    assert 'data-deadline="2030-01-15T07:00:00-05:00"' in page
    assert re.search(r'class="countdown"[^>]*>\s*\d+\xa0years?', page)
    home = client.get("/").content.decode()
    assert "Tue 15 Jan, 07:00 EST" in home


@pytest.mark.parametrize(
    ("status", "words"),
    [
        ("paused", "paused: the clock is stopped"),
        ("setup", "planned: the clock starts when the GM starts the campaign"),
    ],
)
def test_a_stopped_clock_shows_the_deadline_without_a_running_countdown(fw: FogWorld, status: str, words: str) -> None:
    """A paused campaign used to show a countdown running towards a deadline that was not going to pass."""
    Turn.objects.filter(pk=fw.w.turn.pk).update(deadline=datetime(2030, 1, 15, 12, 0, tzinfo=UTC))
    Campaign.objects.filter(pk=fw.campaign.pk).update(status=status)
    client = client_for(fw.nelson)
    page = client.get(reverse("campaign:dashboard", args=[fw.campaign.slug])).content.decode()
    assert "Tue 15 Jan 2030, 12:00 UTC" in page and words in page
    assert "data-deadline" not in page and 'class="countdown"' not in page
    home = client.get("/").content.decode()
    assert "Tue 15 Jan, 12:00 UTC" in home and "data-deadline" not in home


# --- home -----------------------------------------------------------------------------------------------


def test_home_lists_my_campaigns_with_my_nation_turn_and_deadline(fw: FogWorld) -> None:
    NationTurn.objects.filter(turn=fw.w.turn, nation=fw.w.gb).update(ready=True)
    page = client_for(fw.nelson).get("/").content.decode()
    row = _text(page.split("<tbody>")[1].split("</tbody>")[0])
    assert "Channel 1805 Great Britain ready 1 · Spring 1805" in row
    assert "left" in row
    assert reverse("campaign:dashboard", args=[fw.campaign.slug]) in page
    gm_row = _text(client_for(fw.gm).get("/").content.decode().split("<tbody>")[1])
    assert "Game master" in gm_row
    assert "No campaigns yet" not in client_for(fw.outsider).get("/").content.decode()
    assert "You have no campaigns yet" in client_for(fw.outsider).get("/").content.decode()


# --- turn history ----------------------------------------------------------------------------------------


def test_turn_history_shows_the_report_by_phase_and_the_battles_fought(fw: FogWorld) -> None:
    battle = battle_in(fw.campaign, fw.w.biscay, [["GB"], ["FR"]], winner=0)
    neutral = battle_in(fw.campaign, fw.w.channel, [["FR"], ["NL"]], winner=None)
    events = [
        {"phase": 9, "text": "Income 5 EP, upkeep 5 EP; treasury 60 EP."},
        battle_event(battle, [(0, "3rd-74", "intact"), (1, "3rd-74", "captured")], text="Battle at Bay of Biscay."),
    ]
    turn_close(fw.campaign, {fw.w.gb: events})
    client = client_for(fw.nelson)
    page = client.get(reverse("campaign:turn", args=[fw.campaign.slug, 1])).content.decode()
    report = _text(_section(page, "report"))
    assert report.index("Battles and blockades") < report.index("Income and upkeep")
    assert "Battle at Bay of Biscay." in report
    battles = _text(_section(page, "battles"))
    assert "Bay of Biscay Fleet action Great Britain against France Great Britain" in battles
    assert "FR against NL" not in battles  # neither Britain's battle nor in its report
    assert neutral.pk != battle.pk
    assert "The map as turn 1 left it" in page
    turns = client.get(reverse("campaign:turns", args=[fw.campaign.slug])).content.decode()
    assert "Turn 1" in turns and reverse("campaign:turn", args=[fw.campaign.slug, 1]) in turns


# --- query budget -----------------------------------------------------------------------------------------


def _small_world_seen() -> tuple[Campaign, object, str]:
    fw = fog_world()
    battle = battle_in(fw.campaign, fw.w.biscay, [["GB"], ["FR"]])
    Blockade.objects.create(campaign=fw.campaign, turn=1, port=fw.w.brest, fleet=fw.w.channel_fleet)
    turn_close(
        fw.campaign,
        {
            fw.w.gb: [
                sighting(fw.w.biscay, [("FR", "3rd-74", "ready")] * 3),
                battle_event(battle, [(0, "3rd-74", "damaged"), (1, "3rd-74", "sunk")]),
                blockade_event("brest", [("FR", "3rd-74", "ready")] * 2),
            ]
        },
    )
    order_add(nation=fw.w.gb, body={"kind": "lay_down", "class": "3rd-74", "name": "Ajax", "port": "portsmouth"})
    return fw.campaign, fw.nelson, "biscay"


def _europe_seen() -> tuple[Campaign, object, str]:
    campaign = europe()
    europe_seen_a_turn(campaign)
    gb = Nation.objects.get(campaign=campaign, code="GB")
    order_add(nation=gb, body={"kind": "lay_down", "class": "3rd-74", "name": "Ajax II", "port": "portsmouth"})
    assert Ship.objects.filter(nation=gb).count() > 150  # the demo's size: Britain's whole navy
    return campaign, gb.player, "bay-of-biscay"


@pytest.mark.parametrize("build", [_small_world_seen, _europe_seen], ids=["small", "europe-1805"])
def test_every_page_needs_at_most_20_queries(build: object, django_assert_max_num_queries: object) -> None:
    """Issue 5: "Pages need at most 20 SQL queries whatever the number of ships" (two data sizes),
    with every conditional read triggered: sightings, a battle, a blockaded port, orders."""
    campaign, player, zone = build()  # type: ignore[operator]
    client = client_for(player)
    slug = campaign.slug
    urls = [
        "/",
        reverse("campaign:dashboard", args=[slug]),
        reverse("campaign:dashboard", args=[slug]) + "?ledger=2",
        reverse("campaign:map", args=[slug]),
        reverse("campaign:map", args=[slug]) + f"?zone={zone}",
        reverse("campaign:turns", args=[slug]),
        reverse("campaign:turn", args=[slug, 1]),
        reverse("campaign:settings"),
        # The battle pages and the simulator carry the campaign's header too.
        reverse("battles:list", args=[slug]),
        reverse("battles:detail", args=[slug, Battle.objects.get(campaign=campaign).pk]),
        reverse("campaign:simulator", args=[slug]),
    ]
    for url in urls:
        with django_assert_max_num_queries(20):  # type: ignore[operator]
            response = client.get(url)
        assert response.status_code == 200, url
    with django_assert_max_num_queries(20):  # type: ignore[operator]
        response = client.post(reverse("campaign:ready", args=[slug]), {"ready": "1"})
    assert response.status_code == 302
