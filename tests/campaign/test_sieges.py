"""Phase 6 through the pipeline: landings, sieges and captures (rules §7, §3 phases 6 and 9).

Dice come from the campaign seed (campaign seed, turn, phase, place). A test that needs a given
face picks the campaign seed whose dice show it, using the same derivation as the pipeline, and
then checks what the pipeline did against the rules and against the turn's stored dice log.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.utils import timezone

from battles.models import Battle
from campaign.models import LedgerEntry, Nation, Order, Relation, Turn
from campaign.tasks import turn_resolve
from campaign.turn.lifecycle import turn_claim
from campaign.turn.phase_06_sieges import fleets_beaten_this_turn
from fleets.models import Admiral, Blockade, Fleet, Ship
from ports.models import LandUnit, Port, SeaZone
from tests.factories import AdmiralFactory, FleetFactory, NationFactory, PortFactory, SeaZoneFactory, ShipFactory
from tests.support.sieges import ashore, garrison, seed_where, siege_dice
from tests.support.turns import open_turn, phases_run, report_texts
from tests.worlds import World, two_power_world

pytestmark = pytest.mark.django_db

SIEGES = 6


@dataclass
class Strait:
    """The two-power world with a strait beside Biscay, the Rock of Gibraltar in it (GB)."""

    world: World
    strait: SeaZone
    gibraltar: Port


def strait_world() -> Strait:
    world = two_power_world()
    strait = SeaZoneFactory.create(campaign=world.campaign, key="strait", name="The Strait", type="narrows")
    strait.adjacent.add(world.biscay)
    gibraltar = PortFactory.create(
        owner=world.gb,
        sea_zone=strait,
        key="gibraltar",
        name="Gibraltar",
        fortification=3,
        gibraltar=True,
        ep_value=2,
        dockyard=True,
    )
    return Strait(world, strait, gibraltar)


def invasion_fleet(nation: Nation, zone: SeaZone, units: int, *, name: str = "Armée d'Angleterre") -> Fleet:
    """A fleet at sea with a 74 and ``units`` transports, each carrying one land unit (§7)."""
    fleet = FleetFactory.create(nation=nation, name=name, sea_zone=zone, port=None)
    ShipFactory.create(fleet=fleet, name=f"{name} 74", line_position=1)
    for i in range(units):
        unit = LandUnit.objects.create(campaign=nation.campaign, nation=nation, state=LandUnit.State.EMBARKED)
        ShipFactory.create(
            fleet=fleet, name=f"{name} transport {i}", ship_class="transport", line_position=2 + i, cargo=unit
        )
    return fleet


def land_order(turn: Turn, nation: Nation, fleet: Fleet, port: str, units: int, position: int = 1) -> Order:
    return Order.objects.create(
        campaign=turn.campaign,
        turn=turn,
        nation=nation,
        position=position,
        kind=Order.Kind.LAND,
        fleet=fleet,
        body={"kind": "land", "fleet": fleet.pk, "port": port, "units": units},
    )


# --- landings ----------------------------------------------------------------------------------


def test_landing_at_an_enemy_port_puts_the_units_ashore_as_besiegers() -> None:
    """§7: "Landing happens in phase 6 [...] at a port in its zone: [...] enemy → besiegers"."""
    s = strait_world()
    w = s.world
    garrison(s.gibraltar, w.gb, 2)
    fleet = invasion_fleet(w.fr, s.strait, 3)
    order = land_order(w.turn, w.fr, fleet, "gibraltar", 2)
    phases_run(w.turn, SIEGES)
    order.refresh_from_db()
    assert order.outcome == Order.Outcome.DONE
    landed = LandUnit.objects.filter(nation=w.fr, state=LandUnit.State.ASHORE, port=s.gibraltar)
    assert landed.count() == 2
    # The first transports in line order give up their cargo; the third still carries its unit.
    transports = list(fleet.ships.filter(ship_class="transport").order_by("line_position"))
    assert [t.cargo_id is None for t in transports] == [True, True, False]
    s.gibraltar.refresh_from_db()
    assert s.gibraltar.siege_turns == 1


def test_landing_at_an_own_port_joins_its_garrison_and_at_an_allied_one_goes_ashore_as_guests() -> None:
    """§7: "own port → garrison; allied → guests"; guests besiege nobody (§10 allies)."""
    s = strait_world()
    w = s.world
    es = NationFactory.create(campaign=w.campaign, code="ES", name="Spain", navy="ES", crew="E")
    Relation.objects.create(
        campaign=w.campaign, a=min(w.fr, es, key=lambda n: n.pk), b=max(w.fr, es, key=lambda n: n.pk), state="alliance"
    )
    cadiz = PortFactory.create(owner=es, sea_zone=s.strait, key="cadiz", name="Cadiz")
    home = invasion_fleet(w.fr, w.biscay, 1, name="Brest Convoy")
    away = invasion_fleet(w.fr, s.strait, 1, name="Cadiz Convoy")
    land_order(w.turn, w.fr, home, "brest", 1, position=1)
    land_order(w.turn, w.fr, away, "cadiz", 1, position=2)
    phases_run(w.turn, SIEGES)
    assert LandUnit.objects.get(nation=w.fr, port=w.brest).state == LandUnit.State.GARRISON
    assert LandUnit.objects.get(nation=w.fr, port=cadiz).state == LandUnit.State.ASHORE
    cadiz.refresh_from_db()
    assert cadiz.siege_turns == 0 and cadiz.captor is None
    assert siege_dice(w.turn, "cadiz") == []


def test_landing_at_a_neutral_port_is_refused_skipped_and_reported() -> None:
    """§7: "neutral → refused"; an order that became impossible is skipped and reported (§3)."""
    s = strait_world()
    w = s.world
    pt = NationFactory.create(campaign=w.campaign, code="PT", name="Portugal", navy="PT", crew="E")
    PortFactory.create(owner=pt, sea_zone=s.strait, key="lisbon", name="Lisbon")
    fleet = invasion_fleet(w.fr, s.strait, 1)
    order = land_order(w.turn, w.fr, fleet, "lisbon", 1)
    phases_run(w.turn, SIEGES, 7, 9, 10)
    order.refresh_from_db()
    assert order.outcome == Order.Outcome.SKIPPED
    assert "neutral" in order.outcome_note
    assert LandUnit.objects.get(nation=w.fr).state == LandUnit.State.EMBARKED
    assert any("skipped" in text and "neutral" in text for text in report_texts(w.turn, w.fr))
    assert not any("skipped" in text for text in report_texts(w.turn, pt))


def test_a_fleet_that_retired_from_a_battle_this_turn_cannot_land() -> None:
    """§7: landing only "from a fleet that did not retire, break, evade or get beaten this turn"."""
    s = strait_world()
    w = s.world
    fleet = invasion_fleet(w.fr, s.strait, 1)
    Battle.objects.create(
        campaign=w.campaign,
        turn=w.turn,
        kind=Battle.Kind.FLEET_ACTION,
        sea_zone=s.strait,
        place="strait",
        sides=[{"name": "British", "nations": ["GB"]}, {"name": "French", "nations": ["FR"], "fleets": [fleet.pk]}],
        winner=0,
        report={"outcome": ["held", "retired"], "ships": []},
    )
    order = land_order(w.turn, w.fr, fleet, "gibraltar", 1)
    phases_run(w.turn, SIEGES)
    order.refresh_from_db()
    assert order.outcome == Order.Outcome.SKIPPED
    assert "retired, broke, evaded or was beaten" in order.outcome_note
    assert not LandUnit.objects.filter(state=LandUnit.State.ASHORE).exists()


def test_the_fleets_beaten_are_read_from_the_ship_refs_when_a_battle_names_no_fleets() -> None:
    """§4/§7: the sides' outcomes bar their fleets; ships sunk or captured tell nothing of their old fleet."""
    w = two_power_world()
    gb_ship, fr_ship = w.channel_fleet.ships.first(), w.brest_fleet.ships.first()
    assert gb_ship is not None and fr_ship is not None
    Battle.objects.create(
        campaign=w.campaign,
        turn=w.turn,
        kind=Battle.Kind.FLEET_ACTION,
        sea_zone=w.biscay,
        place="biscay",
        sides=[{"name": "British", "nations": ["GB"]}, {"name": "French", "nations": ["FR"]}],
        winner=0,
        report={
            "outcome": ["held", "broke"],
            "ships": [
                {"side": 0, "name": gb_ship.name, "fate": "intact", "ref": gb_ship.pk},
                {"side": 1, "name": fr_ship.name, "fate": "damaged", "ref": fr_ship.pk},
            ],
        },
    )
    assert fleets_beaten_this_turn(turn=w.turn) == frozenset({w.brest_fleet.pk})


