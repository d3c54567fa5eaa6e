"""The GM's desk page of one campaign: the open turn, every nation at a glance, the map without fog,
failed mail (campaign.desk reads it all)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse

from campaign.desk import desk_for_gm
from campaign.gm_admin.base import CampaignPages
from campaign.pages.map import map_for_gm


class DeskPages(CampaignPages):
    def get_urls(self) -> list[URLPattern]:
        own = [
            path("<int:pk>/desk/", self.admin_site.admin_view(self.desk_view), name="campaign_campaign_desk"),
        ]
        return own + super().get_urls()

    def desk_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """The GM's desk: the open turn, every nation at a glance, the map without fog, failed mail."""
        campaign = self._campaign(request, pk)
        desk = desk_for_gm(campaign=campaign)
        seamap = map_for_gm(user=request.user, slug=campaign.slug) if desk.nations else None
        context = self._context(
            request,
            f"Desk of {campaign}",
            campaign=campaign,
            desk=desk,
            m=seamap,
            map_title=f"{campaign.name}: every nation's forces (no fog of war)",
            audit_url=reverse("admin:campaign_auditentry_changelist") + f"?campaign__id__exact={campaign.pk}",
            mail_url=reverse("admin:campaign_delivery_changelist")
            + f"?campaign__id__exact={campaign.pk}&state__exact=failed",
        )
        return TemplateResponse(request, "admin/campaign/desk.html", context)
