"""The siege table (RULES.md §7 "Siege"; Gibraltar ×5 and its 6 coastal forts are seed rules [S]).

"In phase 6, after landings, a port with land units ashore from nations at war with its owner is
besieged (no order needed). B = those units, all such nations together; G = the owner's and its
allies' units in the port (Gibraltar × 5). G = 0: the port is taken, no roll. Otherwise, if
2B ≥ G, roll d10 − forts, +1 if B ≥ 2G, +2 if B ≥ 3G, +3 if B ≥ 4G, +1 per earlier consecutive turn
this port ended phase 6 besieged (max +4; the landing turn rolls with +0), +2 if blockaded against
the owner else −2, +1 with a siege train (one counts), −1 if the garrison commander is A–C: ≤3 one
besieging unit lost (the siege train last); 4–6 nothing; 7–8 one garrison unit lost (the port
taken if none is left); 9 the garrison removed and the port taken; ≥10 the port taken and one
besieging unit lost. A siege with no besiegers left ends, and its count resets."

One call of :func:`siege_roll` resolves one besieged port: at most one d10 (RULES.md §3: "sieges
per port, one d10"), logged under the purpose ``siege`` with the port as its place. The capture
itself (owner change after phase 9, the besiegers becoming the garrison, ships in port captured)
is the caller's: this module reports whether the port is taken, by whom, and which units the
table destroyed.

House resolutions of points the rules leave open (RULES.md wins over everything here):

* "Superiority" modifiers do not add up: the largest that applies counts (+3 at B ≥ 4G, not 6).
* Which unit is lost: among the besiegers, ordinary units before siege trains ("the siege train
  last"), lowest id first; the garrison loses its units the same way.
* ≥10 with a single besieging unit: the port is taken (the table says so) and that unit is lost,
  so the captor receives it ungarrisoned.
* The captor, when besiegers of several nations take a port together, is the nation with most
  besieging units before the roll (ties: lower nation code), as §4 picks a side's leading nation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from rules.dice import Dice
from rules.ruleset import GRADES, Ruleset
from rules.strategic_log import SIEGE, StrategicDie, StrategicLog

#: "−1 if the garrison commander is A–C" — a set of grades, not a number.
STRONG_COMMANDER_GRADES: Final = frozenset({"A", "B", "C"})

# "+1 if B ≥ 2G, +2 if B ≥ 3G, +3 if B ≥ 4G": each modifier is a setting named after its ratio,
# so the ratio is read from the key and the two can never disagree. Largest ratio first.
_SUPERIORITY_KEYS: Final = ("siege.superiority_4", "siege.superiority_3", "siege.superiority_2")


def _superiority_ratio(key: str) -> int:
    return int(key.rsplit("_", 1)[1])


class SiegeOutcome(StrEnum):
    """What the siege table did this turn."""

    #: G = 0: "the port is taken, no roll".
    TAKEN_UNDEFENDED = "taken_undefended"
    #: 2B < G: the besiegers are too weak to roll; the siege goes on.
    NO_ROLL = "no_roll"
    #: ≤3: one besieging unit lost.
    BESIEGER_LOST = "besieger_lost"
    #: 4–6: nothing.
    NOTHING = "nothing"
    #: 7–8: one garrison unit lost (the port is taken if none is left).
    GARRISON_LOST = "garrison_lost"
    #: 9: the garrison removed and the port taken.
    STORMED = "stormed"
    #: ≥10: the port taken and one besieging unit lost.
    STORMED_AT_A_COST = "stormed_at_a_cost"
    #: Fought on the table instead of the d10 (issue 15): the losses and the capture as entered.
    AT_TABLE = "at_table"


@dataclass(frozen=True, slots=True)
class SiegeUnit:
    """A land unit at the siege, by the caller's id; ``nation`` is its nation's code."""

    id: int
    nation: str
    siege_train: bool = False


@dataclass(frozen=True, slots=True)
class SiegeState:
    """One besieged port at phase 6, after landings.

    ``besiegers``: every unit ashore there of a nation at war with the owner (at least one).
    ``garrison``: the owner's and its allies' units in the port (may be empty).
    ``fortification``: the port's FF; ``gibraltar`` multiplies the garrison and the forts.
    ``earlier_turns``: consecutive earlier turns this port ended phase 6 besieged (0 on the
    landing turn). ``blockaded``: blockaded against the owner. ``commander``: the garrison
    commander's grade, or None.
    """

    port: str
    besiegers: tuple[SiegeUnit, ...]
    garrison: tuple[SiegeUnit, ...]
    fortification: int
    gibraltar: bool = False
    earlier_turns: int = 0
    blockaded: bool = False
    commander: str | None = None

    def __post_init__(self) -> None:
        if not self.besiegers:
            raise ValueError(f"{self.port}: a siege needs at least one besieging unit")
        ids = [u.id for u in self.besiegers + self.garrison]
        if len(ids) != len(set(ids)):
            raise ValueError(f"{self.port}: a unit id appears twice among besiegers and garrison")
        if self.fortification < 0:
            raise ValueError(f"{self.port}: fortification {self.fortification} is negative")
        if self.earlier_turns < 0:
            raise ValueError(f"{self.port}: earlier_turns {self.earlier_turns} is negative")
        if self.commander is not None and self.commander not in GRADES:
            raise ValueError(f"{self.port}: commander grade {self.commander!r} is not one of A–H")


@dataclass(frozen=True, slots=True)
class SiegeModifiers:
    """The modifiers of one siege roll, each named as in the rule."""

    forts: int
    superiority: int
    duration: int
    blockade: int
    siege_train: int
    commander: int

    @property
    def total(self) -> int:
        return self.superiority + self.duration + self.blockade + self.siege_train + self.commander - self.forts


@dataclass(frozen=True, slots=True)
class SiegeResult:
    """The outcome of one port's siege this turn.

    ``b`` and ``g`` are the strengths compared (``g`` already multiplied at Gibraltar);
    ``die`` is the logged d10 (None when nothing was rolled). ``besiegers_lost`` and
    ``garrison_lost`` are unit ids the table destroyed. ``taken`` means the port changes owner
    after phase 9, to ``captor``. ``still_besieged``: besiegers remain and the port is not taken,
    so the port ended phase 6 besieged and next turn's ``earlier_turns`` is :attr:`next_earlier_turns`.
    """

    port: str
    outcome: SiegeOutcome
    b: int
    g: int
    modifiers: SiegeModifiers | None
    die: StrategicDie | None
    besiegers_lost: tuple[int, ...]
    garrison_lost: tuple[int, ...]
    taken: bool
    captor: str | None
    still_besieged: bool
    next_earlier_turns: int


def coastal_forts(fortification: int, gibraltar: bool, ruleset: Ruleset) -> int:
    """Coastal forts = FF; Gibraltar has ``guns.coastal_forts_gibraltar_multiplier`` × FF (6 at FF 3)."""
    return fortification * ruleset["guns.coastal_forts_gibraltar_multiplier"] if gibraltar else fortification


def garrison_strength(units: int, gibraltar: bool, ruleset: Ruleset) -> int:
    """G: garrison units, × ``siege.gibraltar_garrison_multiplier`` at Gibraltar ("5 units count as 25")."""
    return units * ruleset["siege.gibraltar_garrison_multiplier"] if gibraltar else units


def siege_can_roll(b: int, g: int, ruleset: Ruleset) -> bool:
    """The table is rolled only if ``siege.roll_ratio`` × B ≥ G (and G > 0)."""
    return g > 0 and ruleset["siege.roll_ratio"] * b >= g


def siege_modifiers(state: SiegeState, ruleset: Ruleset) -> SiegeModifiers:
    """Every modifier of the roll for ``state`` (precondition: the table is rolled, so G > 0)."""
    b = len(state.besiegers)
    g = garrison_strength(len(state.garrison), state.gibraltar, ruleset)
    superiority = 0
    for key in _SUPERIORITY_KEYS:
        if b >= _superiority_ratio(key) * g:
            superiority = ruleset[key]
            break
    duration = min(state.earlier_turns * ruleset["siege.per_turn_bonus"], ruleset["siege.per_turn_max"])
    blockade = ruleset["siege.blockaded_bonus"] if state.blockaded else ruleset["siege.not_blockaded_penalty"]
    train = ruleset["siege.siege_train_bonus"] if any(u.siege_train for u in state.besiegers) else 0
    commander = ruleset["siege.commander_penalty"] if state.commander in STRONG_COMMANDER_GRADES else 0
    return SiegeModifiers(
        forts=coastal_forts(state.fortification, state.gibraltar, ruleset),
        superiority=superiority,
        duration=duration,
        blockade=blockade,
        siege_train=train,
        commander=commander,
    )


def siege_band(total: int, ruleset: Ruleset) -> SiegeOutcome:
    """The table's band for a modified total (≤3, 4–6, 7–8, 9, ≥10 by default)."""
    if total <= ruleset["siege.besieger_lost_max"]:
        return SiegeOutcome.BESIEGER_LOST
    if total <= ruleset["siege.nothing_max"]:
        return SiegeOutcome.NOTHING
    if total <= ruleset["siege.garrison_lost_max"]:
        return SiegeOutcome.GARRISON_LOST
    if total <= ruleset["siege.taken_exact"]:
        return SiegeOutcome.STORMED
    return SiegeOutcome.STORMED_AT_A_COST


