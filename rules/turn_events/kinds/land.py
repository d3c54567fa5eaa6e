"""Turn-report events ashore: landings and sieges (phase 6).

See :mod:`rules.turn_events` for how events are stored and read back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.turn_events.kinds.base import TurnEvent

# --- phase 6: landings and sieges ----------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class UnitsLanded(TurnEvent):
    kind: ClassVar[str] = "units_landed"
    fleet_id: int | None = None
    fleet_name: str = ""
    port_key: str
    port_name: str = ""
    unit_ids: tuple[int, ...] = ()


@dataclass(frozen=True, kw_only=True)
class LandUnitsLost(TurnEvent):
    """Land units lost with their transports (``unit_ids``)."""

    kind: ClassVar[str] = "land_units_lost"
    unit_ids: tuple[int, ...] = ()


@dataclass(frozen=True, kw_only=True)
class LandUnitsOutOfSupply(TurnEvent):
    kind: ClassVar[str] = "land_units_out_of_supply"
    unit_ids: tuple[int, ...] = ()


@dataclass(frozen=True, kw_only=True)
class SiegeRolled(TurnEvent):
    """A siege's outcome, which everyone sees (§3 fog of war)."""

    kind: ClassVar[str] = "siege_rolled"
    port_key: str
    port_name: str = ""
    outcome: str
    taken: bool


@dataclass(frozen=True, kw_only=True)
class SiegeDice(TurnEvent):
    """A siege's numbers and die, for the owner and the besiegers."""

    kind: ClassVar[str] = "siege_dice"
    port_key: str
    port_name: str = ""
    besiegers_lost: tuple[int, ...] = ()
    garrison_lost: tuple[int, ...] = ()
