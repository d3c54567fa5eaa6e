"""The viewer's time zone (DESIGN.md: "Times are stored in UTC and shown in the viewer's time zone").

The setting lives in a signed cookie set from the Settings page (per browser, it survives logging
out) and on the user's account (``UserProfile``, which mail reads too); the cookie wins, the account
is the fallback for a logged-in user on a new browser. An unknown or tampered value is ignored (UTC).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from zoneinfo import ZoneInfo, available_timezones

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from campaign.models import UserProfile

TZ_COOKIE = "admiralty_tz"
TZ_SALT = "admiralty.timezone"
TZ_COOKIE_AGE = 365 * 24 * 3600


@lru_cache(maxsize=1)
def time_zone_names() -> tuple[str, ...]:
    """IANA zone names the server knows, sorted (the choices of the Settings page)."""
    return tuple(sorted(available_timezones()))


def zone_named(name: str | None) -> ZoneInfo | None:
    """The zone of that IANA name, or None for an empty or unknown name (never a file path)."""
    if not name or name not in time_zone_names():
        return None
    return ZoneInfo(name)


def time_zone_of(request: HttpRequest) -> str:
    """The time zone name the request's cookie chose, else the one on the user's account, or "" for none."""
    name = request.get_signed_cookie(TZ_COOKIE, default="", salt=TZ_SALT) or ""
    if not name and getattr(request, "user", None) is not None and request.user.is_authenticated:
        name = UserProfile.objects.filter(user_id=request.user.pk).values_list("time_zone", flat=True).first() or ""
    return name if zone_named(name) is not None else ""


def time_zone_remember(response: HttpResponse, name: str) -> None:
    """Store the viewer's time zone on the response (a signed, HTTP-only cookie for a year)."""
    response.set_signed_cookie(
        TZ_COOKIE,
        name,
        salt=TZ_SALT,
        max_age=TZ_COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )


class TimezoneMiddleware:
    """Activate the viewer's time zone for the request, so templates show local times."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        zone = zone_named(time_zone_of(request))
        if zone is not None:
            timezone.activate(zone)
        else:
            timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
