"""Phase 3: fleet organisation, embarkation, movement in two steps, contacts and port capacity
(rules §3, §4, §0, §7), run one phase at a time with ``phase_run``.

Where dice decide, the campaign seed was checked to give the case under test, and the test also
checks that the stored dice log agrees with what happened.
"""

from __future__ import annotations

from typing import Any

import pytest

from battles.models import Engagement
from campaign.models import Order, Relation, Turn
from campaign.orders.errors import OrderRefused, RefusalCode
from campaign.orders.validator import order_validate
from fleets.models import Admiral, Fleet, Ship
from ports.models import LandUnit, Port
from rules.turn_events import ContactMade, event_from_json
from tests.factories import AdmiralFactory, NationFactory
from tests.support.turns import events_seen, order_store, phases_run, seen, where
from tests.worlds import World, fleet, sea_world, zone

pytestmark = pytest.mark.django_db


def dice_log(world: World) -> list[dict[str, Any]]:
    return list(Turn.objects.get(pk=world.turn.pk).dice_log)


def outcome(o: Order) -> tuple[str, str]:
    o.refresh_from_db()
    return o.outcome, o.outcome_note


# --- standing orders and fleet organisation -----------------------------------------------------------


def test_standing_orders_set_posture_battle_orders_and_line_order() -> None:
    """§3: posture, line order and battle standing orders are standing orders; §4: "each fleet in
    the order its player set (default: class EP descending, then ship id), flagship first"."""
    world = sea_world()
    gb_fleet = world.channel_fleet
    ships = list(gb_fleet.ships.order_by("id"))
    order_store(world.turn, world.gb, "posture", fleet=gb_fleet.pk, posture="blockade", port="brest")
    order_store(world.turn, world.gb, "battle_orders", fleet=gb_fleet.pk, after_battle="continue", retreat_zone="downs")
    order_store(world.turn, world.gb, "line_order", fleet=gb_fleet.pk, ships=[ships[3].pk, ships[1].pk])
    phases_run(world.turn, 3)
    gb_fleet.refresh_from_db()
    assert (gb_fleet.posture, gb_fleet.blockade_port, gb_fleet.after_battle) == ("blockade", world.brest, "continue")
    assert gb_fleet.retreat_zone == zone(world, "downs")
    line = list(gb_fleet.ships.order_by("line_position").values_list("pk", flat=True))
    assert line[:2] == [ships[3].pk, ships[1].pk]
    assert line[2:] == [s.pk for s in ships if s.pk not in (ships[3].pk, ships[1].pk)]


def test_a_merged_fleet_takes_the_oldest_left_port_date_and_a_formed_one_inherits_it() -> None:
    """§8: "(c) it left an own or allied port this turn or in one of the two previous turns (a merged
    fleet takes the oldest date; split fleets inherit)"; §3 fleet organisation in one place only."""
    world = sea_world()
    Turn.objects.filter(pk=world.turn.pk).update(number=5)
    world.turn.refresh_from_db()
    older = fleet(world, world.gb, "Inshore", "channel", left_port_turn=2)
    newer = fleet(world, world.gb, "Offshore", "channel", left_port_turn=4, in_supply=False)
    elsewhere = fleet(world, world.gb, "Western", "downs", left_port_turn=4)
    order_store(world.turn, world.gb, "merge", fleet=older.pk, into=newer.pk)
    picked = list(newer.ships.values_list("pk", flat=True)[:2])
    far = elsewhere.ships.earliest("id")
    order_store(world.turn, world.gb, "form_fleet", ships=[*picked, far.pk], name="Detached")
    phases_run(world.turn, 3)
    newer.refresh_from_db()
    assert newer.left_port_turn == 2 and newer.in_supply is False
    assert older.ships.count() == 0 and newer.ships.count() == 4
    detached = Fleet.objects.get(campaign=world.campaign, name="Detached")
    assert detached.left_port_turn == 2 and detached.in_supply is False and detached.created_turn == 5
    assert set(detached.ships.values_list("pk", flat=True)) == set(picked)  # the far ship stays put
    assert Ship.objects.get(pk=far.pk).fleet_id == elsewhere.pk
    assert any("; 1 was elsewhere" in text for text in seen(world.turn, "GB"))


