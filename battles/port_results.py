"""Applying a port action's results to the ships (RULES.md §4 "After a battle", §6, §9, §0, §7).

* sunk → condition ``sunk``, out of its fleet, ``lost_turn`` set; a spent fireship → ``expended``;
* damaged / disabled → that condition, the ship stays where it is;
* captured → owned by the captor, crewed at the captor's default grade ("prizes their captor's"),
  in the condition it was taken in; it joins the capturing ship's fleet, else the captor's lead
  fleet among the attackers (towed prizes), else a fleet of the captor in the port (a new one
  named after the port if there is none);
* a lost or captured transport loses the land unit aboard;
* an admiral whose flagship (the first ship of his fleet's line) is sunk or captured is lost.

The ships are changed in memory as they are settled and written together at the end, one UPDATE
for all of them, through :mod:`battles.results` (the writer shared with the fleet actions). A
prize's place at the end of its new fleet's line is the end of that line as the database holds it
for the ships outside this action (read once per fleet) or as this action left its own ships in
memory, whichever is further: what reading the database after writing each ship gave.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from battles.engine import BattleReport
from battles.port_context import PortActionContext
from battles.results import (
    CAPTURE_FIELDS,
    CONDITION_FIELDS,
    SINK_FIELDS,
    fleet_admirals_lose,
    fleet_line_ends,
    prize_fleet_in_port,
    ship_capture,
    ship_sink,
    ships_save,
)
from battles.selectors import fleet_ships_in_line
from fleets.models import Fleet, Ship
from ports.models import Port
from rules.fireships import FireshipReport
from rules.ruleset import Ruleset

# The engine's fates (CONTRACT.md) as ship conditions; "sunk" and "captured" are handled apart.
_FATE_CONDITION = {
    "intact": Ship.Condition.READY,
    "damaged": Ship.Condition.DAMAGED,
    "disabled": Ship.Condition.DISABLED,
}
_DAMAGE_EFFECTS = frozenset({"damaged", "disabled"})


class _Changes:
    """The ships a port action changed, the fields it changed and the land units lost aboard them,
    written in one go by :meth:`save`; and the end of each prize fleet's line as it stands."""

    def __init__(self, ships: Mapping[int, Ship]) -> None:
        self.ships = ships
        self.changed: dict[int, Ship] = {}
        self.fields: set[str] = set()
        self.lost_units: list[int] = []
        self._outside_ends: dict[int, int] = {}

    def note(self, ship: Ship, fields: Iterable[str]) -> None:
        self.changed[ship.pk] = ship
        self.fields.update(fields)

    def next_line_position(self, fleet: Fleet) -> int:
        """After the last ship of ``fleet``: those outside this action as stored (one query per
        fleet), this action's own as they now stand in memory."""
        if fleet.pk not in self._outside_ends:
            self._outside_ends.update(fleet_line_ends([fleet.pk], excluding=self.ships.keys()))
        inside = max((s.line_position for s in self.ships.values() if s.fleet_id == fleet.pk), default=0)
        return max(self._outside_ends[fleet.pk], inside) + 1

    def save(self) -> None:
        ships_save(list(self.changed.values()), self.lost_units, fields=sorted(self.fields))


def port_results_apply(
    ctx: PortActionContext,
    port: Port,
    report: BattleReport,
    ships: Mapping[int, Ship],
    *,
    port_captor: int,
    attacker_fleets: Sequence[Fleet],
) -> dict[str, Counter[str]]:
    """Apply an engine report's fates to the ships (module docstring); returns losses by nation code.

    A ship taken in a boarding goes to the nation of the ship that won it: into the captor's first
    fleet among ``attacker_fleets`` (the attackers tow their prizes off with their lead fleet) when
    that ship was an attacker, else into the winning ship's own fleet in the port. A ship taken with
    no boarding — an 8 of a barrage ("taken by the port"), an attacker's disabled ship left behind —
    goes to ``port_captor``, into a fleet of it in ``port``.
    """
    taken_cond = _conditions_when_taken(report)
    boarded_by = boarding_winners(report)
    refs = [r.ref for r in report.ships]
    # Read before any change: a capturing ship may itself be sunk or taken later in the list.
    first_fleet = {pk: s.fleet for pk, s in ships.items()}
    first_nation = {pk: s.nation_id for pk, s in ships.items()}
    flagships = _flagships({s.fleet_id for s in ships.values() if s.fleet_id is not None}, ctx.ruleset)
    attacking = {f.pk for f in attacker_fleets}
    losses: dict[str, Counter[str]] = {}
    lost_flagships: set[int] = set()
    changes = _Changes(ships)
    port_prize_fleet: Fleet | None = None  # found or made at the first ship the port takes
    for index, result in enumerate(report.ships):
        assert isinstance(result.ref, int)
        ship = ships[result.ref]
        code = ctx.nations[ship.nation_id].code
        fleet_id = ship.fleet_id or 0
        if result.fate in ("sunk", "captured"):
            losses.setdefault(code, Counter())[result.fate] += 1
            if flagships.get(fleet_id) == ship.pk:
                lost_flagships.add(fleet_id)
        if result.fate == "sunk":
            _ship_gone(changes, ship, ctx.turn, Ship.Condition.SUNK)
        elif result.fate == "captured":
            winner_index = boarded_by.get(index)
            if winner_index is None:
                if port_prize_fleet is None:
                    port_prize_fleet = prize_fleet_in_port(
                        campaign_id=ctx.campaign_id,
                        nation_id=port_captor,
                        port=port,
                        crew=ctx.nations[port_captor].crew,
                        turn=ctx.turn,
                    )
                captor, destination = port_captor, port_prize_fleet
            else:
                winner_ref = refs[winner_index]
                assert isinstance(winner_ref, int)
                captor = first_nation[winner_ref]
                own_fleet = first_fleet[winner_ref]
                assert own_fleet is not None
                destination = own_fleet
                if own_fleet.pk in attacking:
                    destination = next((f for f in attacker_fleets if f.nation_id == captor), own_fleet)
            _ship_capture(ctx, changes, ship, captor, destination, taken_cond.get(index, ship.condition))
        else:
            condition = _FATE_CONDITION[result.fate]
            if condition != ship.condition:
                losses.setdefault(code, Counter())[condition] += 1
                ship.condition = condition
                changes.note(ship, CONDITION_FIELDS)
    changes.save()
    fleet_admirals_lose(lost_flagships)
    return losses


