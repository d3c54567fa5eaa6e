"""The one writer of a battle's results to the database (RULES.md §4 "After a battle", §6, §7, §0).

Fleet actions (:mod:`battles.engagements`) and the port actions of phase 5 (:mod:`battles.services`)
decide *what* happened to each ship with the engine; this module is where it is written:

* a damaged or disabled ship takes that condition and stays where it is;
* a sunk ship (or a spent fireship) leaves its fleet and keeps the turn it was lost (§3, §9);
* a captured ship changes owner (``original_nation`` kept), takes its captor's crew grade and joins
  the fleet the caller chose, at the end of its line (§4 "prizes their captor's", §0);
* a lost or captured transport loses the land unit aboard (§7);
* an admiral whose flagship is sunk or captured is lost (§0);
* each fight is one :class:`~battles.models.Battle` row, with the nation codes that may see it.

The callers change the ships in memory and write them together, one UPDATE per kind of row
(``lost_units`` collects the land units for :func:`ships_save`), so that the queries of a fight do
not grow with its ships: a fleet action at the end of each engagement, a port action at the end of
its results. A prize's place at the end of its new fleet's line is read once per fleet
(:func:`fleet_line_ends`) and counted on in memory. The one-row writers (:func:`ship_save`,
:func:`ship_condition_save`, :func:`admiral_lose`) stay for callers that settle a single ship.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db.models import Max

from battles.models import Battle
from fleets.models import Admiral, Fleet, Ship
from fleets.rows import rows_update
from ports.models import LandUnit, Port

#: Every field a battle's result may change on a ship.
RESULT_FIELDS = ("condition", "fleet", "nation", "crew", "line_position", "lost_turn", "cargo", "in_ordinary")
#: The fields each kind of result changes (what :func:`ship_sink`, :func:`ship_capture` and a new
#: condition set), so that a write names only those.
SINK_FIELDS = ("condition", "fleet", "lost_turn", "cargo")
CAPTURE_FIELDS = ("nation", "crew", "condition", "fleet", "line_position", "in_ordinary", "cargo")
CONDITION_FIELDS = ("condition",)


def cargo_lose(ship: Ship, lost_units: list[int]) -> None:
    """RULES.md §7: "A lost or captured transport loses its unit" — noted in ``lost_units``."""
    if ship.cargo_id is not None:
        lost_units.append(ship.cargo_id)
        ship.cargo = None


def ship_sink(ship: Ship, *, turn: int, lost_units: list[int], condition: str = Ship.Condition.SUNK) -> None:
    """§3/§4: a sunk (or, for a fireship, expended) ship leaves its fleet but stays in history with
    the turn it was lost; its land unit is lost (§7). Changes ``ship`` only; the caller saves."""
    cargo_lose(ship, lost_units)
    ship.condition = condition
    ship.fleet = None
    ship.lost_turn = turn


def ship_capture(
    ship: Ship,
    *,
    nation_id: int,
    crew: str,
    fleet: Fleet,
    line_position: int,
    condition: str,
    leaves_ordinary: bool,
    lost_units: list[int],
) -> None:
    """§4: a prize passes to ``nation_id`` with its ``crew`` grade, into ``fleet`` at
    ``line_position``, in ``condition`` (the one it was taken in); ``leaves_ordinary`` when it is
    towed where a ship in ordinary cannot be (§2). Its land unit is lost (§7). Changes ``ship``
    only; the caller saves."""
    cargo_lose(ship, lost_units)
    ship.nation_id = nation_id
    ship.crew = crew
    ship.condition = condition
    ship.fleet = fleet
    ship.line_position = line_position
    if leaves_ordinary:
        ship.in_ordinary = False


def ship_condition_save(ship: Ship, condition: str) -> None:
    """A damaged or disabled ship (or one a fireship left as it was taken in) stays where it is,
    in its new ``condition``; written now."""
    ship.condition = condition
    ship.save(update_fields=["condition"])


def fleet_line_end(fleet: Fleet) -> int:
    """The last ``line_position`` in ``fleet`` as stored (0 for an empty fleet): prizes join after it."""
    return Ship.objects.filter(fleet=fleet).aggregate(top=Max("line_position"))["top"] or 0


def fleet_line_ends(fleet_ids: Iterable[int], *, excluding: Iterable[int] = ()) -> dict[int, int]:
    """:func:`fleet_line_end` of many fleets in one query (0 for a fleet with no ship), leaving out
    the ships ``excluding`` (those a caller holds changed in memory and counts itself)."""
    ids = set(fleet_ids)
    if not ids:
        return {}
    rows = (
        Ship.objects.filter(fleet_id__in=ids)
        .exclude(pk__in=list(excluding))
        .values("fleet_id")
        .annotate(top=Max("line_position"))
    )
    ends = dict.fromkeys(ids, 0)
    ends.update({row["fleet_id"]: row["top"] or 0 for row in rows})
    return ends


def prize_fleet_in_port(*, campaign_id: int, nation_id: int, port: Port, crew: str, turn: int) -> Fleet:
    """Where ships taken by a port go: a fleet of ``nation_id`` in ``port`` (the lowest id), or a
    new one named after the port (numbered when the nation has a fleet of that name), crewed at
    ``crew`` and created in ``turn``."""
    existing = Fleet.objects.filter(campaign_id=campaign_id, nation_id=nation_id, port=port).order_by("id").first()
    if existing is not None:
        return existing
    taken = set(Fleet.objects.filter(campaign_id=campaign_id, nation_id=nation_id).values_list("name", flat=True))
    name, n = port.name, 1
    while name in taken:
        n += 1
        name = f"{port.name} {n}"
    return Fleet.objects.create(
        campaign_id=campaign_id,
        nation_id=nation_id,
        name=name,
        sea_zone_id=port.sea_zone_id,
        port=port,
        crew=crew,
        created_turn=turn,
    )


def land_units_lose(unit_ids: Sequence[int]) -> None:
    """The land units aboard lost or captured transports are lost (§7)."""
    if unit_ids:
        LandUnit.objects.filter(pk__in=list(unit_ids)).update(state=LandUnit.State.LOST, port=None)


def ships_save(ships: Sequence[Ship], lost_units: Sequence[int], *, fields: Iterable[str] = RESULT_FIELDS) -> None:
    """Write many ships' results in one UPDATE (``fields``: those any of them changed; by default
    every field a result may change), and lose the land units in ``lost_units``."""
    if ships:
        _ships_update(ships, fields)
    land_units_lose(lost_units)


def _ships_update(ships: Sequence[Ship], fields: Iterable[str]) -> None:
    """One UPDATE of ``fields`` for ``ships``, each field set by value (``CASE WHEN id IN (…)``).

    Not ``bulk_update``: that builds a ``WHEN id = …`` for every ship and field, and building that
    expression cost more than the fight itself; a fight's ships share few values (a condition, a
    fleet, a turn), so grouping the ids by value keeps the statement small whatever the ships."""
    rows_update(Ship, ships, fields)


def ship_save(ship: Ship, fields: Iterable[str], lost_units: Sequence[int]) -> None:
    """Write one ship's result now (the ``fields`` it changed), losing its land unit first."""
    land_units_lose(lost_units)
    ship.save(update_fields=list(fields))