def test_ships_transfer_only_within_one_place() -> None:
    """§3 fleet organisation: ships move between fleets in the same place only."""
    world = sea_world()
    here = fleet(world, world.gb, "Here", "channel")
    there = fleet(world, world.gb, "There", "downs")
    moved = order_store(
        world.turn, world.gb, "transfer", ships=list(there.ships.values_list("pk", flat=True)), to_fleet=here.pk
    )
    phases_run(world.turn, 3)
    assert outcome(moved)[0] == "skipped"
    assert here.ships.count() == 3 and there.ships.count() == 3


def test_an_admiral_takes_command_in_the_same_place_only() -> None:
    """§0: "Appoint admiral X to fleet F" takes effect "when both are in the same place;
    unassigned admirals wait in a port"."""
    world = sea_world()
    nelson = AdmiralFactory.create(nation=world.gb, name="Nelson", grade="A", port=world.portsmouth)
    collingwood = AdmiralFactory.create(nation=world.gb, name="Collingwood", grade="B", port=world.portsmouth)
    at_sea = fleet(world, world.gb, "Western", "channel")
    first = order_store(world.turn, world.gb, "appoint", admiral="Nelson", fleet=world.channel_fleet.pk)
    second = order_store(world.turn, world.gb, "appoint", admiral="Collingwood", fleet=at_sea.pk)
    phases_run(world.turn, 3)
    assert outcome(first)[0] == "done" and outcome(second)[0] == "skipped"
    world.channel_fleet.refresh_from_db()
    nelson.refresh_from_db()
    assert world.channel_fleet.admiral == nelson and nelson.port is None
    assert Admiral.objects.get(pk=collingwood.pk).port == world.portsmouth


def test_units_embark_onto_empty_transports_of_an_own_fleet_at_sea_in_the_ports_zone() -> None:
    """§7: "Embarking and re-embarking happen at the start of phase 3, onto empty transports of an
    own fleet in that port or at sea in its zone" (one unit per transport)."""
    world = sea_world()
    convoy = fleet(world, world.gb, "Convoy", "channel", [("frigate", 1), ("transport", 2)])
    units = [LandUnit.objects.create(campaign=world.campaign, nation=world.gb, port=world.portsmouth) for _ in range(3)]
    embark = order_store(world.turn, world.gb, "embark", fleet=convoy.pk, port="portsmouth", units=3)
    phases_run(world.turn, 3)
    assert outcome(embark)[0] == "done" and "of 3 ordered" in outcome(embark)[1]
    loaded = Ship.objects.filter(fleet=convoy, ship_class="transport", cargo__isnull=False)
    assert loaded.count() == 2
    states = sorted(LandUnit.objects.filter(pk__in=[u.pk for u in units]).values_list("state", flat=True))
    assert states == ["embarked", "embarked", "garrison"]


# --- movement ------------------------------------------------------------------------------------------


def test_a_fleet_sails_two_steps_and_leaving_its_port_is_dated() -> None:
    """§4: "A move order is a path of at most 2 steps"; a step may "leave a port into its zone";
    §8: left_port_turn is set when it leaves an own or allied port."""
    world = sea_world()
    sails = order_store(world.turn, world.gb, "move", fleet=world.channel_fleet.pk, path=["sea", "downs"])
    western = fleet(world, world.gb, "Western", "approaches")
    order_store(world.turn, world.gb, "move", fleet=western.pk, path=["channel", "north-sea", "downs"])
    phases_run(world.turn, 3)
    assert where(world.channel_fleet) == ("downs", None)
    assert world.channel_fleet.left_port_turn == 1
    assert outcome(sails)[0] == "done"
    assert where(western) == ("north-sea", None)
    assert any("Western may sail 2 steps" in t and ": Downs not sailed" in t for t in seen(world.turn, "GB"))


def test_a_fleet_with_a_disabled_ship_sails_one_step() -> None:
    """§4: "A move order is a path of at most 2 steps (1 if the fleet has a disabled ship)"."""
    world = sea_world()
    lame = fleet(world, world.gb, "Lame", "approaches")
    Ship.objects.filter(pk=lame.ships.earliest("id").pk).update(condition="disabled")
    order_store(world.turn, world.gb, "move", fleet=lame.pk, path=["channel", "downs"])
    phases_run(world.turn, 3)
    assert where(lame) == ("channel", None)
    assert any("it has a disabled ship" in t for t in seen(world.turn, "GB"))


