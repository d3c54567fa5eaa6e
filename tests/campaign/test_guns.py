"""Phase 5: garrison guns, fireships and running the guns (RULES.md §4, §6, §7, §9), through orders."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.db import transaction
from django.utils import timezone

from battles.models import Battle
from battles.selectors import guns_holder
from campaign.models import Campaign, Nation, NationTurn, Order, Relation, Turn
from campaign.turn.runner import phase_run
from fleets.models import Admiral, Blockade, Fleet, Ship
from ports.models import Port, SeaZone
from rules.dice import derive_seed
from rules.turn_events import event_from_json
from tests.factories import (
    AdmiralFactory,
    CampaignFactory,
    FleetFactory,
    NationFactory,
    PortFactory,
    SeaZoneFactory,
    ShipFactory,
)
from tests.support.turns import order_store, phase_events

pytestmark = pytest.mark.django_db

#: A campaign seed under which the Alexandria raid lasts two rounds (so the second barrage is seen).
ALEXANDRIA_SEED = 7


@dataclass
class Levant:
    campaign: Campaign
    turn: Turn
    fr: Nation
    eg: Nation
    levant: SeaZone
    alexandria: Port
    french: Fleet
    egyptian: Fleet


def relation(campaign: Campaign, a: Nation, b: Nation, value: str) -> None:
    low, high = sorted((a.pk, b.pk))
    Relation.objects.update_or_create(campaign=campaign, a_id=low, b_id=high, defaults={"state": value})


def levant_world(*, seed: int = ALEXANDRIA_SEED, french_ships: int = 24, turn_number: int = 1) -> Levant:
    """The seed's Running the Guns example: "A French fleet of 24 ships under Admiral Jenesequa ... the
    Egyptian fleet of five ships in Alexandria", Alexandria a 3/3 with no batteries."""
    campaign = CampaignFactory.create(slug="levant", name="Levant", seed=seed, turn_number=turn_number)
    fr = NationFactory.create(campaign=campaign, code="FR", name="France", navy="FR", crew="D")
    eg = NationFactory.create(campaign=campaign, code="EG", name="Egypt", navy="EG", crew="F")
    relation(campaign, fr, eg, "war")
    levant = SeaZoneFactory.create(campaign=campaign, key="levant", name="Levant", type="coastal")
    alexandria = PortFactory.create(
        owner=eg, sea_zone=levant, key="alexandria", name="Alexandria", fortification=3, capacity=3, batteries=0
    )
    jenesequa = AdmiralFactory.create(nation=fr, name="Jenesequa", grade="D")
    french = FleetFactory.create(nation=fr, name="Escadre", sea_zone=levant, admiral=jenesequa)
    for k in range(french_ships):
        ShipFactory.create(fleet=french, nation=fr, name=f"Vaisseau {k}", crew="D", line_position=k + 1)
    egyptian = FleetFactory.create(nation=eg, name="Egyptian Fleet", sea_zone=levant, port=alexandria)
    for k in range(5):
        ShipFactory.create(fleet=egyptian, nation=eg, name=f"Egyptian {k}", crew="F", line_position=k + 1)
    turn = Turn.objects.create(campaign=campaign, number=turn_number, year=1805, season="spring")
    NationTurn.objects.bulk_create([NationTurn(turn=turn, nation=n) for n in (fr, eg)])
    return Levant(campaign, turn, fr, eg, levant, alexandria, french, egyptian)


def blockade(world: Levant, fleet: Fleet, port: Port) -> None:
    """Phase 4's record that ``fleet`` blockades ``port`` this turn (RULES.md §4 "Blockade")."""
    Blockade.objects.create(campaign=world.campaign, turn=world.turn.number, port=port, fleet=fleet)


def assert_ships_follow_the_report(battle: Battle) -> None:
    """Every ship's row matches its fate in the stored report (sunk out of its fleet, captured ones
    owned by the other side, damaged and disabled as reported)."""
    sides = battle.sides
    for result in battle.report["ships"]:
        ship = Ship.objects.get(pk=result["ref"])
        fate = result["fate"]
        if fate == "sunk":
            assert ship.condition == "sunk" and ship.fleet is None and ship.lost_turn == battle.turn.number
        elif fate == "captured":
            takers = sides[result["captured_by"]]["nations"]
            assert ship.nation.code in takers and ship.fleet is not None and ship.condition in Ship.AFLOAT
        else:
            assert ship.condition == {"intact": "ready", "damaged": "damaged", "disabled": "disabled"}[fate]


