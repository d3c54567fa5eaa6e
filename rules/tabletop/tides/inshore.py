"""The opening rolls of an inshore battle (the set-up dice, then the first tide cycle's effect) and the
tables a pack prints of one battle's rolls.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import Dice
from rules.strategic_log import StrategicLog
from rules.tabletop.printable import PrintableTable, signed
from rules.tabletop.tides.cycle import SEED, SOURCE, SetupDice, TideTiming, clock, roll_setup_dice
from rules.tabletop.tides.effect import TideConditions, TideEffect, roll_tide_effect

# --- The opening rolls of an inshore battle ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class InshoreSetup:
    """The set-up dice, the tide timing they give, and the first tide cycle's effect."""

    setup: SetupDice
    effect: TideEffect

    @property
    def timing(self) -> TideTiming:
        return self.setup.timing


def roll_inshore_setup(dice: Dice, log: StrategicLog, *, place: str, conditions: TideConditions) -> InshoreSetup:
    """Make an inshore battle's first rolls: the set-up dice (attacker's, then the defender's two),
    then the attacker's tide-effect die for the first tide cycle under ``conditions``."""
    setup = roll_setup_dice(dice, log, place=place)
    effect = roll_tide_effect(dice, log, place=place, conditions=conditions)
    return InshoreSetup(setup, effect)


def tide_effect_result_table(effect: TideEffect) -> PrintableTable:
    """One tide-effect roll as the pack prints it: the roll, then what each water feature is."""
    row = effect.row
    return PrintableTable(
        key="tide_effect_result",
        title=f"This tide cycle: 1D6 {effect.face}, modifier {signed(effect.modifier)}, total {effect.score}",
        source=SOURCE,
        seed=SEED,
        headers=("Feature", "Is", "Meaning"),
        rows=(
            ("Shoal water at high water", row.shoal_high.code, row.shoal_high.legend),
            ("Shoal water at ebb or flood", row.shoal_ebb_flood.code, row.shoal_ebb_flood.legend),
            ("Shoal water at low water", row.shoal_low.code, row.shoal_low.legend),
            ("Reefs", row.reef.code, row.reef.legend),
            ("Tidal marsh", row.tidal_marsh.code, row.tidal_marsh.legend),
        ),
    )


def setup_dice_table(setup: SetupDice) -> PrintableTable:
    """The set-up dice as the pack prints them, with the tide timing they give."""
    defender = ", ".join(str(d.raw) for d in setup.defender)
    timing = setup.timing
    if timing.moonlit:
        rule = (
            f"The defender's last die is odd: a night with a moon; high water at the defender's total, "
            f"{clock(timing.hour * 60)}"
        )
    else:
        rule = (
            f"The defender's last die is even: a moonless night; low water at the attacker's die, "
            f"{clock(timing.hour * 60)}"
        )
    return PrintableTable(
        key="setup_dice",
        title="Set-up dice",
        source=SOURCE,
        seed=SEED,
        headers=("Dice", "This battle"),
        rows=(("Attacker's initial die", str(setup.attacker.raw)), ("Defender's dice", defender), ("Tide", rule)),
    )
