"""Battle reports: what a fought battle produced, as data and as CONTRACT.md's JSON.

Implements the report side of RULES.md §5 ("Dice order is canonical": every die in the order it was
rolled, with its purpose, die, raw face, modifier, applied result, firing ship and target) and §6
(each round's barrage count, the coastal forts). The JSON of :meth:`BattleReport.to_json` is exactly
CONTRACT.md's battle report plus extra keys (``sides``, ``coastal_forts``, ``events``, ``checks``,
``round_lines``, per-ship ``ref`` and ``class``, per-die ``effect``).

Dice are kept as plain tuples (:data:`~battles.engine.combat.DieRow`) while a battle is fought; they
become dicts only here, when a JSON report is asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple, cast

from .combat import D6, FATES, NO_SHIP, ROW, DieRow, dice_rows
from .spec import BattleSpec, ShipRef

HELD = "held"
RETIRED = "retired"
BROKE = "broke"
BEATEN = "beaten"
EVADED = "evaded"
OUTCOMES = (HELD, RETIRED, BROKE, BEATEN)


class ShipResult(NamedTuple):
    """One ship's end state: exactly one ``fate`` of intact, damaged, disabled, sunk, captured."""

    side: int
    name: str
    fate: str
    exploded: bool
    captured_by: int | None
    ref: ShipRef
    cls: str
    # The ship's own navy and crew grade in the battle: prizes change both afterwards, so the record
    # keeps what fought.
    navy: str = ""
    crew: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "name": self.name,
            "fate": self.fate,
            "exploded": self.exploded,
            "captured_by": self.captured_by,
            "ref": self.ref,
            "class": self.cls,
            "navy": self.navy,
            "crew": self.crew,
        }


@dataclass(frozen=True, slots=True)
class RoundLines:
    """The pairing of one round (§5 Lines): each side's paired ships in line order and reserves.

    For running the guns, ``barrage`` is the round's count of barrage dice due."""

    round: int
    lines: tuple[Sequence[int], Sequence[int]]
    reserves: tuple[Sequence[int], Sequence[int]]
    initiative: int | None = None
    barrage: int | None = None

    def slots(self) -> list[tuple[int, list[int]]]:
        """(ship of the smaller line, the enemy ships paired against it), in order: ship k of the
        smaller line faces ship k of the other, extras double up on ships 1, 2, 3…"""
        a, b = self.lines
        small, big = (a, b) if len(a) <= len(b) else (b, a)
        n = len(small)
        if n == 0:
            return []  # nobody to pair with: nobody is paired
        out: list[tuple[int, list[int]]] = [(small[k], [big[k]]) for k in range(n)]
        for e, y in enumerate(big[n:]):
            out[e % n][1].append(y)
        return out


