"""The campaign document's records of what players and GMs do beside the orders: dispatches
(issue 16), battles on the table (issue 15) and a turn's re-fight seeds (issue 11).

Assembled into the document by :mod:`campaign.backup.schemas.campaign_document`; their joins (references,
uniqueness, the models' constraints between fields) are checked by :mod:`campaign.backup.schemas.play_checks`.
Every top-level section here is optional: a file written before it existed has none, and reads as
none — each section's ``description`` says so.
"""

from __future__ import annotations

from typing import Any

from battles.engagements.table import FATES, TAKEN_IN
from battles.models import Engagement, TabletopBattle
from campaign.backup.schemas.fields import (
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
from campaign.models import Conversation, Dispatch, DispatchCopy, DispatchMute, DispatchReport, DispatchRevision
from fleets.models import Admiral

#: The longest dispatch any campaign allows (the campaign's ``dispatch_max_length`` check constraint).
DISPATCH_BODY_MAX = 10000

#: A re-fight's key (rules.dice.reseed_key): "4:place:sequence" for a fleet action, "5:port" for a port.
RESEED_KEY_PATTERN = "^(4:[a-z0-9_-]{1,49}:[1-9][0-9]{0,4}|5:[a-z0-9_-]{1,49})$"

_ABSENT = " Absent from files written before {what}: read as none."


def reseeds_schema() -> dict[str, Any]:
    """A turn's re-fight seeds: the new seed of each re-fought battle, by its key."""
    return {
        "type": "object",
        "description": "Seeds a GM gave to re-fight battles of this turn." + _ABSENT.format(what="re-fights"),
        "maxProperties": 1000,
        "propertyNames": {"pattern": RESEED_KEY_PATTERN},
        "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1},
    }


def _text(model: type[Any], name: str, maximum: int) -> dict[str, Any]:
    return column(model, name, type="string", maxLength=maximum)


def _dispatch() -> dict[str, Any]:
    """One dispatch with its copies (who receives it, when), earlier texts and the reports of it."""
    return record(
        {
            "sender": nullable(nation_ref()),  # null: The Admiralty (the GM)
            "author": username(),
            "body": _text(Dispatch, "body", DISPATCH_BODY_MAX),
            "turn": column(Dispatch, "turn"),
            "year": column(Dispatch, "year"),
            "season": column(Dispatch, "season"),
            "anonymous": column(Dispatch, "anonymous"),
            "sent_at": column(Dispatch, "sent_at"),
            "edited_at": column(Dispatch, "edited_at"),
            "hidden_at": column(Dispatch, "hidden_at"),
            "hidden_by": username(),
            "hidden_reason": column(Dispatch, "hidden_reason"),
            "reported_at": column(Dispatch, "reported_at"),
            "copies": list_of(
                "dispatch_copies",
                record(
                    {
                        "nation": nation_ref(),
                        "arrives_turn": column(DispatchCopy, "arrives_turn"),
                        "arrived_at": column(DispatchCopy, "arrived_at"),
                        "read_at": column(DispatchCopy, "read_at"),
                    }
                ),
            ),
            "revisions": list_of(
                "dispatch_revisions",
                record(
                    {
                        "body": _text(DispatchRevision, "body", DISPATCH_BODY_MAX),
                        "replaced_at": column(DispatchRevision, "replaced_at"),
                    }
                ),
            ),
            "reports": list_of(
                "dispatch_reports",
                record(
                    {
                        "nation": nation_ref(),
                        "reporter": username(),
                        "reason": column(DispatchReport, "reason"),
                        "created_at": column(DispatchReport, "created_at"),
                    }
                ),
            ),
        }
    )


def dispatch_records() -> dict[str, dict[str, Any]]:
    """The conversations (each with its dispatches) and the GM's mutes."""
    conversations = list_of(
        "conversations",
        record(
            {
                "id": record_id(),
                "kind": column(Conversation, "kind"),
                "subject": column(Conversation, "subject", minLength=1),
                "nations": {
                    "type": "array",
                    "maxItems": MAX_RECORDS["nations"],
                    "uniqueItems": True,
                    "items": nation_ref(),
                },
                "starter": nullable(nation_ref()),
                "admiralty": column(Conversation, "admiralty"),
                "anonymous": column(Conversation, "anonymous"),
                "started_at": column(Conversation, "started_at"),
                "last_at": column(Conversation, "last_at"),
                "dispatches": list_of("conversation_dispatches", _dispatch()),
            }
        ),
    )
    mutes = list_of(
        "dispatch_mutes",
        record(
            {
                "nation": nation_ref(),
                "from_turn": column(DispatchMute, "from_turn"),
                "until_turn": column(DispatchMute, "until_turn"),
                "reason": column(DispatchMute, "reason", minLength=1),  # dispatch_mute_has_reason
                "muted_by": username(),
                "created_at": column(DispatchMute, "created_at"),
                "lifted_at": column(DispatchMute, "lifted_at"),
                "lifted_by": username(),
            },
            optional=("lifted_at", "lifted_by"),
        ),
    )
    return {
        "conversations": {
            **conversations,
            "description": "The players' dispatches, by conversation (issue 16)." + _ABSENT.format(what="dispatches"),
        },
        "dispatch_mutes": {
            **mutes,
            "description": "The GM's silencing of a nation's dispatches." + _ABSENT.format(what="dispatches"),
        },
    }


def _engagement() -> dict[str, Any]:
    """The fight phase 4 held back for the table; null before the turn resolved."""
    schema = record(
        {
            "sea_zone": zone_ref(),
            "port": port_ref(null=True),
            "place": column(Engagement, "place"),
            "sequence": column(Engagement, "sequence"),
            "kind": column(Engagement, "kind"),
            "step": column(Engagement, "step"),
            "sides": {"type": "array", "maxItems": 2},
            "interceptor": {"enum": [0, 1, None]},  # engagement_interceptor_is_a_side
            "context": {"type": "object"},
            "status": column(Engagement, "status"),
            "dispatched_at": column(Engagement, "dispatched_at"),
            "fought_at": column(Engagement, "fought_at"),
            "fought_by": column(Engagement, "fought_by"),
            "battle": record_id(null=True),
            "result": {"type": "object"},
        }
    )
    return {**schema, "type": ["object", "null"]}


def _entered_result() -> dict[str, Any]:
    """A result as the group entered it: each ship's fate, the admirals lost (by name), who held the
    field; empty until one is entered."""
    ship = record(
        {
            "ship": record_id(),
            "fate": {"title": "fate", "enum": list(FATES)},
            "captured_by": nullable(nation_ref()),
            "taken_in": {"title": "condition of a prize", "enum": [*TAKEN_IN, None]},
        },
        optional=("captured_by", "taken_in"),
    )
    return record(
        {
            "ships": {"type": "array", "maxItems": MAX_RECORDS["ships"], "items": ship},
            "admirals_lost": {"type": "array", "uniqueItems": True, "items": column(Admiral, "name")},
            "held_field": {"enum": [0, 1, None]},
        },
        optional=("ships", "admirals_lost", "held_field"),
    )


def _entered_storming() -> dict[str, Any]:
    """A storming's result as the group entered it: the garrison's units lost, each besieging nation's
    (by code), and whether the port was taken; empty until one is entered."""
    count = {"type": "integer", "minimum": 0, "maximum": 10_000}
    return record(
        {
            "garrison_lost": count,
            "besiegers_lost": {"type": "object", "propertyNames": nation_ref(), "additionalProperties": count},
            "port_taken": {"type": "boolean"},
        },
        optional=("garrison_lost", "besiegers_lost", "port_taken"),
    )


def table_records() -> dict[str, dict[str, Any]]:
    """The battles marked for the table, asked for, or held there, with what the group entered."""
    table = list_of(
        "table_battles",
        record(
            {
                "turn": turn_ref(),
                "kind": column(TabletopBattle, "kind"),
                "place": column(TabletopBattle, "place"),
                "sea_zone": zone_ref(),
                "port": port_ref(null=True),
                "origin": column(TabletopBattle, "origin"),
                "requested_by": nullable(nation_ref()),
                "status": column(TabletopBattle, "status"),
                "engagement": _engagement(),
                "result": {"type": "object"},  # its shape by kind: below
                "entered_by": column(TabletopBattle, "entered_by"),
                "confirmed": {"type": "array", "maxItems": 2, "uniqueItems": True, "items": {"enum": [0, 1]}},
                "dispute": _text(TabletopBattle, "dispute", 2000),
                "pack": {"type": "object"},
                "note": column(TabletopBattle, "note"),
                "record": column(TabletopBattle, "record", type="string"),
                "approved_at": column(TabletopBattle, "approved_at"),
                "history": {
                    "type": "array",
                    "items": {"type": "object"},
                    "description": "Who entered, confirmed, disputed the result and what the GM decided.",
                },
                "posts": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["author", "side", "body", "at"],
                        "additionalProperties": False,
                        "properties": {
                            "author": {"type": "string", "minLength": 1, "maxLength": 150},
                            "side": {"enum": [0, 1, None]},
                            "body": {"type": "string", "minLength": 1, "maxLength": 2000},
                            "at": {"type": "string", "format": "date-time"},
                        },
                    },
                    "description": "The battle's thread, oldest first.",
                },
            },
            # kind: written since stormings went to the table (absent: a battle); record and
            # approved_at since approved packs are kept (issue 29; absent: none kept); history and
            # posts since the result's record and the thread are kept (absent: none).
            optional=("kind", "record", "approved_at", "history", "posts"),
        ),
    )
    # A storming's result has its own shape; the schema picks it by kind, so that an error names the
    # field inside the result rather than the result as a whole.
    table["items"] = {
        **table["items"],
        "if": {"properties": {"kind": {"const": "storming"}}, "required": ["kind"]},
        "then": {"properties": {"result": _entered_storming()}},
        "else": {"properties": {"result": _entered_result()}},
    }
    return {
        "table_battles": {
            **table,
            "description": "Battles sent to the table (issue 15)." + _ABSENT.format(what="table battles"),
        }
    }
