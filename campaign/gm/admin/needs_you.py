"""The buttons of the desk's "Needs you" list (issue 29): each answers one thing waiting for the GM,
on the spot, through the service the rest of the admin (or the Table page) already uses.

An action that changes the campaign's course (resolve now, pause, resume, fight a battle by the dice,
approve a result) first shows a confirmation page saying what it does, with the current deadline (GET),
and acts only on its POST; the small answers that change nothing irreversibly (retry a failed
resolution, approve or decline a player's request for the table) act on the desk's POST at once.
Every page checks that the user runs the campaign (else 404) and comes back to the desk with a message.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import URLPattern, path, reverse
from django.views.decorators.http import require_http_methods, require_POST

from battles.engagements.table import TableResultRefused
from battles.models import TabletopBattle
from campaign.gm.actions import gm_campaign_pause, gm_campaign_resume, gm_turn_resolve_now, gm_turn_retry
from campaign.gm.admin.base import CampaignPages
from campaign.models import Campaign, Turn
from campaign.tabletop.services import table_fight_automatically, table_request_decide, table_result_approve
from campaign.turn.lifecycle import TurnControlError


@dataclass(frozen=True)
class _CampaignAction:
    """A confirmed action on the whole campaign: what the page asks, and what is done on POST."""

    title: str
    explain: str
    button: str
    run: Callable[[Campaign, Any], str]


def _resolve_now(campaign: Campaign, actor: Any) -> str:
    turn = gm_turn_resolve_now(campaign=campaign, actor=actor)
    return f"Turn {turn.number} is being resolved now."


def _pause(campaign: Campaign, actor: Any) -> str:
    gm_campaign_pause(campaign=campaign, actor=actor)
    return f"{campaign.name} is paused: no turn resolves until you resume it."


def _resume(campaign: Campaign, actor: Any) -> str:
    turn = gm_campaign_resume(campaign=campaign, actor=actor)
    moved = f" Turn {turn.number}'s deadline moved on by the pause." if turn is not None and turn.deadline else ""
    return f"{campaign.name} is running again.{moved}"


CAMPAIGN_ACTIONS: dict[str, _CampaignAction] = {
    "resolve-now": _CampaignAction(
        "Resolve the open turn now",
        "The open turn is resolved at once, before its deadline, with the orders entered so far; "
        "players can no longer change theirs. It cannot be undone except by reverting the campaign.",
        "Resolve it now",
        _resolve_now,
    ),
    "pause": _CampaignAction(
        "Pause the campaign",
        "The clock stops: no turn resolves while the campaign is paused. When you resume it, the "
        "deadline moves on by the time it was paused. Every player is told by mail.",
        "Pause",
        _pause,
    ),
    "resume": _CampaignAction(
        "Resume the campaign",
        "The clock runs again; the deadline moves on by the time the campaign was paused. "
        "Every player is told by mail.",
        "Resume",
        _resume,
    ),
}

#: Table actions: (confirmation needed, title, explanation, button).
TABLE_ACTIONS: dict[str, tuple[bool, str, str, str]] = {
    "approve-request": (False, "", "", ""),
    "decline-request": (False, "", "", ""),
    "automatic": (
        True,
        "Fight it by the server's dice",
        "The battle is fought by the server's usual dice (the seed it always had) instead of at the table; "
        "any result entered is set aside. This cannot be undone.",
        "Fight it by the dice",
    ),
    "approve-result": (
        True,
        "Approve the result",
        "The result both sides confirmed (or you entered) is applied exactly as the dice's would be, and "
        "once nothing else waits at the table the turn resolves on. This cannot be undone.",
        "Approve and apply",
    ),
}


class NeedsYouPages(CampaignPages):
    def get_urls(self) -> list[URLPattern]:
        def view(v: Callable[..., HttpResponse]) -> Any:
            return self.admin_site.admin_view(require_http_methods(["GET", "POST"])(v))

        own = [
            path(
                "<int:pk>/desk/turns/<int:turn_pk>/retry/",
                self.admin_site.admin_view(require_POST(self.turn_retry_view)),
                name="campaign_campaign_turn_retry",
            ),
            path(
                "<int:pk>/desk/tables/<int:table_pk>/<slug:action>/",
                view(self.table_action_view),
                name="campaign_campaign_table_action",
            ),
            path("<int:pk>/desk/<slug:action>/", view(self.campaign_action_view), name="campaign_campaign_desk_action"),
        ]
        return own + super().get_urls()

    def _to_desk(self, pk: int) -> HttpResponse:
        return HttpResponseRedirect(reverse("admin:campaign_campaign_desk", args=[pk]))

    def campaign_action_view(self, request: HttpRequest, pk: int, action: str) -> HttpResponse:
        """Resolve now / pause / resume: a confirmation page, then the audited service."""
        campaign = self._campaign(request, pk)
        found = CAMPAIGN_ACTIONS.get(action)
        if found is None:
            raise Http404("No such action.")
        if request.method != "POST":
            return self._confirm(request, campaign, title=found.title, explain=found.explain, button=found.button)
        try:
            self.message_user(request, found.run(campaign, request.user))
        except TurnControlError as exc:
            self.message_user(request, str(exc), messages.ERROR)
        return self._to_desk(pk)

    def turn_retry_view(self, request: HttpRequest, pk: int, turn_pk: int) -> HttpResponse:
        """Retry a failed resolution (gm_turn_retry): it resumes at its first unfinished phase."""
        campaign = self._campaign(request, pk)
        turn = get_object_or_404(Turn.objects.defer("snapshot", "dice_log"), pk=turn_pk, campaign=campaign)
        try:
            gm_turn_retry(turn=turn, actor=request.user)
        except TurnControlError as exc:
            self.message_user(request, str(exc), messages.ERROR)
        else:
            self.message_user(request, f"Turn {turn.number} is being resolved again, from its first unfinished phase.")
        return self._to_desk(pk)

    def table_action_view(self, request: HttpRequest, pk: int, table_pk: int, action: str) -> HttpResponse:
        """Answer a battle on the table from the desk: a player's request (approve / decline), or one
        the turn waits for (fight it by the dice, approve its confirmed result)."""
        campaign = self._campaign(request, pk)
        table = get_object_or_404(
            TabletopBattle.objects.select_related("sea_zone", "port", "turn"), pk=table_pk, campaign=campaign
        )
        if action not in TABLE_ACTIONS:
            raise Http404("No such action.")
        place = table.port.name if table.port is not None else table.sea_zone.name
        what = f"the storming of {place}" if table.is_storming else f"the battle at {place}"
        confirm, title, explain, button = TABLE_ACTIONS[action]
        if request.method != "POST":
            if not confirm:
                raise Http404("This action has no confirmation page.")
            return self._confirm(
                request, campaign, title=f"{title}: {what}", explain=explain, button=button, subject=what
            )
        try:
            if action in ("approve-request", "decline-request"):
                table_request_decide(table=table, approve=action == "approve-request", actor=request.user)
                done = (
                    f"Approved: {what} goes to the table when the turn resolves."
                    if action == "approve-request"
                    else f"Declined: {what} is fought by the dice as usual."
                )
            elif action == "automatic":
                table_fight_automatically(table=table, actor=request.user)
                done = f"{what[0].upper()}{what[1:]} will be fought by the server's dice."
            else:
                table_result_approve(table=table, actor=request.user)
                done = f"The result of {what} is approved and applied."
        except TableResultRefused as refused:
            self.message_user(request, str(refused), messages.ERROR)
        else:
            self.message_user(request, done)
        return self._to_desk(pk)
