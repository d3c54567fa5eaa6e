"""Typed turn-report events (RULES.md §3 "Fog of war": what each nation learns of a turn).

Every phase of the turn reports what happened as events; each kind is a small frozen dataclass in
:mod:`rules.turn_events.kinds` with typed fields and its ``text`` for players, built from names by
the writer. An event is stored as JSON in an envelope ``{"phase", "nations", "kind", "text",
<fields>}`` (``TurnPhase.summary["events"]``; per nation, without ``nations``, in
``TurnReport.body["events"]``; in an engagement's ``result["events"]`` until phase 4 reports it), and
read back with :func:`event_from_json`, which also reads every older stored shape
(:mod:`rules.turn_events.reading`), so the pages, the API and the mail never guess at keys.

Why here, in ``rules``: the turn (``campaign.turn``) writes most events, but ``battles`` writes the
battle events into an engagement's result and reads the battle ids its players' reports name, and
``battles`` may not import ``campaign`` (the layer contract). ``rules`` is the layer both stand on,
and like :mod:`rules.strategic_log` this is a pure record of a turn: no Django, no I/O.
"""

from rules.turn_events.kinds import (
    EVENT_KINDS,
    BattleFought,
    BattleShip,
    CampaignEnded,
    CaptureTaken,
    ContactEscaped,
    ContactMade,
    EngagementNoted,
    FleetMoved,
    FleetNoted,
    LandUnitsLost,
    LandUnitsOutOfSupply,
    LedgerChanged,
    Note,
    OfferMade,
    OrderCarriedOut,
    OrderSkipped,
    PlaceNoted,
    PortActionFought,
    PortBlockaded,
    PortCaptured,
    PortLookedInto,
    PortNoted,
    RelationChanged,
    SeenShip,
    ShipLaidDown,
    ShipLaunched,
    ShipNoted,
    SideCaptured,
    SiegeDice,
    SiegeRolled,
    StormStruck,
    TurnEvent,
    UnitRaised,
    UnitsLanded,
    counted,
)
from rules.turn_events.reading import EventShapeError, event_from_json, report_events

__all__ = [
    "EVENT_KINDS",
    "BattleFought",
    "BattleShip",
    "CampaignEnded",
    "CaptureTaken",
    "ContactEscaped",
    "ContactMade",
    "EngagementNoted",
    "EventShapeError",
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
    "event_from_json",
    "report_events",
]
