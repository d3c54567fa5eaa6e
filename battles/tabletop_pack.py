"""The battle pack of a battle on the table (issue 15): everything the table needs, nothing it must
look up elsewhere — both orders of battle, the wind, the inshore set-up of a port engagement, the
port's forts and batteries, and the dice the server rolled when the group asked.

The seed tables themselves are pure rule code in :mod:`rules.tabletop`; this module only gathers the
battle's data and those tables' printable forms for the pack's page and PDF. :func:`pack_roll` rolls
the pack's dice (seeded from the campaign, turn, phase 4 and the place, so asking twice gives the
same dice) and returns them as strategic-log records, which the caller keeps with the battle and in
the turn's dice log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from battles.engagements.table import TableBattleSides, table_sides
from battles.engine import PortSpec, coastal_forts
from battles.models import Engagement, TabletopBattle
from fleets.models import ShipClass
from rules.dice import SeededDice, derive_seed
from rules.ruleset import NAVY_NAMES, Ruleset
from rules.ship_guns import NOMINAL_GUNS
from rules.strategic_log import StrategicDie, StrategicLog
from rules.tabletop import wind
from rules.tabletop.printable import PrintableTable

GRADE_WORDS = {
    "A": "A (superb)",
    "B": "B (crack)",
    "C": "C (veteran)",
    "D": "D (trained)",
    "E": "E (average)",
    "F": "F (green)",
    "G": "G (poor)",
    "H": "H (abysmal)",
}
CONDITION_WORDS = {"ready": "Ready", "damaged": "Damaged", "disabled": "Disabled"}


@dataclass(frozen=True)
class PackShip:
    position: int
    name: str
    ship_class: str
    guns: int
    crew: str
    condition: str
    fleet: str
    nation: str
    navy: str
    in_line: bool


@dataclass(frozen=True)
class PackAdmiral:
    name: str
    grade: str
    fleet: str
    commands_side: bool


@dataclass(frozen=True)
class PackSide:
    label: str
    nations: list[str]
    admirals: list[PackAdmiral]
    ships: list[PackShip]
    in_port: bool
    at_anchor: bool

    @property
    def guns(self) -> int:
        return sum(s.guns for s in self.ships)


@dataclass(frozen=True)
class PackForts:
    port: str
    owner: str
    fortification: int
    coastal_forts: int
    batteries: int
    gibraltar: bool
    broadsides_each: int


@dataclass(frozen=True)
class BattlePack:
    table: TabletopBattle
    place: str
    kind: str
    inshore: bool
    sides: list[PackSide]
    forts: PackForts | None
    wind_tables: list[PrintableTable]
    rolls: list[dict[str, Any]] = field(default_factory=list)
    rolled: dict[str, str] = field(default_factory=dict)


def _class_label(ship_class: str) -> str:
    return ShipClass(ship_class).label if ship_class in ShipClass.values else ship_class


def _side(loaded: TableBattleSides, k: int, at_anchor_side: int | None) -> PackSide:
    side = loaded.sides[k]
    in_line = {s.pk for s in side.line}
    ships = [
        PackShip(
            position=n,
            name=ship.name,
            ship_class=_class_label(ship.ship_class),
            guns=NOMINAL_GUNS[ship.ship_class],
            crew=GRADE_WORDS.get(ship.crew, ship.crew),
            condition=CONDITION_WORDS.get(ship.condition, ship.condition),
            fleet=next(f.name for f in side.fleets if f.pk == ship.fleet_id),
            nation=ship.nation.name,
            navy=NAVY_NAMES.get(ship.nation.navy, ship.nation.navy),
            in_line=ship.pk in in_line,
        )
        for n, ship in enumerate([*side.line, *side.others], start=1)
    ]
    admirals = [
        PackAdmiral(a.name, GRADE_WORDS.get(a.grade, a.grade), f.name, f is side.lead)
        for f in side.fleets
        if (a := f.admiral) is not None and a.status == a.Status.ACTIVE
    ]
    names = sorted({f.nation.name for f in side.fleets})
    return PackSide(side.label, names, admirals, ships, side.in_port, at_anchor_side == k)


def battle_pack(table: TabletopBattle) -> BattlePack:
    """The pack of a battle held at the table (its engagement's sides as they stand)."""
    engagement = (
        Engagement.objects.select_related("turn__campaign", "sea_zone", "port", "port__owner").get(
            pk=table.engagement_id
        )
        if table.engagement_id is not None
        else None
    )
    if engagement is None:
        raise ValueError("This battle has not come to the table yet: its pack is made when the turn finds it.")
    ruleset: Ruleset = engagement.turn.campaign.ruleset
    loaded = table_sides(engagement)
    held = engagement.result.get("table") or {}
    sides = [_side(loaded, k, held.get("at_anchor_side")) for k in (0, 1)]
    port = engagement.port
    forts = None
    if port is not None:
        spec = PortSpec(
            fortification=port.fortification, name=port.name, batteries=port.batteries, gibraltar=port.gibraltar
        )
        forts = PackForts(
            port=port.name,
            owner=port.owner.name if port.owner is not None else "nobody",
            fortification=port.fortification,
            coastal_forts=coastal_forts(spec, ruleset),
            batteries=port.batteries,
            gibraltar=port.gibraltar,
            # RULES.md §6: "each is 10 broadsides (a light fort, FF 1, is 5) for tabletop export".
            broadsides_each=5 if port.fortification == 1 else 10,
        )
    rolls = list((table.pack or {}).get("dice", []))
    rolled = dict((table.pack or {}).get("rolled", {}))
    return BattlePack(
        table=table,
        place=loaded.where,
        kind=engagement.get_kind_display(),
        inshore=port is not None,
        sides=sides,
        forts=forts,
        wind_tables=[wind.initial_wind_table(), wind.wind_change_table(), wind.wind_speed_table()],
        rolls=rolls,
        rolled=rolled,
    )


def pack_roll(table: TabletopBattle, *, campaign_seed: int, turn_number: int) -> tuple[list[dict[str, Any]], dict]:
    """Roll the pack's dice for a group that asks the server to: the initial wind (the campaign does
    not know the wind) and the first wind-speed toss. Seeded from (campaign seed, turn, 4, place,
    "table"), so they are the same however often asked. Returns the strategic-log records and what
    they gave, in words."""
    dice = SeededDice(derive_seed(campaign_seed, turn_number, 4, table.place, "table"))
    log = StrategicLog()
    initial = wind.roll_initial_wind(dice, log, place=table.place)
    speed = wind.roll_wind_speed(dice, log, place=table.place)
    rolled = {
        "Initial wind": f"from the {initial.wind.label} ({initial.wind.value})",
        "Wind speed": f"{speed.total} (higher die {speed.higher}, lower die {speed.lower})",
    }
    records: list[StrategicDie] = list(log)
    return [r.to_dict() for r in records], rolled
