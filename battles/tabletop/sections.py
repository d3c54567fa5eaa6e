"""The parts a battle pack and a storming pack both print (issue 15): a port's forts and batteries with
seed 002's fort tables, the assault aid of a storming (each side's fire with its factors filled in),
seed 001's inshore tables and the tide's dice as the server rolls them. :mod:`.pack` and
:mod:`.storming` put them together.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from battles.engine import PortSpec, coastal_forts
from ports.models import Port
from rules import strategic_log as purposes
from rules.dice import SeededDice
from rules.ruleset import Ruleset
from rules.strategic_log import StrategicLog
from rules.tabletop import fire_combat, forts, tides
from rules.tabletop.printable import PrintableTable
from rules.tabletop.storming import AssaultFire, Besiegers, assault_fire_table, storming_fires
from rules.tabletop.tables import Section, section_tables


@dataclass(frozen=True)
class PackForts:
    port: str
    owner: str
    fortification: int
    coastal_forts: int
    batteries: int
    gibraltar: bool
    broadsides_each: int


@dataclass(frozen=True)
class AssaultAid:
    """A besieged port: the land forces a storming would pit against each other, each side's fire with
    its factors filled in, and seed 003's fire procedure and chart to fight it with."""

    besiegers: list[str]
    garrison: str
    fires: list[PrintableTable]
    tables: list[PrintableTable]


def inshore_tables(ruleset: Ruleset) -> list[PrintableTable]:
    """Seed 001's tables for an inshore set-up, as the packs print them."""
    return list(section_tables(Section.INSHORE, ruleset))


def pack_forts(port: Port, ruleset: Ruleset) -> tuple[PackForts, list[PrintableTable]]:
    """A port's forts and batteries as the campaign counts them, and seed 002's fort tables."""
    spec = PortSpec(
        fortification=port.fortification, name=port.name, batteries=port.batteries, gibraltar=port.gibraltar
    )
    line = PackForts(
        port=port.name,
        owner=port.owner.name if port.owner is not None else "nobody",
        fortification=port.fortification,
        coastal_forts=coastal_forts(spec, ruleset),
        batteries=port.batteries,
        gibraltar=port.gibraltar,
        # RULES.md §6: "each is 10 broadsides (a light fort, FF 1, is 5) for tabletop export".
        broadsides_each=5 if port.fortification == 1 else 10,
    )
    on_table = forts.port_forts(
        fortification=port.fortification, gibraltar=port.gibraltar, batteries=port.batteries, ruleset=ruleset
    )
    return line, [
        forts.port_forts_table(on_table, port.name),
        forts.fort_mapping_table(ruleset),
        forts.fort_sizes_table(),
        forts.fort_firing_table(),
        forts.fort_hits_table(),
        forts.shore_battery_table(),
    ]


def units_words(n: int) -> str:
    return f"{n} land unit{'s' if n != 1 else ''}"


def trains_words(n: int) -> str:
    return f", {n} of them siege train{'s' if n != 1 else ''}" if n else ""


def assault_fires(
    port: Port, besiegers: list[tuple[str, bool]], garrison: int, ruleset: Ruleset
) -> tuple[list[Besiegers], tuple[AssaultFire, AssaultFire]]:
    """The besieging forces by nation and the storming's two fires (the besiegers', the garrison's)."""
    by_nation: dict[str, list[bool]] = {}
    for name, train in besiegers:
        by_nation.setdefault(name, []).append(train)
    forces = [Besiegers(name, len(trains), sum(trains)) for name, trains in sorted(by_nation.items())]
    fires = storming_fires(
        besiegers=forces,
        garrison=garrison,
        garrison_name=port.owner.name if port.owner is not None else "The garrison",
        fortification=port.fortification,
        gibraltar=port.gibraltar,
        batteries=port.batteries,
        ruleset=ruleset,
    )
    return forces, fires


def assault_aid(port: Port, besiegers: list[tuple[str, bool]], garrison: int, ruleset: Ruleset) -> AssaultAid:
    """The assault aid of a storming of ``port``: ``besiegers`` (each unit's nation name and whether it
    is a siege train) against ``garrison`` land units, with each side's fire factors filled in."""
    forces, fires = assault_fires(port, besiegers, garrison, ruleset)
    return AssaultAid(
        besiegers=[f"{f.nation}: {units_words(f.units)}" + trains_words(f.trains) for f in forces],
        garrison=units_words(garrison),
        fires=[assault_fire_table(fire) for fire in fires],
        tables=[fire_combat.fire_procedure_table(), fire_combat.fire_chart_table()],
    )


def tide_dice_roll(
    dice: SeededDice, log: StrategicLog, *, place: str, attacker: str, defender: str
) -> tuple[dict[str, Any], list[list[str]]]:
    """The tide's set-up dice and the attacker's tide-effect die for the first tide cycle (seed 001:48),
    logged with who throws each; the effect die is rolled bare (its modifiers — the shore, the passage,
    the wind at the table — are the table's to add). Returns the set-up dice and what they gave in words."""
    thrown = tides.roll_setup_dice(dice, log, place=place, attacker=attacker, defender=defender)
    setup = {"attacker": thrown.attacker.raw, "defender": [d.raw for d in thrown.defender], "rolled": True}
    timing = thrown.timing
    effect = log.roll(
        dice,
        purpose=purposes.TIDE_EFFECT,
        place=place,
        die="d6",
        detail=f"tide effect, first tide cycle, thrown by the attacker ({attacker})",
    )
    rolled = [
        ["Tide", f"{timing.anchor.label.lower()} at {tides.clock(timing.hour * 60)}"],
        [
            "Tide effect",
            f"1D6 {effect.raw} for the first tide cycle, thrown for the attacker ({attacker}); "
            "add the modifiers for the shore, the passage and the wind, then read the chart",
        ],
    ]
    return setup, rolled
