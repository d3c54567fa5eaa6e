"""The battle spec of CONTRACT.md as frozen, validated dataclasses (RULES.md §4, §5, §6).

A spec is what one battle is fought from: two sides, each a navy, an optional admiral, a crew grade,
the in-supply / weather-gauge / at-anchor flags and ships in line order (the first is the flagship),
plus a port for running the guns and garrison guns. :func:`parse_spec` turns the JSON body of
CONTRACT.md into these classes; every dataclass also validates itself, so a spec built in code by the
campaign layer is held to the same rules. Errors are :class:`SpecError` naming the field, e.g.
``sides[1].ships[0].class: unknown class 'galleon'; allowed: four-decker, 1st, ...``.

:func:`line_eligible` is the §4/§5 rule of which ships form the line; the simulator itself treats
every listed ship as in the line, as CONTRACT.md's spec has it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from rules.ruleset import GRADES, LINE_CLASSES, NAVIES, SETTINGS_BY_KEY, SHIP_CLASSES

FLEET_ACTION: Final = "fleet_action"
RUNNING_THE_GUNS: Final = "running_the_guns"
#: An extension of CONTRACT.md's types: RULES.md §4 "Garrison guns" (one barrage, no return fire).
GARRISON_GUNS: Final = "garrison_guns"
BATTLE_TYPES: Final = (FLEET_ACTION, RUNNING_THE_GUNS, GARRISON_GUNS)
CONDITIONS: Final = ("ready", "damaged", "disabled")
#: Where a ship may start disabled: in the port whose guns are run (§6 counts it for the barrage).
FIGHTING_CONDITIONS: Final = ("ready", "damaged")
DEFAULT_CREW: Final = "D"  # CONTRACT.md: a side's crew defaults to "D"

ShipRef = str | int | None
_T = TypeVar("_T")


class SpecError(ValueError):
    """A battle spec is invalid; ``field`` is the path of the offending field (``sides[0].navy``)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message

    def within(self, prefix: str) -> SpecError:
        """The same error with its field path under ``prefix`` (``sides[1]`` + ``navy``)."""
        if not prefix:
            return self
        return SpecError(f"{prefix}.{self.field}" if self.field else prefix, self.message)


def _choice(field_name: str, what: str, value: object, allowed: Sequence[str]) -> None:
    if not isinstance(value, str) or value not in allowed:
        raise SpecError(field_name, f"unknown {what} {value!r}; allowed: {', '.join(allowed)}")


