"""Loading a scenario data file (``campaign/scenarios/<name>.json``) into a new campaign.

The file format is documented in ``campaign/scenarios/README.md``. Loading validates the whole
file first and writes everything in one transaction: a bad file or a taken slug changes nothing.
Incomes and treasuries follow RULES.md §2 "Scenario balance".
"""

from __future__ import annotations

import json
import secrets
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from campaign.backup import campaign_export
from campaign.models import Campaign, LedgerEntry, Nation, Relation, Turn, slug_validator
from fleets.models import Admiral, Fleet, Ship
from ports.models import LandUnit, Port, SeaZone
from rules.calendar import deadline_after
from rules.economy import EconomyShip, port_ep_value, scenario_balance
from rules.ruleset import DEFAULTS, GRADES, NAVIES, SEASONS, SHIP_CLASSES, ZONE_TYPES, Ruleset

SCENARIO_DIR = Path(__file__).resolve().parent / "scenarios"

# Map colours per navy: readable on a pale sea, distinct for the 1805 powers.
NAVY_COLORS = {
    "GB": "#c0392b",
    "FR": "#2c5aa0",
    "ES": "#d4a017",
    "RU": "#2e8b57",
    "OT": "#8e44ad",
    "NL": "#e67e22",
    "DK": "#a93226",
    "SE": "#1abc9c",
    "PT": "#27ae60",
    "NA": "#5d6d7e",
    "US": "#34495e",
    "PR": "#222222",
    "AT": "#bfa100",
    "EG": "#7d5ba6",
}


class ScenarioError(ValueError):
    """The scenario is unknown, its file is malformed, or the slug is taken."""


def available_scenarios() -> list[str]:
    return sorted(p.stem for p in SCENARIO_DIR.glob("*.json"))


def scenario_read(name: str) -> dict[str, Any]:
    """The parsed data file of scenario ``name``; raises :class:`ScenarioError`."""
    if name not in available_scenarios():
        raise ScenarioError(f"Unknown scenario {name!r}; available: {', '.join(available_scenarios()) or 'none'}.")
    try:
        data: dict[str, Any] = json.loads((SCENARIO_DIR / f"{name}.json").read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"Scenario {name!r} is not valid JSON: {exc}") from exc
    return data


@dataclass(frozen=True)
class _Checked:
    zones: dict[str, dict[str, Any]]
    ports: dict[str, dict[str, Any]]
    nations: dict[str, dict[str, Any]]


def scenario_validate(data: dict[str, Any]) -> None:
    """Check the references and values of a scenario file; raise one error listing every problem."""
    errors: list[str] = []

    def need(cond: bool, message: str) -> None:
        if not cond:
            errors.append(message)

    for key in ("name", "year", "season", "nations", "sea_zones", "ports", "fleets"):
        need(key in data, f"missing top-level key {key!r}")
    if errors:
        raise ScenarioError("; ".join(errors))
    need(data["season"] in SEASONS, f"season {data['season']!r} is not one of {', '.join(SEASONS)}")
    nations = {n["code"]: n for n in data["nations"]}
    need(len(nations) == len(data["nations"]), "nation codes must be unique")
    for n in data["nations"]:
        need(n.get("navy") in NAVIES, f"nation {n.get('code')}: navy {n.get('navy')!r} unknown")
        need(n.get("crew") in GRADES, f"nation {n.get('code')}: crew grade {n.get('crew')!r} unknown")
    for r in data.get("relations", []):
        need(r["a"] in nations and r["b"] in nations and r["a"] != r["b"], f"relation {r}: unknown nations")
        need(r["state"] in Relation.State.values, f"relation {r}: state must be war, peace or alliance")
    zones = {z["key"]: z for z in data["sea_zones"]}
    need(len(zones) == len(data["sea_zones"]), "sea zone keys must be unique")
    for z in data["sea_zones"]:
        need(z.get("type") in ZONE_TYPES, f"zone {z['key']}: type {z.get('type')!r} unknown")
        for other in z.get("adjacent", []):
            need(other in zones and other != z["key"], f"zone {z['key']}: adjacent {other!r} unknown")
            if other in zones:
                need(z["key"] in zones[other].get("adjacent", []), f"adjacency {z['key']}–{other} is one-way")
    ports = {p["key"]: p for p in data["ports"]}
    need(len(ports) == len(data["ports"]), "port keys must be unique")
    for p in data["ports"]:
        need(p.get("sea_zone") in zones, f"port {p['key']}: sea zone {p.get('sea_zone')!r} unknown")
        need(p.get("owner") in nations, f"port {p['key']}: owner {p.get('owner')!r} unknown")
        need(p.get("commander") in (None, *GRADES), f"port {p['key']}: commander grade unknown")
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
    for b in data.get("building", []):
        need(b.get("port") in ports, f"keel {b.get('name')!r}: port unknown")
        need(b.get("class") in SHIP_CLASSES, f"keel {b.get('name')!r}: class unknown")
        need(b.get("nation") in nations, f"keel {b.get('name')!r}: nation unknown")
        need(isinstance(b.get("turns_left"), int) and b["turns_left"] >= 1, f"keel {b.get('name')!r}: turns_left")
    names = Counter((f["nation"], s["name"]) for f in data["fleets"] for s in f.get("ships", [])) + Counter(
        (b["nation"], b["name"]) for b in data.get("building", [])
    )
    for (nation, name), count in names.items():
        need(count == 1, f"ship name {name!r} used {count} times by {nation}")
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
    if errors:
        raise ScenarioError("; ".join(errors))


