"""What every GM page of a campaign starts from: the campaign, if the user runs it, and the admin's context."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.forms import ModelChoiceField
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse

from campaign.models import Campaign
from campaign.permissions import is_superuser
from campaign.players.services import campaign_people
from campaign.turn.lifecycle import clock_turn


def people_pickers(form: type[forms.Form] | Any, user: Any, campaign: Campaign | None, names: tuple[str, ...]) -> None:
    """Limit an admin form's account pickers ``names`` to ``campaign``'s own people (its GMs, players
    and invited): a GM never sees every account of the site; others are found by exact email."""
    if is_superuser(user):
        return
    for name in names:
        field = form.base_fields.get(name)
        if isinstance(field, ModelChoiceField):
            field.queryset = campaign_people(campaign) if campaign is not None else get_user_model().objects.none()


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

    def _confirm(
        self, request: HttpRequest, campaign: Campaign, *, title: str, explain: str, button: str, subject: str = ""
    ) -> HttpResponse:
        """The page that asks before an action changes the campaign: what it does, with the current
        deadline; its button POSTs to the same address, and Cancel goes back to the desk."""
        context = self._context(
            request,
            title,
            campaign=campaign,
            explain=explain,
            subject=subject,
            button=button,
            clock=clock_turn(campaign),
            desk_url=reverse("admin:campaign_campaign_desk", args=[campaign.pk]),
        )
        return TemplateResponse(request, "admin/campaign/confirm.html", context)
