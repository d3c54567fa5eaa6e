"""Every static table of :mod:`rules.tabletop`, grouped by the part of a battle pack that needs it.

A battle pack prints the wind tables for every tabletop battle, the inshore tables (seed 001) for a
port engagement, blockade fight, assault or landing, the fort tables (seed 002) for a battle under
a port's guns, and the fire-combat tables (seed 003) for a storming. The tables that depend on the
battle (the day's tides, a port's forts, the assault's forces, rolled results) are built by their
modules' functions from the battle's data; the ones here depend only on the campaign's ruleset.

Pure Python: no Django, no I/O.
"""

from __future__ import annotations

from enum import StrEnum

from rules.ruleset import Ruleset
from rules.tabletop import fire_combat, forts, tides, wind
from rules.tabletop.printable import PrintableTable


class Section(StrEnum):
    """The parts of a battle pack that print seed tables."""

    WIND = "wind"
    INSHORE = "inshore"
    FORTS = "forts"
    ASSAULT = "assault"


def section_tables(section: Section | str, ruleset: Ruleset) -> tuple[PrintableTable, ...]:
    """The static tables of one section of the pack, in the order they are printed."""
    s = Section(section)
    if s is Section.WIND:
        return (wind.initial_wind_table(), wind.wind_change_table(), wind.wind_speed_table())
    if s is Section.INSHORE:
        return (
            tides.tide_timing_table(),
            tides.tide_cycle_table(),
            tides.tide_effect_table(),
            tides.tide_modifiers_table(),
            tides.grounding_table(),
            tides.marsh_passage_table(),
        )
    if s is Section.FORTS:
        return (
            forts.fort_mapping_table(ruleset),
            forts.fort_sizes_table(),
            forts.fort_firing_table(),
            forts.fort_hits_table(),
            forts.shore_battery_table(),
        )
    return (fire_combat.fire_procedure_table(), fire_combat.fire_chart_table())


def all_tables(ruleset: Ruleset) -> tuple[PrintableTable, ...]:
    """Every static table, section by section (for a reference page or a full pack)."""
    return tuple(t for s in Section for t in section_tables(s, ruleset))