# --- who holds the guns (§7) ------------------------------------------------------------------------------


def test_the_owner_holds_the_guns_even_in_the_turn_its_port_is_taken() -> None:
    """§7: "a port taken in turn T changes owner after phase 9 of T ... The garrison controls the guns
    until then [S]"."""
    world = levant_world(turn_number=4)
    port = world.alexandria
    assert guns_holder(port, 4) == world.eg.pk
    port.captor = world.fr
    port.taken_turn = 4
    assert guns_holder(port, 4) == world.eg.pk


def test_nobody_holds_the_guns_of_a_settling_port() -> None:
    """§7: "In T+1 the port is settling: no fortification or battery dice ... From T+2 it works normally
    for its new owner"."""
    world = levant_world(turn_number=4)
    port = world.alexandria
    port.taken_turn = 3
    assert guns_holder(port, 4) is None
    port.taken_turn = 2
    assert guns_holder(port, 4) == world.eg.pk


# --- running the guns (§4, §6) ---------------------------------------------------------------------------


def test_the_alexandria_raid_runs_the_guns_through_an_order() -> None:
    """§6 [S]: "Alexandria, FF 3, no batteries, 5 ships → 15 + 0 + 1 = 16 dice"; the seed: "If the admiral
    ... had opted to stay for another round, the French fleet would have taken another barrage of 15-16
    attack dice". §4: "a fleet ordered to "run the guns at P" attacks P if it blockades P"."""
    world = levant_world()
    blockade(world, world.french, world.alexandria)
    raid = order_store(world.turn, world.fr, "run_guns", fleet=world.french.pk, port="alexandria")
    line = list(Ship.objects.filter(fleet=world.french).order_by("line_position").values_list("pk", flat=True))
    events = phase_events(world.turn, 5)

    battle = Battle.objects.get(turn=world.turn, kind="running_the_guns")
    assert (battle.place, battle.sequence, battle.port, battle.sea_zone) == (
        "alexandria",
        1,
        world.alexandria,
        world.levant,
    )
    assert battle.seed == derive_seed(ALEXANDRIA_SEED, 1, 5, "alexandria")
    assert battle.sides[0]["nations"] == ["FR"] and battle.sides[1]["nations"] == ["EG"]
    report = battle.report
    assert report["type"] == "running_the_guns" and report["dice_offset"] == 0
    assert report["barrage"][0] == 16
    assert report["rounds"] >= 2, "ALEXANDRIA_SEED should give a second round"
    assert report["barrage"][1] in (15, 16)
    assert report["coastal_forts"] == 3
    assert battle.winner == report["winner"]
    assert [s["ref"] for s in report["ships"] if s["side"] == 0] == line
    assert_ships_follow_the_report(battle)
    raid.refresh_from_db()
    assert raid.outcome == "done" and "ran the guns of Alexandria" in raid.outcome_note
    told = [e for e in events if event_from_json(e).battle == battle.pk]
    assert len(told) == 1 and told[0]["nations"] == ["EG", "FR"]
    # The attacker breaks off into the port's zone, where it stays at sea.
    world.french.refresh_from_db()
    assert world.french.port is None and world.french.sea_zone == world.levant


def test_a_port_action_is_seen_by_the_nations_allied_to_a_side_at_the_time() -> None:
    """Issue 9: the Battle row keeps the nations that fought or were allied to a side when it was
    fought; a neutral is not among them."""
    world = levant_world()
    ally = NationFactory.create(campaign=world.campaign, code="ES", name="Spain", navy="ES", crew="D")
    NationFactory.create(campaign=world.campaign, code="US", name="United States", navy="US", crew="D")
    relation(world.campaign, ally, world.fr, "alliance")
    blockade(world, world.french, world.alexandria)
    order_store(world.turn, world.fr, "run_guns", fleet=world.french.pk, port="alexandria")
    phase_events(world.turn, 5)
    assert Battle.objects.get(turn=world.turn, kind="running_the_guns").seen_by == ["EG", "ES", "FR"]


