"""Turn-report events that note a fleet, ship, port or place (several phases), each with the ``code``
that says what the note is about.

See :mod:`rules.turn_events` for how events are stored and read back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.turn_events.kinds.base import TurnEvent

# --- fleets, ships, ports, places (several phases) -----------------------------------------------------


#: What a ``fleet_noted`` event is about ("note": read from a report stored before the codes were).
FLEET_NOTE_CODES = (
    "move_cut_short",
    "move_blocked",
    "stopped_by_contact",
    "ships_left_behind",
    "port_full",
    "withdrew",
    "nowhere_to_withdraw",
    "no_orders_held",
    "no_orders_returned",
    "guest_put_to_sea",
    "treachery_in_port",
    "out_of_supply",
    "note",
)


@dataclass(frozen=True, kw_only=True)
class FleetNoted(TurnEvent):
    """Something about one fleet: its move cut short, a withdrawal, out of supply, a guest put to sea…"""

    kind: ClassVar[str] = "fleet_noted"
    CODES: ClassVar[tuple[str, ...]] = FLEET_NOTE_CODES
    fleet_id: int
    fleet_name: str = ""
    port_key: str | None = None
    port_name: str = ""
    code: str


#: What a ``ship_noted`` event is about ("note": read from a report stored before the codes were).
SHIP_NOTE_CODES = (
    "repaired",
    "repair_unfinished",
    "repair_refused",
    "repair_unpaid",
    "laid_up",
    "recommissioned",
    "note",
)


@dataclass(frozen=True, kw_only=True)
class ShipNoted(TurnEvent):
    """Something about one ship: a repair, laid up or recommissioned."""

    kind: ClassVar[str] = "ship_noted"
    CODES: ClassVar[tuple[str, ...]] = SHIP_NOTE_CODES
    ship_id: int
    ship_name: str = ""
    code: str


#: What a ``port_noted`` event is about ("note": read from a report stored before the codes were).
PORT_NOTE_CODES = (
    "landing",
    "siege_ended",
    "siege_ended_by_peace",
    "storming_at_table",
    "blockade_lifted_by_storm",
    "garrison_starved",
    "note",
)


@dataclass(frozen=True, kw_only=True)
class PortNoted(TurnEvent):
    """Something about one port: a siege ended, a blockade lifted, a landing before it, a garrison starved."""

    kind: ClassVar[str] = "port_noted"
    CODES: ClassVar[tuple[str, ...]] = PORT_NOTE_CODES
    port_key: str
    port_name: str = ""
    taken: bool = False
    code: str


#: What a ``place_noted`` event is about ("note": read from a report stored before the codes were).
PLACE_NOTE_CODES = (
    "no_fight",
    "attrition",
    "note",
)


@dataclass(frozen=True, kw_only=True)
class PlaceNoted(TurnEvent):
    """Something at a zone or port: attrition there, or an engagement with no fight."""

    kind: ClassVar[str] = "place_noted"
    CODES: ClassVar[tuple[str, ...]] = PLACE_NOTE_CODES
    place_key: str
    place_name: str = ""
    engagement_id: int | None = None
    code: str
