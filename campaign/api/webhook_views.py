"""Webhooks of ``/api/v1/campaigns/<slug>/webhooks/`` (issue 30): list, register, delete.

Who may do what is :mod:`campaign.webhooks.services`' business: a GM naming no nation registers for the
campaign, a player for their nation; each sees and deletes their own hooks (a GM also the campaign's).
A refusal is a 400 naming what was wrong and what is allowed, and changes nothing.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from battles.api.base import PAGE_QUERY, page_of, problem_response
from battles.api.pagination import StrictPageNumberPagination
from battles.api.problems import Problem, ProblemEntry
from campaign.api.conventions import MAX_BIGINT, SEEN, id_within
from campaign.api.idempotency import IDEMPOTENCY_KEY, IdempotentApiView
from campaign.api.webhook_serializers import WebhookCreatedSerializer, WebhookCreateSerializer, WebhookSerializer
from campaign.webhooks.services import (
    WebhookRefused,
    WebhookScope,
    webhook_create,
    webhook_delete,
    webhook_scope,
    webhooks_for_scope,
)

HOOK_NATION = OpenApiParameter(
    "nation",
    str,
    OpenApiParameter.QUERY,
    required=False,
    description="A player's hooks are their nation's (a player may give only their own code). A game master "
    "who names no nation works with the campaign's hooks; naming one, with hooks that see as that nation.",
)
REFUSED = {400: problem_response("Refused, naming what was wrong and what is allowed; nothing was stored.")}
DELIVERIES = (
    "Each event is POSTed to the url. JSON format: the headers X-Admiralty-Event (the event), "
    "X-Admiralty-Delivery (a unique id, the same on every retry of one delivery: drop repeats), "
    "X-Admiralty-Timestamp (Unix seconds) and X-Admiralty-Signature: sha256=<hex HMAC-SHA256 of "
    '"<timestamp>.<body>" keyed with the secret>. Answer 2xx within 10 s; anything else is retried with '
    "backoff, and a hook failing again and again is switched off and its owner told by mail. "
    'discord posts {"content": text}, slack {"text": text}: one readable line in the owner\'s time zone. '
    "Unless the site allows private addresses (development does), a url whose host is or resolves to a "
    "loopback, private or link-local address is refused with the code address_not_public, and no post "
    "is ever sent to such an address."
)


def _scope(request: Request, slug: str) -> WebhookScope:
    try:
        return webhook_scope(user=request.user, slug=slug, nation_code=request.query_params.get("nation") or None)
    except WebhookRefused as refusal:
        raise _refused(refusal) from None


def _refused(refusal: WebhookRefused) -> Problem:
    return Problem(
        status.HTTP_400_BAD_REQUEST,
        refusal.message,
        errors=[ProblemEntry(refusal.field, refusal.code, refusal.message)],
    )


def _form_refused(form: WebhookCreateSerializer, unknown: list[str]) -> Problem:
    entries = [
        ProblemEntry(name, "unknown_key", f"Unknown key {name!r}; a webhook takes url, events and format.")
        for name in unknown
    ]
    for name, errors in form.errors.items():
        messages = errors.values() if isinstance(errors, dict) else [errors]
        for message in messages:
            text = " ".join(str(e) for e in message) if isinstance(message, list) else str(message)
            entries.append(ProblemEntry(name, "invalid", f"{name}: {text}"))
    detail = "The webhook was not registered. " + "; ".join(e.message for e in entries)
    return Problem(status.HTTP_400_BAD_REQUEST, detail, errors=entries)


class WebhookListView(IdempotentApiView):
    query_parameters = ("nation", "page", "page_size")

    @extend_schema(
        operation_id="webhooks_list",
        summary="The caller's webhooks in the campaign (a GM's also the campaign's), oldest first",
        description="Secrets are never listed: only the registration's answer carries one.",
        parameters=[HOOK_NATION, *PAGE_QUERY],
        responses={200: page_of(WebhookSerializer), **REFUSED, **SEEN},
    )
    def get(self, request: Request, slug: str) -> Response:
        scope = _scope(request, slug)
        paginator = StrictPageNumberPagination()
        page = paginator.paginate_queryset(webhooks_for_scope(scope), request, view=self)
        return paginator.get_paginated_response(WebhookSerializer(list(page or []), many=True).data)

    @extend_schema(
        operation_id="webhooks_create",
        summary="Register a URL to be told of the campaign's events (as the caller's nation, or a GM the campaign)",
        description=DELIVERIES,
        parameters=[HOOK_NATION, IDEMPOTENCY_KEY],
        request=WebhookCreateSerializer,
        responses={201: WebhookCreatedSerializer, **REFUSED, **SEEN},
    )
    def post(self, request: Request, slug: str) -> Response:
        scope = _scope(request, slug)
        body: Any = request.data
        unknown = sorted(k for k in body if k not in WebhookCreateSerializer().fields) if isinstance(body, dict) else []
        form = WebhookCreateSerializer(data=body)
        if not form.is_valid() or unknown:
            raise _form_refused(form, unknown)
        data = form.validated_data
        try:
            hook = webhook_create(scope=scope, url=data["url"], events=data["events"], format=data["format"])
        except WebhookRefused as refusal:
            raise _refused(refusal) from None
        return Response(WebhookCreatedSerializer(hook).data, status=status.HTTP_201_CREATED)


class WebhookDetailView(IdempotentApiView):
    query_parameters = ("nation",)

    @extend_schema(
        operation_id="webhooks_destroy",
        summary="Delete one of the caller's webhooks (a GM: or one of the campaign's); nothing more is sent to it",
        parameters=[HOOK_NATION, IDEMPOTENCY_KEY],
        responses={204: None, **REFUSED, **SEEN},
    )
    def delete(self, request: Request, slug: str, hook_id: int) -> Response:
        scope = _scope(request, slug)
        if not webhook_delete(scope=scope, hook_id=id_within(hook_id, MAX_BIGINT)):
            raise Http404("No such webhook, or not one of yours.")
        return Response(status=status.HTTP_204_NO_CONTENT)


__all__ = ["WebhookDetailView", "WebhookListView"]
