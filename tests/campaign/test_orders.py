"""Orders (rules §3–§10): every kind validated on submission, the order-list services, submit_orders.

The world: Great Britain at war with France, at peace with Russia, allied with Portugal. Zones in a
chain Channel — Western Approaches — Biscay — Iberia, and the Baltic off the Channel. GB's Home
Fleet lies in Portsmouth (10 ships of the line, one of them a first rate: RULES.md §1's example);
its Western Squadron is at sea in the Approaches.
"""

from __future__ import annotations

import io
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign.models import Campaign, LedgerEntry, Nation, NationTurn, Order, Relation, Turn
from campaign.orders.board import Board
from campaign.orders.choices import OrderChoices, order_desk_for_player
from campaign.orders.errors import CheckFailed, OrderRefused, OrdersRefused, RefusalCode
from campaign.orders.selectors import orders_committed_ep, orders_for_turn
from campaign.orders.services import order_add, order_update, order_withdraw, orders_replace
from campaign.orders.validator import CleanOrder, order_validate
from campaign.services import ledger_post
from fleets.models import Admiral, Fleet, Ship
from ports.models import LandUnit, Port, SeaZone
from tests.factories import (
    AdmiralFactory,
    CampaignFactory,
    FleetFactory,
    NationFactory,
    PortFactory,
    SeaZoneFactory,
    ShipFactory,
    TurnFactory,
)
from tests.support.played_campaign import kept

pytestmark = pytest.mark.django_db


@dataclass
class World:
    campaign: Campaign
    turn: Turn
    gb: Nation
    fr: Nation
    ru: Nation
    pt: Nation
    channel: SeaZone
    approaches: SeaZone
    biscay: SeaZone
    iberia: SeaZone
    baltic: SeaZone
    portsmouth: Port
    plymouth: Port
    brest: Port
    lisbon: Port
    kronstadt: Port
    home: Fleet
    western: Fleet
    brest_fleet: Fleet
    first_rate: Ship
    frigate: Ship


def relate(a: Nation, b: Nation, state: str) -> None:
    low, high = sorted((a, b), key=lambda n: n.pk)
    Relation.objects.create(campaign=a.campaign, a=low, b=high, state=state)


def fund(nation: Nation, amount: int) -> None:
    ledger_post(nation=nation, turn=1, amount=amount, kind=LedgerEntry.Kind.OPENING, reason="Opening balance")


@pytest.fixture
def w() -> World:
    """The orders' world, its rows copied in (built once, kept in the played-rows cache)."""
    return kept(_w, shift="exact", fresh_ids=True)


def _w() -> World:
    campaign = CampaignFactory.create(slug="orders-1805", name="Orders 1805", year=1805)
    turn = TurnFactory.create(campaign=campaign)
    gb = NationFactory.create(campaign=campaign, code="GB", name="Great Britain")
    fr = NationFactory.create(campaign=campaign, code="FR", name="France")
    ru = NationFactory.create(campaign=campaign, code="RU", name="Russia")
    pt = NationFactory.create(campaign=campaign, code="PT", name="Portugal")
    relate(gb, fr, Relation.State.WAR)
    relate(gb, pt, Relation.State.ALLIANCE)
    fund(gb, 100)
    zones = {
        key: SeaZoneFactory.create(campaign=campaign, key=key, name=name)
        for key, name in [
            ("channel", "The Channel"),
            ("approaches", "Western Approaches"),
            ("biscay", "Bay of Biscay"),
            ("iberia", "Coast of Iberia"),
            ("baltic", "The Baltic"),
        ]
    }
    zones["channel"].adjacent.add(zones["approaches"], zones["baltic"])
    zones["approaches"].adjacent.add(zones["biscay"])
    zones["biscay"].adjacent.add(zones["iberia"])
    portsmouth = PortFactory.create(owner=gb, sea_zone=zones["channel"], key="portsmouth", name="Portsmouth")
    plymouth = PortFactory.create(owner=gb, sea_zone=zones["approaches"], key="plymouth", name="Plymouth")
    brest = PortFactory.create(owner=fr, sea_zone=zones["biscay"], key="brest", name="Brest", fortification=3)
    lisbon = PortFactory.create(owner=pt, sea_zone=zones["iberia"], key="lisbon", name="Lisbon", dockyard=False)
    kronstadt = PortFactory.create(owner=ru, sea_zone=zones["baltic"], key="kronstadt", name="Kronstadt")
    home = FleetFactory.create(nation=gb, name="Home Fleet", sea_zone=zones["channel"], port=portsmouth)
    first_rate = ShipFactory.create(fleet=home, ship_class="1st", name="Victory", line_position=1)
    for i in range(9):
        ShipFactory.create(fleet=home, ship_class="3rd-74", name=f"Seventy-four {i}", line_position=i + 2)
    western = FleetFactory.create(nation=gb, name="Western Squadron", sea_zone=zones["approaches"])
    frigate = ShipFactory.create(fleet=western, ship_class="frigate", name="Indefatigable")
    ShipFactory.create(fleet=western, ship_class="frigate", name="Amazon")
    brest_fleet = FleetFactory.create(nation=fr, name="Brest Fleet", sea_zone=zones["biscay"], port=brest)
    ShipFactory.create(fleet=brest_fleet, ship_class="3rd-74", name="Redoutable")
    return World(
        campaign,
        turn,
        gb,
        fr,
        ru,
        pt,
        zones["channel"],
        zones["approaches"],
        zones["biscay"],
        zones["iberia"],
        zones["baltic"],
        portsmouth,
        plymouth,
        brest,
        lisbon,
        kronstadt,
        home,
        western,
        brest_fleet,
        first_rate,
        frigate,
    )


def check(w: World, body: Any, earlier: list[dict[str, Any]] | None = None, nation: Nation | None = None) -> CleanOrder:
    return order_validate(nation=nation or w.gb, turn=w.turn, body=body, earlier=earlier or [])


def refusal(w: World, body: Any, earlier: list[dict[str, Any]] | None = None) -> str:
    with pytest.raises(OrderRefused) as refused:
        check(w, body, earlier)
    return refused.value.message


def move(fleet: Fleet, *path: str) -> dict[str, Any]:
    return {"kind": "move", "fleet": fleet.pk, "path": list(path)}


def stored(nation: Nation) -> list[tuple[int, str]]:
    return list(Order.objects.filter(nation=nation).order_by("position").values_list("position", "kind"))


# --- the body itself --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ([1, 2], "Order 1: an order is a JSON object"),
        ({"fleet": 1}, 'Order 1 has no "kind"'),
        ({"kind": "bombard", "fleet": 1}, "Order 1 has an unknown kind the string 'bombard'"),
        ({"kind": "sally", "fleet": 1, "speed": 3}, "Order 1 (sally): unknown key speed; a sally order takes fleet."),
        ({"kind": "move", "fleet": 1}, "Order 1 (move): missing path."),
        ({"kind": "move", "fleet": "1", "path": ["sea"]}, 'Order 1 (move): "fleet" must be a whole number'),
        ({"kind": "move", "fleet": True, "path": ["sea"]}, '"fleet" must be a whole number, not true'),
        ({"kind": "lay_down", "class": "galleon", "name": "X", "port": "plymouth"}, '"class" must be one of'),
        ({"kind": "repair", "ship": 1, "on": "yes"}, '"on" must be true or false'),
    ],
)
def test_malformed_bodies_are_refused_naming_the_order_and_the_field(w: World, body: Any, expected: str) -> None:
    """Unknown keys, wrong types and unknown kinds are refused with a message naming the order."""
    assert expected in refusal(w, body)


