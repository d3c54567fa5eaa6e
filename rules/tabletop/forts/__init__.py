"""Forts and shore batteries on the table (seed 002, Blood, Bilge & Iron Balls), and the port's forts.

Seed 002's "Optional Rule for Forts and Shore Batteries" says, verbatim:

* SIZES — "Forts can be Small, Medium or Large in size although the Large Forts should be reserved
  for the very largest historical precedents in a scenario." "All forts will have a 180 degree
  firing arc that will be divided into four 45 degree sectors. … All forts can fire at any one
  target within EACH of the four sectors; Small Forts have one gun per sector, Medium Forts two guns
  per sector and Large Forts three guns per sector. Each sector has a firing arc of the same 45
  degrees and no gun can fire into the arc of its neighbour."
* FIRING — "Fort Guns fire during their sides Firing Phase with a +1 modifier but have a minimum
  range; they cannot target anything at point blank or Close Range. Also, Extreme Range is extended
  for Fort Guns by six inches to a maximum of thirty inches rather than the usual twenty four. The
  Fort Guns may target a ship in any of the available range bands but must fire at the nearest ship
  in the chosen range band." "Fort Gun hits are dealt with as ordinary ship hits but will also
  inflict three Crew Star hits rather than the usual one, cause a fire and draw the usual Damage
  Card."
* DEFENCE — "Ships firing at Forts must Fourth Rates or above and be at Long Range but, they will
  only hit on a d6 score of 6. Any hits on the Fort will first silence the guns for a turn with
  excess hits destroying them. Firer rolls one d6 per available gun. One 6 = One gun in quadrant
  silenced for one turn. … Two 6's = One gun in quadrant silenced until cleared with roll of 5 or 6.
  … Three 6's = One gun in quadrant destroyed. Four or more 6's = One gun in quadrant destroyed and
  whole fort silenced for one turn"

The port's forts, as the campaign counts them (RULES.md §6 and §7, which win over the seed):
"Coastal forts = Fortification factor (Gibraltar 2 × = 6) [S]; each is 10 broadsides (a light fort,
FF 1, is 5) for tabletop export." The size of each fort is a house mapping [H], documented here and
printed in the pack (:func:`fort_mapping_table`):

* fortification factor 1 — **small** forts (RULES.md's "light fort");
* fortification factor 2 — **medium** forts (the seed: "most games will only require Small or
  Medium Forts");
* fortification factor 3 or more — **large** forts ("reserved for the very largest historical
  precedents": in the 1805 scenario only Gibraltar, Malta, Brest, Kronstadt and Alexandria);
* each artillery battery of the port is one more **small** fort (the seed: "all land based guns
  will be considered to be in forts unless an historical scenario dictates otherwise").

Gibraltar (FF 3) therefore has six large forts. The number of forts uses the campaign ruleset's
Gibraltar multiplier (``guns.coastal_forts_gibraltar_multiplier``) through
:func:`rules.siege.coastal_forts`, so the pack and the automatic battles count the same forts.

House reading of the range bands: the seed names point blank, close, long and extreme range; forts
fire at long and extreme (to 30 inches), ships fire at forts only from long range.

Rolling functions log their dice in a :class:`~rules.strategic_log.StrategicLog` (purposes
``fort_fire_back`` and ``fort_clear``) and return frozen results.

The package keeps each part of the rule with its rolls, by concern: the fort sizes and who may fire
(:mod:`.firing`), ships' hits on a fort (:mod:`.hits`), a port's forts (:mod:`.port`) and the printed
tables (:mod:`.printed`). Callers import from here.

Pure Python: no Django, no I/O.
"""

from rules.tabletop.forts.firing import (
    ARC_DEGREES,
    CLEAR_ON,
    FORT_CREW_STAR_HITS,
    FORT_EXTREME_EXTENSION_INCHES,
    FORT_EXTREME_RANGE_INCHES,
    FORT_FIRE_MODIFIER,
    FORT_PROFILES,
    GUNS_PER_SECTOR,
    SECTOR_DEGREES,
    SECTORS,
    SEED,
    SHIP_HITS_FORT_ON,
    SOURCE,
    USUAL_EXTREME_RANGE_INCHES,
    FortProfile,
    FortSize,
    Permission,
    RangeBand,
    fort_may_fire,
    fort_profile,
    ship_may_fire_at_fort,
)
from rules.tabletop.forts.hits import (
    FORT_HIT_TABLE,
    ClearGun,
    FireAtFort,
    FortHitEffect,
    FortHitRow,
    clear_gun_for,
    fire_at_fort_for,
    fort_hit_row,
    roll_clear_gun,
    roll_fire_at_fort,
)
from rules.tabletop.forts.port import (
    BATTERIES,
    BATTERY_FORT_SIZE,
    COASTAL,
    LARGE_FROM_FF,
    MEDIUM_FROM_FF,
    FortGroup,
    PortForts,
    fort_size_for,
    port_forts,
)
from rules.tabletop.forts.printed import (
    SHORE_BATTERY_GUNS_PER_BOX,
    fort_firing_table,
    fort_hits_table,
    fort_mapping_table,
    fort_sizes_table,
    port_forts_table,
    shore_battery_table,
)

__all__ = [
    "ARC_DEGREES",
    "BATTERIES",
    "BATTERY_FORT_SIZE",
    "CLEAR_ON",
    "COASTAL",
    "FORT_CREW_STAR_HITS",
    "FORT_EXTREME_EXTENSION_INCHES",
    "FORT_EXTREME_RANGE_INCHES",
    "FORT_FIRE_MODIFIER",
    "FORT_HIT_TABLE",
    "FORT_PROFILES",
    "GUNS_PER_SECTOR",
    "LARGE_FROM_FF",
    "MEDIUM_FROM_FF",
    "SECTORS",
    "SECTOR_DEGREES",
    "SEED",
    "SHIP_HITS_FORT_ON",
    "SHORE_BATTERY_GUNS_PER_BOX",
    "SOURCE",
    "USUAL_EXTREME_RANGE_INCHES",
    "ClearGun",
    "FireAtFort",
    "FortGroup",
    "FortHitEffect",
    "FortHitRow",
    "FortProfile",
    "FortSize",
    "Permission",
    "PortForts",
    "RangeBand",
    "clear_gun_for",
    "fire_at_fort_for",
    "fort_firing_table",
    "fort_hit_row",
    "fort_hits_table",
    "fort_mapping_table",
    "fort_may_fire",
    "fort_profile",
    "fort_size_for",
    "fort_sizes_table",
    "port_forts",
    "port_forts_table",
    "roll_clear_gun",
    "roll_fire_at_fort",
    "ship_may_fire_at_fort",
    "shore_battery_table",
]