def _slug_check(slug: str) -> None:
    try:
        slug_validator(slug)
    except Exception as exc:
        raise ScenarioError(f"slug {slug!r}: {'; '.join(getattr(exc, 'messages', [str(exc)]))}") from exc


@transaction.atomic
def scenario_load(
    *,
    name: str,
    slug: str | None = None,
    display_name: str | None = None,
    seed: int | None = None,
    replace: bool = False,
    gm: User | None = None,
    now: datetime | None = None,
) -> Campaign:
    """Create a campaign from scenario ``name``; raises :class:`ScenarioError` and writes nothing on error.

    ``slug`` defaults to the scenario's name. A taken slug is refused unless ``replace``, which
    deletes the old campaign first (in the same transaction).
    """
    data = scenario_read(name)
    scenario_validate(data)
    slug = slug or data.get("slug") or name
    _slug_check(slug)
    existing = Campaign.objects.filter(slug=slug).first()
    if existing is not None:
        if not replace:
            raise ScenarioError(f"A campaign with slug {slug!r} already exists; use --replace to overwrite it.")
        existing.delete()
    if seed is not None and seed < 0:
        raise ScenarioError("seed must be a whole number ≥ 0.")
    ruleset = Ruleset.from_flat(data.get("settings") or {})
    now = now or timezone.now()
    campaign = Campaign.objects.create(
        slug=slug,
        name=display_name or data["name"],
        scenario=name,
        gm=gm,
        start_year=data["year"],
        year=data["year"],
        season=data["season"],
        turn_number=1,
        status=Campaign.Status.ACTIVE,
        seed=secrets.randbits(62) if seed is None else seed,
        settings={**DEFAULTS, **ruleset.overrides()},
    )
    nations = {
        n["code"]: Nation.objects.create(
            campaign=campaign,
            code=n["code"],
            name=n["name"],
            navy=n["navy"],
            crew=n["crew"],
            color=n.get("color") or NAVY_COLORS.get(n["navy"], "#777777"),
        )
        for n in data["nations"]
    }
    for r in data.get("relations", []):
        a, b = sorted((nations[r["a"]], nations[r["b"]]), key=lambda n: n.pk)
        Relation.objects.create(campaign=campaign, a=a, b=b, state=r["state"])
    zones = {
        z["key"]: SeaZone(campaign=campaign, key=z["key"], name=z["name"], type=z["type"], x=z["x"], y=z["y"])
        for z in data["sea_zones"]
    }
    SeaZone.objects.bulk_create(zones.values())
    through = SeaZone.adjacent.through
    through.objects.bulk_create(
        [
            through(from_seazone_id=zones[z["key"]].pk, to_seazone_id=zones[other].pk)
            for z in data["sea_zones"]
            for other in z.get("adjacent", [])
        ]
    )
    ports = {
        p["key"]: Port(
            campaign=campaign,
            key=p["key"],
            name=p["name"],
            sea_zone=zones[p["sea_zone"]],
            owner=nations[p["owner"]],
            x=p.get("x", zones[p["sea_zone"]].x),
            y=p.get("y", zones[p["sea_zone"]].y),
            fortification=p["fortification"],
            capacity=p["capacity"],
            ep_value=port_ep_value(bool(p.get("dockyard")), ruleset),
            dockyard=bool(p.get("dockyard")),
            gibraltar=bool(p.get("gibraltar")),
            batteries=p.get("batteries", 0),
            commander=p.get("commander") or "",
        )
        for p in data["ports"]
    }
    Port.objects.bulk_create(ports.values())
    units = []
    for p in data["ports"]:
        trains = p.get("siege_trains", 0)
        for i in range(p.get("garrison", 0)):
            units.append(
                LandUnit(campaign=campaign, nation=nations[p["owner"]], port=ports[p["key"]], siege_train=i < trains)
            )
    LandUnit.objects.bulk_create(units)

    fleets: dict[tuple[str, str], Fleet] = {}
    for f in data["fleets"]:
        fleets[(f["nation"], f["name"])] = Fleet(
            campaign=campaign,
            nation=nations[f["nation"]],
            name=f["name"],
            sea_zone=zones[f["sea_zone"]],
            port=ports[f["port"]] if f.get("port") else None,
            crew=f.get("crew") or nations[f["nation"]].crew,
            posture=f.get("posture", "seek"),
            blockade_port=ports[f["blockade_port"]] if f.get("posture") == "blockade" else None,
        )
    Fleet.objects.bulk_create(fleets.values())
    ships = []
    for f in data["fleets"]:
        fleet = fleets[(f["nation"], f["name"])]
        for position, s in enumerate(f.get("ships", []), start=1):
            ships.append(
                Ship(
                    campaign=campaign,
                    name=s["name"],
                    ship_class=s["class"],
                    nation=fleet.nation,
                    original_nation=nations[s.get("original_nation") or f["nation"]],
                    condition=s.get("condition", Ship.Condition.READY),
                    in_ordinary=bool(s.get("in_ordinary")),
                    crew=s.get("crew") or fleet.nation.crew,
                    fleet=fleet,
                    line_position=position,
                    source=s.get("source", "")[:200],
                )
            )
    for b in data.get("building", []):
        ships.append(
            Ship(
                campaign=campaign,
                name=b["name"],
                ship_class=b["class"],
                nation=nations[b["nation"]],
                original_nation=nations[b["nation"]],
                condition=Ship.Condition.BUILDING,
                crew=nations[b["nation"]].crew,
                building_port=ports[b["port"]],
                building_turns_left=b["turns_left"],
                laid_down_turn=0,
                source=b.get("source", "")[:200],
            )
        )
    Ship.objects.bulk_create(ships)
    for a in data.get("admirals", []):
        admiral = Admiral.objects.create(
            campaign=campaign,
            nation=nations[a["nation"]],
            name=a["name"],
            grade=a["grade"],
            port=ports[a["port"]] if a.get("fleet") is None else None,
        )
        if a.get("fleet") is not None:
            Fleet.objects.filter(pk=fleets[(a["nation"], a["fleet"])].pk).update(admiral=admiral)

    _opening_balances(campaign=campaign, ruleset=ruleset, nations=nations, ships=ships, ports=ports.values())
    turn = Turn.objects.create(
        campaign=campaign,
        number=1,
        year=campaign.year,
        season=campaign.season,
        deadline=deadline_after(now, ruleset),
    )
    turn.snapshot = campaign_export(campaign=campaign)
    turn.save(update_fields=["snapshot"])
    return campaign


