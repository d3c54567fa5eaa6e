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
from battles.selectors import enemies_now
from fleets.models import ShipClass
from ports.models import LandUnit, Port
from rules import strategic_log as purposes
from rules.dice import SeededDice, derive_seed
from rules.ruleset import NAVY_NAMES, Ruleset
from rules.ship_guns import NOMINAL_GUNS
from rules.siege import SiegeState, siege_state_from_json
from rules.strategic_log import StrategicDie, StrategicLog
from rules.tabletop import fire_combat, forts, tides, wind
from rules.tabletop.printable import PrintableTable
from rules.tabletop.storming import (
    FIRE_NAMES,
    AssaultFire,
    Besiegers,
    assault_fire_table,
    fire_rolled_text,
    roll_storming_fires,
    storming_fires,
)
from rules.tabletop.tables import Section, section_tables

#: The phase a storming is held by (its siege roll's), in the seed of its pack's dice.
STORMING_PHASE = 6

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
class AssaultAid:
    """A besieged port: the land forces a storming would pit against each other, each side's fire with
    its factors filled in, and seed 003's fire procedure and chart to fight it with."""

    besiegers: list[str]
    garrison: str
    fires: list[PrintableTable]
    tables: list[PrintableTable]


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


def _tide_tables(ruleset: Ruleset) -> list[PrintableTable]:
    """Seed 001's tables for an inshore set-up, as the packs print them."""
    return list(section_tables(Section.INSHORE, ruleset))


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
        tide_tables = _tide_tables(ruleset)
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
        forts_line, fort_tables = _port_forts(port, ruleset)
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


def _port_forts(port: Port, ruleset: Ruleset) -> tuple[PackForts, list[PrintableTable]]:
    """A port's forts and batteries as the campaign counts them, and seed 002's fort tables."""
    spec = PortSpec(
        fortification=port.fortification, name=port.name, batteries=port.batteries, gibraltar=port.gibraltar
    )
    line = PackForts(
        port=port.name,
        owner=port.owner.name if port.owner is not None else "nobody",
        fortification=port.fortification,
        coastal_forts=coastal_forts(spec, ruleset),
        batteries=port.batteries,
        gibraltar=port.gibraltar,
        # RULES.md §6: "each is 10 broadsides (a light fort, FF 1, is 5) for tabletop export".
        broadsides_each=5 if port.fortification == 1 else 10,
    )
    on_table = forts.port_forts(
        fortification=port.fortification, gibraltar=port.gibraltar, batteries=port.batteries, ruleset=ruleset
    )
    return line, [
        forts.port_forts_table(on_table, port.name),
        forts.fort_mapping_table(ruleset),
        forts.fort_sizes_table(),
        forts.fort_firing_table(),
        forts.fort_hits_table(),
        forts.shore_battery_table(),
    ]


def _units(n: int) -> str:
    return f"{n} land unit{'s' if n != 1 else ''}"


def _trains(n: int) -> str:
    return f", {n} of them siege train{'s' if n != 1 else ''}" if n else ""


def _assault_fires(
    port: Port, besiegers: list[tuple[str, bool]], garrison: int, ruleset: Ruleset
) -> tuple[list[Besiegers], tuple[AssaultFire, AssaultFire]]:
    """The besieging forces by nation and the storming's two fires (the besiegers', the garrison's)."""
    by_nation: dict[str, list[bool]] = {}
    for name, train in besiegers:
        by_nation.setdefault(name, []).append(train)
    forces = [Besiegers(name, len(trains), sum(trains)) for name, trains in sorted(by_nation.items())]
    fires = storming_fires(
        besiegers=forces,
        garrison=garrison,
        garrison_name=port.owner.name if port.owner is not None else "The garrison",
        fortification=port.fortification,
        gibraltar=port.gibraltar,
        batteries=port.batteries,
        ruleset=ruleset,
    )
    return forces, fires


