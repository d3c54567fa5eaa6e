"""The building blocks of the campaign document's JSON Schema: one model field's schema, a record,
a list of records, a reference to another record by its key.

:mod:`campaign.backup.schemas.campaign_document` assembles the document's records from them. Every type,
bound, length and enum comes from the model field that stores the value, so the schema cannot drift
from what the database accepts.
"""

from __future__ import annotations

from typing import Any

from django.core.validators import RegexValidator
from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations

from campaign.models import Nation, Turn
from ports.models import Port, SeaZone

# Bounds on how many records of each kind one document may hold: far above any campaign the rules
# allow (14 navies, a few hundred ships each), low enough that a file cannot exhaust the server.
MAX_RECORDS = {
    "nations": 64,
    "relations": 2016,
    "sea_zones": 2000,
    "ports": 2000,
    "land_units": 20000,
    "admirals": 5000,
    "fleets": 20000,
    "ships": 50000,
    "ledger": 1000000,
    "turns": 2000,
    "orders": 1000000,
    "offers": 100000,
    "nation_turns": 128000,
    "phases": 20000,
    "reports": 128000,
    "blockades": 200000,
    "battles": 100000,
    "audit": 1000000,
    "conversations": 100000,
    "conversation_dispatches": 1000000,
    "dispatch_copies": 64,
    "dispatch_revisions": 10000,
    "dispatch_reports": 64,
    "dispatch_mutes": 100000,
    "table_battles": 100000,
}
MAX_ADJACENT = 64
USERNAME_MAX_LENGTH = 150


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    out = dict(schema)
    if "enum" in out:
        out["enum"] = [*out["enum"], None]
    if "type" in out:
        out["type"] = [out["type"], "null"]
    return out


def column(model: type[models.Model], name: str, *, null: bool | None = None, **override: object) -> dict[str, Any]:
    """The schema of one model field as the document holds it; ``override`` adds or replaces keywords."""
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)
    schema: dict[str, Any]
    if isinstance(field, models.BooleanField):
        schema = {"type": "boolean"}
    elif isinstance(field, models.IntegerField):
        # The column's range as Django defines it for every backend, so the file is the same
        # whichever database generated it.
        low, high = BaseDatabaseOperations.integer_field_ranges[field.get_internal_type()]
        schema = {"type": "integer", "minimum": low, "maximum": high}
    elif isinstance(field, models.DateTimeField):
        schema = {"type": "string", "format": "date-time", "maxLength": 40}
    elif isinstance(field, models.CharField):
        schema = {"type": "string", "maxLength": field.max_length}
        patterns = [
            str(getattr(v.regex, "pattern", v.regex)) for v in field.validators if isinstance(v, RegexValidator)
        ]
        if patterns:
            schema["pattern"] = patterns[-1]  # the model's own, after Django's generic slug check
    else:
        schema = {}
    if field.choices:
        schema = {"title": str(field.verbose_name), "enum": [value for value, _ in field.flatchoices]}
    schema.update(override)
    if null if null is not None else field.null or (bool(field.choices) and field.blank):
        schema = nullable(schema)
    return schema


def reference(model: type[models.Model], name: str, *, null: bool = False) -> dict[str, Any]:
    """A reference to another record by its key in the document (checked by the semantic pass)."""
    schema = column(model, name, null=False)
    schema.pop("title", None)
    return nullable(schema) if null else schema


def record_id(*, null: bool = False) -> dict[str, Any]:
    schema = {"type": "integer", "minimum": -(2**63), "maximum": 2**63 - 1}
    return nullable(schema) if null else schema


def record(properties: dict[str, dict[str, Any]], *, optional: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": [name for name in properties if name not in optional],
        "additionalProperties": False,
    }


def username() -> dict[str, Any]:
    return {"type": ["string", "null"], "maxLength": USERNAME_MAX_LENGTH}


def list_of(name: str, record: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "maxItems": MAX_RECORDS[name], "items": record}


def nation_ref() -> dict[str, Any]:
    return reference(Nation, "code")


def zone_ref(*, null: bool = False) -> dict[str, Any]:
    return reference(SeaZone, "key", null=null)


def port_ref(*, null: bool = False) -> dict[str, Any]:
    return reference(Port, "key", null=null)


def turn_ref() -> dict[str, Any]:
    return reference(Turn, "number")
