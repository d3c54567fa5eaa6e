"""Turn-report events at sea: movement and contacts (phase 3), battles and blockades (phase 4), running
the guns, fireships and garrison guns (phase 5), and storms (phase 7).

See :mod:`rules.turn_events` for how events are stored and read back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.turn_events.kinds.base import BattleShip, SeenShip, TurnEvent

# --- phase 3: movement ---------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class FleetMoved(TurnEvent):
    """Where a fleet ended phase 3 (its nation and allies see it)."""

    kind: ClassVar[str] = "fleet_moved"
    fleet_id: int
    fleet_name: str = ""
    nation: str = ""
    ship_count: int | None = None
    zone_key: str
    zone_name: str = ""
    port_key: str | None = None
    port_name: str = ""


@dataclass(frozen=True, kw_only=True)
class ContactMade(TurnEvent):
    """Enemy ships sighted (``how="sighted"``) or met (``how="met"``) at sea, step ``step`` (§4)."""

    kind: ClassVar[str] = "contact_made"
    ROWS: ClassVar[dict[str, type[SeenShip] | type[BattleShip]]] = {"ships": SeenShip}
    how: str
    zone_key: str
    zone_name: str = ""
    step: int | None = None
    ships: tuple[SeenShip, ...] = ()


@dataclass(frozen=True, kw_only=True)
class ContactEscaped(TurnEvent):
    kind: ClassVar[str] = "contact_escaped"
    zone_key: str
    zone_name: str = ""
    step: int | None = None


# --- phase 4: battles and blockades --------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class BattleFought(TurnEvent):
    kind: ClassVar[str] = "battle_fought"
    ROWS: ClassVar[dict[str, type[SeenShip] | type[BattleShip]]] = {"ships": BattleShip}
    battle_id: int
    engagement_id: int | None = None
    place_key: str = ""  # "" only in old reports that did not say where
    place_name: str = ""
    ships: tuple[BattleShip, ...] = ()

    @property
    def battle(self) -> int | None:
        return self.battle_id


@dataclass(frozen=True, kw_only=True)
class SideCaptured(TurnEvent):
    """A side with no ship able to form a line, taken whole without a battle (§4)."""

    kind: ClassVar[str] = "side_captured"
    ROWS: ClassVar[dict[str, type[SeenShip] | type[BattleShip]]] = {"ships": BattleShip}
    engagement_id: int | None = None
    place_key: str
    place_name: str = ""
    ships: tuple[BattleShip, ...] = ()


#: What a ``engagement_noted`` event is about ("note": read from a report stored before the codes were).
ENGAGEMENT_NOTE_CODES = (
    "blockade_broken",
    "admiral_lost",
    "admiral_taken",
    "ships_in_port_engaged",
    "ships_in_port_sighted",
    "note",
)


@dataclass(frozen=True, kw_only=True)
class EngagementNoted(TurnEvent):
    """Something of an engagement beyond its battle: an admiral lost or taken, a blockade broken by a
    sally, ships in a besieged port engaged or sighted."""

    kind: ClassVar[str] = "engagement_noted"
    CODES: ClassVar[tuple[str, ...]] = ENGAGEMENT_NOTE_CODES
    engagement_id: int | None = None
    code: str


@dataclass(frozen=True, kw_only=True)
class PortBlockaded(TurnEvent):
    kind: ClassVar[str] = "port_blockaded"
    fleet_id: int | None = None
    fleet_name: str = ""
    nation: str = ""
    port_key: str
    port_name: str = ""


@dataclass(frozen=True, kw_only=True)
class PortLookedInto(TurnEvent):
    """The ships a blockader sees in the port it blockades (§4, no roll)."""

    kind: ClassVar[str] = "port_looked_into"
    ROWS: ClassVar[dict[str, type[SeenShip] | type[BattleShip]]] = {"ships": SeenShip}
    fleet_id: int | None = None
    fleet_name: str = ""
    port_key: str
    port_name: str = ""
    ships: tuple[SeenShip, ...] = ()


# --- phase 5: running the guns, fireships, garrison guns -----------------------------------------------


@dataclass(frozen=True, kw_only=True)
class PortActionFought(TurnEvent):
    kind: ClassVar[str] = "port_action_fought"
    battle_id: int
    port_key: str
    port_name: str = ""

    @property
    def battle(self) -> int | None:
        return self.battle_id


# --- phase 7: weather, supply, attrition ---------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class StormStruck(TurnEvent):
    kind: ClassVar[str] = "storm_struck"
    zone_key: str
    zone_name: str = ""
    damaged: tuple[int, ...] = ()
    lost: tuple[int, ...] = ()
