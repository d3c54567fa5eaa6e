"""A user's own settings kept on their account: the time zone pages and mail show times in.

The browser's time-zone cookie (``campaign.middleware``) wins on the site; without one, and always in
mail, the account's zone is used. Unknown names are refused, never stored.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError

from campaign.middleware import zone_named
from campaign.models import UserProfile


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