def unit_to_lose(units: Sequence[SiegeUnit]) -> SiegeUnit:
    """The unit a loss falls on: ordinary units before siege trains, then lowest id."""
    if not units:
        raise ValueError("no unit to lose")
    return min(units, key=lambda u: (u.siege_train, u.id))


def captor_of(besiegers: Sequence[SiegeUnit]) -> str:
    """The nation that takes the port: most besieging units, ties → lower nation code."""
    counts = Counter(u.nation for u in besiegers)
    return min(counts, key=lambda nation: (-counts[nation], nation))


def siege_roll(state: SiegeState, ruleset: Ruleset, dice: Dice, log: StrategicLog) -> SiegeResult:
    """Resolve one besieged port's siege for this turn.

    Rolls at most one d10 from ``dice`` (none when G = 0 or 2B < G) and appends it to ``log``
    with purpose ``siege``, place ``state.port`` and the modifiers in its detail. Call once per
    besieged port per turn, ports in key order (RULES.md §3).
    """
    b = len(state.besiegers)
    g = garrison_strength(len(state.garrison), state.gibraltar, ruleset)
    captor = captor_of(state.besiegers)
    without_a_roll = _siege_without_a_roll(state, b, g, captor, ruleset)
    if without_a_roll is not None:
        return without_a_roll

    mods = siege_modifiers(state, ruleset)
    die = _siege_die(state, b, g, mods, dice, log)
    outcome = siege_band(die.result, ruleset)
    besiegers_lost, garrison_lost, taken = _siege_losses(outcome, state)
    besiegers_left = b - len(besiegers_lost)
    still_besieged = not taken and besiegers_left > 0
    return SiegeResult(
        port=state.port,
        outcome=outcome,
        b=b,
        g=g,
        modifiers=mods,
        die=die,
        besiegers_lost=besiegers_lost,
        garrison_lost=garrison_lost,
        taken=taken,
        captor=captor if taken else None,
        still_besieged=still_besieged,
        next_earlier_turns=state.earlier_turns + 1 if still_besieged else 0,
    )