def test_ottoman_and_egyptian_ships_in_alexandria_defend_it_together() -> None:
    """§4: "Side 1 = every ship in P of nations at war with the attacker"; §6: "+ floor(defender's ships in
    port not sunk or captured / 4)" counts them all: 16 dice with 3 Egyptian and 2 Ottoman ships."""
    world = levant_world()
    ot = NationFactory.create(campaign=world.campaign, code="OT", name="Ottoman Empire", navy="OT", crew="F")
    relation(world.campaign, ot, world.fr, "war")
    relation(world.campaign, ot, world.eg, "alliance")
    ottomans = FleetFactory.create(nation=ot, name="Kapudan Pasha", sea_zone=world.levant, port=world.alexandria)
    Ship.objects.filter(name__in=["Egyptian 3", "Egyptian 4"]).update(fleet=ottomans, nation=ot, original_nation=ot)
    blockade(world, world.french, world.alexandria)
    order_store(world.turn, world.fr, "run_guns", fleet=world.french.pk, port="alexandria")
    phase_events(world.turn, 5)
    battle = Battle.objects.get(turn=world.turn, kind="running_the_guns")
    assert battle.sides[1]["nations"] == ["EG", "OT"]
    assert battle.report["barrage"][0] == 16
    assert len([s for s in battle.report["ships"] if s["side"] == 1]) == 5
    assert_ships_follow_the_report(battle)


def test_a_rerun_of_the_phase_gives_the_same_result() -> None:
    """Issue 4 / §3: dice are seeded from (campaign seed, turn, phase, place), so a re-run gives the same
    result."""
    world = levant_world()
    blockade(world, world.french, world.alexandria)
    order_store(world.turn, world.fr, "run_guns", fleet=world.french.pk, port="alexandria")

    class Rollback(Exception):
        pass

    with pytest.raises(Rollback), transaction.atomic():
        phase_events(world.turn, 5)
        first = Battle.objects.get(turn=world.turn).report
        raise Rollback
    assert not Battle.objects.exists()
    phase_events(world.turn, 5)
    assert Battle.objects.get(turn=world.turn).report == first


def test_prizes_taken_by_the_attacker_join_its_lead_fleet_and_ships_taken_by_the_port_stay_in_it() -> None:
    """§4 "Prizes join the captor's lead fleet in the condition they were taken in"; §6 "its disabled ships
    and ships taken by the port stay behind (captured by the defender); it tows off its prizes"."""
    world = levant_world()
    blockade(world, world.french, world.alexandria)
    order_store(world.turn, world.fr, "run_guns", fleet=world.french.pk, port="alexandria")
    phase_events(world.turn, 5)
    battle = Battle.objects.get(turn=world.turn)
    for result in battle.report["ships"]:
        ship = Ship.objects.get(pk=result["ref"])
        if result["fate"] != "captured":
            continue
        if result["side"] == 0:
            assert ship.nation == world.eg and ship.fleet is not None and ship.fleet.port == world.alexandria
            assert ship.crew == "F"  # "prizes their captor's" crew grade
        else:
            assert ship.nation == world.fr and ship.fleet == world.french and ship.crew == "D"
    taken = [r for r in battle.report["ships"] if r["fate"] == "captured"]
    assert taken, "ALEXANDRIA_SEED should see at least one ship taken"


def test_a_fleet_that_neither_blockades_nor_won_a_battle_there_cannot_run_the_guns() -> None:
    """§4: a fleet "attacks P if it blockades P or won a battle in P's zone this turn"."""
    world = levant_world()
    raid = order_store(world.turn, world.fr, "run_guns", fleet=world.french.pk, port="alexandria")
    events = phase_events(world.turn, 5)
    raid.refresh_from_db()
    assert raid.outcome == "skipped" and "neither blockades Alexandria nor won a battle" in raid.outcome_note
    assert not Battle.objects.filter(kind="running_the_guns").exists()
    assert any(e["nations"] == ["FR"] and "skipped" in e["text"] for e in events)


