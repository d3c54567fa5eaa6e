"""The JSON Schema of the campaign document, generated from the models and the ruleset.

Every type, bound, length and enum comes from the code that stores the value (the model field:
its ``TextChoices``, its integer column's range, its ``max_length`` and pattern) or from the
ruleset's settings, so the published schema cannot drift from what the database accepts. The file
``campaign-document.schema.json`` beside this module is this function's output; a test keeps them
equal, and ``manage.py export_campaign --schema`` prints it afresh.

The building blocks (one field's schema, a record, a reference by key) are in
:mod:`campaign.backup.schemas.fields`; this module assembles the document from them, part by part.

What a schema cannot say — references between records, unique ids, the ledger adding up to the
treasury — is checked in Python by :mod:`campaign.backup.schemas.checks`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from battles.models import Battle
from campaign.audit import ACTION_PATTERN, REASON_MAX
from campaign.backup.schemas.fields import (
    MAX_ADJACENT,
    MAX_RECORDS,
    column,
    list_of,
    nation_ref,
    nullable,
    port_ref,
    record,
    record_id,
    turn_ref,
    username,
    zone_ref,
)
from campaign.backup.schemas.play_records import dispatch_records, reseeds_schema, table_records
from campaign.models import (
    DISPATCH_OPTIONS,
    AuditEntry,
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


def _world_records() -> dict[str, dict[str, Any]]:
    """The campaign row, its ruleset, its nations and their relations."""
    return {
        "campaign": record(
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
                "show_readiness": column(Campaign, "show_readiness"),
                # Bounds as the fields' validators and the campaign's check constraints keep them.
                "press": column(Campaign, "press"),
                "anonymous_press": column(Campaign, "anonymous_press"),
                "gm_reads_dispatches": column(Campaign, "gm_reads_dispatches"),
                "dispatch_delay_zones": column(Campaign, "dispatch_delay_zones", maximum=99),
                "dispatch_max_length": column(Campaign, "dispatch_max_length", minimum=1, maximum=10000),
                "dispatches_per_hour": column(Campaign, "dispatches_per_hour", minimum=1, maximum=1000),
                # Informational only: import never gives anyone a role from the file.
                "gm": username(),
            },
            optional=("scenario", "last_turn", "show_readiness", *DISPATCH_OPTIONS, "gm"),
        ),
        "ruleset": {
            "type": "object",
            "properties": {s.key: {"type": "integer", "minimum": s.minimum, "maximum": s.maximum} for s in SETTINGS},
            "additionalProperties": False,
        },
        "nations": list_of(
            "nations",
            record(
                {
                    "code": column(Nation, "code"),
                    "name": column(Nation, "name", minLength=1),
                    "navy": column(Nation, "navy"),
                    "treasury": column(Nation, "treasury", minimum=0),  # nation_treasury_never_negative
                    "player": username(),
                    "base_income": column(Nation, "base_income", minimum=0),
                    "crew": column(Nation, "crew"),
                    "color": column(Nation, "color", pattern="^#[0-9a-fA-F]{6}$"),
                    "unpaid_upkeep_turn": column(Nation, "unpaid_upkeep_turn"),
                    "capital": port_ref(),
                },
                optional=("player", "unpaid_upkeep_turn", "capital"),
            ),
        ),
        "relations": list_of(
            "relations", record({"a": nation_ref(), "b": nation_ref(), "state": column(Relation, "state")})
        ),
    }


def _lon_lat(model: type[SeaZone] | type[Port]) -> dict[str, dict[str, Any]]:
    """Coordinates in degrees, optional (documents from before them have none); the ranges are the
    model's check constraints."""
    return {
        "lon": column(model, "lon", null=False, type="number", minimum=-180, maximum=180),
        "lat": column(model, "lat", null=False, type="number", minimum=-90, maximum=90),
    }


#: A place has both coordinates or neither (the models' check constraint, said before the database).
_LON_LAT_PAIRED: dict[str, Any] = {"dependentRequired": {"lon": ["lat"], "lat": ["lon"]}}


def _map_records() -> dict[str, dict[str, Any]]:
    """The map: sea zones and ports."""
    return {
        "sea_zones": list_of(
            "sea_zones",
            record(
                {
                    "key": column(SeaZone, "key"),
                    "name": column(SeaZone, "name", minLength=1),
                    "type": column(SeaZone, "type"),
                    "x": column(SeaZone, "x"),
                    "y": column(SeaZone, "y"),
                    **_lon_lat(SeaZone),
                    "adjacent": {"type": "array", "maxItems": MAX_ADJACENT, "uniqueItems": True, "items": zone_ref()},
                },
                optional=("lon", "lat"),
            )
            | _LON_LAT_PAIRED,
        ),
        "ports": list_of(
            "ports",
            record(
                {
                    "key": column(Port, "key"),
                    "name": column(Port, "name", minLength=1),
                    "sea_zone": zone_ref(),
                    "owner": nation_ref(),
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
                    **_lon_lat(Port),
                    "taken_turn": column(Port, "taken_turn"),
                    "captor": nullable(nation_ref()),
                    "siege_turns": column(Port, "siege_turns"),
                },
                optional=("lon", "lat"),
            )
            | _LON_LAT_PAIRED,
        ),
    }


