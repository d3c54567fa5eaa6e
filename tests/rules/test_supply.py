"""RULES.md §8 supply of fleets and land units, and the sea-zone graph helpers (§4 retreat)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.ruleset import DEFAULT_RULESET, Ruleset
from rules.supply import (
    FleetPosition,
    Supply,
    SupplyContext,
    SupplyPort,
    SupplyReason,
    UnitPosition,
    ZoneGraph,
    fleet_supply,
    fleets_supply,
    graph_errors,
    graph_is_connected,
    out_of_supply_streak,
    retreat_step,
    unit_supply,
    units_supply,
    zone_distances,
)

R = DEFAULT_RULESET

# a — b — c — d — e, and f hanging off b.
GRAPH: ZoneGraph = {
    "a": {"b"},
    "b": {"a", "c", "f"},
    "c": {"b", "d"},
    "d": {"c", "e"},
    "e": {"d"},
    "f": {"b"},
}
ALLIES = {"FR": {"ES"}, "ES": {"FR"}}


def ctx(*ports: SupplyPort, turn: int = 10, ruleset: Ruleset = R, unpaid: tuple[str, ...] = ()) -> SupplyContext:
    return SupplyContext.build(
        graph=GRAPH, ports=ports, allies=ALLIES, turn=turn, ruleset=ruleset, unpaid_upkeep=unpaid
    )


def at_sea(zone: str, nation: str = "FR", left: int | None = None) -> FleetPosition:
    return FleetPosition(fleet_id=1, nation=nation, zone=zone, left_port_turn=left)


def in_port(port: SupplyPort, nation: str = "FR") -> FleetPosition:
    return FleetPosition(fleet_id=1, nation=nation, zone=port.zone, port=port.key)


TOULON = SupplyPort("toulon", "a", "FR")
CADIZ = SupplyPort("cadiz", "a", "ES")
GIBRALTAR = SupplyPort("gibraltar", "c", "GB")


# --- graph helpers -------------------------------------------------------------------------------


def test_distances_count_adjacency_steps_from_the_nearest_source() -> None:
    """Breadth-first steps, sources at 0; capped at max_steps when given."""
    assert zone_distances(GRAPH, ["a"]) == {"a": 0, "b": 1, "c": 2, "f": 2, "d": 3, "e": 4}
    assert zone_distances(GRAPH, ["a", "e"]) == {"a": 0, "e": 0, "b": 1, "d": 1, "c": 2, "f": 2}
    assert zone_distances(GRAPH, ["a"], max_steps=1) == {"a": 0, "b": 1}


def test_a_sound_graph_has_no_errors_and_a_broken_one_says_what_is_wrong() -> None:
    """Adjacency is symmetric, never to itself, and only between known zones."""
    assert graph_errors(GRAPH) == []
    broken: ZoneGraph = {"a": {"b", "a"}, "b": set(), "c": {"x"}}
    assert graph_errors(broken) == [
        "a: adjacent to itself",
        "a: adjacent to b, but b is not adjacent to a",
        "c: adjacent to unknown zone x",
    ]


def test_connectivity_check_finds_an_island() -> None:
    """Every zone must reach every other for movement and supply to make sense."""
    assert graph_is_connected(GRAPH)
    assert not graph_is_connected({**GRAPH, "island": set()})


def test_retreat_goes_first_step_towards_the_nearest_own_port() -> None:
    """§4 "default: the first step towards its nearest own port"."""
    assert retreat_step(GRAPH, "c", ["e"]) == "d"
    assert retreat_step(GRAPH, "c", ["a", "e"]) == "b"  # a and e both 2 away: tie → lower key b


def test_retreat_ties_go_to_the_lower_zone_key() -> None:
    """§4 "ties: lower zone key": from b, zones a and f are both 1 step from ports in a and f."""
    assert retreat_step(GRAPH, "b", ["f", "a"]) == "a"
    assert retreat_step(GRAPH, "b", []) == "a"  # no own port at all: every neighbour ties


# --- fleets: (a) in port -------------------------------------------------------------------------


def test_a_fleet_in_its_own_port_is_in_supply() -> None:
    """§8 "(a) in an own or allied port"."""
    assert fleet_supply(in_port(TOULON), ctx(TOULON)) == Supply(True, SupplyReason.IN_PORT, "toulon")


def test_a_fleet_in_an_allied_port_is_in_supply() -> None:
    """§8 "(a) in an own or allied port"."""
    assert fleet_supply(in_port(CADIZ, "FR"), ctx(CADIZ)).in_supply


def test_a_port_only_besieged_or_only_blockaded_still_feeds_its_fleet() -> None:
    """§8 "(a) [...] unless that port is both besieged and blockaded against it"."""
    besieged = SupplyPort("toulon", "a", "FR", besieged=True)
    blockaded = SupplyPort("toulon", "a", "FR", blockaded_against=frozenset({"FR"}))
    assert fleet_supply(in_port(besieged), ctx(besieged)).in_supply
    assert fleet_supply(in_port(blockaded), ctx(blockaded)).in_supply


def test_a_fleet_in_a_besieged_and_blockaded_port_starves() -> None:
    """§8 "(a) [...] unless that port is both besieged and blockaded against it"; a supply port two
    zones away does not feed ships inside the port (they are not in the zone, §4)."""
    starving = SupplyPort("toulon", "a", "FR", besieged=True, blockaded_against=frozenset({"FR"}))
    neighbour = SupplyPort("genoa", "b", "FR")
    verdict = fleet_supply(in_port(starving), ctx(starving, neighbour))
    assert verdict == Supply(False, SupplyReason.STARVED, "toulon")


def test_a_blockade_against_another_nation_does_not_starve_this_fleet() -> None:
    """§8 "blockaded against it": a Spanish fleet in Toulon, blockaded only against France, eats."""
    port = SupplyPort("toulon", "a", "FR", besieged=True, blockaded_against=frozenset({"FR"}))
    assert fleet_supply(in_port(port, "ES"), ctx(port)).in_supply


def test_a_fleet_in_a_hostile_port_is_in_supply_unless_blockaded() -> None:
    """§7 Treachery in Port [S]: "considered in supply while in port unless [...] blockade"."""
    open_port = SupplyPort("gibraltar", "c", "GB", besieged=True)
    shut_port = SupplyPort("gibraltar", "c", "GB", besieged=True, blockaded_against=frozenset({"RU"}))
    assert fleet_supply(in_port(open_port, "RU"), ctx(open_port)).reason is SupplyReason.HOSTILE_PORT
    assert fleet_supply(in_port(shut_port, "RU"), ctx(shut_port)) == Supply(False, SupplyReason.BLOCKADED, "gibraltar")


# --- fleets: (b) near a supply point -------------------------------------------------------------


def test_a_fleet_two_steps_from_a_supply_point_is_in_supply() -> None:
    """§8 "(b) its zone is at most 2 adjacency steps from the zone of an own or allied port"."""
    for zone in ("a", "b", "c", "f"):
        assert fleet_supply(at_sea(zone), ctx(TOULON)) == Supply(True, SupplyReason.NEAR_PORT, "toulon")


def test_a_fleet_three_steps_from_any_supply_point_is_out_of_supply() -> None:
    """§8 "(b) [...] at most 2 adjacency steps": zone d is 3 steps from Toulon."""
    assert fleet_supply(at_sea("d"), ctx(TOULON)) == Supply(False, SupplyReason.OUT_OF_RANGE)


def test_an_allied_port_supplies_the_sea_around_it() -> None:
    """§8 "(b) [...] of an own or allied port"."""
    assert fleet_supply(at_sea("c", "FR"), ctx(CADIZ)).port == "cadiz"


def test_an_enemy_port_supplies_nobody_at_sea() -> None:
    """§8 "(b) [...] of an own or allied port": Gibraltar does not feed a French fleet."""
    assert not fleet_supply(at_sea("c", "FR"), ctx(GIBRALTAR)).in_supply


def test_a_port_blockaded_against_the_fleet_does_not_supply_it() -> None:
    """§8 "(b) [...] a port that is not blockaded against it"."""
    blockaded = SupplyPort("toulon", "a", "FR", blockaded_against=frozenset({"FR"}))
    assert not fleet_supply(at_sea("b"), ctx(blockaded)).in_supply
    # Blockaded against France only: its Spanish ally is still fed from it.
    assert fleet_supply(at_sea("b", "ES"), ctx(blockaded)).in_supply


def test_a_besieged_port_that_is_open_to_sea_still_supplies() -> None:
    """§8 (b) asks only "not blockaded against it and is a supply point"."""
    besieged = SupplyPort("toulon", "a", "FR", besieged=True)
    assert fleet_supply(at_sea("b"), ctx(besieged)).in_supply


def test_a_port_taken_this_turn_or_last_is_no_supply_point() -> None:
    """§8 "(b) [...] and is a supply point"; §7 "In T+1 the port is settling: no [...] supply"."""
    settling = SupplyPort("toulon", "a", "FR", supply_point=False)
    assert not fleet_supply(at_sea("b"), ctx(settling)).in_supply
    # (a) does not ask for a supply point: its own fleet in the port is fed (house resolution).
    assert fleet_supply(in_port(settling), ctx(settling)).in_supply


def test_the_nearest_supply_point_is_named() -> None:
    """The verdict names the port that feeds the fleet: the nearest, ties → lower port key."""
    near = SupplyPort("genoa", "b", "FR")
    assert fleet_supply(at_sea("c"), ctx(TOULON, near)).port == "genoa"
    twin = SupplyPort("antibes", "a", "FR")
    assert fleet_supply(at_sea("b"), ctx(TOULON, twin)).port == "antibes"


def test_the_supply_range_is_the_campaigns_setting() -> None:
    """Every number is a setting: with supply.range_steps 1, zone c (2 steps) is out."""
    house = Ruleset.from_flat({"supply.range_steps": 1})
    assert not fleet_supply(at_sea("c"), ctx(TOULON, ruleset=house)).in_supply
    assert fleet_supply(at_sea("b"), ctx(TOULON, ruleset=house)).in_supply


# --- fleets: (c) recently left port --------------------------------------------------------------


@pytest.mark.parametrize(("left", "expected"), [(10, True), (9, True), (8, True), (7, False), (None, False)])
def test_a_fleet_that_left_port_in_the_last_three_turns_is_in_supply(left: int | None, expected: bool) -> None:
    """§8 "(c) it left an own or allied port this turn or in one of the two previous turns"
    (the turn is 10)."""
    verdict = fleet_supply(at_sea("e", left=left), ctx(TOULON))
    assert verdict.in_supply is expected
    assert verdict.reason is (SupplyReason.LEFT_PORT if expected else SupplyReason.OUT_OF_RANGE)


def test_unpaid_upkeep_puts_every_ship_of_the_nation_out_of_supply() -> None:
    """§2 "all that nation's ships count as out of supply until the end of the next turn"."""
    c = ctx(TOULON, unpaid=("FR",))
    assert fleet_supply(in_port(TOULON), c) == Supply(False, SupplyReason.UNPAID_UPKEEP)
    assert fleet_supply(at_sea("b", left=10), c).reason is SupplyReason.UNPAID_UPKEEP
    assert fleet_supply(in_port(TOULON, "ES"), c).in_supply


def test_many_fleets_are_keyed_by_id() -> None:
    """One verdict per fleet, keyed by the caller's fleet id."""
    fleets = [FleetPosition(5, "FR", "a", "toulon"), FleetPosition(6, "FR", "e")]
    assert {k: v.in_supply for k, v in fleets_supply(fleets, ctx(TOULON)).items()} == {5: True, 6: False}


