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
=================================  ===========================  ====================================

Conventions shared by every module:

* Dice are injected (:class:`rules.dice.Dice`: ``SeededDice`` in production, ``ScriptedDice`` for
  tests and for dice entered by hand). A function that rolls also takes a
  :class:`rules.strategic_log.StrategicLog` and a ``place`` (the battle's zone or port key) and
  appends every die, in the order rolled, with a tabletop purpose (``wind_initial``,
  ``wind_change``, ``wind_speed``, …), so the pack's rolls sit in the same dice log as every other
  roll and replay from their raw faces.
* Every function has a twin that takes the faces instead of the dice (``…_for``), used by the
  rolling function itself and by a pack that prints results for dice thrown at the table.
* Results are frozen dataclasses. Bad input raises :class:`ValueError` naming what was wrong and
  what is allowed.
* Where a seed is ambiguous or silent, the module's docstring records the house decision; where a
  seed contradicts RULES.md, RULES.md wins.

Pure Python: no Django, no app imports (the import-linter contract "The rules engine is pure").
"""