def _opening_balances(
    *,
    campaign: Campaign,
    ruleset: Ruleset,
    nations: dict[str, Nation],
    ships: list[Ship],
    ports: Iterable[Port],
) -> None:
    """RULES.md §2 scenario balance: base income and the starting treasury, with an opening line."""
    fleet_ships: dict[int, list[EconomyShip]] = {n.pk: [] for n in nations.values()}
    for s in ships:
        fleet_ships[s.nation_id].append(
            EconomyShip(ship_class=s.ship_class, condition=s.condition, in_ordinary=s.in_ordinary)  # type: ignore[arg-type]
        )
    dockyards: dict[int, list[bool]] = {n.pk: [] for n in nations.values()}
    for p in ports:
        dockyards[p.owner_id].append(p.dockyard)
    for nation in nations.values():
        balance = scenario_balance(fleet_ships[nation.pk], dockyards[nation.pk], ruleset)
        nation.base_income = balance.base_income
        nation.treasury = balance.starting_treasury
        nation.save(update_fields=["base_income", "treasury"])
        if balance.starting_treasury:
            LedgerEntry.objects.create(
                campaign=campaign,
                nation=nation,
                turn=1,
                kind=LedgerEntry.Kind.OPENING,
                amount=balance.starting_treasury,
                reason=f"Opening balance ({ruleset['economy.starting_treasury_turns']} turns of income)",
                balance=balance.starting_treasury,
            )
