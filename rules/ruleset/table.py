"""The house options of battles fought on the table (issue 15), as rows of :class:`rules.ruleset.Setting`
(key, default, lowest, highest, help): they belong to the table's flow and packs, not to the campaign's
rules, and :mod:`rules.ruleset.settings` lists them from here in their place under §4."""

from __future__ import annotations

from typing import Final

TABLE_SETTINGS: Final[tuple[tuple[str, int, int, int, str], ...]] = (
    ("table.above_ships", 0, 0, 1000, "§4 battles with more ships than this go to the table (0: never by size)."),
    ("table.days", 7, 1, 365, "§4 days a group has to fight a battle on the table and enter its result."),
    (
        "table.land_unit_fire_factor",
        6,
        0,
        100,
        "§4 fire factor of a land unit in a storming fought on the table (a house value: one per increment).",
    ),
    (
        "table.battery_fire_factor",
        7,
        0,
        100,
        "§4 fire factor of a coastal fort, artillery battery or siege train in a storming fought on the table "
        "(a battery at medium range).",
    ),
    (
        "table.works_fire_defence",
        18,
        1,
        100,
        "§4 fire defence of a garrison unit behind a port's works in a storming fought on the table.",
    ),
)
