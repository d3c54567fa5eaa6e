"""The GM's admin for campaigns, nations, the ledger, relations, turns and orders: the registrations Django
discovers (the GM's own pages are mixins from campaign.gm.admin and campaign.gm.repair.admin).

Every page is scoped to the campaigns the user runs (campaign.permissions.CampaignScopedAdmin): a
staff account sees only its own campaigns' rows, a superuser all of them.

Treasuries are read-only here: they change only through the ledger (the "Adjust treasury" and
"Lay down a ship" pages call the services, which write the ledger line).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef, QuerySet, Subquery
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html

from campaign.gm.actions import (
    gm_campaign_delete,
    gm_campaign_pause,
    gm_campaign_resume,
    gm_turn_resolve_now,
    gm_turn_retry,
)
from campaign.gm.admin.archive_pages import ArchivedFilter, ArchivePages
from campaign.gm.admin.audit import AuditEntryAdmin as AuditEntryAdmin  # registers the audit log's page
from campaign.gm.admin.backup_pages import BackupPages
from campaign.gm.admin.base import people_pickers
from campaign.gm.admin.beat import beat_admin_for_superusers_only
from campaign.gm.admin.co_gm_pages import CoGmPages
from campaign.gm.admin.desk import DeskPages
from campaign.gm.admin.forms import DeleteCampaignForm
from campaign.gm.admin.mail import AnnouncementAdmin as AnnouncementAdmin  # registers the mail's admin pages
from campaign.gm.admin.mail import DeliveryAdmin as DeliveryAdmin
from campaign.gm.admin.needs_you import NeedsYouPages
from campaign.gm.admin.orders_by_mail import MailOrdersPages
from campaign.gm.admin.rules_editor import RulesEditorPages
from campaign.gm.admin.start_end import StartEndPages
from campaign.gm.admin.turn_pages import TurnPages
from campaign.gm.repair.admin import CampaignRevertAdmin as CampaignRevertAdmin  # registers the archive's page
from campaign.gm.repair.admin import RepairAdminMixin
from campaign.models import Campaign, LedgerEntry, Nation, Order, Relation, Turn
from campaign.permissions import CampaignScopedAdmin, CampaignScopedInline, can_appoint_gms, is_superuser
from campaign.players.services import PlayerError, account_by_email, player_replace
from campaign.turn.health import turns_summary
from campaign.turn.lifecycle import TurnControlError, clock_turn


class NationInline(CampaignScopedInline):
    """The campaign's nations; players change only through Invite / Replace the player (audited, both told)."""

    model = Nation
    extra = 0
    fields = ("code", "name", "navy", "player", "crew", "treasury", "base_income", "capital")
    readonly_fields = ("code", "player", "treasury")
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # nations come from the scenario

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # its ledger, orders and reports would go with it


#: The dispatches' house options (issue 16) as the GM reads them on the campaign's page; the field names
#: are the backup's keys, so the labels are given here rather than in the model.
DISPATCH_OPTION_LABELS = {
    "press": "Press",
    "anonymous_press": "Anonymous press",
    "gm_reads_dispatches": "The GM reads every dispatch",
    "dispatch_delay_zones": "Dispatch delay (sea zones between capitals)",
    "dispatch_max_length": "Longest dispatch (characters)",
    "dispatches_per_hour": "Dispatches an hour per nation",
}


class CampaignAdminForm(forms.ModelForm[Campaign]):
    """The campaign's change form (its fields come from the admin's fieldsets), with the dispatch
    options' labels, and a co-GM added by the exact address of their (staff) account."""

    co_gm_email = forms.EmailField(
        required=False,
        label="Add a co-GM by email",
        help_text="The exact address of an existing staff account: they run the campaign like you.",
    )

    class Meta:
        model = Campaign
        fields = tuple(DISPATCH_OPTION_LABELS)
        labels = DISPATCH_OPTION_LABELS

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        email = data.get("co_gm_email")
        if email and "co_gms" in self.fields:
            account = account_by_email(email)
            if account is None:
                self.add_error("co_gm_email", f"No account has the address {email}; an administrator creates it.")
            elif not account.is_staff:
                self.add_error("co_gm_email", f"The account of {email} is not staff, so it cannot open the admin.")
            else:
                data["co_gms"] = [*data.get("co_gms", []), account]
        return data


