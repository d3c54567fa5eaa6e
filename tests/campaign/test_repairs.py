"""Phase 8: repairs, lay up / recommission (rules §2, §3, §8), through orders."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from campaign.models import Campaign, LedgerEntry, Nation, Turn, TurnPhase, TurnReport
from campaign.orders.errors import OrderRefused, RefusalCode
from campaign.orders.validator import order_validate
from fleets.models import Blockade, Fleet, Ship
from ports.models import Port
from tests.factories import FleetFactory
from tests.support.turns import order_store, phase_events, phases_run, turn_resolve_inline
from tests.worlds import World, two_power_world

pytestmark = pytest.mark.django_db


def hms(name: str = "HMS 0") -> Ship:
    return Ship.objects.get(name=name)


def set_condition(ship: Ship, condition: str) -> Ship:
    ship.condition = condition
    ship.save(update_fields=["condition"])
    return ship


def repair_lines(nation: Nation) -> list[LedgerEntry]:
    return list(LedgerEntry.objects.filter(nation=nation, kind="repair").order_by("id"))


def ledger_matches(campaign: Campaign) -> None:
    for nation in Nation.objects.filter(campaign=campaign):
        assert nation.treasury == sum(LedgerEntry.objects.filter(nation=nation).values_list("amount", flat=True))


def test_a_damaged_ship_in_an_own_dockyard_is_repaired_at_once_and_paid_through_the_ledger() -> None:
    """§2: repair "in phase 8 ... is paid: ceil(10% of class EP) if damaged ... A damaged ship is ready at
    once"; every EP change is a ledger line."""
    world = two_power_world()
    ship = set_condition(hms(), "damaged")
    order = order_store(world.turn, world.gb, "repair", ship=ship.pk, on=True)
    events = phase_events(world.turn, 8)
    ship.refresh_from_db()
    assert ship.condition == "ready"
    (line,) = repair_lines(world.gb)
    assert (line.amount, line.turn, line.reason) == (-1, 1, "Repair of HMS 0 (damaged) at Portsmouth")
    world.gb.refresh_from_db()
    assert world.gb.treasury == 49
    ledger_matches(world.campaign)
    order.refresh_from_db()
    assert order.outcome == "done"
    assert any(e["nations"] == ["GB"] and "repaired at Portsmouth for 1 EP and is ready" in e["text"] for e in events)


def test_a_disabled_ship_needs_two_turns() -> None:
    """§2: "a disabled ship becomes damaged at once and ready in phase 8 of the next turn if it is still
    there and the port is not blockaded" — paid once, ceil(25% of class EP)."""
    world = two_power_world()
    ship = set_condition(hms(), "disabled")
    order_store(world.turn, world.gb, "repair", ship=ship.pk, on=True)
    turn_2 = turn_resolve_inline(world.turn)
    ship.refresh_from_db()
    assert ship.condition == "damaged"
    assert [(e.amount, e.turn) for e in repair_lines(world.gb)] == [(-3, 1)]
    turn_3 = turn_resolve_inline(turn_2)  # no new order: the repair finishes by itself
    ship.refresh_from_db()
    assert ship.condition == "ready"
    assert [(e.amount, e.turn) for e in repair_lines(world.gb)] == [(-3, 1)]  # nothing more to pay
    report = TurnReport.objects.get(turn=turn_2, nation=world.gb).body
    assert any("HMS 0 completed her repair at Portsmouth" in e["text"] for e in report["events"])
    assert turn_3.number == 3
    ledger_matches(world.campaign)


def test_a_disabled_ship_that_left_the_port_does_not_finish_her_repair() -> None:
    """§2: ready next turn only "if it is still there"."""
    world = two_power_world()
    ship = set_condition(hms(), "disabled")
    order_store(world.turn, world.gb, "repair", ship=ship.pk, on=True)
    phase_events(world.turn, 8)
    turn_2 = next_turn(world)
    Fleet.objects.filter(pk=world.channel_fleet.pk).update(port=None)
    events = phase_events(turn_2, 8)
    ship.refresh_from_db()
    assert ship.condition == "damaged"
    assert any("HMS 0 left Portsmouth: her repair was not completed" in e["text"] for e in events)


