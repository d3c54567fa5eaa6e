"""Nominal guns of each ship class, for the orders of battle a battle pack prints (issue 15) [H].

RULES.md rates ships by class only (§1); a table fighting with miniatures wants the guns. These are
the classes' usual ratings in the period (a 3rd rate "74" carries 74 guns, a 4th rate 50–60 is
printed as 50), a house default that plays no part in any rule of the campaign itself.

Pure Python: no Django.
"""

from __future__ import annotations

from typing import Final

#: Ship class (CONTRACT.md's names) → nominal guns.
NOMINAL_GUNS: Final[dict[str, int]] = {
    "four-decker": 130,
    "1st": 100,
    "2nd": 98,
    "3rd-74": 74,
    "3rd-64": 64,
    "4th": 50,
    "heavy-frigate": 44,
    "frigate": 32,
    "sloop": 18,
    "brig": 14,
    "fireship": 14,
    "transport": 0,
}
