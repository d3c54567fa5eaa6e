"""The dispatches (issue 16) in a campaign backup: their section of the export and their restore.

The document holds ``conversations`` — each with its nations and its ``dispatches``, and each
dispatch with its ``copies`` (one per receiving nation: when it arrives and was read), its earlier
texts (``revisions``) and the players' ``reports`` of it — and ``dispatch_mutes``, the GM's
silencing of a nation. Files written before dispatches have neither key: they read as none.

People are never taken from the file (CONTRACT): an author, a GM who hid a dispatch, a reporter or
a GM who muted a nation is written as a username, and restored only as whoever the import maps to
the role that username had in the file (its GM, or a nation's player: :class:`DocumentPeople`);
anyone else is restored as nobody.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, User
from django.utils.dateparse import parse_datetime

from campaign.backup.rows import DocKeys, RowRefs
from campaign.models import (
    Campaign,
    Conversation,
    Dispatch,
    DispatchCopy,
    DispatchMute,
    DispatchReport,
    DispatchRevision,
)


def _dt(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _when(value: str | None) -> datetime | None:
    """A time the record may lack; one it always has is given to the row as written (checked as a date
    and time by campaign.backup.schemas.checks before anything is written)."""
    return parse_datetime(value) if value else None


def _name(user: AbstractBaseUser | None) -> str | None:
    return user.get_username() if user is not None else None


def dispatches_export(campaign: Campaign, keys: DocKeys) -> dict[str, list[dict[str, Any]]]:
    """The ``conversations`` and ``dispatch_mutes`` sections, oldest first."""
    code = keys.code
    conversations = Conversation.objects.filter(campaign=campaign).prefetch_related("nations").order_by("pk")
    dispatches = (
        Dispatch.objects.filter(campaign=campaign)
        .select_related("author", "hidden_by")
        .prefetch_related("copies", "revisions", "reports__reporter")
        .order_by("pk")
    )
    by_conversation: dict[int, list[dict[str, Any]]] = {}
    for d in dispatches:
        by_conversation.setdefault(d.conversation_id, []).append(_dispatch(d, code))
    return {
        "conversations": [
            {
                "id": c.pk,
                "kind": c.kind,
                "subject": c.subject,
                "nations": sorted(code[n.pk] for n in c.nations.all()),
                "starter": code[c.starter_id] if c.starter_id else None,
                "admiralty": c.admiralty,
                "anonymous": c.anonymous,
                "started_at": _dt(c.started_at),
                "last_at": _dt(c.last_at),
                "dispatches": by_conversation.get(c.pk, []),
            }
            for c in conversations
        ],
        "dispatch_mutes": [
            {
                "nation": code[m.nation_id],
                "from_turn": m.from_turn,
                "until_turn": m.until_turn,
                "reason": m.reason,
                "muted_by": _name(m.muted_by),
                "created_at": _dt(m.created_at),
                # Written only for a mute the GM lifted early, so older files read the same.
                **({"lifted_at": _dt(m.lifted_at), "lifted_by": _name(m.lifted_by)} if m.lifted_at else {}),
            }
            for m in DispatchMute.objects.filter(campaign=campaign)
            .select_related("muted_by", "lifted_by")
            .order_by("pk")
        ],
    }


def _dispatch(d: Dispatch, code: Mapping[int, str]) -> dict[str, Any]:
    return {
        "sender": code[d.sender_id] if d.sender_id else None,
        "author": _name(d.author),
        "body": d.body,
        "turn": d.turn,
        "year": d.year,
        "season": d.season,
        "anonymous": d.anonymous,
        "sent_at": _dt(d.sent_at),
        "edited_at": _dt(d.edited_at),
        "hidden_at": _dt(d.hidden_at),
        "hidden_by": _name(d.hidden_by),
        "hidden_reason": d.hidden_reason,
        "reported_at": _dt(d.reported_at),
        "copies": sorted(
            (
                {
                    "nation": code[c.nation_id],
                    "arrives_turn": c.arrives_turn,
                    "arrived_at": _dt(c.arrived_at),
                    "read_at": _dt(c.read_at),
                }
                for c in d.copies.all()
            ),
            key=lambda c: str(c["nation"]),
        ),
        "revisions": [
            {"body": r.body, "replaced_at": _dt(r.replaced_at)}
            for r in sorted(d.revisions.all(), key=lambda r: (r.replaced_at, r.pk))
        ],
        "reports": [
            {
                "nation": code[r.nation_id],
                "reporter": _name(r.reporter),
                "reason": r.reason,
                "created_at": _dt(r.created_at),
            }
            for r in sorted(d.reports.all(), key=lambda r: r.pk)
        ],
    }


@dataclass(frozen=True)
class DocumentPeople:
    """Who a username of the document is in the campaign being imported: the account the import maps
    to the role that username had in the file (its GM, or a nation's player), else nobody."""

    doc: Mapping[str, Any]
    gm: User | None
    players: Mapping[str, User]

    def user(self, username: str | None) -> User | None:
        if username is None:
            return None
        if username == self.doc["campaign"].get("gm"):
            return self.gm
        for nation in self.doc["nations"]:
            if username == nation.get("player"):
                return self.players.get(nation["code"])
        return None


def dispatches_restore(doc: Mapping[str, Any], *, refs: RowRefs, people: DocumentPeople) -> None:
    """Write the document's conversations, dispatches (with their copies, revisions and reports) and
    mutes into the campaign ``refs`` names; absent sections are none."""
    nation = refs.nation
    records = doc.get("conversations", [])
    conversations = Conversation.objects.bulk_create(
        [
            Conversation(
                campaign_id=refs.campaign_id,
                kind=c["kind"],
                subject=c["subject"],
                starter_id=nation[c["starter"]] if c["starter"] else None,
                admiralty=c["admiralty"],
                anonymous=c["anonymous"],
                started_at=c["started_at"],
                last_at=c["last_at"],
            )
            for c in records
        ]
    )
    through = Conversation.nations.through
    through.objects.bulk_create(
        [
            through(conversation_id=row.pk, nation_id=nation[code])
            for c, row in zip(records, conversations, strict=True)
            for code in c["nations"]
        ]
    )
    pairs = [(row.pk, d) for c, row in zip(records, conversations, strict=True) for d in c["dispatches"]]
    dispatches = Dispatch.objects.bulk_create(
        [_dispatch_row(d, conversation_id, refs, people) for conversation_id, d in pairs]
    )
    written = list(zip((d for _, d in pairs), dispatches, strict=True))
    DispatchCopy.objects.bulk_create(
        DispatchCopy(
            dispatch=row,
            nation_id=nation[c["nation"]],
            arrives_turn=c["arrives_turn"],
            arrived_at=_when(c["arrived_at"]),
            read_at=_when(c["read_at"]),
        )
        for d, row in written
        for c in d["copies"]
    )
    DispatchRevision.objects.bulk_create(
        DispatchRevision(dispatch=row, body=r["body"], replaced_at=r["replaced_at"])
        for d, row in written
        for r in d["revisions"]
    )
    DispatchReport.objects.bulk_create(
        DispatchReport(
            dispatch=row,
            nation_id=nation[r["nation"]],
            reporter=people.user(r["reporter"]),
            reason=r["reason"],
            created_at=r["created_at"],
        )
        for d, row in written
        for r in d["reports"]
    )
    DispatchMute.objects.bulk_create(
        DispatchMute(
            campaign_id=refs.campaign_id,
            nation_id=nation[m["nation"]],
            from_turn=m["from_turn"],
            until_turn=m["until_turn"],
            reason=m["reason"],
            muted_by=people.user(m["muted_by"]),
            created_at=m["created_at"],
            lifted_at=m.get("lifted_at"),
            lifted_by=people.user(m["lifted_by"]) if m.get("lifted_at") else None,
        )
        for m in doc.get("dispatch_mutes", [])
    )


def _dispatch_row(d: Mapping[str, Any], conversation_id: int, refs: RowRefs, people: DocumentPeople) -> Dispatch:
    return Dispatch(
        campaign_id=refs.campaign_id,
        conversation_id=conversation_id,
        sender_id=refs.nation[d["sender"]] if d["sender"] else None,
        author=people.user(d["author"]),
        body=d["body"],
        turn=d["turn"],
        year=d["year"],
        season=d["season"],
        anonymous=d["anonymous"],
        sent_at=d["sent_at"],
        edited_at=_when(d["edited_at"]),
        hidden_at=_when(d["hidden_at"]),
        hidden_by=people.user(d["hidden_by"]),
        hidden_reason=d["hidden_reason"],
        reported_at=_when(d["reported_at"]),
    )
