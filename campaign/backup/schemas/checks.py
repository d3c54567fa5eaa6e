"""A campaign document checked in full before anything is written (issue 9).

Two passes. The JSON Schema (:mod:`campaign.backup.schemas.campaign_document`) checks every value's type,
enum, bound and length; only a document that passes it goes on to the semantic pass, which checks
what joins records together: unique ids and keys, references that land on a record of the
document, the database's own constraints between fields, and the ledger adding up to each treasury.
Every problem names its place in the document (``ships[17].class: 'razee' is not a ship class;
allowed: …``), so a user can mend the file; none is raised as an exception half-way.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from typing import Any, cast

from django.utils.dateparse import parse_datetime
from jsonschema import Draft202012Validator, _keywords, validators
from jsonschema.exceptions import ValidationError

from campaign.backup.schemas.campaign_document import campaign_document_schema
from campaign.backup.schemas.fast_check import Predicate, schema_predicate, subschema_predicates
from campaign.backup.schemas.play_checks import dispatch_problems, table_problems
from rules.names import name_fault, name_normalised
from rules.ruleset import RulesetError, validate_flat

# More problems than this are not listed one by one: the first ones show what is wrong with a file.
MAX_LISTED = 50


def document_path(parts: Iterable[str | int]) -> str:
    """``["ships", 17, "class"]`` as ``ships[17].class``; the whole document is ``(document)``."""
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(document)"


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _schema_message(error: ValidationError) -> str:
    where = document_path(error.absolute_path)
    schema = error.schema if isinstance(error.schema, dict) else {}
    if error.validator == "enum":
        what = schema.get("title", "allowed here")
        allowed = ", ".join("null" if v is None else str(v) for v in schema["enum"])
        article = "" if what == "allowed here" else "a "
        return f"{where}: {_shown(error.instance)} is not {article}{what}; allowed: {allowed}"
    if error.validator == "required":
        return f"{where}: {error.message.replace(' is a required property', ' is missing')}"
    if error.validator == "dependentRequired":
        # {"lon": ["lat"], "lat": ["lon"]}: coordinates come in pairs.
        return f"{where}: {error.message.replace(' is a dependency of ', ' must be given with ')}"
    if error.validator == "additionalProperties":
        return f"{where}: {error.message}"
    if error.validator == "type":
        return f"{where}: {_shown(error.instance)} is not of type {error.validator_value}"
    if error.validator == "const" and where == "format":
        return f"format: unsupported export format {_shown(error.instance)}; expected {error.validator_value}"
    return f"{where}: {error.message[:200]}"


@cache
def _validator() -> Draft202012Validator:
    return Draft202012Validator(campaign_document_schema())


@cache
def _accepted() -> Predicate:
    return schema_predicate(campaign_document_schema())


@cache
def _lister() -> Draft202012Validator:
    """jsonschema's validator, but for ``items``: an item the compiled predicate of the items' schema
    accepts has no error to list, so it is not walked. A refused europe-1805 document (a hostile
    import: one bad ship among hundreds) was walked whole, 0.9 s of its 1.1 s of CPU; now only the
    items with a problem are, and the errors — jsonschema's own — are the same."""
    schema = campaign_document_schema()
    accepts = subschema_predicates(schema)

    def items(validator: Any, items: Any, instance: Any, schema: dict[str, Any]) -> Iterator[ValidationError]:
        if items is False or not isinstance(items, dict) or not validator.is_type(instance, "array"):
            yield from _keywords.items(validator, items, instance, schema)
            return
        accepted = accepts(items)
        for index in range(len(schema.get("prefixItems", [])), len(instance)):
            if not accepted(instance[index]):
                yield from validator.descend(instance=instance[index], schema=items, path=index)

    lister = validators.extend(Draft202012Validator, {"items": items})
    return cast(Draft202012Validator, lister(schema))


