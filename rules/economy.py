"""Income, upkeep, repairs and scenario balance (RULES.md §2 "Economy").

Phase 9: "first income = base income + the EP value of each own port not besieged, not blockaded
against it and not taken this turn or last turn; then upkeep = ceil(Σ class EP of its commissioned
ships — afloat, not building, not in ordinary; damaged, disabled, captured and transports included
— / 20). If upkeep exceeds the treasury, the treasury pays what it has, the line records the unpaid
amount, and all that nation's ships count as out of supply until the end of the next turn."

Repair: "ceil(10% of class EP) if damaged, ceil(25%) if disabled".

Scenario balance: "total income per turn (base + ports) = upkeep of the 1805 commissioned ships +
max(2, ceil(SOL owned / 10)); base income = that − Σ own ports' EP (not below 0); port EP value 1,
or 2 with a dockyard; starting treasury = 2 × total income per turn."

EP are whole numbers and the arithmetic here is integer only (``ceil(a / b)`` is ``-(-a // b)``),
so no rounding of floats ever decides a treasury. A ship's class EP is its ``ship.cost.<class>``
setting (RULES.md §1: the EP column is the cost). Ledger lines are returned as data; writing them
is the caller's.

Pure Python: no Django, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Literal

from rules.ruleset import SHIP_CLASSES, SOL_CLASSES, Ruleset

#: Every condition a ship row can have (CONTRACT.md export).
ShipCondition = Literal["ready", "damaged", "disabled", "sunk", "building", "expended"]
SHIP_CONDITIONS: Final = frozenset({"ready", "damaged", "disabled", "sunk", "building", "expended"})
#: "afloat, not building": the conditions that pay upkeep unless the ship is in ordinary.
_COMMISSIONABLE: Final = frozenset({"ready", "damaged", "disabled"})
#: Conditions a ship is no longer owned in (it counts for nothing).
_GONE: Final = frozenset({"sunk", "expended"})
#: Hundredths: a percentage setting is applied as pct × value / this.
_PERCENT: Final = 100


def ceil_div(numerator: int, denominator: int) -> int:
    """ceil(numerator / denominator) for whole numbers, without floats (denominator > 0)."""
    if denominator <= 0:
        raise ValueError(f"denominator {denominator} must be positive")
    return -(-numerator // denominator)


def class_ep(ship_class: str, ruleset: Ruleset) -> int:
    """The class EP of §1's table (``ship.cost.<class>``); raises ``ValueError`` for an unknown class."""
    try:
        return ruleset.ship_cost[ship_class]
    except KeyError:
        raise ValueError(f"ship class {ship_class!r} is not one of {', '.join(SHIP_CLASSES)}") from None


@dataclass(frozen=True, slots=True)
class EconomyShip:
    """A ship as the economy sees it: class, condition and the in-ordinary flag."""

    ship_class: str
    condition: ShipCondition
    in_ordinary: bool = False

    def __post_init__(self) -> None:
        if self.ship_class not in SHIP_CLASSES:
            raise ValueError(f"ship class {self.ship_class!r} is not one of {', '.join(SHIP_CLASSES)}")
        if self.condition not in SHIP_CONDITIONS:
            raise ValueError(f"condition {self.condition!r} is not one of {', '.join(sorted(SHIP_CONDITIONS))}")

    @property
    def pays_upkeep(self) -> bool:
        """Commissioned: afloat, not building, not in ordinary."""
        return self.condition in _COMMISSIONABLE and not self.in_ordinary


@dataclass(frozen=True, slots=True)
class IncomePort:
    """One of the nation's own ports at phase 9.

    ``blockaded``: blockaded against the owner (after any storm lift). ``taken_recently``: taken
    this turn or last turn (§7: no income while it changes hands and settles).
    """

    key: str
    ep_value: int
    besieged: bool = False
    blockaded: bool = False
    taken_recently: bool = False

    @property
    def pays(self) -> bool:
        return not (self.besieged or self.blockaded or self.taken_recently)


@dataclass(frozen=True, slots=True)
class Income:
    """Income of one turn: ``base`` + ``ports`` (the EP of the paying ports, listed in ``paying``)."""

    base: int
    ports: int
    paying: tuple[str, ...]

    @property
    def total(self) -> int:
        return self.base + self.ports


def income(base_income: int, ports: Iterable[IncomePort]) -> Income:
    """§2 income: base income plus the EP value of each own port that is not besieged, not
    blockaded against the owner and not taken this turn or last turn."""
    if base_income < 0:
        raise ValueError(f"base income {base_income} is negative")
    paying = [p for p in ports if p.pays]
    for port in paying:
        if port.ep_value < 0:
            raise ValueError(f"port {port.key}: EP value {port.ep_value} is negative")
    return Income(base=base_income, ports=sum(p.ep_value for p in paying), paying=tuple(p.key for p in paying))


def upkeep(ships: Iterable[EconomyShip], ruleset: Ruleset) -> int:
    """§2 upkeep: ceil(Σ class EP of commissioned ships / ``economy.upkeep_divisor``)."""
    total = sum(class_ep(s.ship_class, ruleset) for s in ships if s.pays_upkeep)
    return ceil_div(total, ruleset["economy.upkeep_divisor"])


