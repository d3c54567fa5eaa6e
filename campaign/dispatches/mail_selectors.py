"""Dispatches as the mail tells of them: one that reached a player, and one a player reported to the GM.

Like the pages, a mail shows a dispatch's text, its sender's name (as its reader may see it) and its
turn — nothing of any nation's forces. A dispatch held back by the distance between capitals is
stamped both with the turn it was sent in and the turn it arrived in, and its mail names the same
turns in its subject and its text.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import OuterRef, Subquery

from campaign.dispatches.selectors import ADMIRALTY, FOREIGN_POWER, turn_label
from campaign.models import Dispatch, DispatchCopy, DispatchReport, Nation, Turn


@dataclass(frozen=True)
class DispatchMail:
    """A dispatch as the mail to one reader tells it."""

    dispatch: Dispatch
    sender: str
    sent: str  # "Turn 2, Spring 1805"
    arrived_turn: int  # the turn it reached the reader in: its own, or the next when held back
    arrived: str  # "Turn 3, Summer 1805" when held back by distance, else ""


def _sender_name(dispatch: Dispatch, *, anonymous_shown: bool) -> str:
    if dispatch.sender is None:
        return ADMIRALTY
    return FOREIGN_POWER if dispatch.anonymous and anonymous_shown else dispatch.sender.name


def mail_view_of_dispatch(*, dispatch_id: int, nation: Nation) -> DispatchMail | None:
    """A dispatch as the mail to ``nation``'s player tells it; None when it is hidden or has not
    reached the nation (nothing to tell)."""
    arrives = DispatchCopy.objects.filter(dispatch=OuterRef("pk"), nation=nation, arrived_at__isnull=False)
    d = (
        Dispatch.objects.filter(pk=dispatch_id, hidden_at__isnull=True)
        .annotate(arrived_turn=Subquery(arrives.values("arrives_turn")[:1]))
        .filter(arrived_turn__isnull=False)
        .select_related("sender", "conversation", "campaign")
        .first()
    )
    if d is None:
        return None
    arrived_turn = int(d.arrived_turn)
    arrived = ""
    if arrived_turn != d.turn:
        turn = Turn.objects.filter(campaign_id=d.campaign_id, number=arrived_turn).values("season", "year").first()
        arrived = turn_label(arrived_turn, turn["season"], turn["year"]) if turn else f"Turn {arrived_turn}"
    return DispatchMail(
        dispatch=d,
        sender=_sender_name(d, anonymous_shown=True),
        sent=turn_label(d.turn, d.season, d.year),
        arrived_turn=arrived_turn,
        arrived=arrived,
    )


@dataclass(frozen=True)
class ReportMail:
    """A player's report of a dispatch as the GM's mail tells it: which dispatch, by whom, and why."""

    dispatch: Dispatch
    sender: str  # the real sender: the GM reads a reported dispatch whatever the house options
    sent: str
    reporter: str
    reason: str


def mail_view_of_report(*, report_id: int) -> ReportMail | None:
    """A dispatch report as the GM's mail tells it; None if it no longer exists."""
    report = (
        DispatchReport.objects.filter(pk=report_id)
        .select_related("nation", "dispatch__sender", "dispatch__conversation", "dispatch__campaign")
        .first()
    )
    if report is None:
        return None
    d = report.dispatch
    return ReportMail(
        dispatch=d,
        sender=_sender_name(d, anonymous_shown=False),
        sent=turn_label(d.turn, d.season, d.year),
        reporter=report.nation.name,
        reason=report.reason,
    )
