"""Fire combat for a storming fought on the table (seed 003, La Bataille Premier Rules, page 24).

Seed 003 says, verbatim:

* PROCEDURE — "To fire against a hex, simply total the eligible fire factors and compare this sum
  to the fire defense factor. Make sure to take into account the number of increments in the hex;
  the tactical organization; and the terrain. Establish the odds (round any fractions down); roll
  the dice, and find the result on the Fire Combat Chart . The result is the number of increments
  lost."
* EXAMPLE — "Their combined fire equals 14. The fire defense of a line formation with less than
  seven increments is 9 in clear terrain. This translates into 14 to 9 or 1 1/2 to 1 on the Fire
  Combat Chart . The dice are rolled with a result of 43. By cross-indexing the dice roll of 43 with
  the odds column, 1.5 – 1, we see that “1” is the result."
* FLOOR — "Whenever a modified dice roil falls below 11 on the Fire Combat Chart , the result of 11
  will be applied."
* MASSED TARGETS — "Any time a target hex has more than nine increments; there is an addition to
  the fire attack dice roll. Add one to the die roll for each increment over nine."
* "When a unit is in line formation and has seven or more increments present in the hex, it will
  have the fire defense of a column."
* "When an infantry unit is in Carre , or an infantry and artillery unit is in square the fire
  defense of the square is “4”."
* "When a fire attack is made through the flank hex of a unit in line formation, the defender will
  have a fire defense of “5”."
* "A hex may be the designated target only once during a fire segment"

What the seed does not give, and the house default [H] used instead (RULES.md: "the seeds refer to
rulebooks that are not public, so we fill the gaps with simple, consistent rules"):

* **The Fire Combat Chart itself is not in the seed.** :data:`HOUSE_FIRE_CHART` is a house chart:
  odds columns 1–3, 1–2, 1–1.5, 1–1, 1.5–1, 2–1, 3–1, 4–1, 5–1 and 6–1, rows by tens of the
  modified roll (11–20 … 61–70, and 71 or more, reached only with the massed-target modifier), and
  in each cell the increments lost. It agrees with the seed's only worked example
  (14 against 9 is 1.5–1; a roll of 43 there loses 1 increment) and gives more losses for better
  odds and higher rolls, which the tests check. A group that owns La Bataille's chart can pass its
  own :class:`FireChart` instead.
* "The dice" are read as La Bataille's two six-sided dice, the first the tens and the second the
  units (11 to 66): the example's "43".
* Odds are rounded down to the nearest column at or below the exact ratio (14:9 = 1.56 → 1.5–1;
  9:14 → 1–2). Odds worse than the lowest column cause no loss; odds better than the highest use the
  highest.

The assault aid (:func:`assault_forces`) fills in the forces' factors of a storming from what the
campaign knows (RULES.md §7: besieging land units; the garrison, Gibraltar's counted five times;
the coastal forts; artillery batteries; a siege train). The campaign's land units are generic, so
their La Bataille values are house defaults [H], printed with the aid:

* a land unit is one infantry unit of :data:`UNIT_INCREMENTS` (6) increments — under the seed's
  seven, so in line it keeps the seed's line defence;
* it fires :data:`UNIT_FIRE_FACTOR` (6, one per increment) at one hex ("All infantry … have a range
  of one hex");
* each coastal fort, artillery battery and siege train fires as one battery:
  :data:`GUN_FIRE_FACTOR` (7, the seed's "at medium range where they both fire 7");
* besiegers in line in the open defend at :data:`OPEN_DEFENCE` (9, the seed's "line formation with
  less than seven increments is 9 in clear terrain"); the garrison behind the port's works at
  :data:`WORKS_DEFENCE` (twice that).

The rolling function logs both dice in a :class:`~rules.strategic_log.StrategicLog` as
``fire_combat`` (the tens die carries the roll's modifier) and returns a frozen result.

One piece, though over 500 lines: it is the transcription of one seed's fire combat (003, page 24)
— the odds, the house Fire Combat Chart that stands in for the missing one, the fire defences, the
roll that reads them, the printed tables and the storming's forces counted in the seed's terms —
and a reader checks it against the seed's words, quoted above, in one place.

Pure Python: no Django, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Final

from rules import strategic_log as purposes
from rules.dice import Dice
from rules.ruleset import Ruleset
from rules.siege import coastal_forts, garrison_strength
from rules.strategic_log import StrategicDie, StrategicLog
from rules.tabletop.printable import PrintableTable, signed

SEED: Final = "003"
SOURCE: Final = "La Bataille Premier Rules (July 2021): fire combat"

#: "Whenever a modified dice roil falls below 11 on the Fire Combat Chart , the result of 11 will be
#: applied."
LOWEST_ROLL: Final = 11
#: "Any time a target hex has more than nine increments … Add one to the die roll for each increment
#: over nine."
MASSED_ABOVE: Final = 9
#: "When a unit is in line formation and has seven or more increments present in the hex, it will
#: have the fire defense of a column."
LINE_AS_COLUMN_FROM: Final = 7
#: "the fire defense of the square is “4”"
SQUARE_DEFENCE: Final = 4
#: "When a fire attack is made through the flank hex of a unit in line formation, the defender will
#: have a fire defense of “5”."
LINE_FLANK_DEFENCE: Final = 5
_D6: Final = 6


# --- Odds ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Odds:
    """An odds column, attacker to defender ("1.5–1", "1–2")."""

    attack: Fraction
    defence: Fraction

    @property
    def ratio(self) -> Fraction:
        return self.attack / self.defence

    @property
    def label(self) -> str:
        return f"{_num(self.attack)}\u2013{_num(self.defence)}"


def _num(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


def _odds(attack: str, defence: str) -> Odds:
    return Odds(Fraction(attack), Fraction(defence))


@dataclass(frozen=True, slots=True)
class FireChart:
    """A Fire Combat Chart: odds columns (worst first) and, for each, the least modified roll that
    costs 1, 2, 3… increments (a column lists as many as it has results)."""

    name: str
    columns: tuple[Odds, ...]
    thresholds: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        if len(self.columns) != len(self.thresholds):
            raise ValueError(f"fire chart {self.name!r}: {len(self.columns)} columns but {len(self.thresholds)} lists")
        ratios = [c.ratio for c in self.columns]
        if ratios != sorted(set(ratios)):
            raise ValueError(f"fire chart {self.name!r}: odds columns must rise from worst to best, each once")
        for column, thresholds in zip(self.columns, self.thresholds, strict=True):
            if list(thresholds) != sorted(set(thresholds)) or any(t < LOWEST_ROLL for t in thresholds):
                raise ValueError(
                    f"fire chart {self.name!r}, column {column.label}: the rolls for 1, 2, 3… increments must rise, "
                    f"each {LOWEST_ROLL} or more"
                )

    def column_for(self, attack: int, defence: int) -> Odds | None:
        """The column for ``attack`` fire factors against ``defence``, rounding down; None when the
        odds are worse than the lowest column."""
        if attack < 0 or defence <= 0:
            raise ValueError(
                f"odds: fire factors must be 0 or more and fire defence more than 0, got {attack} against {defence}"
            )
        ratio = Fraction(attack, defence)
        best = None
        for column in self.columns:
            if column.ratio <= ratio:
                best = column
        return best

    def losses(self, column: Odds, roll: int) -> int:
        """Increments lost at ``column`` with a modified roll (already floored at 11)."""
        index = self.columns.index(column)
        return sum(1 for t in self.thresholds[index] if roll >= t)

    @property
    def roll_bands(self) -> tuple[tuple[int, int | None], ...]:
        """The roll ranges between which no column's result changes (last open-ended)."""
        cuts = sorted({LOWEST_ROLL} | {t for ts in self.thresholds for t in ts})
        return tuple((low, cuts[n + 1] - 1 if n + 1 < len(cuts) else None) for n, low in enumerate(cuts))