def test_fleets_that_swap_zones_in_one_step_do_not_meet() -> None:
    """§4: "Fleets that swap zones in one step do not meet"."""
    world = sea_world()
    gb = fleet(world, world.gb, "Squadron A", "channel")
    fr = fleet(world, world.fr, "Escadre B", "downs")
    order_store(world.turn, world.gb, "move", fleet=gb.pk, path=["downs"])
    order_store(world.turn, world.fr, "move", fleet=fr.pk, path=["channel"])
    phases_run(world.turn, 3)
    assert where(gb) == ("downs", None) and where(fr) == ("channel", None)
    assert not Engagement.objects.exists()
    assert dice_log(world) == []


def test_a_fleet_never_enters_the_port_of_a_nation_neither_own_nor_allied() -> None:
    """§4: "Fleets never enter the port of a nation that is neither own nor allied"; an impossible
    step is skipped with the rest of the path and reported — by the move order's own check (issue 8:
    the same reason the order page gives)."""
    world = sea_world()
    raider = fleet(world, world.gb, "Raider", "biscay")
    body = {"kind": "move", "fleet": raider.pk, "path": ["port:brest"]}
    with pytest.raises(OrderRefused) as refused:
        order_validate(nation=world.gb, turn=world.turn, body=body)
    sails = order_store(world.turn, world.gb, "move", fleet=raider.pk, path=["port:brest"])
    phases_run(world.turn, 3)
    assert where(raider) == ("biscay", None)
    state, note = outcome(sails)
    assert state == "skipped" and "fleets enter only own or allied ports" in note
    assert refused.value.code == RefusalCode.PORT_NOT_FRIENDLY and refused.value.message.endswith(f"step 1: {note}.")


def test_ships_in_ordinary_stay_behind_and_a_laid_up_fleet_does_not_sail() -> None:
    """§2: "A ship in ordinary cannot leave port"; house rule: they stay in port in a fleet there."""
    world = sea_world()
    laid_up = list(world.channel_fleet.ships.order_by("id")[:2].values_list("pk", flat=True))
    Ship.objects.filter(pk__in=laid_up).update(in_ordinary=True)
    hulks = fleet(world, world.fr, "Hulks", "brest")
    Ship.objects.filter(fleet=hulks).update(in_ordinary=True)
    order_store(world.turn, world.gb, "move", fleet=world.channel_fleet.pk, path=["sea"])
    stuck = order_store(world.turn, world.fr, "move", fleet=hulks.pk, path=["sea"])
    phases_run(world.turn, 3)
    assert where(world.channel_fleet) == ("channel", None) and world.channel_fleet.ships.count() == 8
    keeper = Ship.objects.get(pk=laid_up[0]).fleet
    assert keeper is not None and keeper.port == world.portsmouth and keeper.name == "Portsmouth"
    assert set(keeper.ships.values_list("pk", flat=True)) == set(laid_up)
    assert where(hulks) == ("biscay", "brest") and outcome(stuck)[0] == "skipped"


def test_port_capacity_turns_away_the_fleet_whose_entry_would_exceed_it() -> None:
    """§4: "At most capacity × 10 ships (afloat, all nations, building excluded) may be in a port at
    the end of phase 3; fleets whose entry would exceed it stay in the zone" — settled in
    processing order."""
    world = sea_world()
    Port.objects.filter(pk=world.brest.pk).update(capacity=1)
    Ship.objects.filter(pk__in=list(world.brest_fleet.ships.values_list("pk", flat=True)[:2])).delete()
    Ship.objects.create(
        campaign=world.campaign, name="Keel", ship_class="3rd-74", nation=world.fr, original_nation=world.fr,
        crew="D", condition="building", building_port=world.brest, building_turns_left=2,
    )  # fmt: skip
    pair = fleet(world, world.fr, "Pair", "biscay", [("frigate", 2)])
    single = fleet(world, world.fr, "Single", "biscay", [("frigate", 1)])
    order_store(world.turn, world.fr, "move", fleet=pair.pk, path=["port:brest"])
    order_store(world.turn, world.fr, "move", fleet=single.pk, path=["port:brest"])
    phases_run(world.turn, 3)
    assert where(pair) == ("biscay", "brest")
    assert where(single) == ("biscay", None)
    assert any("Single could not enter Brest" in t for t in seen(world.turn, "FR"))


