"""Battle report pages: sides, rounds, fates and the dice log; who may see which battle (fog of war)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse
from django.utils.timezone import now

from battles.engine import (
    DEFAULT_RULESET,
    AdmiralSpec,
    BattleSpec,
    EngagementContext,
    PortSpec,
    SeededDice,
    ShipSpec,
    SideSpec,
    fight_engagement,
    garrison_barrage,
    run_the_guns,
)
from battles.models import Battle
from battles.report_view.battle import battle_view
from campaign.dispatches.services import conversation_start
from campaign.models import Campaign, Nation, Relation, Turn, TurnReport
from fleets.models import Ship
from rules.fireships import FireshipTarget, fireships_attack
from rules.strategic_log import StrategicLog
from tests.factories import NationFactory, ShipFactory
from tests.support.dispatches import three_powers
from tests.support.played_campaign import kept
from tests.web.fog_worlds import battle_in, client_for, players_world, user
from tests.worlds import World

pytestmark = pytest.mark.django_db


def fleet_action_battle(campaign: Campaign, turn: Turn, a: list[Ship], b: list[Ship], *, seed: int = 7) -> Battle:
    """A fleet action fought by the engine between the ships ``a`` and ``b``, stored as phase 4 does
    (an engagement report; ships carry their ids as ``ref``)."""
    nation_a, nation_b = a[0].nation, b[0].nation
    taken = {s.name for s in a}

    def side(name: str, ships: list[Ship], grade: str) -> SideSpec:
        # Names are unique within a battle (as battles/engagements/loading.py makes them).
        specs = tuple(
            ShipSpec(
                s.name if s in a or s.name not in taken else f"{s.name} #{s.pk}",
                s.ship_class,
                s.nation.navy,
                s.crew,
                "ready",
                s.pk,
            )
            for s in ships
        )
        return SideSpec(name, ships[0].nation.navy, specs, AdmiralSpec(grade, f"Admiral {name}"), ships[0].crew)

    spec = BattleSpec("fleet_action", (side(nation_a.name, a, "B"), side(nation_b.name, b, "D")))
    report = fight_engagement(spec, SeededDice(seed), context=EngagementContext(zone_type="open"))
    assert a[0].fleet is not None
    zone = a[0].fleet.sea_zone
    return Battle.objects.create(
        campaign=campaign,
        turn=turn,
        kind=Battle.Kind.FLEET_ACTION,
        sea_zone=zone,
        place=zone.key,
        sequence=Battle.objects.filter(turn=turn).count() + 1,
        seed=seed,
        sides=[
            {"name": nation_a.name, "nations": [nation_a.code], "admiral": {"name": "Admiral A", "grade": "B"}},
            {"name": nation_b.name, "nations": [nation_b.code], "admiral": {"name": "Admiral B", "grade": "D"}},
        ],
        winner=report.winner,
        report={**report.to_json(), "engagement": "at_sea", "contact": None},
    )


def running_the_guns_battle(w: World, ships: list[Ship], *, seed: int = 3) -> Battle:
    specs = tuple(ShipSpec(s.name, s.ship_class, s.nation.navy, s.crew, "ready", s.pk) for s in ships)
    spec = BattleSpec(
        "running_the_guns",
        (SideSpec("Channel Fleet", "GB", specs, None, "B"), SideSpec("Brest", "FR", (), None, "D")),
        port=PortSpec(3, "Brest"),
    )
    report = run_the_guns(spec, SeededDice(seed))
    return Battle.objects.create(
        campaign=w.campaign,
        turn=w.turn,
        kind=Battle.Kind.RUNNING_THE_GUNS,
        sea_zone=w.biscay,
        port=w.brest,
        place="brest",
        seed=seed,
        sides=[{"name": "Channel Fleet", "nations": ["GB"]}, {"name": "Brest", "nations": ["FR"]}],
        winner=report.winner,
        report={**report.to_json(), "dice_offset": 0},
    )


def _world() -> World:
    return players_world()


@pytest.fixture
def world() -> World:
    """The players' world, its rows copied in (built once, kept in the played-rows cache)."""
    return kept(_world, shift="exact", fresh_ids=True)


def _ships(nation: Nation) -> list[Ship]:
    return list(Ship.objects.filter(nation=nation).select_related("nation", "fleet__sea_zone").order_by("pk"))


def _url(battle: Battle) -> str:
    return reverse("battles:detail", args=[battle.campaign.slug, battle.pk])