#: House chart [H] (the seed names La Bataille's chart but does not include it); see the docstring.
HOUSE_FIRE_CHART: Final = FireChart(
    name="House fire combat chart",
    columns=(
        _odds("1", "3"),
        _odds("1", "2"),
        _odds("1", "1.5"),
        _odds("1", "1"),
        _odds("1.5", "1"),
        _odds("2", "1"),
        _odds("3", "1"),
        _odds("4", "1"),
        _odds("5", "1"),
        _odds("6", "1"),
    ),
    thresholds=(
        (61,),
        (51,),
        (41, 71),
        (31, 61),
        (31, 51, 71),  # the seed's example: 43 at 1.5–1 loses 1
        (21, 41, 61),
        (21, 41, 51, 71),
        (11, 31, 51, 61),
        (11, 31, 41, 61, 71),
        (11, 21, 41, 51, 71),
    ),
)


# --- Fire defence and the roll's modifier -------------------------------------------------------------


class Formation(StrEnum):
    """The target's tactical organisation, as far as the seed's special cases need it."""

    LINE = "line"
    COLUMN = "column"
    SQUARE = "square"
    OTHER = "other"


def target_fire_defence(
    *,
    formation: Formation | str,
    base: int,
    increments: int,
    column_defence: int | None = None,
    through_flank: bool = False,
) -> int:
    """The fire defence of the target hex after the seed's special cases.

    ``base`` is the defence for its formation and terrain from the group's charts (a line in clear
    terrain with fewer than seven increments: 9). A square is 4; a line fired on through its flank
    hex is 5; a line with seven or more increments has the defence of a column (``column_defence``,
    which must then be given). Returns the defence the odds are taken against.
    """
    f = Formation(formation)
    for name, value in (("base fire defence", base), ("increments", increments)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name}: a whole number 1 or more, got {value!r}")
    if f is Formation.SQUARE:
        return SQUARE_DEFENCE
    if f is Formation.LINE and through_flank:
        return LINE_FLANK_DEFENCE
    if f is Formation.LINE and increments >= LINE_AS_COLUMN_FROM:
        if column_defence is None or column_defence < 1:
            raise ValueError(
                f"fire defence: a line of {increments} increments has the fire defence of a column; "
                "give the column's fire defence (1 or more)"
            )
        return column_defence
    return base


