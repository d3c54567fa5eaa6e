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


@lru_cache(maxsize=1)
def _time_zone_name_set() -> frozenset[str]:
    # Asked on every request (the cookie's zone, the account's): a set, not a scan of ~600 names.
    return frozenset(time_zone_names())


def zone_named(name: str | None) -> ZoneInfo | None:
    """The zone of that IANA name, or None for an empty or unknown name (never a file path)."""
    if not name or name not in _time_zone_name_set():
        return None
    return ZoneInfo(name)


def time_zone_of(request: HttpRequest) -> str:
    """The time zone name the request's cookie chose, else the one on the user's account, or "" for none."""
    name = _cookie_zone(request) or _account_zone(request) or ""
    return name if zone_named(name) is not None else ""


def _cookie_zone(request: HttpRequest) -> str:
    return request.get_signed_cookie(TZ_COOKIE, default="", salt=TZ_SALT) or ""


def _account_zone(request: HttpRequest) -> str | None:
    """The zone on the logged-in user's account ("UTC" when they set none); None for a visitor."""
    if getattr(request, "user", None) is None or not request.user.is_authenticated:
        return None
    name = UserProfile.objects.filter(user_id=request.user.pk).values_list("time_zone", flat=True).first()
    return name if zone_named(name) is not None else "UTC"


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
        name = _cookie_zone(request)
        # A browser without the cookie reads the account once and keeps its zone in the cookie, so
        # later pages do not query the account on every request.
        from_account = _account_zone(request) if not zone_named(name) else None
        zone = zone_named(from_account or name)
        if zone is not None:
            timezone.activate(zone)
        else:
            timezone.deactivate()
        try:
            response = self.get_response(request)
        finally:
            timezone.deactivate()
        if from_account and TZ_COOKIE not in response.cookies:
            time_zone_remember(response, from_account)
        return response
