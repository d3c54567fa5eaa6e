"""The assault aid of a storming fought on the table: seed 003's fire procedure with the forces'
fire factors filled in from what the campaign knows of the siege (RULES.md §7).

Seed 003: "To fire against a hex, simply total the eligible fire factors and compare this sum to the
fire defense factor. [...] Establish the odds (round any fractions down); roll the dice, and find the
result on the Fire Combat Chart . The result is the number of increments lost."

Two fires are worked out, one each way:

* the besiegers at a garrison unit behind the port's works: each besieging land unit fires
  ``table.land_unit_fire_factor`` (a house value: the seeds give no factor for a generic land unit),
  a siege train fires as a battery, ``table.battery_fire_factor`` (seed 003: "at medium range where
  they both fire 7", the only range the seed gives a battery's factor for); the target's fire
  defence is ``table.works_fire_defence`` (a house value for a unit behind fortified works);
* the garrison at a besieging unit in line in the open: each garrison unit (Gibraltar's counted as
  the siege counts them) fires the land unit's factor, each coastal fort and artillery battery the
  battery's; the target's defence is the seed's "line formation with less than seven increments is 9
  in clear terrain" (a land unit is :data:`~rules.tabletop.fire_combat.UNIT_INCREMENTS` increments).

Each fire prints its lines (what fires, how many, the factor, the product), the total, the
defence, the exact odds, the odds rounded down and the chart column to read. When the group asks
the server to roll, :func:`roll_storming_fires` rolls both fires (the besiegers' first) with seed
003's two dice, tens then units, and :func:`fire_rolled_text` says what each gave.

Pure Python: no Django, no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import gcd
from typing import Final

from rules.dice import Dice
from rules.ruleset import Ruleset
from rules.siege import coastal_forts, garrison_strength
from rules.strategic_log import StrategicLog
from rules.tabletop.fire_combat import (
    HOUSE_FIRE_CHART,
    OPEN_DEFENCE,
    SEED,
    SOURCE,
    UNIT_INCREMENTS,
    FireChart,
    FireResult,
    Formation,
    massed_target_modifier,
    roll_fire,
    target_fire_defence,
)
from rules.tabletop.printable import PrintableTable, signed

#: The two fires of a storming in the order they are rolled, as the pack names them, and the
#: subject their dice are logged under.
FIRE_NAMES: Final = ("Besiegers' fire", "Garrison's fire, with the port's guns")
FIRE_SUBJECTS: Final = ("besiegers", "garrison")

#: What a fire's lines are headed.
FIRE_HEADERS: Final = ("Fires", "How many", "Fire factor each", "Fire factors")


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


@dataclass(frozen=True, slots=True)
class FireLine:
    """One kind of firer of a side: ``count`` of them at ``factor`` each."""

    what: str
    count: int
    factor: int

    @property
    def total(self) -> int:
        return self.count * self.factor


@dataclass(frozen=True, slots=True)
class AssaultFire:
    """One side's fire at one hex of the other: the odds the table reads."""

    firer: str
    target: str
    lines: tuple[FireLine, ...]
    defence: int
    defence_from: str
    modifier: int
    column: str

    @property
    def total(self) -> int:
        return sum(line.total for line in self.lines)

    @property
    def exact(self) -> str:
        """The odds as fire against defence, reduced ("14 to 9")."""
        if self.total == 0:
            return f"0 to {self.defence}"
        d = gcd(self.total, self.defence)
        return f"{self.total // d} to {self.defence // d}"


@dataclass(frozen=True, slots=True)
class Besiegers:
    """One besieging nation's land units before the port: ``units`` in all, ``trains`` of them siege trains."""

    nation: str
    units: int
    trains: int = 0


def _column(attack: int, defence: int, chart: FireChart) -> str:
    odds = chart.column_for(attack, defence)
    return odds.label if odds is not None else f"below {chart.columns[0].label}: no loss"


