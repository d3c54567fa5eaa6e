"""Writing dispatches: start a conversation, reply, edit, mark read, report; the GM's hide and mute;
and the release of dispatches in transit when a turn opens (called by phase 10).

Every service is keyword-only and runs in one transaction; a refusal is a :class:`DispatchRefused`
naming what was wrong and what is allowed, and changes nothing. Mail is recorded (``campaign.outbox.mail``)
in the same transaction as the arrival it tells of, and sent after commit — never for a dispatch still
in transit. Callers have already decided who is acting (``campaign.viewer``); these services check what
the campaign's house options allow.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q

from campaign.audit import audit_record
from campaign.models import (
    EDIT_WINDOW_SECONDS,
    AuditAction,
    Campaign,
    Conversation,
    Dispatch,
    DispatchCopy,
    DispatchMute,
    DispatchReport,
    DispatchRevision,
    Nation,
    Press,
)
from campaign.outbox.mail import dispatch_arrived_record, dispatch_reported_record
from ports.selectors import zone_graph
from rules.supply import zone_distances

MAX_SUBJECT = 120
MAX_REASON = 300
MAX_MUTE_TURNS = 99


class DispatchRefused(Exception):
    """A dispatch action refused, with a message for people and the form field it concerns."""

    def __init__(self, message: str, *, field: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


@dataclass(frozen=True)
class Sent:
    """What a send did: the dispatch, and the names of the nations it is still travelling to."""

    dispatch: Dispatch
    in_transit_to: list[str]


def _storable(text: str, *, what: str, field: str) -> str:
    """Refuse what PostgreSQL cannot store as text: NUL characters and lone surrogates."""
    if "\x00" in text:
        raise DispatchRefused(f"The {what} contains a NUL character, which cannot be stored: remove it.", field=field)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise DispatchRefused(
            f"The {what} contains characters that are not valid text: remove them.", field=field
        ) from None
    return text


def _clean_body(campaign: Campaign, body: str) -> str:
    text = _storable(body, what="dispatch", field="body").replace("\r\n", "\n").strip()
    if not text:
        raise DispatchRefused("The dispatch is empty: write something to send.", field="body")
    if len(text) > campaign.dispatch_max_length:
        raise DispatchRefused(
            f"The dispatch is {len(text):,} characters long; this campaign allows at most "
            f"{campaign.dispatch_max_length:,}: shorten it by {len(text) - campaign.dispatch_max_length:,} "
            "and send it again (nothing was sent).",
            field="body",
        )
    return text


def _current_mute(nation: Nation, turn: int) -> DispatchMute | None:
    return (
        DispatchMute.objects.filter(nation=nation, from_turn__lte=turn, until_turn__gte=turn, lifted_at__isnull=True)
        .order_by("-until_turn")
        .first()
    )


def _check_may_send(campaign: Campaign, sender: Nation | None, *, public: bool, now: datetime) -> None:
    """House options, the campaign's state, a GM's mute and the rate limit (The Admiralty has none)."""
    if campaign.status == Campaign.Status.ENDED:
        raise DispatchRefused("The campaign has ended: no more dispatches can be sent.")
    if sender is None:
        return
    if campaign.press == Press.OFF:
        raise DispatchRefused("This campaign has no press: players cannot send dispatches (a house option).")
    if campaign.press == Press.PUBLIC and not public:
        raise DispatchRefused(
            "This campaign allows public proclamations only (a house option): address your dispatch to all nations.",
            field="to",
        )
    mute = _current_mute(sender, campaign.turn_number)
    if mute is not None:
        raise DispatchRefused(
            f"The game master has silenced {sender.name} until the end of turn {mute.until_turn}: {mute.reason}"
        )
    # The callers hold the campaign row locked, so two sends at once cannot both pass this count.
    hour_ago = now - timedelta(hours=1)
    recent = list(
        Dispatch.objects.filter(sender=sender, sent_at__gt=hour_ago)
        .order_by("sent_at")
        .values_list("sent_at", flat=True)
    )
    limit = campaign.dispatches_per_hour
    if len(recent) >= limit:
        wait = recent[len(recent) - limit] + timedelta(hours=1) - now
        minutes = max(1, math.ceil(wait.total_seconds() / 60))
        raise DispatchRefused(
            f"{sender.name} has sent {len(recent)} dispatches in the last hour; this campaign allows "
            f"{limit} an hour. The next can go in {minutes} minute{'s' if minutes != 1 else ''}."
        )


def capital_distance(campaign: Campaign, a: Nation, b: Nation, graph: dict[str, set[str]] | None = None) -> int | None:
    """Sea zones between the capitals of ``a`` and ``b`` by the shortest path over the adjacency; None
    when either has no capital set; a very large number when no path joins them."""
    if a.capital_id is None or b.capital_id is None:
        return None
    graph = graph if graph is not None else zone_graph(campaign_id=campaign.pk)
    assert a.capital is not None and b.capital is not None
    start, goal = a.capital.sea_zone.key, b.capital.sea_zone.key
    return zone_distances(graph, [start]).get(goal, 10**6)


def _delayed(campaign: Campaign, sender: Nation | None, recipients: Sequence[Nation]) -> set[int]:
    """The recipients a dispatch from ``sender`` reaches only at the start of the next turn."""
    if campaign.dispatch_delay_zones is None or sender is None or sender.capital_id is None:
        return set()
    graph = zone_graph(campaign_id=campaign.pk)
    limit = campaign.dispatch_delay_zones
    delayed = set()
    for nation in recipients:
        distance = capital_distance(campaign, sender, nation, graph)
        if distance is not None and distance > limit:
            delayed.add(nation.pk)
    return delayed


def _nations_with_capitals(campaign: Campaign) -> dict[int, Nation]:
    return {
        n.pk: n
        for n in Nation.objects.filter(campaign=campaign).select_related("capital__sea_zone", "player").order_by("code")
    }


def _write(
    *,
    campaign: Campaign,
    conversation: Conversation,
    sender: Nation | None,
    author_id: int | None,
    body: str,
    recipients: Sequence[Nation],
    now: datetime,
) -> Sent:
    dispatch = Dispatch.objects.create(
        campaign=campaign,
        conversation=conversation,
        sender=sender,
        author_id=author_id,
        body=body,
        turn=campaign.turn_number,
        year=campaign.year,
        season=campaign.season,
        anonymous=campaign.anonymous_press and sender is not None,
        sent_at=now,
    )
    delayed = _delayed(campaign, sender, recipients)
    copies = DispatchCopy.objects.bulk_create(
        [
            DispatchCopy(
                dispatch=dispatch,
                nation=nation,
                arrives_turn=campaign.turn_number + 1 if nation.pk in delayed else campaign.turn_number,
                arrived_at=None if nation.pk in delayed else now,
            )
            for nation in recipients
        ]
    )
    Conversation.objects.filter(pk=conversation.pk).update(last_at=now)
    arrived = [copy for copy in copies if copy.arrived_at is not None]
    dispatch_arrived_record(copies=arrived, now=now)
    return Sent(dispatch=dispatch, in_transit_to=[n.name for n in recipients if n.pk in delayed])


@transaction.atomic
def conversation_start(
    *,
    campaign: Campaign,
    sender: Nation | None,
    author_id: int | None,
    to: Sequence[str] | None,
    subject: str,
    body: str,
    now: datetime,
) -> Sent:
    """Start a conversation: ``to`` names the other nations by code (one: private; several: group), or is
    None for a public proclamation to all. ``sender`` None posts as The Admiralty (the GM)."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    public = to is None
    _check_may_send(campaign, sender, public=public, now=now)
    subject = " ".join(_storable(subject, what="subject", field="subject").split())
    if not subject:
        raise DispatchRefused("Give the conversation a subject (a few words, shown in the list).", field="subject")
    if len(subject) > MAX_SUBJECT:
        raise DispatchRefused(
            f"The subject is {len(subject)} characters long; at most {MAX_SUBJECT} are allowed.", field="subject"
        )
    text = _clean_body(campaign, body)
    nations = _nations_with_capitals(campaign)
    by_code = {n.code: n for n in nations.values()}
    if sender is not None:
        sender = nations[sender.pk]
    if public:
        recipients = [n for n in nations.values() if sender is None or n.pk != sender.pk]
        members: list[Nation] = []
        kind = Conversation.Kind.PUBLIC
    else:
        assert to is not None
        codes = sorted({code.strip().upper() for code in to if code.strip()})
        unknown = [code for code in codes if code not in by_code]
        if unknown:
            raise DispatchRefused(
                f"No nation {', '.join(unknown)} in this campaign; its nations are "
                f"{', '.join(sorted(n.name for n in nations.values()))}.",
                field="to",
            )
        recipients = [by_code[code] for code in codes if sender is None or code != sender.code]
        if sender is not None and sender.code in codes:
            raise DispatchRefused(f"{sender.name} cannot write to itself: choose other nations.", field="to")
        if not recipients:
            raise DispatchRefused("Choose at least one nation to write to, or all nations.", field="to")
        members = recipients + ([sender] if sender is not None else [])
        kind = Conversation.Kind.PRIVATE if len(members) <= 2 else Conversation.Kind.GROUP
    conversation = Conversation.objects.create(
        campaign=campaign,
        kind=kind,
        subject=subject,
        starter=sender,
        admiralty=sender is None,
        anonymous=campaign.anonymous_press and sender is not None,
        started_at=now,
        last_at=now,
    )
    conversation.nations.set(members)
    sent = _write(
        campaign=campaign,
        conversation=conversation,
        sender=sender,
        author_id=author_id,
        body=text,
        recipients=recipients,
        now=now,
    )
    if sender is None:
        to_whom = "all nations" if public else _and([n.name for n in recipients])
        _admiralty_audit(campaign, author_id, sent.dispatch, f"The Admiralty wrote to {to_whom}: “{subject}”")
    return sent


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _admiralty_audit(campaign: Campaign, author_id: int | None, dispatch: Dispatch, summary: str) -> None:
    """A GM's post as The Admiralty goes in the GM desk's audit log, in the post's transaction."""
    actor = get_user_model().objects.filter(pk=author_id).first() if author_id is not None else None
    audit_record(
        campaign=campaign,
        actor=actor,
        action=AuditAction.ADMIRALTY_POSTED,
        summary=summary,
        after={"dispatch": dispatch.pk, "conversation": dispatch.conversation_id, "body": dispatch.body},
    )