@dataclass(frozen=True, slots=True)
class LedgerLine:
    """One ledger line: signed ``amount``, a ``reason`` a player can read, the ``balance`` after."""

    amount: int
    reason: str
    balance: int


@dataclass(frozen=True, slots=True)
class EconomyTurn:
    """A nation's phase 9: the ledger lines to write (never a zero line), what upkeep cost and
    what went unpaid. ``out_of_supply``: upkeep went unpaid, so all its ships are out of supply
    until the end of the next turn."""

    treasury_before: int
    treasury_after: int
    income: Income
    upkeep_due: int
    upkeep_paid: int
    upkeep_unpaid: int
    lines: tuple[LedgerLine, ...]

    @property
    def out_of_supply(self) -> bool:
        return self.upkeep_unpaid > 0


def economy_turn(treasury: int, turn_income: Income, upkeep_due: int) -> EconomyTurn:
    """Apply phase 9 to a treasury: income first, then upkeep, paying what the treasury has.

    Preconditions: ``treasury`` ≥ 0, ``upkeep_due`` ≥ 0. The treasury after is never negative.
    """
    if treasury < 0:
        raise ValueError(f"treasury {treasury} is negative")
    if upkeep_due < 0:
        raise ValueError(f"upkeep {upkeep_due} is negative")
    lines = []
    balance = treasury
    if turn_income.total:
        balance += turn_income.total
        lines.append(
            LedgerLine(
                amount=turn_income.total,
                reason=f"Income: base {turn_income.base} EP + ports {turn_income.ports} EP",
                balance=balance,
            )
        )
    paid = min(upkeep_due, balance)
    unpaid = upkeep_due - paid
    if upkeep_due:
        balance -= paid
        reason = f"Upkeep: {upkeep_due} EP"
        if unpaid:
            reason += f", {paid} EP paid, {unpaid} EP unpaid: all ships out of supply until the end of next turn"
        # With nothing to pay with there is no line ("no zero lines"): the unpaid amount is
        # still in the result for the turn report.
        if paid:
            lines.append(LedgerLine(amount=-paid, reason=reason, balance=balance))
    return EconomyTurn(
        treasury_before=treasury,
        treasury_after=balance,
        income=turn_income,
        upkeep_due=upkeep_due,
        upkeep_paid=paid,
        upkeep_unpaid=unpaid,
        lines=tuple(lines),
    )


def repair_cost(ship_class: str, condition: str, ruleset: Ruleset) -> int:
    """§2 repair: ceil(``economy.repair_damaged_pct`` % of class EP) for a damaged ship,
    ceil(``economy.repair_disabled_pct`` %) for a disabled one; whole EP. Other conditions cannot
    be repaired (``ValueError``)."""
    if condition == "damaged":
        pct = ruleset["economy.repair_damaged_pct"]
    elif condition == "disabled":
        pct = ruleset["economy.repair_disabled_pct"]
    else:
        raise ValueError(f"a {condition} ship cannot be repaired (only damaged or disabled ones)")
    return ceil_div(pct * class_ep(ship_class, ruleset), _PERCENT)


# --- scenario balance ----------------------------------------------------------------------------


def port_ep_value(dockyard: bool, ruleset: Ruleset) -> int:
    """A port's EP value: 1, or 2 with a dockyard."""
    return ruleset["economy.port_ep_value_dockyard"] if dockyard else ruleset["economy.port_ep_value"]


def sol_owned(ships: Iterable[EconomyShip]) -> int:
    """SOL a nation owns in any condition but sunk (or expended): building and in ordinary count,
    as for §1's quota."""
    return sum(1 for s in ships if s.ship_class in SOL_CLASSES and s.condition not in _GONE)


@dataclass(frozen=True, slots=True)
class ScenarioBalance:
    """A nation's opening economy.

    ``total_income`` is the formula's target; ``income_per_turn`` = ``base_income`` + ``ports_ep``
    is what the nation will actually earn, larger than the target only when its ports alone exceed
    it (base income cannot go below 0). The starting treasury is a multiple of the latter.
    """

    upkeep: int
    sol: int
    margin: int
    total_income: int
    ports_ep: int
    base_income: int
    income_per_turn: int
    starting_treasury: int


def scenario_balance(ships: Iterable[EconomyShip], port_dockyards: Iterable[bool], ruleset: Ruleset) -> ScenarioBalance:
    """§2 scenario balance for one nation from its ships and its own ports (one dockyard flag each).

    total income = upkeep + max(``economy.balance_min_margin``, ceil(SOL / ``economy.balance_sol_per_margin``));
    base income = total − Σ port EP, not below 0; starting treasury =
    ``economy.starting_treasury_turns`` × (base income + Σ port EP).
    """
    ship_list = list(ships)
    cost = upkeep(ship_list, ruleset)
    sol = sol_owned(ship_list)
    margin = max(ruleset["economy.balance_min_margin"], ceil_div(sol, ruleset["economy.balance_sol_per_margin"]))
    total = cost + margin
    ports_ep = sum(port_ep_value(d, ruleset) for d in port_dockyards)
    base = max(0, total - ports_ep)
    return ScenarioBalance(
        upkeep=cost,
        sol=sol,
        margin=margin,
        total_income=total,
        ports_ep=ports_ep,
        base_income=base,
        income_per_turn=base + ports_ep,
        starting_treasury=ruleset["economy.starting_treasury_turns"] * (base + ports_ep),
    )
