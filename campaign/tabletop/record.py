"""What a battle on the table records of its result (issues 27 and 29): who entered it, who confirmed
or disputed it and what the game master decided — kept on the battle (``TabletopBattle.history``),
said in words on its page and its report — and every table action written to the GM's audit log.

The services of :mod:`campaign.tabletop.services` call :func:`table_history_add` and :func:`table_audit` inside
their own transactions, so a refused action leaves neither a line nor an entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.utils import timezone

from battles.engagements.table import TableResultRefused
from battles.models import TabletopBattle
from battles.tabletop.history import ACTS, history_lines, table_decision
from battles.tabletop.pack import battle_pack
from battles.tabletop.storming import storming_pack
from campaign.audit import actor_label, audit_record
from campaign.models import Nation

Actor = AbstractBaseUser | AnonymousUser | None

__all__ = [
    "ACTS",
    "STORMING_KEYS",
    "Actor",
    "gm_entered",
    "history_lines",
    "pack_record",
    "player_may_enter",
    "result_keys_check",
    "side_labels",
    "table_audit",
    "table_decision",
    "table_history_add",
    "table_place",
]


def table_place(table: TabletopBattle) -> str:
    """What the battle is, in words: "the battle at Gibraltar", "the storming of Gibraltar"."""
    where = table.port.name if table.port is not None else table.sea_zone.name
    return f"the storming of {where}" if table.is_storming else f"the battle at {where}"


def side_labels(table: TabletopBattle) -> list[str]:
    """Each side's nations by name ("France and Spain"), side 0 first; [] before the turn found it."""
    sides = table.side_nations()
    codes = {c for side in sides for c in side}
    names = dict(Nation.objects.filter(campaign_id=table.campaign_id, code__in=codes).values_list("code", "name"))
    return [" and ".join(names.get(c, c) for c in side) for side in sides]


def table_history_add(table: TabletopBattle, *, act: str, side: int | None, actor: Actor) -> None:
    """Append one act to ``table.history`` (the caller saves the row): ``side`` the acting side (None:
    the game master), with the side's nations and the account by name as they were then."""
    labels = side_labels(table)
    who = "The game master" if side is None else (labels[side] if side < len(labels) else f"Side {side + 1}")
    entry = {"at": timezone.now().isoformat(), "act": act, "side": side, "who": who, "by": actor_label(actor)}
    table.history = [*(table.history or []), entry]


def table_audit(
    table: TabletopBattle,
    *,
    actor: Actor,
    action: str,
    summary: str,
    after: dict[str, Any] | None = None,
    reason: str = "",
) -> None:
    """One entry in the campaign's audit log for a table action (inside the action's transaction)."""
    audit_record(
        campaign=table.campaign,
        actor=actor,
        action=action,
        summary=summary,
        before=None,
        after={"table": table.pk, "status": table.status, **(after or {})},
        reason=reason[:2000],
    )


#: A storming's result's keys: anything else is refused, never stored.
STORMING_KEYS = ("garrison_lost", "besiegers_lost", "port_taken")


def gm_entered(table: TabletopBattle) -> bool:
    """Whether the result as it stands is the game master's own entry."""
    acts = [e.get("act") for e in (table.history or []) if isinstance(e, dict)]
    return table.status == TabletopBattle.Status.CONFIRMED and "gm_entered" in acts[-1:]


def player_may_enter(table: TabletopBattle) -> None:
    """A side's player enters (or changes) a result only while none stands: a dispute, a result both
    sides confirmed and the game master's own entry all stand until the game master acts."""
    if table.status == TabletopBattle.Status.DISPUTED:
        raise TableResultRefused(
            "The result is disputed: it stays as it is until the game master decides. "
            "Write what you know in the battle's thread.",
            field="status",
            code="not_now",
        )
    if table.status == TabletopBattle.Status.CONFIRMED:
        who = "The game master entered" if gm_entered(table) else "Both sides confirmed"
        raise TableResultRefused(
            f"{who} this result: it stands until the game master acts. "
            "Write in the battle's thread to ask the game master to look again.",
            field="status",
            code="not_now",
        )


def result_keys_check(table: TabletopBattle, body: Mapping[str, Any]) -> None:
    if not isinstance(body, Mapping):
        raise TableResultRefused("A result is an object.", field="result")
    if table.is_storming:
        unknown = sorted(str(k) for k in body if k not in STORMING_KEYS)
        if unknown:
            raise TableResultRefused(
                f"{', '.join(unknown)}: not part of a storming's result; it has only {', '.join(STORMING_KEYS)}.",
                field=unknown[0],
                code="unknown_key",
            )


def pack_record(table: TabletopBattle, *, approved_at: datetime) -> str:
    """The pack's printable page as it stands, self-contained (its stylesheet inline, as the PDF is
    printed from), marked approved: kept on the table battle once it no longer waits at the table."""
    pack = storming_pack(table) if table.is_storming else battle_pack(table)
    found = finders.find("pack.css")
    css = Path(str(found)).read_text(encoding="utf-8") if found else ""
    template = "campaign/table_storming_pack.html" if table.is_storming else "campaign/table_pack.html"
    context = {
        "d": {"table": table, "deadline": None},
        "p": pack,
        "campaign": table.campaign,
        "inline_css": css,
        "approved_at": approved_at,
    }
    return render_to_string(template, context)