@transaction.atomic
def dispatch_reply(
    *, conversation: Conversation, sender: Nation | None, author_id: int | None, body: str, now: datetime
) -> Sent:
    """A reply to everyone in the conversation (to every nation in a public one)."""
    campaign = Campaign.objects.select_for_update().get(pk=conversation.campaign_id)
    public = conversation.kind == Conversation.Kind.PUBLIC
    _check_may_send(campaign, sender, public=public, now=now)
    nations = _nations_with_capitals(campaign)
    if public:
        recipients = [n for n in nations.values() if sender is None or n.pk != sender.pk]
    else:
        members = set(conversation.nations.values_list("pk", flat=True))
        if sender is not None and sender.pk not in members:
            raise DispatchRefused(f"{sender.name} is not in this conversation, so it cannot reply to it.")
        if sender is None and not conversation.admiralty:
            raise DispatchRefused(
                "The Admiralty is not in this conversation: start a new one to write to these nations."
            )
        recipients = [
            nations[pk] for pk in sorted(members, key=lambda pk: nations[pk].code) if sender is None or pk != sender.pk
        ]
    text = _clean_body(campaign, body)
    sent = _write(
        campaign=campaign,
        conversation=conversation,
        sender=nations[sender.pk] if sender is not None else None,
        author_id=author_id,
        body=text,
        recipients=recipients,
        now=now,
    )
    if sender is None:
        _admiralty_audit(campaign, author_id, sent.dispatch, f"The Admiralty replied in “{conversation.subject}”")
    return sent


