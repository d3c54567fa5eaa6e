"""The JSON Schema of the campaign document, generated from the models and the ruleset.

Every type, bound, length and enum comes from the code that stores the value (the model field:
its ``TextChoices``, its integer column's range, its ``max_length`` and pattern) or from the
ruleset's settings, so the published schema cannot drift from what the database accepts. The file
``campaign-document.schema.json`` beside this module is this function's output; a test keeps them
equal, and ``manage.py export_campaign --schema`` prints it afresh.

What a schema cannot say — references between records, unique ids, the ledger adding up to the
treasury — is checked in Python by :mod:`campaign.schemas.checks`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.validators import RegexValidator
from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations

from battles.models import Battle
from campaign.models import (
    Campaign,
    DiplomaticOffer,
    LedgerEntry,
    Nation,
    NationTurn,
    Order,
    Relation,
    Turn,
    TurnPhase,
    TurnReport,
)
from fleets.models import Admiral, Blockade, Fleet, Ship
from ports.models import LandUnit, Port, SeaZone
from rules.ruleset import SETTINGS

SCHEMA_FILE = Path(__file__).resolve().parent / "campaign-document.schema.json"
SCHEMA_ID = "https://admiralty.example.org/schemas/campaign-document.json"
FORMAT_VERSION = 1

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
}
MAX_ADJACENT = 64
USERNAME_MAX_LENGTH = 150


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
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
        schema = _nullable(schema)
    return schema


def _reference(model: type[models.Model], name: str, *, null: bool = False) -> dict[str, Any]:
    """A reference to another record by its key in the document (checked by the semantic pass)."""
    schema = column(model, name, null=False)
    schema.pop("title", None)
    return _nullable(schema) if null else schema


def _record_id(*, null: bool = False) -> dict[str, Any]:
    schema = {"type": "integer", "minimum": -(2**63), "maximum": 2**63 - 1}
    return _nullable(schema) if null else schema


def _record(properties: dict[str, dict[str, Any]], *, optional: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": [name for name in properties if name not in optional],
        "additionalProperties": False,
    }


def _username() -> dict[str, Any]:
    return {"type": ["string", "null"], "maxLength": USERNAME_MAX_LENGTH}


def _list_of(name: str, record: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "maxItems": MAX_RECORDS[name], "items": record}


def _nation() -> dict[str, Any]:
    return _reference(Nation, "code")


def _zone(*, null: bool = False) -> dict[str, Any]:
    return _reference(SeaZone, "key", null=null)


def _port(*, null: bool = False) -> dict[str, Any]:
    return _reference(Port, "key", null=null)


def _turn() -> dict[str, Any]:
    return _reference(Turn, "number")


def _world_records() -> dict[str, dict[str, Any]]:
    """The campaign row, its ruleset, its nations and their relations."""
    return {
        "campaign": _record(
            {
                "slug": column(Campaign, "slug"),
                "name": column(Campaign, "name", minLength=1),
                "scenario": column(Campaign, "scenario"),
                "start_year": column(Campaign, "start_year"),
                "year": column(Campaign, "year"),
                "season": column(Campaign, "season"),
                "turn": column(Campaign, "turn_number"),
                "status": column(Campaign, "status"),
                "seed": column(Campaign, "seed", minimum=0),  # campaign_seed_non_negative
                "last_turn": column(Campaign, "last_turn"),
                # Informational only: import never gives anyone a role from the file.
                "gm": _username(),
            },
            optional=("scenario", "last_turn", "gm"),
        ),
        "ruleset": {
            "type": "object",
            "properties": {s.key: {"type": "integer", "minimum": s.minimum, "maximum": s.maximum} for s in SETTINGS},
            "additionalProperties": False,
        },
        "nations": _list_of(
            "nations",
            _record(
                {
                    "code": column(Nation, "code"),
                    "name": column(Nation, "name", minLength=1),
                    "navy": column(Nation, "navy"),
                    "treasury": column(Nation, "treasury", minimum=0),  # nation_treasury_never_negative
                    "player": _username(),
                    "base_income": column(Nation, "base_income", minimum=0),
                    "crew": column(Nation, "crew"),
                    "color": column(Nation, "color", pattern="^#[0-9a-fA-F]{6}$"),
                    "unpaid_upkeep_turn": column(Nation, "unpaid_upkeep_turn"),
                },
                optional=("player", "unpaid_upkeep_turn"),
            ),
        ),
        "relations": _list_of(
            "relations", _record({"a": _nation(), "b": _nation(), "state": column(Relation, "state")})
        ),
    }


def _map_records() -> dict[str, dict[str, Any]]:
    """The map: sea zones and ports."""
    return {
        "sea_zones": _list_of(
            "sea_zones",
            _record(
                {
                    "key": column(SeaZone, "key"),
                    "name": column(SeaZone, "name", minLength=1),
                    "type": column(SeaZone, "type"),
                    "x": column(SeaZone, "x"),
                    "y": column(SeaZone, "y"),
                    "adjacent": {"type": "array", "maxItems": MAX_ADJACENT, "uniqueItems": True, "items": _zone()},
                }
            ),
        ),
        "ports": _list_of(
            "ports",
            _record(
                {
                    "key": column(Port, "key"),
                    "name": column(Port, "name", minLength=1),
                    "sea_zone": _zone(),
                    "owner": _nation(),
                    "fortification": column(Port, "fortification"),
                    "capacity": column(Port, "capacity"),
                    "ep_value": column(Port, "ep_value"),
                    "dockyard": column(Port, "dockyard"),
                    "gibraltar": column(Port, "gibraltar"),
                    # Derived from the land units on export; import counts them itself.
                    "garrison": {"type": "integer", "minimum": 0, "maximum": MAX_RECORDS["land_units"]},
                    "batteries": column(Port, "batteries"),
                    "commander": column(Port, "commander"),
                    "x": column(Port, "x"),
                    "y": column(Port, "y"),
                    "taken_turn": column(Port, "taken_turn"),
                    "captor": _nullable(_nation()),
                    "siege_turns": column(Port, "siege_turns"),
                }
            ),
        ),
    }


def _force_records() -> dict[str, dict[str, Any]]:
    """Land units and admirals."""
    return {
        "land_units": _list_of(
            "land_units",
            _record(
                {
                    "id": _record_id(),
                    "nation": _nation(),
                    "siege_train": column(LandUnit, "siege_train"),
                    "state": column(LandUnit, "state"),
                    "port": _port(null=True),
                    "transport": _record_id(null=True),
                    "out_of_supply_turns": column(LandUnit, "out_of_supply_turns"),
                    "raised_turn": column(LandUnit, "raised_turn"),
                }
            ),
        ),
        "admirals": _list_of(
            "admirals",
            _record(
                {
                    "name": column(Admiral, "name", minLength=1),
                    "nation": _nation(),
                    "grade": column(Admiral, "grade"),
                    "status": column(Admiral, "status"),
                    "port": _port(null=True),
                    "fleet": _record_id(null=True),
                }
            ),
        ),
    }


def _fleet_records() -> dict[str, dict[str, Any]]:
    """Fleets and their ships."""
    return {
        "fleets": _list_of(
            "fleets",
            _record(
                {
                    "id": _record_id(),
                    "name": column(Fleet, "name", minLength=1),
                    "nation": _nation(),
                    # Informational: the admiral's own record says which fleet it commands.
                    "admiral": {
                        "type": ["object", "null"],
                        "properties": {"name": column(Admiral, "name"), "grade": column(Admiral, "grade")},
                        "additionalProperties": False,
                    },
                    "sea_zone": _zone(),
                    "port": _port(null=True),
                    "crew": column(Fleet, "crew"),
                    "posture": column(Fleet, "posture"),
                    "blockade_port": _port(null=True),
                    "after_battle": column(Fleet, "after_battle"),
                    "retreat_port": _port(null=True),
                    "retreat_zone": _zone(null=True),
                    "left_port_turn": column(Fleet, "left_port_turn"),
                    "in_supply": column(Fleet, "in_supply"),
                    "out_of_supply_turns": column(Fleet, "out_of_supply_turns"),
                    "created_turn": column(Fleet, "created_turn"),
                }
            ),
        ),
        "ships": _list_of(
            "ships",
            _record(
                {
                    "id": _record_id(),
                    "name": column(Ship, "name", minLength=1),
                    "class": column(Ship, "ship_class"),
                    "nation": _nation(),
                    "original_nation": _nation(),
                    "captured": {"type": "boolean"},  # derived from the two nations on export
                    "condition": column(Ship, "condition"),
                    "in_ordinary": column(Ship, "in_ordinary"),
                    "crew": column(Ship, "crew"),
                    "fleet": _record_id(null=True),
                    "building_turns_left": column(Ship, "building_turns_left"),
                    "building_port": _port(null=True),
                    "line_position": column(Ship, "line_position"),
                    "repair_port": _port(null=True),
                    "repair_ready_turn": column(Ship, "repair_ready_turn"),
                    "laid_down_turn": column(Ship, "laid_down_turn"),
                    "lost_turn": column(Ship, "lost_turn"),
                    "source": column(Ship, "source"),
                },
                optional=("captured", "repair_port", "repair_ready_turn"),
            ),
        ),
    }


def _history_records() -> dict[str, dict[str, Any]]:
    """The ledger and the turns."""
    return {
        "ledger": _list_of(
            "ledger",
            _record(
                {
                    "nation": _nation(),
                    "turn": column(LedgerEntry, "turn"),
                    "kind": column(LedgerEntry, "kind"),
                    "amount": {**column(LedgerEntry, "amount"), "not": {"const": 0}},  # ledger_no_zero_lines
                    "reason": column(LedgerEntry, "reason", minLength=1),
                    "balance": column(LedgerEntry, "balance", minimum=0),  # ledger_balance_never_negative
                    "unpaid": column(LedgerEntry, "unpaid"),
                }
            ),
        ),
        "turns": _list_of(
            "turns",
            _record(
                {
                    "number": column(Turn, "number", minimum=1),
                    "year": column(Turn, "year"),
                    "season": column(Turn, "season"),
                    "deadline": column(Turn, "deadline"),
                    "status": column(Turn, "status"),
                    "resolved_at": column(Turn, "resolved_at"),
                    "paused_at": column(Turn, "paused_at"),
                    "dice_log": {"type": "array"},
                }
            ),
        ),
    }


def _order_records() -> dict[str, dict[str, Any]]:
    """Orders, diplomatic offers, readiness and the phases done, per turn."""
    return {
        "orders": _list_of(
            "orders",
            _record(
                {
                    "turn": _turn(),
                    "nation": _nation(),
                    "position": column(Order, "position"),
                    "kind": column(Order, "kind"),
                    "body": {"type": "object"},
                    "fleet": _record_id(null=True),
                    "outcome": column(Order, "outcome"),
                    "outcome_note": column(Order, "outcome_note"),
                }
            ),
        ),
        "offers": _list_of(
            "offers",
            _record(
                {
                    "from": _nation(),
                    "to": _nation(),
                    "kind": column(DiplomaticOffer, "kind"),
                    "turn": column(DiplomaticOffer, "turn"),
                }
            ),
        ),
        "nation_turns": _list_of(
            "nation_turns",
            _record(
                {
                    "turn": _turn(),
                    "nation": _nation(),
                    "ready": column(NationTurn, "ready"),
                    "submitted_at": column(NationTurn, "submitted_at"),
                }
            ),
        ),
        "phases": _list_of(
            "phases",
            _record(
                {
                    "turn": _turn(),
                    "phase": column(TurnPhase, "phase", minimum=1, maximum=10),  # turnphase_in_range
                    "summary": {"type": "object"},
                }
            ),
        ),
    }


def _report_records() -> dict[str, dict[str, Any]]:
    """Turn reports, blockades and battles."""
    return {
        "reports": _list_of(
            "reports",
            _record(
                {
                    "turn": _turn(),
                    "nation": _nation(),
                    "body": {"type": "object"},
                    "emailed_at": column(TurnReport, "emailed_at"),
                }
            ),
        ),
        "blockades": _list_of(
            "blockades",
            _record(
                {
                    "turn": column(Blockade, "turn"),
                    "port": _port(),
                    "fleet": _record_id(),
                    "lifted": column(Blockade, "lifted"),
                }
            ),
        ),
        "battles": _list_of(
            "battles",
            _record(
                {
                    "id": _record_id(),
                    "turn": _turn(),
                    "sea_zone": _zone(),
                    "port": _port(null=True),
                    "type": column(Battle, "kind"),
                    "place": column(Battle, "place"),
                    "sequence": column(Battle, "sequence"),
                    "seed": column(Battle, "seed"),
                    "winner": {"enum": [0, 1, None]},  # battle_winner_is_a_side
                    "sides": {"type": "array"},
                    "report": {"type": "object"},
                    # Who may see the battle, fixed when it was fought; older files lack it, and
                    # the nations of its sides see it then.
                    "seen_by": {"type": "array", "items": _nation(), "uniqueItems": True},
                },
                optional=("seen_by",),
            ),
        ),
    }


def campaign_document_schema() -> dict[str, Any]:
    """The schema as a JSON-ready dict (draft 2020-12); ``SCHEMA_FILE`` holds the same."""
    properties: dict[str, Any] = {
        "format": {"const": FORMAT_VERSION},
        **_world_records(),
        **_map_records(),
        **_force_records(),
        **_fleet_records(),
        **_history_records(),
        **_order_records(),
        **_report_records(),
        # The state as each turn opened: each one a campaign document without snapshots of its own.
        "snapshots": {
            "type": "object",
            "propertyNames": {"pattern": "^[1-9][0-9]{0,9}$"},
            "additionalProperties": {"$ref": "#"},
        },
    }
    optional = ("orders", "offers", "nation_turns", "phases", "reports", "blockades", "snapshots")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Admiralty campaign document",
        "description": (
            "A campaign's full state as export_campaign writes it and import_campaign reads it. Ids are "
            "references inside the document only; import gives new ones and assigns no roles from it."
        ),
        **_record(properties, optional=optional),
    }


def campaign_document_schema_text() -> str:
    """The schema file's exact text."""
    return json.dumps(campaign_document_schema(), ensure_ascii=False, indent=1) + "\n"
