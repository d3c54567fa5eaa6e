"""What each event's mail says: a template context per event, read the way the players' pages read it.

The turn report is the pages' own :func:`~campaign.pages.reports.report_for_nation`, so the mail shows
exactly what the nation may see on the site. Links are absolute, built from ``SITE_URL``; times are
shown in the recipient's time zone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from battles.models import TablePost
from campaign.accounts.preferences import time_zone_of_user
from campaign.dispatches.mail_selectors import mail_view_of_dispatch, mail_view_of_report
from campaign.dispatches.selectors import unread_dispatches_of
from campaign.gm.desk import desk_for_gm
from campaign.models import (
    Announcement,
    Campaign,
    Delivery,
    DiplomaticOffer,
    Dispatch,
    MailEvent,
    Order,
    Turn,
    Webhook,
)
from campaign.models.mail import TURN_STATE_UNREAD
from campaign.pages.dashboard import dashboard_for_player
from campaign.pages.reports import ReportView, report_for_nation, season_labels
from campaign.selectors import nations_without_orders
from fleets.models import Ship

CLOCK_CHANGES = {
    "started": "The campaign has started",
    "paused": "The clock is paused",
    "resumed": "The clock is running again",
    "extended": "The deadline is extended",
    "deadline_set": "The game master set a new deadline",
}

SUBJECTS = {
    MailEvent.TURN_RESOLVED: "turn {number} resolved: your report",
    MailEvent.TURN_OPENED: "turn {number} is open for orders",
    MailEvent.MISSED_DEADLINE: "turn {number}: no orders from {nation}",
    MailEvent.GM_DIGEST: "turn {number} resolved: GM digest",
    MailEvent.CLOCK_CHANGED: "turn {number}: {change}",
    MailEvent.DEADLINE_REMINDER: "turn {number}: orders due in {hours_left}",
    MailEvent.ANNOUNCEMENT: "turn {number}: announcement: {title}",
    MailEvent.NATION_GIVEN: "turn {number}: you command {nation}",
    MailEvent.CAMPAIGN_ENDED: "turn {number}: the campaign has ended, final standings",
    # A dispatch held back by distance: the turn it arrived in, and (``held``) the turn it was sent in.
    MailEvent.DISPATCH: "turn {number}: a dispatch from {sender}{held}: {title}",
    MailEvent.CAMPAIGN_REVERTED: "turn {number}: the game master turned the campaign back",
    MailEvent.INVITATION: "you are invited to {invited_to}",
    MailEvent.NATION_TAKEN: "you no longer command {nation}",
    MailEvent.TABLE_BATTLE: "turn {number}: the battle at {place} goes to the table",
    MailEvent.DISPATCH_REPORTED: "turn {number}: {reporter} reported a dispatch: {title}",
    MailEvent.TURN_FAILED: "turn {number}: its resolution failed",
    MailEvent.TABLE_POST: "turn {number}: {poster} wrote on the {place} table battle",
    MailEvent.WEBHOOK_DISABLED: "turn {number}: your webhook was switched off after failing",
}


def absolute(path: str) -> str:
    """A site path as a link a mail client can follow."""
    return settings.SITE_URL.rstrip("/") + path


def recipient_zone(delivery: Delivery) -> tzinfo:
    """The zone on the recipient's account (Settings), UTC until they choose one."""
    return ZoneInfo(time_zone_of_user(delivery.recipient_id) or "UTC")


def local(moment: datetime | None, zone: tzinfo) -> str:
    """A moment as the recipient reads it, e.g. "Tuesday 8 December 2026, 18:00 UTC"."""
    if moment is None:
        return "no deadline"
    shown = timezone.localtime(moment, zone)
    return f"{shown:%A} {shown.day} {shown:%B %Y, %H:%M} {shown.tzname()}"


def _turn_label(turn: Turn | None) -> str:
    if turn is None:
        return ""
    return f"{season_labels().get(turn.season, turn.season)} {turn.year}"


