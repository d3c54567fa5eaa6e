"""Admin for admirals, fleets and ships.

A GM adding or re-classing a ship here is held to the same §1 limits as a lay-down (quota and
four-deckers, captured ships exempt), with the rule's own error message.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin

from campaign.permissions import CampaignScopedAdmin, CampaignScopedInline
from fleets.models import Admiral, Fleet, Ship
from fleets.selectors import navy_counts
from rules.construction import ConstructionRefused, check_limits


class ShipAdminForm(forms.ModelForm[Ship]):
    class Meta:
        model = Ship
        fields = (
            "campaign",
            "name",
            "ship_class",
            "nation",
            "original_nation",
            "condition",
            "in_ordinary",
            "crew",
            "fleet",
            "building_port",
            "building_turns_left",
            "line_position",
            "cargo",
            "laid_down_turn",
            "lost_turn",
            "source",
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        nation, original, ship_class = data.get("nation"), data.get("original_nation"), data.get("ship_class")
        gone = data.get("condition") in Ship.GONE
        if nation is None or original is None or not ship_class or gone or nation.pk != original.pk:
            return data  # captured and lost ships are never held to the limits (RULES.md §1)
        instance = self.instance
        unchanged = (
            instance.pk is not None
            and instance.ship_class == ship_class
            and instance.nation_id == nation.pk
            and instance.original_nation_id == original.pk
            and instance.condition not in Ship.GONE
        )
        if unchanged:
            return data
        campaign = nation.campaign
        try:
            check_limits(
                campaign.ruleset,
                navy=nation.navy,
                nation_name=nation.name,
                year=campaign.year,
                ship_class=ship_class,
                counts=navy_counts(nation_id=nation.pk, exclude_ship_id=instance.pk),
            )
        except ConstructionRefused as refused:
            raise forms.ValidationError(refused.message, code=refused.rule) from refused
        return data


@admin.register(Ship)
class ShipAdmin(CampaignScopedAdmin):
    form = ShipAdminForm
    list_display = ("name", "ship_class", "nation", "original_nation", "condition", "in_ordinary", "fleet", "crew")
    list_filter = (
        ("campaign", admin.RelatedOnlyFieldListFilter),
        "nation__code",
        "ship_class",
        "condition",
        "in_ordinary",
    )
    search_fields = ("name",)
    list_select_related = ("nation", "original_nation", "fleet__nation")  # a fleet names its nation
    raw_id_fields = ("fleet", "building_port", "cargo")


class ShipInline(CampaignScopedInline):
    model = Ship
    form = ShipAdminForm
    fk_name = "fleet"
    extra = 0
    fields = ("name", "ship_class", "nation", "original_nation", "condition", "in_ordinary", "crew", "line_position")
    show_change_link = True


@admin.register(Fleet)
class FleetAdmin(CampaignScopedAdmin):
    list_display = ("name", "nation", "admiral", "sea_zone", "port", "posture", "in_supply")
    list_filter = (("campaign", admin.RelatedOnlyFieldListFilter), "nation__code", "posture")
    search_fields = ("name",)
    list_select_related = ("nation", "admiral", "sea_zone", "port")
    raw_id_fields = ("admiral", "sea_zone", "port", "blockade_port", "retreat_port", "retreat_zone")
    inlines = [ShipInline]


@admin.register(Admiral)
class AdmiralAdmin(CampaignScopedAdmin):
    list_display = ("name", "grade", "nation", "status", "port")
    list_filter = (("campaign", admin.RelatedOnlyFieldListFilter), "nation__code", "grade", "status")
    search_fields = ("name",)
    list_select_related = ("nation", "port")
