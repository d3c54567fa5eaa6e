"""The pack of a storming held at the table (issue 15, issue 31): the siege as phase 6 found it, the
port's forts and batteries, the assault aid and the tide; :func:`storming_pack_roll` rolls its dice
(seeded from the campaign, turn, phase 6 and the place) for a group that asks the server to.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from battles.models import TabletopBattle
from battles.tabletop.sections import (
    AssaultAid,
    PackForts,
    assault_aid,
    assault_fires,
    inshore_tables,
    pack_forts,
    tide_dice_roll,
    units_words,
)
from ports.models import Port
from rules.dice import SeededDice, derive_seed
from rules.ruleset import Ruleset
from rules.siege import SiegeState, siege_state_from_json
from rules.strategic_log import StrategicLog
from rules.tabletop import tides
from rules.tabletop.printable import PrintableTable
from rules.tabletop.storming import FIRE_NAMES, fire_rolled_text, roll_storming_fires

#: The phase a storming is held by (its siege roll's), in the seed of its pack's dice.
STORMING_PHASE = 6


@dataclass(frozen=True)
class StormingPack:
    """The pack of a storming held at the table: the siege as phase 6 found it, the port's forts and
    batteries, the assault aid and, when the server rolled them, the first fires' dice."""

    table: TabletopBattle
    place: str
    siege: str
    forts: PackForts
    fort_tables: list[PrintableTable]
    assault: AssaultAid
    kind: str = "Storming of a besieged port"
    fire_names: tuple[str, ...] = FIRE_NAMES
    #: Seed 001's inshore set-up for the landing side of the storming (its tables), and who is
    #: attacker (the besiegers) and defender (the port's owner) for the tide's dice, in words.
    tide_tables: list[PrintableTable] = field(default_factory=list)
    tide_roles: str = ""
    #: The tide of the day once the server rolled the set-up dice (issue 31), and those dice in words.
    tide_schedule: PrintableTable | None = None
    tide_dice: str = ""
    rolls: list[dict[str, Any]] = field(default_factory=list)
    rolled: list[tuple[str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class _HeldStorming:
    port: Port
    state: SiegeState
    forces: list[tuple[str, bool]]
    ruleset: Ruleset


def _held_storming(table: TabletopBattle) -> _HeldStorming:
    """A storming's siege as phase 6 held it, with the besieging units by nation name."""
    siege = (table.pack or {}).get("siege")
    if not siege:
        raise ValueError("This storming has not come to the table yet: its pack is made when phase 6 holds it.")
    state = siege_state_from_json(siege)
    if table.port is None:
        raise ValueError("A storming is of a port; this one names none.")
    names = dict(table.campaign.nations.values_list("code", "name"))
    forces = [(names.get(u.nation, u.nation), u.siege_train) for u in state.besiegers]
    return _HeldStorming(table.port, state, forces, table.campaign.ruleset)


def _storming_tide_roles(held: _HeldStorming) -> tuple[str, str]:
    """(attacker, defender) of a storming's tide dice, in words: the besiegers, who land, attack; the
    port's owner defends (seed 001:13 names no sides; issue 31's reading)."""
    attacker = " & ".join(sorted({name for name, _ in held.forces}))
    return attacker, held.port.owner.name if held.port.owner else "the garrison"


def _storming_tide_schedule(table: TabletopBattle) -> tuple[PrintableTable | None, str]:
    """The tide of the day from the set-up dice the server rolled for a storming (None before)."""
    setup = (table.pack or {}).get("setup")
    if not setup:
        return None, ""
    timing = tides.tide_timing_for(attacker_first=setup["attacker"], defender_dice=setup["defender"])
    thrown = f"attacker's initial set-up die {setup['attacker']}, defender's " + ", ".join(
        str(d) for d in setup["defender"]
    )
    return tides.tide_schedule_table(timing), thrown + " (rolled by the server)"


def storming_pack(table: TabletopBattle) -> StormingPack:
    """The pack of a storming phase 6 held at the table (its siege as it stood then)."""
    held = _held_storming(table)
    attacker, defender = _storming_tide_roles(held)
    schedule, setup_words = _storming_tide_schedule(table)
    state = held.state
    forts_line, fort_tables = pack_forts(held.port, held.ruleset)
    n = state.earlier_turns
    running = "its first turn of siege" if n == 0 else f"besieged {n} turn{'s' if n != 1 else ''} before this one"
    blockade = "blockaded against its owner" if state.blockaded else "not blockaded"
    commander = f"garrison commander grade {state.commander}" if state.commander else "no garrison commander"
    return StormingPack(
        table=table,
        place=held.port.name,
        siege=f"{units_words(len(state.besiegers))} besieging, {units_words(len(state.garrison))} in the garrison; "
        f"{running}; {blockade}; {commander}",
        forts=forts_line,
        fort_tables=fort_tables,
        assault=assault_aid(held.port, held.forces, len(state.garrison), held.ruleset),
        tide_tables=inshore_tables(held.ruleset),
        tide_roles=(
            f"For the tide's dice at {held.port.name}, the attacker is {attacker} (the besiegers) and the defender "
            f"{defender}: the attacker throws the initial set-up die and the tide-effect die, the defender his "
            "set-up dice."
        ),
        tide_schedule=schedule,
        tide_dice=setup_words,
        rolls=list((table.pack or {}).get("dice", [])),
        rolled=[(str(k), str(v)) for k, v in (table.pack or {}).get("rolled", [])],
    )


def storming_pack_roll(
    table: TabletopBattle, *, campaign_seed: int, turn_number: int
) -> tuple[list[dict[str, Any]], list[list[str]], dict[str, Any]]:
    """Roll a held storming's dice for a group that asks the server to: the first fires — the
    besiegers' at the works, then the garrison's (and its guns') at the besiegers, each on the column
    its pack prints — then, as for a battle at a port, the tide's set-up dice and the attacker's
    tide-effect die for the first tide cycle (seed 001:48; the besiegers attack, the owner defends),
    each die naming who throws it. Seeded from (campaign seed, turn, 6, place, "table"), so they are
    the same however often asked. Returns the strategic-log records, what they gave in words, and the
    set-up dice."""
    held = _held_storming(table)
    _, fires = assault_fires(held.port, held.forces, len(held.state.garrison), held.ruleset)
    dice = SeededDice(derive_seed(campaign_seed, turn_number, STORMING_PHASE, table.place, "table"))
    log = StrategicLog()
    results = roll_storming_fires(dice, log, place=table.place, fires=fires)
    rolled = [[name, fire_rolled_text(result)] for name, result in zip(FIRE_NAMES, results, strict=True)]
    attacker, defender = _storming_tide_roles(held)
    setup, tide_rolled = tide_dice_roll(dice, log, place=table.place, attacker=attacker, defender=defender)
    return [r.to_dict() for r in log], [*rolled, *tide_rolled], setup
