"""Admin for battles and engagements (read-only records), scoped to the campaigns the user runs."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from battles.models import Battle, Engagement, TabletopBattle
from campaign.permissions import CampaignScopedAdmin


@admin.register(Battle)
class BattleAdmin(CampaignScopedAdmin):
    """Battles are records of what the dice did: the GM reads them, the turn pipeline writes them."""

    list_display = ("id", "campaign", "turn", "kind", "sea_zone", "port", "winner")
    list_filter = (("campaign", admin.RelatedOnlyFieldListFilter), "kind")
    list_select_related = ("campaign", "turn", "sea_zone", "port")
    readonly_fields = ["refight_link", *(f.name for f in Battle._meta.fields)]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a battle is history: re-fight it (a GM action), never delete it

    @admin.display(description="Disputed?")
    def refight_link(self, obj: Battle) -> str:
        """The campaign's re-fight page (campaign.repair), by its URL name: battles does not import campaign."""
        url = reverse("admin:campaign_campaign_refight", args=[obj.campaign_id]) + f"?battle={obj.pk}"
        return format_html('<a href="{}">Re-fight this battle with a new seed</a>', url)


@admin.register(Engagement)
class EngagementAdmin(CampaignScopedAdmin):
    """Who meets whom in a turn (phase 3) and who fought it (phase 4): read-only, for the GM's "why?"."""

    list_display = ("id", "campaign", "turn", "kind", "place", "sequence", "status", "fought_by")
    list_filter = (("campaign", admin.RelatedOnlyFieldListFilter), "kind", "status")
    list_select_related = ("campaign", "turn")
    readonly_fields = [f.name for f in Engagement._meta.fields]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(TabletopBattle)
class TabletopBattleAdmin(CampaignScopedAdmin):
    """Battles on the table (issue 15), read-only here: the GM marks, approves and falls back on the
    campaign's Table page (/campaigns/<slug>/table/), where the players enter and confirm results."""

    list_display = ("id", "campaign", "turn", "kind", "place", "origin", "status", "entered_by", "updated_at")
    list_filter = (("campaign", admin.RelatedOnlyFieldListFilter), "kind", "status", "origin")
    list_select_related = ("campaign", "turn")
    readonly_fields = [f.name for f in TabletopBattle._meta.fields]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a battle's record stays, like every battle's

    def view_on_site(self, obj: TabletopBattle) -> str:
        return reverse("campaign:table", args=[obj.campaign.slug, obj.pk])