def test_a_disabled_ship_does_not_finish_her_repair_in_a_blockaded_port() -> None:
    """§2: ready next turn only if "the port is not blockaded"."""
    world = two_power_world()
    ship = set_condition(hms(), "disabled")
    order_store(world.turn, world.gb, "repair", ship=ship.pk, on=True)
    phase_events(world.turn, 8)
    turn_2 = next_turn(world)
    blockade(world, turn_2.number)
    events = phase_events(turn_2, 8)
    ship.refresh_from_db()
    assert ship.condition == "damaged"
    assert any("Portsmouth is blockaded: HMS 0's repair was not completed" in e["text"] for e in events)
    assert [e.turn for e in repair_lines(world.gb)] == [1]


def next_turn(world: World) -> Turn:
    """Close turn 1 by hand and open turn 2 (for tests that run single phases)."""
    Turn.objects.filter(pk=world.turn.pk).update(status=Turn.Status.RESOLVED)
    Campaign.objects.filter(pk=world.campaign.pk).update(turn_number=2)
    return Turn.objects.create(campaign=world.campaign, number=2, year=1805, season="summer")


def blockade(world: World, turn: int, *, lifted: bool = False) -> Fleet:
    """A French fleet blockading Portsmouth this turn (phase 4's record)."""
    squadron = FleetFactory.create(nation=world.fr, name=f"Blockaders {turn}", sea_zone=world.channel)
    Blockade.objects.create(campaign=world.campaign, turn=turn, port=world.portsmouth, fleet=squadron, lifted=lifted)
    return squadron


def test_a_blockaded_port_repairs_nothing() -> None:
    """§2: repairs only in a port "not blockaded"."""
    world = two_power_world()
    ship = set_condition(hms(), "damaged")
    order = order_store(world.turn, world.gb, "repair", ship=ship.pk)
    blockade(world, 1)
    phase_events(world.turn, 8)
    ship.refresh_from_db()
    order.refresh_from_db()
    assert ship.condition == "damaged" and not repair_lines(world.gb)
    assert order.outcome == "skipped" and "Portsmouth is blockaded" in order.outcome_note


def test_a_blockade_lifted_by_a_storm_does_not_stop_repairs() -> None:
    """§4: a storm that hits half the blockading fleet "lifts it for supply, repairs and income"."""
    world = two_power_world()
    ship = set_condition(hms(), "damaged")
    order_store(world.turn, world.gb, "repair", ship=ship.pk)
    blockade(world, 1, lifted=True)
    phase_events(world.turn, 8)
    ship.refresh_from_db()
    assert ship.condition == "ready"


def test_an_unaffordable_repair_is_skipped_and_reported_and_orders_are_paid_in_listed_order() -> None:
    """§2: "In phase 8 (listed order) it is paid ... unaffordable repairs are skipped and reported"."""
    world = two_power_world(treasury=3)
    first = set_condition(hms("HMS 1"), "disabled")  # 3 EP
    second = set_condition(hms("HMS 2"), "damaged")  # 1 EP, but listed second
    order_store(world.turn, world.gb, "repair", ship=first.pk)
    late = order_store(world.turn, world.gb, "repair", ship=second.pk)
    events = phase_events(world.turn, 8)
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.condition, second.condition) == ("damaged", "damaged")
    late.refresh_from_db()
    assert late.outcome == "skipped" and "costs 1 EP and Great Britain has 0" in late.outcome_note
    assert any(e["nations"] == ["GB"] and "skipped" in e["text"] and "HMS 2" in e["text"] for e in events)
    world.gb.refresh_from_db()
    assert world.gb.treasury == 0
    ledger_matches(world.campaign)


def test_an_out_of_supply_fleet_is_not_repaired() -> None:
    """§8: "Out of supply: ... no repairs"."""
    world = two_power_world()
    Fleet.objects.filter(pk=world.channel_fleet.pk).update(in_supply=False)
    ship = set_condition(hms(), "damaged")
    order = order_store(world.turn, world.gb, "repair", ship=ship.pk)
    phase_events(world.turn, 8)
    order.refresh_from_db()
    assert order.outcome == "skipped" and "out of supply" in order.outcome_note
    assert hms().condition == "damaged"


def test_a_nation_that_could_not_pay_its_upkeep_last_turn_repairs_nothing() -> None:
    """§2: unpaid upkeep puts "all that nation's ships ... out of supply until the end of the next turn"."""
    world = two_power_world()
    turn_2 = next_turn(world)
    Nation.objects.filter(pk=world.gb.pk).update(unpaid_upkeep_turn=1)
    ship = set_condition(hms(), "damaged")
    order = order_store(turn_2, world.gb, "repair", ship=ship.pk)
    phase_events(turn_2, 8)
    order.refresh_from_db()
    assert order.outcome == "skipped" and "out of supply" in order.outcome_note