def test_the_report_shows_sides_rounds_fates_and_every_die_in_order(world: World) -> None:
    battle = fleet_action_battle(world.campaign, world.turn, _ships(world.gb), _ships(world.fr))
    response = client_for(world.gb.player).get(_url(battle))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Fleet action at Bay of Biscay" in page or "Fleet action at The Channel" in page
    assert "Great Britain" in page and "France" in page
    assert "Admiral A (B)" in page
    assert "Round 1" in page and "Weather gauge" in page
    dice = battle.report["dice"]
    assert f"Dice log — {len(dice)} dice, round by round" in page
    assert "<details" in page
    # Every die is a line of its round's card, numbered 1…n in the stored (canonical) order.
    log = page.split('id="dice-log"', 1)[1].split("</details>", 1)[0]
    numbers = [int(item.split('"', 1)[0]) for item in log.split('<li value="')[1:]]
    assert numbers == list(range(1, len(dice) + 1))
    assert log.count('<section class="dice-card"') == len({(d.get("day"), d.get("round")) for d in dice})
    # The integrity check is told in words, with its rule, not in the engine's shorthand.
    assert "L = " not in page and "→ " not in log
    for ship in battle.report["ships"]:
        assert ship["name"] in page
    assert page.count('<tr class="fate-') == len(battle.report["ships"])


def test_crews_come_from_the_campaigns_ships(world: World) -> None:
    battle = fleet_action_battle(world.campaign, world.turn, _ships(world.gb), _ships(world.fr))
    view = battle_view(battle)
    assert view.sides[0].crew == "B" and view.sides[1].crew == "D"
    assert {s.crew for s in view.sides[0].ship_list} == {"B"}
    assert [len(side.ship_list) for side in view.sides] == [10, 10]


def test_running_the_guns_shows_the_barrage_and_the_forts(world: World) -> None:
    battle = running_the_guns_battle(world, _ships(world.gb)[:4])
    page = client_for(world.gb.player).get(_url(battle)).content.decode()
    assert "Running the guns at Brest" in page
    assert "barrage" in page and "Coastal forts: 3." in page
    assert f"{len(battle.report['dice'])} dice, round by round" in page


def test_a_player_whose_nation_did_not_fight_gets_404(world: World) -> None:
    battle = fleet_action_battle(world.campaign, world.turn, _ships(world.gb), _ships(world.fr))
    spain = NationFactory.create(campaign=world.campaign, code="ES", name="Spain", player=user("gravina"))
    assert client_for(spain.player).get(_url(battle)).status_code == 404
    outsider = user("nobody")
    assert client_for(outsider).get(_url(battle)).status_code == 404


def test_a_nation_allied_to_a_side_when_the_battle_was_fought_sees_it(world: World) -> None:
    """Issue 9: the resolution records the nations allied to a side at the time (``seen_by``)."""
    battle = fleet_action_battle(world.campaign, world.turn, _ships(world.gb), _ships(world.fr))
    spain = NationFactory.create(campaign=world.campaign, code="ES", name="Spain", player=user("gravina"))
    battle.seen_by = ["ES", "FR", "GB"]
    battle.save(update_fields=["seen_by"])
    assert client_for(spain.player).get(_url(battle)).status_code == 200
    listing = client_for(spain.player).get(reverse("battles:list", args=[world.campaign.slug])).content.decode()
    assert _url(battle) in listing


def test_an_alliance_made_after_the_battle_does_not_open_it(world: World) -> None:
    """Issue 9: visibility is fixed at the time of the battle, not by today's alliances."""
    battle = fleet_action_battle(world.campaign, world.turn, _ships(world.gb), _ships(world.fr))
    spain = NationFactory.create(campaign=world.campaign, code="ES", name="Spain", player=user("gravina"))
    a, b = sorted((spain, world.fr), key=lambda n: n.pk)
    Relation.objects.create(campaign=world.campaign, a=a, b=b, state=Relation.State.ALLIANCE)
    assert client_for(spain.player).get(_url(battle)).status_code == 404
    listing = client_for(spain.player).get(reverse("battles:list", args=[world.campaign.slug])).content.decode()
    assert _url(battle) not in listing


def test_a_battle_noted_in_the_players_turn_report_is_shown(world: World) -> None:
    battle = fleet_action_battle(world.campaign, world.turn, _ships(world.gb), _ships(world.fr))
    spain = NationFactory.create(campaign=world.campaign, code="ES", name="Spain", player=user("gravina"))
    TurnReport.objects.create(
        turn=world.turn, nation=spain, body={"events": [{"phase": 4, "text": "Seen", "battle": battle.pk}]}
    )
    assert client_for(spain.player).get(_url(battle)).status_code == 200