def assault_aid(port: Port, besiegers: list[tuple[str, bool]], garrison: int, ruleset: Ruleset) -> AssaultAid:
    """The assault aid of a storming of ``port``: ``besiegers`` (each unit's nation name and whether it
    is a siege train) against ``garrison`` land units, with each side's fire factors filled in."""
    forces, fires = _assault_fires(port, besiegers, garrison, ruleset)
    return AssaultAid(
        besiegers=[f"{f.nation}: {_units(f.units)}" + _trains(f.trains) for f in forces],
        garrison=_units(garrison),
        fires=[assault_fire_table(fire) for fire in fires],
        tables=[fire_combat.fire_procedure_table(), fire_combat.fire_chart_table()],
    )


@dataclass(frozen=True)
class StormingPack:
    """The pack of a storming held at the table: the siege as phase 6 found it, the port's forts and
    batteries, the assault aid and, when the server rolled them, the first fires' dice."""

    table: TabletopBattle
    place: str
    siege: str
    forts: PackForts
    fort_tables: list[PrintableTable]
    assault: AssaultAid
    kind: str = "Storming of a besieged port"
    fire_names: tuple[str, ...] = FIRE_NAMES
    #: Seed 001's inshore set-up for the landing side of the storming (its tables), and who is
    #: attacker (the besiegers) and defender (the port's owner) for the tide's dice, in words.
    tide_tables: list[PrintableTable] = field(default_factory=list)
    tide_roles: str = ""
    #: The tide of the day once the server rolled the set-up dice (issue 31), and those dice in words.
    tide_schedule: PrintableTable | None = None
    tide_dice: str = ""
    rolls: list[dict[str, Any]] = field(default_factory=list)
    rolled: list[tuple[str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class _HeldStorming:
    port: Port
    state: SiegeState
    forces: list[tuple[str, bool]]
    ruleset: Ruleset


def _held_storming(table: TabletopBattle) -> _HeldStorming:
    """A storming's siege as phase 6 held it, with the besieging units by nation name."""
    siege = (table.pack or {}).get("siege")
    if not siege:
        raise ValueError("This storming has not come to the table yet: its pack is made when phase 6 holds it.")
    state = siege_state_from_json(siege)
    if table.port is None:
        raise ValueError("A storming is of a port; this one names none.")
    names = dict(table.campaign.nations.values_list("code", "name"))
    forces = [(names.get(u.nation, u.nation), u.siege_train) for u in state.besiegers]
    return _HeldStorming(table.port, state, forces, table.campaign.ruleset)


def _storming_tide_roles(held: _HeldStorming) -> tuple[str, str]:
    """(attacker, defender) of a storming's tide dice, in words: the besiegers, who land, attack; the
    port's owner defends (seed 001:13 names no sides; issue 31's reading)."""
    attacker = " & ".join(sorted({name for name, _ in held.forces}))
    return attacker, held.port.owner.name if held.port.owner else "the garrison"


def _storming_tide_schedule(table: TabletopBattle) -> tuple[PrintableTable | None, str]:
    """The tide of the day from the set-up dice the server rolled for a storming (None before)."""
    setup = (table.pack or {}).get("setup")
    if not setup:
        return None, ""
    timing = tides.tide_timing_for(attacker_first=setup["attacker"], defender_dice=setup["defender"])
    thrown = f"attacker's initial set-up die {setup['attacker']}, defender's " + ", ".join(
        str(d) for d in setup["defender"]
    )
    return tides.tide_schedule_table(timing), thrown + " (rolled by the server)"


def storming_pack(table: TabletopBattle) -> StormingPack:
    """The pack of a storming phase 6 held at the table (its siege as it stood then)."""
    held = _held_storming(table)
    attacker, defender = _storming_tide_roles(held)
    schedule, setup_words = _storming_tide_schedule(table)
    state = held.state
    forts_line, fort_tables = _port_forts(held.port, held.ruleset)
    n = state.earlier_turns
    running = "its first turn of siege" if n == 0 else f"besieged {n} turn{'s' if n != 1 else ''} before this one"
    blockade = "blockaded against its owner" if state.blockaded else "not blockaded"
    commander = f"garrison commander grade {state.commander}" if state.commander else "no garrison commander"
    return StormingPack(
        table=table,
        place=held.port.name,
        siege=f"{_units(len(state.besiegers))} besieging, {_units(len(state.garrison))} in the garrison; "
        f"{running}; {blockade}; {commander}",
        forts=forts_line,
        fort_tables=fort_tables,
        assault=assault_aid(held.port, held.forces, len(state.garrison), held.ruleset),
        tide_tables=_tide_tables(held.ruleset),
        tide_roles=(
            f"For the tide's dice at {held.port.name}, the attacker is {attacker} (the besiegers) and the defender "
            f"{defender}: the attacker throws the initial set-up die and the tide-effect die, the defender his "
            "set-up dice."
        ),
        tide_schedule=schedule,
        tide_dice=setup_words,
        rolls=list((table.pack or {}).get("dice", [])),
        rolled=[(str(k), str(v)) for k, v in (table.pack or {}).get("rolled", [])],
    )


def storming_pack_roll(
    table: TabletopBattle, *, campaign_seed: int, turn_number: int
) -> tuple[list[dict[str, Any]], list[list[str]], dict[str, Any]]:
    """Roll a held storming's dice for a group that asks the server to: the first fires — the
    besiegers' at the works, then the garrison's (and its guns') at the besiegers, each on the column
    its pack prints — then, as for a battle at a port, the tide's set-up dice and the attacker's
    tide-effect die for the first tide cycle (seed 001:48; the besiegers attack, the owner defends),
    each die naming who throws it. Seeded from (campaign seed, turn, 6, place, "table"), so they are
    the same however often asked. Returns the strategic-log records, what they gave in words, and the
    set-up dice."""
    held = _held_storming(table)
    _, fires = _assault_fires(held.port, held.forces, len(held.state.garrison), held.ruleset)
    dice = SeededDice(derive_seed(campaign_seed, turn_number, STORMING_PHASE, table.place, "table"))
    log = StrategicLog()
    results = roll_storming_fires(dice, log, place=table.place, fires=fires)
    rolled = [[name, fire_rolled_text(result)] for name, result in zip(FIRE_NAMES, results, strict=True)]
    attacker, defender = _storming_tide_roles(held)
    setup, tide_rolled = _tide_dice_roll(dice, log, place=table.place, attacker=attacker, defender=defender)
    return [r.to_dict() for r in log], [*rolled, *tide_rolled], setup


def _tide_dice_roll(
    dice: SeededDice, log: StrategicLog, *, place: str, attacker: str, defender: str
) -> tuple[dict[str, Any], list[list[str]]]:
    """The tide's set-up dice and the attacker's tide-effect die for the first tide cycle (seed 001:48),
    logged with who throws each; the effect die is rolled bare (its modifiers — the shore, the passage,
    the wind at the table — are the table's to add). Returns the set-up dice and what they gave in words."""
    thrown = tides.roll_setup_dice(dice, log, place=place, attacker=attacker, defender=defender)
    setup = {"attacker": thrown.attacker.raw, "defender": [d.raw for d in thrown.defender], "rolled": True}
    timing = thrown.timing
    effect = log.roll(
        dice,
        purpose=purposes.TIDE_EFFECT,
        place=place,
        die="d6",
        detail=f"tide effect, first tide cycle, thrown by the attacker ({attacker})",
    )
    rolled = [
        ["Tide", f"{timing.anchor.label.lower()} at {tides.clock(timing.hour * 60)}"],
        [
            "Tide effect",
            f"1D6 {effect.raw} for the first tide cycle, thrown for the attacker ({attacker}); "
            "add the modifiers for the shore, the passage and the wind, then read the chart",
        ],
    ]
    return setup, rolled


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
        setup, tide_rolled = _tide_dice_roll(
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
