"""The dispatches pages: a nation's conversations and a new-dispatch form; a conversation with its reply
form; editing within two minutes; the report-abuse link; the GM's hide, mute and Admiralty posts.

Thin views: who is looking comes from :mod:`campaign.viewer`, what they may read from
``campaign.dispatches.selectors``, every change from ``campaign.dispatches.services`` (a refusal is shown
on the form and changes nothing). Plain forms and redirects: the pages need no JavaScript. A GM's
dispatches page is the GM's desk: the Admiralty writes there, and reads what the house options allow.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from campaign.dispatches.forms import BodyForm, MuteForm, ReasonForm, StartForm
from campaign.dispatches.moderation import dispatch_hide, nation_mute, nation_unmute
from campaign.dispatches.selectors import (
    conversation_for_viewer,
    dispatch_board_for_viewer,
    dispatch_for_viewer,
    thread_for_viewer,
)
from campaign.dispatches.services import (
    DispatchRefused,
    Sent,
    conversation_start,
    dispatch_edit,
    dispatch_edit_check,
    dispatch_reply,
    dispatch_report,
    dispatches_mark_read,
)
from campaign.models import Nation, Press
from campaign.page_header import page_context
from campaign.viewer import Viewer, viewer_for_player

#: Ids are PostgreSQL integers: a larger number names no row.
MAX_ID = 2**31 - 1


def _viewer(request: HttpRequest, slug: str) -> Viewer:
    # A GM's forms post to URLs that carry ``?nation=`` like the links, so the page they return to is the same.
    return viewer_for_player(user=request.user, slug=slug, nation_code=request.GET.get("nation") or None)


def _sender(viewer: Viewer) -> Nation | None:
    """Who writes: a player's own nation; The Admiralty (None) for a GM."""
    return None if viewer.is_gm else viewer.nation


def _url(viewer: Viewer, name: str, *args: int) -> str:
    url = reverse(f"campaign:{name}", args=[viewer.campaign.slug, *args])
    return f"{url}?nation={viewer.nation.code}" if viewer.is_gm else url


def _id(value: int) -> int:
    if value > MAX_ID:
        raise Http404("No such dispatch.")
    return value


def _sent_message(request: HttpRequest, sent: Sent) -> None:
    if sent.in_transit_to:
        messages.success(
            request,
            f"Dispatch sent. In transit to {', '.join(sent.in_transit_to)}: it arrives at the start of the next turn.",
        )
    else:
        messages.success(request, "Dispatch sent.")


def _page(request: HttpRequest, viewer: Viewer, template: str, **extra: Any) -> HttpResponse:
    context = page_context(request, viewer, "dispatches", **extra)
    return render(request, template, context)


@login_required
@require_http_methods(["GET", "POST"])
def dispatches_page(request: HttpRequest, slug: str) -> HttpResponse:
    """A nation's conversations (the GM's desk for a GM) and the form that starts a new one."""
    viewer = _viewer(request, slug)
    now = timezone.now()
    board = dispatch_board_for_viewer(viewer, page=_page_number(request), now=now)
    form_kwargs: dict[str, Any] = {
        "recipients": board.recipients,
        "public_only": viewer.campaign.press == Press.PUBLIC and not viewer.is_gm,
        "max_length": viewer.campaign.dispatch_max_length,
    }
    form = StartForm(request.POST or None, **form_kwargs)
    if request.method == "POST" and form.is_valid():
        try:
            sent = conversation_start(
                campaign=viewer.campaign,
                sender=_sender(viewer),
                author_id=int(viewer.user_id),
                to=form.recipients(),
                subject=form.cleaned_data["subject"],
                body=form.cleaned_data["body"],
                now=now,
            )
        except DispatchRefused as refusal:
            form.add_error(refusal.field or None, refusal.message)
        else:
            _sent_message(request, sent)
            return HttpResponseRedirect(_url(viewer, "conversation", sent.dispatch.conversation_id))
    mute_form = MuteForm(nations=viewer.nations) if viewer.is_gm else None
    return _page(request, viewer, "campaign/dispatches/list.html", b=board, form=form, mute_form=mute_form)