def test_another_nations_fleet_is_refused_as_if_it_did_not_exist(w: World) -> None:
    """Fog of war (rules §3): the refusal names no French fleet."""
    message = refusal(w, move(w.brest_fleet, "sea"))
    assert message == f"Order 1 (move, fleet {w.brest_fleet.pk}): Great Britain has no fleet {w.brest_fleet.pk}."
    assert "Brest Fleet" not in message


def test_another_nations_ship_is_refused(w: World) -> None:
    french = Ship.objects.get(name="Redoutable")
    assert f"Great Britain has no ship {french.pk}" in refusal(w, {"kind": "lay_up", "ship": french.pk})


def test_an_unknown_zone_or_port_key_is_refused(w: World) -> None:
    assert "there is no sea zone 'atlantis'" in refusal(w, move(w.western, "atlantis"))
    assert "there is no port 'atlantis'" in refusal(w, {"kind": "run_guns", "fleet": w.western.pk, "port": "atlantis"})


# --- move (rules §4) -----------------------------------------------------------------------------------------------


def test_a_move_of_two_adjacent_steps_is_accepted_and_names_its_fleet(w: World) -> None:
    clean = check(w, move(w.western, "biscay", "iberia"))
    assert clean.kind == "move" and clean.fleet == w.western and clean.position == 1
    assert clean.body == {"kind": "move", "fleet": w.western.pk, "path": ["biscay", "iberia"]}


def test_a_path_of_three_steps_is_refused(w: World) -> None:
    """§4: "A move order is a path of at most 2 steps"."""
    message = refusal(w, move(w.home, "sea", "approaches", "biscay"))
    assert message.startswith("Order 1 (move, fleet 'Home Fleet'): the path has 3 steps")
    assert "at most 2 steps" in message


def test_a_step_to_a_zone_that_is_not_adjacent_is_refused(w: World) -> None:
    message = refusal(w, move(w.western, "iberia"))
    assert "step 1: Coast of Iberia is not adjacent to Western Approaches" in message


def test_a_fleet_with_a_disabled_ship_moves_one_step_only(w: World) -> None:
    """§4: "(1 if the fleet has a disabled ship)"."""
    w.frigate.condition = Ship.Condition.DISABLED
    w.frigate.save()
    assert check(w, move(w.western, "biscay")).kind == "move"
    message = refusal(w, move(w.western, "biscay", "iberia"))
    assert "a fleet with a disabled ship (Indefatigable) moves at most 1 step" in message


def test_a_fleet_in_port_leaves_with_sea_before_moving_on(w: World) -> None:
    assert check(w, move(w.home, "sea", "approaches")).body["path"] == ["sea", "approaches"]
    assert 'its first step must be "sea"' in refusal(w, move(w.home, "approaches"))
    assert '"sea" leaves a port, but the fleet is already at sea' in refusal(w, move(w.western, "sea"))


def test_ships_in_ordinary_cannot_leave_port(w: World) -> None:
    """§2: "A ship in ordinary cannot leave port"."""
    Ship.objects.filter(name="Seventy-four 0").update(in_ordinary=True)
    message = refusal(w, move(w.home, "sea"))
    assert "ships in ordinary cannot leave port (rules §2): Seventy-four 0 is in ordinary" in message


def test_ships_in_ordinary_transferred_out_earlier_in_the_list_let_the_fleet_sail(w: World) -> None:
    """§3 phase 3: fleet organisation comes before movement."""
    laid_up = Ship.objects.get(name="Seventy-four 0")
    laid_up.in_ordinary = True
    laid_up.save()
    hulks = [{"kind": "form_fleet", "ships": [laid_up.pk], "name": "Hulks"}]
    assert check(w, move(w.home, "sea", "approaches"), earlier=hulks).kind == "move"


def test_a_fleet_enters_an_own_or_allied_port_of_its_zone_only(w: World) -> None:
    """§4: "Fleets never enter the port of a nation that is neither own nor allied"."""
    assert check(w, move(w.western, "port:plymouth")).body["path"] == ["port:plymouth"]
    assert check(w, move(w.western, "biscay", "iberia")).kind == "move"
    lisbon_run = FleetFactory.create(nation=w.gb, name="Lisbon Run", sea_zone=w.iberia)
    ShipFactory.create(fleet=lisbon_run, ship_class="frigate")
    assert check(w, move(lisbon_run, "port:lisbon")).kind == "move"  # allied
    message = refusal(w, move(w.western, "biscay", "port:brest"))
    assert "Brest is France's and Great Britain is at war with it; fleets enter only own or allied ports" in message
    baltic = FleetFactory.create(nation=w.gb, name="Baltic Squadron", sea_zone=w.baltic)
    ShipFactory.create(fleet=baltic, ship_class="frigate")
    assert "Great Britain is at peace with it" in refusal(w, move(baltic, "port:kronstadt"))
    assert "Plymouth lies in Western Approaches, not in The Channel" in refusal(w, move(w.home, "sea", "port:plymouth"))


def test_a_second_move_order_for_one_fleet_is_refused(w: World) -> None:
    """One order of each kind per fleet per turn (the database's constraint), refused with a message."""
    order_add(nation=w.gb, body=move(w.western, "biscay"))
    with pytest.raises(OrderRefused) as refused:
        order_add(nation=w.gb, body=move(w.western, "channel"))
    assert refused.value.message == (
        "Order 2 (move, fleet 'Western Squadron'): fleet 'Western Squadron' already has a move order this turn "
        "(order 1); a fleet takes one order of each kind per turn — change or withdraw that one instead."
    )
    assert stored(w.gb) == [(1, "move")]


def test_the_board_checks_are_reusable_at_resolution(w: World) -> None:
    """The pipeline calls the same checks again when it resolves an order."""
    board = Board(w.campaign.pk)
    assert board.walk(nation=w.gb, zone=w.approaches, port=None, path=["biscay", "iberia"]) == (w.iberia, None)
    assert board.step(nation=w.gb, zone=w.channel, port=w.portsmouth, step="sea") == (w.channel, None)
    with pytest.raises(CheckFailed, match="not adjacent"):
        board.step(nation=w.gb, zone=w.channel, port=None, step="biscay")
    with pytest.raises(CheckFailed, match="neutral port is refused"):
        board.landing_check(nation=w.gb, port=w.kronstadt, zone=w.baltic)


# --- standing fleet orders --------------------------------------------------------------------------------------------


