"""Registering and removing webhooks, and which hooks a caller may see.

Whose hook it is follows from who asks (:func:`webhook_scope`): a game master who names no nation
registers for the campaign (the GM's view: the campaign's facts); a player — or a GM naming a nation —
for that nation (its view only, fog of war). A player sees and removes only their own
hooks; a GM also the campaign's hooks (their co-GMs'), never a player's (a chat webhook's URL is a
credential of the player's channel).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.db.models import Q, QuerySet

from campaign.models import Campaign, Nation, Webhook, WebhookEvent, WebhookFormat
from campaign.viewer import User, viewer_for_player
from campaign.webhooks.addresses import host_refusal

#: The most hooks one owner keeps in one campaign.
MAX_HOOKS_PER_OWNER = 10


class WebhookRefused(Exception):
    """A registration that cannot be kept: ``message`` says what was wrong and what is allowed."""

    def __init__(self, message: str, field: str | None = None, code: str = "webhook_refused") -> None:
        super().__init__(message)
        self.message, self.field, self.code = message, field, code


@dataclass(frozen=True)
class WebhookScope:
    """Who registers, in which campaign, for which nation (None: the campaign, a GM's hook)."""

    campaign: Campaign
    user_id: int
    nation: Nation | None
    runs: bool


def webhook_scope(*, user: User, slug: str, nation_code: str | None) -> WebhookScope:
    """The caller's scope in campaign ``slug`` (Http404 outside it, PermissionDenied for another
    player's nation). A GM naming no nation works with the campaign's hooks; naming one, with hooks that
    see through that nation's eyes, as the GM's pages may."""
    viewer = viewer_for_player(user=user, slug=slug, nation_code=nation_code)
    if viewer.is_gm and not nation_code:
        return WebhookScope(viewer.campaign, viewer.user_id, None, True)
    return WebhookScope(viewer.campaign, viewer.user_id, viewer.nation, viewer.is_gm)


def webhooks_for_scope(scope: WebhookScope) -> QuerySet[Webhook]:
    """The hooks the caller may see and remove: their own, and for a GM the campaign's."""
    mine = Q(owner_id=scope.user_id)
    if scope.runs:
        mine |= Q(nation__isnull=True)
    return Webhook.objects.filter(mine, campaign=scope.campaign).select_related("nation").order_by("created_at", "pk")


def url_refusal(url: str) -> str | None:
    """Why ``url`` cannot receive webhooks, or None: an absolute http:// or https:// URL with a host."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 — a port that is not a number raises here
    except ValueError:
        return "The url is not a valid URL: give an absolute http:// or https:// address."
    if parts.scheme not in ("http", "https"):
        return f"The url must start with http:// or https:// (not {parts.scheme or 'no scheme'}:)."
    if not parts.hostname:
        return "The url names no host: give an absolute http:// or https:// address."
    if parts.username or parts.password:
        return "The url must not carry a user name or password."
    if any(c.isspace() for c in url):
        return "The url must not contain spaces."
    return None


def address_refusal(url: str) -> str | None:
    """Why the host of ``url`` (a valid URL) may not receive webhooks on this site, or None."""
    parts = urlsplit(url)
    return host_refusal(parts.hostname or "", parts.port)


def webhook_create(*, scope: WebhookScope, url: str, events: Sequence[str], format: str) -> Webhook:
    """Register a hook for ``scope`` with a new secret (returned on the hook, shown to the caller once)."""
    refusal = url_refusal(url)
    if refusal is not None:
        raise WebhookRefused(refusal, "url", "invalid_url")
    unknown = [e for e in events if e not in WebhookEvent.values]
    if not events or unknown:
        allowed = ", ".join(WebhookEvent.values)
        what = f"Unknown event {unknown[0]!r}" if unknown else "No events named"
        raise WebhookRefused(f"{what}; choose one or more of: {allowed}.", "events", "invalid_event")
    if format not in WebhookFormat.values:
        raise WebhookRefused(f"Unknown format {format!r}; choose json, discord or slack.", "format", "invalid_format")
    owned = Webhook.objects.filter(campaign=scope.campaign, owner_id=scope.user_id).count()
    if owned >= MAX_HOOKS_PER_OWNER:
        raise WebhookRefused(
            f"You have {owned} webhooks in this campaign, the most allowed; delete one first.", None, "too_many"
        )
    private = address_refusal(url)  # last: it may look the host up in the DNS
    if private is not None:
        raise WebhookRefused(private, "url", "address_not_public")
    return Webhook.objects.create(
        campaign=scope.campaign,
        owner_id=scope.user_id,
        nation=scope.nation,
        url=url,
        events=sorted(set(events), key=WebhookEvent.values.index),
        format=format,
        secret=secrets.token_hex(32),
    )


def webhook_delete(*, scope: WebhookScope, hook_id: int) -> bool:
    """Remove a hook the caller may see (its deliveries with it); False if there is none such."""
    deleted, _ = webhooks_for_scope(scope).filter(pk=hook_id).delete()
    return deleted > 0
