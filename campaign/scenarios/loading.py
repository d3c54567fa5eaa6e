"""Loading a scenario data file (``campaign/scenarios/<name>.json``) into a new campaign.

The file format is documented in ``campaign/scenarios/README.md``. Loading validates the whole
file first (:mod:`campaign.scenarios.checks`) and writes everything in one transaction: a bad file or a
taken slug changes nothing.
Incomes and treasuries follow RULES.md §2 "Scenario balance".
"""

from __future__ import annotations

import json
import secrets
from datetime import datetime
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from campaign.backup.document import FORMAT_VERSION, campaign_export, campaign_import
from campaign.models import Campaign, LedgerEntry, Turn, slug_validator
from campaign.scenarios.checks import ScenarioError as ScenarioError
from campaign.scenarios.checks import scenario_validate as scenario_validate
from ports.models import LandUnit
from rules.calendar import deadline_after
from rules.economy import EconomyShip, port_ep_value, scenario_balance
from rules.ruleset import DEFAULTS, Ruleset

SCENARIO_DIR = Path(__file__).resolve().parent

# Map colours per navy, from colour-blind-safe palettes: Okabe & Ito's eight (2008) first, then
# Paul Tol's "muted" for the rest (https://personal.sron.nl/~pault/). The 1805 powers that meet most
# (Britain and Denmark, Russia and Portugal, France and Spain) differ in hue *and* lightness; every
# marker also carries the nation's letters, so no one needs to tell colours apart. A GM may still
# set any colour per nation (admin). Migration campaign 0013 moved nations still on the previous
# defaults (OLD_NAVY_COLORS there) to these.
NAVY_COLORS = {
    "GB": "#D55E00",  # vermilion
    "FR": "#0072B2",  # blue
    "ES": "#F0E442",  # yellow
    "RU": "#009E73",  # bluish green
    "OT": "#CC79A7",  # reddish purple
    "NL": "#E69F00",  # orange
    "DK": "#882255",  # wine (Tol)
    "SE": "#56B4E9",  # sky blue
    "PT": "#999933",  # olive (Tol)
    "NA": "#000000",  # black
    "US": "#332288",  # indigo (Tol)
    "PR": "#DDDDDD",  # pale grey (Tol)
    "AT": "#DDCC77",  # sand (Tol)
    "EG": "#AA4499",  # purple (Tol)
}


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
    start: bool = True,
) -> Campaign:
    """Create a campaign from scenario ``name``; raises :class:`ScenarioError` and writes nothing on error.

    ``slug`` defaults to the scenario's name. A taken slug is refused unless ``replace``, which
    deletes the old campaign first (in the same transaction). The scenario is turned into a campaign
    backup document (:func:`scenario_document`) and restored through the same code as
    ``import_campaign``, so there is one way of writing a campaign's rows. ``start=False`` leaves the
    campaign being set up: its clock does not run until the GM starts it (the admin's Start).
    """
    data = scenario_read(name)
    scenario_validate(data)
    slug = slug or data.get("slug") or name
    _slug_check(slug)
    if Campaign.objects.filter(slug=slug).exists() and not replace:
        raise ScenarioError(f"A campaign with slug {slug!r} already exists; use --replace to overwrite it.")
    if seed is not None and seed < 0:
        raise ScenarioError("seed must be a whole number ≥ 0.")
    document = scenario_document(
        data,
        scenario=name,
        slug=slug,
        display_name=display_name,
        seed=secrets.randbits(62) if seed is None else seed,
        now=now or timezone.now(),
        start=start,
    )
    campaign = campaign_import(document=document, replace=replace, gm=gm)
    turn = Turn.objects.get(campaign=campaign, number=1)
    turn.snapshot = campaign_export(campaign=campaign, with_snapshots=False)
    turn.save(update_fields=["snapshot"])
    return campaign


