"""The battle pack of a battle on the table (issue 15): everything the table needs, nothing it must
look up elsewhere — both orders of battle, the wind, the inshore set-up of a port engagement, the
port's forts and batteries, and the dice the server rolled when the group asked.

The seed tables themselves are pure rule code in :mod:`rules.tabletop`; this module only gathers the
battle's data and those tables' printable forms for the pack's page and PDF (the parts a storming's
pack prints too are in :mod:`.sections`; a storming's own pack is :mod:`.storming`'s).
:func:`pack_roll` rolls the pack's dice (seeded from the campaign, turn, phase 4 and the place, so
asking twice gives the same dice) and returns them as strategic-log records, which the caller keeps
with the battle and in the turn's dice log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from battles.engagements.table import TableBattleSides, table_sides
from battles.models import Engagement, TabletopBattle
from battles.selectors import enemies_now
from battles.tabletop.sections import AssaultAid, PackForts, assault_aid, inshore_tables, pack_forts, tide_dice_roll
from fleets.models import ShipClass
from ports.models import LandUnit, Port
from rules.dice import SeededDice, derive_seed
from rules.ruleset import NAVY_NAMES, Ruleset
from rules.ship_guns import NOMINAL_GUNS
from rules.strategic_log import StrategicDie, StrategicLog
from rules.tabletop import tides, wind
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
class BattlePack:
    table: TabletopBattle
    place: str
    kind: str
    inshore: bool
    sides: list[PackSide]
    forts: PackForts | None
    wind_tables: list[PrintableTable]
    tide_tables: list[PrintableTable] = field(default_factory=list)
    tide_schedule: PrintableTable | None = None
    tide_dice: str = ""
    #: Who is attacker and who defender for the tide's dice (seed 001:13, 001:48), in words.
    tide_roles: str = ""
    fort_tables: list[PrintableTable] = field(default_factory=list)
    assault: AssaultAid | None = None
    rolls: list[dict[str, Any]] = field(default_factory=list)
    rolled: list[tuple[str, str]] = field(default_factory=list)


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


@dataclass(frozen=True)
class TideRoles:
    """Who is "attacker" and who "defender" for seed 001's dice (001:13 "the attacker's inital set die
    score", "the defenders last setup die score"; 001:48 "a die is rolled by the attacker"), by the
    sides' names. House reading (the seed says only that "the defender would chose where to oppose
    him, at ... anchorage or port"): the defender is the side in port; else the side of the port's
    owner; else the side that does not blockade the port; else the second side."""

    attacker: str
    defender: str
    port: Port


def inshore_port(loaded: TableBattleSides) -> Port | None:
    """The port an inshore set-up is fought off: the engagement's own (a fight at or in a port), else,
    for a fight at sea, the port in the zone that a fleet of either side has posture to blockade (the
    blockade fight off the port, seed 001's "anchorage or port"); None on the open sea."""
    engagement = loaded.engagement
    if engagement.port is not None:
        return engagement.port
    for side in loaded.sides:
        for fleet in side.fleets:
            port = fleet.blockade_port if fleet.posture == fleet.Posture.BLOCKADE else None
            if port is not None and port.sea_zone_id == engagement.sea_zone_id:
                return port
    return None


def tide_roles(loaded: TableBattleSides, port: Port) -> TideRoles:
    """The attacker and the defender of the tide dice (:class:`TideRoles`)."""
    sides = loaded.sides
    defender = next((s for s in sides if s.in_port), None)
    if defender is None and port.owner_id is not None:
        defender = next((s for s in sides if any(f.nation_id == port.owner_id for f in s.fleets)), None)
    if defender is None:
        blockading = [
            s for s in sides if any(f.posture == f.Posture.BLOCKADE and f.blockade_port_id == port.pk for f in s.fleets)
        ]
        if len(blockading) == 1:
            defender = next(s for s in sides if s is not blockading[0])
    if defender is None:
        defender = sides[1]
    attacker = next(s for s in sides if s is not defender)
    return TideRoles(attacker.words, defender.words, port)


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
    forts_line: PackForts | None = None
    rolls = list((table.pack or {}).get("dice", []))
    # (what, what it gave) in reading order; kept as a list (a JSON object's keys lose their order).
    rolled = [(str(k), str(v)) for k, v in (table.pack or {}).get("rolled", [])]
    tide_tables: list[PrintableTable] = []
    schedule = None
    tide_dice = ""
    tide_roles_text = ""
    fort_tables: list[PrintableTable] = []
    assault = None
    tide_port = inshore_port(loaded)
    roles = tide_roles(loaded, tide_port) if tide_port is not None else None
    if roles is not None:
        # Seed 001's naval set-up for an inshore battle (at or off a port): the tide from the set-up
        # dice, and the rest.
        tide_tables = inshore_tables(ruleset)
        setup = (table.pack or {}).get("setup")
        if setup:
            timing = tides.tide_timing_for(attacker_first=setup["attacker"], defender_dice=setup["defender"])
            schedule = tides.tide_schedule_table(timing)
            tide_dice = (
                f"attacker's initial set-up die {setup['attacker']}, defender's "
                + ", ".join(str(d) for d in setup["defender"])
                + (" (rolled by the server)" if setup.get("rolled") else " (thrown at the table)")
            )
        tide_roles_text = (
            f"For the tide's dice off {roles.port.name}, the attacker is {roles.attacker} and the defender "
            f"{roles.defender}: the attacker throws the initial set-up die and the tide-effect die, the "
            "defender his set-up dice."
        )
    if port is not None:
        forts_line, fort_tables = pack_forts(port, ruleset)
        ashore = LandUnit.objects.filter(port=port, state=LandUnit.State.ASHORE).select_related("nation")
        # Only units of a nation at war with the owner besiege it (as phase 6 counts them); allied
        # guests ashore make no siege and no storming.
        enemies = enemies_now(campaign=engagement.turn.campaign, nation_id=port.owner_id)
        besiegers = [u for u in ashore if u.nation_id in enemies]
        if besiegers:
            garrison = LandUnit.objects.filter(port=port, state=LandUnit.State.GARRISON).count()
            forces = [(u.nation.name, u.siege_train) for u in besiegers]
            assault = assault_aid(port, forces, garrison, ruleset)
    return BattlePack(
        table=table,
        place=loaded.where,
        kind=engagement.get_kind_display(),
        inshore=tide_port is not None,
        sides=sides,
        forts=forts_line,
        wind_tables=[wind.initial_wind_table(), wind.wind_change_table(), wind.wind_speed_table()],
        tide_tables=tide_tables,
        tide_schedule=schedule,
        tide_dice=tide_dice,
        tide_roles=tide_roles_text,
        fort_tables=fort_tables,
        assault=assault,
        rolls=rolls,
        rolled=rolled,
    )


def pack_roll(
    table: TabletopBattle, *, campaign_seed: int, turn_number: int
) -> tuple[list[dict[str, Any]], list[list[str]], dict[str, Any] | None]:
    """Roll the pack's dice for a group that asks the server to: the initial wind (the campaign does
    not know the wind), the first wind-speed toss and, inshore (at or off a port), the tide's set-up
    dice and the attacker's tide-effect die for the first tide cycle (seed 001:48), each die naming
    the side that throws it. The tide-effect die is rolled bare: its modifiers (the shore, the
    passage, the wind at the table) are the table's to add before reading the chart. Seeded from
    (campaign seed, turn, 4, place, "table"), so they are the same however often asked. Returns the
    strategic-log records, what they gave in words, and the set-up dice (None at sea)."""
    dice = SeededDice(derive_seed(campaign_seed, turn_number, 4, table.place, "table"))
    log = StrategicLog()
    initial = wind.roll_initial_wind(dice, log, place=table.place)
    speed = wind.roll_wind_speed(dice, log, place=table.place)
    rolled = [
        ["Initial wind", f"from the {initial.wind.label} ({initial.wind.value})"],
        ["Wind speed", f"{speed.total} (higher die {speed.higher}, lower die {speed.lower})"],
    ]
    setup = None
    roles = _pack_tide_roles(table)
    if roles is not None:
        setup, tide_rolled = tide_dice_roll(
            dice, log, place=table.place, attacker=roles.attacker, defender=roles.defender
        )
        rolled += tide_rolled
    records: list[StrategicDie] = list(log)
    return [r.to_dict() for r in records], rolled, setup


def _pack_tide_roles(table: TabletopBattle) -> TideRoles | None:
    """The tide roles of a held battle fought at or off a port (None at sea or before it is held)."""
    if table.engagement_id is None:
        return None
    engagement = Engagement.objects.select_related("turn__campaign", "sea_zone", "port").get(pk=table.engagement_id)
    loaded = table_sides(engagement)
    port = inshore_port(loaded)
    return tide_roles(loaded, port) if port is not None else None


def setup_dice_check(attacker: object, defender: object) -> dict[str, Any]:
    """Set-up dice thrown at the table, checked (seed 001 "Set Up Dicing"): raises ValueError naming
    what was wrong and what is allowed."""
    if isinstance(attacker, bool) or not isinstance(attacker, int):
        raise ValueError("attacker: the attacker's initial set-up die is a whole number from 1 to 6.")
    if not isinstance(defender, list) or not defender:
        raise ValueError("defender: the defender's set-up dice, one or more, each from 1 to 6.")
    if any(isinstance(d, bool) or not isinstance(d, int) for d in defender):
        raise ValueError("defender: each of the defender's set-up dice is a whole number from 1 to 6.")
    tides.tide_timing_for(attacker_first=attacker, defender_dice=defender)
    return {"attacker": attacker, "defender": list(defender), "rolled": False}


def wind_dice_check(initial: object, speed: object) -> list[list[str]]:
    """Wind dice thrown at the table (seed 004): the initial-wind die (and the re-roll's, after a
    5 or 6) and the two wind-speed dice; returns what they give in words, as the server's rolls
    are shown. Raises ValueError naming what was wrong and what is allowed."""
    if not isinstance(initial, list) or not 1 <= len(initial) <= 2 or any(not isinstance(d, int) for d in initial):
        raise ValueError("wind: the initial-wind die, and the re-roll's die after a 5 or 6 (each 1 to 6).")
    if not isinstance(speed, list) or len(speed) != 2 or any(not isinstance(d, int) for d in speed):
        raise ValueError("wind speed: the two dice of the wind-speed toss (each 1 to 6).")
    direction = wind.initial_wind_for(initial[0], initial[1] if len(initial) > 1 else None)
    toss = wind.wind_speed_for(speed[0], speed[1])
    return [
        ["Initial wind", f"from the {direction.label} ({direction.value})"],
        ["Wind speed", f"{toss.total} (higher die {toss.higher}, lower die {toss.lower})"],
    ]