def dispatch_edit_check(*, dispatch: Dispatch, sender: Nation | None, now: datetime) -> None:
    """Raise :class:`DispatchRefused` unless ``sender`` may still correct ``dispatch``: its own, not
    hidden, within two minutes of sending. Asked before a correction form is shown, so that a reader
    who may not correct it is told so at once, as a save would tell them, without seeing the text in
    a form."""
    if dispatch.sender_id != (sender.pk if sender is not None else None):
        raise DispatchRefused("Only the nation that sent a dispatch may change it.")
    if dispatch.hidden_at is not None:
        raise DispatchRefused("The game master has hidden this dispatch: it can no longer be changed.")
    if now - dispatch.sent_at > timedelta(seconds=EDIT_WINDOW_SECONDS):
        raise DispatchRefused(
            f"A dispatch can be changed for {EDIT_WINDOW_SECONDS // 60} minutes after sending; this one was sent "
            "longer ago. Send another to correct it.",
            field="body",
        )


@transaction.atomic
def dispatch_edit(*, dispatch: Dispatch, sender: Nation | None, body: str, now: datetime) -> Dispatch:
    """The sender's correction within two minutes of sending; the earlier text is kept as a revision."""
    dispatch = Dispatch.objects.select_for_update().select_related("campaign").get(pk=dispatch.pk)
    dispatch_edit_check(dispatch=dispatch, sender=sender, now=now)
    text = _clean_body(dispatch.campaign, body)
    if text == dispatch.body:
        return dispatch
    DispatchRevision.objects.create(dispatch=dispatch, body=dispatch.body, replaced_at=now)
    dispatch.body, dispatch.edited_at = text, now
    dispatch.save(update_fields=["body", "edited_at"])
    return dispatch