def subject_for(delivery: Delivery, context: dict[str, Any]) -> str:
    """``[Campaign] turn N …``: the campaign, the turn and the event, in a line; a report's names its
    news ("Turn 3: battle at Cadiz won, Toulon blockaded")."""
    # The turn the event names (a dispatch's arrival, a report's) when it is not the delivery's turn:
    # a mail held for the digest goes out later, perhaps in another turn.
    number = delivery.turn.number if delivery.turn else context.get("subject_turn") or delivery.campaign.turn_number
    report = context.get("report")
    template = SUBJECTS[MailEvent(delivery.event)]
    if delivery.event == MailEvent.TURN_RESOLVED and isinstance(report, ReportView):
        template = "turn {number}: " + report.summary.news.replace("{", "{{").replace("}", "}}")
    line = template.format(
        number=number,
        nation=delivery.nation.name if delivery.nation else "",
        change=context.get("change_title", "").lower(),
        hours_left=context.get("hours_left", ""),
        title=context["announcement"].title if context.get("announcement") else context.get("title", ""),
        sender=context.get("sender", ""),
        held=f" (sent in turn {context['dispatch'].turn})" if context.get("arrived") else "",
        reporter=context.get("reporter", ""),
        place=delivery.data.get("place", ""),
        poster=delivery.data.get("poster", ""),
        invited_to=f"command {delivery.nation.name}" if delivery.nation else "help run it as a co-GM",
    )
    return f"[{delivery.campaign.name}] {line[0].upper()}{line[1:]}"


def context_for(delivery: Delivery) -> dict[str, Any] | None:
    """The template context of a delivery's mail, or None when there is nothing to tell any more."""
    campaign, turn, zone = delivery.campaign, delivery.turn, recipient_zone(delivery)
    slug = campaign.slug
    open_turn = Turn.objects.filter(campaign=campaign, status=Turn.Status.OPEN).first()
    context: dict[str, Any] = {
        "campaign": campaign,
        "turn": turn,
        "turn_label": _turn_label(turn),
        "nation": delivery.nation,
        "recipient": delivery.recipient,
        "dashboard_url": absolute(reverse("campaign:dashboard", args=[slug])),
        "orders_url": absolute(reverse("campaign:orders", args=[slug])),
        "settings_url": absolute(reverse("campaign:settings")),
        "open_turn": open_turn,
        "next_deadline": local(open_turn.deadline, zone) if open_turn else None,
    }
    context["whats_next"] = _whats_next(delivery, open_turn, zone)
    event = MailEvent(delivery.event)
    if event in _TURN_EVENTS:
        told = _turn_event_context(delivery, event, zone)
    else:
        told = _other_event_context(delivery, event, zone)
    if told is None:
        return None
    context.update(told)
    return context


#: The events of the turn's course and clock, told by :func:`_turn_event_context`.
_TURN_EVENTS = frozenset(
    {
        MailEvent.TURN_RESOLVED,
        MailEvent.MISSED_DEADLINE,
        MailEvent.TURN_OPENED,
        MailEvent.CLOCK_CHANGED,
        MailEvent.DEADLINE_REMINDER,
    }
)


def _turn_event_context(delivery: Delivery, event: MailEvent, zone: tzinfo) -> dict[str, Any] | None:
    """What the mail of one of :data:`_TURN_EVENTS` adds to the context, or None when there is nothing
    to tell any more; kept apart from :func:`context_for` so each event's part reads on its own."""
    turn, slug = delivery.turn, delivery.campaign.slug
    context: dict[str, Any] = {}
    if event == MailEvent.TURN_RESOLVED and turn is not None and delivery.nation is not None:
        report = report_for_nation(delivery.nation, number=turn.number)
        if report is None:
            return None
        context["report"] = report
        context["turn_url"] = absolute(reverse("campaign:turn", args=[slug, turn.number]))
        context["rules_url"] = absolute(reverse("campaign:rules", args=[slug]))  # a skipped order cites a rule
        context["battle_links"] = _battle_links(slug, report)
    elif event == MailEvent.MISSED_DEADLINE and turn is not None:
        # The GM may resolve a turn before its deadline: the mail then does not speak of the deadline.
        context["early"] = (
            turn.deadline is not None and turn.resolved_at is not None and turn.resolved_at < turn.deadline
        )
    elif event == MailEvent.TURN_OPENED and turn is not None:
        context["deadline"] = local(turn.deadline, zone)
        if delivery.nation is not None:
            context.update(_pending(delivery, turn))
    elif event == MailEvent.CLOCK_CHANGED:
        context["change_title"] = CLOCK_CHANGES.get(delivery.data.get("change", ""), "The clock changed")
        deadline = parse_datetime(delivery.data.get("deadline") or "")
        context["deadline"] = local(deadline, zone) if deadline else None
    elif event == MailEvent.DEADLINE_REMINDER and turn is not None and turn.deadline is not None:
        if turn.status != Turn.Status.OPEN:
            return None  # resolved while the reminder waited: too late to help
        hours = max(1, round((turn.deadline - timezone.now()).total_seconds() / 3600))
        context["deadline"] = local(turn.deadline, zone)
        context["hours_left"] = f"{hours} hour{'s' if hours != 1 else ''}"
    return context