def schema_problems(document: Any) -> list[str]:
    """The document against the JSON Schema: one readable line per problem, in document order.

    The compiled predicate says yes to a valid document at a fraction of jsonschema's cost; it never
    says yes to one jsonschema refuses, and on a no jsonschema lists the problems itself (skipping
    the list items the predicate vouches for: ``_lister``)."""
    if _accepted()(document):
        return []
    errors = sorted(_lister().iter_errors(document), key=lambda e: [str(p) for p in e.absolute_path])
    return [_schema_message(e) for e in errors]


def _compared(value: Any) -> Any:
    """A value as the database compares it: names in their stored form (a look-alike is the same name)."""
    return name_normalised(value) if isinstance(value, str) else value


def _duplicates(records: Sequence[dict[str, Any]], fields: tuple[str, ...]) -> Iterator[tuple[int, str]]:
    seen: dict[tuple[Any, ...], int] = {}
    for index, record in enumerate(records):
        key = tuple(_compared(record.get(f)) for f in fields)
        if None in key:
            continue
        if key in seen:
            shown = ", ".join(f"{f} {v!r}" for f, v in zip(fields, key, strict=True))
            yield index, f"{shown} is already used by [{seen[key]}]"
        else:
            seen[key] = index


# (collection, fields that together must be unique) — the document's ids and the database's
# unique constraints.
UNIQUE = (
    ("nations", ("code",)),
    ("sea_zones", ("key",)),
    ("sea_zones", ("name",)),
    ("ports", ("key",)),
    ("ports", ("name",)),
    ("land_units", ("id",)),
    ("land_units", ("transport",)),
    ("admirals", ("name",)),
    ("admirals", ("fleet",)),
    ("fleets", ("id",)),
    ("fleets", ("nation", "name")),
    ("ships", ("id",)),
    ("turns", ("number",)),
    ("orders", ("turn", "nation", "position")),
    ("orders", ("turn", "fleet", "kind")),
    ("offers", ("from", "to", "kind")),
    ("nation_turns", ("turn", "nation")),
    ("phases", ("turn", "phase")),
    ("reports", ("turn", "nation")),
    ("blockades", ("turn", "port", "fleet")),
    ("battles", ("id",)),
    ("battles", ("turn", "type", "place", "sequence")),
)

# (collection, field, what it names) — every reference must land on a record of the document.
REFERENCES = (
    ("nations", "capital", "port"),
    ("relations", "a", "nation"),
    ("relations", "b", "nation"),
    ("ports", "sea_zone", "sea zone"),
    ("ports", "owner", "nation"),
    ("ports", "captor", "nation"),
    ("land_units", "nation", "nation"),
    ("land_units", "port", "port"),
    ("land_units", "transport", "ship"),
    ("admirals", "nation", "nation"),
    ("admirals", "port", "port"),
    ("admirals", "fleet", "fleet"),
    ("fleets", "nation", "nation"),
    ("fleets", "sea_zone", "sea zone"),
    ("fleets", "port", "port"),
    ("fleets", "blockade_port", "port"),
    ("fleets", "retreat_port", "port"),
    ("fleets", "retreat_zone", "sea zone"),
    ("ships", "nation", "nation"),
    ("ships", "original_nation", "nation"),
    ("ships", "fleet", "fleet"),
    ("ships", "building_port", "port"),
    ("ships", "repair_port", "port"),
    ("ledger", "nation", "nation"),
    ("orders", "turn", "turn"),
    ("orders", "nation", "nation"),
    ("orders", "fleet", "fleet"),
    ("offers", "from", "nation"),
    ("offers", "to", "nation"),
    ("nation_turns", "turn", "turn"),
    ("nation_turns", "nation", "nation"),
    ("phases", "turn", "turn"),
    ("reports", "turn", "turn"),
    ("reports", "nation", "nation"),
    ("blockades", "port", "port"),
    ("blockades", "fleet", "fleet"),
    ("battles", "turn", "turn"),
    ("battles", "sea_zone", "sea zone"),
    ("battles", "port", "port"),
)

DATETIMES = (
    ("turns", "deadline"),
    ("turns", "resolved_at"),
    ("turns", "paused_at"),
    ("nation_turns", "submitted_at"),
    ("reports", "emailed_at"),
)