@dataclass(frozen=True, slots=True)
class IntegrityCheck:
    """§5 step 5: one side's check. ``lost``/``start`` give L exactly; ``total`` = raw + mod."""

    round: int
    side: int
    lost: int
    start: int
    penalty: int
    raw: int
    mod: int
    total: int
    result: str

    @property
    def loss(self) -> Fraction:
        return Fraction(self.lost, self.start)


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened outside a die: an end-of-day capture, an abandoned prize, a break-off.

    ``kind``: ``taken`` (a breaking side's damaged ship), ``captured`` (a disabled ship taken by
    the winner or left behind when breaking off), ``abandoned`` (a boarded prize returned to its
    owner), ``kept`` (a side keeps its own disabled ship, no winner), ``broke_off``, ``stays``."""

    round: int
    kind: str
    side: int
    ship: int = NO_SHIP
    by: int | None = None


#: An event as the engine records it: (round, kind, side, ship, by) — see :class:`Event`.
EventRow = tuple[int, str, int, int, int | None]


@dataclass(frozen=True, slots=True)
class SideSummary:
    name: str
    navy: str
    admiral: str | None
    admiral_grade: str | None
    ships: int
    lost: int

    @property
    def loss(self) -> Fraction:
        return Fraction(self.lost, self.ships) if self.ships else Fraction(0)


@dataclass(slots=True)
class BattleReport:
    """The result of one Naval Day, one running of the guns or one garrison barrage. Read-only by
    convention (not frozen: building it is on the simulator's hot path).

    ``ships`` are in spec order (side 0's, then side 1's); ship indexes in ``dice_rows``,
    ``lines``, ``checks`` and ``events`` point into it. ``states``, ``captured_by`` and
    ``exploded`` are the same per ship, as the engine's codes (see :data:`FATES`); ``lost`` is
    each side's ships sunk, captured or disabled when L was last computed (§5 step 5).
    ``first`` is side A of §5 (it checks integrity first). ``seed`` is set when the dice were
    :class:`~rules.dice.SeededDice`.
    """

    type: str
    seed: int | None
    rounds: int
    winner: int | None
    outcome: tuple[str, str]
    states: tuple[int, ...]
    captured_by: tuple[int | None, ...]
    exploded: tuple[bool, ...]
    dice_log: Sequence[int | str]
    lost: tuple[int, int]
    spec: BattleSpec
    first: int = 0
    max_rounds: int = 0
    lines: tuple[RoundLines, ...] = ()
    checks: tuple[IntegrityCheck, ...] = ()
    event_rows: Sequence[EventRow] = ()
    barrage: tuple[int, ...] | None = None
    coastal_forts: int | None = None
    _ships: tuple[ShipResult, ...] | None = field(default=None, init=False, repr=False, compare=False)
    _rows: tuple[DieRow, ...] | None = field(default=None, init=False, repr=False, compare=False)
    _events: tuple[Event, ...] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def sides(self) -> tuple[SideSummary, SideSummary]:
        """Each side's name, navy, admiral, ships at the start and ships lost (its L)."""
        a, b = (
            SideSummary(
                side.name,
                side.navy,
                None if side.admiral is None else side.admiral.name,
                side.admiral_grade,
                len(side.ships),
                self.lost[k],
            )
            for k, side in enumerate(self.spec.sides)
        )
        return a, b

    @property
    def events(self) -> tuple[Event, ...]:
        """End-of-day captures, abandoned prizes, break-off (see :class:`Event`), in order."""
        events = self._events
        if events is None:
            events = self._events = tuple(Event(*row) for row in self.event_rows)
        return events

    @property
    def dice_rows(self) -> tuple[DieRow, ...]:
        """Every die in the canonical order of RULES.md §5, one :data:`DieRow` each."""
        rows = self._rows
        if rows is None:
            rows = self._rows = dice_rows(self.dice_log)
        return rows

    @property
    def dice_count(self) -> int:
        return len(self.dice_log) // ROW

    @property
    def ships(self) -> tuple[ShipResult, ...]:
        """Every ship's end state, in spec order (built on first use: Monte Carlo never needs it)."""
        built = self._ships
        if built is None:
            specs = [(s, ship) for s, side in enumerate(self.spec.sides) for ship in side.ships]
            built = tuple(
                ShipResult(s, ship.name, FATES[state], exploded, by, ship.ref, ship.cls, ship.navy, ship.crew)
                for (s, ship), state, exploded, by in zip(
                    specs, self.states, self.exploded, self.captured_by, strict=True
                )
            )
            self._ships = built
        return built

    @property
    def raw_dice(self) -> list[int]:
        """The raw faces in order: fed to :class:`~rules.dice.ScriptedDice` they replay the battle."""
        return [cast(int, raw) for raw in self.dice_log[4::ROW]]

    def fates(self, side: int) -> dict[str, int]:
        """How many of ``side``'s ships ended in each fate."""
        counts = [0] * len(FATES)
        n0 = len(self.spec.sides[0].ships)
        for state in self.states[:n0] if side == 0 else self.states[n0:]:
            counts[state] += 1
        return dict(zip(FATES, counts, strict=True))

    def dice(self) -> list[dict[str, Any]]:
        """CONTRACT.md's ``dice`` list (plus ``effect``), numbered from 1."""
        names = [s.name for s in self.ships]
        return [
            {
                "n": n,
                "round": rnd,
                "side": side,
                "die": "d6" if sides == D6 else "d10",
                "purpose": purpose,
                "raw": raw,
                "mod": mod,
                "result": result,
                "ship": names[ship] if ship >= 0 else None,
                "target": names[target] if target >= 0 else None,
                "effect": effect,
            }
            for n, (rnd, side, sides, purpose, raw, mod, result, ship, target, effect) in enumerate(
                self.dice_rows, start=1
            )
        ]

    def to_json(self) -> dict[str, Any]:
        """CONTRACT.md's battle report, with extra keys after the contract's."""
        names = [s.name for s in self.ships]

        def name(i: int) -> str | None:
            return names[i] if i >= 0 else None

        out: dict[str, Any] = {
            "type": self.type,
            "seed": self.seed,
            "rounds": self.rounds,
            "winner": self.winner,
            "outcome": list(self.outcome),
        }
        if self.barrage is not None:
            out["barrage"] = list(self.barrage)
        out["ships"] = [s.to_json() for s in self.ships]
        out["dice"] = self.dice()
        out["sides"] = [
            {
                "name": s.name,
                "navy": s.navy,
                "admiral": None if s.admiral_grade is None else {"name": s.admiral, "grade": s.admiral_grade},
                "ships": s.ships,
                "lost": s.lost,
                "L": str(s.loss),
            }
            for s in self.sides
        ]
        out["first"] = self.first
        out["max_rounds"] = self.max_rounds
        if self.coastal_forts is not None:
            out["coastal_forts"] = self.coastal_forts
        out["round_lines"] = [
            {
                "round": r.round,
                "initiative": r.initiative,
                "barrage": r.barrage,
                "lines": [[names[i] for i in line] for line in r.lines],
                "reserves": [[names[i] for i in res] for res in r.reserves],
            }
            for r in self.lines
        ]
        out["checks"] = [
            {
                "round": c.round,
                "side": c.side,
                "L": str(c.loss),
                "penalty": c.penalty,
                "raw": c.raw,
                "mod": c.mod,
                "total": c.total,
                "result": c.result,
            }
            for c in self.checks
        ]
        out["events"] = [
            {"round": e.round, "kind": e.kind, "side": e.side, "ship": name(e.ship), "by": e.by} for e in self.events
        ]
        return out