def test_a_fleet_that_won_a_battle_in_the_zone_may_run_the_guns() -> None:
    """§4: "... or won a battle in P's zone this turn" (phase 4's Battle rows)."""
    world = levant_world()
    Battle.objects.create(
        campaign=world.campaign,
        turn=world.turn,
        kind="fleet_action",
        sea_zone=world.levant,
        place="levant",
        sides=[{"name": "French", "nations": ["FR"]}, {"name": "Egyptian", "nations": ["EG"]}],
        winner=0,
    )
    raid = order_store(world.turn, world.fr, "run_guns", fleet=world.french.pk, port="alexandria")
    phase_events(world.turn, 5)
    raid.refresh_from_db()
    assert raid.outcome == "done"
    assert Battle.objects.filter(kind="running_the_guns", place="alexandria").count() == 1


def test_a_fleet_that_was_not_in_the_battle_its_nation_won_may_not_run_the_guns() -> None:
    """§4: the fleet itself must have won a battle in P's zone; phase 4's sides name their fleets."""
    world = levant_world()
    late = FleetFactory.create(nation=world.fr, name="Latecomers", sea_zone=world.levant)
    ShipFactory.create(fleet=late, nation=world.fr, name="Tardif", crew="D")
    Battle.objects.create(
        campaign=world.campaign,
        turn=world.turn,
        kind="fleet_action",
        sea_zone=world.levant,
        place="levant",
        sides=[
            {"name": "French", "nations": ["FR"], "fleets": [world.french.pk]},
            {"name": "Egyptian", "nations": ["EG"], "fleets": [world.egyptian.pk]},
        ],
        winner=0,
    )
    winner = order_store(world.turn, world.fr, "run_guns", fleet=world.french.pk, port="alexandria")
    other = order_store(world.turn, world.fr, "run_guns", fleet=late.pk, port="alexandria")
    phase_events(world.turn, 5)
    winner.refresh_from_db()
    other.refresh_from_db()
    assert (winner.outcome, other.outcome) == ("done", "skipped")
    assert "Latecomers neither blockades Alexandria nor won a battle" in other.outcome_note


def test_a_battle_lost_in_the_zone_does_not_allow_running_the_guns() -> None:
    """§4: only the winner of a battle in P's zone may run the guns (without a blockade)."""
    world = levant_world()
    Battle.objects.create(
        campaign=world.campaign,
        turn=world.turn,
        kind="fleet_action",
        sea_zone=world.levant,
        place="levant",
        sides=[{"name": "French", "nations": ["FR"]}, {"name": "Egyptian", "nations": ["EG"]}],
        winner=1,
    )
    raid = order_store(world.turn, world.fr, "run_guns", fleet=world.french.pk, port="alexandria")
    phase_events(world.turn, 5)
    raid.refresh_from_db()
    assert raid.outcome == "skipped"


def test_nobody_runs_the_guns_of_a_port_its_own_side_holds() -> None:
    """§4: "Nobody runs the guns of a port whose guns its own side holds"."""
    world = levant_world()
    gb = NationFactory.create(campaign=world.campaign, code="GB", name="Great Britain", navy="GB", crew="B")
    relation(world.campaign, gb, world.fr, "war")
    relation(world.campaign, world.eg, world.fr, "alliance")  # Egypt's guns are France's side's
    british = FleetFactory.create(nation=gb, name="Visitors", sea_zone=world.levant, port=world.alexandria)
    ShipFactory.create(fleet=british, nation=gb, name="Tigre", crew="B")
    blockade(world, world.french, world.alexandria)
    raid = order_store(world.turn, world.fr, "run_guns", fleet=world.french.pk, port="alexandria")
    phase_events(world.turn, 5)
    raid.refresh_from_db()
    assert raid.outcome == "skipped" and "held by its own side" in raid.outcome_note
    assert not Battle.objects.filter(kind="running_the_guns").exists()


def test_a_port_taken_last_turn_fires_no_fortification_or_battery_dice() -> None:
    """§7: "In T+1 the port is settling: no fortification or battery dice"; §4: "Fortification and battery
    dice count only if P's guns are held by a nation at war with the attacker"."""
    world = levant_world(turn_number=3)
    Port.objects.filter(pk=world.alexandria.pk).update(taken_turn=2, batteries=2)
    blockade(world, world.french, world.alexandria)
    order_store(world.turn, world.fr, "run_guns", fleet=world.french.pk, port="alexandria")
    phase_events(world.turn, 5)
    battle = Battle.objects.get(turn=world.turn, kind="running_the_guns")
    purposes = {d["purpose"] for d in battle.report["dice"]}
    assert "barrage_fort" not in purposes and "barrage_battery" not in purposes and "hot_shot" not in purposes
    assert battle.report["barrage"][0] == 1  # only floor(5 ships / 4) ship dice
    assert not Battle.objects.filter(kind="garrison_guns").exists()