def _other_event_context(delivery: Delivery, event: MailEvent, zone: tzinfo) -> dict[str, Any] | None:
    """What the mail of any event but :data:`_TURN_EVENTS` adds to the context, or None when there is
    nothing to tell any more; kept apart from :func:`context_for` so each event's part reads on its own."""
    campaign, turn, slug = delivery.campaign, delivery.turn, delivery.campaign.slug
    context: dict[str, Any] = {}
    if event == MailEvent.ANNOUNCEMENT:
        context["announcement"] = Announcement.objects.filter(pk=delivery.data.get("announcement")).first()
        if context["announcement"] is None:
            return None
    elif event == MailEvent.NATION_GIVEN:
        context["login_url"] = absolute(reverse("login"))
        context["needs_password"] = not delivery.recipient.has_usable_password()
        context["password_url"] = absolute(reverse("password_reset"))
    elif event == MailEvent.INVITATION:
        context["accept_url"] = absolute(delivery.data.get("url", ""))
    elif event == MailEvent.GM_DIGEST and turn is not None:
        context.update(_gm_digest(delivery, turn))
        context.update(_needs_you(campaign))
    elif event == MailEvent.TURN_FAILED and turn is not None:
        if not turn.error:
            return None  # retried and resolved before the mail went: nothing is wrong any more
        context.update(_needs_you(campaign))
        context.update(
            turn_error=turn.error, attempts=turn.attempts, gave_up=turn.attempts >= settings.TURN_MAX_ATTEMPTS
        )
    elif event == MailEvent.CAMPAIGN_ENDED:
        context.update(_final_standings(delivery))
    elif event in (MailEvent.DISPATCH, MailEvent.DISPATCH_REPORTED):
        told = _dispatch(delivery) if event == MailEvent.DISPATCH else _dispatch_report(delivery)
        if told is None:
            return None  # hidden by the GM before the mail went, or gone: nothing to tell
        context.update(told)
    elif event == MailEvent.CAMPAIGN_REVERTED:
        context.update(_reverted(delivery, zone))
    elif event == MailEvent.TABLE_POST:
        post = TablePost.objects.filter(pk=int(delivery.data.get("post", 0))).first()
        if post is None:
            return None  # the battle is gone (a revert): nothing to tell
        context.update(post=post, poster=delivery.data.get("poster", ""), place=delivery.data.get("place", ""))
        context["table_url"] = absolute(reverse("campaign:table", args=[slug, post.table_id]) + "#thread")
    elif event == MailEvent.TABLE_BATTLE:
        deadline = parse_datetime(delivery.data.get("deadline") or "")
        context["place"] = delivery.data.get("place", "")
        context["deadline"] = local(deadline, zone) if deadline else None
        context["table_url"] = absolute(reverse("campaign:table", args=[slug, int(delivery.data.get("table", 0))]))
    elif event == MailEvent.WEBHOOK_DISABLED:
        context.update(_webhook_disabled(delivery))
    return context


