"""Read-side queries of the battles app: who holds a port's guns, the ships in ports and fleets in
line order, and which fleets may attack a port in phase 5 (RULES.md §4, §6, §7, §9).

Nothing here writes. The campaign layer passes in what it knows of diplomacy (the battles app may
not import the campaign app), as a :class:`Relations`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from django.db.models import Q

from battles.models import Battle
from fleets.models import Admiral, Blockade, Fleet, Ship
from ports.models import Port
from rules.ruleset import GRADES, SOL_CLASSES, Ruleset

#: Ships that are in a fleet and afloat: the ones a port action can touch (building ships have no
#: fleet; sunk and expended ones have left theirs).
AFLOAT = Ship.AFLOAT


class Relations(Protocol):
    """What a port action needs to know of diplomacy (``campaign.selectors.Diplomacy`` fits)."""

    def at_war(self, a: int, b: int) -> bool: ...

    def allied(self, a: int, b: int) -> bool: ...


def guns_holder(port: Port, turn: int) -> int | None:
    """The id of the nation whose guns ``port`` fires in turn ``turn``, or None while it is settling.

    RULES.md §7 "Capture": "a port taken in turn T changes owner after phase 9 of T (so T's income
    from it is 0). The garrison controls the guns until then [S]. In T+1 the port is settling: no
    fortification or battery dice, no income, supply, repairs or building. From T+2 it works
    normally for its new owner". The seed's Treachery in Port: "the garrison remains in control of
    the port until such time as it surrenders ... After the Port has become a valid supply point (a
    full turn after capture), the new owner will control the port's guns."

    So the owner of record holds the guns — in the turn of a capture that is still the old owner,
    since ``Port.owner`` changes only after phase 9 (``Port.captor`` set in phase 6 does not move
    them) — except in the settling turn (``taken_turn == turn − 1``), when nobody does.
    """
    if port.taken_turn is not None and port.taken_turn == turn - 1:
        return None
    return port.owner_id


def ship_line_key(ship: Ship, ruleset: Ruleset) -> tuple[int, int, int]:
    """A ship's place in its fleet's line (RULES.md §4 "Line"): "each fleet in the order its player
    set (default: class EP descending, then ship id), flagship first". A line order sets distinct
    ``line_position``s; unset ones are equal and fall back to the default."""
    return (ship.line_position, -ruleset.ship_cost[ship.ship_class], ship.pk)


def ships_in_ports(*, campaign_id: int, ruleset: Ruleset, port_id: int | None = None) -> dict[int, list[Ship]]:
    """Every afloat ship in a port (in ordinary included, building excluded: keels have no fleet),
    by port id, "ships by fleet id and line order" (RULES.md §3), with fleet, admiral and nation
    loaded; only ``port_id``'s when given."""
    ships = Ship.objects.filter(campaign_id=campaign_id, condition__in=AFLOAT, fleet__port__isnull=False)
    if port_id is not None:
        ships = ships.filter(fleet__port_id=port_id)
    by_port: dict[int, list[Ship]] = defaultdict(list)
    for ship in ships.select_related("fleet__admiral", "nation"):
        assert ship.fleet is not None and ship.fleet.port_id is not None  # filtered above
        by_port[ship.fleet.port_id].append(ship)
    for listed in by_port.values():
        listed.sort(key=lambda s: (s.fleet_id or 0, *ship_line_key(s, ruleset)))
    return dict(by_port)


def fleet_ships_in_line(fleets: Iterable[Fleet], ruleset: Ruleset) -> dict[int, list[Ship]]:
    """The afloat ships of ``fleets`` in line order, by fleet id (one query), nation loaded."""
    by_fleet: dict[int, list[Ship]] = {f.pk: [] for f in fleets}
    for ship in Ship.objects.filter(fleet_id__in=list(by_fleet), condition__in=AFLOAT).select_related("nation"):
        assert ship.fleet_id is not None
        by_fleet[ship.fleet_id].append(ship)
    for listed in by_fleet.values():
        listed.sort(key=lambda s: ship_line_key(s, ruleset))
    return by_fleet


@dataclass(frozen=True, slots=True)
class FleetRank:
    """What §4's side order needs of one fleet: its SOL at the place and its admiral's grade."""

    fleet_id: int
    sol: int
    admiral_grade: str | None