@admin.register(Campaign)
class CampaignAdmin(
    ArchivePages,
    CoGmPages,
    NeedsYouPages,
    BackupPages,
    DeskPages,
    StartEndPages,
    TurnPages,
    RulesEditorPages,
    RepairAdminMixin,
    CampaignScopedAdmin,
):
    campaign_field = ""  # the rows are the campaigns themselves
    list_display = ("name", "slug", "season_year", "turn_number", "status", "deadline", "gm", "desk_link")
    list_filter = ("status", ArchivedFilter)
    list_select_related = ("gm",)
    filter_horizontal = ("co_gms",)
    search_fields = ("name", "slug")
    form = CampaignAdminForm
    # The lifecycle is the services' (start, the turn, pause/resume, end): never typed in here (issue 11).
    LIFECYCLE = ("slug", "scenario", "status", "turn_number", "season", "year", "start_year", "seed", "created_at")
    readonly_fields = ("gm_links", "rules_link", "turn_controls", "repair_links", *LIFECYCLE)
    fieldsets = (
        (None, {"fields": ("name", "gm_links", "gm", "co_gms", "co_gm_email")}),
        ("House options", {"fields": ("show_readiness", "nmr_policy", "reminder_hours", "rules_link")}),
        (
            "Dispatches (house options of the players' diplomacy)",
            {"fields": tuple(DISPATCH_OPTION_LABELS)},
        ),
        ("How it ends", {"fields": ("last_turn", "victory", "victory_ports")}),
        (
            "Where it stands (changed only by the turn and the GM's actions)",
            {"fields": (*LIFECYCLE, "turn_controls", "repair_links")},
        ),
    )
    inlines = [NationInline]
    actions = ["pause_campaigns", "resume_campaigns", "resolve_now", "revert_action"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Campaign]:
        """With the open turn's number and deadline, so the list reads them in its one query."""
        unresolved = Turn.objects.filter(campaign=OuterRef("pk"), status=Turn.Status.OPEN)
        return (
            super()
            .get_queryset(request)
            .annotate(
                open_number=Subquery(unresolved.values("number")[:1]),
                open_deadline=Subquery(unresolved.values("deadline")[:1]),
            )
        )

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Deleting a campaign deletes its turns, battles, ledger and reports: superusers, and the owner GM
        of one campaign that is being set up or has ended (never one being played, never from the list)."""
        if is_superuser(request.user):
            return super().has_delete_permission(request, obj)
        closed = (Campaign.Status.SETUP, Campaign.Status.ENDED)
        return obj is not None and obj.status in closed and can_appoint_gms(request.user, obj)

    def delete_view(self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None) -> Any:
        """Delete a campaign being set up or ended: its export offered first, its name typed to confirm
        (gm_campaign_delete). Django's own page would stop at the nations, which no one may delete."""
        campaign = self._campaign(request, int(object_id)) if object_id.isdigit() else None
        if campaign is None or not self.has_delete_permission(request, campaign):
            raise PermissionDenied
        form = DeleteCampaignForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                name = gm_campaign_delete(campaign=campaign, actor=request.user, typed_name=form.cleaned_data["name"])
            except TurnControlError as exc:
                form.add_error("name", str(exc))
            else:
                self.message_user(request, f"{name} is deleted; its audit log keeps who deleted it.")
                return HttpResponseRedirect(reverse("admin:campaign_campaign_changelist"))
        context = self._context(
            request,
            f"Delete {campaign}",
            campaign=campaign,
            form=form,
            export_url=reverse("admin:campaign_campaign_export", args=[campaign.pk]),
        )
        return TemplateResponse(request, "admin/campaign/delete_campaign.html", context)

    def add_view(self, request: HttpRequest, form_url: str = "", extra_context: dict[str, Any] | None = None) -> Any:
        """A campaign is started from a scenario (the Start page), never typed in field by field."""
        return HttpResponseRedirect(reverse("admin:campaign_campaign_start"))

    @admin.display(description="Desk")
    def desk_link(self, obj: Campaign) -> str:
        return format_html('<a href="{}">Open the desk</a>', reverse("admin:campaign_campaign_desk", args=[obj.pk]))

    @admin.display(description="GM")
    def gm_links(self, obj: Campaign) -> str:
        if not obj.pk:
            return "—"
        return format_html(
            '<a href="{}">The desk</a> · <a href="{}">Audit log</a> · '
            '<a href="{}">Final standings / end the campaign</a>',
            reverse("admin:campaign_campaign_desk", args=[obj.pk]),
            reverse("admin:campaign_auditentry_changelist") + f"?campaign__id__exact={obj.pk}",
            reverse("admin:campaign_campaign_end", args=[obj.pk]),
        )

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        """The list opens with the last turn sweep and how many turns are due, resolving and failed."""
        return super().changelist_view(request, {**(extra_context or {}), "turns_summary": turns_summary()})

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        form = super().get_form(request, obj, change, **kwargs)
        people_pickers(form, request.user, obj, ("gm", "co_gms"))
        return form

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        """Without the right to appoint GMs, no co-GM is added by email either."""
        if obj is not None and not can_appoint_gms(request.user, obj):
            first, *rest = super().get_fieldsets(request, obj)
            fields = tuple(f for f in first[1]["fields"] if f != "co_gm_email")
            return [(first[0], {**first[1], "fields": fields}), *rest]
        return super().get_fieldsets(request, obj)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """A co-GM runs the campaign but does not choose who runs it: the owner and superusers do."""
        fields = tuple(super().get_readonly_fields(request, obj))
        if obj is not None and not can_appoint_gms(request.user, obj):
            return (*fields, "gm", "co_gms")
        return fields

    @admin.display(description="Deadline of the open turn")
    def deadline(self, obj: Campaign) -> str:
        number, deadline = getattr(obj, "open_number", None), getattr(obj, "open_deadline", None)
        if number is None or deadline is None:
            return "—"
        # In the reader's time zone (the middleware activates it), with the zone's name.
        return f"turn {number}: {date_format(timezone.localtime(deadline), 'j M Y, H:i T')}"

    @admin.display(description="Turn controls")
    def turn_controls(self, obj: Campaign) -> str:
        if not obj.pk:
            return "—"
        return format_html(
            '<a href="{}">Dry run of the open turn</a> · <a href="{}">Extend the deadline</a>',
            reverse("admin:campaign_campaign_dry_run", args=[obj.pk]),
            reverse("admin:campaign_campaign_extend", args=[obj.pk]),
        )

    def _asked(self, request: HttpRequest, queryset: QuerySet[Campaign], title: str, explain: str) -> Any:
        """The confirmation page of a list action (None once confirmed): the chosen campaigns, each with
        its current deadline; its button sends the same action again, confirmed."""
        if request.POST.get("confirmed") == "yes" or not queryset.exists():
            return None  # confirmed, or none of the chosen rows is the user's: nothing to ask about
        chosen = [(campaign, clock_turn(campaign)) for campaign in queryset]
        context = {
            **self.admin_site.each_context(request),
            "title": title,
            "explain": explain,
            "chosen": chosen,
            "action": request.POST.get("action", ""),
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/campaign/action_confirm.html", context)

    @admin.action(description="Pause the selected campaigns (deadlines move by the pause)")
    def pause_campaigns(self, request: HttpRequest, queryset: QuerySet[Campaign]) -> Any:
        explain = "The clock stops: no turn resolves until you resume; the deadline then moves on by the pause."
        if asked := self._asked(request, queryset, "Pause these campaigns?", explain):
            return asked
        self._control(request, queryset, gm_campaign_pause, "paused")
        return None

    @admin.action(description="Resume the selected campaigns")
    def resume_campaigns(self, request: HttpRequest, queryset: QuerySet[Campaign]) -> Any:
        explain = "The clock runs again; each deadline moves on by the time its campaign was paused."
        if asked := self._asked(request, queryset, "Resume these campaigns?", explain):
            return asked
        self._control(request, queryset, gm_campaign_resume, "resumed")
        return None

    def _control(self, request: HttpRequest, queryset: QuerySet[Campaign], service: Any, verb: str) -> None:
        for campaign in queryset:
            try:
                service(campaign=campaign, actor=request.user)
            except TurnControlError as exc:
                self.message_user(request, str(exc), messages.ERROR)
            else:
                self.message_user(request, f"{campaign.name} {verb}.", messages.SUCCESS)

    @admin.action(description="Resolve the open turn now (through the workers, as at the deadline)")
    def resolve_now(self, request: HttpRequest, queryset: QuerySet[Campaign]) -> Any:
        explain = (
            "Each open turn is resolved at once, before its deadline, with the orders entered so far; "
            "it cannot be undone except by reverting the campaign."
        )
        if asked := self._asked(request, queryset, "Resolve the open turns now?", explain):
            return asked
        for campaign in queryset:
            try:
                turn = gm_turn_resolve_now(campaign=campaign, actor=request.user)
            except TurnControlError as exc:
                self.message_user(request, str(exc), messages.ERROR)
                continue
            self.message_user(
                request,
                f"Turn {turn.number} of {campaign.name} is resolving; it is done when its status reads resolved "
                "(Turns list). A failure is shown there with its error.",
                messages.SUCCESS,
            )
        return None

    @admin.display(description="Season")
    def season_year(self, obj: Campaign) -> str:
        return f"{obj.get_season_display()} {obj.year}"

    @admin.display(description="Ruleset")
    def rules_link(self, obj: Campaign) -> str:
        if not obj.pk:
            return "Save the campaign first."
        changed = len(obj.ruleset.overrides())
        url = reverse("admin:campaign_campaign_rules", args=[obj.pk])
        differ = f"{changed} house rule{'s differ' if changed != 1 else ' differs'} from the standard rules"
        return format_html('<a href="{}">Edit the rules</a> ({})', url, differ)


@admin.register(Nation)
class NationAdmin(MailOrdersPages, CampaignScopedAdmin):
    list_display = ("code", "name", "campaign", "navy", "player", "treasury", "base_income")
    list_filter = (("campaign", admin.RelatedOnlyFieldListFilter),)
    search_fields = ("code", "name")
    readonly_fields = ("treasury", "quota_status", "actions_links")
    list_select_related = ("campaign", "player")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = tuple(super().get_readonly_fields(request, obj))
        return (*fields, "campaign", "code") if obj is not None else fields

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a nation's ledger, orders and reports are history

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        form = super().get_form(request, obj, change, **kwargs)
        people_pickers(form, request.user, obj.campaign if obj is not None else None, ("player",))
        return form

    def save_model(self, request: HttpRequest, obj: Nation, form: forms.ModelForm[Nation], change: bool) -> None:
        """A new player goes through the replacement service (old one out at once, both told, audited)."""
        if change and "player" in form.changed_data:
            new_player = obj.player
            obj.player_id = form.initial.get("player")
            form.changed_data.remove("player")
            super().save_model(request, obj, form, change)
            try:
                player_replace(nation=obj, player=new_player, actor=request.user)
            except PlayerError as exc:
                self.message_user(request, str(exc), messages.ERROR)
            return
        super().save_model(request, obj, form, change)


@admin.register(LedgerEntry)
class LedgerEntryAdmin(CampaignScopedAdmin):
    """Read-only: the ledger is history, written only by services."""

    list_display = ("nation", "turn", "kind", "amount", "balance", "unpaid", "reason")
    list_filter = (("campaign", admin.RelatedOnlyFieldListFilter), "kind", "nation__code")
    list_select_related = ("nation",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Order)
class OrderAdmin(CampaignScopedAdmin):
    """Read-only: orders are the players' (web, API, submit_orders); the GM reads them here."""

    list_display = ("nation", "turn", "position", "kind", "outcome")
    list_filter = (("campaign", admin.RelatedOnlyFieldListFilter), "kind", "outcome")
    list_select_related = ("nation", "turn")
    readonly_fields = [f.name for f in Order._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Relation)
class RelationAdmin(CampaignScopedAdmin):
    list_display = ("campaign", "a", "b", "state")
    list_filter = (("campaign", admin.RelatedOnlyFieldListFilter), "state")
    list_select_related = ("campaign", "a", "b")


@admin.register(Turn)
class TurnAdmin(CampaignScopedAdmin):
    list_display = ("campaign", "number", "season", "year", "deadline", "status", "attempts", "error")
    list_filter = (("campaign", admin.RelatedOnlyFieldListFilter), "status")
    actions = ["retry_resolution"]

    @admin.action(description="Retry the resolution of the selected turns (after fixing what failed)")
    def retry_resolution(self, request: HttpRequest, queryset: QuerySet[Turn]) -> None:
        for turn in queryset:
            try:
                gm_turn_retry(turn=turn, actor=request.user)
            except TurnControlError as exc:
                self.message_user(request, str(exc), messages.ERROR)
            else:
                self.message_user(request, f"{turn} will be resumed by the next sweep.", messages.SUCCESS)

    # Turns are history and the lifecycle's: every field read-only, never added or deleted here (issue 11).
    readonly_fields = (
        "campaign",
        "number",
        "year",
        "season",
        "deadline",
        "status",
        "opened_at",
        "resolved_at",
        "paused_at",
        "dice_log",
        "snapshot_size",
        "lease_token",
        "lease_until",
        "attempts",
        "error",
    )
    exclude = ("snapshot",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="Snapshot")
    def snapshot_size(self, obj: Turn) -> str:
        return "stored" if obj.snapshot else "none"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Turn]:
        return super().get_queryset(request).defer("snapshot", "dice_log").select_related("campaign")


# Celery beat's schedules run code for every campaign at once: superusers only (issues 9 and 11).
beat_admin_for_superusers_only(admin.site)
