"""RULES.md §12.9, a settled reading that changed the program: a blockade of the port of a nation at
peace is no blockade (§4 "Blockade", §3 fog of war)."""

from __future__ import annotations

import pytest

from campaign.models import NationTurn, Relation
from fleets.models import Blockade, Fleet
from ports.models import LandUnit, Port
from rules.turn_events import PortBlockaded, PortLookedInto, event_from_json
from tests.factories import NationFactory, PortFactory
from tests.support.turns import events_seen, phases_run
from tests.worlds import World, fleet, sea_world

pytestmark = pytest.mark.django_db


def lisbon_watched(seed: int = 1) -> tuple[World, Port, Fleet]:
    """Portugal, at peace with everyone, holds Lisbon (in Biscay) with a squadron inside; a British
    squadron of two 74s at sea in Biscay has posture "blockade Lisbon"."""
    world = sea_world(seed=seed)
    pt = NationFactory.create(campaign=world.campaign, code="PT", name="Portugal", navy="PT", crew="E")
    NationTurn.objects.create(turn=world.turn, nation=pt)
    lisbon = PortFactory.create(owner=pt, sea_zone=world.biscay, key="lisbon", name="Lisbon", ep_value=1)
    fleet(world, pt, "Esquadra", "lisbon", [("3rd-74", 2), ("frigate", 1)])
    watch = fleet(
        world, world.gb, "Inshore Squadron", "biscay", [("3rd-74", 2)], posture="blockade", blockade_port=lisbon
    )
    return world, lisbon, watch


def _kinds(world: World, code: str, kind: type) -> list[object]:
    return [e for e in map(event_from_json, events_seen(world.turn, code)) if isinstance(e, kind)]


def test_a_blockade_of_a_neutral_port_is_no_blockade() -> None:
    """§12.9: "If no nation at war with the fleet owns P or has ships or land units in P, P is not
    blockaded: nothing is recorded or announced and the fleet sees nothing in P (§3: nothing of
    neutral fleets)"."""
    world, _lisbon, _watch = lisbon_watched()
    phases_run(world.turn, 3, 4)
    assert not Blockade.objects.exists()
    for code in ("GB", "FR", "PT"):
        assert not _kinds(world, code, PortBlockaded), code
        assert not _kinds(world, code, PortLookedInto), code
        assert not [e for e in events_seen(world.turn, code) if "blockade" in e["text"].lower()], code


def test_the_posture_stands_and_counts_once_a_nation_at_war_is_in_the_port() -> None:
    """§12.9: "its posture stands and counts again at the end of each later phase 4"; "A blockader
    sees the ships in the port it blockades" means the ships of the nations it blockades P against:
    a French squadron in Lisbon (France at war with Britain) makes it a blockade against France, and
    the British see the French ships, not the Portuguese."""
    world, lisbon, watch = lisbon_watched()
    fleet(world, world.fr, "Escadre", "lisbon", [("3rd-74", 1), ("frigate", 2)])
    phases_run(world.turn, 3, 4)
    watch.refresh_from_db()
    assert watch.posture == Fleet.Posture.BLOCKADE and watch.blockade_port == lisbon
    assert list(Blockade.objects.values_list("port", "fleet")) == [(lisbon.pk, watch.pk)]
    assert _kinds(world, "PT", PortBlockaded) and _kinds(world, "FR", PortBlockaded)
    (view,) = _kinds(world, "GB", PortLookedInto)
    assert isinstance(view, PortLookedInto)
    assert sorted((s.nation, s.ship_class) for s in view.ships) == [
        ("FR", "3rd-74"),
        ("FR", "frigate"),
        ("FR", "frigate"),
    ]
    assert "sees 3 ships in the port" in view.text


def test_land_units_of_a_nation_at_war_in_the_port_make_it_a_blockade() -> None:
    """§4 Blockade: "It blockades P against every nation at war with it that owns P or has ships or
    land units in P"; §12.9 needs one such nation. French guests ashore in Lisbon: a blockade against
    France, and no Portuguese ship is seen."""
    world, lisbon, watch = lisbon_watched()
    LandUnit.objects.create(campaign=world.campaign, nation=world.fr, port=lisbon, state=LandUnit.State.ASHORE)
    phases_run(world.turn, 3, 4)
    assert list(Blockade.objects.values_list("port", "fleet")) == [(lisbon.pk, watch.pk)]
    (view,) = _kinds(world, "GB", PortLookedInto)
    assert isinstance(view, PortLookedInto) and view.ships == ()


def test_a_blockade_of_an_enemy_port_still_shows_every_ship_inside() -> None:
    """§4: "A blockader sees the ships in the port it blockades without a roll" — Brest is French and
    France is at war with Britain: the blockade stands and all ten French ships are seen."""
    world = sea_world(seed=1)
    squadron = fleet(
        world, world.gb, "Inshore", "biscay", [("3rd-74", 2)], posture="blockade", blockade_port=world.brest
    )
    Relation.objects.filter(campaign=world.campaign).update(state=Relation.State.WAR)
    phases_run(world.turn, 3, 4)
    assert list(Blockade.objects.values_list("fleet", flat=True)) == [squadron.pk]
    (view,) = _kinds(world, "GB", PortLookedInto)
    assert isinstance(view, PortLookedInto) and len(view.ships) == 10
