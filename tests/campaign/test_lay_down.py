"""Laying down ships through the service (RULES.md §1, §2): paid through the ledger, all or nothing."""

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from campaign.models import LedgerEntry, Nation, Order
from campaign.orders.errors import OrderRefused
from campaign.orders.validator import order_validate
from campaign.services import TreasuryError, ledger_post, ship_lay_down
from campaign.turn.runner import phase_run
from fleets.models import Ship
from fleets.selectors import navy_counts
from fleets.services import ShipNameError
from ports.models import Port
from rules.construction import ConstructionRefused
from tests.factories import FleetFactory, NationFactory, PortFactory, ShipFactory
from tests.worlds import two_power_world

pytestmark = pytest.mark.django_db


def funded_nation(treasury: int = 100, **kwargs: object) -> Nation:
    nation = NationFactory.create(**kwargs)
    ledger_post(nation=nation, turn=1, amount=treasury, kind=LedgerEntry.Kind.OPENING, reason="Opening balance")
    return nation


def british_line(nation: Nation, *, first_rates: int, others: int) -> None:
    """One fleet of ``first_rates`` 1st rates and ``others`` 74s."""
    fleet = FleetFactory.create(nation=nation)
    for i in range(first_rates):
        ShipFactory.create(nation=nation, fleet=fleet, ship_class="1st", name=f"First {i}")
    for i in range(others):
        ShipFactory.create(nation=nation, fleet=fleet, ship_class="3rd-74", name=f"Seventy-four {i}")


def state(nation: Nation) -> tuple[int, int, int]:
    nation.refresh_from_db()
    return (
        nation.treasury,
        Ship.objects.filter(nation=nation).count(),
        LedgerEntry.objects.filter(nation=nation).count(),
    )


def test_a_lay_down_pays_through_the_ledger_and_starts_a_keel_with_full_build_turns() -> None:
    """§1: "paid (one ledger line) and created `building` with its full build turns"."""
    nation = funded_nation(100)
    port = PortFactory.create(owner=nation)
    british_line(nation, first_rates=0, others=10)
    ship = ship_lay_down(nation=nation, ship_class="1st", name="Caledonia", port=port)
    assert ship.condition == Ship.Condition.BUILDING
    assert ship.building_turns_left == 4 and ship.building_port == port
    line = LedgerEntry.objects.filter(nation=nation).latest("id")
    assert (line.amount, line.balance, line.kind) == (-20, 80, "lay_down")
    assert nation.treasury == 80


def test_the_quota_example_holds_through_the_service_and_a_refusal_changes_nothing() -> None:
    """§1 example: GB 1805, 10 SOL of which 1 first rate: a second first rate is allowed, a third refused."""
    nation = funded_nation(100)
    port = PortFactory.create(owner=nation)
    british_line(nation, first_rates=1, others=9)
    ship_lay_down(nation=nation, ship_class="1st", name="Hibernia", port=port)
    before = state(nation)
    with pytest.raises(ConstructionRefused) as refused:
        ship_lay_down(nation=nation, ship_class="1st", name="Ocean", port=port)
    assert "100×3=300 > 20×12=240" in refused.value.message
    assert state(nation) == before


def test_a_captured_first_rate_is_exempt_and_counts_only_as_a_ship_of_the_line() -> None:
    """§1: "`sol` = the SOL the nation owns ... captured ones included; `big` = ... not captured";
    "Captured ships may always be used, whatever the limits"."""
    nation = funded_nation(100)
    spain = NationFactory.create(campaign=nation.campaign, code="ES", name="Spain")
    port = PortFactory.create(owner=nation)
    british_line(nation, first_rates=2, others=8)  # 10 SOL, 2 big: 200 ≤ 200
    prize = ShipFactory.create(
        nation=nation, fleet__nation=nation, original_nation=spain, ship_class="1st", name="Prize"
    )
    assert navy_counts(nation_id=nation.pk).sol == 11 and navy_counts(nation_id=nation.pk).big == 2
    assert prize.captured
    # 100×3=300 > 20×12=240: the prize raised sol but another own first rate is still refused.
    with pytest.raises(ConstructionRefused):
        ship_lay_down(nation=nation, ship_class="1st", name="Ocean", port=port)


def test_a_second_four_decker_is_refused_but_a_captured_one_does_not_count() -> None:
    """§1 "at most one per nation at any time (afloat or building), not counting captured ones"."""
    spain = funded_nation(200, code="ES", name="Spain", crew="E")
    britain = NationFactory.create(campaign=spain.campaign, code="GB")
    port = PortFactory.create(owner=spain)
    for i in range(40):
        ShipFactory.create(nation=spain, fleet__nation=spain, ship_class="3rd-74", name=f"Navio {i}")
    ShipFactory.create(
        nation=spain, fleet__nation=spain, original_nation=britain, ship_class="four-decker", name="Prize"
    )
    ship_lay_down(nation=spain, ship_class="four-decker", name="Santisima Trinidad", port=port)
    before = state(spain)
    with pytest.raises(ConstructionRefused) as refused:
        ship_lay_down(nation=spain, ship_class="four-decker", name="Otra", port=port)
    assert refused.value.rule == "four_decker_limit"
    assert state(spain) == before


