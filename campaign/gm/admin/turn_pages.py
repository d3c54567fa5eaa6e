"""The open turn's pages: a dry run (nothing written) and setting its deadline (exact, or extended)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone

from campaign.gm.actions import gm_turn_deadline_set, gm_turn_dry_run, gm_turn_extend
from campaign.gm.admin.base import CampaignPages
from campaign.gm.admin.forms import DeadlineForm, ExtendForm
from campaign.models import Turn
from campaign.turn.lifecycle import TurnControlError, clock_turn, open_turn


class TurnPages(CampaignPages):
    def get_urls(self) -> list[URLPattern]:
        own = [
            path("<int:pk>/dry-run/", self.admin_site.admin_view(self.dry_run_view), name="campaign_campaign_dry_run"),
            path("<int:pk>/extend/", self.admin_site.admin_view(self.extend_view), name="campaign_campaign_extend"),
        ]
        return own + super().get_urls()

    def dry_run_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """What the open turn would do if it resolved now; nothing is written."""
        campaign = self._campaign(request, pk)
        turn = open_turn(campaign)
        result: dict[str, Any] | None = None
        error = ""
        try:
            result = gm_turn_dry_run(campaign=campaign, actor=request.user)
        except ValueError as exc:  # TurnControlError included: no open turn
            error = str(exc)
        context = {
            **self.admin_site.each_context(request),
            "title": f"Dry run of {campaign}",
            "campaign": campaign,
            "turn": turn,
            "result": result,
            "error": error,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/campaign/dry_run.html", context)

    def extend_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """Set the deadline of the turn the clock runs: to an exact time (earlier or later), or on by
        some days and hours; each with its reason, audited, every player told by mail."""
        campaign = self._campaign(request, pk)
        exact = request.method == "POST" and "deadline" in request.POST
        form = ExtendForm(request.POST if request.method == "POST" and not exact else None)
        deadline_form = DeadlineForm(request.POST if exact else None)
        turn: Turn | None = None
        if exact and deadline_form.is_valid():
            try:
                turn = gm_turn_deadline_set(
                    campaign=campaign,
                    actor=request.user,
                    deadline=deadline_form.cleaned_data["deadline"],
                    reason=deadline_form.cleaned_data["reason"],
                )
            except TurnControlError as exc:
                deadline_form.add_error(None, str(exc))
        elif request.method == "POST" and not exact and form.is_valid():
            by = timedelta(days=form.cleaned_data["days"], hours=form.cleaned_data["hours"])
            try:
                turn = gm_turn_extend(campaign=campaign, actor=request.user, by=by, reason=form.cleaned_data["reason"])
            except TurnControlError as exc:
                form.add_error(None, str(exc))
        if turn is not None and turn.deadline is not None:
            when = timezone.localtime(turn.deadline)
            self.message_user(request, f"Turn {turn.number} now ends {when:%A %-d %B %Y, %H:%M} ({when.tzname()}).")
            return HttpResponseRedirect(reverse("admin:campaign_campaign_desk", args=[pk]))
        context = {
            **self.admin_site.each_context(request),
            "title": f"Set the deadline of {campaign}",
            "campaign": campaign,
            "clock": clock_turn(campaign),
            "nation": None,
            "form": form,
            "deadline_form": deadline_form,
            "zone": timezone.get_current_timezone_name(),
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/campaign/extend.html", context, status=200)
