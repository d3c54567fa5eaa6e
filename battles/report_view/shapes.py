"""The structures the battle report page reads (:mod:`battles.report_view`): sides, ships, days,
rounds and dice, each in the words the page shows."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from battles.models import Battle
from fleets.models import ShipClass

#: Ship classes by their names: the page says "3rd rate (74/80)", never the key "3rd-74".
CLASS_NAMES: dict[str, str] = dict(ShipClass.choices)


def class_name(key: str) -> str:
    return CLASS_NAMES.get(key, key)


@dataclass
class ShipView:
    side: int
    name: str
    cls: str
    crew: str
    nation: str
    fate: str
    exploded: bool
    captured_by: str
    in_line: bool = True


@dataclass
class SideView:
    index: int
    name: str
    nations: list[str]
    navy: str = ""
    admiral: str = ""
    crew: str = ""
    ships: int = 0
    lost: int = 0
    outcome: str = ""
    winner: bool = False
    ship_list: list[ShipView] = field(default_factory=list)
    fleets: str = ""


@dataclass
class RoundView:
    round: int
    initiative: str = ""
    barrage: int | None = None
    pairs: list[tuple[str, str]] = field(default_factory=list)
    reserves: list[str] = field(default_factory=list)
    checks: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    fire: list[str] = field(default_factory=list)


@dataclass
class DayView:
    day: int
    gauge: str
    rounds: list[RoundView]
    outcome: str
    after: str = ""


@dataclass
class DieView:
    n: int
    day: int | None
    round: int
    side: str
    die: str
    purpose: str
    raw: Any
    mod: Any
    result: Any
    ship: str
    target: str
    effect: str

    @property
    def words(self) -> str:
        """The die in a line a player reads: "British, fire: d10 rolled 7, +1 = 8 — Victory at Redoutable:
        damaged"."""
        modifier = "" if self.mod in ("0", "+0", "") else f", {self.mod}"
        total = "" if self.result is None or (not modifier and self.result == self.raw) else f" = {self.result}"
        line = f"{self.side + ', ' if self.side else ''}{self.purpose}: {self.die} rolled {self.raw}{modifier}{total}"
        aim = " at ".join(part for part in (self.ship, self.target) if part)
        if aim or self.effect:
            line += " — " + ": ".join(part for part in (aim, self.effect) if part)
        return line


@dataclass
class DiceRound:
    """The dice of one round (of one day), shown as a card."""

    title: str
    dice: list[DieView]


@dataclass
class BattleView:
    battle: Battle
    title: str
    where: str
    result: str
    sides: list[SideView]
    days: list[DayView]
    ships: list[list[ShipView]]
    dice: list[DieView]
    notes: list[str]
    attacks: list[dict[str, Any]]

    @property
    def dice_rounds(self) -> list[DiceRound]:
        """The dice log as one card per round (per day and round when the battle lasted days)."""
        days = len({d.day for d in self.dice}) > 1
        cards: list[DiceRound] = []
        for die in self.dice:
            title = (f"Day {die.day}, " if days and die.day is not None else "") + (
                f"round {die.round}" if die.round else "before the rounds"
            )
            if not cards or cards[-1].title != title[:1].upper() + title[1:]:
                cards.append(DiceRound(title[:1].upper() + title[1:], []))
            cards[-1].dice.append(die)
        return cards