def test_several_fleets_of_one_side_go_together_lead_fleet_first() -> None:
    """§4: "Several attacking fleets of one side go together, lead fleet first"; the lead fleet is the
    best-graded admiral's; §4 Line: "the lead fleet's line, then the other fleets by descending SOL"."""
    world = levant_world(french_ships=3)
    es = NationFactory.create(campaign=world.campaign, code="ES", name="Spain", navy="ES", crew="E")
    relation(world.campaign, es, world.fr, "alliance")
    relation(world.campaign, es, world.eg, "war")
    gravina = AdmiralFactory.create(nation=es, name="Gravina", grade="B")
    spanish = FleetFactory.create(nation=es, name="Armada", sea_zone=world.levant, admiral=gravina)
    for k in range(2):
        ShipFactory.create(fleet=spanish, nation=es, name=f"Navio {k}", crew="E", line_position=k + 1)
    for fleet in (world.french, spanish):
        blockade(world, fleet, world.alexandria)
    order_store(world.turn, es, "run_guns", fleet=spanish.pk, port="alexandria")
    order_store(world.turn, world.fr, "run_guns", fleet=world.french.pk, port="alexandria")
    phase_events(world.turn, 5)
    battle = Battle.objects.get(turn=world.turn, kind="running_the_guns")
    assert battle.sides[0]["nations"] == ["ES", "FR"]
    names = [s["name"] for s in battle.report["ships"] if s["side"] == 0]
    assert names == ["Navio 0", "Navio 1", "Vaisseau 0", "Vaisseau 1", "Vaisseau 2"]
    assert battle.report["sides"][0]["admiral"] == {"name": "Gravina", "grade": "B"}
    assert Order.objects.filter(kind="run_guns", outcome="done").count() == 2


def test_frigates_stay_out_of_the_line_when_ships_of_the_line_run_the_guns() -> None:
    """§4 Line: "Ships of the line and 4th rates form the line; frigates and smaller only when a side has
    nothing bigger; transports never"."""
    world = levant_world(french_ships=2)
    ShipFactory.create(fleet=world.french, nation=world.fr, name="Hortense", ship_class="frigate", crew="D")
    ShipFactory.create(fleet=world.french, nation=world.fr, name="Transport 1", ship_class="transport", crew="D")
    blockade(world, world.french, world.alexandria)
    order_store(world.turn, world.fr, "run_guns", fleet=world.french.pk, port="alexandria")
    phase_events(world.turn, 5)
    battle = Battle.objects.get(turn=world.turn, kind="running_the_guns")
    assert {s["class"] for s in battle.report["ships"] if s["side"] == 0} == {"3rd-74"}


# --- garrison guns (§4, §7 Treachery in Port) ------------------------------------------------------------


@dataclass
class Rock:
    world: Levant
    gb: Nation
    ru: Nation
    gibraltar: Port
    squadron: Fleet


def gibraltar_world(seed: int = ALEXANDRIA_SEED) -> Rock:
    """The seed's Treachery in Port: Russia, allied to England, in Gibraltar with a fleet."""
    world = levant_world(seed=seed, french_ships=1)
    gb = NationFactory.create(campaign=world.campaign, code="GB", name="Great Britain", navy="GB", crew="B")
    ru = NationFactory.create(campaign=world.campaign, code="RU", name="Russia", navy="RU", crew="D")
    relation(world.campaign, gb, ru, "alliance")
    straits = SeaZoneFactory.create(campaign=world.campaign, key="straits", name="Straits of Gibraltar", type="narrows")
    gibraltar = PortFactory.create(
        owner=gb, sea_zone=straits, key="gibraltar", name="Gibraltar", fortification=3, gibraltar=True, batteries=1
    )
    seniavin = AdmiralFactory.create(nation=ru, name="Seniavin", grade="C")
    squadron = FleetFactory.create(nation=ru, name="Squadron", sea_zone=straits, port=gibraltar, admiral=seniavin)
    for k in range(3):
        ShipFactory.create(fleet=squadron, nation=ru, name=f"Russian {k}", crew="D", line_position=k + 1)
    return Rock(world, gb, ru, gibraltar, squadron)


