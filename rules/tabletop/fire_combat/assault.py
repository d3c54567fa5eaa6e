"""The assault aid: a storming's forces counted in La Bataille's terms from what the campaign knows,
with the house factors [H] for its generic land units (:func:`assault_forces`, :func:`assault_table`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rules.ruleset import Ruleset
from rules.siege import coastal_forts, garrison_strength
from rules.tabletop.fire_combat.chart import SEED, SOURCE
from rules.tabletop.printable import PrintableTable

# --- The assault aid (house factors for the campaign's generic land units) --------------------------

#: House [H]: a campaign land unit on the table, see :mod:`rules.tabletop.fire_combat`.
UNIT_INCREMENTS: Final = 6
UNIT_FIRE_FACTOR: Final = 6
GUN_FIRE_FACTOR: Final = 7
OPEN_DEFENCE: Final = 9
WORKS_DEFENCE: Final = 2 * OPEN_DEFENCE


@dataclass(frozen=True, slots=True)
class AssaultSide:
    """One side of a storming on the table.

    ``units`` are the land units as the campaign counts them (the garrison's after Gibraltar's
    multiplier); ``guns`` the batteries (forts, artillery batteries, a siege train);
    ``unit_fire`` and ``gun_fire`` the fire factors of each; ``defence`` the fire defence of one of
    its units where it stands.
    """

    name: str
    units: int
    guns: int
    unit_fire: int
    gun_fire: int
    defence: int
    counted_as: str

    @property
    def increments(self) -> int:
        return self.units * UNIT_INCREMENTS

    @property
    def fire_factors(self) -> int:
        """Every fire factor of the side together (units and guns)."""
        return self.units * self.unit_fire + self.guns * self.gun_fire


@dataclass(frozen=True, slots=True)
class AssaultForces:
    besiegers: AssaultSide
    garrison: AssaultSide


def _whole(value: int, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name}: a whole number 0 or more, got {value!r}")
    return value


def assault_forces(
    *,
    besiegers: int,
    siege_train: bool,
    garrison: int,
    fortification: int,
    gibraltar: bool,
    batteries: int,
    ruleset: Ruleset,
    besieger_name: str = "Besiegers",
    garrison_name: str = "Garrison",
) -> AssaultForces:
    """The forces' factors for a storming of a besieged port fought on the table.

    ``besiegers`` and ``garrison`` are land units (RULES.md §7; the garrison is multiplied at
    Gibraltar by the ruleset's ``siege.gibraltar_garrison_multiplier``, as the siege roll counts
    it); ``fortification``, ``gibraltar`` and ``batteries`` give the port's guns. Returns each
    side's units, guns, fire factors and fire defence under the house values above.
    """
    b = _whole(besiegers, "besieging land units")
    units = _whole(garrison, "garrison land units")
    counted = garrison_strength(units, gibraltar, ruleset)
    forts = coastal_forts(_whole(fortification, "fortification factor"), gibraltar, ruleset)
    guns = forts + _whole(batteries, "batteries")
    multiplier = ruleset["siege.gibraltar_garrison_multiplier"]
    garrison_note = (
        f"{units} land {'unit' if units == 1 else 'units'} counted {multiplier} times at Gibraltar"
        if gibraltar
        else f"{units} land {'unit' if units == 1 else 'units'}"
    )
    fort_note = f"{forts} coastal {'fort' if forts == 1 else 'forts'}, {batteries} artillery " + (
        "battery" if batteries == 1 else "batteries"
    )
    return AssaultForces(
        besiegers=AssaultSide(
            besieger_name,
            b,
            1 if siege_train else 0,
            UNIT_FIRE_FACTOR,
            GUN_FIRE_FACTOR,
            OPEN_DEFENCE,
            f"{b} land {'unit' if b == 1 else 'units'}" + ("; a siege train" if siege_train else ""),
        ),
        garrison=AssaultSide(
            garrison_name,
            counted,
            guns,
            UNIT_FIRE_FACTOR,
            GUN_FIRE_FACTOR,
            WORKS_DEFENCE,
            f"{garrison_note}; {fort_note}",
        ),
    )


ASSAULT_HEADERS: Final = (
    "Side",
    "From the campaign",
    f"Units ({UNIT_INCREMENTS} increments each)",
    "Unit fire factor",
    f"Batteries (fire {GUN_FIRE_FACTOR} each)",
    "Fire factors in all",
    "Fire defence of a unit",
)


def assault_table(forces: AssaultForces) -> PrintableTable:
    """The assault aid as printed: each side's units, guns, fire factors and fire defence."""
    rows = tuple(
        (
            side.name,
            side.counted_as,
            str(side.units),
            str(side.unit_fire),
            str(side.guns),
            str(side.fire_factors),
            f"{side.defence} ({where})",
        )
        for side, where in ((forces.besiegers, "line in the open"), (forces.garrison, "behind the works"))
    )
    return PrintableTable(
        key="assault",
        title="Assault aid: the forces' fire factors",
        source=SOURCE,
        seed=SEED,
        headers=ASSAULT_HEADERS,
        rows=rows,
        notes=(
            f"House values: a land unit is {UNIT_INCREMENTS} increments firing {UNIT_FIRE_FACTOR} at one hex; each "
            f"coastal fort, artillery battery and siege train fires {GUN_FIRE_FACTOR} as a battery at medium range; "
            f"a line in the open defends at {OPEN_DEFENCE}, behind the port's works at {WORKS_DEFENCE}.",
            "Fire at one hex with the factors that can reach it, against that hex's fire defence.",
        ),
    )
