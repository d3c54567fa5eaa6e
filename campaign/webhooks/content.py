"""What each webhook delivery says: a JSON payload per event, read as its owner may see it, and the
one-line message the Discord and Slack formats post (times in the owner's time zone).

A nation's hook reads through that nation's eyes only: its own stored report (fog of war applied when
it was written, :func:`~campaign.pages.reports.report_for_nation`), a dispatch as that nation received
it. A campaign hook (a GM's) reads the campaign's facts: how many battles, which nations sent no orders.
"""

from __future__ import annotations

import json
from datetime import datetime, tzinfo
from typing import Any
from zoneinfo import ZoneInfo

from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from battles.models import Battle
from campaign.accounts.preferences import time_zone_of_user
from campaign.dispatches.mail_selectors import mail_view_of_dispatch
from campaign.mail.content import absolute
from campaign.models import Nation, Turn, WebhookDelivery, WebhookEvent, WebhookFormat
from campaign.pages.reports import report_for_nation, season_labels
from campaign.selectors import nations_without_orders

#: Discord refuses a message over 2,000 characters.
DISCORD_LIMIT = 2000


def body_for(delivery: WebhookDelivery) -> str | None:
    """The body to post for ``delivery`` in its hook's format, or None when there is nothing to tell any
    more (a reminder for a turn already resolved, a dispatch the GM hid)."""
    payload = payload_for(delivery)
    if payload is None:
        return None
    hook = delivery.hook
    if hook.format == WebhookFormat.JSON:
        return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    text = text_for(payload, ZoneInfo(time_zone_of_user(hook.owner_id) or "UTC"))
    if hook.format == WebhookFormat.DISCORD:
        return json.dumps({"content": text[:DISCORD_LIMIT]}, ensure_ascii=False)
    return json.dumps({"text": text}, ensure_ascii=False)


def _when(value: str | None) -> datetime | None:
    return parse_datetime(value) if value else None


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _turn(turn: Turn | None) -> dict[str, Any] | None:
    if turn is None:
        return None
    return {"number": turn.number, "season": str(season_labels().get(turn.season, turn.season)), "year": turn.year}


def payload_for(delivery: WebhookDelivery) -> dict[str, Any] | None:
    """The JSON payload of a delivery: what every event carries, then the event's own fields."""
    hook, turn = delivery.hook, delivery.turn
    campaign, nation = hook.campaign, hook.nation
    slug = campaign.slug
    payload: dict[str, Any] = {
        "id": str(delivery.delivery_id),
        "event": delivery.event,
        "created_at": delivery.created_at.isoformat(),
        "campaign": {"slug": slug, "name": campaign.name},
        "nation": {"code": nation.code, "name": nation.name} if nation else None,
        "turn": _turn(turn),
    }
    data = delivery.data
    event = WebhookEvent(delivery.event)
    if event == WebhookEvent.TURN_OPENED:
        payload["deadline"] = data.get("deadline")
        payload["url"] = absolute(reverse("campaign:orders", args=[slug]))
    elif event == WebhookEvent.TURN_RESOLVED and turn is not None:
        told = _resolved(turn, nation)
        if told is None:
            return None
        payload.update(told)
        # The next turn as it stands when first posted (phase 10 records this before opening it).
        following = Turn.objects.filter(campaign_id=turn.campaign_id, number=turn.number + 1).first()
        payload["campaign_ended"] = following is None
        payload["next_deadline"] = _iso(following.deadline) if following is not None else None
        payload["url"] = absolute(reverse("campaign:turn", args=[slug, turn.number]))
    elif event == WebhookEvent.DEADLINE_REMINDER and turn is not None:
        if Turn.objects.filter(pk=turn.pk).values_list("status", flat=True).first() != Turn.Status.OPEN:
            return None  # resolved while the reminder waited: too late to help
        payload["deadline"] = data.get("deadline")
        if nation is None:
            names = Nation.objects.filter(pk__in=data.get("quiet", [])).order_by("name").values_list("name", flat=True)
            payload["waiting_for"] = list(names)
        payload["url"] = absolute(reverse("campaign:orders", args=[slug]))
    elif event == WebhookEvent.DISPATCH_RECEIVED:
        if nation is None:
            return None
        found = mail_view_of_dispatch(dispatch_id=int(data.get("dispatch", 0)), nation=nation)
        if found is None:
            return None
        path = reverse("campaign:conversation", args=[slug, found.dispatch.conversation_id])
        payload["dispatch"] = {
            "id": found.dispatch.pk,
            "sender": found.sender,
            "subject": found.dispatch.conversation.subject,
            "body": found.dispatch.body,
            "sent": found.sent,
            "url": absolute(f"{path}#d{found.dispatch.pk}"),
        }
    elif event == WebhookEvent.TABLE_WAITING:
        codes = list(data.get("nations", []))
        names = Nation.objects.filter(campaign=campaign, code__in=codes).order_by("name").values_list("name", flat=True)
        payload["place"] = data.get("place", "")
        payload["nations"] = list(names)
        payload["deadline"] = data.get("deadline")
        payload["url"] = absolute(reverse("campaign:table", args=[slug, int(data.get("table", 0))]))
    return payload


