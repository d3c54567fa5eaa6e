"""The typed context every phase of RULES.md §3 receives: the turn, its campaign and ruleset, the clock,
the phase's seeded dice and strategic dice log, and the events it notes for the turn reports.

The events are typed (:mod:`rules.turn_events`); the context keeps them as their stored JSON
(``{"phase", "nations", "kind", "text", <fields>}``), which goes as it is into ``TurnPhase.summary``
and, per nation, into ``TurnReport.body``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from campaign.models import Campaign, Turn
from rules.dice import SeededDice, derive_seed, reseed_key
from rules.ruleset import Ruleset
from rules.strategic_log import StrategicLog
from rules.turn_events import TurnEvent


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
        """Dice for one place of this phase: seeded from (campaign seed, turn, phase, place) (§3), or
        from the seed a GM gave to re-fight the place's battles (campaign.gm.repair)."""
        reseeded = (self.turn.reseeds or {}).get(reseed_key(self.phase, place))
        if reseeded is not None:
            return SeededDice(int(reseeded))
        return SeededDice(derive_seed(self.campaign.seed, self.turn.number, self.phase, place))

    def report(self, nations: list[str] | None, event: TurnEvent) -> None:
        """Note ``event`` (of this phase) for the turn reports of ``nations`` (None: every nation sees it)."""
        self.events.append({"nations": nations, **replace(event, phase=self.phase).to_json()})


#: A phase: does its work through the context, returns nothing.
PhaseFunction = Callable[[PhaseContext], None]
