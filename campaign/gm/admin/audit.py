"""The audit log in the GM's admin: read-only, scoped to the campaigns the GM runs, filterable by campaign.

Nobody adds, changes or deletes an entry here (the database refuses the last two anyway: see
campaign.models.audit). Registered from ``campaign.admin``.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin
from django.db.models import OuterRef, QuerySet, Subquery
from django.http import HttpRequest

from campaign.models import Campaign
from campaign.models.audit import AuditAction, AuditEntry
from campaign.permissions import CampaignRunFilter, CampaignScopedAdmin


class _ActionFilter(admin.SimpleListFilter):
    """The actions by their labels (the column keeps the code's name)."""

    title = "action"
    parameter_name = "action__exact"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[Any, str]]:
        return [(value, str(label)) for value, label in AuditAction.choices]

    def queryset(self, request: HttpRequest, queryset: Any) -> Any:
        return queryset.filter(action=self.value()) if self.value() else queryset


#: Characters of "before → after" shown in the list.
LIST_CHANGE_CHARS = 160


def _shown(data: dict[str, Any] | None) -> str:
    if not data:
        return "—"
    return ", ".join(f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in data.items())


@admin.register(AuditEntry)
class AuditEntryAdmin(CampaignScopedAdmin):
    list_display = (
        "created_at",
        "campaign_shown",
        "actor_shown",
        "turn",
        "action_label",
        "summary",
        "change",
        "reason",
    )
    list_display_links = ("created_at",)
    list_filter = (CampaignRunFilter, _ActionFilter)
    search_fields = ("summary", "reason", "actor_name")
    date_hierarchy = "created_at"
    fields = (
        "created_at",
        "campaign_slug",
        "actor_name",
        "turn",
        "action",
        "summary",
        "before_shown",
        "after_shown",
        "reason",
    )
    readonly_fields = fields
    list_per_page = 100

    def get_queryset(self, request: HttpRequest) -> QuerySet[AuditEntry]:
        """With the campaign's name as it is now (kept on the row as the slug if it was deleted)."""
        name = Campaign.objects.filter(pk=OuterRef("campaign_id")).values("name")[:1]
        return super().get_queryset(request).annotate(campaign_name=Subquery(name))

    @admin.display(description="Campaign", ordering="campaign_slug")
    def campaign_shown(self, obj: AuditEntry) -> str:
        return getattr(obj, "campaign_name", None) or obj.campaign_slug

    @admin.display(description="Who", ordering="actor_name")
    def actor_shown(self, obj: AuditEntry) -> str:
        return obj.actor_name

    @admin.display(description="Action", ordering="action")
    def action_label(self, obj: AuditEntry) -> str:
        return obj.action_label

    @admin.display(description="Before → after")
    def change(self, obj: AuditEntry) -> str:
        if obj.before is None and obj.after is None:
            return "—"
        text = f"{_shown(obj.before)} → {_shown(obj.after)}"
        # The list stays readable on a phone; the entry's own page shows all of it.
        return text if len(text) <= LIST_CHANGE_CHARS else text[: LIST_CHANGE_CHARS - 1] + "…"

    @admin.display(description="Before")
    def before_shown(self, obj: AuditEntry) -> str:
        return _shown(obj.before)

    @admin.display(description="After")
    def after_shown(self, obj: AuditEntry) -> str:
        return _shown(obj.after)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