def test_a_blockade_names_its_port_and_other_postures_take_none(w: World) -> None:
    clean = check(w, {"kind": "posture", "fleet": w.western.pk, "posture": "blockade", "port": "brest"})
    assert clean.body == {"kind": "posture", "fleet": w.western.pk, "posture": "blockade", "port": "brest"}
    assert check(w, {"kind": "posture", "fleet": w.western.pk, "posture": "avoid"}).body["port"] is None
    assert "a blockade names the port" in refusal(w, {"kind": "posture", "fleet": w.western.pk, "posture": "blockade"})
    message = refusal(w, {"kind": "posture", "fleet": w.western.pk, "posture": "seek", "port": "brest"})
    assert '"port" goes only with the blockade posture' in message
    assert '"posture" must be one of seek, avoid, blockade' in refusal(
        w, {"kind": "posture", "fleet": w.western.pk, "posture": "hide"}
    )


def test_battle_orders_retreat_only_into_an_own_or_allied_port(w: World) -> None:
    body = {"kind": "battle_orders", "fleet": w.home.pk, "after_battle": "evade", "retreat_port": "lisbon"}
    assert check(w, body).body == {**body, "retreat_zone": None}
    body = {"kind": "battle_orders", "fleet": w.home.pk, "after_battle": "auto", "retreat_zone": "approaches"}
    assert check(w, body).body["retreat_port"] is None
    message = refusal(
        w, {"kind": "battle_orders", "fleet": w.home.pk, "after_battle": "continue", "retreat_port": "brest"}
    )
    assert "Brest is France's; a fleet retreats only into an own or allied port" in message


def test_a_line_order_lists_exactly_the_fleets_ships_afloat(w: World) -> None:
    ids = list(w.western.ships.order_by("-id").values_list("pk", flat=True))
    assert check(w, {"kind": "line_order", "fleet": w.western.pk, "ships": ids}).body["ships"] == ids
    message = refusal(w, {"kind": "line_order", "fleet": w.western.pk, "ships": ids[:1]})
    assert "lists exactly the fleet's ships afloat" in message and "it leaves out" in message
    message = refusal(w, {"kind": "line_order", "fleet": w.western.pk, "ships": [*ids, w.first_rate.pk]})
    assert f"{w.first_rate.pk} is not in the fleet" in message
    assert "more than once" in refusal(w, {"kind": "line_order", "fleet": w.western.pk, "ships": [ids[0], *ids]})


# --- running the guns, sallies, fireships -----------------------------------------------------------------------------


def test_running_the_guns_at_an_enemy_port_in_the_zone_the_move_ends_in(w: World) -> None:
    """The port is in the fleet's zone or the zone its move order ends in (listed before)."""
    run = {"kind": "run_guns", "fleet": w.western.pk, "port": "brest"}
    assert check(w, run, earlier=[move(w.western, "biscay")]).fleet == w.western
    assert "Brest lies in Bay of Biscay, but the fleet will be in Western Approaches" in refusal(w, run)


def test_running_the_guns_is_refused_at_a_port_of_a_nation_not_at_war(w: World) -> None:
    baltic = FleetFactory.create(nation=w.gb, name="Baltic Squadron", sea_zone=w.baltic)
    ShipFactory.create(fleet=baltic)
    message = refusal(w, {"kind": "run_guns", "fleet": baltic.pk, "port": "kronstadt"})
    assert "Great Britain is at peace with it; only the guns of a port of a nation at war can be run" in message
    assert "own port" in refusal(w, {"kind": "run_guns", "fleet": w.western.pk, "port": "plymouth"})


def test_a_fleet_in_port_sallies_and_one_at_sea_cannot(w: World) -> None:
    assert check(w, {"kind": "sally", "fleet": w.home.pk}).body == {"kind": "sally", "fleet": w.home.pk}
    assert "only a fleet in a port sallies" in refusal(w, {"kind": "sally", "fleet": w.western.pk})
    assert "a sallying fleet leaves port only to fight" in refusal(
        w, {"kind": "sally", "fleet": w.home.pk}, earlier=[move(w.home, "sea")]
    )


def test_fireships_need_fireship_class_ships(w: World) -> None:
    """§9: "a fleet allowed to run the guns at P may send its fireship-class ships"."""
    body = {"kind": "fireships", "fleet": w.western.pk, "port": "brest"}
    earlier = [move(w.western, "biscay")]
    assert "has no fireship" in refusal(w, body, earlier)
    ShipFactory.create(fleet=w.western, ship_class="fireship", name="Erebus")
    assert check(w, body, earlier).kind == "fireships"


# --- laying down and raising (rules §1, §2, §7) --------------------------------------------------------------------


def lay_down(name: str, ship_class: str = "1st", port: str = "plymouth") -> dict[str, Any]:
    return {"kind": "lay_down", "class": ship_class, "name": name, "port": port}


def test_a_lay_down_is_accepted_with_its_cost_and_a_cleaned_name(w: World) -> None:
    clean = check(w, lay_down("  Caledonia  "))
    assert clean.body == lay_down("Caledonia") and clean.cost == 20 and clean.fleet is None


def test_a_second_first_rate_in_one_list_is_refused_on_quota(w: World) -> None:
    """§1 example: GB 1805, 10 SOL of which 1 first rate: a second first rate is allowed (200 ≤ 220), then a
    third, counting the earlier lay-down order, is refused (300 > 240)."""
    with pytest.raises(OrdersRefused) as refused:
        orders_replace(nation=w.gb, bodies=[lay_down("Caledonia"), lay_down("Hibernia")])
    [error] = refused.value.errors
    assert error.startswith("Order 2 (lay down, 1st rate 'Hibernia'): 1st/2nd-rate quota (rules §1): in 1800–1808")
    assert "100×3=300 > 20×12=240" in error
    assert stored(w.gb) == []


def test_a_second_four_decker_in_one_list_is_refused_on_the_four_decker_limit(w: World) -> None:
    """§1: "at most one per nation at any time (afloat or building)", the earlier order counted."""
    message = refusal(w, lay_down("Leviathan", "four-decker"), earlier=[lay_down("Behemoth", "four-decker")])
    assert message.startswith("Order 2 (lay down, Four-decker 'Leviathan'): Four-decker limit (rules §1)")


def test_the_treasury_is_committed_across_lay_downs_and_raises(w: World) -> None:
    """§1: "checked against the treasury less the cost of the nation's other lay-down orders this turn";
    raising land units is paid from the same treasury (§7)."""
    orders = [
        lay_down("Caledonia"),  # 20
        {"kind": "raise", "unit": "siege_train", "port": "portsmouth"},  # 5
        lay_down("Ajax", "3rd-74"),  # 10
        lay_down("Thunderer", "3rd-74"),  # 10
        {"kind": "raise", "unit": "land_unit", "port": "plymouth"},  # 3
    ]
    assert orders_committed_ep(nation=w.gb, turn=w.turn) == 0
    ledger_post(nation=w.gb, turn=1, amount=-55, kind=LedgerEntry.Kind.ADJUSTMENT, reason="GM adjustment: test")
    kinds = [o.kind for o in orders_replace(nation=w.gb, bodies=orders[:4])]
    assert kinds == ["lay_down", "raise", "lay_down", "lay_down"]
    assert orders_committed_ep(nation=w.gb, turn=w.turn) == 45
    with pytest.raises(OrderRefused) as refused:
        order_add(nation=w.gb, body=orders[4])
    assert refused.value.message == (
        "Order 5 (raise, land unit at Plymouth): not enough EP (rules §1–§2): a land unit costs 3 EP; "
        "Great Britain has 45 EP, of which 45 EP are committed by the lay-downs and raises listed before this "
        "order, so 0 EP are available."
    )
    assert len(stored(w.gb)) == 4


