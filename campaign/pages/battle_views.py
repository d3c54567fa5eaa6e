"""The battle list and a battle's report, as pages of the campaign: with its header and tabs (and so the
unread dispatch count) like every other campaign page.

They live here, not in ``battles``, because the header is the campaign's and the battles app may not
import the campaign (import contracts). Who may see which battle stays the battles app's rule
(:mod:`battles.web_selectors`, asked first so that a hidden battle is a 404 before anything else is
read); the header is :func:`campaign.page_header.page_context` over the campaign's viewer.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse

from battles.report_view.battle import battle_view
from battles.web_selectors import battle_for_player, battles_for_player
from campaign.page_header import page_context
from campaign.pages.battle_links import battle_set_aside_for_player
from campaign.viewer import viewer_for_player


@login_required
def battle_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The battles of a campaign the player may see, newest first (``?page=N``; ``?nation=`` for a GM)."""
    listing = battles_for_player(user=request.user, campaign=slug, page=request.GET.get("page"))
    viewer = viewer_for_player(user=request.user, slug=slug, nation_code=request.GET.get("nation"))
    return render(request, "campaign/battles.html", page_context(request, viewer, "battles", listing=listing))


@login_required
def battle_detail(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    """One battle's report: sides, rounds, each ship's fate and the full dice log. The link of a battle
    that a revert set aside still answers (issue 25): a re-fought one leads to its new fight, any other
    says it was set aside and why (410)."""
    try:
        battle = battle_for_player(user=request.user, campaign=slug, battle_id=battle_id)
    except Http404:
        set_aside = battle_set_aside_for_player(user=request.user, slug=slug, battle_id=battle_id)
        if set_aside is None:
            raise
        query = f"?{request.GET.urlencode()}" if request.GET else ""
        if set_aside.successor is not None:
            return HttpResponseRedirect(reverse("battles:detail", args=[slug, set_aside.successor.pk]) + query)
        viewer = viewer_for_player(user=request.user, slug=slug, nation_code=request.GET.get("nation"))
        context = page_context(request, viewer, "battles", set_aside=set_aside)
        return render(request, "campaign/battle_set_aside.html", context, status=410)
    viewer = viewer_for_player(user=request.user, slug=slug, nation_code=request.GET.get("nation"))
    return render(request, "campaign/battle.html", page_context(request, viewer, "battles", view=battle_view(battle)))
