"""Enemy forces a nation knows of from its own turn reports (RULES.md §3 "Fog of war", §4 sightings).

"A nation sees its own and allied forces; enemies it sighted or fought this turn; the ships in a port
it blockades; every port's owner, sieges and blockades; all relations. It sees nothing of neutral
fleets." Own and allied fleets are read from the database by the pages; other nations' Fleet and Ship
rows are never read. Enemies come only from the nation's own turn report, which had fog of war applied
when it was written (a blockader "sees the ships in the port it blockades without a roll", RULES.md §4).

Which report events tell of enemy ships (:mod:`rules.turn_events`, read back typed, old reports too):

* :class:`~rules.turn_events.BattleFought`: ``place_key`` (zone or port) and ``ships`` rows with their
  ``side``; the enemies are the rows of the sides whose Battle ``sides[i]["nations"]`` do not hold the
  viewer's nation.
* :class:`~rules.turn_events.ContactMade` (phase 3, RULES.md §4 "A sighting shows the sighted ships
  (class, condition) in the nation's turn report"): ``how`` (sighted or met), ``zone_key``, ``step``
  and the ``ships`` seen.
* :class:`~rules.turn_events.PortLookedInto`: ``port_key`` and the ``ships`` a blockader sees in it.

Ships of the viewer's own or allied nations are ignored (they are shown from the database); every
other event is shown as its text only.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from campaign.pages.labels import CLASS_LABELS, CONDITION_LABELS
from campaign.pages.reports import ReportView, battle_sides_by_id
from campaign.viewer import Viewer, nation_labels
from ports.models import Port, SeaZone
from rules.ruleset import SHIP_CLASSES
from rules.turn_events import BattleFought, ContactMade, PortLookedInto, TurnEvent
from rules.turn_events import SeenShip as SeenRow

#: Battle fates (CONTRACT.md) after which a ship is no longer where the battle was fought.
GONE_FATES = frozenset({"sunk", "captured"})


@dataclass(frozen=True)
class SeenShip:
    ship_class: str
    condition: str
    name: str = ""

    @property
    def class_label(self) -> str:
        return CLASS_LABELS.get(self.ship_class, self.ship_class)

    @property
    def condition_label(self) -> str:
        return CONDITION_LABELS.get(self.condition, self.condition)


@dataclass
class Contact:
    """Enemy ships a nation saw in one zone: sighted, met, fought, or in a port it blockades."""

    zone_key: str
    zone_name: str
    nation_code: str
    nation_name: str
    color: str
    how: str  # "sighted" | "met" | "fought" | "in port"
    ships: list[SeenShip] = field(default_factory=list)
    text: str = ""
    step: int | None = None
    port_name: str = ""
    port_key: str = ""
    battle_id: int | None = None

    @property
    def present(self) -> list[SeenShip]:
        """Ships still there after what was seen (a battle's sunk and captured ones are not)."""
        return [s for s in self.ships if s.condition not in GONE_FATES]

    @property
    def summary(self) -> str:
        return ships_summary(self.ships)


def ships_summary(ships: Iterable[SeenShip]) -> str:
    """ "2 × 1st rate, 5 × 3rd rate (74/80) (1 damaged)" in class order."""
    by_class: dict[str, Counter[str]] = defaultdict(Counter)
    for ship in ships:
        by_class[ship.ship_class][ship.condition] += 1
    parts = []
    order = {c: i for i, c in enumerate(SHIP_CLASSES)}
    for ship_class in sorted(by_class, key=lambda c: order.get(c, len(order))):
        conditions = by_class[ship_class]
        total = sum(conditions.values())
        notes = ", ".join(
            f"{n} {CONDITION_LABELS.get(c, c).lower()}"
            for c, n in sorted(conditions.items())
            if c not in ("ready", "intact", "")
        )
        label = CLASS_LABELS.get(ship_class, ship_class)
        parts.append(f"{total} × {label}" + (f" ({notes})" if notes else ""))
    return ", ".join(parts) or "no ships"


def is_contact(event: TurnEvent) -> bool:
    """Whether a report event tells of enemy ships (a sighting, a meeting, a battle, a blockaded port)."""
    return isinstance(event, BattleFought | ContactMade | PortLookedInto)


def _seen(row: SeenRow, nation: str | None = None) -> tuple[str | None, SeenShip]:
    return row.nation or nation, SeenShip(row.ship_class, row.condition, row.name)


@dataclass(frozen=True)
class _Places:
    """The names of the map's places: ``zones`` key → name; ``port_zones`` port key → zone key;
    ``port_names`` port key → name."""

    zones: Mapping[str, str]
    port_zones: Mapping[str, str]
    port_names: Mapping[str, str]

    def zone_of(self, place: object) -> str | None:
        """The zone of a zone or port key (None for anything else)."""
        if not isinstance(place, str):
            return None
        if place in self.zones:
            return place
        return self.port_zones.get(place)


class _ContactBook:
    """The contacts read so far, one per (zone, nation, how, battle/port/step)."""

    def __init__(
        self, *, viewer_code: str, friendly_codes: frozenset[str], nations: Mapping[str, tuple[str, str]]
    ) -> None:
        self.viewer_code = viewer_code
        self.friendly_codes = friendly_codes
        self.nations = nations
        self.contacts: dict[tuple[str, str, str, object], Contact] = {}
        self.seen: dict[tuple[str, str, str, object], Contact] = {}  # the event being read

    def label(self, code: str) -> tuple[str, str]:
        if code in self.nations:
            return self.nations[code]
        parts = [self.nations[c] for c in code.split("/") if c in self.nations]
        if parts:  # a side of several nations, when a battle's ship rows do not say whose
            return " & ".join(name for name, _ in parts), parts[0][1]
        return "Unknown colours", "#555555"

    def add(
        self, zone_key: str, zone_name: str, code: str | None, how: str, ship: SeenShip, text: str, **where: Any
    ) -> None:
        if code is not None and (code in self.friendly_codes or code == self.viewer_code):
            return
        code = code or "?"
        key = (zone_key, code, how, where.get("battle_id") or where.get("port_name") or where.get("step"))
        if key not in self.seen:
            name, color = self.label(code)
            self.seen[key] = Contact(
                zone_key=zone_key,
                zone_name=zone_name,
                nation_code=code,
                nation_name=name,
                color=color,
                how=how,
                text=text,
                **where,
            )
        self.seen[key].ships.append(ship)

    def keep(self) -> None:
        # One force reported twice (two blockaders of one port, a battle told to each fleet) is
        # kept once: the fuller report wins.
        for key, contact in self.seen.items():
            if key not in self.contacts or len(contact.ships) > len(self.contacts[key].ships):
                self.contacts[key] = contact
        self.seen.clear()

    def result(self) -> list[Contact]:
        """One contact per force: per nation and zone at sea (and per port blockaded), the fullest
        account of it — a fight over a meeting over a sighting, then the latest step, then the most
        ships — so a squadron sighted in step 1 and fought in step 2 is one row, not two. A force of
        which nothing is left (every ship sunk or taken in the fight) is no longer a known force."""
        best: dict[tuple[str, str, str], Contact] = {}
        for contact in self.contacts.values():
            key = (contact.zone_key, contact.nation_code, contact.port_key)
            if key not in best or _fullness(contact) > _fullness(best[key]):
                best[key] = contact
        return [c for c in best.values() if c.present or not c.ships]


#: How much a contact tells of a force, least first.
_HOW_RANK = {"sighted": 0, "in port": 1, "met": 2, "fought": 3}


def _fullness(contact: Contact) -> tuple[int, int, int]:
    return (_HOW_RANK.get(contact.how, 0), contact.step or 0, len(contact.ships))


def _read_battle(
    book: _ContactBook, event: BattleFought, places: _Places, sides_by_id: Mapping[int, list[Any]]
) -> None:
    """The enemy ship rows of a battle event: those of the sides the viewer's nation was not on."""
    zone_key = places.zone_of(event.place_key)
    sides = sides_by_id.get(event.battle_id)
    if zone_key is None or not isinstance(sides, list):
        return
    zone_name = places.zones.get(zone_key, event.place_name or zone_key)
    for row in event.ships:
        if not 0 <= row.side < len(sides) or not isinstance(sides[row.side], Mapping):
            continue
        side_nations = [c for c in sides[row.side].get("nations") or [] if isinstance(c, str)]
        if book.viewer_code in side_nations:
            continue
        ship = SeenShip(row.ship_class, row.fate, row.ship_name)
        book.add(
            zone_key, zone_name, "/".join(side_nations) or None, "fought", ship, event.text, battle_id=event.battle_id
        )


def _read_seen(book: _ContactBook, event: ContactMade | PortLookedInto, places: _Places) -> None:
    """The ships of a sighting or meeting at sea, or of a port the nation blockades."""
    if isinstance(event, ContactMade):
        zone_key, how, step = places.zone_of(event.zone_key), event.how, event.step
        port_key = port_name = ""
    else:  # a blockader sees the ships in the port it blockades (RULES.md §4)
        zone_key, how, step = places.zone_of(event.port_key), "in port", None
        port_key = event.port_key
        port_name = places.port_names.get(port_key, event.port_name or port_key)
    if zone_key is None:
        return
    zone_name = places.zones.get(zone_key, zone_key)
    for row in event.ships:
        code, ship = _seen(row)
        book.add(zone_key, zone_name, code, how, ship, event.text, step=step, port_name=port_name, port_key=port_key)


def contacts_from_events(
    events: Sequence[TurnEvent],
    *,
    viewer_code: str,
    friendly_codes: frozenset[str],
    nations: Mapping[str, tuple[str, str]],
    zones: Mapping[str, str],
    port_zones: Mapping[str, str],
    port_names: Mapping[str, str] | None = None,
    battle_sides: Mapping[int, list[Any]],
) -> list[Contact]:
    """The enemy forces a nation's turn report says it saw, by zone (pure; the event kinds are in
    the module docstring). ``nations``: code → (name, colour); ``zones``: key → name;
    ``port_zones``: port key → zone key; ``battle_sides``: Battle id → its ``sides``.

    Own and allied ships are left out (the pages show them from the database). A sighting followed
    by a meeting in the same zone and step is shown once, as the meeting.
    """
    book = _ContactBook(viewer_code=viewer_code, friendly_codes=friendly_codes, nations=nations)
    places = _Places(zones, port_zones, port_names or {})
    for event in events:
        book.keep()
        if isinstance(event, BattleFought):
            _read_battle(book, event, places, battle_sides)
        elif isinstance(event, ContactMade | PortLookedInto):
            _read_seen(book, event, places)
    book.keep()
    return book.result()


def contacts_for_viewer(
    viewer: Viewer, report: ReportView | None, ports: Sequence[Port], zones: Mapping[str, str] | None = None
) -> list[Contact]:
    """Enemy contacts of the viewer's ``report`` on today's map (``ports`` with their ``sea_zone``);
    zone names (unless ``zones`` gives every zone's, key → name, as the map has read them) and battle
    sides are read only when the report has any contact."""
    if report is None or not any(is_contact(e) for e in report.events):
        return []
    if zones is None:
        zones = dict(SeaZone.objects.filter(campaign=viewer.campaign).values_list("key", "name"))
    return contacts_from_events(
        report.events,
        viewer_code=viewer.nation.code,
        friendly_codes=viewer.friendly_codes,
        nations=nation_labels(viewer),
        zones=zones,
        port_zones={p.key: p.sea_zone.key for p in ports},
        port_names={p.key: p.name for p in ports},
        battle_sides=battle_sides_by_id(report.battle_ids, viewer.campaign),
    )


__all__ = [
    "GONE_FATES",
    "Contact",
    "SeenShip",
    "contacts_for_viewer",
    "contacts_from_events",
    "is_contact",
    "ships_summary",
]
