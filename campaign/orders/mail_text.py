"""Orders that come by email (issue 29): a nation's orders pasted as text, one order a line in the words
the desk and the mail write them ("Channel Fleet: to sea → Bay of Biscay"), or a JSON list of order
objects with names instead of ids. Both become the order bodies the order service takes
(:func:`campaign.orders.services.orders_replace`), which then checks them by the rules.

Pure: nothing here reads the database. The names come from a :class:`NationDirectory` (built by
:func:`campaign.orders.mail_entry.nation_directory`), and every line that cannot be read is refused
with its number, what was wrong and what is allowed.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.names import name_normalised

ARROW = re.compile(r"\s*(?:→|->)\s*")
BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
COST_SUFFIX = re.compile(r"\s*\(\s*\d+\s*EP\s*\)\s*$", re.IGNORECASE)
UNITS = re.compile(r"^(embark|land)\s+(\d+)\s+land\s+units?\s+at\s+(.+)$", re.IGNORECASE)

#: The readable words of each battle standing order (Fleet.AfterBattle), lower case, and their values.
AFTER_BATTLE_WORDS = {
    "evade if our losses are higher": "auto",
    "auto": "auto",
    "continue the battle": "continue",
    "continue": "continue",
    "evade": "evade",
}
DIPLOMACY_WORDS = (
    ("declare war on ", "declare_war"),
    ("offer peace to ", "offer_peace"),
    ("propose an alliance to ", "propose_alliance"),
    ("leave the alliance with ", "leave_alliance"),
)
RAISE_WORDS = (("land unit at ", "land_unit"), ("siege train at ", "siege_train"))


def folded(name: str) -> str:
    """A name as it is compared: stored form (NFKC), case and runs of spaces ignored."""
    return " ".join(name_normalised(name).casefold().split())


@dataclass(frozen=True)
class Names:
    """One kind of thing a line can name: each folded name (and key) → its id or key, and the names to
    list when a name is not found."""

    what: str  # "fleet", "ship", "port", "sea zone", "nation"
    by_name: Mapping[str, tuple[Any, ...]]
    listed: tuple[str, ...]

    @classmethod
    def of(cls, what: str, pairs: list[tuple[str, Any]], keys: list[tuple[str, Any]] | None = None) -> Names:
        found: dict[str, tuple[Any, ...]] = {}
        for name, value in [*pairs, *(keys or [])]:
            ids = found.get(folded(name), ())
            if value not in ids:
                found[folded(name)] = (*ids, value)
        return cls(what=what, by_name=found, listed=tuple(sorted(name for name, _ in pairs)))


@dataclass(frozen=True)
class NationDirectory:
    """The names one nation's orders may use: its own fleets and ships, every port and sea zone, the
    other nations, and the ship classes (label or code)."""

    nation: str
    fleets: Names
    ships: Names
    ports: Names
    zones: Names
    nations: Names
    classes: Names


class LineRefused(ValueError):
    """A line (or JSON order) that cannot be read; the message says what was wrong and what is allowed."""


def _resolve(names: Names, raw: str, owner: str | None = None) -> Any:
    text = raw.strip().strip("'\"“”‘’").strip()
    ids = names.by_name.get(folded(text))
    if ids is not None and len(ids) == 1:
        return ids[0]
    if ids is not None:
        raise LineRefused(
            f"{len(ids)} {names.what}s are named {text!r}; rename one so that the orders can tell them apart"
        )
    whose = f"{owner}'s {names.what}s are" if owner else f"the {names.what}s are"
    close = difflib.get_close_matches(text, names.listed, n=1, cutoff=0.75)
    hint = f" Did you mean {close[0]!r}?" if close else ""
    listing = ", ".join(names.listed) if names.listed else "none"
    raise LineRefused(f"no {names.what} named {text!r} — {whose}: {listing}.{hint}")


@dataclass
class _Reader:
    """Reads one nation's lines with its directory."""

    d: NationDirectory

    def fleet(self, raw: str) -> Any:
        return _resolve(self.d.fleets, raw, self.d.nation)

    def ship(self, raw: str) -> Any:
        return _resolve(self.d.ships, raw, self.d.nation)

    def ships(self, raw: str) -> list[Any]:
        return [self.ship(part) for part in raw.split(",") if part.strip()]

    def port(self, raw: str) -> Any:
        return _resolve(self.d.ports, raw)

    def nation(self, raw: str) -> Any:
        return _resolve(self.d.nations, raw)

    def step(self, raw: str) -> str:
        text = raw.strip()
        low = text.casefold()
        if low in ("to sea", "sea", "put to sea"):
            return "sea"
        if low.startswith("into "):
            return f"port:{self.port(text[5:])}"
        if low.startswith("port:"):
            return f"port:{self.port(text[5:])}"
        return str(_resolve(self.d.zones, text))

    def battle_orders(self, fleet: Any, rest: str) -> dict[str, Any]:
        parts = [p.strip() for p in rest.split(";")]
        standing = parts[0][len("after a drawn day,") :].strip().casefold()
        if standing not in AFTER_BATTLE_WORDS:
            raise LineRefused(
                f"after a drawn day the fleet may {', '.join(repr(w) for w in AFTER_BATTLE_WORDS)}; not {standing!r}"
            )
        body: dict[str, Any] = {"kind": "battle_orders", "fleet": fleet, "after_battle": AFTER_BATTLE_WORDS[standing]}
        for part in parts[1:]:
            low = part.casefold()
            if low.startswith("retreat into "):
                body["retreat_port"] = self.port(part[len("retreat into ") :])
            elif low.startswith("else to "):
                body["retreat_zone"] = _resolve(self.d.zones, part[len("else to ") :])
            else:
                raise LineRefused(f"after the standing order write 'retreat into PORT' or 'else to ZONE', not {part!r}")
        return body

    def fleet_order(self, fleet: Any, rest: str) -> dict[str, Any]:
        low = rest.casefold()
        prefixed: list[tuple[str, Callable[[str], dict[str, Any]]]] = [
            ("blockade ", lambda r: {"kind": "posture", "posture": "blockade", "port": self.port(r)}),
            ("run the guns of ", lambda r: {"kind": "run_guns", "port": self.port(r)}),
            ("fireships into ", lambda r: {"kind": "fireships", "port": self.port(r)}),
            ("line ", lambda r: {"kind": "line_order", "ships": self.ships(r)}),
        ]
        if low in ("seek battle", "avoid battle"):
            return {"kind": "posture", "fleet": fleet, "posture": low.split()[0]}
        if low == "sally against the blockaders":
            return {"kind": "sally", "fleet": fleet}
        if low.startswith("after a drawn day"):
            return self.battle_orders(fleet, rest)
        units = UNITS.match(rest)
        if units:
            kind, count, port = units.groups()
            return {"kind": kind.lower(), "fleet": fleet, "units": int(count), "port": self.port(port)}
        for prefix, build in prefixed:
            if low.startswith(prefix):
                return {**build(rest[len(prefix) :]), "fleet": fleet}
        return {"kind": "move", "fleet": fleet, "path": [self.step(s) for s in ARROW.split(rest) if s.strip()]}

    def line(self, text: str) -> dict[str, Any]:
        low = text.casefold()
        for prefix, kind in DIPLOMACY_WORDS:
            if low.startswith(prefix):
                return {"kind": kind, "nation": self.nation(text[len(prefix) :])}
        for prefix, unit in RAISE_WORDS:
            if low.startswith(prefix):
                return {"kind": "raise", "unit": unit, "port": self.port(text[len(prefix) :])}
        if low.startswith("stop repairing "):
            return {"kind": "repair", "ship": self.ship(text[len("stop repairing ") :]), "on": False}
        if low.startswith("repair "):
            return {"kind": "repair", "ship": self.ship(text[len("repair ") :]), "on": True}
        if low.endswith(" into ordinary"):
            return {"kind": "lay_up", "ship": self.ship(text[: -len(" into ordinary")])}
        if low.endswith(" back into commission"):
            return {"kind": "recommission", "ship": self.ship(text[: -len(" back into commission")])}
        if ARROW.search(text) and ":" not in text:
            ships, target = ARROW.split(text, maxsplit=1)
            if target.casefold().startswith("new fleet "):
                return {"kind": "form_fleet", "ships": self.ships(ships), "name": target[len("new fleet ") :].strip()}
            return {"kind": "transfer", "ships": self.ships(ships), "to_fleet": self.fleet(target)}
        if " to command " in low and ":" not in text:
            at = low.index(" to command ")
            fleet = self.fleet(text[at + len(" to command ") :])
            return {"kind": "appoint", "admiral": text[:at].strip(), "fleet": fleet}
        built = self.lay_down(text)
        if built is not None:
            return built
        subject, colon, rest = text.partition(":")
        if colon and rest.strip():
            return self.fleet_order(self.fleet(subject), rest.strip())
        if " into " in low:
            at = low.rindex(" into ")
            return {"kind": "merge", "fleet": self.fleet(text[:at]), "into": self.fleet(text[at + len(" into ") :])}
        raise LineRefused(
            "cannot read this order; write it as the desk shows orders, e.g. 'FLEET: to sea → ZONE', "
            "'FLEET: blockade PORT', 'repair SHIP' or 'declare war on NATION'"
        )

    def lay_down(self, text: str) -> dict[str, Any] | None:
        bare = COST_SUFFIX.sub("", text)
        low = bare.casefold()
        if " at " not in low:
            return None
        for label in sorted(self.d.classes.by_name, key=len, reverse=True):
            if low.startswith(label + " "):
                at = low.rindex(" at ")
                name = bare[len(label) + 1 : at].strip()
                if not name:
                    raise LineRefused("a ship laid down needs a name: 'CLASS NAME at PORT'")
                code = self.d.classes.by_name[label][0]
                return {"kind": "lay_down", "class": code, "name": name, "port": self.port(bare[at + 4 :])}
        return None