def _page_number(request: HttpRequest) -> int:
    raw = request.GET.get("page", "1")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else 1


@login_required
@require_http_methods(["GET", "POST"])
def conversation_page(request: HttpRequest, slug: str, conversation_id: int) -> HttpResponse:
    """A conversation: its dispatches, oldest first, and the reply form. Reading it marks its
    dispatches read for the nation's own player (not for a GM looking in)."""
    viewer = _viewer(request, slug)
    now = timezone.now()
    conversation = conversation_for_viewer(viewer, _id(conversation_id))
    if conversation is None:
        raise Http404("No such conversation, or not one your nation may read.")
    form = BodyForm(request.POST or None, max_length=viewer.campaign.dispatch_max_length)
    if request.method == "POST" and form.is_valid():
        try:
            sent = dispatch_reply(
                conversation=conversation,
                sender=_sender(viewer),
                author_id=int(viewer.user_id),
                body=form.cleaned_data["body"],
                now=now,
            )
        except DispatchRefused as refusal:
            form.add_error(refusal.field or None, refusal.message)
        else:
            _sent_message(request, sent)
            return HttpResponseRedirect(_url(viewer, "conversation", conversation.pk) + f"#d{sent.dispatch.pk}")
    thread = thread_for_viewer(viewer, conversation, now=now)
    if not viewer.is_gm and viewer.nation.player_id == viewer.user_id and request.method == "GET":
        marked = dispatches_mark_read(nation=viewer.nation, conversation_id=conversation.pk, now=now)
        # The header's count was read with the viewer, before these were marked: it shows them read.
        setattr(viewer.nation, "unread_dispatches", max(0, viewer.unread_dispatches - marked))  # noqa: B010
    return _page(
        request,
        viewer,
        "campaign/dispatches/conversation.html",
        t=thread,
        form=form,
        back=_url(viewer, "dispatches"),
        hide_form=ReasonForm() if viewer.is_gm else None,
    )


@login_required
@require_http_methods(["GET", "POST"])
def dispatch_edit_view(request: HttpRequest, slug: str, dispatch_id: int) -> HttpResponse:
    """The sender's correction, within two minutes of sending (the earlier text is kept)."""
    viewer = _viewer(request, slug)
    dispatch = dispatch_for_viewer(viewer, _id(dispatch_id))
    if dispatch is None:
        raise Http404("No such dispatch, or not one your nation may read.")
    back = _url(viewer, "conversation", dispatch.conversation_id) + f"#d{dispatch.pk}"
    try:
        dispatch_edit_check(dispatch=dispatch, sender=_sender(viewer), now=timezone.now())
    except DispatchRefused as refusal:
        # Opened or saved, the answer is the same: the refusal, and no form holding the dispatch's text.
        return _page(request, viewer, "campaign/dispatches/edit.html", refusal=refusal.message, back=back)
    form = BodyForm(
        request.POST or None, initial={"body": dispatch.body}, max_length=viewer.campaign.dispatch_max_length
    )
    if request.method == "POST" and form.is_valid():
        try:
            dispatch_edit(dispatch=dispatch, sender=_sender(viewer), body=form.cleaned_data["body"], now=timezone.now())
        except DispatchRefused as refusal:
            form.add_error(refusal.field or None, refusal.message)
        else:
            messages.success(request, "Dispatch corrected; its earlier text is kept in its history.")
            return HttpResponseRedirect(back)
    return _page(request, viewer, "campaign/dispatches/edit.html", form=form, dispatch=dispatch, back=back)


