"""RULES.md §2 "Economy": income, upkeep, unpaid upkeep, repairs, scenario balance."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.economy import (
    EconomyShip,
    Income,
    IncomePort,
    ceil_div,
    economy_turn,
    income,
    port_ep_value,
    repair_cost,
    scenario_balance,
    sol_owned,
    upkeep,
)
from rules.ruleset import DEFAULT_RULESET, SHIP_CLASSES, Ruleset

R = DEFAULT_RULESET


def ships(ship_class: str, n: int, condition: str = "ready", *, in_ordinary: bool = False) -> list[EconomyShip]:
    return [EconomyShip(ship_class, condition, in_ordinary) for _ in range(n)]  # type: ignore[arg-type]


# --- income --------------------------------------------------------------------------------------


def test_income_is_base_plus_the_ep_of_each_working_own_port() -> None:
    """§2 "income = base income + the EP value of each own port not besieged, not blockaded against
    it and not taken this turn or last turn"."""
    ports = [
        IncomePort("portsmouth", 2),
        IncomePort("gibraltar", 1, besieged=True),
        IncomePort("malta", 2, blockaded=True),
        IncomePort("minorca", 1, taken_recently=True),
        IncomePort("halifax", 1),
    ]
    result = income(5, ports)
    assert result == Income(base=5, ports=3, paying=("portsmouth", "halifax"))
    assert result.total == 8


# --- upkeep --------------------------------------------------------------------------------------


def test_upkeep_is_a_twentieth_of_the_commissioned_ships_class_ep_rounded_up() -> None:
    """§2 "upkeep = ceil(Σ class EP of its commissioned ships [...] / 20)": 20 EP → 1, 21 EP → 2."""
    assert upkeep(ships("3rd-74", 2), R) == 1
    assert upkeep(ships("3rd-74", 2) + ships("brig", 1), R) == 2
    assert upkeep([], R) == 0


def test_damaged_disabled_captured_ships_and_transports_pay_upkeep() -> None:
    """§2 "damaged, disabled, captured and transports included" (captured ones are simply the
    nation's ships now)."""
    fleet = ships("1st", 1, "damaged") + ships("1st", 1, "disabled") + ships("transport", 20)
    assert upkeep(fleet, R) == 3  # (20 + 20 + 20) / 20


def test_ships_building_sunk_expended_or_in_ordinary_pay_no_upkeep() -> None:
    """§2 "commissioned ships — afloat, not building, not in ordinary"; "A ship in ordinary [...]
    pays no upkeep"."""
    idle = (
        ships("1st", 1, "building")
        + ships("1st", 1, "sunk")
        + ships("fireship", 1, "expended")
        + ships("1st", 1, in_ordinary=True)
    )
    assert upkeep(idle, R) == 0


def test_the_upkeep_divisor_is_the_campaigns_setting() -> None:
    """Every number is a setting: at a divisor of 10, 21 EP cost 3."""
    house = Ruleset.from_flat({"economy.upkeep_divisor": 10})
    assert upkeep(ships("3rd-74", 2) + ships("brig", 1), house) == 3


# --- phase 9 -------------------------------------------------------------------------------------


def test_income_comes_first_then_upkeep_with_one_ledger_line_each() -> None:
    """§2 "first income [...]; then upkeep"; "Every change is one ledger line (turn, amount, reason,
    balance)"."""
    turn = economy_turn(10, Income(base=3, ports=2, paying=("a", "b")), 4)
    assert turn.treasury_after == 11
    assert [(line.amount, line.balance) for line in turn.lines] == [(5, 15), (-4, 11)]
    assert "Income" in turn.lines[0].reason and "Upkeep" in turn.lines[1].reason
    assert not turn.out_of_supply


def test_unpaid_upkeep_pays_what_the_treasury_has_and_records_the_rest() -> None:
    """§2 "If upkeep exceeds the treasury, the treasury pays what it has, the line records the
    unpaid amount, and all that nation's ships count as out of supply"."""
    turn = economy_turn(1, Income(base=2, ports=0, paying=()), 7)
    assert (turn.upkeep_paid, turn.upkeep_unpaid, turn.treasury_after) == (3, 4, 0)
    assert turn.lines[-1].amount == -3 and "4 EP unpaid" in turn.lines[-1].reason
    assert turn.out_of_supply


def test_there_are_no_zero_ledger_lines() -> None:
    """§2 "no zero lines": no income, nothing to pay with → no line at all, the unpaid amount kept."""
    turn = economy_turn(0, Income(base=0, ports=0, paying=()), 2)
    assert turn.lines == ()
    assert turn.upkeep_unpaid == 2 and turn.out_of_supply
    assert economy_turn(4, Income(0, 0, ()), 0).lines == ()


@given(
    treasury=st.integers(0, 10_000),
    base=st.integers(0, 200),
    ports=st.integers(0, 200),
    due=st.integers(0, 500),
)
def test_treasury_is_never_negative_and_equals_the_sum_of_its_lines(
    treasury: int, base: int, ports: int, due: int
) -> None:
    """§2 "in whole EP, never below 0"; "the treasury always equals the sum of its ledger"."""
    turn = economy_turn(treasury, Income(base, ports, ()), due)
    assert turn.treasury_after >= 0
    assert treasury + sum(line.amount for line in turn.lines) == turn.treasury_after
    assert all(line.amount != 0 for line in turn.lines)
    assert turn.upkeep_paid + turn.upkeep_unpaid == due
    balance = treasury
    for line in turn.lines:
        balance += line.amount
        assert line.balance == balance >= 0