def test_a_lay_down_is_refused_in_a_port_without_a_dockyard_or_not_own(w: World) -> None:
    PortFactory.create(owner=w.gb, sea_zone=w.channel, key="deal", name="Deal", dockyard=False)
    assert "Deal has no dockyard" in refusal(w, lay_down("Caledonia", port="deal"))
    assert "only in an own port" in refusal(w, lay_down("Caledonia", port="brest"))
    Port.objects.filter(pk=w.plymouth.pk).update(taken_turn=1)
    assert "Plymouth was taken in turn 1" in refusal(w, lay_down("Caledonia"))


def test_ship_names_are_unique_against_the_navy_and_the_earlier_lay_downs(w: World) -> None:
    assert "already has a ship named 'Victory'" in refusal(w, lay_down("Victory", "3rd-74"))
    message = refusal(w, lay_down("Ajax", "frigate"), earlier=[lay_down("Ajax", "3rd-74")])
    assert "order 1 already lays down a ship named 'Ajax'" in message


def test_land_units_are_raised_only_in_an_own_port_not_besieged(w: World) -> None:
    assert check(w, {"kind": "raise", "unit": "land_unit", "port": "portsmouth"}).cost == 3
    assert "only in an own port" in refusal(w, {"kind": "raise", "unit": "land_unit", "port": "lisbon"})
    Port.objects.filter(pk=w.plymouth.pk).update(siege_turns=1)
    assert "Plymouth is besieged" in refusal(w, {"kind": "raise", "unit": "siege_train", "port": "plymouth"})


# --- ship orders (rules §2) ----------------------------------------------------------------------------------------


def test_a_damaged_ship_in_an_own_dockyard_port_may_be_repaired(w: World) -> None:
    w.first_rate.condition = Ship.Condition.DAMAGED
    w.first_rate.save()
    clean = check(w, {"kind": "repair", "ship": w.first_rate.pk})
    assert clean.body == {"kind": "repair", "ship": w.first_rate.pk, "on": True} and clean.fleet is None
    assert "only a damaged or disabled ship is repaired" in refusal(
        w, {"kind": "repair", "ship": Ship.objects.get(name="Seventy-four 1").pk}
    )
    w.frigate.condition = Ship.Condition.DISABLED
    w.frigate.save()
    assert "Indefatigable is at sea" in refusal(w, {"kind": "repair", "ship": w.frigate.pk})
    assert check(w, {"kind": "repair", "ship": w.frigate.pk, "on": False}).body["on"] is False
    assert "already has a repair order this turn (order 1)" in refusal(
        w, {"kind": "repair", "ship": w.first_rate.pk}, earlier=[{"kind": "repair", "ship": w.first_rate.pk}]
    )


def test_two_ships_of_one_fleet_can_each_be_repaired(w: World) -> None:
    """Ship orders name no fleet, so the one-order-per-fleet rule does not stop a fleet's repairs."""
    ships = list(w.home.ships.all()[:2])
    Ship.objects.filter(pk__in=[s.pk for s in ships]).update(condition=Ship.Condition.DAMAGED)
    orders = orders_replace(nation=w.gb, bodies=[{"kind": "repair", "ship": s.pk} for s in ships])
    assert [o.fleet for o in orders] == [None, None]


def test_lay_up_and_recommission_in_an_own_port(w: World) -> None:
    assert check(w, {"kind": "lay_up", "ship": w.first_rate.pk}).body == {"kind": "lay_up", "ship": w.first_rate.pk}
    assert "is in commission, not in ordinary" in refusal(w, {"kind": "recommission", "ship": w.first_rate.pk})
    w.first_rate.in_ordinary = True
    w.first_rate.save()
    assert "already in ordinary" in refusal(w, {"kind": "lay_up", "ship": w.first_rate.pk})
    assert check(w, {"kind": "recommission", "ship": w.first_rate.pk}).kind == "recommission"
    assert "Indefatigable is at sea" in refusal(w, {"kind": "lay_up", "ship": w.frigate.pk})
    message = refusal(
        w, {"kind": "recommission", "ship": w.first_rate.pk}, earlier=[{"kind": "lay_up", "ship": w.first_rate.pk}]
    )
    assert "already has a lay_up or recommission order" in message


# --- fleet organisation and admirals ----------------------------------------------------------------------------------


def test_ships_transfer_between_fleets_in_one_place(w: World) -> None:
    in_port = FleetFactory.create(nation=w.gb, name="Inshore", sea_zone=w.channel, port=w.portsmouth)
    body = {"kind": "transfer", "ships": [w.first_rate.pk], "to_fleet": in_port.pk}
    clean = check(w, body)
    assert clean.fleet == in_port and clean.body == body
    message = refusal(w, {"kind": "transfer", "ships": [w.first_rate.pk], "to_fleet": w.western.pk})
    assert "Victory is in Portsmouth and Western Squadron is at sea in Western Approaches" in message
    assert "already in Home Fleet" in refusal(
        w, {"kind": "transfer", "ships": [w.first_rate.pk], "to_fleet": w.home.pk}
    )
    guard = FleetFactory.create(nation=w.gb, name="Guard Ships", sea_zone=w.channel, port=w.portsmouth)
    message = refusal(w, {**body, "to_fleet": guard.pk}, earlier=[body])
    assert "Victory is already moved by order 1" in message


def test_a_new_fleet_is_formed_from_ships_of_one_place_under_a_free_name(w: World) -> None:
    body = {"kind": "form_fleet", "ships": [w.first_rate.pk], "name": " Inshore  Squadron "}
    clean = check(w, body)
    assert clean.body == {"kind": "form_fleet", "ships": [w.first_rate.pk], "name": "Inshore Squadron"}
    assert clean.fleet is None
    assert "already has a fleet named 'Home Fleet'" in refusal(w, {**body, "name": "Home Fleet"})
    assert "at most 80 characters" in refusal(w, {**body, "name": "x" * 81})
    message = refusal(w, {**body, "ships": [w.first_rate.pk, w.frigate.pk]})
    assert "a new fleet is formed from ships in one place" in message
    other = Ship.objects.get(name="Seventy-four 3")
    assert "order 1 already forms a fleet named 'Inshore Squadron'" in refusal(
        w, {**body, "ships": [other.pk]}, earlier=[body]
    )