def _siege_without_a_roll(state: SiegeState, b: int, g: int, captor: str, ruleset: Ruleset) -> SiegeResult | None:
    """The result when no die is rolled: an undefended port falls, a too-weak siege goes on;
    ``None`` when the besiegers roll."""
    if g == 0:
        return SiegeResult(
            port=state.port,
            outcome=SiegeOutcome.TAKEN_UNDEFENDED,
            b=b,
            g=g,
            modifiers=None,
            die=None,
            besiegers_lost=(),
            garrison_lost=(),
            taken=True,
            captor=captor,
            still_besieged=False,
            next_earlier_turns=0,
        )
    if not siege_can_roll(b, g, ruleset):
        # Too weak to assault, but still ashore: the port ended phase 6 besieged.
        return SiegeResult(
            port=state.port,
            outcome=SiegeOutcome.NO_ROLL,
            b=b,
            g=g,
            modifiers=None,
            die=None,
            besiegers_lost=(),
            garrison_lost=(),
            taken=False,
            captor=None,
            still_besieged=True,
            next_earlier_turns=state.earlier_turns + 1,
        )
    return None


def _siege_die(state: SiegeState, b: int, g: int, mods: SiegeModifiers, dice: Dice, log: StrategicLog) -> StrategicDie:
    """The siege's one d10, logged with every modifier in its detail."""
    return log.roll(
        dice,
        purpose=SIEGE,
        place=state.port,
        die="d10",
        mod=mods.total,
        subject=f"port:{state.port}",
        detail=(
            f"B {b} G {g}: forts -{mods.forts}, superiority {mods.superiority:+d}, "
            f"turns {mods.duration:+d}, blockade {mods.blockade:+d}, siege train {mods.siege_train:+d}, "
            f"commander {mods.commander:+d}"
        ),
    )


def _siege_losses(outcome: SiegeOutcome, state: SiegeState) -> tuple[tuple[int, ...], tuple[int, ...], bool]:
    """The besiegers' and the garrison's units lost to ``outcome``, and whether the port is taken."""
    besiegers_lost: tuple[int, ...] = ()
    garrison_lost: tuple[int, ...] = ()
    taken = False
    if outcome in (SiegeOutcome.BESIEGER_LOST, SiegeOutcome.STORMED_AT_A_COST):
        besiegers_lost = (unit_to_lose(state.besiegers).id,)
        taken = outcome is SiegeOutcome.STORMED_AT_A_COST
    elif outcome is SiegeOutcome.GARRISON_LOST:
        garrison_lost = (unit_to_lose(state.garrison).id,)
        taken = len(state.garrison) == len(garrison_lost)
    elif outcome is SiegeOutcome.STORMED:
        garrison_lost = tuple(sorted(u.id for u in state.garrison))
        taken = True
    return besiegers_lost, garrison_lost, taken