def _resolved(turn: Turn, nation: Nation | None) -> dict[str, Any] | None:
    """A nation's hook: its own report's battles and lines; a campaign hook: the campaign's battles and
    the nations that sent no orders."""
    if nation is not None:
        report = report_for_nation(nation, number=turn.number)
        if report is None:
            return None
        return {"battles": len(report.battle_ids), "report": [event.text for event in report.events]}
    missing = nations_without_orders(campaign_id=turn.campaign_id, turn_id=turn.pk)
    return {
        "battles": Battle.objects.filter(turn=turn).count(),
        "nations_without_orders": sorted(n.name for n in missing),
    }


def local(value: str | None, zone: tzinfo) -> str:
    """A stored moment as the owner reads it in a chat line, e.g. "Sun 13 Dec 20:00 CET"."""
    moment = _when(value)
    if moment is None:
        return "no deadline"
    shown = timezone.localtime(moment, zone)
    return f"{shown:%a} {shown.day} {shown:%b %H:%M} {shown.tzname()}"


def _count(number: int, noun: str) -> str:
    if number == 0:
        return f"no {noun}s"
    return f"{number} {noun}{'s' if number != 1 else ''}"


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] if names else ""


def text_for(payload: dict[str, Any], zone: tzinfo) -> str:
    """The chat line of a payload: "[Campaign] Turn 3 resolved — 2 battles; next deadline Sun 13 Dec 20:00 CET"."""
    turn = payload.get("turn") or {}
    number = f"Turn {turn['number']}" if turn else "The campaign"
    nation = (payload.get("nation") or {}).get("name")
    event = WebhookEvent(payload["event"])
    line = ""
    if event == WebhookEvent.TURN_OPENED:
        season = f"{turn.get('season')} {turn.get('year')}"
        line = f"{number} ({season}) is open for orders; deadline {local(payload['deadline'], zone)}"
    elif event == WebhookEvent.TURN_RESOLVED:
        ended, next_deadline = payload.get("campaign_ended"), payload.get("next_deadline")
        after = "the campaign has ended" if ended else f"next deadline {local(next_deadline, zone)}"
        line = f"{number} resolved — {_count(payload.get('battles', 0), 'battle')}; {after}"
        if nation:
            line += f". {nation}'s report: {payload['url']}"
        elif payload.get("nations_without_orders"):
            line += f". No orders from {_names(payload['nations_without_orders'])}"
    elif event == WebhookEvent.DEADLINE_REMINDER:
        line = f"{number}: orders are due by {local(payload['deadline'], zone)}"
        if nation:
            line += f"; {nation} has entered none yet"
        elif payload.get("waiting_for"):
            line += f"; still waiting for {_names(payload['waiting_for'])}"
    elif event == WebhookEvent.DISPATCH_RECEIVED:
        dispatch = payload["dispatch"]
        line = f"A dispatch from {dispatch['sender']} reached {nation}: “{dispatch['subject']}” {dispatch['url']}"
    elif event == WebhookEvent.TABLE_WAITING:
        line = (
            f"{number}: the battle at {payload['place']} ({_names(payload['nations'])}) goes to the table; "
            f"result due by {local(payload['deadline'], zone)}"
        )
    return f"[{payload['campaign']['name']}] {line}"
