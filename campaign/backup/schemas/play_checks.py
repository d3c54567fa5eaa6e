"""The semantic pass over the dispatches and the table battles of a campaign document (issues 15, 16).

Run by :func:`campaign.backup.schemas.checks.document_problems` on a document the JSON Schema accepted
(:mod:`campaign.backup.schemas.play_records`), so every type is trusted here. It checks what joins records
together — references landing on a record of the document, what must be unique — and the models'
check constraints between fields, each problem naming its path, before anything is written.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.utils.dateparse import parse_datetime

#: The statuses of a table battle that hold its engagement (``tabletop_at_table_has_its_engagement``).
_HOLDS_ENGAGEMENT = ("waiting", "entered", "disputed", "confirmed", "applied")


def _not_a(value: Any, kind: str) -> str:
    return f"{value!r} is not a {kind} of this document"


def _times(where: str, record: dict[str, Any], fields: tuple[str, ...]) -> Iterator[str]:
    for field in fields:
        value = record.get(field)
        try:
            parsed = parse_datetime(value) if value is not None else True
        except ValueError:
            parsed = None
        if parsed is None:
            yield f"{where}.{field}: {value!r} is not an ISO 8601 date and time"


def _dispatch_problems(where: str, d: dict[str, Any], nations: set[str]) -> Iterator[str]:
    if d["sender"] is not None and d["sender"] not in nations:
        yield f"{where}.sender: {_not_a(d['sender'], 'nation')}"
    yield from _times(where, d, ("sent_at", "edited_at", "hidden_at", "reported_at"))
    if d["hidden_at"] is not None and not d["hidden_reason"]:
        yield f"{where}.hidden_reason: a hidden dispatch says why it was hidden"
    sent, edited = parse_datetime(d["sent_at"] or ""), parse_datetime(d["edited_at"] or "")
    if sent is not None and edited is not None and edited < sent:
        yield f"{where}.edited_at: a dispatch is edited after it was sent ({d['sent_at']})"
    for part, rows in (("copies", d["copies"]), ("reports", d["reports"])):
        seen: set[str] = set()
        for j, row in enumerate(rows):
            if row["nation"] not in nations:
                yield f"{where}.{part}[{j}].nation: {_not_a(row['nation'], 'nation')}"
            elif row["nation"] in seen:
                yield f"{where}.{part}[{j}].nation: {row['nation']} is named twice; one each per dispatch"
            seen.add(row["nation"])
            yield from _times(f"{where}.{part}[{j}]", row, ("arrived_at", "read_at", "created_at"))
    for j, copy in enumerate(d["copies"]):
        if copy["read_at"] is not None and copy["arrived_at"] is None:
            yield f"{where}.copies[{j}].read_at: a dispatch is read only once it has arrived (arrived_at)"
    for j, revision in enumerate(d["revisions"]):
        yield from _times(f"{where}.revisions[{j}]", revision, ("replaced_at",))


def dispatch_problems(doc: dict[str, Any]) -> Iterator[str]:
    """Conversations, their dispatches and the GM's mutes."""
    nations = {n["code"] for n in doc["nations"]}
    ids: dict[int, int] = {}
    for i, c in enumerate(doc.get("conversations", [])):
        where = f"conversations[{i}]"
        if c["id"] in ids:
            yield f"{where}: id {c['id']} is already used by [{ids[c['id']]}]"
        ids.setdefault(c["id"], i)
        for j, code in enumerate(c["nations"]):
            if code not in nations:
                yield f"{where}.nations[{j}]: {_not_a(code, 'nation')}"
        if c["starter"] is not None and c["starter"] not in nations:
            yield f"{where}.starter: {_not_a(c['starter'], 'nation')}"
        yield from _times(where, c, ("started_at", "last_at"))
        for j, d in enumerate(c["dispatches"]):
            yield from _dispatch_problems(f"{where}.dispatches[{j}]", d, nations)
    for i, m in enumerate(doc.get("dispatch_mutes", [])):
        if m["nation"] not in nations:
            yield f"dispatch_mutes[{i}].nation: {_not_a(m['nation'], 'nation')}"
        if m["until_turn"] < m["from_turn"]:
            yield f"dispatch_mutes[{i}].until_turn: {m['until_turn']} is before from_turn {m['from_turn']}"
        yield from _times(f"dispatch_mutes[{i}]", m, ("created_at",))