@transaction.atomic
def dispatches_mark_read(
    *, nation: Nation, now: datetime, conversation_id: int | None = None, dispatch_ids: Sequence[int] | None = None
) -> int:
    """Mark the nation's arrived copies read (of one conversation, or the given dispatches); returns how many."""
    copies = DispatchCopy.objects.filter(nation=nation, arrived_at__isnull=False, read_at__isnull=True)
    if conversation_id is not None:
        copies = copies.filter(dispatch__conversation_id=conversation_id)
    if dispatch_ids is not None:
        copies = copies.filter(dispatch_id__in=list(dispatch_ids))
    return copies.update(read_at=now)


def clean_reason(reason: str, *, what: str) -> str:
    text = " ".join(_storable(reason, what="reason", field="reason").split())
    if not text:
        raise DispatchRefused(f"Give a reason {what} (it is kept with the record).", field="reason")
    if len(text) > MAX_REASON:
        raise DispatchRefused(
            f"The reason is {len(text)} characters long; at most {MAX_REASON} are allowed.", field="reason"
        )
    return text


@transaction.atomic
def dispatch_report(*, dispatch: Dispatch, nation: Nation, reporter_id: int, reason: str, now: datetime) -> bool:
    """A receiving nation reports a dispatch to the GM; True if this is its first report of it, which
    is also mailed to the GM and co-GMs (a second report by the same nation changes nothing)."""
    if dispatch.sender_id == nation.pk:
        raise DispatchRefused("You cannot report your own dispatch.")
    if not DispatchCopy.objects.filter(dispatch=dispatch, nation=nation, arrived_at__isnull=False).exists():
        raise DispatchRefused("Only a nation that received a dispatch can report it.")
    text = clean_reason(reason, what="for the report")
    report, new = DispatchReport.objects.get_or_create(
        dispatch=dispatch, nation=nation, defaults={"reporter_id": reporter_id, "reason": text, "created_at": now}
    )
    Dispatch.objects.filter(pk=dispatch.pk, reported_at__isnull=True).update(reported_at=now)
    if new:
        dispatch_reported_record(report=report, now=now)
    return new


def dispatches_release(*, campaign_id: int, turn_number: int, now: datetime) -> int:
    """Deliver every dispatch in transit that arrives by turn ``turn_number`` (phase 10, as the turn
    opens, in its transaction), then record its mail; returns how many copies arrived."""
    due = Q(dispatch__campaign_id=campaign_id, arrived_at__isnull=True, arrives_turn__lte=turn_number)
    ids = list(DispatchCopy.objects.filter(due).values_list("pk", flat=True))
    if not ids:
        return 0
    DispatchCopy.objects.filter(pk__in=ids).update(arrived_at=now)
    dispatch_arrived_record(copies=list(DispatchCopy.objects.filter(pk__in=ids).select_related("nation")), now=now)
    return len(ids)