def test_a_lost_or_captured_transport_loses_its_land_unit() -> None:
    """§7: "A lost or captured transport loses its unit"."""
    s = strait_world()
    w = s.world
    fleet = invasion_fleet(w.fr, s.strait, 2)
    sunk, taken = list(fleet.ships.filter(ship_class="transport").order_by("line_position"))
    units = [sunk.cargo, taken.cargo]
    Ship.objects.filter(pk=sunk.pk).update(condition=Ship.Condition.SUNK, fleet=None, lost_turn=1)
    Ship.objects.filter(pk=taken.pk).update(nation=w.gb, fleet=w.channel_fleet)
    phases_run(w.turn, SIEGES)
    for unit in units:
        assert unit is not None
        unit.refresh_from_db()
        assert unit.state == LandUnit.State.LOST and unit.port is None
    assert not Ship.objects.filter(cargo__isnull=False).exists()


# --- sieges -------------------------------------------------------------------------------------


def test_a_small_force_before_gibraltar_cannot_storm_it_and_the_rock_holds_turn_after_turn() -> None:
    """§7 [S]: G is the garrison × 5 at Gibraltar and the table is rolled only "if 2B ≥ G": three
    French units against two British ones (G = 10) never roll; the siege goes on, counted."""
    s = strait_world()
    w = s.world
    garrison(s.gibraltar, w.gb, 2)
    fleet = invasion_fleet(w.fr, s.strait, 3)
    land_order(w.turn, w.fr, fleet, "gibraltar", 3)
    for expected_turns in (1, 2, 3):
        turn = open_turn(w.campaign)
        assert turn_claim(turn_id=turn.pk, now=timezone.now())
        assert turn_resolve(turn.pk) == "done"
        s.gibraltar.refresh_from_db()
        assert s.gibraltar.owner_id == w.gb.pk and s.gibraltar.captor is None
        assert s.gibraltar.siege_turns == expected_turns
        assert siege_dice(turn, "gibraltar") == []
        assert LandUnit.objects.filter(port=s.gibraltar, state=LandUnit.State.ASHORE, nation=w.fr).count() == 3
        assert LandUnit.objects.filter(port=s.gibraltar, state=LandUnit.State.GARRISON, nation=w.gb).count() == 2
        # Everyone sees every port's sieges (§3 fog of war); the numbers go to the two sides.
        for nation in (w.gb, w.fr):
            assert any("Gibraltar (Great Britain), besieged by France, holds" in t for t in report_texts(turn, nation))
            assert any("B 3 against G 10; no roll" in t for t in report_texts(turn, nation))
    # GB's income left out the besieged Rock each turn (§2): base 3 + Portsmouth 2.
    incomes = LedgerEntry.objects.filter(nation=w.gb, kind=LedgerEntry.Kind.INCOME).values_list("amount", flat=True)
    assert list(incomes) == [5, 5, 5]