def scenario_document(
    data: dict[str, Any],
    *,
    scenario: str,
    slug: str,
    display_name: str | None,
    seed: int,
    now: datetime,
    start: bool = True,
) -> dict[str, Any]:
    """The campaign backup document (campaign.backup.document's format) of a validated scenario file at turn 1.

    Computes what the file leaves to the rules: port EP values, base incomes and opening treasuries
    (RULES.md §2 "Scenario balance", each with its opening ledger line), garrisons as land units, and
    the first turn's deadline.
    """
    ruleset = Ruleset.from_flat(data.get("settings") or {})
    ports, land_units = _scenario_ports_and_garrisons(data, ruleset)
    fleet_ids = {(f["nation"], f["name"]): i for i, f in enumerate(data["fleets"], start=1)}
    fleets, ships = _scenario_fleets_and_ships(data, fleet_ids)
    ships.extend(_scenario_keels(data, first_id=len(ships) + 1))
    nations, ledger = _nations_with_opening_balances(data, ruleset, ships, ports)
    return {
        "format": FORMAT_VERSION,
        "campaign": _scenario_campaign(
            data, scenario=scenario, slug=slug, display_name=display_name, seed=seed, start=start
        ),
        "ruleset": {**DEFAULTS, **ruleset.overrides()},
        "nations": nations,
        "relations": [{"a": r["a"], "b": r["b"], "state": r["state"]} for r in data.get("relations", [])],
        "sea_zones": [
            {k: z[k] for k in ("key", "name", "type", "x", "y")}
            | _lon_lat(z)
            | {"adjacent": sorted(z.get("adjacent", []))}
            for z in data["sea_zones"]
        ],
        "ports": ports,
        "land_units": land_units,
        "admirals": [_scenario_admiral(a, fleet_ids) for a in data.get("admirals", [])],
        "fleets": fleets,
        "ships": ships,
        "ledger": ledger,
        "turns": [_scenario_first_turn(data, ruleset, now)],
        "battles": [],
        "snapshots": {},
    }


def _lon_lat(place: dict[str, Any]) -> dict[str, float]:
    """A place's coordinates for the document, if the scenario gives them (older ones do not)."""
    return {"lon": place["lon"], "lat": place["lat"]} if place.get("lon") is not None else {}


def _scenario_campaign(
    data: dict[str, Any], *, scenario: str, slug: str, display_name: str | None, seed: int, start: bool
) -> dict[str, Any]:
    return {
        "slug": slug,
        "name": display_name or data["name"],
        "scenario": scenario,
        "start_year": data["year"],
        "year": data["year"],
        "season": data["season"],
        "turn": 1,
        "status": (Campaign.Status.ACTIVE if start else Campaign.Status.SETUP).value,
        "seed": seed,
        "last_turn": None,
        "gm": None,
    }


