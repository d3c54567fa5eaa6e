"""The order of a side in a fight (RULES.md §4 "Sides", "Line"): which fleet leads, in what order
its ships form the line, and whether a side can form one at all. Shared with phase 3's contacts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from battles.engine import line_eligible
from battles.selectors import ship_line_key as line_key
from fleets.models import Ship
from rules.ruleset import GRADES, SOL_CLASSES, Ruleset

#: RULES.md §3: battles are phase 4; a battle's seed is derived from (campaign seed, turn, 4, place, sequence).
BATTLE_PHASE = 4
HELD, RETIRED, BROKE, BEATEN, EVADED = "held", "retired", "broke", "beaten", "evaded"
#: Outcomes after which a side leaves the zone (§4 "After a battle", "Blockade").
LEAVING = frozenset({RETIRED, BROKE, EVADED, BEATEN})
#: The conditions in which a ship can stand in a line (§4).
FIGHTING_CONDITIONS = ("ready", "damaged")


@dataclass(frozen=True, slots=True)
class FleetRank:
    """What §4's side order needs of one fleet: its SOL at the place and its admiral's grade."""

    fleet_id: int
    sol: int
    admiral_grade: str | None


def side_order(fleets: Iterable[FleetRank]) -> list[int]:
    """§4: fleet ids of one side, lead fleet first, then the others by descending SOL (then id).

    "A side's admiral is its best-graded admiral (ties: the fleet with more SOL, then lower fleet
    id); the lead fleet is his (with no admiral, the fleet with most SOL, then lower id)."
    """
    ranked = sorted(fleets, key=lambda f: (-f.sol, f.fleet_id))
    if not ranked:
        return []
    commanded = [f for f in ranked if f.admiral_grade is not None]
    lead = (
        min(commanded, key=lambda f: (GRADES.index(f.admiral_grade or ""), -f.sol, f.fleet_id))
        if commanded
        else ranked[0]
    )
    return [lead.fleet_id, *(f.fleet_id for f in ranked if f is not lead)]


def ship_line_key(ruleset: Ruleset) -> Callable[[Ship], tuple[int, int, int]]:
    """A fleet's line order as a sort key (§4; :func:`battles.selectors.ship_line_key`)."""
    return lambda ship: line_key(ship, ruleset)


def sol_count(ships: Iterable[Ship]) -> int:
    return sum(1 for s in ships if s.ship_class in SOL_CLASSES)


def able_to_form_a_line(ships: Sequence[Ship]) -> bool:
    """§4: some ship of the side could form a line (ready or damaged, and not a transport)."""
    fighting = [s for s in ships if s.condition in FIGHTING_CONDITIONS]
    return any(line_eligible([s.ship_class for s in fighting]))