def test_a_garrison_losing_its_last_unit_to_the_siege_table_loses_the_port() -> None:
    """§7: "7–8 one garrison unit lost (the port taken if none is left)". B 2, G 1, FF 2, not
    blockaded: d10 − 2 forts + 1 (B ≥ 2G) − 2 (not blockaded); a natural 10 gives 7."""
    w = two_power_world()
    garrison(w.portsmouth, w.gb, 1)
    besiegers = ashore(w.portsmouth, w.fr, 2)
    seed_where(w, 1, SIEGES, "portsmouth", lambda f: f[0] == 10, [10])
    phases_run(w.turn, SIEGES)
    [die] = siege_dice(w.turn, "portsmouth")
    assert (die["raw"], die["mod"], die["result"]) == (10, -3, 7)
    w.portsmouth.refresh_from_db()
    assert w.portsmouth.captor_id == w.fr.pk and w.portsmouth.taken_turn == 1
    assert w.portsmouth.owner_id == w.gb.pk  # the owner changes after phase 9 (§7 [S])
    assert w.portsmouth.siege_turns == 0
    assert not LandUnit.objects.filter(nation=w.gb, state=LandUnit.State.GARRISON).exists()
    assert all(LandUnit.objects.get(pk=u.pk).state == LandUnit.State.ASHORE for u in besiegers)


