"""Loading an engagement's two sides as they stand when it is fought, and turning them into what
the engine needs (RULES.md §4 "Sides", "Line"; §5). Module docstring of :mod:`battles.engagements`
gives the rules of the sides and the line.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from battles.engagements.ordering import FIGHTING_CONDITIONS, ship_line_key
from battles.engine import (
    FLEET_ACTION,
    AdmiralSpec,
    BattleSpec,
    ContactSide,
    EngagementSide,
    ShipSpec,
    SideSpec,
    line_eligible,
)
from battles.models import Engagement, TabletopBattle
from battles.selectors import FleetRank, side_order, sol_count
from fleets.models import Admiral, Fleet, Ship
from rules.ruleset import LIGHT_CLASSES, Ruleset

# Fleet.after_battle → the engine's evade threshold: None is §5's default (evade if its L is higher),
# above 1 never evades, 0 always does.
_EVADE_AT: dict[str, Fraction | None] = {"auto": None, "continue": Fraction(2), "evade": Fraction(0)}


@dataclass
class FightingSide:
    """One side of an engagement as it stands when the engagement is fought."""

    index: int
    data: dict[str, Any]
    in_port: bool
    fleets: list[Fleet]
    ships: dict[int, list[Ship]]
    line: list[Ship] = field(default_factory=list)
    others: list[Ship] = field(default_factory=list)
    #: Each fleet's last ``line_position`` as loaded (0 for none), counting ships laid up in a port
    #: that take no part: a prize joins after all of them (§4).
    line_ends: dict[int, int] = field(default_factory=dict)

    @property
    def lead(self) -> Fleet:
        return self.fleets[0]

    @property
    def admiral(self) -> Admiral | None:
        admiral = self.lead.admiral
        return admiral if admiral is not None and admiral.status == Admiral.Status.ACTIVE else None

    @property
    def nations(self) -> list[str]:
        return sorted({f.nation.code for f in self.fleets} | set(self.data.get("nations", [])))

    @property
    def label(self) -> str:
        return "/".join(sorted({f.nation.code for f in self.fleets})) or "/".join(self.data.get("nations", []))

    @property
    def words(self) -> str:
        """The side as the reports' texts name it: its nations' names ("Spain & France")."""
        names = sorted({f.nation.name for f in self.fleets})
        return " & ".join(names) or " & ".join(self.data.get("nations", []))

    def all_ships(self) -> list[Ship]:
        return [s for f in self.fleets for s in self.ships[f.pk]]


@dataclass
class ZoneState:
    """What earlier engagements of the zone changed for later ones this turn, and each nation
    code's allies this turn (who may see the zone's battles)."""

    alliances: Mapping[str, Collection[str]] = field(default_factory=dict)
    worsted: set[int] = field(default_factory=set)
    next_position: dict[int, int] = field(default_factory=dict)
    #: The table markings at the zone's places, locked (``table.table_rows_lock``), for ``table_claim``.
    table_rows: list[TabletopBattle] = field(default_factory=list)


def sides_load(e: Engagement, in_port_sides: Collection[int], state: ZoneState, ruleset: Ruleset) -> list[FightingSide]:
    """Both sides of ``e`` as they stand now (``in_port_sides``: the indexes of sides in port):
    one query for the fleets of both, one for their ships, whatever their numbers."""
    wanted = [(k, e.sides[k], k in in_port_sides) for k in (0, 1)]
    return _sides_load(e, wanted, state, ruleset)


def side_load(
    e: Engagement, k: int, data: dict[str, Any], in_port: bool, state: ZoneState, ruleset: Ruleset
) -> FightingSide:
    """One side of ``e`` as it stands now (:func:`sides_load` loads both at once)."""
    return _sides_load(e, [(k, data, in_port)], state, ruleset)[0]


def _sides_load(
    e: Engagement, wanted: Sequence[tuple[int, dict[str, Any], bool]], state: ZoneState, ruleset: Ruleset
) -> list[FightingSide]:
    ids = [[int(i) for i in data.get("fleets", [])] for _, data, _ in wanted]
    candidates = list(
        Fleet.objects.filter(pk__in=[i for side_ids in ids for i in side_ids])
        .select_related("nation", "admiral")
        .order_by("id")
    )
    presents: list[list[Fleet]] = []
    for (_, _, in_port), side_ids in zip(wanted, ids, strict=True):
        mine = set(side_ids)
        present: list[Fleet] = []
        for fleet in candidates:
            if fleet.pk not in mine:
                continue
            if fleet.pk in state.worsted:
                continue  # §4: a side that retired, broke or evaded meets no one else this turn
            here = (
                fleet.port_id == e.port_id if in_port else fleet.port_id is None and fleet.sea_zone_id == e.sea_zone_id
            )
            if here:
                present.append(fleet)
        presents.append(present)
    # Every ship of these fleets is afloat (database constraints: sunk, spent and building ships
    # are in no fleet), so these rows also give the end of each fleet's line.
    everyone = [f for present in presents for f in present]
    rows_by_fleet: dict[int, list[Ship]] = defaultdict(list)
    if everyone:
        for ship in Ship.objects.filter(fleet__in=everyone, condition__in=Ship.AFLOAT).select_related("nation"):
            assert ship.fleet_id is not None  # afloat ships are in a fleet (database constraint)
            rows_by_fleet[ship.fleet_id].append(ship)
    return [
        _side_build(k, data, in_port, present, [s for f in present for s in rows_by_fleet[f.pk]], ruleset)
        for (k, data, in_port), present in zip(wanted, presents, strict=True)
    ]


def _side_build(
    k: int, data: dict[str, Any], in_port: bool, present: list[Fleet], rows: list[Ship], ruleset: Ruleset
) -> FightingSide:
    """A side from its fleets present and their afloat ships: the lead fleet, the line, the others."""
    ships: dict[int, list[Ship]] = defaultdict(list)
    line_ends: dict[int, int] = dict.fromkeys((f.pk for f in present), 0)
    for ship in rows:
        assert ship.fleet_id is not None
        line_ends[ship.fleet_id] = max(line_ends[ship.fleet_id], ship.line_position or 0)
    if in_port:
        rows = [s for s in rows if not s.in_ordinary]  # laid-up ships take no part (module docstring)
    key = ship_line_key(ruleset)
    for ship in sorted(rows, key=key):
        assert ship.fleet_id is not None
        ships[ship.fleet_id].append(ship)
    present = [f for f in present if ships[f.pk]]
    ranks = [
        FleetRank(
            f.pk,
            sol_count(ships[f.pk]),
            f.admiral.grade if f.admiral is not None and f.admiral.status == Admiral.Status.ACTIVE else None,
        )
        for f in present
    ]
    by_id = {f.pk: f for f in present}
    side = FightingSide(k, data, in_port, [by_id[i] for i in side_order(ranks)], dict(ships), line_ends=line_ends)
    candidates_in_line = [s for f in side.fleets for s in side.ships[f.pk] if s.condition in FIGHTING_CONDITIONS]
    eligible = line_eligible([s.ship_class for s in candidates_in_line])
    side.line = [s for s, ok in zip(candidates_in_line, eligible, strict=True) if ok]
    in_line = {s.pk for s in side.line}
    side.others = [s for s in side.all_ships() if s.pk not in in_line]
    return side


def engagement_sides_load(e: Engagement, state: ZoneState, ruleset: Ruleset) -> list[FightingSide]:
    """Both sides of ``e`` as they stand now; a sally's port side, a besieged port's ships and both
    sides of hostile fleets in one port fight from the port."""
    ctx = e.context or {}
    in_port_sides: set[int] = set()
    if e.kind == Engagement.Kind.SALLY:
        in_port_sides = {int(ctx["sally_side"])}
    elif e.kind == Engagement.Kind.BESIEGED_PORT:
        in_port_sides = {int(ctx["in_port_side"])}
    elif e.kind == Engagement.Kind.IN_PORT:
        in_port_sides = {0, 1}
    return sides_load(e, in_port_sides, state, ruleset)


def battle_spec(sides: list[FightingSide], *, at_anchor_side: int | None) -> tuple[BattleSpec, dict[int, str]]:
    """The battle spec of the two lines; ship names made unique within the battle (§5 needs it)."""
    names: dict[int, str] = {}
    seen: set[str] = set()
    spec_sides = []
    for side in sides:
        specs = []
        for ship in side.line:
            name = ship.name
            if name in seen:  # told apart by words a player reads: the nation, then a number
                name = f"{ship.name} ({ship.nation.name})"
                k = 2
                while name in seen:
                    name, k = f"{ship.name} ({ship.nation.name}, {k})", k + 1
            seen.add(name)
            names[ship.pk] = name
            specs.append(ShipSpec(name, ship.ship_class, ship.nation.navy, ship.crew, ship.condition, ship.pk))
        admiral = side.admiral
        lead = side.lead
        spec_sides.append(
            SideSpec(
                side.label,
                lead.nation.navy,
                tuple(specs),
                None if admiral is None else AdmiralSpec(admiral.grade, admiral.name),
                lead.nation.crew,
                in_supply=lead.in_supply,
                at_anchor=at_anchor_side == side.index,
            )
        )
    return BattleSpec(FLEET_ACTION, (spec_sides[0], spec_sides[1])), names


def engagement_side(side: FightingSide) -> EngagementSide:
    others = side.others if not side.in_port else []
    ships = side.all_ships()
    return EngagementSide(
        evade_at=_EVADE_AT.get(side.lead.after_battle),
        light_ships=0 if side.in_port else sum(1 for s in ships if s.ship_class in LIGHT_CLASSES),
        other_ships_at_sea=len(others),
        escorts_transports=not side.in_port and _escorts_transports(ships),
    )


def _escorts_transports(ships: Sequence[Ship]) -> bool:
    classes = {s.ship_class for s in ships}
    return "transport" in classes and len(classes) > 1


def contact_side(side: FightingSide) -> ContactSide:
    admiral = side.admiral
    return ContactSide(side.lead.nation.navy, None if admiral is None else admiral.grade, side.lead.in_supply)


def battle_side_json(side: FightingSide) -> dict[str, Any]:
    admiral = side.admiral
    return {
        "name": side.label,
        "nations": side.nations,
        "fleets": [f.pk for f in side.fleets],
        "lead_fleet": side.lead.pk,
        "admiral": None if admiral is None else {"name": admiral.name, "grade": admiral.grade},
    }