def test_insufficient_ep_is_refused_and_nothing_is_paid() -> None:
    nation = funded_nation(9)
    port = PortFactory.create(owner=nation)
    before = state(nation)
    with pytest.raises(ConstructionRefused) as refused:
        ship_lay_down(nation=nation, ship_class="3rd-74", name="Bellona", port=port)
    assert "costs 10 EP" in refused.value.message
    assert state(nation) == before


@pytest.mark.parametrize(
    ("port_kwargs", "expected"),
    [
        ({"dockyard": False}, "no dockyard"),
        ({"siege_turns": 1}, "besieged"),
        ({"taken_turn": 1}, "taken in turn 1"),
    ],
)
def test_only_an_own_dockyard_that_is_not_besieged_or_newly_taken_builds(port_kwargs: dict, expected: str) -> None:
    """§1: "Only in an own port with a dockyard that is not besieged and was not taken this turn or last"."""
    nation = funded_nation(100)
    port = PortFactory.create(owner=nation, **port_kwargs)
    with pytest.raises(ConstructionRefused, match=expected):
        ship_lay_down(nation=nation, ship_class="frigate", name="Amazon", port=port)


def test_a_foreign_port_is_refused() -> None:
    nation = funded_nation(100)
    france = NationFactory.create(campaign=nation.campaign, code="FR", name="France")
    with pytest.raises(ConstructionRefused, match="own port"):
        ship_lay_down(nation=nation, ship_class="frigate", name="Amazon", port=PortFactory.create(owner=france))


def test_a_name_already_afloat_in_the_navy_is_refused() -> None:
    nation = funded_nation(100)
    ShipFactory.create(nation=nation, fleet__nation=nation, name="Victory")
    with pytest.raises(ShipNameError, match="already has a ship named 'Victory'"):
        ship_lay_down(nation=nation, ship_class="frigate", name="  Victory ", port=PortFactory.create(owner=nation))


def test_the_ledger_never_takes_a_treasury_below_zero() -> None:
    """§2: "in whole EP, never below 0"; the service refuses and the database refuses too."""
    nation = funded_nation(5)
    with pytest.raises(TreasuryError, match="5 EP short"):
        ledger_post(nation=nation, turn=1, amount=-10, kind="adjustment", reason="test")
    with pytest.raises(IntegrityError), transaction.atomic():
        Nation.objects.filter(pk=nation.pk).update(treasury=-1)


def test_a_zero_ledger_line_is_refused() -> None:
    """§2: "no zero lines"."""
    nation = funded_nation(5)
    with pytest.raises(ValueError, match="amount 0"):
        ledger_post(nation=nation, turn=1, amount=0, kind="adjustment", reason="nothing")


@pytest.mark.parametrize(
    ("body", "change"),
    [
        ({"kind": "raise", "unit": "land_unit", "port": "portsmouth"}, {"siege_turns": 1}),
        ({"kind": "lay_down", "class": "frigate", "name": "Amethyst", "port": "portsmouth"}, {"siege_turns": 1}),
        ({"kind": "lay_down", "class": "frigate", "name": "Amethyst", "port": "portsmouth"}, {"dockyard": False}),
    ],
)
def test_a_build_refused_at_submission_is_skipped_in_phase_2_for_the_same_reason(
    body: dict[str, str], change: dict[str, object]
) -> None:
    """Issue 8: one port check for raising (§7 "in an own port that is not besieged") and laying down
    (§1) at submission and in phase 2. An order given while the port could build, then made
    impossible, is refused by the order check and skipped by phase 2 with the same words."""
    world = two_power_world()
    order_validate(nation=world.gb, turn=world.turn, body=body)  # possible when given
    order = Order.objects.create(
        campaign=world.campaign, turn=world.turn, nation=world.gb, position=1, kind=body["kind"], body=body
    )
    Port.objects.filter(pk=world.portsmouth.pk).update(**change)
    with pytest.raises(OrderRefused) as refused:
        order_validate(nation=world.gb, turn=world.turn, body=body)
    before = state(world.gb)
    assert phase_run(turn_id=world.turn.pk, number=2, now=timezone.now())
    order.refresh_from_db()
    assert order.outcome == "skipped"
    assert refused.value.message.endswith(f": {order.outcome_note.rstrip('.')}.")
    assert state(world.gb) == before  # nothing paid, nothing built