def test_a_battle_of_another_campaign_is_404_under_this_slug(world: World) -> None:
    battle = fleet_action_battle(world.campaign, world.turn, _ships(world.gb), _ships(world.fr))
    other = NationFactory.create(code="GB", name="Elsewhere").campaign
    url = reverse("battles:detail", args=[other.slug, battle.pk])
    assert client_for(world.gb.player).get(url).status_code == 404
    assert Client().get(_url(battle)).status_code == 302  # anonymous: to the login page


def test_the_gm_sees_every_battle_and_the_list(world: World) -> None:
    battle = fleet_action_battle(world.campaign, world.turn, _ships(world.gb), _ships(world.fr))
    gm = user("gm")
    world.campaign.gm = gm
    world.campaign.save(update_fields=["gm"])
    assert client_for(gm).get(_url(battle)).status_code == 200
    listing = client_for(gm).get(reverse("battles:list", args=[world.campaign.slug])).content.decode()
    assert _url(battle) in listing


def test_the_list_shows_only_the_battles_a_player_may_see(world: World) -> None:
    fought = fleet_action_battle(world.campaign, world.turn, _ships(world.gb), _ships(world.fr))
    spain = NationFactory.create(campaign=world.campaign, code="ES", name="Spain", player=user("gravina"))
    url = reverse("battles:list", args=[world.campaign.slug])
    assert _url(fought) in client_for(world.fr.player).get(url).content.decode()
    page = client_for(spain.player).get(url).content.decode()
    assert _url(fought) not in page and "No battles to show yet" in page


def _battles(w: World, n: int) -> list[Battle]:
    gb, fr = _ships(w.gb), _ships(w.fr)
    return [fleet_action_battle(w.campaign, w.turn, gb, fr, seed=k) for k in range(n)]


@pytest.mark.parametrize("size", ["small", "demo"])
def test_the_battle_page_needs_at_most_20_queries(world: World, size: str, django_assert_max_num_queries: Any) -> None:
    if size == "demo":
        call_command("load_scenario", "europe-1805", "--start", "--slug", "big")
        campaign = Campaign.objects.get(slug="big")
        turn = Turn.objects.get(campaign=campaign, status=Turn.Status.OPEN)
        gb, fr = Nation.objects.get(campaign=campaign, code="GB"), Nation.objects.get(campaign=campaign, code="FR")
        gb.player = world.gb.player
        world.gb.player = None
        world.gb.save(update_fields=["player"])
        gb.save(update_fields=["player"])
        ships_a = list(Ship.objects.filter(nation=gb, condition="ready").select_related("nation", "fleet__sea_zone"))
        ships_b = list(Ship.objects.filter(nation=fr, condition="ready").select_related("nation", "fleet__sea_zone"))
        battle = fleet_action_battle(campaign, turn, ships_a[:60], ships_b[:60])
        client = client_for(gb.player)
    else:
        battle = _battles(world, 1)[0]
        client = client_for(world.gb.player)
    with django_assert_max_num_queries(20):
        response = client.get(_url(battle))
    assert response.status_code == 200
    with django_assert_max_num_queries(20):
        assert client.get(reverse("battles:list", args=[battle.campaign.slug])).status_code == 200


def test_garrison_guns_show_the_barrage_at_the_ships_inside(world: World) -> None:
    ships = _ships(world.gb)[:3]
    specs = tuple(ShipSpec(s.name, s.ship_class, "GB", s.crew, "ready", s.pk) for s in ships)
    spec = BattleSpec(
        "garrison_guns",
        (SideSpec("Ships in Brest", "GB", specs, None, "B"), SideSpec("Brest", "FR", (), None, "D")),
        port=PortSpec(4, "Brest"),
    )
    report = garrison_barrage(spec, SeededDice(9))
    battle = Battle.objects.create(
        campaign=world.campaign,
        turn=world.turn,
        kind=Battle.Kind.GARRISON_GUNS,
        sea_zone=world.biscay,
        port=world.brest,
        place="brest",
        seed=9,
        sides=[{"name": "Ships in Brest", "nations": ["GB"]}, {"name": "Brest", "nations": ["FR"]}],
        winner=report.winner,
        report={**report.to_json(), "dice_offset": 0},
    )
    page = client_for(world.gb.player).get(_url(battle)).content.decode()
    assert "Garrison guns at Brest" in page and "barrage" in page
    assert f"{len(battle.report['dice'])} dice, round by round" in page
    assert page.count('<tr class="fate-') == 3