def test_a_port_taken_this_turn_or_last_does_not_repair() -> None:
    """§2: repairs only in a port "not taken this turn or last"; §7: a settling port has no repairs."""
    world = two_power_world()
    turn_2 = next_turn(world)
    Port.objects.filter(pk=world.portsmouth.pk).update(taken_turn=1)
    ship = set_condition(hms(), "damaged")
    order = order_store(turn_2, world.gb, "repair", ship=ship.pk)
    phase_events(turn_2, 8)
    order.refresh_from_db()
    assert order.outcome == "skipped" and "taken this turn or last" in order.outcome_note


def test_a_ship_at_sea_or_in_a_port_without_dockyard_is_not_repaired() -> None:
    """§2: repair "for a ship in an own port with a dockyard"."""
    world = two_power_world()
    Port.objects.filter(pk=world.portsmouth.pk).update(dockyard=False)
    ship = set_condition(hms(), "damaged")
    order = order_store(world.turn, world.gb, "repair", ship=ship.pk)
    phase_events(world.turn, 8)
    order.refresh_from_db()
    assert order.outcome == "skipped" and "has no dockyard" in order.outcome_note


def test_a_standing_repair_order_keeps_repairing_until_it_is_withdrawn() -> None:
    """§3: "Standing until changed: ... repair"; a nation without orders keeps its standing orders."""
    world = two_power_world()
    ship = set_condition(hms(), "damaged")
    order_store(world.turn, world.gb, "repair", ship=ship.pk, on=True)
    turn_2 = turn_resolve_inline(world.turn)
    assert hms().condition == "ready"
    set_condition(ship, "damaged")  # damaged again, say in a storm: no new order is given
    turn_3 = turn_resolve_inline(turn_2)
    assert hms().condition == "ready"
    assert [e.turn for e in repair_lines(world.gb)] == [1, 2]
    set_condition(ship, "damaged")
    off = order_store(turn_3, world.gb, "repair", ship=ship.pk, on=False)
    turn_resolve_inline(turn_3)
    assert hms().condition == "damaged"
    off.refresh_from_db()
    assert off.outcome == "done" and "cancelled" in off.outcome_note
    assert [e.turn for e in repair_lines(world.gb)] == [1, 2]


def test_a_standing_order_of_a_former_owner_does_not_repair_a_captured_ship() -> None:
    """§2 repairs are a nation's orders for its own ships; a prize is the captor's."""
    world = two_power_world()
    ship = set_condition(hms(), "damaged")
    order_store(world.turn, world.gb, "repair", ship=ship.pk)
    turn_2 = next_turn(world)
    Ship.objects.filter(pk=ship.pk).update(nation=world.fr, fleet=world.brest_fleet)
    phase_events(turn_2, 8)
    assert hms().condition == "damaged"
    assert not LedgerEntry.objects.filter(kind="repair").exists()


def test_lay_up_and_recommission_take_effect_in_phase_8_for_ships_in_an_own_port() -> None:
    """§2: ""lay up" and "recommission" orders for a ship in an own port take effect in phase 8"."""
    world = two_power_world()
    laid = order_store(world.turn, world.gb, "lay_up", ship=hms("HMS 1").pk)
    Ship.objects.filter(name="HMS 2").update(in_ordinary=True)
    back = order_store(world.turn, world.gb, "recommission", ship=hms("HMS 2").pk)
    abroad = order_store(world.turn, world.fr, "lay_up", ship=hms("Vaisseau 1").pk)
    Fleet.objects.filter(pk=world.brest_fleet.pk).update(port=None)  # at sea: not in an own port
    phase_events(world.turn, 8)
    assert hms("HMS 1").in_ordinary is True
    assert hms("HMS 2").in_ordinary is False
    assert hms("Vaisseau 1").in_ordinary is False
    for order, outcome in ((laid, "done"), (back, "done"), (abroad, "skipped")):
        order.refresh_from_db()
        assert order.outcome == outcome
    assert abroad.outcome_note == "Vaisseau 1 is at sea; only a ship in an own port is laid up or recommissioned (§2)"
    with pytest.raises(OrderRefused) as refused:  # the order check's own words (issue 8)
        order_validate(nation=world.fr, turn=world.turn, body={"kind": "lay_up", "ship": hms("Vaisseau 1").pk})
    assert refused.value.code == RefusalCode.NOT_OWN_PORT and refused.value.message.endswith(
        f": {abroad.outcome_note}."
    )