# --- contacts ------------------------------------------------------------------------------------------


def crossing(seed: int) -> tuple[World, Fleet, Fleet]:
    """GB (seeking, three frigates) and FR (avoiding) both sail through the Channel, to the North Sea
    and to Biscay: they are together there only after step 1."""
    world = sea_world(seed=seed)
    gb = fleet(world, world.gb, "Squadron", "downs", [("3rd-74", 3), ("frigate", 3)])
    fr = fleet(world, world.fr, "Escadre", "approaches", [("3rd-74", 3)], posture="avoid")
    order_store(world.turn, world.gb, "move", fleet=gb.pk, path=["channel", "north-sea"])
    order_store(world.turn, world.fr, "move", fleet=fr.pk, path=["channel", "biscay"])
    return world, gb, fr


INTERCEPT_SEED = 1  # checked: GB sights and intercepts in the Channel after step 1
ESCAPE_SEED = 3  # checked: GB's sighting fails


def test_an_intercepted_fleet_and_its_interceptor_stop_there() -> None:
    """§4: "Only one side seeks and it sighted → it may intercept: opposed d6 ... interceptor wins on
    ≥"; "An intercepted fleet and its interceptor stop there"."""
    world, gb, fr = crossing(INTERCEPT_SEED)
    phases_run(world.turn, 3)
    sighting, *intercept = [d for d in dice_log(world) if d["place"] == "channel"]
    assert sighting["purpose"] == "sighting" and (sighting["raw"] == 6 or sighting["result"] >= 4)
    assert [d["purpose"] for d in intercept] == ["intercept", "intercept"]
    assert intercept[0]["result"] >= intercept[1]["result"]  # the interceptor (GB) rolls first
    assert where(gb) == ("channel", None) and where(fr) == ("channel", None)
    engagement = Engagement.objects.get()
    assert (engagement.kind, engagement.place, engagement.step, engagement.sequence) == ("at_sea", "channel", 1, 1)
    assert engagement.sides[engagement.interceptor]["nations"] == ["GB"]
    assert [s["nations"] for s in engagement.sides] == [["FR"], ["GB"]]  # ordered by lead nation code
    assert any(": North Sea not sailed" in t for t in seen(world.turn, "GB"))
    assert any(": Bay of Biscay not sailed" in t for t in seen(world.turn, "FR"))
    assert any("they intercepted us" in t for t in seen(world.turn, "FR"))


def test_a_fleet_that_avoids_and_is_not_sighted_sails_on_unseen() -> None:
    """§4: "Otherwise no battle"; fog of war: a nation sees "enemies it sighted or fought this turn"."""
    world, gb, fr = crossing(ESCAPE_SEED)
    phases_run(world.turn, 3)
    (sighting,) = [d for d in dice_log(world) if d["place"] == "channel"]
    assert sighting["raw"] != 6 and sighting["result"] < 4
    assert where(gb) == ("north-sea", None) and where(fr) == ("biscay", None)
    assert not Engagement.objects.exists()
    assert not any("Escadre" in t or "FR ship" in t for t in seen(world.turn, "GB"))
    assert not any("Squadron" in t for t in seen(world.turn, "FR"))


def test_sighting_takes_every_modifier_and_the_port_move_target() -> None:
    """§4 sighting: "3+ against a fleet that entered or left a port in that step"; "+1 if the searching
    side has ≥ 3 heavy frigates, frigates, sloops or brigs at sea there"; "+1 if the target side has
    more than 20 ships at sea there or escorts transports (+1 at most)"; "+1 if the searching admiral
    is A"; "−1 in a gale season"."""
    world = sea_world(season="winter")
    hunter = fleet(world, world.gb, "Hunters", "channel", [("3rd-74", 2), ("frigate", 2), ("brig", 1)])
    hunter.admiral = AdmiralFactory.create(nation=world.gb, name="Nelson", grade="A")
    hunter.save()
    convoy = fleet(world, world.fr, "Flotilla", "channel", [("frigate", 1), ("transport", 21)], posture="avoid")
    order_store(world.turn, world.fr, "move", fleet=convoy.pk, path=["port:calais"])
    Port.objects.filter(key="calais").update(capacity=5)
    phases_run(world.turn, 3)
    sighting = next(d for d in dice_log(world) if d["purpose"] == "sighting")
    assert sighting["place"] == "channel" and sighting["subject"] == "GB>FR"
    assert sighting["mod"] == 1 + 1 + 1 - 1
    assert "needs 3" in sighting["detail"]
    for name in ("light ships +1", "large target or transports +1", "admiral A +1", "gale season -1"):
        assert name in sighting["detail"]
    caught = Engagement.objects.exists()
    assert where(convoy) == (("channel", None) if caught else ("channel", "calais"))