def _targets(doc: dict[str, Any]) -> dict[str, set[Any]]:
    return {
        "nation": {n["code"] for n in doc["nations"]},
        "sea zone": {z["key"] for z in doc["sea_zones"]},
        "port": {p["key"] for p in doc["ports"]},
        "fleet": {f["id"] for f in doc["fleets"]},
        "ship": {s["id"] for s in doc["ships"]},
        "turn": {t["number"] for t in doc["turns"]},
    }


def _identity_problems(doc: dict[str, Any]) -> Iterator[str]:
    """Unique ids and keys, references that land, and well-formed times."""
    for collection, fields in UNIQUE:
        for index, problem in _duplicates(doc.get(collection, []), fields):
            yield f"{collection}[{index}]: {problem}"
    targets = _targets(doc)
    for collection, field, kind in REFERENCES:
        for index, record in enumerate(doc.get(collection, [])):
            value = record.get(field)
            if value is not None and value not in targets[kind]:
                yield f"{collection}[{index}].{field}: {_shown(value)} is not a {kind} of this document"
    for index, battle in enumerate(doc.get("battles", [])):
        for position, code in enumerate(battle.get("seen_by", [])):
            if code not in targets["nation"]:
                yield f"battles[{index}].seen_by[{position}]: {_shown(code)} is not a nation of this document"
    for index, zone in enumerate(doc["sea_zones"]):
        for position, other in enumerate(zone["adjacent"]):
            if other not in targets["sea zone"] or other == zone["key"]:
                where = f"sea_zones[{index}].adjacent[{position}]"
                yield f"{where}: {_shown(other)} is not another sea zone of this document"
    for collection, field in DATETIMES:
        for index, record in enumerate(doc.get(collection, [])):
            value = record.get(field)
            try:
                parsed = parse_datetime(value) if value is not None else True
            except ValueError:
                parsed = None
            if parsed is None:
                yield f"{collection}[{index}].{field}: {_shown(value)} is not an ISO 8601 date and time"


def _force_problems(doc: dict[str, Any]) -> Iterator[str]:
    """The database's constraints between the fields of fleets, ships and land units."""
    zone_of = {p["key"]: p["sea_zone"] for p in doc["ports"]}
    for index, fleet in enumerate(doc["fleets"]):
        if (fleet["posture"] == "blockade") != (fleet["blockade_port"] is not None):
            yield f"fleets[{index}].blockade_port: a port to blockade is named exactly when the posture is 'blockade'"
        if fleet["port"] is not None and zone_of.get(fleet["port"], fleet["sea_zone"]) != fleet["sea_zone"]:
            yield f"fleets[{index}].port: {fleet['port']!r} is not in the fleet's sea zone {fleet['sea_zone']!r}"
    class_of = {s["id"]: s["class"] for s in doc["ships"]}
    afloat: Counter[tuple[str, str]] = Counter()
    for index, ship in enumerate(doc["ships"]):
        building = ship["condition"] == "building"
        if building and (ship["building_port"] is None or ship["building_turns_left"] < 1 or ship["fleet"] is not None):
            yield f"ships[{index}]: a ship building has a building_port, building_turns_left ≥ 1 and no fleet"
        if not building and (ship["building_port"] is not None or ship["building_turns_left"] != 0):
            yield f"ships[{index}]: only a ship building has a building_port or building_turns_left"
        if ship["condition"] in ("ready", "damaged", "disabled") and ship["fleet"] is None:
            yield f"ships[{index}].fleet: a ship afloat ({ship['condition']}) belongs to a fleet"
        if ship["condition"] in ("sunk", "expended") and ship["fleet"] is not None:
            yield f"ships[{index}].fleet: a ship {ship['condition']} belongs to no fleet"
        if ship["condition"] not in ("sunk", "expended"):
            afloat[(ship["original_nation"], name_normalised(ship["name"]))] += 1
            if afloat[(ship["original_nation"], name_normalised(ship["name"]))] == 2:
                yield f"ships[{index}].name: {ship['original_nation']} already has a ship named {ship['name']!r} afloat"
    for index, unit in enumerate(doc["land_units"]):
        if (unit["port"] is not None) != (unit["state"] in ("garrison", "ashore")):
            yield f"land_units[{index}].port: a unit has a port exactly when it is in garrison or ashore"
        if unit["transport"] is not None and class_of.get(unit["transport"], "transport") != "transport":
            yield f"land_units[{index}].transport: ship {unit['transport']} is not a transport"


