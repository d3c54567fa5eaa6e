"""Personal API tokens: made, listed and revoked by their owner; checked for ``Authorization: Bearer``.

A token reads ``adm_<prefix>_<secret>``: ``prefix`` (8 characters) finds the row, the whole token's
SHA-256 is what is stored, so a leaked database gives no usable token. A random 256-bit secret needs
no slow hash (unlike a password it cannot be guessed), and SHA-256 keeps every API call cheap.

Why not django-rest-knox: knox's tokens have no name and no last-used time, it sends them as
``Token …`` by default, and it brings its own login/logout views built for session-like expiring
tokens. Ours are long-lived, named by the user on the Settings page and revoked there, which is a
model, four functions and a small DRF authentication class (:mod:`campaign.api.authentication`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from campaign.models import ApiToken

TOKEN_START = "adm_"
PREFIX_LENGTH = 8
NAME_MAX = ApiToken._meta.get_field("name").max_length or 80
# Last-used is written at most this often per token, so a busy bot does not write on every call.
LAST_USED_RESOLUTION_SECONDS = 60


@dataclass(frozen=True)
class NewToken:
    """A token just made: ``secret`` is the whole token, shown to its owner once and never stored."""

    token: ApiToken
    secret: str


def _digest(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def api_token_create(*, user_id: int, name: str) -> NewToken:
    """Make a named token for the user; an empty or too long name is refused."""
    name = name.strip()
    if not name:
        raise ValidationError("Give the token a name, e.g. “my bot”, so you know which one to revoke later.")
    if len(name) > NAME_MAX:
        raise ValidationError(f"A token's name has at most {NAME_MAX} characters; this one has {len(name)}.")
    prefix = secrets.token_hex(PREFIX_LENGTH // 2)
    raw = f"{TOKEN_START}{prefix}_{secrets.token_urlsafe(32)}"
    token = ApiToken.objects.create(user_id=user_id, name=name, prefix=prefix, digest=_digest(raw))
    return NewToken(token, raw)


def api_tokens_of(user_id: int) -> list[ApiToken]:
    """The user's tokens, newest first, revoked ones included (they say when)."""
    return list(ApiToken.objects.filter(user_id=user_id))


def api_token_revoke(*, user_id: int, token_id: int) -> ApiToken:
    """Revoke one of the user's own tokens (again is harmless); another's or an unknown one is refused."""
    with transaction.atomic():
        token = ApiToken.objects.select_for_update().filter(user_id=user_id, pk=token_id).first()
        if token is None:
            raise ValidationError("You have no such token; pick one from the list on this page.")
        if token.revoked_at is None:
            token.revoked_at = timezone.now()
            token.save(update_fields=["revoked_at"])
    return token


def api_token_user(raw: str) -> AbstractBaseUser | None:
    """The active user a live token belongs to (noting its use), or None for a wrong or revoked one."""
    if not raw.startswith(TOKEN_START):
        return None
    prefix = raw[len(TOKEN_START) : len(TOKEN_START) + PREFIX_LENGTH]
    token = ApiToken.objects.select_related("user").filter(prefix=prefix, revoked_at__isnull=True).first()
    if token is None or not hmac.compare_digest(token.digest, _digest(raw)) or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() >= LAST_USED_RESOLUTION_SECONDS:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    user: AbstractBaseUser = token.user
    return user


def api_token_for_username(*, username: str, name: str) -> NewToken:
    """A new token for the user of that name (the operators' ``api_token`` command)."""
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise ValidationError(f"There is no user {username!r}.")
    return api_token_create(user_id=user.pk, name=name)