def test_fleets_merge_in_one_place_and_a_merged_fleet_takes_no_further_order(w: World) -> None:
    second = FleetFactory.create(nation=w.gb, name="Channel Squadron", sea_zone=w.channel, port=w.portsmouth)
    ShipFactory.create(fleet=second, ship_class="frigate")
    merge = {"kind": "merge", "fleet": second.pk, "into": w.home.pk}
    assert check(w, merge).fleet == second
    assert "fleets merge only in one place" in refusal(w, {"kind": "merge", "fleet": w.western.pk, "into": w.home.pk})
    assert "cannot be merged into itself" in refusal(w, {"kind": "merge", "fleet": w.home.pk, "into": w.home.pk})
    message = refusal(w, move(second, "sea"), earlier=[merge])
    assert "fleet 'Channel Squadron' is merged into 'Home Fleet' by order 1" in message


def test_an_active_admiral_of_the_nation_is_appointed(w: World) -> None:
    AdmiralFactory.create(nation=w.gb, name="Horatio Nelson", grade="A")
    AdmiralFactory.create(nation=w.gb, name="Lost Admiral", status=Admiral.Status.LOST)
    AdmiralFactory.create(nation=w.fr, name="Pierre Villeneuve")
    body = {"kind": "appoint", "admiral": "Horatio Nelson", "fleet": w.home.pk}
    assert check(w, body).fleet == w.home
    unknown = refusal(w, {**body, "admiral": "Pierre Villeneuve"})
    assert "Great Britain has no admiral named 'Pierre Villeneuve'" in unknown
    assert "Lost Admiral is lost" in refusal(w, {**body, "admiral": "Lost Admiral"})
    assert "already appointed by order 1" in refusal(w, {**body, "fleet": w.western.pk}, earlier=[body])


# --- embarking and landing (rules §7) ------------------------------------------------------------------------------


def transports(w: World, count: int, *, fleet: Fleet | None = None) -> Fleet:
    fleet = fleet or FleetFactory.create(nation=w.gb, name="Convoy", sea_zone=w.channel, port=w.portsmouth)
    for i in range(count):
        ShipFactory.create(fleet=fleet, ship_class="transport", name=f"Transport {fleet.pk}-{i}")
    return fleet


def test_units_embark_onto_empty_transports_in_their_port(w: World) -> None:
    convoy = transports(w, 2)
    for _ in range(3):
        LandUnit.objects.create(campaign=w.campaign, nation=w.gb, port=w.portsmouth)
    body = {"kind": "embark", "fleet": convoy.pk, "port": "portsmouth", "units": 2}
    assert check(w, body).fleet == convoy
    assert "has 2 empty transports" in refusal(w, {**body, "units": 3})
    assert '"units" must be at least 1' in refusal(w, {**body, "units": 0})
    assert "the fleet is in Portsmouth; it embarks units only in the port it is in" in refusal(
        w, {**body, "port": "plymouth"}
    )
    at_sea = transports(w, 1, fleet=FleetFactory.create(nation=w.gb, name="Sea Convoy", sea_zone=w.approaches))
    message = refusal(w, {**body, "fleet": at_sea.pk, "port": "plymouth", "units": 1})
    assert "Great Britain has 0 land units at Plymouth; 1 cannot embark" in message
    assert "Portsmouth is not in Western Approaches" in refusal(w, {**body, "fleet": at_sea.pk, "units": 1})


def test_units_land_at_own_allied_or_enemy_ports_but_never_neutral_ones(w: World) -> None:
    """§7: "own port → garrison; allied → guests; enemy → besiegers; neutral → refused"."""
    convoy = transports(w, 1)
    LandUnit.objects.create(campaign=w.campaign, nation=w.gb, port=w.portsmouth)
    embark = {"kind": "embark", "fleet": convoy.pk, "port": "portsmouth", "units": 1}
    land = {"kind": "land", "fleet": convoy.pk, "port": "portsmouth", "units": 1}
    assert "carries 0 land units" in refusal(w, land)
    assert check(w, land, earlier=[embark]).kind == "land"
    assert "the fleet will be in The Channel" in refusal(w, {**land, "port": "brest"}, earlier=[embark])
    baltic = FleetFactory.create(nation=w.gb, name="Baltic Convoy", sea_zone=w.baltic)
    unit = LandUnit.objects.create(campaign=w.campaign, nation=w.gb, state=LandUnit.State.EMBARKED, port=None)
    ShipFactory.create(fleet=baltic, ship_class="transport", cargo=unit)
    message = refusal(w, {"kind": "land", "fleet": baltic.pk, "port": "kronstadt", "units": 1})
    assert "landing at a neutral port is refused (rules §7)" in message
    brest_landing = [embark, move(convoy, "sea", "approaches")]
    assert "Brest lies in Bay of Biscay" in refusal(w, {**land, "port": "brest"}, earlier=brest_landing)


def test_a_fleet_in_port_lands_units_only_in_that_port(w: World) -> None:
    """§7: units land "at a port in its zone", and §4: "ships in port are not in the zone". A fleet
    that will be in Portsmouth cannot land at Dover, in the same zone: phase 6 would only skip it."""
    dover = PortFactory.create(owner=w.gb, sea_zone=w.channel, key="dover", name="Dover")
    convoy = transports(w, 1)
    LandUnit.objects.create(campaign=w.campaign, nation=w.gb, port=w.portsmouth)
    embark = {"kind": "embark", "fleet": convoy.pk, "port": "portsmouth", "units": 1}
    land = {"kind": "land", "fleet": convoy.pk, "port": dover.key, "units": 1}
    message = refusal(w, land, earlier=[embark])
    assert "the fleet will be in port at Portsmouth" in message
    assert "it lands units only there, or at Dover from sea" in message
    assert check(w, {**land, "port": "portsmouth"}, earlier=[embark]).kind == "land"
    assert check(w, land, earlier=[embark, move(convoy, "sea")]).kind == "land"
    assert "will be in port at Dover" in refusal(
        w, {**land, "port": "portsmouth"}, earlier=[embark, move(convoy, "sea", "port:dover")]
    )


# --- diplomacy (rules §10) -----------------------------------------------------------------------------------------


def test_each_diplomatic_order_starts_from_its_relation(w: World) -> None:
    assert check(w, {"kind": "declare_war", "nation": "RU"}).body == {"kind": "declare_war", "nation": "RU"}
    assert check(w, {"kind": "declare_war", "nation": "PT"}).kind == "declare_war"  # from alliance
    assert "Great Britain and France are at war; declare_war is given from peace or alliance" in refusal(
        w, {"kind": "declare_war", "nation": "FR"}
    )
    assert check(w, {"kind": "offer_peace", "nation": "FR"}).kind == "offer_peace"
    assert "at peace; offer_peace is given from war" in refusal(w, {"kind": "offer_peace", "nation": "RU"})
    assert check(w, {"kind": "propose_alliance", "nation": "RU"}).kind == "propose_alliance"
    assert "at war; propose_alliance is given from peace" in refusal(w, {"kind": "propose_alliance", "nation": "FR"})
    assert check(w, {"kind": "leave_alliance", "nation": "PT"}).kind == "leave_alliance"
    assert "at peace; leave_alliance is given from alliance" in refusal(w, {"kind": "leave_alliance", "nation": "RU"})
    assert "cannot give a diplomatic order to itself" in refusal(w, {"kind": "declare_war", "nation": "GB"})
    assert "there is no nation 'XX'" in refusal(w, {"kind": "declare_war", "nation": "XX"})
    assert "order 1 is already a diplomatic order towards Russia" in refusal(
        w, {"kind": "propose_alliance", "nation": "RU"}, earlier=[{"kind": "declare_war", "nation": "RU"}]
    )