def _engagement_problems(where: str, e: dict[str, Any], doc: dict[str, Any]) -> Iterator[str]:
    zones = {z["key"] for z in doc["sea_zones"]}
    if e["sea_zone"] not in zones:
        yield f"{where}.sea_zone: {_not_a(e['sea_zone'], 'sea zone')}"
    if e["port"] is not None and e["port"] not in {p["key"] for p in doc["ports"]}:
        yield f"{where}.port: {_not_a(e['port'], 'port')}"
    if e["battle"] is not None and e["battle"] not in {b["id"] for b in doc["battles"]}:
        yield f"{where}.battle: {_not_a(e['battle'], 'battle')}"
    if (e["status"] == "fought") != (e["fought_at"] is not None):
        yield f"{where}.fought_at: an engagement has a fought_at exactly when its status is 'fought'"
    yield from _times(where, e, ("dispatched_at", "fought_at"))
    fleets = {f["id"] for f in doc["fleets"]}
    for k, side in enumerate(e["sides"]):
        named = side.get("fleets") if isinstance(side, dict) else None
        if not isinstance(named, list):
            yield f"{where}.sides[{k}]: a side is an object with its fleets, a list of fleet ids"
            continue
        for j, fleet in enumerate(named):
            if fleet not in fleets:
                yield f"{where}.sides[{k}].fleets[{j}]: {_not_a(fleet, 'fleet')}"


def _result_problems(where: str, result: dict[str, Any], doc: dict[str, Any]) -> Iterator[str]:
    ships = {s["id"] for s in doc["ships"]}
    nations = {n["code"] for n in doc["nations"]}
    for j, row in enumerate(result.get("ships", [])):
        if row["ship"] not in ships:
            yield f"{where}.ships[{j}].ship: {_not_a(row['ship'], 'ship')}"
        if row.get("captured_by") is not None and row["captured_by"] not in nations:
            yield f"{where}.ships[{j}].captured_by: {_not_a(row['captured_by'], 'nation')}"
    admirals = {a["name"] for a in doc["admirals"]}
    for j, name in enumerate(result.get("admirals_lost", [])):
        if name not in admirals:
            yield f"{where}.admirals_lost[{j}]: {_not_a(name, 'admiral')}"


def table_problems(doc: dict[str, Any]) -> Iterator[str]:
    """The table battles: their references, one per turn and place, and the model's constraints."""
    turns = {t["number"] for t in doc["turns"]}
    zones = {z["key"] for z in doc["sea_zones"]}
    ports = {p["key"] for p in doc["ports"]}
    nations = {n["code"] for n in doc["nations"]}
    places: dict[tuple[int, str, str], int] = {}
    battles: dict[int, int] = {}
    fights: dict[tuple[int, str, int], int] = {}
    for i, t in enumerate(doc.get("table_battles", [])):
        where = f"table_battles[{i}]"
        if t["turn"] not in turns:
            yield f"{where}.turn: {_not_a(t['turn'], 'turn')}"
        if t["sea_zone"] not in zones:
            yield f"{where}.sea_zone: {_not_a(t['sea_zone'], 'sea zone')}"
        if t["port"] is not None and t["port"] not in ports:
            yield f"{where}.port: {_not_a(t['port'], 'port')}"
        if t["requested_by"] is not None and t["requested_by"] not in nations:
            yield f"{where}.requested_by: {_not_a(t['requested_by'], 'nation')}"
        if t["origin"] == "player" and t["requested_by"] is None:
            yield f"{where}.requested_by: a battle asked for by a player names the player's nation"
        kind = t.get("kind", "battle")
        place = (t["turn"], kind, t["place"])
        if place in places:
            yield f"{where}: turn {t['turn']}, place {t['place']!r} is already used by [{places[place]}]"
        places.setdefault(place, i)
        if kind == "storming":
            yield from _storming_problems(where, t, nations)
            continue
        e = t["engagement"]
        if e is None:
            if t["status"] in _HOLDS_ENGAGEMENT:
                yield f"{where}.engagement: a battle {t['status']} at the table holds its engagement; none is given"
        else:
            yield from _engagement_problems(f"{where}.engagement", e, doc)
            if e["battle"] is not None and e["battle"] in battles:
                yield f"{where}.engagement.battle: battle {e['battle']} is already held by [{battles[e['battle']]}]"
            if e["battle"] is not None:
                battles.setdefault(e["battle"], i)
            fight = (t["turn"], e["sea_zone"], e["sequence"])
            if fight in fights:
                yield (
                    f"{where}.engagement.sequence: fight {e['sequence']} of {e['sea_zone']!r} in turn {t['turn']} "
                    f"is already held by [{fights[fight]}]"
                )
            fights.setdefault(fight, i)
        yield from _result_problems(f"{where}.result", t["result"], doc)


def _storming_problems(where: str, t: dict[str, Any], nations: set[str]) -> Iterator[str]:
    """A storming is a port's siege: it names the port, holds no engagement, and its result names
    the besieging nations by code."""
    if t["port"] is None:
        yield f"{where}.port: a storming names the besieged port"
    if t["engagement"] is not None:
        yield f"{where}.engagement: a storming holds no engagement (it is a siege, not a fight at sea)"
    for code in t["result"].get("besiegers_lost") or {}:
        if code not in nations:
            yield f"{where}.result.besiegers_lost.{code}: {_not_a(code, 'nation')}"