# --- repairs -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ship_class", "condition", "cost"),
    [
        ("brig", "damaged", 1),  # 10% of 1 = 0.1 → 1
        ("brig", "disabled", 1),  # 25% of 1 → 1
        ("3rd-74", "damaged", 1),  # 10% of 10 = 1
        ("3rd-74", "disabled", 3),  # 25% of 10 = 2.5 → 3
        ("3rd-64", "damaged", 1),  # 0.8 → 1
        ("1st", "damaged", 2),
        ("1st", "disabled", 5),
        ("2nd", "damaged", 2),  # 1.5 → 2
        ("four-decker", "disabled", 8),  # 7.5 → 8
    ],
)
def test_repairs_cost_a_tenth_or_a_quarter_of_class_ep_rounded_up(ship_class: str, condition: str, cost: int) -> None:
    """§2 "ceil(10% of class EP) if damaged, ceil(25%) if disabled", in whole EP."""
    assert repair_cost(ship_class, condition, R) == cost


def test_a_ready_ship_cannot_be_repaired() -> None:
    """§2 repair is for damaged or disabled ships."""
    with pytest.raises(ValueError, match="cannot be repaired"):
        repair_cost("1st", "ready", R)


@given(pct=st.integers(0, 100), ship_class=st.sampled_from(SHIP_CLASSES))
def test_repair_cost_is_the_exact_ceiling_of_the_percentage(pct: int, ship_class: str) -> None:
    """Integer arithmetic gives exactly ceil(pct × EP / 100), with no float rounding."""
    house = Ruleset.from_flat({"economy.repair_damaged_pct": pct})
    expected = math.ceil(Fraction(pct * R.ship_cost[ship_class], 100))
    assert repair_cost(ship_class, "damaged", house) == expected


@given(a=st.integers(-1000, 1000), b=st.integers(1, 100))
def test_ceil_div_matches_the_exact_ceiling(a: int, b: int) -> None:
    """ceil(a / b) computed without floats."""
    assert ceil_div(a, b) == math.ceil(Fraction(a, b))


# --- scenario balance ----------------------------------------------------------------------------


def test_a_port_is_worth_one_ep_or_two_with_a_dockyard() -> None:
    """§2 "port EP value 1, or 2 with a dockyard"."""
    assert port_ep_value(False, R) == 1
    assert port_ep_value(True, R) == 2


def test_sol_owned_counts_building_and_in_ordinary_but_not_sunk() -> None:
    """§2 "SOL owned" — any condition but sunk, as §1's quota counts them; frigates are not SOL."""
    fleet = (
        ships("3rd-74", 2)
        + ships("1st", 1, "building")
        + ships("3rd-64", 1, in_ordinary=True)
        + ships("2nd", 1, "sunk")
        + ships("frigate", 3)
    )
    assert sol_owned(fleet) == 4


def test_scenario_balance_sets_income_base_and_treasury() -> None:
    """§2 "total income per turn = upkeep of the 1805 commissioned ships + max(2, ceil(SOL owned /
    10)); base income = that − Σ own ports' EP (not below 0); [...] starting treasury = 2 × total
    income per turn"."""
    fleet = (
        ships("3rd-74", 10)  # 100
        + ships("1st", 2)  # 40
        + ships("frigate", 5)  # 20
        + ships("transport", 1)  # 1 → 161 EP → upkeep 9
        + ships("3rd-74", 1, in_ordinary=True)
        + ships("2nd", 1, "building")
    )
    balance = scenario_balance(fleet, [True, True, False, False, False], R)
    assert balance.upkeep == 9
    assert balance.sol == 14 and balance.margin == 2  # ceil(14/10) = 2 = the minimum
    assert balance.total_income == 11
    assert balance.ports_ep == 7 and balance.base_income == 4
    assert balance.income_per_turn == 11 and balance.starting_treasury == 22


def test_a_big_navy_earns_a_margin_of_a_tenth_of_its_sol() -> None:
    """§2 "max(2, ceil(SOL owned / 10))": 31 SOL give a margin of 4."""
    balance = scenario_balance(ships("3rd-64", 31), [], R)
    assert balance.margin == 4
    assert balance.upkeep == 13  # 248 / 20 → 13
    assert balance.base_income == balance.total_income == 17


def test_base_income_never_goes_below_zero() -> None:
    """§2 "base income = that − Σ own ports' EP (not below 0)": many ports, few ships."""
    balance = scenario_balance(ships("brig", 1), [True] * 3, R)
    assert balance.total_income == 3 and balance.ports_ep == 6
    assert balance.base_income == 0
    assert balance.income_per_turn == 6 and balance.starting_treasury == 12


def test_an_unknown_class_or_condition_is_refused() -> None:
    """Classes and conditions are CONTRACT.md's vocabulary."""
    with pytest.raises(ValueError, match="ship class"):
        EconomyShip("galleon", "ready")
    with pytest.raises(ValueError, match="condition"):
        EconomyShip("brig", "afloat")  # type: ignore[arg-type]
