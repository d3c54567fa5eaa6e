"""Reading dispatches: who may read which, and how each sender is named to the reader.

A player reads, through their own nation's eyes, the dispatches it sent and those that have arrived
for it — never one still travelling to it. A GM reads every dispatch when the campaign's house option
``gm_reads_dispatches`` is on; a blind GM reads public proclamations, conversations with The Admiralty
and dispatches a player reported. Under anonymous press a player sees every other nation's dispatch as
sent by "a foreign power"; the GM sees the real sender when reading all (or when it was reported).
A dispatch shows its text, its sender's name and its turn — nothing of any nation's forces (fog of war).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet

from campaign.models import (
    EDIT_WINDOW_SECONDS,
    Campaign,
    Conversation,
    Dispatch,
    DispatchCopy,
    DispatchMute,
    Nation,
    Press,
    Season,
)
from campaign.viewer import User, Viewer, viewer_for_player

FOREIGN_POWER = "a foreign power"
ADMIRALTY = "The Admiralty"
CONVERSATIONS_PER_PAGE = 25
#: A larger page number names no page (and would overflow PostgreSQL's OFFSET).
MAX_PAGE = 1_000_000


def turn_label(turn: int, season: str, year: int) -> str:
    """A dispatch's stamp: "Turn 2, Spring 1805"."""
    label = Season(season).label if season in Season.values else season
    return f"Turn {turn}, {label} {year}"


@dataclass(frozen=True)
class Revision:
    body: str
    replaced_at: datetime


@dataclass
class DispatchView:
    """One dispatch as its reader may see it (``body`` None when the GM hid it from players)."""

    id: int
    conversation_id: int
    sender: str
    sender_code: str | None
    own: bool
    body: str | None
    stamp: str
    turn: int
    sent_at: datetime
    edited_at: datetime | None
    revisions: list[Revision]
    hidden: bool
    hidden_reason: str
    unread: bool
    in_transit_to: list[str]
    can_edit: bool
    can_report: bool
    reported: bool


@dataclass
class ConversationView:
    id: int
    subject: str
    kind: str
    kind_label: str
    with_label: str
    last_at: datetime
    unread: int
    can_reply: bool


@dataclass
class Options:
    """The house options, said the way a player needs to know them."""

    press: str
    anonymous: bool
    gm_reads_all: bool
    delay_zones: int | None
    max_length: int
    per_hour: int

    @property
    def lines(self) -> list[str]:
        said = {
            Press.FULL: "Private, group and public dispatches may be sent.",
            Press.PUBLIC: "Public proclamations only: every dispatch is read by all nations.",
            Press.OFF: "No press: players cannot send dispatches in this campaign.",
        }
        lines = [said[Press(self.press)]]
        if self.anonymous:
            lines.append("Anonymous press: other nations see your dispatches as sent by “a foreign power”.")
        lines.append(
            "The game master can read every dispatch."
            if self.gm_reads_all
            else "The game master reads only public proclamations, letters to The Admiralty and reported dispatches."
        )
        if self.delay_zones is not None:
            lines.append(
                f"Dispatches between capitals more than {self.delay_zones} sea "
                f"zone{'s' if self.delay_zones != 1 else ''} apart arrive at the start of the next turn."
            )
        lines.append(
            f"At most {self.max_length} characters a dispatch and {self.per_hour} "
            f"dispatch{'es' if self.per_hour != 1 else ''} an hour per nation; a dispatch can be corrected "
            f"for {EDIT_WINDOW_SECONDS // 60} minutes after sending and never deleted."
        )
        return lines


def options_of(campaign: Campaign) -> Options:
    return Options(
        press=campaign.press,
        anonymous=campaign.anonymous_press,
        gm_reads_all=campaign.gm_reads_dispatches,
        delay_zones=campaign.dispatch_delay_zones,
        max_length=campaign.dispatch_max_length,
        per_hour=campaign.dispatches_per_hour,
    )