def test_a_siege_whose_last_besieger_falls_ends_and_its_count_resets() -> None:
    """§7: "≤3 one besieging unit lost (the siege train last) [...] A siege with no besiegers left
    ends, and its count resets"; "+1 per earlier consecutive turn this port ended phase 6 besieged"."""
    w = two_power_world()
    garrison(w.portsmouth, w.gb, 1)
    [train] = ashore(w.portsmouth, w.fr, 1, trains=1)
    Port.objects.filter(pk=w.portsmouth.pk).update(siege_turns=2)
    seed_where(w, 1, SIEGES, "portsmouth", lambda f: f[0] == 1, [10])
    phases_run(w.turn, SIEGES, 7, 9, 10)
    [die] = siege_dice(w.turn, "portsmouth")
    # −2 forts, +2 for two earlier turns, −2 not blockaded, +1 siege train.
    assert die["mod"] == -1 and "turns +2" in str(die["detail"])
    train.refresh_from_db()
    assert train.state == LandUnit.State.LOST
    w.portsmouth.refresh_from_db()
    assert w.portsmouth.siege_turns == 0 and w.portsmouth.owner_id == w.gb.pk
    assert any("The siege has ended" in t for t in report_texts(w.turn, w.gb))


def test_a_blockade_against_the_owner_adds_two_to_the_siege_roll() -> None:
    """§7: "+2 if blockaded against the owner else −2"; the blockade is this turn's (§4)."""
    w = two_power_world()
    garrison(w.portsmouth, w.gb, 1)
    ashore(w.portsmouth, w.fr, 1)
    blockaders = FleetFactory.create(
        nation=w.fr, name="Blockaders", sea_zone=w.channel, port=None, posture="blockade", blockade_port=w.portsmouth
    )
    ShipFactory.create(fleet=blockaders, name="Blockader 74")
    Blockade.objects.create(campaign=w.campaign, turn=1, port=w.portsmouth, fleet=blockaders)
    phases_run(w.turn, SIEGES)
    [die] = siege_dice(w.turn, "portsmouth")
    assert die["mod"] == -2 + 2 and "blockade +2" in str(die["detail"])


# --- captures -----------------------------------------------------------------------------------


