"""The typed context every phase of RULES.md §3 receives: the turn, its campaign and ruleset, the clock,
the phase's seeded dice and strategic dice log, and the events it notes for the turn reports.

The events are plain dicts (``{"phase", "nations", "text", **data}``), stored as they are in
``TurnPhase.summary`` and, per nation, in ``TurnReport.body``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from campaign.models import Campaign, Turn
from rules.dice import SeededDice, derive_seed
from rules.ruleset import Ruleset
from rules.strategic_log import StrategicLog


@dataclass
class PhaseContext:
    """What a phase needs: the turn, its campaign and ruleset, the clock, dice, and a report book."""

    campaign: Campaign
    turn: Turn
    ruleset: Ruleset
    phase: int
    now: datetime
    log: StrategicLog = field(default_factory=StrategicLog)
    events: list[dict[str, Any]] = field(default_factory=list)

    def dice(self, place: str) -> SeededDice:
        """Dice for one place of this phase: seeded from (campaign seed, turn, phase, place) (§3)."""
        return SeededDice(derive_seed(self.campaign.seed, self.turn.number, self.phase, place))

    def report(self, nations: list[str] | None, text: str, **data: Any) -> None:
        """Note an event for the turn reports of ``nations`` (None: every nation sees it)."""
        self.events.append({"phase": self.phase, "nations": nations, "text": text, **data})


#: A phase: does its work through the context, returns nothing.
PhaseFunction = Callable[[PhaseContext], None]