def test_a_sighting_shows_the_classes_and_conditions_of_the_ships_seen() -> None:
    """§4: "A sighting shows the sighted ships (class, condition) in the nation's turn report"."""
    world, _, fr = crossing(INTERCEPT_SEED)
    Ship.objects.filter(pk=fr.ships.earliest("id").pk).update(condition="damaged")
    phases_run(world.turn, 3)
    (event,) = [
        e
        for e in map(event_from_json, events_seen(world.turn, "GB"))
        if isinstance(e, ContactMade) and e.how == "sighted"
    ]
    assert sorted((s.ship_class, s.condition) for s in event.ships) == [
        ("3rd-74", "damaged"),
        ("3rd-74", "ready"),
        ("3rd-74", "ready"),
    ]
    assert not [e for e in events_seen(world.turn, "FR") if e["kind"] == "contact_made" and e["how"] == "sighted"]


def test_nations_not_at_war_do_not_meet() -> None:
    """§4 "Sides": "only nations at war fight"."""
    world = sea_world()
    es = NationFactory.create(campaign=world.campaign, code="ES", name="Spain", crew="E")
    a, b = sorted((es, world.gb), key=lambda n: n.pk)
    Relation.objects.create(campaign=world.campaign, a=a, b=b, state=Relation.State.PEACE)
    fleet(world, world.gb, "Squadron", "channel")
    fleet(world, es, "Armada", "channel")
    phases_run(world.turn, 3)
    assert dice_log(world) == [] and not Engagement.objects.exists()


def test_contacts_after_step_2_are_resolved_in_the_zones_entered_in_step_2() -> None:
    """§4: "after step 2, in the zones a fleet entered in step 2"."""
    world = sea_world(seed=2)  # checked: a battle follows in the Downs
    gb = fleet(world, world.gb, "Squadron", "approaches", [("3rd-74", 3), ("frigate", 3)])
    fr = fleet(world, world.fr, "Escadre", "downs", [("3rd-74", 3), ("frigate", 3)])
    order_store(world.turn, world.gb, "move", fleet=gb.pk, path=["channel", "downs"])
    phases_run(world.turn, 3)
    rolls = dice_log(world)
    assert rolls and all(d["place"] == "downs" and d["detail"].startswith("step 2") for d in rolls)
    assert {d["subject"] for d in rolls if d["purpose"] == "sighting"} <= {"FR>GB", "GB>FR"}
    engagement = Engagement.objects.get()
    assert (engagement.step, engagement.place, engagement.interceptor) == (2, "downs", None)  # both sought battle
    assert where(gb) == ("downs", None) and where(fr) == ("downs", None)


def test_a_sally_by_a_fleet_at_sea_is_skipped_with_the_order_checks_words() -> None:
    """§4 "Sally": only "a fleet in a port ... may leave port" to fight; phase 3 re-checks the sally
    order with the order's own check (issue 8), so the skip gives the order page's reason."""
    world = sea_world()
    raider = fleet(world, world.gb, "Raider", "biscay")
    with pytest.raises(OrderRefused) as refused:
        order_validate(nation=world.gb, turn=world.turn, body={"kind": "sally", "fleet": raider.pk})
    sally = order_store(world.turn, world.gb, "sally", fleet=raider.pk)
    phases_run(world.turn, 3)
    state, note = outcome(sally)
    assert (state, note) == (
        "skipped",
        "the fleet is at sea in Bay of Biscay; only a fleet in a port sallies (rules §4)",
    )
    assert refused.value.code == RefusalCode.AT_SEA and refused.value.message.endswith(f": {note}.")