def admiral_lose(admiral: Admiral, fleet: Fleet) -> None:
    """§0: "An admiral whose flagship is sunk or captured in battle is lost" — and his fleet has none."""
    admiral.status = Admiral.Status.LOST
    admiral.port = None
    admiral.save(update_fields=["status", "port"])
    fleet.admiral = None
    fleet.save(update_fields=["admiral"])


def admirals_lose(lost: Sequence[tuple[Admiral, Fleet]]) -> None:
    """:func:`admiral_lose` for many (admiral, fleet) pairs: one UPDATE of the admirals, one of the fleets."""
    if not lost:
        return
    for admiral, fleet in lost:
        admiral.status = Admiral.Status.LOST
        admiral.port = None
        fleet.admiral = None
    Admiral.objects.filter(pk__in=[a.pk for a, _ in lost]).update(status=Admiral.Status.LOST, port=None)
    Fleet.objects.filter(pk__in=[f.pk for _, f in lost]).update(admiral=None)


def fleets_save(fleets: Sequence[Fleet], fields: Sequence[str]) -> None:
    """Write ``fields`` of many fleets (a retreat's new places) in one UPDATE."""
    rows_update(Fleet, fleets, fields)


def fleet_admirals_lose(fleet_ids: set[int]) -> None:
    """§0, for fleets known by id: the admirals of ``fleet_ids`` are lost, their fleets left without."""
    if not fleet_ids:
        return
    admiral_ids = list(
        Fleet.objects.filter(pk__in=fleet_ids, admiral__isnull=False).values_list("admiral_id", flat=True)
    )
    Fleet.objects.filter(pk__in=fleet_ids).update(admiral=None)
    Admiral.objects.filter(pk__in=admiral_ids).update(status=Admiral.Status.LOST, port=None)


def battle_record(
    *,
    campaign_id: int,
    turn_id: int,
    kind: str,
    sea_zone_id: int,
    port_id: int | None,
    place: str,
    sequence: int | None,
    seed: int | None,
    sides: list[dict[str, Any]],
    winner: int | None,
    report: Any,
    seen_by: Iterable[str],
) -> Battle:
    """One Battle row. ``sequence`` None counts the battles of this kind at this place this turn, so
    a second action at the same place gets its own row. ``seen_by``: the nation codes that fought
    in it or were allied to a side when it was fought (fog of war, RULES.md §3)."""
    if sequence is None:
        sequence = Battle.objects.filter(turn_id=turn_id, kind=kind, place=place).count() + 1
    return Battle.objects.create(
        campaign_id=campaign_id,
        turn_id=turn_id,
        kind=kind,
        sea_zone_id=sea_zone_id,
        port_id=port_id,
        place=place,
        sequence=sequence,
        seed=seed,
        sides=sides,
        winner=winner,
        report=report,
        seen_by=sorted(set(seen_by)),
    )