def _battle_links(slug: str, report: ReportView) -> list[tuple[str, str]]:
    """Each battle the report names, as (its name, its report's link): "Battle at Cadiz won" for the
    nation's own, "Battle at Cadiz" for one it saw."""
    ours = {b.battle_id: b.sentence for b in report.summary.battles}
    places: dict[int, str] = {}
    for e in report.events:
        if e.battle is not None and e.battle not in places:
            place = getattr(e, "place_name", "") or getattr(e, "port_name", "")
            places[e.battle] = f"Battle at {place}" if place else "Battle report"
    return [
        (ours.get(pk) or places.get(pk, "Battle report"), absolute(reverse("battles:detail", args=[slug, pk])))
        for pk in report.battle_ids
    ]


def _conversation_url(dispatch: Dispatch) -> str:
    path = reverse("campaign:conversation", args=[dispatch.campaign.slug, dispatch.conversation_id])
    return absolute(f"{path}#d{dispatch.pk}")


def _dispatch(delivery: Delivery) -> dict[str, Any] | None:
    """A dispatch that reached the delivery's nation: its text, its sender as that player sees it, the
    turn it was sent in and, when distance held it back, the turn it arrived in (the subject's)."""
    if delivery.nation is None:
        return None
    found = mail_view_of_dispatch(dispatch_id=int(delivery.data.get("dispatch", 0)), nation=delivery.nation)
    if found is None:
        return None
    return {
        "dispatch": found.dispatch,
        "sender": found.sender,
        "stamp": found.sent,
        "arrived": found.arrived,
        "subject_turn": found.arrived_turn,
        "title": found.dispatch.conversation.subject,
        "conversation_url": _conversation_url(found.dispatch),
    }


def _dispatch_report(delivery: Delivery) -> dict[str, Any] | None:
    """To a GM: which dispatch a player reported (a link), who reported it and why."""
    report = mail_view_of_report(report_id=int(delivery.data.get("report", 0)))
    if report is None:
        return None
    return {
        "dispatch": report.dispatch,
        "sender": report.sender,
        "stamp": report.sent,
        "reporter": report.reporter,
        "reason": report.reason,
        "subject_turn": delivery.data.get("turn"),
        "title": report.dispatch.conversation.subject,
        "conversation_url": _conversation_url(report.dispatch),
    }


@dataclass(frozen=True)
class WhatsNext:
    """The dashboard's "What's next" facts at the top of every mail to a player (issue 28)."""

    turn_number: int
    deadline: str | None
    orders_entered: int
    unread_dispatches: int
    offers: list[str]


def _whats_next(delivery: Delivery, open_turn: Turn | None, zone: tzinfo) -> WhatsNext | None:
    """For the player of the delivery's nation while a turn is open: the deadline in the reader's zone,
    the orders entered, the unread dispatches and the offers waiting (three queries); else None."""
    nation = delivery.nation
    if nation is None or open_turn is None or nation.player_id != delivery.recipient_id:
        return None
    if delivery.campaign.status == Campaign.Status.ENDED:
        return None
    offers = DiplomaticOffer.objects.filter(to_nation=nation).select_related("from_nation").order_by("turn", "pk")
    return WhatsNext(
        turn_number=open_turn.number,
        deadline=local(open_turn.deadline, zone) if open_turn.deadline else None,
        orders_entered=Order.objects.filter(nation=nation, turn=open_turn).count(),
        unread_dispatches=unread_dispatches_of(nation),
        offers=[f"{o.from_nation.name} offers {o.get_kind_display().lower()}" for o in offers],
    )


def _pending(delivery: Delivery, turn: Turn) -> dict[str, Any]:
    """What the nation has under way as the turn opens, as its dashboard shows it: keels on the
    stocks, repairs in dockyards, sieges of and by it."""
    assert delivery.nation is not None
    board = dashboard_for_player(user=delivery.recipient, slug=delivery.campaign.slug, nation_code=delivery.nation.code)
    repairs = (
        Ship.objects.filter(nation=delivery.nation, repair_ready_turn__isnull=False, repair_ready_turn__gte=turn.number)
        .select_related("repair_port")
        .order_by("repair_ready_turn", "name")
    )
    return {
        "keels": board.keels,
        "repairs": [
            f"{ship.name} at {ship.repair_port.name if ship.repair_port else 'sea'}, "
            f"ready in turn {ship.repair_ready_turn}"
            for ship in repairs
        ],
        "sieges": [
            f"{row.name} ({row.owner_name}), besieged by {', '.join(row.besieger_names) or 'nobody now'}"
            + (f" for {row.siege_turns} turn{'s' if row.siege_turns != 1 else ''}" if row.siege_turns else "")
            for row in board.sieges
        ],
    }