def massed_target_modifier(increments: int) -> int:
    """+1 to the roll for each increment in the target hex over nine (15 increments: +6)."""
    if isinstance(increments, bool) or not isinstance(increments, int) or increments < 1:
        raise ValueError(f"increments: a whole number 1 or more, got {increments!r}")
    return max(0, increments - MASSED_ABOVE)


# --- Resolving one fire ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FireResult:
    """One fire against a hex.

    ``column`` is None when the odds were worse than the chart's lowest column (no loss). ``roll``
    is the two dice read as tens and units, ``modified`` the roll with the modifier and ``applied``
    the roll looked up (never below 11). ``increments_lost`` is the chart's result.
    """

    attack: int
    defence: int
    column: Odds | None
    tens: int
    units: int
    roll: int
    modifier: int
    modified: int
    applied: int
    increments_lost: int


def fire_for(
    *, attack: int, defence: int, tens: int, units: int, modifier: int = 0, chart: FireChart = HOUSE_FIRE_CHART
) -> FireResult:
    """Resolve one fire with the two dice already thrown (``tens`` then ``units``).

    ``attack`` is the total of the eligible fire factors, ``defence`` the hex's fire defence (see
    :func:`target_fire_defence`), ``modifier`` the roll's modifier (see
    :func:`massed_target_modifier`). Returns the odds column, the rolls and the increments lost.
    """
    for name, face in (("tens die", tens), ("units die", units)):
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= _D6:
            raise ValueError(f"fire combat: the {name} is a d6 showing 1..6, got {face!r}")
    column = chart.column_for(attack, defence)
    roll = 10 * tens + units
    modified = roll + modifier
    applied = max(LOWEST_ROLL, modified)
    lost = chart.losses(column, applied) if column is not None else 0
    return FireResult(attack, defence, column, tens, units, roll, modifier, modified, applied, lost)


