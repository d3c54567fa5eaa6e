"""Tabletop battles: the seed documents' tactical tables as pure rule code.

Many groups fight the big battles of a campaign on the table with miniatures. The tables they need
live in the user's seed documents other than the errata (seed 000, implemented by the campaign
itself); this package implements them so a battle pack can print them and the server can roll
their dice when a group asks. Each module exposes its tables twice — as typed rows the rule
functions use, and as :class:`~rules.tabletop.printable.PrintableTable` (title, reader-facing
source, headers, rows, notes) for the pack — built from the same constants, so what the pack prints
is what the functions apply. :mod:`rules.tabletop.tables` groups the static tables by pack section.

Tables and their sources
------------------------

Seed 004 — the Battle of Grenada rules (MWAN #109), module :mod:`~rules.tabletop.wind`:

* ``initial_wind_table`` — "INITIAL WIND: If unknown 1D6: 1-3 = W 4 = NW 5-6 re -roll: …";
  :func:`~rules.tabletop.wind.roll_initial_wind`.
* ``wind_change_table`` — "CHANGES IN WIND: Every fifteen minutes toss 1D6 …";
  :func:`~rules.tabletop.wind.roll_wind_change`.
* ``wind_speed_table`` — "WIND SPEED: … toss 2D6 … Total … HIGHER DIE … LOWER DIE …";
  :func:`~rules.tabletop.wind.roll_wind_speed`.

Seed 001 — naval set-up for DBM by George Smithson (1998), module :mod:`~rules.tabletop.tides`:

* ``tide_timing_table`` — "Set Up Dicing": moonless night, low water at the attacker's die's hour;
  moonlit, high water at the defender's total; :func:`~rules.tabletop.tides.tide_timing_for`,
  :func:`~rules.tabletop.tides.roll_setup_dice`, and ``tide_schedule_table`` for the day's tides.
* ``tide_cycle_table`` — low water 8 bounds, flood 17, high water 8, ebb 17.
* ``tide_effect_table`` and ``tide_modifiers_table`` — the tide-effect chart (shoal water at each
  tide, reefs, tidal marsh) and its six modifiers; :func:`~rules.tabletop.tides.roll_tide_effect`.
* ``grounding_table`` — grounding numbers, wrecking in a strong wind, getting unstuck;
  :func:`~rules.tabletop.tides.roll_grounding`, :func:`~rules.tabletop.tides.roll_unstick`.
* ``marsh_passage_table`` — boats through flooded marsh;
  :func:`~rules.tabletop.tides.roll_marsh_passage`.

Seed 002 — Blood, Bilge & Iron Balls, optional rule for forts, module :mod:`~rules.tabletop.forts`:

* ``fort_sizes_table`` — small, medium, large: 1, 2, 3 guns per 45° sector, four sectors over 180°.
* ``fort_firing_table`` — +1 to fire, no fire at point blank or close range, extreme range 30",
  ships fire back only from long range, fourth rates or above, hitting on a 6.
* ``fort_hits_table`` — the table of sixes; :func:`~rules.tabletop.forts.roll_fire_at_fort`,
  :func:`~rules.tabletop.forts.roll_clear_gun`.
* ``fort_mapping_table`` and ``port_forts_table`` — the port's forts as the campaign counts them
  (RULES.md §6: forts = fortification factor, Gibraltar 2 × = 6) with their size mapped from the
  fortification factor [H]; :func:`~rules.tabletop.forts.port_forts`.
* ``shore_battery_table`` (seed 004, printed with the forts) — "SHORE BATTERIES Each Gun box
  represents 8-14 guns", red hot shot, for groups that fight with the Battle of Grenada rules.

Seed 003 — La Bataille Premier Rules (July 2021), page 24, module
:mod:`~rules.tabletop.fire_combat`:

* ``fire_procedure_table`` — fire factors against the hex's fire defence, odds rounded down, the
  floor of 11, massed targets, squares, flank fire, lines of seven or more increments;
  :func:`~rules.tabletop.fire_combat.roll_fire`.
* ``fire_chart_table`` — increments lost by odds and roll. **The seed does not include the chart**;
  the default is a house chart [H] that fits the seed's worked example (14 against 9, roll 43: one
  increment); a group may pass its own.
* ``assault_table`` — the assault aid: the storming's forces with their fire factors filled in from
  the campaign (house values [H] for its generic land units);
  :func:`~rules.tabletop.fire_combat.assault_forces`.

Decisions
---------

Where a seed is ambiguous or silent, the module's docstring records the house decision [H]; where a
seed contradicts RULES.md, RULES.md wins (the forts' count follows RULES.md §6 and the campaign's
ruleset; nothing else in seeds 001–004 touches a RULES.md rule).

Conventions
-----------

* Dice are injected (:class:`rules.dice.Dice`: ``SeededDice`` in production, ``ScriptedDice`` for
  tests and for dice entered by hand). A function that rolls (``roll_…``) also takes a
  :class:`rules.strategic_log.StrategicLog` and a ``place`` (the battle's zone or port key) and
  appends every die, in the order rolled, with a tabletop purpose — ``wind_initial``,
  ``wind_change``, ``wind_speed``, ``setup``, ``tide_effect``, ``grounding``, ``unstick``,
  ``marsh_passage``, ``fort_fire_back``, ``fort_clear``, ``fire_combat`` — so the pack's rolls sit
  in the same dice log as every other roll and replay from their raw faces
  (``ScriptedDice(log.faces())``).
* Every rolling function has a twin that takes the faces instead (``…_for``): the rolling function
  uses it, and a pack can show the result of dice thrown at the table.
* Results are frozen dataclasses. Bad input raises :class:`ValueError` naming what was wrong and
  what is allowed; a refused roll rolls nothing.

Pure Python: no Django, no app imports (the import-linter contract "The rules engine is pure").
"""
