"""Checking a scenario data file before anything of it is written (``campaign/scenarios/README.md``).

Each kind of record has its own check, run in the file's order (nations and relations, sea zones,
ports and capitals, fleets and their ships, keels, ship names, admirals); every check notes what it
finds wrong instead of stopping, so :func:`scenario_validate` raises one error listing every problem.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from campaign.models import Relation
from fleets.models import Fleet
from rules.ruleset import GRADES, NAVIES, SEASONS, SHIP_CLASSES, ZONE_TYPES

#: Notes a problem when its condition does not hold.
Need = Callable[[bool, str], None]

Records = dict[str, dict[str, Any]]

TOP_LEVEL_KEYS = ("name", "year", "season", "nations", "sea_zones", "ports", "fleets")


class ScenarioError(ValueError):
    """The scenario is unknown, its file is malformed, or the slug is taken."""


def _need_lon_lat(need: Need, label: str, place: dict[str, Any]) -> None:
    """Coordinates are optional, but a place has both or neither, as numbers on the globe."""
    lon, lat = place.get("lon"), place.get("lat")
    if lon is None and lat is None:
        return
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (lon, lat))
    need(
        numbers and -180 <= lon <= 180 and -90 <= lat <= 90,  # type: ignore[operator]
        f"{label}: lon and lat must both be given, lon from -180 to 180 and lat from -90 to 90 (got {lon!r}, {lat!r})",
    )


def _check_nations(need: Need, data: dict[str, Any]) -> Records:
    """Unique codes, known navies and crew grades, relations between two different known nations."""
    nations = {n["code"]: n for n in data["nations"]}
    need(len(nations) == len(data["nations"]), "nation codes must be unique")
    for n in data["nations"]:
        need(n.get("navy") in NAVIES, f"nation {n.get('code')}: navy {n.get('navy')!r} unknown")
        need(n.get("crew") in GRADES, f"nation {n.get('code')}: crew grade {n.get('crew')!r} unknown")
    for r in data.get("relations", []):
        need(r["a"] in nations and r["b"] in nations and r["a"] != r["b"], f"relation {r}: unknown nations")
        need(r["state"] in Relation.State.values, f"relation {r}: state must be war, peace or alliance")
    return nations


def _check_zones(need: Need, data: dict[str, Any]) -> Records:
    """Unique keys, known types, coordinates on the globe, adjacency to known zones and both ways."""
    zones = {z["key"]: z for z in data["sea_zones"]}
    need(len(zones) == len(data["sea_zones"]), "sea zone keys must be unique")
    for z in data["sea_zones"]:
        need(z.get("type") in ZONE_TYPES, f"zone {z['key']}: type {z.get('type')!r} unknown")
        _need_lon_lat(need, f"zone {z['key']}", z)
        for other in z.get("adjacent", []):
            need(other in zones and other != z["key"], f"zone {z['key']}: adjacent {other!r} unknown")
            if other in zones:
                need(z["key"] in zones[other].get("adjacent", []), f"adjacency {z['key']}–{other} is one-way")
    return zones


def _check_ports(need: Need, data: dict[str, Any], nations: Records, zones: Records) -> Records:
    """Unique keys, a known zone and owner, a known commander grade, coordinates on the globe; and
    each nation's capital one of its own ports."""
    ports = {p["key"]: p for p in data["ports"]}
    need(len(ports) == len(data["ports"]), "port keys must be unique")
    for p in data["ports"]:
        need(p.get("sea_zone") in zones, f"port {p['key']}: sea zone {p.get('sea_zone')!r} unknown")
        need(p.get("owner") in nations, f"port {p['key']}: owner {p.get('owner')!r} unknown")
        need(p.get("commander") in (None, *GRADES), f"port {p['key']}: commander grade unknown")
        _need_lon_lat(need, f"port {p['key']}", p)
    for n in data["nations"]:
        capital = n.get("capital")
        if capital is not None:
            need(
                capital in ports and ports[capital].get("owner") == n["code"],
                f"nation {n['code']}: capital {capital!r} is not one of its ports",
            )
    return ports


