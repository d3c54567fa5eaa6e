"""The order of a side in a fight (RULES.md §4 "Sides", "Line"): which fleet leads, in what order
its ships form the line, and whether a side can form one at all. Shared with phase 3's contacts.
Which fleet leads a side (:func:`~battles.selectors.side_order`) is in :mod:`battles.selectors`,
shared with phase 5's port actions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from battles.engine import line_eligible
from battles.selectors import ship_line_key as line_key
from fleets.models import Ship
from rules.ruleset import Ruleset

#: RULES.md §3: battles are phase 4; a battle's seed is derived from (campaign seed, turn, 4, place, sequence).
BATTLE_PHASE = 4
HELD, RETIRED, BROKE, BEATEN, EVADED = "held", "retired", "broke", "beaten", "evaded"
#: Outcomes after which a side leaves the zone (§4 "After a battle", "Blockade").
LEAVING = frozenset({RETIRED, BROKE, EVADED, BEATEN})
#: The conditions in which a ship can stand in a line (§4).
FIGHTING_CONDITIONS = ("ready", "damaged")


def ship_line_key(ruleset: Ruleset) -> Callable[[Ship], tuple[int, int, int]]:
    """A fleet's line order as a sort key (§4; :func:`battles.selectors.ship_line_key`)."""
    return lambda ship: line_key(ship, ruleset)


def able_to_form_a_line(ships: Sequence[Ship]) -> bool:
    """§4: some ship of the side could form a line (ready or damaged, and not a transport)."""
    fighting = [s for s in ships if s.condition in FIGHTING_CONDITIONS]
    return any(line_eligible([s.ship_class for s in fighting]))