def test_a_captured_port_changes_hands_after_phase_9_with_its_ships_keels_and_guns() -> None:
    """§7 "Capture": "a port taken in turn T changes owner after phase 9 of T (so T's income from it
    is 0) [...] In T+1 the port is settling [...] From T+2 it works normally for its new owner";
    "the besiegers become its garrison, the old garrison is removed, batteries pass to the captor,
    and every ship in the port of a nation at war with the captor is captured in its condition
    (afloat, in ordinary or building, keeping build turns)"."""
    s = strait_world()
    w = s.world
    es = NationFactory.create(campaign=w.campaign, code="ES", name="Spain", navy="ES", crew="E")
    Port.objects.filter(pk=s.gibraltar.pk).update(batteries=4, commander="B")
    # An empty garrison: the landing takes the Rock without a roll (§7 "G = 0: the port is taken").
    station = FleetFactory.create(nation=w.gb, name="Gibraltar Station", sea_zone=s.strait, port=s.gibraltar)
    in_ordinary = ShipFactory.create(fleet=station, name="HMS Old Rock", in_ordinary=True, crew="B")
    damaged = ShipFactory.create(fleet=station, name="HMS Battered", ship_class="frigate", condition="damaged")
    keel = Ship.objects.create(
        campaign=w.campaign,
        name="HMS Unfinished",
        ship_class="3rd-74",
        nation=w.gb,
        original_nation=w.gb,
        condition=Ship.Condition.BUILDING,
        crew="B",
        building_port=s.gibraltar,
        building_turns_left=2,
        laid_down_turn=1,
    )
    waiting = AdmiralFactory.create(nation=w.gb, name="Saumarez", grade="B", port=s.gibraltar)
    fleet = invasion_fleet(w.fr, s.strait, 1)
    land_order(w.turn, w.fr, fleet, "gibraltar", 1)

    phases_run(w.turn, SIEGES, 7)
    s.gibraltar.refresh_from_db()
    assert s.gibraltar.captor_id == w.fr.pk and s.gibraltar.taken_turn == 1
    assert s.gibraltar.owner_id == w.gb.pk  # the garrison's side keeps the guns until phase 9
    in_ordinary.refresh_from_db()
    assert in_ordinary.nation_id == w.gb.pk

    phases_run(w.turn, 9)
    # T's income from the port is 0 for the old owner: base 3 + Portsmouth 2 only.
    assert LedgerEntry.objects.get(nation=w.gb, turn=1, kind=LedgerEntry.Kind.INCOME).amount == 5
    s.gibraltar.refresh_from_db()
    assert (s.gibraltar.owner_id, s.gibraltar.captor_id, s.gibraltar.taken_turn) == (w.fr.pk, None, 1)
    assert s.gibraltar.batteries == 4 and s.gibraltar.commander == ""
    assert LandUnit.objects.get(nation=w.fr).state == LandUnit.State.GARRISON
    for ship, condition in ((in_ordinary, "ready"), (damaged, "damaged")):
        ship.refresh_from_db()
        assert ship.nation_id == w.fr.pk and ship.original_nation_id == w.gb.pk and ship.captured
        assert ship.condition == condition and ship.crew == w.fr.crew
        assert ship.fleet is not None and ship.fleet.nation_id == w.fr.pk and ship.fleet.port_id == s.gibraltar.pk
    in_ordinary.refresh_from_db()
    assert in_ordinary.in_ordinary
    keel.refresh_from_db()
    assert (keel.nation_id, keel.condition, keel.building_port_id, keel.building_turns_left) == (
        w.fr.pk,
        "building",
        s.gibraltar.pk,
        2,
    )
    waiting.refresh_from_db()
    assert waiting.status == Admiral.Status.LOST and waiting.port is None

    phases_run(w.turn, 10)
    assert any("Gibraltar passed from Great Britain to France" in t for t in report_texts(w.turn, es))
    assert not any("Taken with Gibraltar" in t for t in report_texts(w.turn, es))
    for nation in (w.gb, w.fr):
        [taken] = [t for t in report_texts(w.turn, nation) if t.startswith("Taken with Gibraltar")]
        assert "HMS Old Rock" in taken and "HMS Unfinished" in taken and "Saumarez" in taken

    # T+1: settling — the guns engineer reads owner and taken_turn; no income for anybody (§7).
    turn2 = open_turn(w.campaign)
    phases_run(turn2, SIEGES, 7, 9)
    s.gibraltar.refresh_from_db()
    assert s.gibraltar.owner_id == w.fr.pk and s.gibraltar.taken_turn == turn2.number - 1
    assert LedgerEntry.objects.get(nation=w.fr, turn=2, kind=LedgerEntry.Kind.INCOME).amount == 2 + 2  # base + Brest
    phases_run(turn2, 10)
    # T+2: a port of its new owner like any other.
    turn3 = open_turn(w.campaign)
    phases_run(turn3, SIEGES, 7, 9)
    assert LedgerEntry.objects.get(nation=w.fr, turn=3, kind=LedgerEntry.Kind.INCOME).amount == 2 + 2 + 2


def test_a_capture_spares_ships_of_nations_not_at_war_with_the_captor() -> None:
    """§7: only ships "of a nation at war with the captor" are captured with the port."""
    s = strait_world()
    w = s.world
    pt = NationFactory.create(campaign=w.campaign, code="PT", name="Portugal", navy="PT", crew="E")
    visitor = FleetFactory.create(nation=pt, name="Portuguese Squadron", sea_zone=s.strait, port=s.gibraltar)
    neutral = ShipFactory.create(fleet=visitor, name="Principe Real")
    ashore(s.gibraltar, w.fr, 1)
    phases_run(w.turn, SIEGES, 7, 9)
    neutral.refresh_from_db()
    assert neutral.nation_id == pt.pk and neutral.fleet_id == visitor.pk
    s.gibraltar.refresh_from_db()
    assert s.gibraltar.owner_id == w.fr.pk
