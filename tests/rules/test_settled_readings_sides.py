"""RULES.md §12.6 and §12.7, the settled readings of §4 "Sides": who takes part and how side 2 is built
(:func:`campaign.turn.sea.contacts.sides_split`, plain data in: no database)."""

from __future__ import annotations

from campaign.selectors import Diplomacy
from campaign.turn.sea.contacts import sides_split

GB, FR, PT, SP, NL, RU = 1, 2, 3, 4, 5, 6
CODE = {GB: "GB", FR: "FR", PT: "PT", SP: "SP", NL: "NL", RU: "RU"}


def _split(sol: dict[int, int], wars: list[tuple[int, int]], alliances: list[tuple[int, int]]):
    states = {frozenset(p): "war" for p in wars} | {frozenset(p): "alliance" for p in alliances}
    found = sides_split(sol, sol=sol, code=CODE, diplomacy=Diplomacy(states))
    return None if found is None else tuple(sorted(CODE[n] for n in side) for side in found)


def test_12_6_an_ally_at_war_with_no_one_present_stays_out_and_its_alliances_count_for_nothing() -> None:
    """§12.6: "Only the nations at sea in the zone that are at war with at least one other nation at sea
    there take part; the others (allies included) stay out and their alliances count for nothing in
    forming the sides: "allied to side 1" and "their allies" mean allies that take part."

    Portugal, allied to Britain and to France and at war with nobody, stays out; its alliance with France
    does not keep France out of side 2."""
    sides = _split({GB: 10, FR: 8, PT: 3}, wars=[(GB, FR)], alliances=[(GB, PT), (FR, PT)])
    assert sides == (["GB"], ["FR"])


def test_12_6_allies_that_take_part_join_their_side() -> None:
    """§12.6: "their allies" are the allies that take part: the Dutch, allied to France and at war with
    Britain, join France; Portugal, allied to Britain but at peace with everyone there, does not."""
    sides = _split({GB: 10, FR: 8, NL: 4, PT: 3}, wars=[(GB, FR), (GB, NL)], alliances=[(FR, NL), (GB, PT)])
    assert sides == (["GB"], ["FR", "NL"])


def test_12_7_side_2_is_built_one_nation_at_a_time_by_most_sol() -> None:
    """§12.7: "side 2 is built one nation at a time: the nations at war with a side-1 nation, by most SOL
    there (ties: lower code); each joins unless it is allied to a side-1 nation or at war with a nation
    already in side 2 … The nations left out do not fight in this battle."

    France (8 SOL) and Spain (6), both at war with Britain and with each other: France joins, Spain,
    at war with France, is left out. With equal SOL the lower code (France) still goes first."""
    wars = [(GB, FR), (GB, SP), (FR, SP)]
    assert _split({GB: 12, FR: 8, SP: 6}, wars=wars, alliances=[]) == (["GB"], ["FR"])
    assert _split({GB: 12, FR: 6, SP: 8}, wars=wars, alliances=[]) == (["GB"], ["SP"])
    assert _split({GB: 12, FR: 6, SP: 6}, wars=wars, alliances=[]) == (["GB"], ["FR"])


def test_12_7_a_nation_at_war_with_an_ally_of_the_lead_joins_side_2_with_its_allies() -> None:
    """§12.7: side 2 is "the nations at war with a side-1 nation" — side 1 being the nation with most SOL
    and its allies that take part (§4, §12.6) — and "each one that joins brings its allies that take
    part, under the same two conditions".

    Britain leads, Portugal is its ally; Spain is at war with Portugal only, France (Spain's ally) with
    Britain: Spain joins side 2 (at war with Portugal, a side-1 nation) and brings France."""
    sides = _split({GB: 12, PT: 3, SP: 6, FR: 5}, wars=[(PT, SP), (GB, FR)], alliances=[(GB, PT), (SP, FR)])
    assert sides == (["GB", "PT"], ["FR", "SP"])
    # Without France, Britain is at war with nobody there: it stays out (§12.6) and Spain, with more
    # SOL than Portugal, leads side 1.
    alone = _split({GB: 12, PT: 3, SP: 6}, wars=[(PT, SP)], alliances=[(GB, PT)])
    assert alone == (["SP"], ["PT"])


def test_12_7_the_nations_left_out_form_sides_the_same_way_for_a_later_battle() -> None:
    """§12.7: "If, among the nations left out, some are at war with each other, they form sides the same
    way and fight afterwards in the same task". Britain and France fight; Russia and Spain, at war with
    each other and with neither, are left out of that battle and form their own."""
    sol = {GB: 12, FR: 8, RU: 5, SP: 4}
    wars = [(GB, FR), (RU, SP)]
    assert _split(sol, wars=wars, alliances=[]) == (["GB"], ["FR"])
    rest = {n: s for n, s in sol.items() if n in (RU, SP)}
    assert _split(rest, wars=wars, alliances=[]) == (["RU"], ["SP"])