@dataclass
class Board:
    """The dispatches page of a nation (or the GM's desk of them)."""

    viewer: Viewer
    options: Options
    conversations: list[ConversationView]
    page: int
    has_next: bool
    recipients: list[Nation]
    can_send: bool
    cannot_send: str
    mute: DispatchMute | None
    reported: list[DispatchView] = field(default_factory=list)
    mutes: list[DispatchMute] = field(default_factory=list)


@dataclass
class Thread:
    viewer: Viewer
    conversation: ConversationView
    dispatches: list[DispatchView]
    options: Options
    can_send: bool
    cannot_send: str


def _gm_reads(viewer: Viewer) -> bool:
    return viewer.is_gm and viewer.campaign.gm_reads_dispatches


def _reader(viewer: Viewer) -> Nation | None:
    """The nation whose dispatches are read: the player's own; none for a GM (the GM's desk)."""
    return None if viewer.is_gm else viewer.nation


def visible_dispatches(viewer: Viewer) -> QuerySet[Dispatch]:
    """Every dispatch of the campaign this viewer may read."""
    rows = Dispatch.objects.filter(campaign=viewer.campaign)
    nation = _reader(viewer)
    if nation is not None:
        arrived = DispatchCopy.objects.filter(dispatch=OuterRef("pk"), nation=nation, arrived_at__isnull=False)
        return rows.filter(Q(sender=nation) | Exists(arrived))
    if _gm_reads(viewer):
        return rows
    return rows.filter(
        Q(conversation__kind=Conversation.Kind.PUBLIC) | Q(conversation__admiralty=True) | Q(reported_at__isnull=False)
    )


def _visible_conversations(viewer: Viewer) -> QuerySet[Conversation]:
    seen = visible_dispatches(viewer).filter(conversation=OuterRef("pk"))
    return Conversation.objects.filter(campaign=viewer.campaign).filter(Exists(seen))


def _sender_label(viewer: Viewer, d: Dispatch) -> tuple[str, str | None]:
    if d.sender is None:
        return ADMIRALTY, None
    if not viewer.is_gm and d.sender_id == viewer.nation.pk:
        return f"{d.sender.name} (you)", d.sender.code
    if d.anonymous:
        if viewer.is_gm and (_gm_reads(viewer) or d.reported_at is not None):
            return f"{d.sender.name} (anonymous to players)", d.sender.code
        return FOREIGN_POWER, None
    return d.sender.name, d.sender.code


def _with_label(viewer: Viewer, c: Conversation) -> str:
    if c.kind == Conversation.Kind.PUBLIC:
        return "all nations"
    reader = _reader(viewer)
    names = []
    for n in sorted(c.nations.all(), key=lambda n: n.name):
        if reader is not None and n.pk == reader.pk:
            continue
        hide = c.anonymous and n.pk == c.starter_id and (reader is not None or not _gm_reads(viewer))
        names.append(FOREIGN_POWER if hide else n.name)
    if c.admiralty:
        names.insert(0, ADMIRALTY)
    if reader is not None:
        names.insert(0, "you")
    return _and(names)