def _check_fleets(
    need: Need, data: dict[str, Any], nations: Records, zones: Records, ports: Records
) -> set[tuple[str, str]]:
    """Each fleet's nation, name (once per nation), zone, port in that zone, posture and ships; the
    (nation, name) of every fleet, which the admirals refer to."""
    fleet_names: set[tuple[str, str]] = set()
    for f in data["fleets"]:
        label = f"fleet {f.get('name')!r}"
        need(f.get("nation") in nations, f"{label}: nation unknown")
        need((f.get("nation"), f.get("name")) not in fleet_names, f"{label}: name repeated for its nation")
        fleet_names.add((f.get("nation"), f.get("name")))
        need(f.get("sea_zone") in zones, f"{label}: sea zone unknown")
        if f.get("port") is not None:
            port = ports.get(f["port"])
            need(port is not None and port["sea_zone"] == f.get("sea_zone"), f"{label}: port not in its zone")
        need(f.get("posture", "seek") in Fleet.Posture.values, f"{label}: posture unknown")
        if f.get("posture") == "blockade":
            need(f.get("blockade_port") in ports, f"{label}: blockade_port unknown")
        for s in f.get("ships", []):
            need(s.get("class") in SHIP_CLASSES, f"{label}: ship {s.get('name')!r} class {s.get('class')!r}")
            if s.get("in_ordinary"):
                need(f.get("port") is not None, f"{label}: ship {s['name']!r} in ordinary must be in port")
    return fleet_names


def _check_keels(need: Need, data: dict[str, Any], nations: Records, ports: Records) -> None:
    """Ships on the stocks: a known port, class and nation, and at least one turn left."""
    for b in data.get("building", []):
        need(b.get("port") in ports, f"keel {b.get('name')!r}: port unknown")
        need(b.get("class") in SHIP_CLASSES, f"keel {b.get('name')!r}: class unknown")
        need(b.get("nation") in nations, f"keel {b.get('name')!r}: nation unknown")
        need(isinstance(b.get("turns_left"), int) and b["turns_left"] >= 1, f"keel {b.get('name')!r}: turns_left")


def _check_ship_names(need: Need, data: dict[str, Any]) -> None:
    """A nation names each of its ships, afloat or on the stocks, once."""
    names = Counter((f["nation"], s["name"]) for f in data["fleets"] for s in f.get("ships", [])) + Counter(
        (b["nation"], b["name"]) for b in data.get("building", [])
    )
    for (nation, name), count in names.items():
        need(count == 1, f"ship name {name!r} used {count} times by {nation}")


def _check_admirals(need: Need, data: dict[str, Any], ports: Records, fleet_names: set[tuple[str, str]]) -> None:
    """A known grade; a known fleet that has no other admiral, or else a known port to wait in."""
    fleets_commanded: set[tuple[str, str]] = set()
    for a in data.get("admirals", []):
        need(a.get("grade") in GRADES, f"admiral {a.get('name')!r}: grade unknown")
        if a.get("fleet") is not None:
            commanded = (a["nation"], a["fleet"])
            need(commanded in fleet_names, f"admiral {a['name']!r}: fleet {a['fleet']!r} unknown")
            need(commanded not in fleets_commanded, f"admiral {a['name']!r}: fleet {a['fleet']!r} already has one")
            fleets_commanded.add(commanded)
        else:
            need(a.get("port") in ports, f"admiral {a['name']!r}: needs a fleet or a port")


def scenario_validate(data: dict[str, Any]) -> None:
    """Check the references and values of a scenario file; raise one error listing every problem."""
    errors: list[str] = []

    def need(cond: bool, message: str) -> None:
        if not cond:
            errors.append(message)

    for key in TOP_LEVEL_KEYS:
        need(key in data, f"missing top-level key {key!r}")
    if errors:
        raise ScenarioError("; ".join(errors))
    need(data["season"] in SEASONS, f"season {data['season']!r} is not one of {', '.join(SEASONS)}")
    nations = _check_nations(need, data)
    zones = _check_zones(need, data)
    ports = _check_ports(need, data, nations, zones)
    fleet_names = _check_fleets(need, data, nations, zones, ports)
    _check_keels(need, data, nations, ports)
    _check_ship_names(need, data)
    _check_admirals(need, data, ports, fleet_names)
    if errors:
        raise ScenarioError("; ".join(errors))