def side_order(fleets: Iterable[FleetRank]) -> list[int]:
    """§4: fleet ids of one side, lead fleet first, then the others by descending SOL (then id).

    "A side's admiral is its best-graded admiral (ties: the fleet with more SOL, then lower fleet
    id); the lead fleet is his (with no admiral, the fleet with most SOL, then lower id)."
    """
    ranked = sorted(fleets, key=lambda f: (-f.sol, f.fleet_id))
    if not ranked:
        return []
    commanded = [f for f in ranked if f.admiral_grade is not None]
    lead = (
        min(commanded, key=lambda f: (GRADES.index(f.admiral_grade or ""), -f.sol, f.fleet_id))
        if commanded
        else ranked[0]
    )
    return [lead.fleet_id, *(f.fleet_id for f in ranked if f is not lead)]


def sol_count(ships: Iterable[Ship]) -> int:
    """Ships of the line among ``ships``."""
    return sum(1 for s in ships if s.ship_class in SOL_CLASSES)


def side_lead_order(fleets: Sequence[Fleet], ships: dict[int, list[Ship]]) -> list[Fleet]:
    """The fleets of one side in :func:`side_order` (RULES.md §4 "Sides"), counting each fleet's
    SOL among ``ships`` and its admiral only while active."""
    ranks = [
        FleetRank(
            f.pk,
            sol_count(ships.get(f.pk, [])),
            f.admiral.grade if f.admiral is not None and f.admiral.status == Admiral.Status.ACTIVE else None,
        )
        for f in fleets
    ]
    by_id = {f.pk: f for f in fleets}
    return [by_id[i] for i in side_order(ranks)]


def blockading_fleets(*, campaign_id: int, turn: int, port_id: int) -> set[int]:
    """Ids of the fleets that blockade the port this turn (RULES.md §4: "from the end of phase 4
    (running the guns, fireships, ...)") — the Blockade rows phase 4 wrote."""
    return set(
        Blockade.objects.filter(campaign_id=campaign_id, turn=turn, port_id=port_id).values_list("fleet_id", flat=True)
    )


def fleet_won_battle_in_zone(*, turn_id: int, sea_zone_id: int, fleet_id: int, nation_code: str) -> bool:
    """Whether the fleet was on the winning side of a fleet action fought in the zone this turn
    (RULES.md §4: "won a battle in P's zone this turn").

    Reads phase 4's Battle rows: ``sides`` = ``[{"name", "nations": [codes], "fleets": [ids]}, ...]``
    and ``winner`` 0, 1 or empty. A side that lists its fleets must list this one; a side that lists
    only nations must include the fleet's. A row written in another shape is ignored, not trusted.
    """
    rows = Battle.objects.filter(
        turn_id=turn_id, sea_zone_id=sea_zone_id, kind=Battle.Kind.FLEET_ACTION, winner__isnull=False
    ).values_list("winner", "sides")
    for winner, sides in rows:
        if winner is None or not isinstance(sides, list) or not 0 <= winner < len(sides):
            continue
        side = sides[winner]
        if not isinstance(side, dict):
            continue
        fleets = side.get("fleets")
        if isinstance(fleets, list):
            if fleet_id in fleets:
                return True
        elif nation_code in _side_nations(side):
            return True
    return False


def _side_nations(side: dict[str, Any]) -> list[str]:
    nations = side.get("nations")
    if not isinstance(nations, list):
        return []
    return [code for code in nations if isinstance(code, str)]


def alliances_now(*, campaign: Any) -> dict[str, set[str]]:
    """Each nation code of ``campaign`` → the codes of its allies as the relations stand now.

    ``campaign`` is a ``campaign.models.Campaign`` reached through a battle's or engagement's
    foreign key (the battles app imports no campaign code); its ``relations`` hold one row per pair
    of nations."""
    pairs = campaign.relations.filter(state="alliance").values_list("a__code", "b__code")
    allies: dict[str, set[str]] = defaultdict(set)
    for a, b in pairs:
        allies[a].add(b)
        allies[b].add(a)
    return dict(allies)


def enemies_now(*, campaign: Any, nation_id: int | None) -> set[int]:
    """The ids of the nations at war with nation ``nation_id`` of ``campaign`` as the relations stand
    now (none for no nation).

    ``campaign`` as for :func:`alliances_now`. RULES.md §7 "Siege": "a port with land units ashore from
    nations at war with its owner is besieged": units ashore of any other nation (an ally's) are guests."""
    if nation_id is None:
        return set()
    pairs = campaign.relations.filter(state="war").filter(Q(a_id=nation_id) | Q(b_id=nation_id))
    return {b if a == nation_id else a for a, b in pairs.values_list("a_id", "b_id")}