def _flag(field_name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise SpecError(field_name, f"must be true or false, got {value!r}")


def _count(field_name: str, value: object, minimum: int = 0, maximum: int | None = None) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SpecError(field_name, f"must be a whole number, got {value!r}")
    if value < minimum or (maximum is not None and value > maximum):
        upper = "" if maximum is None else f"..{maximum}"
        raise SpecError(field_name, f"{value} is out of range; allowed: {minimum}{upper}")


def _name(field_name: str, value: object) -> None:
    if not isinstance(value, str) or not value.strip():
        raise SpecError(field_name, f"must be a non-empty text, got {value!r}")


@dataclass(frozen=True, slots=True)
class AdmiralSpec:
    grade: str
    name: str = ""

    def __post_init__(self) -> None:
        _choice("grade", "grade", self.grade, GRADES)
        if not isinstance(self.name, str):
            raise SpecError("name", f"must be a text, got {self.name!r}")


@dataclass(frozen=True, slots=True)
class ShipSpec:
    """One ship. ``cls`` is CONTRACT's ``class``; ``navy`` and ``crew`` are already resolved
    (a side's defaults filled in by :func:`parse_spec`). ``ref`` is opaque: the campaign's handle
    (a database id, say) carried through to the results, since campaign ship names may repeat."""

    name: str
    cls: str
    navy: str
    crew: str
    condition: str = "ready"
    ref: ShipRef = None

    def __post_init__(self) -> None:
        _name("name", self.name)
        _choice("class", "class", self.cls, SHIP_CLASSES)
        _choice("navy", "navy", self.navy, NAVIES)
        _choice("crew", "grade", self.crew, GRADES)
        _choice("condition", "condition", self.condition, CONDITIONS)
        if self.ref is not None and (isinstance(self.ref, bool) or not isinstance(self.ref, str | int)):
            raise SpecError("ref", f"must be a text, a whole number or null, got {self.ref!r}")


@dataclass(frozen=True, slots=True)
class SideSpec:
    name: str
    navy: str
    ships: tuple[ShipSpec, ...]
    admiral: AdmiralSpec | None = None
    crew: str = DEFAULT_CREW
    in_supply: bool = True
    weather_gauge: bool = False
    at_anchor: bool = False

    def __post_init__(self) -> None:
        _name("name", self.name)
        _choice("navy", "navy", self.navy, NAVIES)
        _choice("crew", "grade", self.crew, GRADES)
        _flag("in_supply", self.in_supply)
        _flag("weather_gauge", self.weather_gauge)
        _flag("at_anchor", self.at_anchor)
        if not isinstance(self.ships, tuple):
            raise SpecError("ships", "must be a tuple of ShipSpec")
        for k, ship in enumerate(self.ships):
            if not isinstance(ship, ShipSpec):
                raise SpecError(f"ships[{k}]", f"must be a ship, got {ship!r}")
        if self.admiral is not None and not isinstance(self.admiral, AdmiralSpec):
            raise SpecError("admiral", f"must be an admiral or null, got {self.admiral!r}")

    @property
    def admiral_grade(self) -> str | None:
        return None if self.admiral is None else self.admiral.grade


@dataclass(frozen=True, slots=True)
class PortSpec:
    fortification: int
    name: str = "the port"
    batteries: int = 0
    gibraltar: bool = False

    def __post_init__(self) -> None:
        _count("fortification", self.fortification)
        _count("batteries", self.batteries)
        _flag("gibraltar", self.gibraltar)
        _name("name", self.name)


_MAX_ROUNDS = SETTINGS_BY_KEY["battle.max_rounds"]


@dataclass(frozen=True, slots=True)
class BattleSpec:
    """A whole battle. ``max_rounds`` None means the ruleset's ``battle.max_rounds``.

    For running the guns side 0 attacks and side 1 is the defender's ships in the port (possibly
    none); for garrison guns side 0 is the hostile ships inside the port and side 1 the nation that
    holds its guns (its ships play no part)."""

    type: str
    sides: tuple[SideSpec, SideSpec]
    max_rounds: int | None = None
    port: PortSpec | None = None

    def __post_init__(self) -> None:
        _choice("type", "type", self.type, BATTLE_TYPES)
        if self.max_rounds is not None:
            _count("max_rounds", self.max_rounds, _MAX_ROUNDS.minimum, _MAX_ROUNDS.maximum)
        if not isinstance(self.sides, tuple) or len(self.sides) != 2:
            got = len(self.sides) if isinstance(self.sides, Sequence) else self.sides
            raise SpecError("sides", f"exactly two sides are needed, got {got!r}")
        for k, side in enumerate(self.sides):
            if not isinstance(side, SideSpec):
                raise SpecError(f"sides[{k}]", f"must be a side, got {side!r}")
            if not side.ships and not (k == 1 and self.type != FLEET_ACTION):
                raise SpecError(f"sides[{k}].ships", "a side needs at least one ship")
        if self.type == GARRISON_GUNS and not self.sides[0].ships:
            raise SpecError("sides[0].ships", "garrison guns need at least one ship in the port")
        if self.type != FLEET_ACTION and self.port is None:
            raise SpecError("port", f"{self.type} needs a port")
        if self.port is not None and not isinstance(self.port, PortSpec):
            raise SpecError("port", f"must be a port, got {self.port!r}")
        if self.sides[0].weather_gauge and self.sides[1].weather_gauge:
            raise SpecError("sides[1].weather_gauge", "both sides cannot have the weather gauge")
        if self.sides[0].at_anchor and self.sides[1].at_anchor:
            raise SpecError("sides[1].at_anchor", "both sides cannot be at anchor")
        seen: dict[str, str] = {}
        for k, side in enumerate(self.sides):
            for j, ship in enumerate(side.ships):
                where = f"sides[{k}].ships[{j}]"
                if ship.condition == "disabled" and not (self.type == RUNNING_THE_GUNS and k == 1):
                    raise SpecError(
                        f"{where}.condition",
                        "'disabled' is only for the port's ships when running the guns (they count for the "
                        f"barrage but cannot fight); allowed here: {', '.join(FIGHTING_CONDITIONS)}",
                    )
                if ship.name in seen:
                    raise SpecError(f"{where}.name", f"duplicate ship name {ship.name!r} (also {seen[ship.name]})")
                seen[ship.name] = where


# --- JSON parsing -----------------------------------------------------------------------------

_TOP_KEYS = frozenset({"type", "max_rounds", "sides", "port"})
_SIDE_KEYS = frozenset({"name", "navy", "admiral", "crew", "in_supply", "weather_gauge", "at_anchor", "ships"})
_SHIP_KEYS = frozenset({"name", "class", "crew", "condition", "navy", "ref"})
_ADMIRAL_KEYS = frozenset({"name", "grade"})
_PORT_KEYS = frozenset({"name", "fortification", "batteries", "gibraltar"})


def _mapping(path: str, value: object) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        raise SpecError(path, f"must be an object, got {type(value).__name__}")
    return value


def _unknown(path: str, data: Mapping[str, object], known: frozenset[str], warnings: list[str] | None) -> None:
    # Unknown keys are tolerated (a case file may carry notes) but reported, so a typo such as
    # "weather_guage" does not pass silently.
    if warnings is None:
        return
    for key in data:
        if key not in known:
            warnings.append(f"{path}{'.' if path else ''}{key}: unknown field, ignored")


def _required(path: str, data: Mapping[str, object], key: str) -> object:
    if key not in data:
        raise SpecError(f"{path}.{key}" if path else key, "is required")
    return data[key]


def _build(path: str, make: type[_T], **kwargs: Any) -> _T:
    try:
        return make(**kwargs)
    except SpecError as err:
        raise err.within(path) from None


def parse_spec(data: object, *, warnings: list[str] | None = None) -> BattleSpec:
    """Validate CONTRACT.md's battle spec (already decoded from JSON) into a :class:`BattleSpec`.

    Raises :class:`SpecError` naming the first bad field. Unknown keys are ignored; when a list is
    passed as ``warnings`` one line per unknown key is appended to it.
    """
    top = _mapping("spec", data)
    _unknown("", top, _TOP_KEYS, warnings)
    kind = top.get("type")
    _choice("type", "type", kind, BATTLE_TYPES)
    raw_sides = _required("", top, "sides")
    if not isinstance(raw_sides, list) or len(raw_sides) != 2:
        got = f"{len(raw_sides)}" if isinstance(raw_sides, list) else type(raw_sides).__name__
        raise SpecError("sides", f"exactly two sides are needed, got {got}")
    sides = tuple(_parse_side(k, raw, warnings) for k, raw in enumerate(raw_sides))
    port = None
    if top.get("port") is not None:
        raw_port = _mapping("port", top["port"])
        _unknown("port", raw_port, _PORT_KEYS, warnings)
        kwargs = {k: raw_port[k] for k in ("name", "batteries", "gibraltar") if k in raw_port}
        port = _build("port", PortSpec, fortification=_required("port", raw_port, "fortification"), **kwargs)
    return _build(
        "",
        BattleSpec,
        type=kind,
        sides=(sides[0], sides[1]),
        max_rounds=top.get("max_rounds"),
        port=port,
    )


def _parse_side(index: int, data: object, warnings: list[str] | None) -> SideSpec:
    path = f"sides[{index}]"
    side = _mapping(path, data)
    _unknown(path, side, _SIDE_KEYS, warnings)
    navy = _required(path, side, "navy")
    _choice(f"{path}.navy", "navy", navy, NAVIES)
    crew = side.get("crew", DEFAULT_CREW)
    _choice(f"{path}.crew", "grade", crew, GRADES)
    admiral = None
    if side.get("admiral") is not None:
        raw_admiral = _mapping(f"{path}.admiral", side["admiral"])
        _unknown(f"{path}.admiral", raw_admiral, _ADMIRAL_KEYS, warnings)
        admiral = _build(
            f"{path}.admiral",
            AdmiralSpec,
            grade=_required(f"{path}.admiral", raw_admiral, "grade"),
            name=raw_admiral.get("name", ""),
        )
    raw_ships = side.get("ships", [])
    if not isinstance(raw_ships, list):
        raise SpecError(f"{path}.ships", f"must be a list, got {type(raw_ships).__name__}")
    ships = []
    for j, raw in enumerate(raw_ships):
        where = f"{path}.ships[{j}]"
        ship = _mapping(where, raw)
        _unknown(where, ship, _SHIP_KEYS, warnings)
        ships.append(
            _build(
                where,
                ShipSpec,
                name=_required(where, ship, "name"),
                cls=_required(where, ship, "class"),
                navy=ship.get("navy", navy),
                crew=ship.get("crew", crew),
                condition=ship.get("condition", "ready"),
                ref=ship.get("ref"),
            )
        )
    flags = {k: side[k] for k in ("in_supply", "weather_gauge", "at_anchor") if k in side}
    return _build(
        path,
        SideSpec,
        name=side.get("name", f"Side {index}"),
        navy=navy,
        ships=tuple(ships),
        admiral=admiral,
        crew=crew,
        **flags,
    )


def spec_to_json(spec: BattleSpec) -> dict[str, object]:
    """The CONTRACT.md JSON body of a spec (the inverse of :func:`parse_spec`)."""
    out: dict[str, object] = {
        "type": spec.type,
        "sides": [
            {
                "name": side.name,
                "navy": side.navy,
                "admiral": None if side.admiral is None else {"name": side.admiral.name, "grade": side.admiral.grade},
                "crew": side.crew,
                "in_supply": side.in_supply,
                "weather_gauge": side.weather_gauge,
                "at_anchor": side.at_anchor,
                "ships": [
                    {
                        "name": s.name,
                        "class": s.cls,
                        "crew": s.crew,
                        "condition": s.condition,
                        "navy": s.navy,
                        **({} if s.ref is None else {"ref": s.ref}),
                    }
                    for s in side.ships
                ],
            }
            for side in spec.sides
        ],
    }
    if spec.max_rounds is not None:
        out["max_rounds"] = spec.max_rounds
    if spec.port is not None:
        out["port"] = {
            "name": spec.port.name,
            "fortification": spec.port.fortification,
            "batteries": spec.port.batteries,
            "gibraltar": spec.port.gibraltar,
        }
    return out


def line_eligible(classes: Iterable[str]) -> list[bool]:
    """RULES.md §4/§5: which of a side's ships form the line, aligned with ``classes``.

    "Ships of the line and 4th rates form the line; frigates and smaller only when a side has
    nothing bigger; transports never." Fireships count among the "smaller" ships.
    """
    listed = list(classes)
    for k, cls in enumerate(listed):
        _choice(f"classes[{k}]", "class", cls, SHIP_CLASSES)
    has_big = any(cls in LINE_CLASSES for cls in listed)
    return [cls in LINE_CLASSES or (not has_big and cls != "transport") for cls in listed]