# --- the order list ---------------------------------------------------------------------------------------------------


def test_orders_are_appended_and_the_submission_is_recorded(w: World) -> None:
    assert not NationTurn.objects.filter(nation=w.gb).exists()
    first = order_add(nation=w.gb, body=move(w.western, "biscay"))
    second = order_add(nation=w.gb, body={"kind": "sally", "fleet": w.home.pk})
    assert (first.position, second.position) == (1, 2)
    assert (first.fleet, second.fleet, first.turn) == (w.western, w.home, w.turn)
    state = NationTurn.objects.get(nation=w.gb, turn=w.turn)
    assert state.submitted_at is not None and not state.ready
    assert list(orders_for_turn(nation=w.gb, turn=w.turn)) == [first, second]


def test_withdrawing_an_order_renumbers_the_ones_after_it(w: World) -> None:
    bodies = [
        move(w.western, "biscay"),
        {"kind": "sally", "fleet": w.home.pk},
        lay_down("Caledonia"),
        {"kind": "declare_war", "nation": "RU"},
    ]
    orders = orders_replace(nation=w.gb, bodies=bodies)
    order_withdraw(order=orders[1])
    assert stored(w.gb) == [(1, "move"), (2, "lay_down"), (3, "declare_war")]
    order_withdraw(order=orders[0])
    assert stored(w.gb) == [(1, "lay_down"), (2, "declare_war")]
    assert order_add(nation=w.gb, body={"kind": "sally", "fleet": w.home.pk}).position == 3


def test_a_withdrawal_that_would_strand_a_later_order_is_refused(w: World) -> None:
    convoy = transports(w, 1)
    LandUnit.objects.create(campaign=w.campaign, nation=w.gb, port=w.portsmouth)
    embark = {"kind": "embark", "fleet": convoy.pk, "port": "portsmouth", "units": 1}
    land = {"kind": "land", "fleet": convoy.pk, "port": "portsmouth", "units": 1}
    orders = orders_replace(nation=w.gb, bodies=[embark, land])
    with pytest.raises(OrderRefused) as refused:
        order_withdraw(order=orders[0])
    assert refused.value.message.startswith("That change would leave another order refused: Order 1 (land, fleet")
    assert stored(w.gb) == [(1, "embark"), (2, "land")]
    order_withdraw(order=orders[1])
    order_withdraw(order=orders[0])
    assert stored(w.gb) == []


def test_an_update_keeps_the_place_and_is_validated_against_the_list(w: World) -> None:
    orders = orders_replace(nation=w.gb, bodies=[move(w.western, "biscay"), lay_down("Caledonia")])
    updated = order_update(order=orders[0], body={"kind": "posture", "fleet": w.western.pk, "posture": "avoid"})
    assert (updated.position, updated.kind, updated.fleet) == (1, "posture", w.western)
    assert stored(w.gb) == [(1, "posture"), (2, "lay_down")]
    with pytest.raises(OrderRefused) as refused:
        order_update(order=orders[0], body=lay_down("Hibernia"))  # the second first rate would break the quota
    assert refused.value.message.startswith(
        "That change would leave another order refused: Order 2 (lay down, 1st rate 'Caledonia'): 1st/2nd-rate quota"
    )
    with pytest.raises(OrderRefused, match="the path has 3 steps"):
        order_update(order=orders[1], body=move(w.western, "biscay", "iberia", "biscay"))
    assert stored(w.gb) == [(1, "posture"), (2, "lay_down")]
    assert Order.objects.get(pk=orders[1].pk).body == lay_down("Caledonia")


def test_orders_are_refused_once_the_turn_is_resolving(w: World) -> None:
    order = order_add(nation=w.gb, body=move(w.western, "biscay"))
    Turn.objects.filter(pk=w.turn.pk).update(status=Turn.Status.RESOLVING)
    closed = "The turn is being resolved; orders are closed."
    for attempt in (
        lambda: order_add(nation=w.gb, body={"kind": "sally", "fleet": w.home.pk}),
        lambda: order_update(order=order, body=move(w.western, "channel")),
        lambda: order_withdraw(order=order),
        lambda: orders_replace(nation=w.gb, bodies=[]),
    ):
        with pytest.raises(OrderRefused) as refused:
            attempt()
        assert refused.value.message == closed
    assert stored(w.gb) == [(1, "move")]


def test_orders_are_refused_once_the_campaign_has_ended(w: World) -> None:
    Campaign.objects.filter(pk=w.campaign.pk).update(status=Campaign.Status.ENDED)
    with pytest.raises(OrderRefused, match="Orders 1805 has ended; orders are closed"):
        order_add(nation=w.gb, body=move(w.western, "biscay"))


def test_orders_replace_is_all_or_nothing_and_lists_every_refusal(w: World) -> None:
    order_add(nation=w.gb, body={"kind": "sally", "fleet": w.home.pk})
    bodies = [
        move(w.western, "biscay"),
        move(w.western, "channel"),
        move(w.home, "sea", "approaches", "biscay"),
        {"kind": "declare_war", "nation": "FR"},
        lay_down("Caledonia"),
    ]
    with pytest.raises(OrdersRefused) as refused:
        orders_replace(nation=w.gb, bodies=bodies)
    errors = refused.value.errors
    assert [e.split(":")[0] for e in errors] == [
        "Order 2 (move, fleet 'Western Squadron')",
        "Order 3 (move, fleet 'Home Fleet')",
        "Order 4 (declare war, France)",
    ]
    assert stored(w.gb) == [(1, "sally")]
    replaced = orders_replace(nation=w.gb, bodies=[bodies[0], bodies[4]])
    assert [(o.position, o.kind) for o in replaced] == [(1, "move"), (2, "lay_down")] == stored(w.gb)


# --- refusal codes and fields; text and numbers that cannot be stored -------------------------------------------------


def refused_as(w: World, body: Any, earlier: list[dict[str, Any]] | None = None) -> tuple[str, str | None]:
    with pytest.raises(OrderRefused) as refused:
        check(w, body, earlier)
    return refused.value.code, refused.value.field