# --- land units ----------------------------------------------------------------------------------


def test_a_garrison_is_in_supply_unless_its_port_is_besieged_and_blockaded() -> None:
    """§8 "in an own or allied port they are in supply unless it is both besieged and blockaded
    against its owner (starvation)"."""
    open_port = SupplyPort("toulon", "a", "FR", besieged=True)
    starving = SupplyPort("toulon", "a", "FR", besieged=True, blockaded_against=frozenset({"FR"}))
    unit = UnitPosition(1, "FR", port="toulon")
    assert unit_supply(unit, ctx(open_port), {}).in_supply
    assert unit_supply(unit, ctx(starving), {}) == Supply(False, SupplyReason.STARVED, "toulon")


def test_allied_guests_starve_with_the_port_owner() -> None:
    """§8 "blockaded against its owner": Spanish guests in besieged Toulon blockaded against France."""
    starving = SupplyPort("toulon", "a", "FR", besieged=True, blockaded_against=frozenset({"FR"}))
    assert not unit_supply(UnitPosition(1, "ES", port="toulon"), ctx(starving), {}).in_supply


def test_besiegers_are_in_supply_unless_the_port_is_blockaded_against_them() -> None:
    """§8 "besiegers are in supply unless the port is blockaded against them"."""
    port = SupplyPort("gibraltar", "c", "GB", besieged=True)
    shut = SupplyPort("gibraltar", "c", "GB", besieged=True, blockaded_against=frozenset({"ES"}))
    besieger = UnitPosition(1, "ES", port="gibraltar")
    assert unit_supply(besieger, ctx(port), {}).in_supply
    assert unit_supply(besieger, ctx(shut), {}) == Supply(False, SupplyReason.BLOCKADED, "gibraltar")


