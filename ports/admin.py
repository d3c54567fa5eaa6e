"""Admin for sea zones, ports and land units, scoped to the campaigns the user runs (campaign.permissions)."""

from django.contrib import admin

from campaign.permissions import CampaignScopedAdmin
from ports.models import LandUnit, Port, SeaZone


@admin.register(SeaZone)
class SeaZoneAdmin(CampaignScopedAdmin):
    list_display = ("key", "name", "type", "campaign")
    list_filter = (("campaign", admin.RelatedOnlyFieldListFilter), "type")
    search_fields = ("key", "name")
    filter_horizontal = ("adjacent",)


@admin.register(Port)
class PortAdmin(CampaignScopedAdmin):
    list_display = ("name", "owner", "sea_zone", "fortification", "capacity", "ep_value", "dockyard", "siege_turns")
    list_filter = (("campaign", admin.RelatedOnlyFieldListFilter), "dockyard", "gibraltar")
    search_fields = ("key", "name")
    list_select_related = ("owner", "sea_zone")
    raw_id_fields = ("sea_zone", "owner", "captor")


@admin.register(LandUnit)
class LandUnitAdmin(CampaignScopedAdmin):
    list_display = ("id", "nation", "siege_train", "state", "port")
    list_filter = (("campaign", admin.RelatedOnlyFieldListFilter), "state", "siege_train")
    list_select_related = ("nation", "port")
