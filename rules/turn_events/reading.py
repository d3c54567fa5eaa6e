"""Reading stored events back: :func:`event_from_json` for the current shape and every older one.

Current events carry ``kind``: they are read field by field against their dataclass and refused if a
field is missing or of the wrong type. Reports stored before the kinds existed are plain
``{"phase", "text", **data}`` dicts whose shape depended on the writer: the place under ``zone``,
``sea_zone`` or ``place``; enemy ships under ``sighted``, ``met``, ``ships``, ``forces`` or
``fleets``, as ship rows ``{"class", "condition"|"fate", "nation"?, "name"?}``, as forces
``{"nation", "ships": [rows]}`` or ``{"nation", "counts": {class: n}}``; battle rows as
``{"side", "ship", "name", "class", "fate"}``. Those shapes are recognised here, once, by the data
each old writer attached (the table in :func:`_legacy`); whatever is not recognised is a
:class:`Note` with its text, so an old report always renders.
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from collections.abc import Mapping
from typing import Any

from rules.turn_events.kinds import (
    EVENT_KINDS,
    BattleFought,
    BattleShip,
    CaptureTaken,
    ContactMade,
    EngagementNoted,
    FleetMoved,
    FleetNoted,
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
    ShipNoted,
    SideCaptured,
    SiegeDice,
    SiegeRolled,
    StormStruck,
    TurnEvent,
    UnitsLanded,
)


class EventShapeError(ValueError):
    """A stored event that says it is of a kind but does not have that kind's fields."""


def event_from_json(data: Mapping[str, Any]) -> TurnEvent:
    """The typed event of a stored one, of the current shape or of an old one (module docstring)."""
    kind = data.get("kind")
    if isinstance(kind, str) and kind in EVENT_KINDS:
        try:
            return _current(EVENT_KINDS[kind], data)
        except EventShapeError:
            pass  # an old event whose data happened to hold a "kind": read it as the old shapes
    return _legacy(data)


def report_events(body: object) -> list[TurnEvent]:
    """The typed events of a stored report body ``{"turn", "season", "year", "events": [...]}`` (or a
    phase summary ``{"name", "events": [...]}``); anything in the list that is not an object is left out."""
    stored = body.get("events") if isinstance(body, Mapping) else None
    return [event_from_json(e) for e in stored if isinstance(e, Mapping)] if isinstance(stored, list) else []


# --- the current shape ---------------------------------------------------------------------------------


_HINTS: dict[str, dict[str, Any]] = {}


def _hints(cls: type[TurnEvent]) -> dict[str, Any]:
    if cls.kind not in _HINTS:
        hints = typing.get_type_hints(cls)  # resolved in the kinds' module, where the annotations live
        _HINTS[cls.kind] = {f.name: hints[f.name] for f in dataclasses.fields(cls)}
    return _HINTS[cls.kind]


#: Each field hint's (origin, args), as :mod:`typing` tells them: fixed by the event kinds' code, asked
#: for every field of every stored event a page reads (a report holds a hundred events).
_SHAPES: dict[Any, tuple[Any, tuple[Any, ...]]] = {}


def _shape(hint: Any) -> tuple[Any, tuple[Any, ...]]:
    shape = _SHAPES.get(hint)
    if shape is None:
        shape = _SHAPES[hint] = (typing.get_origin(hint), typing.get_args(hint))
    return shape


def _fits(value: Any, hint: Any) -> bool:
    origin, args = _shape(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, a) for a in args)
    if hint is type(None):
        return value is None
    if origin is tuple:
        return isinstance(value, tuple) and all(_fits(v, args[0]) for v in value)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, hint)


#: The ``code`` of an event of a kind with codes, read from a report stored before the codes were.
_OLD_CODES = {"order_carried_out": "carried_out", "order_skipped": "not_possible"}


