"""Every kind of turn-report event, one small frozen dataclass each (see the package docstring).

One name per concept across all kinds: ``port_key``/``port_name``, ``zone_key``/``zone_name``,
``place_key``/``place_name`` (a zone or a port), ``fleet_id``/``fleet_name``, ``ship_id``/``ship_name``,
``ship_ids``, ``unit_ids``, ``battle_id``, ``engagement_id``, ``order_id``, nation codes as ``nation``
(one) or ``a``/``b``, ``from_nation``/``to_nation``, ``owner``/``previous_owner`` (two). Names are
``""`` in events read back from reports stored before the names were recorded.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar


def counted(n: int, word: str, plural: str | None = None) -> str:
    """``1 ship``, ``2 ships``, ``0 land units``: a count with its noun in the right number."""
    return f"{n} {word if n == 1 else (plural or word + 's')}"


# --- ship rows -----------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class SeenShip:
    """An enemy (or any) ship as a nation saw it: whose, what class, in what condition; its name only
    where the report gave it; ``in_ordinary`` only for the ships a blockader sees in a port."""

    nation: str | None = None
    ship_class: str
    condition: str
    name: str = ""
    in_ordinary: bool | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "nation": self.nation,
            "ship_class": self.ship_class,
            "condition": self.condition,
            "name": self.name,
            "in_ordinary": self.in_ordinary,
        }


@dataclass(frozen=True, kw_only=True)
class BattleShip:
    """A ship of a battle or of a capture without one: its side (0/1), id, name, class and fate."""

    side: int
    ship_id: int
    ship_name: str
    ship_class: str
    fate: str

    def to_json(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "ship_id": self.ship_id,
            "ship_name": self.ship_name,
            "ship_class": self.ship_class,
            "fate": self.fate,
        }


# --- the base ------------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TurnEvent:
    """What every event has: its ``text`` for players (built from names by whoever writes it) and the
    ``phase`` (RULES.md §3) it happened in, which :meth:`PhaseContext.report` sets. ``kind`` is the
    stored discriminator; ``ROWS`` names the fields that hold ship rows, and their row type."""

    kind: ClassVar[str] = "note"
    #: The allowed values of the kind's ``code`` field, for the kinds that have one (the schema's enum).
    CODES: ClassVar[tuple[str, ...]] = ()
    ROWS: ClassVar[dict[str, type[SeenShip] | type[BattleShip]]] = {}
    text: str
    phase: int = 0

    @property
    def battle(self) -> int | None:
        """The Battle whose report this event links to (None for most kinds)."""
        return None

    def to_json(self) -> dict[str, Any]:
        """The stored shape: ``{"phase", "kind", "text", <fields>}`` (the runner adds ``nations``)."""
        out: dict[str, Any] = {"phase": self.phase, "kind": self.kind, "text": self.text}
        for f in dataclasses.fields(self):
            if f.name in ("phase", "text"):
                continue
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                value = [v.to_json() if isinstance(v, SeenShip | BattleShip) else v for v in value]
            out[f.name] = value
        return out


@dataclass(frozen=True, kw_only=True)
class Note(TurnEvent):
    """An event with nothing but its text (and every old stored event of no known shape)."""

    kind: ClassVar[str] = "note"


# --- orders (every phase) ------------------------------------------------------------------------------


#: Why an order was skipped at resolution, beyond the order check's own refusal codes (the API's
#: ``RefusalCode``, which a skip reuses when the same check refuses it then): the order's fleet left the
#: battle or was beaten, another order overruled it, there was nothing to act on, or it cannot be read.
SKIP_CODES_AT_RESOLUTION = (
    "fleet_left_battle",
    "overruled",
    "no_target",
    "move_blocked",
    "unreadable",
    "not_possible",
)
#: How an order was carried out: as ordered, or with nothing left to do (already so, or cancelled).
CARRIED_OUT_CODES = ("carried_out", "offer_made", "offer_accepted", "agreed", "already_so", "cancelled")


@dataclass(frozen=True, kw_only=True)
class OrderCarriedOut(TurnEvent):
    """An order of the nation carried out (one event per order; ``text`` says what it did)."""

    kind: ClassVar[str] = "order_carried_out"
    CODES: ClassVar[tuple[str, ...]] = CARRIED_OUT_CODES
    order_id: int
    order_position: int = 0
    order_kind: str = ""
    code: str


@dataclass(frozen=True, kw_only=True)
class OrderSkipped(TurnEvent):
    """An order that could not be carried out when its phase came; ``code`` says why, ``text`` in words.
    ``"not_possible"`` when read from a report stored before the codes were."""

    kind: ClassVar[str] = "order_skipped"
    order_id: int
    order_position: int = 0
    order_kind: str = ""
    code: str


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


# --- phase 7: weather, supply, attrition ---------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class StormStruck(TurnEvent):
    kind: ClassVar[str] = "storm_struck"
    zone_key: str
    zone_name: str = ""
    damaged: tuple[int, ...] = ()
    lost: tuple[int, ...] = ()


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


#: Every kind, by its stored ``kind``.
EVENT_KINDS: dict[str, type[TurnEvent]] = {
    cls.kind: cls
    for cls in (
        Note,
        OrderCarriedOut,
        OrderSkipped,
        RelationChanged,
        OfferMade,
        ShipLaunched,
        ShipLaidDown,
        UnitRaised,
        FleetNoted,
        ShipNoted,
        PortNoted,
        PlaceNoted,
        FleetMoved,
        ContactMade,
        ContactEscaped,
        BattleFought,
        SideCaptured,
        EngagementNoted,
        PortBlockaded,
        PortLookedInto,
        PortActionFought,
        UnitsLanded,
        LandUnitsLost,
        LandUnitsOutOfSupply,
        SiegeRolled,
        SiegeDice,
        StormStruck,
        LedgerChanged,
        PortCaptured,
        CaptureTaken,
        CampaignEnded,
    )
}
