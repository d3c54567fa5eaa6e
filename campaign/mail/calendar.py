"""Deadlines as iCalendar (RFC 5545, the ``icalendar`` library): the turn-opened mail's attachment
and each user's calendar feed. One event per turn with a deadline, with a stable UID, so a calendar
that subscribes to the feed moves the event when the GM extends or pauses the clock."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from urllib.parse import urlsplit

from django.conf import settings
from django.urls import reverse
from icalendar import Calendar, Event

from campaign.models import Turn


def _absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def deadlines_calendar(turns: Iterable[Turn], *, name: str, now: datetime) -> bytes:
    """An .ics calendar of the turns' deadlines (turns without a deadline are left out); the turns
    come with their campaign (``select_related("campaign")``)."""
    host = urlsplit(settings.SITE_URL).hostname or "admiralty"
    calendar = Calendar()
    calendar.add("prodid", "-//Admiralty//Turn deadlines//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", name)
    for turn in turns:
        if turn.deadline is None:
            continue
        orders = _absolute(reverse("campaign:orders", args=[turn.campaign.slug]))
        event = Event()
        event.add("uid", f"turn-{turn.pk}-deadline@{host}")
        event.add("summary", f"{turn.campaign.name}: turn {turn.number} deadline")
        event.add("dtstart", turn.deadline)
        event.add("dtend", turn.deadline)
        event.add("dtstamp", now)
        event.add("url", orders)
        event.add("description", f"Orders for turn {turn.number} of {turn.campaign.name} are due: {orders}")
        calendar.add_component(event)
    return bytes(calendar.to_ical())