def test_a_fireship_attack_lists_each_attack_and_its_dice(world: World) -> None:
    targets = _ships(world.fr)[:2]
    fireships = [
        ShipFactory.create(fleet=world.channel_fleet, nation=world.gb, name=f"Fire {k}", ship_class="fireship")
        for k in range(2)
    ]
    result = fireships_attack(
        "brest",
        [f.pk for f in fireships],
        [FireshipTarget(t.pk, "ready", True) for t in targets],
        3,
        DEFAULT_RULESET,
        SeededDice(4),
        StrategicLog(),
    )
    names = {s.pk: s.name for s in [*targets, *fireships]}
    battle = Battle.objects.create(
        campaign=world.campaign,
        turn=world.turn,
        kind=Battle.Kind.FIRESHIPS,
        sea_zone=world.biscay,
        port=world.brest,
        place="brest",
        seed=4,
        sides=[{"name": "Channel Fleet", "nations": ["GB"]}, {"name": "Ships in Brest", "nations": ["FR"]}],
        report={
            "type": "fireships",
            "seed": 4,
            "dice_offset": 0,
            "attacks": [
                {
                    "fireship": names[a.fireship_id],
                    "fireship_ref": a.fireship_id,
                    "target": names[a.target_id],
                    "target_ref": a.target_id,
                    "fort_die": None if a.fort_die is None else a.fort_die.to_dict(),
                    "attack_die": None if a.attack_die is None else a.attack_die.to_dict(),
                    "effect": a.effect.value,
                    "before": a.condition_before,
                    "after": a.condition_after,
                }
                for a in result.attacks
            ],
            "expended": [names[i] for i in result.expended],
            "unused": [names[i] for i in result.unused],
        },
    )
    view = battle_view(battle)
    dice = sum((a.fort_die is not None) + (a.attack_die is not None) for a in result.attacks)
    assert dice > 0 and len(view.dice) == dice and [d.n for d in view.dice] == list(range(1, dice + 1))
    page = client_for(world.fr.player).get(_url(battle)).content.decode()
    assert "Fireship attack at Brest" in page and "Fireship attacks" in page
    for attack in result.attacks:
        assert names[attack.fireship_id] in page


def test_battles_fought_before_seen_by_existed_are_seen_by_the_nations_that_fought_them(world: World) -> None:
    """Issue 9's data migration: who was allied at the time was not recorded, so an old battle opens
    to the nations of its sides (and, as before, to those whose turn report noted it)."""
    battle = fleet_action_battle(world.campaign, world.turn, _ships(world.gb), _ships(world.fr))
    assert battle.seen_by == []
    # Later migrations drop tables whose keys point at the turn; PostgreSQL refuses that while the
    # rows made above still have deferred key checks pending, so run those checks now.
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    executor = MigrationExecutor(connection)
    executor.migrate([("battles", "0003_battle_seen_by")])
    executor.loader.build_graph()
    executor.migrate([("battles", "0004_battle_seen_by_from_sides")])
    battle.refresh_from_db()
    assert battle.seen_by == ["FR", "GB"]


def test_the_battle_pages_and_the_simulator_carry_the_campaign_header_with_the_unread_count() -> None:
    """Every campaign page has the campaign's tabs, so the unread count shows on the battle list, a
    battle's report and the campaign's simulator too; a GM's nation rides along on their links."""
    p = three_powers()
    battle = battle_in(p.campaign, p.w.biscay, [["GB"], ["FR"]])
    conversation_start(
        campaign=p.campaign, sender=p.gb, author_id=p.nelson.pk, to=["FR"], subject="Terms", body="Peace?", now=now()
    )
    slug = p.campaign.slug
    pages = {
        "battles": reverse("battles:list", args=[slug]),
        "battle": reverse("battles:detail", args=[slug, battle.pk]),
        "simulator": reverse("campaign:simulator", args=[slug]),
    }
    for name, url in pages.items():
        html = client_for(p.villeneuve).get(url).content.decode()
        tabs = re.search(r'<nav class="tabs".*?</nav>', html, re.S)
        assert tabs is not None, name
        assert re.search(r"Dispatches\s*<span[^>]*>1</span>", tabs.group(0)), name
        assert "France" in html.split('<nav class="tabs"')[0], name  # the nation's own header
        current = "Simulator" if name == "simulator" else "Battles"
        assert re.search(rf'aria-current="page">{current}<', tabs.group(0)), name
    gm_list = client_for(p.gm).get(pages["battles"] + "?nation=ES").content.decode()
    assert (
        f'{pages["battle"]}?nation=ES"' in gm_list
        and f'{reverse("campaign:dashboard", args=[slug])}?nation=ES"' in gm_list
    )