@login_required
@require_http_methods(["GET", "POST"])
def dispatch_report_view(request: HttpRequest, slug: str, dispatch_id: int) -> HttpResponse:
    """Report a dispatch to the game master (the report-abuse link)."""
    viewer = _viewer(request, slug)
    if viewer.is_gm:
        raise PermissionDenied("The game master hides dispatches rather than reporting them.")
    dispatch = dispatch_for_viewer(viewer, _id(dispatch_id))
    if dispatch is None:
        raise Http404("No such dispatch, or not one your nation may read.")
    back = _url(viewer, "conversation", dispatch.conversation_id) + f"#d{dispatch.pk}"
    form = ReasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            dispatch_report(
                dispatch=dispatch,
                nation=viewer.nation,
                reporter_id=int(viewer.user_id),
                reason=form.cleaned_data["reason"],
                now=timezone.now(),
            )
        except DispatchRefused as refusal:
            form.add_error(refusal.field or None, refusal.message)
        else:
            messages.success(request, "Reported to the game master. Thank you.")
            return HttpResponseRedirect(back)
    return _page(request, viewer, "campaign/dispatches/report.html", form=form, dispatch=dispatch, back=back)


def _gm_viewer(request: HttpRequest, slug: str) -> Viewer:
    viewer = _viewer(request, slug)
    if not viewer.is_gm:
        raise PermissionDenied("Only the game master may do this.")
    return viewer


@login_required
@require_POST
def dispatch_hide_view(request: HttpRequest, slug: str, dispatch_id: int) -> HttpResponse:
    """The GM hides a dispatch from players (kept, marked hidden, with the reason)."""
    viewer = _gm_viewer(request, slug)
    dispatch = dispatch_for_viewer(viewer, _id(dispatch_id))
    if dispatch is None:
        raise Http404("No such dispatch, or not one the game master reads in this campaign.")
    form = ReasonForm(request.POST)
    back = _url(viewer, "conversation", dispatch.conversation_id) + f"#d{dispatch.pk}"
    if not form.is_valid():
        messages.error(request, "Give a reason for hiding the dispatch (at most 300 characters); nothing was hidden.")
        return HttpResponseRedirect(back)
    try:
        dispatch_hide(dispatch=dispatch, actor=request.user, reason=form.cleaned_data["reason"], now=timezone.now())
    except DispatchRefused as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, "The dispatch is hidden from players; it is kept, with your reason.")
    return HttpResponseRedirect(back)


@login_required
@require_POST
def nation_mute_view(request: HttpRequest, slug: str) -> HttpResponse:
    """The GM silences a nation's dispatches for some turns."""
    viewer = _gm_viewer(request, slug)
    form = MuteForm(request.POST, nations=viewer.nations)
    back = _url(viewer, "dispatches")
    if not form.is_valid():
        problems = "; ".join(
            f"{form.fields[name].label}: {' '.join(str(e) for e in errors)}" for name, errors in form.errors.items()
        )
        messages.error(request, f"Nobody was muted. {problems}")
        return HttpResponseRedirect(back)
    nation = viewer.nations_by_code[form.cleaned_data["nation"]]
    try:
        mute = nation_mute(
            campaign=viewer.campaign,
            nation=nation,
            turns=form.cleaned_data["turns"],
            reason=form.cleaned_data["reason"],
            actor=request.user,
            now=timezone.now(),
        )
    except DispatchRefused as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, f"{nation.name} cannot send dispatches until the end of turn {mute.until_turn}.")
    return HttpResponseRedirect(back)


@login_required
@require_POST
def nation_unmute_view(request: HttpRequest, slug: str, mute_id: int) -> HttpResponse:
    """The GM lifts a nation's mute before it runs out (with a reason, kept in the audit log)."""
    viewer = _gm_viewer(request, slug)
    form = ReasonForm(request.POST)
    back = _url(viewer, "dispatches") + "#mute"
    if not form.is_valid():
        messages.error(request, "Give a reason for lifting the mute (at most 300 characters); the mute stands.")
        return HttpResponseRedirect(back)
    try:
        mute = nation_unmute(
            campaign=viewer.campaign,
            mute_id=_id(mute_id),
            reason=form.cleaned_data["reason"],
            actor=request.user,
            now=timezone.now(),
        )
    except DispatchRefused as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, f"{mute.nation.name} may send dispatches again.")
    return HttpResponseRedirect(back)
