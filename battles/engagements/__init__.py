"""Fleet actions of phase 4: fighting the engagements phase 3 recorded, recording their battles and
applying the results (RULES.md §4 "Sides", "Weather gauge", "After a battle", "Sally",
"Besieged-port engagement", "Hostile fleets in one port"; §5; §0 admirals; §7 transports).

One call, :func:`engagements_fight_zone`, settles every pending :class:`~battles.models.Engagement`
of one sea zone in one transaction, in sequence order: each is marked fought together with its
:class:`~battles.models.Battle` row and every change to ships, fleets, admirals and land units, so
a battle is fought exactly once however often the call is made (a Celery task per zone, or phase 4
inline for whatever a lost task left). Zones do not share fleets or ships (a fleet is in one zone,
or in a port of that zone, at the end of phase 3), so zones can be fought in parallel.

What a fight uses, by rule:

* **Sides and line** (§4): a side's admiral is its best-graded admiral (ties: the fleet with more
  SOL, then lower fleet id) and the lead fleet is his (with none: most SOL, then lower id). The line
  is the lead fleet's line, then the other fleets by descending SOL (then id), each fleet in its
  line order (``Ship.line_position``; unset: class EP descending, then id), flagship first; of
  these the ready and damaged ships that :func:`~battles.engine.line_eligible` admits form the
  line. Each ship fires with its own (owner's) navy and crew; initiative, integrity, intercept and
  gauge use the lead fleet's nation; the side is out of supply if its lead fleet is.
* **Days** (§5): :func:`~battles.engine.fight_engagement` rolls the gauge each day and handles
  pursuit; a side continues or evades by its lead fleet's ``after_battle`` standing order
  (auto: evade if its L is higher; continue: never evade; evade: always).
* **After the battle** (§4): sunk ships leave their fleets (``lost_turn``); captured ships change
  owner (``original_nation`` kept), take the captor's crew grade and join the captor's lead fleet
  in the condition they were taken in; ships not in the line share their side's fate (captured
  when their side broke or was beaten and the enemy held; otherwise they stay or leave with it);
  a lost or captured transport loses its land unit (§7). A side that retired, broke, evaded or was
  beaten leaves with all its surviving ships to the retreat destination phase 3 worked out for each
  fleet; it meets no one else this turn (later engagements of the zone leave it out). An admiral
  whose flagship is sunk or captured is lost (§0): the side's admiral as the engine tracks him day
  by day, any other fleet's admiral with his fleet's first ship.
* **Kinds**: ``capture`` (a side with no ship able to form a line, caught by one that has, is taken
  whole without a battle); ``sally`` (no sighting or intercept; if the blockaders leave, the port is
  not blockaded this turn; the sallying fleet is back in port at the end of phase 4 whatever
  happens, so it never leaves it in the database); ``besieged_port`` (sighting 3+ at +2, a modified
  6+ catches the ships in port at anchor, intercept +1, gauge +2 to the fleet at sea; the side in
  port stays in port whatever its outcome); ``in_port`` (hostile fleets in one port: no sighting or
  intercept, neither at anchor, the side holding the port's guns — its owner's — has the gauge).

House resolutions (RULES.md is silent):

* Hostile fleets in one port fight one Naval Day: neither can evade or pursue out of the port, and
  both stay in it whatever the outcome.
* Ships laid up in ordinary take no part in a fight in port (they cannot form a line or sail); they
  stay where they are, to be captured with the port (§7) or hit by its guns (§4).
* In a sally the blockaders that leave go to the adjacent zone of their retreat order (never into
  a port of the zone: the rule says they leave the zone).
* A side that finds its enemy gone when its engagement comes up (driven off by an earlier battle in
  the zone) fights nothing; the engagement is closed with a note.

Where each part lives: :mod:`.ordering` (sides and lines, shared with phase 3's contacts),
:mod:`.selectors` (what the turn reads of the fights), :mod:`.loading` (the sides as they stand),
:mod:`.fighting` (the fight of a zone), :mod:`.applying` (the results, written through
:mod:`battles.results`, the one writer shared with the port actions of phase 5), :mod:`.table` (a
battle held back for the table, and its result written as the dice's would be; the packs and the
rest of a table battle are :mod:`battles.tabletop`'s).
"""

from battles.engagements.fighting import (
    engagement_zones_to_dispatch,
    engagements_fight_zone,
    engagements_fight_zones,
    zone_batches,
)
from battles.engagements.ordering import (
    BATTLE_PHASE,
    BEATEN,
    BROKE,
    EVADED,
    HELD,
    LEAVING,
    RETIRED,
    able_to_form_a_line,
    ship_line_key,
)
from battles.engagements.selectors import (
    FleetOutcome,
    engagement_zones_pending,
    engagements_fought,
    fleet_outcomes,
    fleets_worsted,
    ports_unblockaded_by_sally,
)
from battles.selectors import FleetRank, side_order, sol_count

__all__ = [
    "BATTLE_PHASE",
    "BEATEN",
    "BROKE",
    "EVADED",
    "HELD",
    "LEAVING",
    "RETIRED",
    "FleetOutcome",
    "FleetRank",
    "able_to_form_a_line",
    "engagement_zones_pending",
    "engagement_zones_to_dispatch",
    "engagements_fight_zone",
    "engagements_fight_zones",
    "engagements_fought",
    "fleet_outcomes",
    "fleets_worsted",
    "ports_unblockaded_by_sally",
    "ship_line_key",
    "side_order",
    "sol_count",
    "zone_batches",
]