def _ledger_problems(doc: dict[str, Any]) -> Iterator[str]:
    """Each line's balance follows from the one before; each treasury is the sum of its lines."""
    running: defaultdict[str, int] = defaultdict(int)
    for index, line in enumerate(doc["ledger"]):
        running[line["nation"]] += line["amount"]
        if line["balance"] != running[line["nation"]]:
            yield (
                f"ledger[{index}].balance: {line['balance']} EP, but {line['nation']}'s lines so far "
                f"add up to {running[line['nation']]} EP"
            )
    for index, nation in enumerate(doc["nations"]):
        total = running[nation["code"]]
        if nation["treasury"] != total:
            yield f"nations[{index}].treasury: {nation['treasury']} EP differs from the sum of its ledger ({total} EP)"


def _campaign_problems(doc: dict[str, Any]) -> Iterator[str]:
    """Rules over the whole campaign: the ruleset, relations, offers and the open turn."""
    try:
        validate_flat(doc["ruleset"])
    except RulesetError as exc:
        yield f"ruleset: {exc}"
    if not doc["nations"]:
        yield "nations: a campaign has at least one nation"
    pairs: set[tuple[str, str]] = set()
    for index, relation in enumerate(doc["relations"]):
        pair = (min(relation["a"], relation["b"]), max(relation["a"], relation["b"]))
        if relation["a"] == relation["b"]:
            yield f"relations[{index}]: a nation has no relation with itself"
        elif pair in pairs:
            yield f"relations[{index}]: {pair[0]} and {pair[1]} already have a relation"
        pairs.add(pair)
    for index, offer in enumerate(doc.get("offers", [])):
        if offer["from"] == offer["to"]:
            yield f"offers[{index}]: a nation makes no offer to itself"
    unresolved = [t["number"] for t in doc["turns"] if t["status"] != "resolved"]
    if len(unresolved) > 1:
        yield f"turns: only one turn may be open or resolving; turns {unresolved} are"


def _audit_problems(doc: dict[str, Any]) -> Iterator[str]:
    """Each audit entry's time must be a date and time with its offset (the log keeps when, exactly)."""
    for index, entry in enumerate(doc.get("audit", [])):
        try:
            at = parse_datetime(entry["at"])
        except ValueError:
            at = None
        if at is None or at.tzinfo is None:
            yield f"audit[{index}].at: {_shown(entry['at'])} is not a date and time with its UTC offset"


#: The sections whose records carry a name people read (in pages and in mail headers).
NAMED = ("nations", "sea_zones", "ports", "admirals", "fleets", "ships")


def _name_problems(doc: dict[str, Any]) -> Iterator[str]:
    """Names with a control, invisible or text-direction character (issue 27, 9 and 11: a line break
    in a name broke every mail of the campaign)."""
    fault = name_fault(doc["campaign"]["name"])
    if fault is not None:
        yield f"campaign.name: {fault}"
    for section in NAMED:
        for index, record in enumerate(doc[section]):
            fault = name_fault(record["name"])
            if fault is not None:
                yield f"{section}[{index}].name: {fault}"


def document_problems(document: Any) -> list[str]:
    """Every problem of a campaign document, each naming its path; an empty list means it may be imported.

    The semantic pass runs only on a document the schema accepts, so it can trust every type.
    """
    problems = schema_problems(document)
    if not problems:
        problems = [
            *_name_problems(document),
            *_identity_problems(document),
            *_force_problems(document),
            *_ledger_problems(document),
            *_campaign_problems(document),
            *_audit_problems(document),
            *dispatch_problems(document),
            *table_problems(document),
        ]
    if len(problems) > MAX_LISTED:
        problems = [*problems[:MAX_LISTED], f"… and {len(problems) - MAX_LISTED} more problems"]
    return problems
