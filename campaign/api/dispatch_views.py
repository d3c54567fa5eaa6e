"""The dispatches of ``/api/v1/campaigns/<slug>/dispatches/`` (issue 16): list, read, send, mark read.

The same permissions as the pages: :mod:`campaign.viewer` decides who looks through which nation
(``?nation=`` for a GM; 403 for another nation's, 404 outside the campaign), the dispatch selectors
what that viewer may read, the dispatch services every change; a refusal is a 400 naming what was
wrong, and changes nothing.
"""

from __future__ import annotations

from django.http import Http404
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from battles.api.base import PAGE_QUERY, ApiView, page_of, problem_response
from battles.api.pagination import StrictPageNumberPagination
from battles.api.problems import Problem, ProblemEntry
from campaign.api.conventions import MAX_INT, NATION, SEEN, api_nation
from campaign.api.dispatch_serializers import DispatchSerializer, ReadSerializer, SendSerializer
from campaign.api.idempotency import IDEMPOTENCY_KEY, IdempotentApiView
from campaign.dispatches.selectors import (
    conversation_for_viewer,
    dispatch_for_viewer,
    dispatch_view_for_viewer,
    dispatch_views,
    dispatch_views_for_viewer,
)
from campaign.dispatches.services import DispatchRefused, conversation_start, dispatch_reply, dispatches_mark_read
from campaign.viewer import Viewer, viewer_for_player

CONVERSATION = OpenApiParameter(
    "conversation", int, OpenApiParameter.QUERY, required=False, description="Only this conversation's dispatches."
)
REFUSED = {400: problem_response("Refused, naming what was wrong (code dispatch_refused); nothing was sent.")}


def _viewer(request: Request, slug: str) -> Viewer:
    return viewer_for_player(user=request.user, slug=slug, nation_code=api_nation(request, slug))


def _refused(message: str, field: str | None = None) -> Problem:
    return Problem(status.HTTP_400_BAD_REQUEST, message, errors=[ProblemEntry(field, "dispatch_refused", message)])


def _id(value: int) -> int:
    if value > MAX_INT:
        raise Http404("No such dispatch.")
    return value


class DispatchListView(IdempotentApiView):
    query_parameters = ("nation", "conversation", "page", "page_size")

    @extend_schema(
        operation_id="dispatches_list",
        summary="The dispatches the caller's nation may read, newest first (paginated)",
        parameters=[NATION, CONVERSATION, *PAGE_QUERY],
        responses={
            200: page_of(DispatchSerializer),
            400: problem_response("conversation is not a whole number, or an unknown query parameter."),
            **SEEN,
        },
    )
    def get(self, request: Request, slug: str) -> Response:
        viewer = _viewer(request, slug)
        raw = request.query_params.get("conversation")
        conversation_id = None
        if raw is not None:
            digits = raw[1:] if raw.startswith("-") else raw
            if not (digits.isascii() and digits.isdigit()):
                raise _refused(
                    f"conversation must be a conversation's id (a whole number), not {raw!r}.", "conversation"
                )
            # A whole number that no id can be (negative, or past PostgreSQL's integers) names no conversation.
            conversation_id = int(raw) if 1 <= int(raw) <= MAX_INT else 0
        now = timezone.now()
        paginator = StrictPageNumberPagination()
        listed = dispatch_views_for_viewer(viewer, now=now, conversation_id=conversation_id)
        page = paginator.paginate_queryset(listed, request, view=self)
        rows = dispatch_views(viewer, list(page or []), now=now)
        return paginator.get_paginated_response(DispatchSerializer(rows, many=True).data)

    @extend_schema(
        operation_id="dispatches_send",
        summary="Send a dispatch: a reply in a conversation, or a new private, group or public one",
        description=(
            'Reply: {"conversation": id, "body": "..."}. New: {"to": ["FR"], "subject": "...", "body": "..."} '
            '(one nation: private; several: a group) or {"public": true, "subject": "...", "body": "..."}. '
            "A GM writes as The Admiralty. The campaign's house options, length and rate limits apply."
        ),
        parameters=[NATION, IDEMPOTENCY_KEY],
        request=SendSerializer,
        responses={201: DispatchSerializer, **REFUSED, **SEEN},
    )
    def post(self, request: Request, slug: str) -> Response:
        viewer = _viewer(request, slug)
        form = SendSerializer(data=request.data)
        if not form.is_valid():
            problems = "; ".join(f"{name}: {' '.join(str(e) for e in errors)}" for name, errors in form.errors.items())
            raise _refused(f"The dispatch was not sent. {problems}")
        data = form.validated_data
        sender = None if viewer.is_gm else viewer.nation
        now = timezone.now()
        try:
            if data.get("conversation") is not None:
                if data.get("to") or data.get("public"):
                    raise DispatchRefused("Give either a conversation to reply in, or to/public for a new one.")
                conversation = conversation_for_viewer(viewer, _id(data["conversation"]))
                if conversation is None:
                    raise Http404("No such conversation, or not one your nation may read.")
                sent = dispatch_reply(
                    conversation=conversation, sender=sender, author_id=viewer.user_id, body=data["body"], now=now
                )
            else:
                if bool(data.get("to")) == bool(data.get("public")):
                    raise DispatchRefused(
                        'Name the nations to write to ("to": codes) or write to all ("public": true), one of the two.'
                    )
                sent = conversation_start(
                    campaign=viewer.campaign,
                    sender=sender,
                    author_id=viewer.user_id,
                    to=None if data.get("public") else list(data["to"]),
                    subject=data.get("subject", ""),
                    body=data["body"],
                    now=now,
                )
        except DispatchRefused as refusal:
            raise _refused(refusal.message, refusal.field or None) from None
        shown = dispatch_view_for_viewer(viewer, sent.dispatch.pk, now=now)
        return Response(DispatchSerializer(shown).data, status=status.HTTP_201_CREATED)


class DispatchDetailView(ApiView):
    query_parameters = ("nation",)

    @extend_schema(
        operation_id="dispatches_retrieve",
        summary="One dispatch the caller's nation may read (reading it here does not mark it read)",
        parameters=[NATION],
        responses={200: DispatchSerializer, **SEEN},
    )
    def get(self, request: Request, slug: str, dispatch_id: int) -> Response:
        viewer = _viewer(request, slug)
        shown = dispatch_view_for_viewer(viewer, _id(dispatch_id), now=timezone.now())
        if shown is None:
            raise Http404("No such dispatch, or not one your nation may read.")
        return Response(DispatchSerializer(shown).data)


class DispatchReadView(IdempotentApiView):
    query_parameters = ("nation",)

    @extend_schema(
        operation_id="dispatches_mark_read",
        summary="Mark a dispatch read for the caller's nation",
        parameters=[NATION, IDEMPOTENCY_KEY],
        request=None,
        responses={200: ReadSerializer, **SEEN},
    )
    def post(self, request: Request, slug: str, dispatch_id: int) -> Response:
        viewer = _viewer(request, slug)
        if viewer.is_gm:
            raise PermissionDenied("Only the nation's player marks its dispatches read; the game master reads without.")
        dispatch = dispatch_for_viewer(viewer, _id(dispatch_id))
        if dispatch is None:
            raise Http404("No such dispatch, or not one your nation may read.")
        dispatches_mark_read(nation=viewer.nation, dispatch_ids=[dispatch.pk], now=timezone.now())
        return Response(ReadSerializer({"dispatch": dispatch.pk, "read": True}).data)


__all__ = ["DispatchDetailView", "DispatchListView", "DispatchReadView"]