def _current(cls: type[TurnEvent], data: Mapping[str, Any]) -> TurnEvent:
    values: dict[str, Any] = {}
    if cls.CODES or cls.kind in _OLD_CODES:
        values["code"] = _OLD_CODES.get(cls.kind, "note")
    for name, hint in _hints(cls).items():
        if name not in data:
            continue  # the dataclass refuses a missing required field below
        value = data[name]
        if isinstance(value, list):
            row = cls.ROWS.get(name)
            value = tuple(_row(row, v) for v in value) if row is not None else tuple(value)
        if not _fits(value, hint):
            raise EventShapeError(f"{cls.kind}: {name} is {value!r}")
        values[name] = value
    try:
        return cls(**values)
    except TypeError as missing:
        raise EventShapeError(f"{cls.kind}: {missing}") from None


def _row(row: type[SeenShip] | type[BattleShip], value: Any) -> SeenShip | BattleShip:
    if not isinstance(value, Mapping):
        raise EventShapeError(f"a ship row is {value!r}")
    try:
        return row(**{f.name: value[f.name] for f in dataclasses.fields(row) if f.name in value})
    except TypeError as missing:
        raise EventShapeError(str(missing)) from None


# --- old shapes ----------------------------------------------------------------------------------------


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _ints(value: Any) -> tuple[int, ...]:
    return tuple(v for v in value if _int(v) is not None) if isinstance(value, list) else ()


def _seen_rows(items: Any, nation: str | None = None) -> tuple[SeenShip, ...]:
    """Old ship rows, forces of rows, or forces of counts, flattened to :class:`SeenShip`."""
    rows: list[SeenShip] = []
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, Mapping):
            continue
        code = _str(item.get("nation")) or nation
        if isinstance(item.get("class"), str):
            condition = item.get("condition") or item.get("fate") or "ready"
            ordinary = item.get("in_ordinary")
            rows.append(
                SeenShip(
                    nation=code,
                    ship_class=item["class"],
                    condition=str(condition),
                    name=_str(item.get("name")) or "",
                    in_ordinary=ordinary if isinstance(ordinary, bool) else None,
                )
            )
            continue
        rows.extend(_seen_rows(item.get("ships"), code))
        counts = item.get("counts")
        if isinstance(counts, Mapping):
            for ship_class, n in counts.items():
                if isinstance(ship_class, str) and _int(n) is not None:
                    rows.extend(SeenShip(nation=code, ship_class=ship_class, condition="ready") for _ in range(n))
    return tuple(rows)


def _battle_rows(items: Any) -> tuple[BattleShip, ...]:
    rows = []
    for item in items if isinstance(items, list) else []:
        if isinstance(item, Mapping) and _int(item.get("side")) is not None and isinstance(item.get("class"), str):
            rows.append(
                BattleShip(
                    side=item["side"],
                    ship_id=_int(item.get("ship")) or 0,
                    ship_name=_str(item.get("name")) or "",
                    ship_class=item["class"],
                    fate=_str(item.get("fate")) or "intact",
                )
            )
    return tuple(rows)


_SKIPPED = re.compile(r"Order (\d+) \(([a-z_]+)\) skipped")
#: Where old sightings listed the ships, in the order they were looked for.
_SEEN_LISTS = ("sighted", "forces", "fleets", "ships")


