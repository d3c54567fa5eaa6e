from django.contrib import admin

from ports.models import LandUnit, Port, SeaZone


@admin.register(SeaZone)
class SeaZoneAdmin(admin.ModelAdmin):
    list_display = ("key", "name", "type", "campaign")
    list_filter = ("campaign", "type")
    search_fields = ("key", "name")
    filter_horizontal = ("adjacent",)


@admin.register(Port)
class PortAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "sea_zone", "fortification", "capacity", "ep_value", "dockyard", "siege_turns")
    list_filter = ("campaign", "dockyard", "gibraltar")
    search_fields = ("key", "name")
    list_select_related = ("owner", "sea_zone")
    raw_id_fields = ("sea_zone", "owner", "captor")


@admin.register(LandUnit)
class LandUnitAdmin(admin.ModelAdmin):
    list_display = ("id", "nation", "siege_train", "state", "port")
    list_filter = ("campaign", "state", "siege_train")
    list_select_related = ("nation", "port")
