"""A user's own settings kept on their account: the time zone pages and mail show times in, their mail
choices per campaign and event (on/off, at once or in the daily digest), the signed one-click
unsubscribe links (RFC 8058) and the secret address of their calendar feed.

The browser's time-zone cookie (``campaign.accounts.time_zone``) wins on the site; without one, and always in
mail, the account's zone is used. Unknown names are refused, never stored.

An unsubscribe token names its user, campaign and event and is signed with the site's secret: it
works without logging in and for nothing else. It never expires — a mail read a year later must
still unsubscribe — and a changed ``SECRET_KEY`` invalidates every one.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.core import signing
from django.core.exceptions import ValidationError
from django.db.models import Q

from campaign.accounts.time_zone import zone_named
from campaign.models import CalendarToken, Campaign, MailEvent, MailPreference, Nation, UserProfile


def time_zone_of_user(user_id: int | None) -> str:
    """The IANA zone name on the user's account, or "" (UTC) for none or an unknown user."""
    if user_id is None:
        return ""
    name = UserProfile.objects.filter(user_id=user_id).values_list("time_zone", flat=True).first() or ""
    return name if zone_named(name) is not None else ""


def profile_time_zone_set(*, user_id: int, name: str) -> UserProfile:
    """Keep the zone on the user's account ("" for UTC); an unknown zone name is refused."""
    if name and zone_named(name) is None:
        raise ValidationError(
            f"{name!r} is not a time zone this server knows; pick one from the list, e.g. Europe/London."
        )
    profile, _ = UserProfile.objects.update_or_create(user_id=user_id, defaults={"time_zone": name})
    return profile


UNSUBSCRIBE_SALT = "admiralty.mail.unsubscribe"


@dataclass(frozen=True)
class Unsubscribe:
    user_id: int
    campaign_id: int
    event: MailEvent


def unsubscribe_token(*, user_id: int, campaign_id: int, event: str) -> str:
    return signing.dumps({"u": user_id, "c": campaign_id, "e": event}, salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe_read(token: str) -> Unsubscribe | None:
    """What a token unsubscribes from, or None for a forged, altered or unreadable one."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
        return Unsubscribe(int(data["u"]), int(data["c"]), MailEvent(data["e"]))
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None


@dataclass(frozen=True)
class Choice:
    event: MailEvent
    enabled: bool
    digest: bool


def preferences_for(*, user_id: int, campaign_id: int) -> list[Choice]:
    """Every event's choice for the user in the campaign (on, at once, unless chosen otherwise)."""
    rows = {p.event: p for p in MailPreference.objects.filter(user_id=user_id, campaign_id=campaign_id)}
    return [
        Choice(event, rows[event].enabled, rows[event].digest) if event in rows else Choice(event, True, False)
        for event in MailEvent
    ]


def preference_set(*, user_id: int, campaign_id: int, event: MailEvent, enabled: bool, digest: bool) -> None:
    MailPreference.objects.update_or_create(
        user_id=user_id, campaign_id=campaign_id, event=event, defaults={"enabled": enabled, "digest": digest}
    )


def campaigns_of_user(user_id: int) -> list[Campaign]:
    """The campaigns the user plays in or runs, as owner GM or co-GM (those they may get mail from)."""
    playing = Nation.objects.filter(player_id=user_id).values("campaign_id")
    return list(
        Campaign.objects.filter(Q(gm_id=user_id) | Q(co_gms__id=user_id) | Q(pk__in=playing))
        .distinct()
        .order_by("name")
    )


def calendar_token_renew(*, user_id: int) -> CalendarToken:
    """A new secret address for the user's calendar feed; the old one stops working."""
    token, _ = CalendarToken.objects.update_or_create(user_id=user_id, defaults={"token": secrets.token_urlsafe(32)})
    return token


def calendar_token_revoke(*, user_id: int) -> None:
    CalendarToken.objects.filter(user_id=user_id).delete()


def calendar_token_of(user_id: int) -> str | None:
    """The secret of the user's calendar feed, or None if they have none (or revoked it)."""
    return CalendarToken.objects.filter(user_id=user_id).values_list("token", flat=True).first()
