"""Sieges (RULES.md §7 "Siege"): the siege table's d10 (:mod:`.roll`) and a storming fought on the table
instead of it (:mod:`.table`), which gives the same :class:`SiegeResult`; callers import from here."""

from rules.siege.roll import (
    STRONG_COMMANDER_GRADES,
    SiegeModifiers,
    SiegeOutcome,
    SiegeResult,
    SiegeState,
    SiegeUnit,
    captor_of,
    coastal_forts,
    garrison_strength,
    siege_band,
    siege_can_roll,
    siege_modifiers,
    siege_roll,
    unit_to_lose,
)
from rules.siege.table import SiegeResultRefused, siege_state_from_json, siege_state_json, siege_table_result

__all__ = [
    "STRONG_COMMANDER_GRADES",
    "SiegeModifiers",
    "SiegeOutcome",
    "SiegeResult",
    "SiegeResultRefused",
    "SiegeState",
    "SiegeUnit",
    "captor_of",
    "coastal_forts",
    "garrison_strength",
    "siege_band",
    "siege_can_roll",
    "siege_modifiers",
    "siege_roll",
    "siege_state_from_json",
    "siege_state_json",
    "siege_table_result",
    "unit_to_lose",
]
