"""The open turn's pages: a dry run (nothing written) and extending its deadline."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse

from campaign.gm_actions import gm_turn_dry_run, gm_turn_extend
from campaign.gm_admin.base import CampaignPages
from campaign.gm_admin.forms import ExtendForm
from campaign.turn.lifecycle import TurnControlError, open_turn


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
        campaign = self._campaign(request, pk)
        form = ExtendForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            by = timedelta(days=form.cleaned_data["days"], hours=form.cleaned_data["hours"])
            try:
                turn = gm_turn_extend(campaign=campaign, actor=request.user, by=by)
            except TurnControlError as exc:
                form.add_error(None, str(exc))
            else:
                self.message_user(request, f"Turn {turn.number} now ends {turn.deadline:%Y-%m-%d %H:%M} UTC.")
                return HttpResponseRedirect(reverse("admin:campaign_campaign_change", args=[pk]))
        context = {
            **self.admin_site.each_context(request),
            "title": f"Extend the deadline of {campaign}",
            "nation": None,
            "form": form,
            "intro": "Adds time to the open turn's deadline.",
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/campaign/extend.html", context)