def _gm_digest(delivery: Delivery, turn: Turn) -> dict[str, Any]:
    """Who sent no orders, what failed in the resolution, which mails of the campaign failed."""
    # The same question the "no orders" mail answers: a nation without a turn state sent none either.
    missing = nations_without_orders(campaign_id=turn.campaign_id, turn_id=turn.pk)
    troubled = (
        Delivery.objects.filter(campaign=delivery.campaign)
        .exclude(error="")
        .exclude(state=Delivery.State.SENT)
        .select_related("recipient", "turn")
        .defer(*TURN_STATE_UNREAD)
        .order_by("pk")
    )
    skipped = (
        Order.objects.filter(turn=turn, outcome=Order.Outcome.SKIPPED)
        .select_related("nation")
        .order_by("nation__code", "position")
    )
    return {
        "missing": [nation.name for nation in missing],
        "skipped_orders": [
            f"{o.nation.name}, order {o.position} ({o.get_kind_display().lower()}): {o.outcome_note}" for o in skipped
        ],
        "turn_error": turn.error,
        "mail_troubles": [
            {
                "to": d.recipient.get_username(),
                "what": d.get_event_display(),
                "state": d.get_state_display(),
                "error": d.error,
            }
            for d in troubled
        ],
        "admin_deliveries_url": absolute(reverse("admin:campaign_delivery_changelist")),
    }


def _needs_you(campaign: Campaign) -> dict[str, Any]:
    """The desk's "Needs you" list as it stands when the mail is sent, and the desk's address."""
    return {
        "needs_you": [need.text for need in desk_for_gm(campaign=campaign).needs_you],
        "desk_url": absolute(reverse("admin:campaign_campaign_desk", args=[campaign.pk])),
    }


def _final_standings(delivery: Delivery) -> dict[str, Any]:
    """The standings recorded as the campaign ended, and the recipient's own nation's place in them."""
    standings = list(delivery.data.get("standings", []))
    nation_name = delivery.nation.name if delivery.nation else None
    own = next((row for row in standings if row["name"] == nation_name), None)
    return {
        "standings": standings,
        "own_standing": own,
        "nation_count": len(standings),
        # Older deliveries (before victory conditions) were ranked by the holdings order.
        "victory": delivery.data.get("victory") or "Ports held, then ships of the line, then treasury",
        "by_points": bool(delivery.data.get("points")),
        "end_reason": str(delivery.data.get("reason") or ""),
    }


def _reverted(delivery: Delivery, zone: tzinfo) -> dict[str, Any]:
    """What a revert's mail says: the turn played again, why, and the battle re-fought if any."""
    data = delivery.data
    battle = str(data.get("battle") or "")
    deadline = parse_datetime(data.get("deadline") or "")
    return {
        "change_title": f"The battle {battle} is re-fought" if battle else "The campaign is turned back",
        "reason": str(data.get("reason") or ""),
        "battle": battle,
        "archived_turns": int(data.get("archived_turns") or 0),
        "deadline": local(deadline, zone) if deadline else None,
        "paused": bool(data.get("paused")),
    }


def _webhook_disabled(delivery: Delivery) -> dict[str, Any]:
    """Which webhook was switched off (its URL, and the nation it was for) and the last failure."""
    reason = (
        Webhook.objects.filter(pk=delivery.data.get("webhook")).values_list("disabled_reason", flat=True).first() or ""
    )
    return {
        "hook_url": delivery.data.get("url", ""),
        "hook_nation": delivery.data.get("nation"),
        "reason": reason,
        "api_docs_url": absolute(reverse("api-docs")),
    }