def test_embarked_units_share_their_fleets_supply() -> None:
    """§8 "embarked units share their fleet's supply"."""
    fleets = {3: Supply(False, SupplyReason.OUT_OF_RANGE), 4: Supply(True, SupplyReason.LEFT_PORT)}
    verdicts = units_supply([UnitPosition(1, "FR", fleet_id=3), UnitPosition(2, "FR", fleet_id=4)], ctx(TOULON), fleets)
    assert {k: (v.in_supply, v.reason) for k, v in verdicts.items()} == {
        1: (False, SupplyReason.EMBARKED),
        2: (True, SupplyReason.EMBARKED),
    }


def test_a_unit_is_either_ashore_or_aboard() -> None:
    """A land unit is in a port or on a transport, never both or neither (§7)."""
    with pytest.raises(ValueError, match="exactly one"):
        UnitPosition(1, "FR")
    with pytest.raises(ValueError, match="exactly one"):
        UnitPosition(1, "FR", port="toulon", fleet_id=2)


def test_the_out_of_supply_streak_counts_consecutive_turns_and_resets() -> None:
    """§8 "from its fleet's third consecutive turn out of supply": the count the caller keeps."""
    assert out_of_supply_streak(0, False) == 1
    assert out_of_supply_streak(2, False) == 3
    assert out_of_supply_streak(5, True) == 0


def test_a_port_in_an_unknown_zone_is_refused() -> None:
    """Every port lies in one sea zone of the map (§4)."""
    with pytest.raises(ValueError, match="unknown zone"):
        ctx(SupplyPort("atlantis", "nowhere", "FR"))


@given(zone=st.sampled_from(sorted(GRAPH)), steps=st.integers(0, 5))
def test_supply_by_distance_agrees_with_breadth_first_steps(zone: str, steps: int) -> None:
    """(b) is exactly "distance ≤ supply.range_steps" for every zone and range."""
    house = Ruleset.from_flat({"supply.range_steps": steps})
    expected = zone_distances(GRAPH, ["a"])[zone] <= steps
    assert fleet_supply(at_sea(zone), ctx(TOULON, ruleset=house)).in_supply is expected