def test_a_standing_order_waits_at_sea_and_repairs_once_the_ship_is_back_in_port() -> None:
    """§2: "Repair is a standing order for a ship in an own port with a dockyard"; §3 standing until changed."""
    world = two_power_world()
    Fleet.objects.filter(pk=world.channel_fleet.pk).update(port=None)
    ship = set_condition(hms(), "damaged")
    order = order_store(world.turn, world.gb, "repair", ship=ship.pk)
    phase_events(world.turn, 8)
    order.refresh_from_db()
    assert order.outcome == "skipped" and "HMS 0 is at sea" in order.outcome_note
    turn_2 = next_turn(world)
    phase_events(turn_2, 8)  # still at sea: nothing, and nothing said
    assert hms().condition == "damaged"
    assert not [e for e in TurnPhase.objects.get(turn=turn_2, phase=8).summary["events"] if "HMS 0" in e["text"]]
    Turn.objects.filter(pk=turn_2.pk).update(status=Turn.Status.RESOLVED)
    turn_3 = Turn.objects.create(campaign=world.campaign, number=3, year=1805, season="high_summer")
    Fleet.objects.filter(pk=world.channel_fleet.pk).update(port=world.portsmouth)
    phase_events(turn_3, 8)
    assert hms().condition == "ready"
    assert [e.turn for e in repair_lines(world.gb)] == [3]


def _no_dockyard(world: World) -> None:
    Port.objects.filter(pk=world.portsmouth.pk).update(dockyard=False)


def _taken_last_turn(world: World) -> None:
    Port.objects.filter(pk=world.portsmouth.pk).update(taken_turn=0)


def _upkeep_unpaid_last_turn(world: World) -> None:
    Nation.objects.filter(pk=world.gb.pk).update(unpaid_upkeep_turn=0)


def _owner_changed(world: World) -> None:
    Port.objects.filter(pk=world.portsmouth.pk).update(owner=world.fr)


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (_no_dockyard, RefusalCode.NO_DOCKYARD),
        (_taken_last_turn, RefusalCode.RECENTLY_TAKEN),
        (_upkeep_unpaid_last_turn, RefusalCode.OUT_OF_SUPPLY),
        (_owner_changed, RefusalCode.NOT_OWN_PORT),
    ],
)
def test_a_repair_refused_at_submission_is_skipped_at_resolution_for_the_same_reason(
    change: Callable[[World], None], code: RefusalCode
) -> None:
    """Issue 8: one repair check (§2, §8) for the order and phase 8. A repair given while it was
    possible, then made impossible, is refused by the order check and skipped by phase 8 with the
    same words."""
    world = two_power_world()
    ship = set_condition(hms(), "damaged")
    body = {"kind": "repair", "ship": ship.pk, "on": True}
    order_validate(nation=world.gb, turn=world.turn, body=body)  # possible when given
    order = order_store(world.turn, world.gb, "repair", ship=ship.pk, on=True)
    change(world)
    with pytest.raises(OrderRefused) as refused:
        order_validate(nation=Nation.objects.get(pk=world.gb.pk), turn=world.turn, body=body)
    assert refused.value.code == code
    phases_run(world.turn, 8)
    order.refresh_from_db()
    assert order.outcome == "skipped"
    reason = order.outcome_note.removeprefix("HMS 0 cannot be repaired: ")
    assert reason != order.outcome_note and refused.value.message.endswith(f": {reason}.")
    assert not repair_lines(world.gb)


def test_a_blockade_is_checked_at_resolution_with_the_order_checks_words() -> None:
    """§2 "not blockaded": the blockade is established in phase 4, after the orders are in; phase 8
    skips the repair with the reason the shared check gives, and the order check cannot know it."""
    world = two_power_world()
    ship = set_condition(hms(), "damaged")
    order = order_store(world.turn, world.gb, "repair", ship=ship.pk, on=True)
    order_validate(nation=world.gb, turn=world.turn, body={"kind": "repair", "ship": ship.pk})
    blockade(world, world.turn.number)
    phases_run(world.turn, 8)
    order.refresh_from_db()
    assert order.outcome_note == (
        "HMS 0 cannot be repaired: Portsmouth is blockaded against Great Britain this turn; "
        "a blockaded port does not repair"
    )
