"""Turn-report events of a nation's affairs: diplomacy (phase 1), construction (phase 2), the treasury
and captures (phase 9), and the campaign's end (phase 10).

See :mod:`rules.turn_events` for how events are stored and read back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.turn_events.kinds.base import TurnEvent

# --- phase 1: diplomacy --------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class RelationChanged(TurnEvent):
    kind: ClassVar[str] = "relation_changed"
    a: str
    b: str
    state: str


@dataclass(frozen=True, kw_only=True)
class OfferMade(TurnEvent):
    kind: ClassVar[str] = "offer_made"
    from_nation: str
    to_nation: str
    offer: str  # "peace" | "alliance"
    turn: int


# --- phase 2: construction -----------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class ShipLaunched(TurnEvent):
    kind: ClassVar[str] = "ship_launched"
    ship_id: int
    ship_name: str
    fleet_id: int
    fleet_name: str
    port_key: str
    port_name: str


@dataclass(frozen=True, kw_only=True)
class ShipLaidDown(TurnEvent):
    kind: ClassVar[str] = "ship_laid_down"
    ship_id: int
    ship_name: str
    ship_class: str
    port_key: str
    port_name: str


@dataclass(frozen=True, kw_only=True)
class UnitRaised(TurnEvent):
    kind: ClassVar[str] = "unit_raised"
    siege_train: bool
    port_key: str
    port_name: str


# --- phase 9: economy and captures ---------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class LedgerChanged(TurnEvent):
    kind: ClassVar[str] = "ledger_changed"
    treasury: int
    income: int | None = None
    upkeep: int | None = None
    upkeep_unpaid: int | None = None


@dataclass(frozen=True, kw_only=True)
class PortCaptured(TurnEvent):
    kind: ClassVar[str] = "port_captured"
    port_key: str
    port_name: str = ""
    owner: str
    previous_owner: str


@dataclass(frozen=True, kw_only=True)
class CaptureTaken(TurnEvent):
    """What the captor took with a port: ships, keels, admirals (for the captor and the old owner)."""

    kind: ClassVar[str] = "capture_taken"
    port_key: str
    port_name: str = ""
    ship_ids: tuple[int, ...] = ()
    keel_ids: tuple[int, ...] = ()
    admirals: tuple[str, ...] = ()


# --- phase 10 ------------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class CampaignEnded(TurnEvent):
    kind: ClassVar[str] = "campaign_ended"
    turn: int
