"""A turn's snapshot, as an import writes it: its ids made those of the rows the import wrote (issue 25 #3).

A snapshot (``Turn.snapshot``) is the campaign's export as the turn opened, and its ids are the
database ids of the campaign it was taken in. A revert (campaign.gm.repair.restore) lays it over the live
rows by those ids, so the snapshots of a restored campaign must quote the restored rows: left as they
were, they named the source campaign's fleets and ships, and a revert of the copy re-made every fleet
beside its live twin (``fleet_name_unique_per_nation``).

Each id the document also holds is given the id the import gave that row. A row the snapshot holds
that the document no longer does (deleted since the turn opened) gets a negative id, which no live
row has: a revert makes that row afresh instead of writing over another one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from campaign.backup.tabletop import pack_units_renamed, result_ships_renamed, sides_fleets_renamed

# Keys of order bodies that hold database ids (README "Orders JSON").
ORDER_FLEET_KEYS = ("fleet", "to_fleet", "into")
ORDER_SHIP_KEYS = ("ship",)


@dataclass(frozen=True)
class ImportedIds:
    """The document's id of each row → the id the import gave it, by kind."""

    fleet: Mapping[int, int]
    ship: Mapping[int, int]
    land_unit: Mapping[int, int]
    battle: Mapping[int, int]


def order_body_renamed(body: dict[str, Any], fleet: Mapping[int, int], ship: Mapping[int, int]) -> dict[str, Any]:
    """An order's body naming fleets and ships by ``fleet`` and ``ship`` (an id not in them is kept)."""
    out = dict(body)
    for key in ORDER_FLEET_KEYS:
        if isinstance(out.get(key), int):
            out[key] = fleet.get(out[key], out[key])
    for key in ORDER_SHIP_KEYS:
        if isinstance(out.get(key), int):
            out[key] = ship.get(out[key], out[key])
    if isinstance(out.get("ships"), list):
        out["ships"] = [ship.get(i, i) if isinstance(i, int) else i for i in out["ships"]]
    return out


def _completed(known: Mapping[int, int], rows: Iterable[Mapping[str, Any]]) -> dict[int, int]:
    """``known``, with each row of ``rows`` it lacks given its own negative id (-1, -2, … in order)."""
    out = dict(known)
    gone = -1
    for row in rows:
        if row["id"] not in out:
            out[row["id"]] = gone
            gone -= 1
    return out


def _ref(ids: Mapping[int, int], value: Any) -> Any:
    return ids.get(value, value) if isinstance(value, int) else value


def snapshot_renamed(snapshot: dict[str, Any], ids: ImportedIds) -> dict[str, Any]:
    """``snapshot`` with every row id it quotes made the imported row's (a new dict; the input is kept)."""
    fleet = _completed(ids.fleet, snapshot.get("fleets", []))
    ship = _completed(ids.ship, snapshot.get("ships", []))
    unit = _completed(ids.land_unit, snapshot.get("land_units", []))
    battle = _completed(ids.battle, snapshot.get("battles", []))
    out = dict(snapshot)
    out["land_units"] = [
        {**u, "id": unit[u["id"]], "transport": _ref(ship, u.get("transport"))} for u in snapshot.get("land_units", [])
    ]
    out["fleets"] = [{**f, "id": fleet[f["id"]]} for f in snapshot.get("fleets", [])]
    out["ships"] = [{**s, "id": ship[s["id"]], "fleet": _ref(fleet, s.get("fleet"))} for s in snapshot.get("ships", [])]
    out["admirals"] = [{**a, "fleet": _ref(fleet, a.get("fleet"))} for a in snapshot.get("admirals", [])]
    out["blockades"] = [{**b, "fleet": _ref(fleet, b.get("fleet"))} for b in snapshot.get("blockades", [])]
    out["orders"] = [
        {**o, "fleet": _ref(fleet, o.get("fleet")), "body": order_body_renamed(o["body"], fleet, ship)}
        if isinstance(o.get("body"), dict)
        else o
        for o in snapshot.get("orders", [])
    ]
    out["battles"] = [{**b, "id": battle[b["id"]]} for b in snapshot.get("battles", [])]
    if "table_battles" in snapshot:
        out["table_battles"] = [_table_battle_renamed(t, fleet, ship, unit, battle) for t in snapshot["table_battles"]]
    return out


def _table_battle_renamed(
    t: dict[str, Any],
    fleet: Mapping[int, int],
    ship: Mapping[int, int],
    unit: Mapping[int, int],
    battle: Mapping[int, int],
) -> dict[str, Any]:
    out = {
        **t,
        "result": result_ships_renamed(t.get("result", {}), ship),
        "pack": pack_units_renamed(t.get("pack"), unit),
    }
    e = t.get("engagement")
    if isinstance(e, dict):
        out["engagement"] = {
            **e,
            "sides": sides_fleets_renamed(e.get("sides", []), fleet),
            "battle": _ref(battle, e.get("battle")),
        }
    return out
