"""Every kind of turn-report event, one small frozen dataclass each (see :mod:`rules.turn_events`).

One name per concept across all kinds: ``port_key``/``port_name``, ``zone_key``/``zone_name``,
``place_key``/``place_name`` (a zone or a port), ``fleet_id``/``fleet_name``, ``ship_id``/``ship_name``,
``ship_ids``, ``unit_ids``, ``battle_id``, ``engagement_id``, ``order_id``, nation codes as ``nation``
(one) or ``a``/``b``, ``from_nation``/``to_nation``, ``owner``/``previous_owner`` (two). Names are
``""`` in events read back from reports stored before the names were recorded.

The kinds live by family: the base and ship rows (:mod:`.base`), orders (:mod:`.orders`), a nation's
affairs (:mod:`.nations`), notes (:mod:`.noted`), at sea (:mod:`.sea`) and ashore (:mod:`.land`);
:data:`EVENT_KINDS` gathers them all by their stored ``kind``.
"""

from __future__ import annotations

from rules.turn_events.kinds.base import (
    BattleShip,
    Note,
    SeenShip,
    TurnEvent,
    counted,
)
from rules.turn_events.kinds.land import (
    LandUnitsLost,
    LandUnitsOutOfSupply,
    SiegeDice,
    SiegeRolled,
    UnitsLanded,
)
from rules.turn_events.kinds.nations import (
    CampaignEnded,
    CaptureTaken,
    LedgerChanged,
    OfferMade,
    PortCaptured,
    RelationChanged,
    ShipLaidDown,
    ShipLaunched,
    UnitRaised,
)
from rules.turn_events.kinds.noted import (
    FLEET_NOTE_CODES,
    PLACE_NOTE_CODES,
    PORT_NOTE_CODES,
    SHIP_NOTE_CODES,
    FleetNoted,
    PlaceNoted,
    PortNoted,
    ShipNoted,
)
from rules.turn_events.kinds.orders import (
    CARRIED_OUT_CODES,
    SKIP_CODES_AT_RESOLUTION,
    OrderCarriedOut,
    OrderSkipped,
)
from rules.turn_events.kinds.sea import (
    ENGAGEMENT_NOTE_CODES,
    BattleFought,
    ContactEscaped,
    ContactMade,
    EngagementNoted,
    FleetMoved,
    PortActionFought,
    PortBlockaded,
    PortLookedInto,
    SideCaptured,
    StormStruck,
)

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

__all__ = [
    "CARRIED_OUT_CODES",
    "ENGAGEMENT_NOTE_CODES",
    "EVENT_KINDS",
    "FLEET_NOTE_CODES",
    "PLACE_NOTE_CODES",
    "PORT_NOTE_CODES",
    "SHIP_NOTE_CODES",
    "SKIP_CODES_AT_RESOLUTION",
    "BattleFought",
    "BattleShip",
    "CampaignEnded",
    "CaptureTaken",
    "ContactEscaped",
    "ContactMade",
    "EngagementNoted",
    "FleetMoved",
    "FleetNoted",
    "LandUnitsLost",
    "LandUnitsOutOfSupply",
    "LedgerChanged",
    "Note",
    "OfferMade",
    "OrderCarriedOut",
    "OrderSkipped",
    "PlaceNoted",
    "PortActionFought",
    "PortBlockaded",
    "PortCaptured",
    "PortLookedInto",
    "PortNoted",
    "RelationChanged",
    "SeenShip",
    "ShipLaidDown",
    "ShipLaunched",
    "ShipNoted",
    "SideCaptured",
    "SiegeDice",
    "SiegeRolled",
    "StormStruck",
    "TurnEvent",
    "UnitRaised",
    "UnitsLanded",
    "counted",
]