def _force_records() -> dict[str, dict[str, Any]]:
    """Land units and admirals."""
    return {
        "land_units": list_of(
            "land_units",
            record(
                {
                    "id": record_id(),
                    "nation": nation_ref(),
                    "siege_train": column(LandUnit, "siege_train"),
                    "state": column(LandUnit, "state"),
                    "port": port_ref(null=True),
                    "transport": record_id(null=True),
                    "out_of_supply_turns": column(LandUnit, "out_of_supply_turns"),
                    "raised_turn": column(LandUnit, "raised_turn"),
                }
            ),
        ),
        "admirals": list_of(
            "admirals",
            record(
                {
                    "name": column(Admiral, "name", minLength=1),
                    "nation": nation_ref(),
                    "grade": column(Admiral, "grade"),
                    "status": column(Admiral, "status"),
                    "port": port_ref(null=True),
                    "fleet": record_id(null=True),
                }
            ),
        ),
    }


def _fleet_records() -> dict[str, dict[str, Any]]:
    """Fleets and their ships."""
    return {
        "fleets": list_of(
            "fleets",
            record(
                {
                    "id": record_id(),
                    "name": column(Fleet, "name", minLength=1),
                    "nation": nation_ref(),
                    # Informational: the admiral's own record says which fleet it commands.
                    "admiral": {
                        "type": ["object", "null"],
                        "properties": {"name": column(Admiral, "name"), "grade": column(Admiral, "grade")},
                        "additionalProperties": False,
                    },
                    "sea_zone": zone_ref(),
                    "port": port_ref(null=True),
                    "crew": column(Fleet, "crew"),
                    "posture": column(Fleet, "posture"),
                    "blockade_port": port_ref(null=True),
                    "after_battle": column(Fleet, "after_battle"),
                    "retreat_port": port_ref(null=True),
                    "retreat_zone": zone_ref(null=True),
                    "left_port_turn": column(Fleet, "left_port_turn"),
                    "in_supply": column(Fleet, "in_supply"),
                    "out_of_supply_turns": column(Fleet, "out_of_supply_turns"),
                    "created_turn": column(Fleet, "created_turn"),
                }
            ),
        ),
        "ships": list_of(
            "ships",
            record(
                {
                    "id": record_id(),
                    "name": column(Ship, "name", minLength=1),
                    "class": column(Ship, "ship_class"),
                    "nation": nation_ref(),
                    "original_nation": nation_ref(),
                    "captured": {"type": "boolean"},  # derived from the two nations on export
                    "condition": column(Ship, "condition"),
                    "in_ordinary": column(Ship, "in_ordinary"),
                    "crew": column(Ship, "crew"),
                    "fleet": record_id(null=True),
                    "building_turns_left": column(Ship, "building_turns_left"),
                    "building_port": port_ref(null=True),
                    "line_position": column(Ship, "line_position"),
                    "repair_port": port_ref(null=True),
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
        "ledger": list_of(
            "ledger",
            record(
                {
                    "nation": nation_ref(),
                    "turn": column(LedgerEntry, "turn"),
                    "kind": column(LedgerEntry, "kind"),
                    "amount": {**column(LedgerEntry, "amount"), "not": {"const": 0}},  # ledger_no_zero_lines
                    "reason": column(LedgerEntry, "reason", minLength=1),
                    "balance": column(LedgerEntry, "balance", minimum=0),  # ledger_balance_never_negative
                    "unpaid": column(LedgerEntry, "unpaid"),
                }
            ),
        ),
        "turns": list_of(
            "turns",
            record(
                {
                    "number": column(Turn, "number", minimum=1),
                    "year": column(Turn, "year"),
                    "season": column(Turn, "season"),
                    "deadline": column(Turn, "deadline"),
                    "status": column(Turn, "status"),
                    "resolved_at": column(Turn, "resolved_at"),
                    "paused_at": column(Turn, "paused_at"),
                    "dice_log": {"type": "array"},
                    "reseeds": reseeds_schema(),
                },
                optional=("reseeds",),
            ),
        ),
    }


def _order_records() -> dict[str, dict[str, Any]]:
    """Orders, diplomatic offers, readiness and the phases done, per turn."""
    return {
        "orders": list_of(
            "orders",
            record(
                {
                    "turn": turn_ref(),
                    "nation": nation_ref(),
                    "position": column(Order, "position"),
                    "kind": column(Order, "kind"),
                    "body": {"type": "object"},
                    "fleet": record_id(null=True),
                    "outcome": column(Order, "outcome"),
                    "outcome_note": column(Order, "outcome_note"),
                    # An order a GM entered after the deadline (issue 26): both keys, or neither.
                    "late_by": column(Order, "late_by", minLength=1),
                    "late_reason": column(Order, "late_reason", minLength=1),
                },
                optional=("late_by", "late_reason"),
            )
            | {"dependentRequired": {"late_by": ["late_reason"], "late_reason": ["late_by"]}},
        ),
        "offers": list_of(
            "offers",
            record(
                {
                    "from": nation_ref(),
                    "to": nation_ref(),
                    "kind": column(DiplomaticOffer, "kind"),
                    "turn": column(DiplomaticOffer, "turn"),
                }
            ),
        ),
        "nation_turns": list_of(
            "nation_turns",
            record(
                {
                    "turn": turn_ref(),
                    "nation": nation_ref(),
                    "ready": column(NationTurn, "ready"),
                    "submitted_at": column(NationTurn, "submitted_at"),
                }
            ),
        ),
        "phases": list_of(
            "phases",
            record(
                {
                    "turn": turn_ref(),
                    "phase": column(TurnPhase, "phase", minimum=1, maximum=10),  # turnphase_in_range
                    "summary": {"type": "object"},
                }
            ),
        ),
    }


def _report_records() -> dict[str, dict[str, Any]]:
    """Turn reports, blockades and battles."""
    return {
        "reports": list_of(
            "reports",
            record(
                {
                    "turn": turn_ref(),
                    "nation": nation_ref(),
                    "body": {"type": "object"},
                    "emailed_at": column(TurnReport, "emailed_at"),
                }
            ),
        ),
        "blockades": list_of(
            "blockades",
            record(
                {
                    "turn": column(Blockade, "turn"),
                    "port": port_ref(),
                    "fleet": record_id(),
                    "lifted": column(Blockade, "lifted"),
                }
            ),
        ),
        "battles": list_of(
            "battles",
            record(
                {
                    "id": record_id(),
                    "turn": turn_ref(),
                    "sea_zone": zone_ref(),
                    "port": port_ref(null=True),
                    "type": column(Battle, "kind"),
                    "place": column(Battle, "place"),
                    "sequence": column(Battle, "sequence"),
                    "seed": column(Battle, "seed"),
                    "winner": {"enum": [0, 1, None]},  # battle_winner_is_a_side
                    "sides": {"type": "array"},
                    "report": {"type": "object"},
                    # Who may see the battle, fixed when it was fought; older files lack it, and
                    # the nations of its sides see it then.
                    "seen_by": {"type": "array", "items": nation_ref(), "uniqueItems": True},
                },
                optional=("seen_by",),
            ),
        ),
    }


def _audit_records() -> dict[str, dict[str, Any]]:
    """The GM's audit log (issue 11); restored as a record of names and times, linked to no account."""
    return {
        "audit": list_of(
            "audit",
            record(
                {
                    "at": column(AuditEntry, "created_at"),
                    "actor": column(AuditEntry, "actor_name", minLength=1),
                    "turn": column(AuditEntry, "turn"),
                    "action": column(AuditEntry, "action", pattern=ACTION_PATTERN.pattern),
                    "summary": column(AuditEntry, "summary", minLength=1),  # audit_summary_not_empty
                    "before": {"type": ["object", "null"]},
                    "after": {"type": ["object", "null"]},
                    "reason": {"type": "string", "maxLength": REASON_MAX},
                }
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
        **_audit_records(),
        **dispatch_records(),
        **table_records(),
        # The state as each turn opened: each one a campaign document without snapshots of its own.
        "snapshots": {
            "type": "object",
            "propertyNames": {"pattern": "^[1-9][0-9]{0,9}$"},
            "additionalProperties": {"$ref": "#"},
        },
    }
    optional: tuple[str, ...] = ("orders", "offers", "nation_turns", "phases", "reports", "blockades", "snapshots")
    optional += ("audit", "conversations", "dispatch_mutes", "table_battles")  # "conversations" on: issues 15, 16
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Admiralty campaign document",
        "description": (
            "A campaign's full state as export_campaign writes it and import_campaign reads it. Ids are "
            "references inside the document only; import gives new ones and assigns no roles from it. "
            "Sections added since the first version (dispatches, table battles, a turn's re-fight seeds) "
            "may be absent from older files: absent reads as none."
        ),
        **record(properties, optional=optional),
    }


def campaign_document_schema_text() -> str:
    """The schema file's exact text."""
    return json.dumps(campaign_document_schema(), ensure_ascii=False, indent=1) + "\n"
