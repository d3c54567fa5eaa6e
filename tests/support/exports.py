"""Campaign exports made comparable between two runs or two copies of a campaign: database ids
renumbered or dropped, wall-clock times dropped, and a readable list of where two documents differ."""

from __future__ import annotations

import json
import re
from typing import Any


def strip_ids(doc: dict) -> dict:
    """The export without slug and database ids, references renumbered by order of appearance."""
    doc = json.loads(json.dumps(doc))
    doc["campaign"].pop("slug")
    for section in ("fleets", "ships", "land_units", "battles"):
        renumber = {item["id"]: i for i, item in enumerate(doc[section])}
        for item in doc[section]:
            item["id"] = renumber[item["id"]]
        doc[f"_{section}_ids"] = renumber
    fleet_ids, ship_ids = doc.pop("_fleets_ids"), doc.pop("_ships_ids")
    battle_ids, unit_ids = doc.pop("_battles_ids"), doc.pop("_land_units_ids")
    for i, conversation in enumerate(doc.get("conversations", [])):
        conversation["id"] = i
    for table in doc.get("table_battles", []):
        for row in table["result"].get("ships", []):
            row["ship"] = ship_ids.get(row["ship"])
        siege = (table["pack"] or {}).get("siege") or {}
        for side in ("besiegers", "garrison"):
            for unit in siege.get(side, []):
                unit[0] = unit_ids.get(unit[0])  # a storming's units, [id, nation, siege train]
        engagement = table["engagement"]
        if engagement is not None:
            engagement["battle"] = battle_ids.get(engagement["battle"])
            for side in engagement["sides"]:
                side["fleets"] = [fleet_ids.get(f) for f in side.get("fleets", [])]
                if "lead_fleet" in side:
                    side["lead_fleet"] = fleet_ids.get(side["lead_fleet"])
                side["retreat"] = {str(fleet_ids.get(int(k))): v for k, v in side.get("retreat", {}).items()}
    for ship in doc["ships"]:
        ship["fleet"] = fleet_ids.get(ship["fleet"])
    for admiral in doc["admirals"]:
        admiral["fleet"] = fleet_ids.get(admiral["fleet"])
    for unit in doc["land_units"]:
        unit["transport"] = ship_ids.get(unit["transport"])
    for order in doc["orders"]:
        order["fleet"] = fleet_ids.get(order["fleet"])
        body = order["body"]
        for key in ("fleet", "to_fleet", "into"):
            if key in body:
                body[key] = fleet_ids.get(body[key])
        if "ship" in body:
            body["ship"] = ship_ids.get(body["ship"])
        if "ships" in body:
            body["ships"] = [ship_ids.get(i) for i in body["ships"]]
    for blockade in doc["blockades"]:
        blockade["fleet"] = fleet_ids.get(blockade["fleet"])
    doc["snapshots"] = sorted(doc["snapshots"])
    return doc


def as_restored(document: dict) -> dict:
    """A restored campaign's export as its backup was: the same document but for the audit log's last
    entry, the "imported" one the restore writes (which must be there)."""
    doc = json.loads(json.dumps(document))
    *kept, last = doc.get("audit") or [{"action": "(no audit log)"}]
    assert last["action"] == "campaign_imported", f"the restore's last audit entry is {last['action']!r}"
    if kept:
        doc["audit"] = kept
    else:
        doc.pop("audit")
    return doc


def comparable(document: dict) -> dict:
    """The export with database ids out of the way: history blobs reduced to what a player reads
    (texts, fates, outcomes, dice), wall-clock times dropped."""
    doc = strip_ids(document)
    doc.pop("snapshots")
    for turn in doc["turns"]:
        turn.pop("deadline"), turn.pop("resolved_at")  # wall-clock times of the two runs
        turn["dice_log"] = [
            (d["purpose"], d["place"], d["die"], d["raw"], d["mod"], d["result"]) for d in turn["dice_log"]
        ]

    def texts(events: list[dict]) -> list[str]:
        return [re.sub(r"#\d+", "#", e["text"]) for e in events]

    # A table battle's stored engagement result names the battle, fleets and ships by row id.
    for table in doc.get("table_battles", []):
        engagement = table.get("engagement")
        if isinstance(engagement, dict) and isinstance(engagement.get("result"), dict):
            engagement["result"] = _without_row_ids(engagement["result"])
    doc["phases"] = [(p["turn"], p["phase"], texts(p["summary"].get("events", []))) for p in doc["phases"]]
    doc["reports"] = [(r["turn"], r["nation"], texts(r["body"].get("events", []))) for r in doc["reports"]]
    doc["battles"] = [
        (
            b["turn"], b["type"], b["place"], b["sequence"], b["seed"], b["winner"], b["report"].get("outcome"),
            [(re.sub(r"#\d+", "#", s["name"]), s["fate"]) for s in b["report"].get("ships", [])],
            [re.sub(r"#\d+", "#", str(r)) for r in b["report"].get("round_lines", [])],
            [(d["purpose"], d["raw"], d["result"]) for d in b["report"].get("dice", [])],
        )
        for b in doc["battles"]
    ]  # fmt: skip
    return doc


def _without_row_ids(value: Any) -> Any:
    """``value`` without the keys that hold row ids (``…_id``, and ``battle``), at any depth; a mapping
    keyed by row ids becomes the list of its values, in a stable order."""
    if isinstance(value, dict) and value and all(str(k).isdigit() for k in value):
        return sorted((_without_row_ids(v) for v in value.values()), key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(value, dict):
        return {k: _without_row_ids(v) for k, v in value.items() if not (k.endswith("_id") or k == "battle")}
    if isinstance(value, list):
        return [_without_row_ids(v) for v in value]
    return value


#: Database ids quoted in report texts ("ship 788 is not an afloat ship of FR"): they differ by copy.
QUOTED_ID = re.compile(r"\b(ships?|fleets?|to fleet|into fleet) \d+")


def same_run(document: dict) -> dict:
    """``comparable`` without the wall-clock times of the submissions, the campaign's name, and the
    database ids quoted in texts."""
    doc = json.loads(QUOTED_ID.sub(r"\1 #", json.dumps(comparable(document))))
    doc["campaign"].pop("name")
    for state in doc["nation_turns"]:
        state.pop("submitted_at")
    return doc


def differences(a: Any, b: Any, path: str = "", out: list[str] | None = None) -> str:
    """The first few places where two documents differ, for the failure message."""
    out = [] if out is None else out
    if len(out) >= 12:
        return "; ".join(out)
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                out.append(f"{path}.{key} only on one side")
            else:
                differences(a[key], b[key], f"{path}.{key}", out)
    elif isinstance(a, list | tuple) and isinstance(b, list | tuple):
        if len(a) != len(b):
            out.append(f"{path}: {len(a)} != {len(b)} items")
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            differences(x, y, f"{path}[{i}]", out)
    elif a != b:
        out.append(f"{path}: {str(a)[:300]!r} != {str(b)[:300]!r}")
    return "; ".join(out)
