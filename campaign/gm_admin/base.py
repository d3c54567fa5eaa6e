"""What every GM page of a campaign starts from: the campaign, if the user runs it, and the admin's context."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from campaign.models import Campaign


class CampaignPages(admin.ModelAdmin):
    """The base of the campaign admin's page mixins (``has_change_permission`` is CampaignScopedAdmin's)."""

    def _campaign(self, request: HttpRequest, pk: int) -> Campaign:
        """The campaign, if the user runs it; a campaign of other GMs does not exist for them (404)."""
        campaign = get_object_or_404(Campaign, pk=pk)
        if not self.has_change_permission(request, campaign):
            raise Http404("No such campaign.")
        return campaign

    def _context(self, request: HttpRequest, title: str, **extra: Any) -> dict[str, Any]:
        return {**self.admin_site.each_context(request), "title": title, "opts": self.model._meta, **extra}