def fireship_results_apply(
    ctx: PortActionContext, result: FireshipReport, by_id: Mapping[int, Ship], targets: Sequence[Ship]
) -> tuple[list[Ship], dict[str, Counter[str]]]:
    """RULES.md §9: each fireship sent is expended; each target takes the condition the attacks
    left it in (a sunk flagship's admiral is lost). Returns the fireships spent and the losses by
    nation code."""
    losses: dict[str, Counter[str]] = {}
    changes = _Changes(by_id)
    spent = [by_id[i] for i in result.expended]
    for ship in spent:
        _ship_gone(changes, ship, ctx.turn, Ship.Condition.EXPENDED)
        losses.setdefault(ctx.nations[ship.nation_id].code, Counter())["expended"] += 1
    flagships = _flagships({s.fleet_id for s in targets if s.fleet_id is not None}, ctx.ruleset)
    lost_flagships: set[int] = set()
    for ship_id, after in result.conditions.items():
        ship = by_id[ship_id]
        if after == ship.condition:
            continue
        code = ctx.nations[ship.nation_id].code
        losses.setdefault(code, Counter())[after] += 1
        if after == "sunk":
            if flagships.get(ship.fleet_id or 0) == ship.pk:
                lost_flagships.add(ship.fleet_id or 0)
            _ship_gone(changes, ship, ctx.turn, Ship.Condition.SUNK)
        else:
            ship.condition = after
            changes.note(ship, CONDITION_FIELDS)
    changes.save()
    fleet_admirals_lose(lost_flagships)
    return spent, losses


def _conditions_when_taken(report: BattleReport) -> dict[int, str]:
    """Each ship's condition when it was taken: its starting condition, worsened by every damaging
    die at it before (dice rows carry the applied effect; a ship captured is out of the battle, so
    no die follows its capture). RULES.md §4: prizes join "in the condition they were taken in"."""
    current: dict[int, str] = {}
    index = 0
    for side in report.spec.sides:
        for ship in side.ships:
            current[index] = ship.condition
            index += 1
    for row in report.dice_rows:
        target, effect = row[8], row[9]
        if target >= 0 and effect in _DAMAGE_EFFECTS:
            current[target] = effect
    return current


def boarding_winners(report: BattleReport) -> dict[int, int]:
    """Captured ship index → the ship that won the boarding (its d6 row says "wins")."""
    winners: dict[int, int] = {}
    for row in report.dice_rows:
        purpose, ship, target, effect = row[3], row[7], row[8], row[9]
        if purpose == "boarding" and effect == "wins" and ship >= 0 and target >= 0:
            winners[target] = ship
    return winners


def ship_gone(ship: Ship, turn: int, condition: str) -> None:
    """Sunk or expended: out of its fleet, kept in history with the turn it was lost; written now
    (for a caller settling one ship; the results above write theirs together)."""
    lost_units: list[int] = []
    ship_sink(ship, turn=turn, condition=condition, lost_units=lost_units)
    ships_save([ship], lost_units, fields=SINK_FIELDS)


def _ship_gone(changes: _Changes, ship: Ship, turn: int, condition: str) -> None:
    """Sunk or expended: out of its fleet, kept in history with the turn it was lost."""
    ship_sink(ship, turn=turn, condition=condition, lost_units=changes.lost_units)
    changes.note(ship, SINK_FIELDS)


def _ship_capture(
    ctx: PortActionContext, changes: _Changes, ship: Ship, captor: int, fleet: Fleet, condition: str
) -> None:
    """The ship passes to ``captor`` in ``condition``, into ``fleet`` at the end of its line; towed
    off to sea it leaves ordinary (a ship in ordinary cannot be at sea, §2)."""
    ship_capture(
        ship,
        nation_id=captor,
        crew=ctx.nations[captor].crew,
        fleet=fleet,
        line_position=changes.next_line_position(fleet),
        condition=condition,
        leaves_ordinary=fleet.port_id is None,
        lost_units=changes.lost_units,
    )
    changes.note(ship, CAPTURE_FIELDS)


def _flagships(fleet_ids: set[int], ruleset: Ruleset) -> dict[int, int]:
    """Fleet id → its flagship (first ship of its line) for the fleets that have an admiral."""
    with_admiral = list(Fleet.objects.filter(pk__in=fleet_ids, admiral__isnull=False))
    return {fid: ships[0].pk for fid, ships in fleet_ships_in_line(with_admiral, ruleset).items() if ships}