def test_garrison_guns_fire_at_an_ally_turned_enemy_inside_the_port() -> None:
    """Treachery in Port [S]: "the garrison remains in control of the port ... will be able to fire upon
    attacking ships in port as per Running the Guns"; §4 "Garrison guns": "5 × FF (Gibraltar 10 × FF)
    fortification dice at +1 with hot shot, plus battery dice, no ship dice, one round ... an 8 means
    taken by the port" — at Gibraltar 30 dice (+1 battery here)."""
    rock = gibraltar_world()
    world = rock.world
    Order.objects.create(
        campaign=world.campaign, turn=world.turn, nation=rock.ru, position=1, kind="declare_war",
        body={"kind": "declare_war", "nation": "GB"},
    )  # fmt: skip
    assert phase_run(turn_id=world.turn.pk, number=1, now=timezone.now())
    events = phase_events(world.turn, 5)
    battle = Battle.objects.get(turn=world.turn, kind="garrison_guns")
    report = battle.report
    assert battle.place == "gibraltar"
    assert battle.sides[0]["nations"] == ["RU"] and battle.sides[1]["nations"] == ["GB"]
    assert report["barrage"] == [31] and report["rounds"] == 1
    purposes = [d["purpose"] for d in report["dice"]]
    assert "barrage_ship" not in purposes and "fire" not in purposes
    assert_ships_follow_the_report(battle)
    for result in report["ships"]:
        if result["fate"] == "captured":
            ship = Ship.objects.get(pk=result["ref"])
            assert ship.nation == rock.gb and ship.fleet is not None and ship.fleet.port == rock.gibraltar
    # The barrage is a strategic roll too (§3): in the turn's dice log with the port as place.
    world.turn.refresh_from_db()
    logged = [d for d in world.turn.dice_log if d["place"] == "gibraltar"]
    assert [d["raw"] for d in logged] == [d["raw"] for d in report["dice"]]
    assert any(event_from_json(e).battle == battle.pk and e["nations"] == ["GB", "RU"] for e in events)


def test_garrison_guns_do_not_fire_at_allies() -> None:
    """§4: only "a port whose guns are held by a nation at war with ships inside it" fires."""
    rock = gibraltar_world()
    phase_events(rock.world.turn, 5)
    assert not Battle.objects.filter(kind="garrison_guns").exists()


def test_an_admiral_whose_flagship_is_sunk_by_the_garrison_is_lost() -> None:
    """§0: "An admiral whose flagship is sunk or captured in battle is lost"."""
    rock = gibraltar_world(seed=7)  # the barrage sinks the flagship
    relation(rock.world.campaign, rock.gb, rock.ru, "war")
    phase_events(rock.world.turn, 5)
    flagship = Battle.objects.get(kind="garrison_guns").report["ships"][0]
    assert (flagship["name"], flagship["fate"]) == ("Russian 0", "sunk")
    rock.squadron.refresh_from_db()
    assert Admiral.objects.get(name="Seniavin").status == "lost" and rock.squadron.admiral is None


def test_an_admiral_keeps_his_fleet_when_his_flagship_is_only_damaged() -> None:
    """§0: only a flagship "sunk or captured in battle" costs the admiral."""
    rock = gibraltar_world(seed=2)  # the flagship is only damaged
    relation(rock.world.campaign, rock.gb, rock.ru, "war")
    phase_events(rock.world.turn, 5)
    flagship = Battle.objects.get(kind="garrison_guns").report["ships"][0]
    assert flagship["fate"] == "damaged"
    rock.squadron.refresh_from_db()
    assert Admiral.objects.get(name="Seniavin").status == "active" and rock.squadron.admiral is not None
    assert Ship.objects.get(name="Russian 0").condition == "damaged"


