"""Fire combat for a storming fought on the table (seed 003, La Bataille Premier Rules, page 24).

Seed 003 says, verbatim:

* PROCEDURE — "To fire against a hex, simply total the eligible fire factors and compare this sum
  to the fire defense factor. Make sure to take into account the number of increments in the hex;
  the tactical organization; and the terrain. Establish the odds (round any fractions down); roll
  the dice, and find the result on the Fire Combat Chart . The result is the number of increments
  lost."
* EXAMPLE — "Their combined fire equals 14. The fire defense of a line formation with less than
  seven increments is 9 in clear terrain. This translates into 14 to 9 or 1 1/2 to 1 on the Fire
  Combat Chart . The dice are rolled with a result of 43. By cross-indexing the dice roll of 43 with
  the odds column, 1.5 – 1, we see that “1” is the result."
* FLOOR — "Whenever a modified dice roil falls below 11 on the Fire Combat Chart , the result of 11
  will be applied."
* MASSED TARGETS — "Any time a target hex has more than nine increments; there is an addition to
  the fire attack dice roll. Add one to the die roll for each increment over nine."
* "When a unit is in line formation and has seven or more increments present in the hex, it will
  have the fire defense of a column."
* "When an infantry unit is in Carre , or an infantry and artillery unit is in square the fire
  defense of the square is “4”."
* "When a fire attack is made through the flank hex of a unit in line formation, the defender will
  have a fire defense of “5”."
* "A hex may be the designated target only once during a fire segment"

What the seed does not give, and the house default [H] used instead (RULES.md: "the seeds refer to
rulebooks that are not public, so we fill the gaps with simple, consistent rules"):

* **The Fire Combat Chart itself is not in the seed.** :data:`HOUSE_FIRE_CHART` is a house chart:
  odds columns 1–3, 1–2, 1–1.5, 1–1, 1.5–1, 2–1, 3–1, 4–1, 5–1 and 6–1, rows by tens of the
  modified roll (11–20 … 61–70, and 71 or more, reached only with the massed-target modifier), and
  in each cell the increments lost. It agrees with the seed's only worked example
  (14 against 9 is 1.5–1; a roll of 43 there loses 1 increment) and gives more losses for better
  odds and higher rolls, which the tests check. A group that owns La Bataille's chart can pass its
  own :class:`FireChart` instead.
* "The dice" are read as La Bataille's two six-sided dice, the first the tens and the second the
  units (11 to 66): the example's "43".
* Odds are rounded down to the nearest column at or below the exact ratio (14:9 = 1.56 → 1.5–1;
  9:14 → 1–2). Odds worse than the lowest column cause no loss; odds better than the highest use the
  highest.

The assault aid (:func:`assault_forces`) fills in the forces' factors of a storming from what the
campaign knows (RULES.md §7: besieging land units; the garrison, Gibraltar's counted five times;
the coastal forts; artillery batteries; a siege train). The campaign's land units are generic, so
their La Bataille values are house defaults [H], printed with the aid:

* a land unit is one infantry unit of :data:`UNIT_INCREMENTS` (6) increments — under the seed's
  seven, so in line it keeps the seed's line defence;
* it fires :data:`UNIT_FIRE_FACTOR` (6, one per increment) at one hex ("All infantry … have a range
  of one hex");
* each coastal fort, artillery battery and siege train fires as one battery:
  :data:`GUN_FIRE_FACTOR` (7, the seed's "at medium range where they both fire 7");
* besiegers in line in the open defend at :data:`OPEN_DEFENCE` (9, the seed's "line formation with
  less than seven increments is 9 in clear terrain"); the garrison behind the port's works at
  :data:`WORKS_DEFENCE` (twice that).

The rolling function logs both dice in a :class:`~rules.strategic_log.StrategicLog` as
``fire_combat`` (the tens die carries the roll's modifier) and returns a frozen result.

The package keeps each part with what reads it, by concern: the odds and the house chart
(:mod:`.chart`), one fire's defence, modifier and roll (:mod:`.fire`), the printed tables
(:mod:`.printed`) and the storming's forces in the seed's terms (:mod:`.assault`). Callers import from
here.

Pure Python: no Django, no I/O.
"""

from rules.tabletop.fire_combat.assault import (
    ASSAULT_HEADERS,
    GUN_FIRE_FACTOR,
    OPEN_DEFENCE,
    UNIT_FIRE_FACTOR,
    UNIT_INCREMENTS,
    WORKS_DEFENCE,
    AssaultForces,
    AssaultSide,
    assault_forces,
    assault_table,
)
from rules.tabletop.fire_combat.chart import (
    HOUSE_FIRE_CHART,
    LINE_AS_COLUMN_FROM,
    LINE_FLANK_DEFENCE,
    LOWEST_ROLL,
    MASSED_ABOVE,
    SEED,
    SOURCE,
    SQUARE_DEFENCE,
    FireChart,
    Odds,
)
from rules.tabletop.fire_combat.fire import (
    FireResult,
    Formation,
    fire_for,
    massed_target_modifier,
    roll_fire,
    target_fire_defence,
)
from rules.tabletop.fire_combat.printed import (
    FIRE_RESULT_HEADERS,
    fire_chart_table,
    fire_procedure_table,
    fire_result_row,
)

__all__ = [
    "ASSAULT_HEADERS",
    "FIRE_RESULT_HEADERS",
    "GUN_FIRE_FACTOR",
    "HOUSE_FIRE_CHART",
    "LINE_AS_COLUMN_FROM",
    "LINE_FLANK_DEFENCE",
    "LOWEST_ROLL",
    "MASSED_ABOVE",
    "OPEN_DEFENCE",
    "SEED",
    "SOURCE",
    "SQUARE_DEFENCE",
    "UNIT_FIRE_FACTOR",
    "UNIT_INCREMENTS",
    "WORKS_DEFENCE",
    "AssaultForces",
    "AssaultSide",
    "FireChart",
    "FireResult",
    "Formation",
    "Odds",
    "assault_forces",
    "assault_table",
    "fire_chart_table",
    "fire_for",
    "fire_procedure_table",
    "fire_result_row",
    "massed_target_modifier",
    "roll_fire",
    "target_fire_defence",
]