def roll_fire(
    dice: Dice,
    log: StrategicLog,
    *,
    place: str,
    attack: int,
    defence: int,
    modifier: int = 0,
    chart: FireChart = HOUSE_FIRE_CHART,
    subject: str | None = None,
) -> FireResult:
    """Roll one fire against a hex: the tens die, then the units die, both logged as
    ``fire_combat``. Bad factors are refused before any die is rolled."""
    chart.column_for(attack, defence)  # refuses impossible factors before rolling
    odds = f"{attack} against {defence}"
    tens: StrategicDie = log.roll(
        dice, purpose=purposes.FIRE_COMBAT, place=place, die="d6", mod=modifier, subject=subject, detail=f"{odds}: tens"
    )
    units = log.roll(
        dice, purpose=purposes.FIRE_COMBAT, place=place, die="d6", subject=subject, detail=f"{odds}: units"
    )
    return fire_for(attack=attack, defence=defence, tens=tens.raw, units=units.raw, modifier=modifier, chart=chart)


# --- Printable tables ------------------------------------------------------------------------------


def fire_chart_table(chart: FireChart = HOUSE_FIRE_CHART) -> PrintableTable:
    """The fire combat chart as printed: one row per band of modified rolls, one column per odds."""
    rows = []
    for low, high in chart.roll_bands:
        band = f"{low} or more" if high is None else (str(low) if low == high else f"{low}\u2013{high}")
        rows.append((band, *(str(chart.losses(c, low)) for c in chart.columns)))
    return PrintableTable(
        key="fire_chart",
        title=f"{chart.name}: increments lost",
        source=SOURCE,
        seed=SEED,
        headers=("Modified roll", *(c.label for c in chart.columns)),
        rows=tuple(rows),
        notes=(
            "Roll two dice, the first for tens and the second for units (11 to 66).",
            "A modified roll below 11 counts as 11.",
            f"Odds are rounded down; odds worse than {chart.columns[0].label} cause no loss, odds better than "
            f"{chart.columns[-1].label} use {chart.columns[-1].label}.",
            *(
                ("House chart: La Bataille's own Fire Combat Chart is not reproduced here.",)
                if chart is HOUSE_FIRE_CHART
                else ()
            ),
        ),
    )


def fire_procedure_table() -> PrintableTable:
    """The fire procedure and its special cases, one rule a row."""
    return PrintableTable(
        key="fire_procedure",
        title="Fire combat",
        source=SOURCE,
        seed=SEED,
        headers=("Step or case", "Rule"),
        rows=(
            ("Target", "A hex may be the designated target only once during a fire segment"),
            ("Fire", "Total the eligible fire factors and compare the sum to the hex's fire defence"),
            ("Odds", "Establish the odds, rounding any fractions down (14 to 9 is 1.5–1)"),
            ("Result", "Roll the dice and find the result on the chart: the number of increments lost"),
            ("Low roll", "A modified roll below 11 counts as 11"),
            ("Massed target", f"{signed(1)} to the roll for each increment in the hex over nine (15 increments: +6)"),
            ("Line of 7 or more increments", "Has the fire defence of a column"),
            ("Square (carré)", f"Fire defence {SQUARE_DEFENCE}; the massed-target modifier still applies"),
            ("Fire through the flank hex of a line", f"Fire defence {LINE_FLANK_DEFENCE}"),
        ),
    )


FIRE_RESULT_HEADERS: Final = ("Fire", "Defence", "Odds", "Roll", "Modifier", "Applied", "Increments lost")


def fire_result_row(result: FireResult) -> tuple[str, ...]:
    """One resolved fire as a printable row (see :data:`FIRE_RESULT_HEADERS`)."""
    return (
        str(result.attack),
        str(result.defence),
        result.column.label if result.column else "below the chart",
        str(result.roll),
        signed(result.modifier),
        str(result.applied),
        str(result.increments_lost),
    )


# --- The assault aid (house factors for the campaign's generic land units) --------------------------

#: House [H]: a campaign land unit on the table, see the module docstring.
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
