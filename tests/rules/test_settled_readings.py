"""RULES.md §12, the umpire's settled readings that the pure rule modules keep (one test per reading,
quoting it). The campaign-level readings are pinned beside the phases they amend
(tests/campaign/test_settled_readings_*.py, tests/rules/test_fireships.py for §12.10)."""

from __future__ import annotations

from rules.dice import ScriptedDice
from rules.economy import EconomyShip, scenario_balance
from rules.ruleset import DEFAULT_RULESET
from rules.siege import SiegeState, SiegeUnit, siege_modifiers, siege_roll
from rules.strategic_log import StrategicLog

R = DEFAULT_RULESET


def _siege(b: int, g: int, *, ff: int = 0, blockaded: bool = True, earlier: int = 0) -> SiegeState:
    return SiegeState(
        port="malta",
        besiegers=tuple(SiegeUnit(100 + i, "FR") for i in range(b)),
        garrison=tuple(SiegeUnit(1 + i, "GB") for i in range(g)),
        fortification=ff,
        blockaded=blockaded,
        earlier_turns=earlier,
    )


def test_12_1_starting_treasury_is_twice_the_income_actually_received() -> None:
    """§12.1: "Starting treasury = 2 × the income the nation actually receives per turn, i.e. 2 ×
    (base income after the clamp + Σ own ports' EP); where the ports alone exceed the target (DK and
    NA in 1805), that is 2 × the ports' EP." "SOL owned" is §1's sol: building, in ordinary and
    captured ones included."""
    # One frigate: upkeep ceil(4/20) = 1, margin max(2, ceil(0/10)) = 2: target 3; four dockyard
    # ports are worth 8 > 3, so base income clamps at 0 and the treasury is 2 × 8.
    small = scenario_balance([EconomyShip("frigate", "ready")], [True] * 4, R)
    assert (small.total_income, small.base_income, small.ports_ep) == (3, 0, 8)
    assert small.starting_treasury == 16 == 2 * small.income_per_turn
    # A keel on the stocks and a ship laid up count as SOL owned (11 SOL: margin ceil(11/10) = 2).
    ships = [EconomyShip("3rd-74", "ready")] * 9 + [
        EconomyShip("3rd-74", "building"),
        EconomyShip("3rd-74", "ready", in_ordinary=True),
    ]
    assert scenario_balance(ships, [], R).sol == 11


def test_12_3_siege_superiority_is_tiered_not_cumulative() -> None:
    """§12.3: "… +1 if B ≥ 2G, or +2 if B ≥ 3G, or +3 if B ≥ 4G (only the highest that applies) …"."""
    assert [siege_modifiers(_siege(b, 1), R).superiority for b in (1, 2, 3, 4, 8)] == [0, 1, 2, 3, 3]


def test_12_4_the_siege_total_is_not_clamped() -> None:
    """§12.4: "The siege total is d10 + modifiers, not clamped (§0 clamps only combat dice); the log
    records the total (e.g. −7 or 15)"."""
    low = StrategicLog()
    siege_roll(_siege(1, 2, ff=6, blockaded=False), R, ScriptedDice([1]), low)
    (die,) = low.records
    assert die.result == 1 - 6 - 2 == -7
    high = StrategicLog()
    siege_roll(_siege(8, 2, ff=0, earlier=4), R, ScriptedDice([10]), high)
    (die,) = high.records
    assert die.result == 10 + 3 + 4 + 2 == 19