def _legacy(d: Mapping[str, Any]) -> TurnEvent:
    """An old ``{"phase", "text", **data}`` event, by the data its writer attached."""
    text = str(d.get("text") or "")
    phase = _int(d.get("phase")) or 0
    base: dict[str, Any] = {"text": text, "phase": phase}
    place = _str(d.get("zone")) or _str(d.get("sea_zone")) or _str(d.get("place"))
    port, fleet, engagement = _str(d.get("port")), _int(d.get("fleet")), _int(d.get("engagement"))
    battle = _int(d.get("battle"))
    if battle is not None and port is not None and place is None:
        return PortActionFought(**base, battle_id=battle, port_key=port)
    if battle is not None:
        rows = _battle_rows(d.get("ships"))
        return BattleFought(**base, battle_id=battle, engagement_id=engagement, place_key=place or "", ships=rows)
    sighting = d.get("kind") == "sighting" or d.get("type") == "sighting"
    if isinstance(d.get("met"), list) and place is not None:
        return ContactMade(**base, how="met", zone_key=place, step=_int(d.get("step")), ships=_seen_rows(d["met"]))
    if (isinstance(d.get("sighted"), list) or sighting) and place is not None:
        listed: list[Any] = next((d[k] for k in _SEEN_LISTS if isinstance(d.get(k), list)), [])
        seen = _seen_rows(listed, _str(d.get("nation")))
        return ContactMade(**base, how="sighted", zone_key=place, step=_int(d.get("step")), ships=seen)
    if engagement is not None and place is not None and isinstance(d.get("ships"), list):
        return SideCaptured(**base, engagement_id=engagement, place_key=place, ships=_battle_rows(d["ships"]))
    relation, offer = d.get("relation"), d.get("offer")
    if isinstance(relation, Mapping) and all(isinstance(relation.get(k), str) for k in ("a", "b", "state")):
        return RelationChanged(**base, a=relation["a"], b=relation["b"], state=relation["state"])
    if isinstance(offer, Mapping) and isinstance(offer.get("from"), str) and isinstance(offer.get("to"), str):
        what = str(offer.get("kind") or "")
        return OfferMade(
            **base, from_nation=offer["from"], to_nation=offer["to"], offer=what, turn=_int(offer.get("turn")) or 0
        )
    order = _int(d.get("order"))
    if order is not None:
        skipped = _SKIPPED.match(text)
        if skipped:
            return OrderSkipped(
                **base, order_id=order, order_position=int(skipped[1]), order_kind=skipped[2], code="not_possible"
            )
        return OrderCarriedOut(**base, order_id=order, code="carried_out")
    treasury = _int(d.get("treasury"))
    if treasury is not None:
        return LedgerChanged(**base, treasury=treasury)
    if place is not None and ("damaged" in d or "lost" in d) and fleet is None:
        return StormStruck(**base, zone_key=place, damaged=_ints(d.get("damaged")), lost=_ints(d.get("lost")))
    if fleet is not None and _str(d.get("zone")) is not None:
        return FleetMoved(**base, fleet_id=fleet, zone_key=d["zone"], port_key=port)
    if fleet is not None:
        return FleetNoted(**base, fleet_id=fleet, port_key=port, code="note")
    if port is not None:
        if isinstance(d.get("owner"), str) and isinstance(d.get("previous_owner"), str):
            return PortCaptured(**base, port_key=port, owner=d["owner"], previous_owner=d["previous_owner"])
        if "keels" in d or "admirals" in d:
            admirals = tuple(a for a in d.get("admirals") or [] if isinstance(a, str))
            return CaptureTaken(
                **base, port_key=port, ship_ids=_ints(d.get("ships")), keel_ids=_ints(d.get("keels")), admirals=admirals
            )
        if isinstance(d.get("outcome"), str):
            return SiegeRolled(**base, port_key=port, outcome=d["outcome"], taken=bool(d.get("taken")))
        if "besiegers_lost" in d or "garrison_lost" in d:
            return SiegeDice(
                **base,
                port_key=port,
                besiegers_lost=_ints(d.get("besiegers_lost")),
                garrison_lost=_ints(d.get("garrison_lost")),
            )
        if "units" in d:
            return UnitsLanded(**base, port_key=port, unit_ids=_ints(d.get("units")))
        if isinstance(d.get("ships"), list):
            return PortLookedInto(**base, port_key=port, ships=_seen_rows(d["ships"]))
        if phase == 4:
            return PortBlockaded(**base, port_key=port)
        return PortNoted(**base, port_key=port, taken=d.get("taken") is True, code="note")
    ship = _int(d.get("ship"))
    if ship is not None:
        return ShipNoted(**base, ship_id=ship, code="note")
    if place is not None:
        return PlaceNoted(**base, place_key=place, engagement_id=engagement, code="note")
    if engagement is not None:
        return EngagementNoted(**base, engagement_id=engagement, code="note")
    return Note(**base)
