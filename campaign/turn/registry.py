"""The phases of a turn (RULES.md §3), in one table: each phase's number, its name (stored with the
phase's record), its title for players (the headings of a turn report), and its function.

This is the only list of the phases: the runner runs them in number order from here, and the pages
take their titles from here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from campaign.turn.context import PhaseFunction
from campaign.turn.phase_01_diplomacy import diplomacy_phase
from campaign.turn.phase_02_construction import construction_phase
from campaign.turn.phase_03_movement import movement_phase
from campaign.turn.phase_04_battles import battles_phase, battles_wait
from campaign.turn.phase_05_guns import guns_phase
from campaign.turn.phase_06_sieges import landings_and_sieges_phase
from campaign.turn.phase_07_weather_supply import storms_supply_attrition_phase
from campaign.turn.phase_08_repairs import repairs_phase
from campaign.turn.phase_09_economy import economy_phase
from campaign.turn.phase_10_next_turn import next_turn_phase
from campaign.turn.storming import stormings_wait


@dataclass(frozen=True)
class Phase:
    """One phase of RULES.md §3."""

    number: int
    name: str
    title: str
    run: PhaseFunction
    #: Called (with the turn's id) before the phase runs: True holds the phase — and the turn — back
    #: (phase 4 waits for battles on the table, phase 7 for a storming held by phase 6; issue 15).
    waits: Callable[[int], bool] | None = None


#: Every phase by number, in the order a turn runs them.
PHASES: dict[int, Phase] = {
    phase.number: phase
    for phase in (
        Phase(1, "diplomacy", "Diplomacy", diplomacy_phase),
        Phase(2, "construction", "Construction and raising", construction_phase),
        Phase(3, "movement", "Fleet organisation and movement", movement_phase),
        Phase(4, "battles", "Battles and blockades", battles_phase, battles_wait),
        Phase(5, "guns", "Garrison guns, fireships, running the guns", guns_phase),
        Phase(6, "sieges", "Landings and sieges", landings_and_sieges_phase),
        # A storming sent to the table (issue 15) is held by phase 6; the turn waits after it.
        Phase(7, "weather and supply", "Storms, supply and attrition", storms_supply_attrition_phase, stormings_wait),
        Phase(8, "repairs", "Repairs", repairs_phase),
        Phase(9, "economy", "Income and upkeep", economy_phase),
        Phase(10, "next turn", "The next turn", next_turn_phase),
    )
}

#: Phase number → the name stored in ``TurnPhase.summary["name"]``.
PHASE_NAMES: dict[int, str] = {number: phase.name for number, phase in PHASES.items()}

#: Phase number → the heading players read in a turn report.
PHASE_TITLES: dict[int, str] = {number: phase.title for number, phase in PHASES.items()}