def test_ships_taken_by_the_garrison_join_a_fleet_of_the_holder_in_the_port() -> None:
    """§4 "Garrison guns": "an 8 means taken by the port"; the prize joins the holder's fleet there (a new
    one named after the port when it has none), crewed at the captor's grade."""
    rock = gibraltar_world(seed=5)  # two ships run aground
    relation(rock.world.campaign, rock.gb, rock.ru, "war")
    phase_events(rock.world.turn, 5)
    taken = list(Ship.objects.filter(name__in=["Russian 0", "Russian 1"]).select_related("nation", "fleet"))
    assert {s.nation.code for s in taken} == {"GB"}
    assert {s.fleet.name for s in taken if s.fleet} == {"Gibraltar"}
    assert all(s.fleet and s.fleet.port == rock.gibraltar and s.crew == "B" for s in taken)
    assert Admiral.objects.get(name="Seniavin").status == "lost"  # his flagship was taken


# --- fireships (§9) -------------------------------------------------------------------------------------


def test_fireships_are_sent_in_before_running_the_guns_and_are_expended() -> None:
    """§9: "In phase 5, before running the guns, a fleet allowed to run the guns at P may send its
    fireship-class ships at the enemy ships in P; each is expended. ... If P's guns fire for the target's
    side, each fireship first takes one fortification die"."""
    world = levant_world(french_ships=3)
    fireships = [
        ShipFactory.create(fleet=world.french, nation=world.fr, name=f"Brulot {k}", ship_class="fireship", crew="D")
        for k in range(2)
    ]
    blockade(world, world.french, world.alexandria)
    attack = order_store(world.turn, world.fr, "fireships", fleet=world.french.pk, port="alexandria")
    order_store(world.turn, world.fr, "run_guns", fleet=world.french.pk, port="alexandria")
    phase_events(world.turn, 5)
    fire = Battle.objects.get(turn=world.turn, kind="fireships")
    raid = Battle.objects.get(turn=world.turn, kind="running_the_guns")
    assert fire.pk < raid.pk  # fireships first
    assert fire.seed == raid.seed == derive_seed(ALEXANDRIA_SEED, 1, 5, "alexandria")
    assert raid.report["dice_offset"] > 0  # the port's dice stream went on after the fireships
    for ship in fireships:
        ship.refresh_from_db()
        assert ship.condition == "expended" and ship.fleet is None and ship.lost_turn == 1
    assert [a["target"] for a in fire.report["attacks"]] == ["Egyptian 0", "Egyptian 1"]
    assert all(a["fort_die"] is not None for a in fire.report["attacks"])  # Egypt's guns fire for Egypt
    attack.refresh_from_db()
    assert attack.outcome == "done"
    world.turn.refresh_from_db()
    assert {d["purpose"] for d in world.turn.dice_log} >= {"fireship_fort"}
    # The fireships are out of the running of the guns.
    assert {s["class"] for s in raid.report["ships"] if s["side"] == 0} == {"3rd-74"}


def test_a_fleet_without_fireships_cannot_send_any() -> None:
    """§9: only "its fireship-class ships" are sent."""
    world = levant_world(french_ships=2)
    blockade(world, world.french, world.alexandria)
    attack = order_store(world.turn, world.fr, "fireships", fleet=world.french.pk, port="alexandria")
    phase_events(world.turn, 5)
    attack.refresh_from_db()
    assert attack.outcome == "skipped" and "no fireship" in attack.outcome_note


def test_a_disabled_ship_in_port_counts_for_the_barrage_and_stays_disabled() -> None:
    """§6 [S]: ship dice = floor(defender's ships in port not sunk or captured / 4): with one of the five
    Egyptian ships disabled the barrage is still 15 + 1 = 16 dice; the disabled ship fights no one."""
    world = levant_world()
    crippled = Ship.objects.filter(fleet__port=world.alexandria).order_by("id").last()
    assert crippled is not None
    Ship.objects.filter(pk=crippled.pk).update(condition="disabled")
    blockade(world, world.french, world.alexandria)
    order_store(world.turn, world.fr, "run_guns", fleet=world.french.pk, port="alexandria")
    phase_events(world.turn, 5)
    report = Battle.objects.get(turn=world.turn, kind="running_the_guns").report
    assert report["barrage"][0] == 16
    assert all(d["target"] != crippled.name for d in report["dice"] if d["purpose"] == "fire")
    assert next(s for s in report["ships"] if s["ref"] == crippled.pk)["fate"] == "disabled"  # stays in port
