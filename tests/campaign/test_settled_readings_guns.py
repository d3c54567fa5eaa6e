"""RULES.md §12.5, a settled reading of phase 5 (running the guns, §6, §4 "Running the guns in a
campaign"): a port with nothing to fight."""

from __future__ import annotations

import pytest

from battles.models import Battle
from campaign.models import Turn
from fleets.models import Ship
from tests.campaign.test_guns import blockade, levant_world
from tests.support.turns import order_store, phase_events

pytestmark = pytest.mark.django_db


def test_12_5_running_the_guns_at_a_port_with_nothing_to_fight_is_skipped_without_dice() -> None:
    """§12.5: "An order to run the guns at a port that holds no ship of a nation at war with the attacker
    and whose guns are not held by such a nation is skipped and reported to its nation ("nothing to
    fight"): no dice, no battle record. An empty port whose guns are hostile is attacked as §6 says
    (barrage only, no winner)."

    Alexandria is empty (the Egyptian ships gone) and settling after its capture (nobody holds its guns,
    §7): the French order is skipped, told to France only, with no dice and no battle."""
    world = levant_world(turn_number=4)
    Ship.objects.filter(fleet=world.egyptian).delete()
    world.alexandria.taken_turn = 3  # settling in turn 4: nobody holds the guns
    world.alexandria.save(update_fields=["taken_turn"])
    blockade(world, world.french, world.alexandria)
    raid = order_store(world.turn, world.fr, "run_guns", fleet=world.french.pk, port="alexandria")
    events = phase_events(world.turn, 5)
    raid.refresh_from_db()
    assert raid.outcome == "skipped" and "nothing to fight at Alexandria" in raid.outcome_note
    assert not Battle.objects.filter(campaign=world.campaign).exists()
    told = [e for e in events if "nothing to fight" in e["text"]]
    assert told and all(e["nations"] == ["FR"] for e in told)
    assert not [d for d in Turn.objects.get(pk=world.turn.pk).dice_log if d.get("place") == "alexandria"]


def test_12_5_an_empty_port_whose_guns_are_hostile_is_attacked_by_its_barrage_with_no_winner() -> None:
    """§12.5: "An empty port whose guns are hostile is attacked as §6 says (barrage only, no winner)."
    Alexandria empty, its Egyptian guns manned: the French run them and take the barrage."""
    world = levant_world()
    Ship.objects.filter(fleet=world.egyptian).delete()
    blockade(world, world.french, world.alexandria)
    raid = order_store(world.turn, world.fr, "run_guns", fleet=world.french.pk, port="alexandria")
    phase_events(world.turn, 5)
    raid.refresh_from_db()
    assert raid.outcome == "done"
    battle = Battle.objects.get(campaign=world.campaign, kind="running_the_guns")
    assert battle.winner is None
    # Barrage only: every ship in the report is a French one under the port's guns.
    french = set(Ship.objects.filter(original_nation=world.fr).values_list("pk", flat=True))
    assert battle.report["ships"] and {r["ref"] for r in battle.report["ships"]} <= french
