"""The battle list and a battle's report, as pages of the campaign: with its header and tabs (and so the
unread dispatch count) like every other campaign page.

They live here, not in ``battles``, because the header is the campaign's and the battles app may not
import the campaign (import contracts). Who may see which battle stays the battles app's rule
(:mod:`battles.web_selectors`, asked first so that a hidden battle is a 404 before anything else is
read); the header is :func:`campaign.page_header.page_context` over the campaign's viewer.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from battles.report_view import battle_view
from battles.web_selectors import battle_for_player, battles_for_player
from campaign.page_header import page_context
from campaign.viewer import viewer_for_player


@login_required
def battle_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The battles of a campaign the player may see, newest first (``?page=N``; ``?nation=`` for a GM)."""
    listing = battles_for_player(user=request.user, campaign=slug, page=request.GET.get("page"))
    viewer = viewer_for_player(user=request.user, slug=slug, nation_code=request.GET.get("nation"))
    return render(request, "campaign/battles.html", page_context(request, viewer, "battles", listing=listing))


@login_required
def battle_detail(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    """One battle's report: sides, rounds, each ship's fate and the full dice log."""
    battle = battle_for_player(user=request.user, campaign=slug, battle_id=battle_id)
    viewer = viewer_for_player(user=request.user, slug=slug, nation_code=request.GET.get("nation"))
    return render(request, "campaign/battle.html", page_context(request, viewer, "battles", view=battle_view(battle)))
