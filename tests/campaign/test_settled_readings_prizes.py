"""RULES.md §12.12, a settled reading that changed the program: whose flag a prize takes on a side of
several nations (§4 "After a battle")."""

from __future__ import annotations

import pytest

from battles.models import Battle
from campaign.models import Nation, NationTurn, Relation
from fleets.models import Fleet, Ship
from tests.factories import AdmiralFactory, NationFactory
from tests.support.turns import phases_run
from tests.worlds import World, fleet, sea_world

pytestmark = pytest.mark.django_db

MIXED_SEED = 8  # checked: "Squadron 1" (British) boards and takes "Escadre 5"; "Escadre 1" is taken as winner


def mixed_side(seed: int) -> tuple[World, Nation, dict[str, Fleet]]:
    """Russia and Britain allied, both at war with France, all seeking in the Channel. The Russian
    "Eskadra" (four 74s, three frigates, admiral Seniavin, B) leads the allied side; the British
    "Squadron" (three 74s) sails with it; the French "Escadre" has seven 74s and three frigates."""
    world = sea_world(seed=seed)
    ru = NationFactory.create(campaign=world.campaign, code="RU", name="Russia", navy="RU", crew="D")
    NationTurn.objects.create(turn=world.turn, nation=ru)
    for other, state in ((world.gb, Relation.State.ALLIANCE), (world.fr, Relation.State.WAR)):
        a, b = sorted((ru, other), key=lambda n: n.pk)
        Relation.objects.create(campaign=world.campaign, a=a, b=b, state=state)
    eskadra = fleet(world, ru, "Eskadra", "channel", [("3rd-74", 4), ("frigate", 3)])
    eskadra.admiral = AdmiralFactory.create(nation=ru, name="Seniavin", grade="B")
    eskadra.save()
    squadron = fleet(world, world.gb, "Squadron", "channel", [("3rd-74", 3)])
    escadre = fleet(world, world.fr, "Escadre", "channel", [("3rd-74", 7), ("frigate", 3)])
    return world, ru, {"eskadra": eskadra, "squadron": squadron, "escadre": escadre}


def _boardings_won(battle: Battle) -> list[tuple[str, str]]:
    return [
        (d["ship"], d["target"])
        for day in battle.report["days"]
        for d in day["report"]["dice"]
        if d["purpose"] == "boarding" and d["effect"] == "wins"
    ]


def test_a_prize_takes_the_flag_of_the_nation_whose_ship_boarded_it() -> None:
    """§12.12: "A ship taken by boarding is a prize of the nation of the ship that boarded it; ships
    the winning side takes as winner (disabled ships, a breaking side's damaged ships, the ships not
    in the line of a side that broke or was beaten) are prizes of the side's lead nation. Each prize
    joins its nation's fleet in the zone — the side's lead fleet if that is its nation's, else its
    nation's fleet with most SOL there (ties: lower id) — in the condition it was taken in"."""
    world, ru, f = mixed_side(MIXED_SEED)
    phases_run(world.turn, 3, 4)
    (battle,) = Battle.objects.all()
    assert _boardings_won(battle) == [("Squadron 1", "Escadre 5")]
    boarded = Ship.objects.get(name="Escadre 5")
    assert (boarded.nation, boarded.fleet, boarded.crew) == (world.gb, f["squadron"], world.gb.crew)
    taken_as_winner = Ship.objects.get(name="Escadre 1")
    assert (taken_as_winner.nation, taken_as_winner.fleet, taken_as_winner.crew) == (ru, f["eskadra"], ru.crew)
    assert taken_as_winner.original_nation == world.fr and boarded.original_nation == world.fr


def test_a_prize_boarded_by_the_lead_nation_joins_the_lead_fleet() -> None:
    """§12.12: "Each prize joins its nation's fleet in the zone — the side's lead fleet if that is its
    nation's"; a prize boarded by a Russian ship flies the Russian flag in the Russian lead fleet."""
    world, ru, f = mixed_side(2)  # checked: "Eskadra 1" boards and takes "Escadre 1" and "Escadre 7"
    phases_run(world.turn, 3, 4)
    (battle,) = Battle.objects.all()
    won = _boardings_won(battle)
    assert ("Eskadra 1", "Escadre 1") in won and ("Squadron 1", "Escadre 5") in won
    assert (Ship.objects.get(name="Escadre 1").fleet, Ship.objects.get(name="Escadre 1").nation) == (f["eskadra"], ru)
    assert Ship.objects.get(name="Escadre 5").fleet == f["squadron"]
    assert Ship.objects.get(name="Escadre 5").nation == world.gb
