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

    list_display = ("id", "campaign", "turn", "kind", "sea_zone", "port", "winner_name")
    list_filter = (("campaign", admin.RelatedOnlyFieldListFilter), "kind")
    list_select_related = ("campaign", "turn", "sea_zone", "port")
    # The record for people (issue 29): the sides and the winner by name and a link to the readable
    # report, never the stored JSON (the report page says all of it in words).
    fields = (
        "report_link",
        "campaign",
        "turn",
        "kind",
        "sea_zone",
        "port",
        "sequence",
        "sides_named",
        "winner_name",
        "seed",
        "refight_link",
    )
    readonly_fields = fields

    @admin.display(description="Report")
    def report_link(self, obj: Battle) -> str:
        url = reverse("battles:detail", args=[obj.campaign.slug, obj.pk])
        where = obj.port.name if obj.port is not None else obj.sea_zone.name
        return format_html('<a href="{}">Read the report of the battle at {}</a>', url, where)

    @admin.display(description="Sides")
    def sides_named(self, obj: Battle) -> str:
        return " against ".join(_side_name(obj, k) for k in range(len(obj.sides or [])))

    @admin.display(description="Winner")
    def winner_name(self, obj: Battle) -> str:
        if obj.winner not in (0, 1) or obj.winner >= len(obj.sides or []):
            return "No winner"
        return _side_name(obj, obj.winner)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a battle is history: re-fight it (a GM action), never delete it

    @admin.display(description="Disputed?")
    def refight_link(self, obj: Battle) -> str:
        """The campaign's re-fight page (campaign.gm.repair), by its URL name: battles does not import campaign."""
        url = reverse("admin:campaign_campaign_refight", args=[obj.campaign_id]) + f"?battle={obj.pk}"
        return format_html('<a href="{}">Re-fight this battle with a new seed</a>', url)


def _side_name(battle: Battle, k: int) -> str:
    """A side by its nations' names ("France and Spain"), as the report names it."""
    side = battle.sides[k] if isinstance(battle.sides[k], dict) else {}
    codes = [str(c) for c in side.get("nations") or []]
    names = dict(battle.campaign.nations.filter(code__in=codes).values_list("code", "name"))
    return " and ".join(names.get(c, c) for c in codes) or str(side.get("name") or f"Side {k + 1}")


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
