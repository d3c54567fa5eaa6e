"""The GM archives an ended campaign, or takes it out of the archive, after a confirmation page
(campaign.gm.archive); and the campaign list's filter that hides archived campaigns unless asked."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import URLPattern, path, reverse

from campaign.gm.admin.base import CampaignPages
from campaign.gm.archive import ArchiveError, campaign_archive, campaign_unarchive
from campaign.models import Campaign


class ArchivedFilter(admin.SimpleListFilter):
    """Archived campaigns are hidden from the list until the GM asks for them."""

    title = "archive"
    parameter_name = "archived"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "Archived only"), ("all", "Archived and not")]

    def choices(self, changelist: Any) -> Any:
        yield {
            "selected": self.value() is None,
            "query_string": changelist.get_query_string(remove=[self.parameter_name]),
            "display": "Not archived",
        }
        for lookup, title in self.lookup_choices:
            yield {
                "selected": self.value() == lookup,
                "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                "display": title,
            }

    def queryset(self, request: HttpRequest, queryset: QuerySet[Campaign]) -> QuerySet[Campaign]:
        if self.value() == "yes":
            return queryset.filter(archived_at__isnull=False)
        if self.value() == "all":
            return queryset
        return queryset.filter(archived_at__isnull=True)


class ArchivePages(CampaignPages):
    def get_urls(self) -> list[URLPattern]:
        own = [
            path("<int:pk>/archive/", self.admin_site.admin_view(self.archive_view), name="campaign_campaign_archive"),
        ]
        return own + super().get_urls()

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """An archived campaign's page is read-only (view only) until it is taken out of the archive."""
        allowed = super().has_change_permission(request, obj)
        return allowed and not (isinstance(obj, Campaign) and obj.archived_at is not None)

    def _campaign(self, request: HttpRequest, pk: int) -> Campaign:
        """The campaign, if the user runs it, archived or not (the GM's pages check their own actions;
        an archived campaign has ended, so none of them changes its play)."""
        campaign = get_object_or_404(Campaign, pk=pk)
        if not super().has_change_permission(request, campaign):
            raise Http404("No such campaign.")
        return campaign

    def archive_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """Archive (or take out of the archive): a confirmation page (GET), then the audited service (POST)."""
        campaign = self._campaign(request, pk)
        archived = campaign.archived_at is not None
        if request.method != "POST":
            return self._confirm(
                request,
                campaign,
                title=f"{'Take' if archived else 'Archive'} {campaign.name}{' out of the archive' if archived else ''}",
                explain=(
                    "It shows again on the home page and in the campaign list, and its page can be changed."
                    if archived
                    else "It disappears from the home page and the campaign list (the list's “archive” filter "
                    "finds it) and its page becomes read-only. Its turns, reports and export stay; you can "
                    "take it out of the archive at any time."
                ),
                button="Yes, take it out of the archive" if archived else "Yes, archive it",
            )
        try:
            if archived:
                campaign_unarchive(campaign=campaign, actor=request.user)
            else:
                campaign_archive(campaign=campaign, actor=request.user)
        except ArchiveError as exc:
            self.message_user(request, str(exc), messages.ERROR)
        else:
            done = "is taken out of the archive" if archived else "is archived"
            self.message_user(request, f"{campaign.name} {done}.", messages.SUCCESS)
        return HttpResponseRedirect(reverse("admin:campaign_campaign_change", args=[campaign.pk]))