def _scenario_ports_and_garrisons(
    data: dict[str, Any], ruleset: Ruleset
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The ports, with EP values by the rules, and each port's garrison as that many land units.

    A port's first ``siege_trains`` garrison units are siege trains; units are numbered 1, 2, …
    in the file's order of ports.
    """
    ports: list[dict[str, Any]] = []
    land_units: list[dict[str, Any]] = []
    for p in data["ports"]:
        ports.append(
            {
                "key": p["key"],
                "name": p["name"],
                "sea_zone": p["sea_zone"],
                "owner": p["owner"],
                "fortification": p["fortification"],
                "capacity": p["capacity"],
                "ep_value": port_ep_value(bool(p.get("dockyard")), ruleset),
                "dockyard": bool(p.get("dockyard")),
                "gibraltar": bool(p.get("gibraltar")),
                "garrison": p.get("garrison", 0),
                "batteries": p.get("batteries", 0),
                "commander": p.get("commander") or None,
                "x": p.get("x", 0),
                "y": p.get("y", 0),
                **_lon_lat(p),
                "taken_turn": None,
                "captor": None,
                "siege_turns": 0,
            }
        )
        for i in range(p.get("garrison", 0)):
            land_units.append(
                {
                    "id": len(land_units) + 1,
                    "nation": p["owner"],
                    "siege_train": i < p.get("siege_trains", 0),
                    "state": LandUnit.State.GARRISON.value,
                    "port": p["key"],
                    "transport": None,
                    "out_of_supply_turns": 0,
                    "raised_turn": 0,
                }
            )
    return ports, land_units


def _scenario_fleets_and_ships(
    data: dict[str, Any], fleet_ids: dict[tuple[str, str], int]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The fleets at sea or in port, each with its commander, and their ships numbered in line order."""
    crews = {n["code"]: n["crew"] for n in data["nations"]}
    commanders = {(a["nation"], a["fleet"]): a for a in data.get("admirals", []) if a.get("fleet") is not None}
    fleets: list[dict[str, Any]] = []
    ships: list[dict[str, Any]] = []
    for f in data["fleets"]:
        fid = fleet_ids[(f["nation"], f["name"])]
        admiral = commanders.get((f["nation"], f["name"]))
        fleets.append(
            {
                "id": fid,
                "name": f["name"],
                "nation": f["nation"],
                "admiral": {"name": admiral["name"], "grade": admiral["grade"]} if admiral else None,
                "sea_zone": f["sea_zone"],
                "port": f.get("port"),
                "crew": f.get("crew") or crews[f["nation"]],
                "posture": f.get("posture", "seek"),
                "blockade_port": f.get("blockade_port") if f.get("posture") == "blockade" else None,
                "after_battle": "auto",
                "retreat_port": None,
                "retreat_zone": None,
                "left_port_turn": None,
                "in_supply": True,
                "out_of_supply_turns": 0,
                "created_turn": 1,
            }
        )
        for position, ship in enumerate(f.get("ships", []), start=1):
            ships.append(
                _ship_row(
                    ship,
                    sid=len(ships) + 1,
                    nation=f["nation"],
                    crew=ship.get("crew") or crews[f["nation"]],
                    fleet=fid,
                    position=position,
                )
            )
    return fleets, ships


def _scenario_keels(data: dict[str, Any], *, first_id: int) -> list[dict[str, Any]]:
    """The ships on the stocks at the start, numbered on from ``first_id``."""
    crews = {n["code"]: n["crew"] for n in data["nations"]}
    keels = []
    for sid, keel in enumerate(data.get("building", []), start=first_id):
        row = _ship_row(keel, sid=sid, nation=keel["nation"], crew=crews[keel["nation"]], fleet=None)
        row |= {"condition": "building", "building_turns_left": keel["turns_left"], "building_port": keel["port"]}
        row["laid_down_turn"] = 0
        keels.append(row)
    return keels


def _scenario_admiral(a: dict[str, Any], fleet_ids: dict[tuple[str, str], int]) -> dict[str, Any]:
    """An admiral commands a fleet (and is then in no port) or waits ashore in a port."""
    return {
        "name": a["name"],
        "nation": a["nation"],
        "grade": a["grade"],
        "status": "active",
        "port": a.get("port") if a.get("fleet") is None else None,
        "fleet": fleet_ids[(a["nation"], a["fleet"])] if a.get("fleet") is not None else None,
    }


def _scenario_first_turn(data: dict[str, Any], ruleset: Ruleset, now: datetime) -> dict[str, Any]:
    return {
        "number": 1,
        "year": data["year"],
        "season": data["season"],
        "deadline": deadline_after(now, ruleset).isoformat(),
        "status": Turn.Status.OPEN.value,
        "resolved_at": None,
        "paused_at": None,
        "dice_log": [],
    }


def _ship_row(
    ship: dict[str, Any], *, sid: int, nation: str, crew: str, fleet: int | None, position: int = 0
) -> dict[str, Any]:
    original = ship.get("original_nation") or nation
    return {
        "id": sid,
        "name": ship["name"],
        "class": ship["class"],
        "nation": nation,
        "original_nation": original,
        "captured": original != nation,
        "condition": ship.get("condition", "ready"),
        "in_ordinary": bool(ship.get("in_ordinary")),
        "crew": crew,
        "fleet": fleet,
        "building_turns_left": 0,
        "building_port": None,
        "line_position": position,
        "laid_down_turn": None,
        "lost_turn": None,
        "source": ship.get("source", "")[:200],
    }


def _nations_with_opening_balances(
    data: dict[str, Any], ruleset: Ruleset, ships: list[dict[str, Any]], ports: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """RULES.md §2 scenario balance: base income and starting treasury, with the opening ledger line."""
    nations, ledger = [], []
    for n in data["nations"]:
        balance = scenario_balance(
            [EconomyShip(s["class"], s["condition"], s["in_ordinary"]) for s in ships if s["nation"] == n["code"]],
            [p["dockyard"] for p in ports if p["owner"] == n["code"]],
            ruleset,
        )
        nations.append(
            {
                "code": n["code"],
                "name": n["name"],
                "navy": n["navy"],
                "treasury": balance.starting_treasury,
                "player": None,
                "base_income": balance.base_income,
                "crew": n["crew"],
                "color": n.get("color") or NAVY_COLORS.get(n["navy"], "#777777"),
                "unpaid_upkeep_turn": None,
                **({"capital": n["capital"]} if n.get("capital") else {}),
            }
        )
        if balance.starting_treasury:
            ledger.append(
                {
                    "nation": n["code"],
                    "turn": 1,
                    "kind": LedgerEntry.Kind.OPENING.value,
                    "amount": balance.starting_treasury,
                    "reason": f"Opening balance ({ruleset['economy.starting_treasury_turns']} turns of income)",
                    "balance": balance.starting_treasury,
                    "unpaid": 0,
                }
            )
    return nations, ledger
