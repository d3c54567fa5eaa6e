from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from battles.models import Battle


@admin.register(Battle)
class BattleAdmin(admin.ModelAdmin):
    """Battles are records of what the dice did: the GM reads them, the turn pipeline writes them."""

    list_display = ("id", "campaign", "turn", "kind", "sea_zone", "port", "winner")
    list_filter = ("campaign", "kind")
    list_select_related = ("campaign", "turn", "sea_zone", "port")
    readonly_fields = [f.name for f in Battle._meta.fields]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