def test_every_refusal_carries_a_code_and_the_field_it_concerns(w: World) -> None:
    assert refused_as(w, move(w.western, "iberia")) == (RefusalCode.NOT_ADJACENT, "path")
    assert refused_as(w, move(w.western, "biscay"), [move(w.western, "biscay")]) == (RefusalCode.ONE_PER_TURN, "fleet")
    assert refused_as(w, lay_down("Hibernia"), [lay_down("Caledonia")]) == (RefusalCode.OVER_QUOTA, "class")
    assert refused_as(w, lay_down("Caledonia"), [lay_down("Caledonia", "frigate")]) == (RefusalCode.BAD_NAME, "name")
    assert refused_as(w, {"kind": "sally", "fleet": "x"}) == (RefusalCode.WRONG_TYPE, "fleet")
    assert refused_as(w, {"kind": "sally", "fleet": w.home.pk, "speed": 3}) == (RefusalCode.UNKNOWN_KEY, "speed")
    assert refused_as(w, {"kind": "sally"}) == (RefusalCode.MISSING_KEY, "fleet")
    assert refused_as(w, {"kind": "teleport"}) == (RefusalCode.UNKNOWN_KIND, "kind")
    assert refused_as(w, {"kind": "offer_peace", "nation": "RU"}) == (RefusalCode.WRONG_RELATION, "nation")
    assert refused_as(w, {"kind": "run_guns", "fleet": w.western.pk, "port": "brest"}) == (
        RefusalCode.WRONG_ZONE,
        "port",
    )


def refused_numbers(w: World, body: Any, earlier: list[dict[str, Any]] | None = None) -> tuple[str, dict[str, int]]:
    with pytest.raises(OrderRefused) as refused:
        check(w, body, earlier)
    return refused.value.code, refused.value.numbers


def test_a_refusal_that_states_numbers_carries_them_by_name(w: World) -> None:
    """Issue 30: a program reads the limit, what is available and what was asked from ``numbers``."""
    convoy = transports(w, 2)
    other = transports(
        w, 1, fleet=FleetFactory.create(nation=w.gb, name="Second Convoy", sea_zone=w.channel, port=w.portsmouth)
    )
    for _ in range(3):
        LandUnit.objects.create(campaign=w.campaign, nation=w.gb, port=w.portsmouth)
    embark = {"kind": "embark", "fleet": convoy.pk, "port": "portsmouth", "units": 3}
    assert refused_numbers(w, embark) == (RefusalCode.NOT_ENOUGH_TRANSPORTS, {"units": 3, "available": 2})
    earlier = [{"kind": "embark", "fleet": other.pk, "port": "portsmouth", "units": 2}]
    assert refused_numbers(w, {**embark, "units": 2}, earlier) == (
        RefusalCode.NOT_ENOUGH_UNITS,
        {"units": 2, "have": 3, "available": 1},
    )
    land = {"kind": "land", "fleet": convoy.pk, "port": "portsmouth", "units": 2}
    assert refused_numbers(w, land) == (RefusalCode.NOT_ENOUGH_UNITS, {"units": 2, "available": 0})
    named = {"kind": "form_fleet", "ships": [w.first_rate.pk], "name": "x" * 81}
    assert refused_numbers(w, named) == (RefusalCode.BAD_NAME, {"limit": 80, "length": 81})
    Port.objects.filter(pk=w.plymouth.pk).update(taken_turn=1)
    assert refused_numbers(w, lay_down("Caledonia")) == (
        RefusalCode.PORT_CANNOT_BUILD,
        {"taken_turn": 1, "from_turn": 3},
    )
    Ship.objects.filter(pk=w.first_rate.pk).update(condition=Ship.Condition.DAMAGED)
    repair = {"kind": "repair", "ship": w.first_rate.pk}
    Port.objects.filter(pk=w.portsmouth.pk).update(taken_turn=w.turn.number)
    assert refused_numbers(w, repair) == (
        RefusalCode.RECENTLY_TAKEN,
        {"taken_turn": w.turn.number, "from_turn": w.turn.number + 2},
    )
    Port.objects.filter(pk=w.portsmouth.pk).update(taken_turn=None)
    Nation.objects.filter(pk=w.gb.pk).update(unpaid_upkeep_turn=w.turn.number)
    assert refused_numbers(w, repair) == (
        RefusalCode.OUT_OF_SUPPLY,
        {"unpaid_turn": w.turn.number, "until_turn": w.turn.number},
    )


def test_every_refusal_code_is_a_stable_snake_case_word() -> None:
    assert all(code.value == code.name.lower() and code.value.isidentifier() for code in RefusalCode)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"kind": "lay_down", "class": "1st", "name": "Cale\x00donia", "port": "plymouth"}, "name"),
        ({"kind": "lay_down", "class": "1st", "name": "Caledonia", "port": "\ud800plymouth"}, "port"),
        ({"kind": "move", "fleet": 1, "path": ["biscay", "ib\x00eria"]}, "path"),
        ({"kind": "declare_war", "nation": "R\udc00U"}, "nation"),
        ({"kind": "sally", "fleet": 1, "note": {"deep": [["\x00"]]}}, "note"),
        ({"kind": "sally", "fleet": 1, "no\x00te": 1}, None),
        ({"kind": "sa\x00lly", "fleet": 1}, "kind"),
    ],
)
def test_nul_and_unpaired_surrogates_anywhere_in_a_body_are_refused_naming_the_field(
    w: World, body: dict[str, Any], field: str | None
) -> None:
    with pytest.raises(OrderRefused) as refused:
        check(w, body)
    assert (refused.value.code, refused.value.field) == (RefusalCode.BAD_TEXT, field)
    assert refused.value.message.startswith("Order 1: ")
    assert "\x00" not in refused.value.message and not any("\ud800" <= c <= "\udfff" for c in refused.value.message)


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"kind": "sally", "fleet": 2**64}, "fleet", f'"fleet" must be at most {2**63 - 1}'),
        ({"kind": "sally", "fleet": 0}, "fleet", '"fleet" must be at least 1, not 0'),
        ({"kind": "repair", "ship": -5}, "ship", '"ship" must be at least 1, not -5'),
        ({"kind": "line_order", "fleet": 1, "ships": [3, -1]}, "ships", '"ships" must list ids from 1 to'),
        ({"kind": "land", "fleet": 1, "port": "brest", "units": 2**31}, "units", '"units" must be at most 2147483647'),
    ],
)
def test_integers_out_of_range_are_refused_by_field_before_any_lookup(
    w: World, body: dict[str, Any], field: str, words: str
) -> None:
    with CaptureQueriesContext(connection) as queries, pytest.raises(OrderRefused) as refused:
        check(w, body)
    # Only the nation and the campaign are read: no query is made with the body's numbers.
    assert not [q["sql"] for q in queries.captured_queries if "fleets_" in q["sql"] or "ports_" in q["sql"]]
    assert (refused.value.code, refused.value.field) == (RefusalCode.OUT_OF_RANGE, field)
    assert words in refused.value.message


def test_a_refused_list_carries_every_refusal_with_its_code(w: World) -> None:
    with pytest.raises(OrdersRefused) as refused:
        orders_replace(nation=w.gb, bodies=[move(w.western, "iberia"), {"kind": "sally", "fleet": "x\x00"}])
    assert [(r.code, r.field) for r in refused.value.refusals] == [
        (RefusalCode.NOT_ADJACENT, "path"),
        (RefusalCode.BAD_TEXT, "fleet"),
    ]
    assert refused.value.errors == [r.message for r in refused.value.refusals]
    assert stored(w.gb) == []


# --- submit_orders ----------------------------------------------------------------------------------------------------