def _and(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _can_reply(viewer: Viewer, c: Conversation) -> bool:
    if viewer.is_gm:
        return c.admiralty or c.kind == Conversation.Kind.PUBLIC
    if viewer.campaign.press == Press.PUBLIC:
        return c.kind == Conversation.Kind.PUBLIC
    return True


def _conversation_view(viewer: Viewer, c: Conversation, unread: int) -> ConversationView:
    return ConversationView(
        id=c.pk,
        subject=c.subject,
        kind=c.kind,
        kind_label=c.get_kind_display(),
        with_label=_with_label(viewer, c),
        last_at=c.last_at,
        unread=unread,
        can_reply=_can_reply(viewer, c),
    )


def _sending(viewer: Viewer, now_turn: int) -> tuple[bool, str, DispatchMute | None]:
    """May this viewer write now, and if not, why (shown instead of the form)."""
    campaign = viewer.campaign
    if campaign.status == Campaign.Status.ENDED:
        return False, "The campaign has ended: no more dispatches can be sent.", None
    if viewer.is_gm:
        return True, "", None
    if campaign.press == Press.OFF:
        return False, "This campaign has no press: players cannot send dispatches.", None
    mute = (
        DispatchMute.objects.filter(
            nation=viewer.nation, from_turn__lte=now_turn, until_turn__gte=now_turn, lifted_at__isnull=True
        )
        .order_by("-until_turn")
        .first()
    )
    if mute is not None:
        return (
            False,
            f"The game master has silenced your nation until the end of turn {mute.until_turn}: {mute.reason}",
            mute,
        )
    return True, "", None


def _dispatch_views(viewer: Viewer, rows: list[Dispatch], now: datetime) -> list[DispatchView]:
    reader = _reader(viewer)
    views = []
    for d in rows:
        sender, code = _sender_label(viewer, d)
        own = (reader is not None and d.sender_id == reader.pk) or (viewer.is_gm and d.sender_id is None)
        copies = list(d.copies.all())
        mine = next((c for c in copies if reader is not None and c.nation_id == reader.pk), None)
        hidden = d.hidden_at is not None
        views.append(
            DispatchView(
                id=d.pk,
                conversation_id=d.conversation_id,
                sender=sender,
                sender_code=code,
                own=own,
                body=None if hidden and not viewer.is_gm else d.body,
                stamp=turn_label(d.turn, d.season, d.year),
                turn=d.turn,
                sent_at=d.sent_at,
                edited_at=d.edited_at,
                revisions=[]
                if hidden and not viewer.is_gm
                else [Revision(r.body, r.replaced_at) for r in d.revisions.all()],
                hidden=hidden,
                hidden_reason=d.hidden_reason if viewer.is_gm else "",
                unread=mine is not None and mine.read_at is None,
                # Only the sender (and the GM) learns that a dispatch is still on its way, and to whom.
                in_transit_to=sorted(c.nation.name for c in copies if c.arrived_at is None)
                if own or viewer.is_gm
                else [],
                can_edit=own
                and not hidden
                and (now - d.sent_at).total_seconds() < EDIT_WINDOW_SECONDS
                and (reader is not None or d.sender_id is None),
                can_report=reader is not None and not own and not hidden and d.sender_id is not None,
                reported=viewer.is_gm and d.reported_at is not None,
            )
        )
    return views


def _dispatch_rows(queryset: QuerySet[Dispatch]) -> list[Dispatch]:
    return list(
        queryset.select_related("sender")
        .prefetch_related(Prefetch("copies", DispatchCopy.objects.select_related("nation")), "revisions")
        .order_by("sent_at", "pk")
    )


def _unread_counts(viewer: Viewer) -> dict[int, int]:
    reader = _reader(viewer)
    if reader is None:
        return {}
    rows = (
        DispatchCopy.objects.filter(
            nation=reader, arrived_at__isnull=False, read_at__isnull=True, dispatch__hidden_at__isnull=True
        )
        .values("dispatch__conversation_id")
        .annotate(n=Count("pk"))
    )
    return {row["dispatch__conversation_id"]: row["n"] for row in rows}


def dispatch_board_for_player(*, user: User, slug: str, nation_code: str | None, page: int, now: datetime) -> Board:
    """The dispatches page: the conversations this viewer may read, newest first, with their unread counts."""
    viewer = viewer_for_player(user=user, slug=slug, nation_code=nation_code)
    return dispatch_board_for_viewer(viewer, page=page, now=now)


def dispatch_board_for_viewer(viewer: Viewer, *, page: int, now: datetime) -> Board:
    page = min(max(1, page), MAX_PAGE)
    size = CONVERSATIONS_PER_PAGE
    rows = _visible_conversations(viewer).prefetch_related("nations").order_by("-last_at", "-pk")
    found = list(rows[(page - 1) * size : page * size + 1])
    conversations, has_next = found[:size], len(found) > size
    unread = _unread_counts(viewer)
    can_send, cannot_send, mute = _sending(viewer, viewer.campaign.turn_number)
    board = Board(
        viewer=viewer,
        options=options_of(viewer.campaign),
        conversations=[_conversation_view(viewer, c, unread.get(c.pk, 0)) for c in conversations],
        page=page,
        has_next=has_next,
        recipients=sorted(
            (n for n in viewer.nations if viewer.is_gm or n.pk != viewer.nation.pk), key=lambda n: n.name
        ),
        can_send=can_send,
        cannot_send=cannot_send,
        mute=mute,
    )
    if viewer.is_gm:
        reported = visible_dispatches(viewer).filter(reported_at__isnull=False, hidden_at__isnull=True)
        board.reported = _dispatch_views(viewer, _dispatch_rows(reported), now)
        board.mutes = list(
            DispatchMute.objects.filter(
                campaign=viewer.campaign, until_turn__gte=viewer.campaign.turn_number, lifted_at__isnull=True
            )
            .select_related("nation")
            .order_by("nation__code", "-until_turn")
        )
    return board


def conversation_for_viewer(viewer: Viewer, conversation_id: int) -> Conversation | None:
    """The conversation if this viewer may read any of it."""
    return _visible_conversations(viewer).filter(pk=conversation_id).prefetch_related("nations").first()


def thread_for_viewer(viewer: Viewer, conversation: Conversation, *, now: datetime) -> Thread:
    """A conversation's dispatches this viewer may read, oldest first."""
    rows = _dispatch_rows(visible_dispatches(viewer).filter(conversation=conversation))
    unread = (
        sum(
            1
            for d in rows
            if d.hidden_at is None
            and any(
                c.nation_id == viewer.nation.pk and c.read_at is None and c.arrived_at is not None
                for c in d.copies.all()
            )
        )
        if not viewer.is_gm
        else 0
    )
    can_send, cannot_send, _ = _sending(viewer, viewer.campaign.turn_number)
    return Thread(
        viewer=viewer,
        conversation=_conversation_view(viewer, conversation, unread),
        dispatches=_dispatch_views(viewer, rows, now),
        options=options_of(viewer.campaign),
        can_send=can_send and _can_reply(viewer, conversation),
        cannot_send=cannot_send or ("" if _can_reply(viewer, conversation) else _no_reply_reason(viewer)),
    )


def _no_reply_reason(viewer: Viewer) -> str:
    if viewer.is_gm:
        return "The Admiralty is not in this conversation; start a new one to write to these nations."
    return "This campaign allows public proclamations only: this conversation can be read but not answered."


def dispatch_for_viewer(viewer: Viewer, dispatch_id: int) -> Dispatch | None:
    """One dispatch this viewer may read (the row, for a service to act on)."""
    return visible_dispatches(viewer).filter(pk=dispatch_id).select_related("conversation", "sender").first()


def dispatch_view_for_viewer(viewer: Viewer, dispatch_id: int, *, now: datetime) -> DispatchView | None:
    rows = _dispatch_rows(visible_dispatches(viewer).filter(pk=dispatch_id))
    return _dispatch_views(viewer, rows, now)[0] if rows else None


def dispatch_views_for_viewer(
    viewer: Viewer, *, now: datetime, conversation_id: int | None = None
) -> QuerySet[Dispatch]:
    """The dispatches this viewer may read, newest first (the API's list, paged by its paginator)."""
    rows = visible_dispatches(viewer)
    if conversation_id is not None:
        rows = rows.filter(conversation_id=conversation_id)
    return (
        rows.select_related("sender", "conversation")
        .prefetch_related(Prefetch("copies", DispatchCopy.objects.select_related("nation")), "revisions")
        .order_by("-sent_at", "-pk")
    )


def dispatch_views(viewer: Viewer, rows: list[Dispatch], *, now: datetime) -> list[DispatchView]:
    """Rows already read (by :func:`dispatch_views_for_viewer`) as their reader sees them."""
    return _dispatch_views(viewer, rows, now)


def unread_dispatches_of(nation: Nation) -> int:
    """The nation's unread dispatches (arrived, not hidden): one query."""
    return DispatchCopy.objects.filter(
        nation=nation, arrived_at__isnull=False, read_at__isnull=True, dispatch__hidden_at__isnull=True
    ).count()
