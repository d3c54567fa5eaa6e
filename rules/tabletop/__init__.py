"""Tabletop battles: the seed documents' tactical tables as pure rule code.

Many groups fight the big battles of a campaign on the table with miniatures. The tables they need
live in the user's seed documents other than the errata; this package implements them so a battle
pack can print them and the server can roll their dice when a group asks. Each module exposes its
tables twice — as typed rows the rule functions use, and as
:class:`~rules.tabletop.printable.PrintableTable` for the pack — built from the same constants.

Tables and their sources (seed file, then the document a reader sees named in the pack):

=================================  ===========================  ====================================
table (module.function)            seed                         what it gives
=================================  ===========================  ====================================
wind.initial_wind_table            004 Battle of Grenada rules  initial wind when unknown (1D6)
wind.wind_change_table             004                          the fifteen-minute wind check
wind.wind_speed_table              004                          wind speed: 2D6 total, higher, lower
tides.tide_timing_table            001 Naval set-up for DBM     low/high water hour from set-up dice
tides.tide_schedule_table          001                          the day's tides for a timing
tides.tide_cycle_table             001                          low 8, flood 17, high 8, ebb 17 bounds
tides.tide_effect_table            001                          shoal water, reefs, tidal marsh by score
tides.tide_modifiers_table         001                          modifiers to the tide-effect roll
tides.grounding_table              001                          grounding numbers, wreck, unstick
tides.marsh_passage_table          001                          boats through flooded marsh (1D6)
forts.fort_sizes_table             002 Blood, Bilge & Iron      small/medium/large: 1/2/3 guns per
                                   Balls (forts)                45° sector, four sectors over 180°
forts.fort_firing_table            002                          +1, no point blank/close, 30" extreme,
                                                                ships fire back 4th rate+, long, on 6
forts.fort_hits_table              002                          the table of sixes (silence, destroy)
forts.fort_mapping_table           002 with RULES.md §6         fortification factor → fort size [H]
forts.port_forts_table             002 with RULES.md §6         one port's forts (Gibraltar: six)
fire_combat.fire_procedure_table   003 La Bataille Premier      fire factors against fire defence,
                                   Rules (fire combat)          odds rounded down, special cases
fire_combat.fire_chart_table       003 (chart: house [H])       increments lost by odds and roll
=================================  ===========================  ====================================

Conventions shared by every module:

* Dice are injected (:class:`rules.dice.Dice`: ``SeededDice`` in production, ``ScriptedDice`` for
  tests and for dice entered by hand). A function that rolls also takes a
  :class:`rules.strategic_log.StrategicLog` and a ``place`` (the battle's zone or port key) and
  appends every die, in the order rolled, with a tabletop purpose (``wind_initial``,
  ``wind_change``, ``wind_speed``, ``setup``, ``tide_effect``, ``grounding``, ``unstick``,
  ``marsh_passage``, ``fort_fire_back``, ``fort_clear``, ``fire_combat``), so the pack's rolls sit in the same dice log as every other
  roll and replay from their raw faces.
* Every function has a twin that takes the faces instead of the dice (``…_for``), used by the
  rolling function itself and by a pack that prints results for dice thrown at the table.
* Results are frozen dataclasses. Bad input raises :class:`ValueError` naming what was wrong and
  what is allowed.
* Where a seed is ambiguous or silent, the module's docstring records the house decision; where a
  seed contradicts RULES.md, RULES.md wins.

Pure Python: no Django, no app imports (the import-linter contract "The rules engine is pure").
"""