def write(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "orders.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return str(path)


def test_submit_orders_stores_the_list_and_prints_one_line_per_order(w: World, tmp_path: Path) -> None:
    out = io.StringIO()
    bodies = [move(w.western, "biscay", "iberia"), lay_down("Caledonia"), {"kind": "declare_war", "nation": "RU"}]
    call_command("submit_orders", "orders-1805", "--nation", "GB", write(tmp_path, bodies), stdout=out)
    assert out.getvalue().splitlines() == [
        "Order 1 — Western Squadron: Bay of Biscay → Coast of Iberia",
        "Order 2 — 1st rate Caledonia at Plymouth (20 EP)",
        "Order 3 — declare war on Russia",
    ]
    assert stored(w.gb) == [(1, "move"), (2, "lay_down"), (3, "declare_war")]


def test_submit_orders_with_an_empty_list_withdraws_every_order(w: World, tmp_path: Path) -> None:
    order_add(nation=w.gb, body={"kind": "sally", "fleet": w.home.pk})
    out = io.StringIO()
    call_command("submit_orders", "orders-1805", "--nation", "GB", write(tmp_path, []), stdout=out)
    assert out.getvalue() == "GB has no orders this turn (every order withdrawn).\n"
    assert stored(w.gb) == []
    assert NationTurn.objects.get(nation=w.gb, turn=w.turn).submitted_at is not None


def test_submit_orders_reads_standard_input(w: World, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps([{"kind": "sally", "fleet": w.home.pk}])))
    call_command("submit_orders", "orders-1805", "--nation", "gb", "-", stdout=io.StringIO())
    assert stored(w.gb) == [(1, "sally")]


def test_submit_orders_refuses_all_with_exit_code_2_and_every_refusal(w: World, tmp_path: Path) -> None:
    bodies = [
        move(w.western, "biscay"),
        move(w.western, "iberia"),
        lay_down("Caledonia"),
        lay_down("Hibernia"),
        {"kind": "offer_peace", "nation": "RU"},
    ]
    with pytest.raises(CommandError) as failed:
        call_command("submit_orders", "orders-1805", "--nation", "GB", write(tmp_path, bodies))
    assert failed.value.returncode == 2
    lines = str(failed.value).splitlines()
    assert lines[0] == "3 of 5 orders refused; nothing was stored:"
    assert [line.split(":")[0] for line in lines[1:]] == [
        "Order 2 (move, fleet 'Western Squadron')",
        "Order 4 (lay down, 1st rate 'Hibernia')",
        "Order 5 (offer peace, Russia)",
    ]
    assert [line.rsplit(" ", 1)[1] for line in lines[1:]] == ["[one_per_turn]", "[over_quota]", "[wrong_relation]"]
    assert stored(w.gb) == []


@pytest.mark.parametrize(
    ("args", "content", "expected"),
    [
        (["no-such-campaign", "--nation", "GB"], "[]", "No campaign with slug 'no-such-campaign'."),
        (["orders-1805", "--nation", "XX"], "[]", "Orders 1805 has no nation 'XX'; its nations are FR, GB, PT, RU."),
        (["orders-1805", "--nation", "GB"], "[{", "is not valid JSON"),
        (["orders-1805", "--nation", "GB"], '{"kind": "sally"}', "must hold a JSON list of orders"),
    ],
)
def test_submit_orders_exits_2_with_one_line_on_a_bad_call(
    w: World, tmp_path: Path, args: list[str], content: str, expected: str
) -> None:
    with pytest.raises(CommandError) as failed:
        call_command("submit_orders", *args, write(tmp_path, content))
    assert failed.value.returncode == 2
    assert expected in str(failed.value) and len(str(failed.value).splitlines()) == 1


def test_submit_orders_exits_2_when_the_turn_is_resolving(w: World, tmp_path: Path) -> None:
    Turn.objects.filter(pk=w.turn.pk).update(status=Turn.Status.RESOLVING)
    with pytest.raises(CommandError) as failed:
        call_command("submit_orders", "orders-1805", "--nation", "GB", write(tmp_path, []))
    assert (failed.value.returncode, str(failed.value)) == (2, "The turn is being resolved; orders are closed.")


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('[{"kind": "lay_down", "class": "1st", "name": "A\\u0000", "port": "plymouth"}]', "[bad_text]"),
        ('[{"kind": "declare_war", "nation": "\\ud800"}]', "[bad_text]"),
        ('[{"kind": "sally", "fleet": 99999999999999999999999}]', "[out_of_range]"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('[{"kind": "sally", "fleet": 1' + "0" * 5000 + "}]", "is not valid JSON"),
    ],
)
def test_submit_orders_exits_2_naming_the_problem_on_unstorable_input(
    w: World, tmp_path: Path, content: str, expected: str
) -> None:
    with pytest.raises(CommandError) as failed:
        call_command("submit_orders", "orders-1805", "--nation", "GB", write(tmp_path, content))
    assert failed.value.returncode == 2 and expected in str(failed.value)
    assert stored(w.gb) == []


def test_submit_orders_exits_2_on_a_nation_code_that_is_not_text(w: World, tmp_path: Path) -> None:
    with pytest.raises(CommandError) as failed:
        call_command("submit_orders", "orders-1805", "--nation", "G\udcffB", write(tmp_path, []))
    assert failed.value.returncode == 2 and "unpaired surrogate" in str(failed.value)


def test_the_move_choices_are_exactly_the_paths_the_order_check_accepts(w: World) -> None:
    """Issue 8: one move length and one legal step (rules §4) for the order check and the order
    form's choices. Every path offered is accepted; every path the check accepts is offered, but for
    the pointless ones (back to where the fleet started, out of a port just entered)."""
    Ship.objects.filter(name="Amazon").update(condition=Ship.Condition.DISABLED)  # the Western Squadron: 1 step
    gm = get_user_model().objects.create_user("gm", password="x", is_staff=True)
    Campaign.objects.filter(pk=w.campaign.pk).update(gm=gm)  # staff alone does not run a campaign
    choices = OrderChoices(desk=order_desk_for_player(user=gm, slug=w.campaign.slug, nation_code="GB"))
    tokens = ["sea", *(f"port:{p.key}" for p in Port.objects.all()), *SeaZone.objects.values_list("key", flat=True)]
    for place in choices.fleets_afloat:
        offered = {p.steps for p in choices.move_paths(place)}
        for steps in offered:
            check(w, {"kind": "move", "fleet": place.fleet.pk, "path": list(steps)})
        accepted = set()
        for path in [(a,) for a in tokens] + [(a, b) for a in tokens for b in tokens]:
            try:
                check(w, {"kind": "move", "fleet": place.fleet.pk, "path": list(path)})
            except OrderRefused:
                continue
            accepted.add(path)
        pointless = {
            p
            for p in accepted
            if (place.port is None and p[-1] == place.zone.key)
            or (len(p) == 2 and p[0].startswith("port:"))
            or (place.port is not None and p[-1] == f"port:{place.port.key}")
        }
        assert offered == accepted - pointless
        assert offered  # each fleet has somewhere to go
    western = choices.fleets_by_id[w.western.pk]
    assert {len(p.steps) for p in choices.move_paths(western)} == {1}
