"""RULES.md §12, the umpire's settled readings that the pure rule modules keep (one test per reading,
quoting it). The campaign-level readings are pinned beside the phases they amend
(tests/campaign/test_settled_readings_*.py, tests/rules/test_fireships.py for §12.10)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from battles.engagements.loading import _escorts_transports
from battles.engine.contacts import SightingResult, sighting_roll
from rules.dice import ScriptedDice
from rules.economy import EconomyShip, scenario_balance
from rules.ruleset import DEFAULT_RULESET
from rules.siege import SiegeState, SiegeUnit, siege_modifiers, siege_roll
from rules.strategic_log import StrategicLog
from rules.supply import ZoneGraph, retreat_step

R = DEFAULT_RULESET


@dataclass
class _Ship:
    """A ship as ``_escorts_transports`` reads it: its class only."""

    ship_class: str


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


def test_12_8_the_default_retreat_never_goes_for_a_port_in_the_battle_zone() -> None:
    """§12.8: "(default: the first step of a shortest path to the nearest own port outside the battle
    zone; the default never enters a port in the battle zone — a player who wants that port names it
    as retreat port; ties, between ports or paths: the lower key of the first step)"."""
    # a — b — c — d — e: the battle is in c, where the nation has a port; its other port is in e.
    graph: ZoneGraph = {"a": {"b"}, "b": {"a", "c"}, "c": {"b", "d"}, "d": {"c", "e"}, "e": {"d"}}
    assert retreat_step(graph, "c", ["c", "e"]) == "d"  # towards e, not b (the lower key)
    assert retreat_step(graph, "c", ["a", "c", "e"]) == "b"  # a and e both 2 away: the lower first step
    assert retreat_step(graph, "c", ["c"]) == "b"  # no own port outside: every neighbour ties


def test_12_13_a_side_of_transports_only_escorts_nothing() -> None:
    """§12.13: "… +1 if the target side has more than 20 ships at sea there or escorts transports (has
    transports and at least one other ship) (+1 at most) …"."""
    assert not _escorts_transports(cast(Any, [_Ship("transport"), _Ship("transport")]))
    assert _escorts_transports(cast(Any, [_Ship("transport"), _Ship("frigate")]))
    assert not _escorts_transports(cast(Any, [_Ship("frigate")]))
    both = sighting_roll(
        ScriptedDice([3]), zone_type="open", light_ships=1, target_ships_at_sea=25, target_escorts_transports=True
    )
    assert [m for m in both.modifiers if m[0] == "large target or transports"] == [("large target or transports", 1)]


def test_12_14_a_pursuer_re_sights_at_plus_one_against_the_zones_own_number() -> None:
    """§12.14: "… a pursuer re-sights at +1 against the zone's threshold (the 3+ of fleets that left
    or entered a port applies only to the movement step in which they did, not to a pursuit), with
    the other sighting modifiers, and intercepts …"."""
    result = sighting_roll(ScriptedDice([3]), zone_type="open", light_ships=1, target_ships_at_sea=5, pursuit=True)
    assert result.needed == 5 and ("pursuit", 1) in result.modifiers and not result.sighted  # 3 + 1 < 5


def test_12_15_sighting_in_the_besieged_port_engagement() -> None:
    """§12.15: "… sighting 3+ with every ordinary sighting modifier and +2 (a natural 1 fails, a
    natural 6 sights); a modified total of 6 or more catches them at anchor [S: 000:36] …"."""

    def roll(face: int, light_ships: int) -> SightingResult:
        return sighting_roll(
            ScriptedDice([face]), zone_type="ocean", light_ships=light_ships, target_ships_at_sea=3, besieged_port=True
        )

    caught = roll(4, light_ships=0)  # 4 − 1 (no light ships) + 2 = 5: sighted (3+), not at anchor
    assert (caught.needed, caught.sighted, caught.at_anchor) == (3, True, False)
    anchored = roll(4, light_ships=3)  # 4 + 1 + 2 = 7: at anchor
    assert anchored.at_anchor
    assert not roll(1, light_ships=3).sighted