def storming_fires(
    *,
    besiegers: Sequence[Besiegers],
    garrison: int,
    garrison_name: str,
    fortification: int,
    gibraltar: bool,
    batteries: int,
    ruleset: Ruleset,
    chart: FireChart = HOUSE_FIRE_CHART,
) -> tuple[AssaultFire, AssaultFire]:
    """The besiegers' fire at the works and the garrison's fire at the besiegers, with every factor
    read from ``ruleset`` (see the module's docstring)."""
    unit_fire = ruleset["table.land_unit_fire_factor"]
    gun_fire = ruleset["table.battery_fire_factor"]
    works = ruleset["table.works_fire_defence"]
    lines: list[FireLine] = []
    for side in besiegers:
        if side.units - side.trains:
            lines.append(FireLine(f"{side.nation}: land units", side.units - side.trains, unit_fire))
        if side.trains:
            lines.append(FireLine(f"{side.nation}: siege trains (as batteries)", side.trains, gun_fire))
    target = _plural(UNIT_INCREMENTS, "increment", "increments")
    attack = AssaultFire(
        firer="The besiegers",
        target=f"a garrison unit ({target}) behind the port's works",
        lines=tuple(lines),
        defence=works,
        defence_from="behind fortified works (a house value)",
        modifier=massed_target_modifier(UNIT_INCREMENTS),
        column=_column(sum(line.total for line in lines), works, chart),
    )
    counted = garrison_strength(garrison, gibraltar, ruleset)
    forts = coastal_forts(fortification, gibraltar, ruleset)
    times = ruleset["siege.gibraltar_garrison_multiplier"]
    what = f"{garrison_name}: land units" + (f" ({garrison} counted {times} times at Gibraltar)" if gibraltar else "")
    defending = [FireLine(what, counted, unit_fire)] if counted else []
    defending += [FireLine("Coastal forts", forts, gun_fire)] if forts else []
    defending += [FireLine("Artillery batteries", batteries, gun_fire)] if batteries else []
    line_defence = target_fire_defence(formation=Formation.LINE, base=OPEN_DEFENCE, increments=UNIT_INCREMENTS)
    sally = AssaultFire(
        firer="The garrison and the port's guns",
        target=f"a besieging unit ({target}) in line in the open",
        lines=tuple(defending),
        defence=line_defence,
        defence_from="a line of fewer than seven increments in clear terrain",
        modifier=massed_target_modifier(UNIT_INCREMENTS),
        column=_column(sum(line.total for line in defending), line_defence, chart),
    )
    return attack, sally


def assault_fire_table(fire: AssaultFire) -> PrintableTable:
    """One fire of the assault aid as printed: its lines, the total, the defence and the column."""
    rows = [(line.what, str(line.count), str(line.factor), str(line.total)) for line in fire.lines]
    rows.append(("Total", "", "", str(fire.total)))
    return PrintableTable(
        key="assault_fire",
        title=f"{fire.firer} fire at {fire.target}",
        source=SOURCE,
        seed=SEED,
        headers=FIRE_HEADERS,
        rows=tuple(rows),
        notes=(
            f"Fire defence of the target hex: {fire.defence} ({fire.defence_from}).",
            f"Odds: {fire.total} against {fire.defence} is {fire.exact}; rounded down, read the column "
            f"{fire.column} of the fire combat chart.",
            f"Massed target: {signed(fire.modifier)} to the roll (a hex of {UNIT_INCREMENTS} increments).",
            "The result is the number of increments the target loses.",
        ),
    )


def roll_storming_fires(
    dice: Dice,
    log: StrategicLog,
    *,
    place: str,
    fires: tuple[AssaultFire, AssaultFire],
    chart: FireChart = HOUSE_FIRE_CHART,
) -> tuple[FireResult, FireResult]:
    """The storming's first fires rolled, as :func:`storming_fires` worked them out: the besiegers' at
    the works, then the garrison's (and its guns') at the besiegers; each with seed 003's two dice,
    tens then units, read on the fire's column (every die logged as ``fire_combat``)."""
    attack, sally = (
        roll_fire(
            dice,
            log,
            place=place,
            attack=fire.total,
            defence=fire.defence,
            modifier=fire.modifier,
            chart=chart,
            subject=subject,
        )
        for fire, subject in zip(fires, FIRE_SUBJECTS, strict=True)
    )
    return attack, sally


def fire_rolled_text(result: FireResult) -> str:
    """What a rolled fire gave, in words: "dice 4 and 3 (43), column 1–1: 1 increment lost"."""
    text = f"dice {result.tens} and {result.units} ({result.roll})"
    if result.modifier:
        text += f" {signed(result.modifier)} = {result.modified}"
    if result.applied != result.modified:
        text += f", counted as {result.applied}"
    if result.column is None:
        return text + ": odds below the chart, no loss"
    return (
        text
        + f", column {result.column.label}: "
        + _plural(result.increments_lost, "increment", "increments")
        + " lost"
    )
