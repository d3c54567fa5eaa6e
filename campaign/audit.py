"""The GM's audit log: writing an entry (the one service) and reading a campaign's entries (selectors).

Every GM action — the admin's actions and pages, the management commands, and every order a GM
enters in a nation's name — calls :func:`audit_record` inside the action's own transaction, so an
action that fails leaves no entry and an entry never describes something that did not happen. The
rows are append-only (campaign.models.audit: a database trigger refuses UPDATE and DELETE).
"""

from __future__ import annotations

import getpass
import json
import re
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.db.models import QuerySet

from campaign.models import Campaign
from campaign.models.audit import AuditEntry

ACTION_PATTERN = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
SUMMARY_MAX = AuditEntry._meta.get_field("summary").max_length or 300
REASON_MAX = 2000


class CommandLine:
    """The marker a management command passes as the one acting where a service would otherwise take a
    signed-in user (e.g. ``submit_orders``): recorded as the command line's login."""

    is_authenticated = False

    def __repr__(self) -> str:
        return "COMMAND_LINE"


COMMAND_LINE = CommandLine()


class AuditError(ValueError):
    """An entry the log cannot take (an empty summary, an action name that is not a plain word …)."""


def actor_label(actor: AbstractBaseUser | AnonymousUser | None) -> str:
    """Who did it, in words: the account's username, or the command line's login for a command."""
    if actor is not None and actor.is_authenticated:
        return str(actor.get_username())
    try:
        login = getpass.getuser()
    except (KeyError, OSError):  # no login name in a bare container
        login = "unknown"
    return f"command line ({login})"


def _json_ready(value: dict[str, Any] | None, name: str) -> dict[str, Any] | None:
    """``value`` as the JSON column will hold it (dates as ISO text), refusing what JSON cannot hold."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise AuditError(f"{name} must be a dict of what changed (or None), not {type(value).__name__}.")
    try:
        ready: dict[str, Any] = json.loads(json.dumps(value, cls=DjangoJSONEncoder))
    except (TypeError, ValueError) as exc:
        raise AuditError(f"{name} holds a value JSON cannot store: {exc}") from exc
    return ready


@transaction.atomic
def audit_record(
    *,
    campaign: Campaign,
    actor: AbstractBaseUser | AnonymousUser | None,
    action: str,
    summary: str,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    reason: str = "",
) -> AuditEntry:
    """Append one entry to ``campaign``'s audit log and return it.

    ``actor`` is the account that acted (``None`` for the command line: the login is recorded);
    ``action`` a short name (``campaign.models.audit.AuditAction`` lists the known ones, lower-case
    words joined by ``_``); ``summary`` one line for people ("Treasury of France adjusted by -5 EP");
    ``before``/``after`` what changed, as JSON-ready dicts; ``reason`` the GM's reason, if asked for.
    Called inside the action's transaction: if the action rolls back, so does its entry.
    """
    if not ACTION_PATTERN.match(action):
        raise AuditError(
            f"Audit action {action!r} must be 1–40 lower-case letters, digits or '_', starting with a letter."
        )
    line = " ".join(summary.split())
    if not line:
        raise AuditError("An audit entry needs a summary saying what was done.")
    if len(line) > SUMMARY_MAX:
        line = line[: SUMMARY_MAX - 1] + "…"
    cleaned_reason = reason.strip()
    if len(cleaned_reason) > REASON_MAX:
        raise AuditError(f"The reason is {len(cleaned_reason)} characters long; at most {REASON_MAX} are kept.")
    user = actor if actor is not None and actor.is_authenticated else None
    return AuditEntry.objects.create(
        campaign_id=campaign.pk,
        campaign_slug=campaign.slug,
        actor_id=user.pk if user is not None else None,
        actor_name=actor_label(actor)[:150],
        turn=campaign.turn_number,
        action=action,
        summary=line,
        before=_json_ready(before, "before"),
        after=_json_ready(after, "after"),
        reason=cleaned_reason,
    )


# --- selectors ------------------------------------------------------------------------------------


def audit_entries_for_campaign(*, campaign_id: int) -> QuerySet[AuditEntry]:
    """The campaign's entries, newest first (one query; names are stored on the rows)."""
    return AuditEntry.objects.filter(campaign_id=campaign_id).order_by("-created_at", "-pk")


def acting_for_nation_is_audited(
    actor: AbstractBaseUser | AnonymousUser | CommandLine | None, player_id: int | None
) -> bool:
    """Whether an order change (or readiness) in a nation's name is a GM's act to record: it is when the
    command line does it, or a signed-in user who is not the nation's player (a GM acting for it).
    ``None`` is the nation's own player as the caller knows it (tests, the turn): not recorded."""
    if actor is None:
        return False
    if isinstance(actor, CommandLine):
        return True
    return bool(actor.is_authenticated) and actor.pk != player_id


def audit_entry_as_json(entry: AuditEntry) -> dict[str, Any]:
    """One entry as ``audit_log --json`` prints it and the campaign export holds it."""
    return {
        "at": entry.created_at.isoformat(),
        "actor": entry.actor_name,
        "turn": entry.turn,
        "action": entry.action,
        "summary": entry.summary,
        "before": entry.before,
        "after": entry.after,
        "reason": entry.reason,
    }


__all__ = [
    "COMMAND_LINE",
    "AuditError",
    "CommandLine",
    "acting_for_nation_is_audited",
    "actor_label",
    "audit_entries_for_campaign",
    "audit_entry_as_json",
    "audit_record",
]