@dataclass
class ReadOrders:
    """What a paste or file said: the order bodies, each with the line (or JSON order) it came from,
    and every line refused ("line 3: …"). Nothing may be entered while ``refusals`` is not empty."""

    bodies: list[dict[str, Any]] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)


def orders_from_text(text: str, directory: NationDirectory) -> ReadOrders:
    """One order a line; blank lines and lines starting with '#' are skipped, a leading '-', '*' or
    '1.' is ignored, and '->' may stand for '→'."""
    read = ReadOrders()
    reader = _Reader(directory)
    for number, raw in enumerate(text.splitlines(), start=1):
        line = BULLET.sub("", raw).strip()
        if not line or line.startswith("#"):
            continue
        try:
            body = reader.line(line)
        except LineRefused as exc:
            read.refusals.append(f"line {number}: {exc}")
        else:
            read.bodies.append(body)
            read.lines.append(number)
    if not read.bodies and not read.refusals:
        read.refusals.append("there are no orders in the text: write one order a line")
    return read


#: In a JSON order: the keys that name a fleet, a ship, a list of ships, a port, a zone or a nation.
JSON_FLEET_KEYS = ("fleet", "to_fleet", "into")
JSON_PORT_KEYS = ("port", "retreat_port")


def _json_order(reader: _Reader, item: Mapping[str, Any]) -> dict[str, Any]:
    body = dict(item)
    for key in JSON_FLEET_KEYS:
        if isinstance(body.get(key), str):
            body[key] = reader.fleet(body[key])
    for key in JSON_PORT_KEYS:
        if isinstance(body.get(key), str):
            body[key] = reader.port(body[key])
    if isinstance(body.get("retreat_zone"), str):
        body["retreat_zone"] = _resolve(reader.d.zones, body["retreat_zone"])
    if isinstance(body.get("ship"), str):
        body["ship"] = reader.ship(body["ship"])
    if isinstance(body.get("ships"), list):
        body["ships"] = [reader.ship(s) if isinstance(s, str) else s for s in body["ships"]]
    if isinstance(body.get("path"), list):
        body["path"] = [reader.step(s) if isinstance(s, str) else s for s in body["path"]]
    if isinstance(body.get("nation"), str):
        body["nation"] = reader.nation(body["nation"])
    if body.get("kind") == "lay_down" and isinstance(body.get("class"), str):
        body["class"] = _resolve(reader.d.classes, body["class"])
    return body


def orders_from_json(data: Any, directory: NationDirectory) -> ReadOrders:
    """A JSON list of order objects (or ``{"orders": [...]}``) as the API takes them, with names (or
    keys) where the API has ids: fleet and ship names, port and zone names or keys, nation names or
    codes. A refusal names the order by its place in the list ("order 2: …")."""
    read = ReadOrders()
    if isinstance(data, Mapping) and "orders" in data:
        data = data["orders"]
    if not isinstance(data, list):
        read.refusals.append(
            'the file must hold a JSON list of orders, e.g. [{"kind": "sally", "fleet": "Brest Fleet"}]'
        )
        return read
    reader = _Reader(directory)
    for number, item in enumerate(data, start=1):
        if not isinstance(item, Mapping):
            read.refusals.append(f'order {number}: each order must be a JSON object with a "kind"')
            continue
        try:
            body = _json_order(reader, item)
        except LineRefused as exc:
            read.refusals.append(f"order {number}: {exc}")
        else:
            read.bodies.append(body)
            read.lines.append(number)
    if not data:
        read.refusals.append("the file holds no orders")
    return read
