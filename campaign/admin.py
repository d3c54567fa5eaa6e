"""The GM's admin for campaigns, nations, the ledger, relations, turns and orders.

Every page is scoped to the campaigns the user runs (campaign.permissions.CampaignScopedAdmin): a
staff account sees only its own campaigns' rows, a superuser all of them.

Treasuries are read-only here: they change only through the ledger (the "Adjust treasury" and
"Lay down a ship" pages call the services, which write the ledger line).
"""

from __future__ import annotations

from datetime import timedelta
from functools import partial
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html

from campaign.beat_admin import beat_admin_for_superusers_only
from campaign.health import turns_summary
from campaign.mail.admin import DeliveryAdmin as DeliveryAdmin  # registers the mail's admin page
from campaign.models import Campaign, LedgerEntry, Nation, Order, Relation, Turn
from campaign.notifications import nation_given_record
from campaign.permissions import CampaignScopedAdmin, CampaignScopedInline, can_appoint_gms
from campaign.repair.admin import CampaignRevertAdmin as CampaignRevertAdmin  # registers the archive's page
from campaign.repair.admin import RepairAdminMixin
from campaign.services import TreasuryError, campaign_settings_update, ship_lay_down, treasury_adjust
from campaign.tasks import turn_resolve
from campaign.turn.lifecycle import (
    TurnControlError,
    campaign_pause,
    campaign_resume,
    open_turn,
    turn_claim,
    turn_extend,
    turn_retry,
)
from campaign.turn.runner import turn_dry_run
from fleets.models import ShipClass
from fleets.selectors import navy_counts
from fleets.services import ShipNameError
from ports.models import Port
from rules.construction import ConstructionRefused, big_ships_allowed_now, period_label, within_quota
from rules.ruleset import SETTINGS, RulesetError


class RulesetForm(forms.Form):
    """One whole-number field per RULES.md setting, bounded as the ruleset allows."""

    def __init__(self, *args: Any, current: dict[str, int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for setting in SETTINGS:
            self.fields[setting.key] = forms.IntegerField(
                label=setting.key,
                min_value=setting.minimum,
                max_value=setting.maximum,
                initial=current.get(setting.key, setting.default),
                help_text=f"{setting.help} Default {setting.default}.",
            )

    def sections(self) -> list[tuple[str, list[forms.BoundField]]]:
        grouped: dict[str, list[forms.BoundField]] = {}
        for setting in SETTINGS:
            grouped.setdefault(setting.section, []).append(self[setting.key])
        return list(grouped.items())


class NationInline(CampaignScopedInline):
    model = Nation
    extra = 0
    fields = ("code", "name", "navy", "player", "crew", "treasury", "base_income")
    readonly_fields = ("treasury",)
    show_change_link = True


@admin.register(Campaign)
class CampaignAdmin(RepairAdminMixin, CampaignScopedAdmin):
    campaign_field = ""  # the rows are the campaigns themselves
    list_display = ("name", "slug", "season_year", "turn_number", "status", "deadline", "gm")
    list_filter = ("status",)
    filter_horizontal = ("co_gms",)
    search_fields = ("name", "slug")
    readonly_fields = ("rules_link", "turn_controls", "repair_links", "created_at")
    exclude = ("settings",)
    inlines = [NationInline]
    actions = ["pause_campaigns", "resume_campaigns", "resolve_now", "revert_action"]

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        """The list opens with the last turn sweep and how many turns are due, resolving and failed."""
        return super().changelist_view(request, {**(extra_context or {}), "turns_summary": turns_summary()})

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """A co-GM runs the campaign but does not choose who runs it: the owner and superusers do."""
        fields = tuple(super().get_readonly_fields(request, obj))
        if obj is not None and not can_appoint_gms(request.user, obj):
            return (*fields, "gm", "co_gms")
        return fields

    @admin.display(description="Deadline of the open turn")
    def deadline(self, obj: Campaign) -> str:
        turn = open_turn(obj)
        return f"turn {turn.number}: {turn.deadline:%Y-%m-%d %H:%M} UTC" if turn and turn.deadline else "—"

    @admin.display(description="Turn controls")
    def turn_controls(self, obj: Campaign) -> str:
        if not obj.pk:
            return "—"
        return format_html(
            '<a href="{}">Dry run of the open turn</a> · <a href="{}">Extend the deadline</a>',
            reverse("admin:campaign_campaign_dry_run", args=[obj.pk]),
            reverse("admin:campaign_campaign_extend", args=[obj.pk]),
        )

    @admin.action(description="Pause the selected campaigns (deadlines move by the pause)")
    def pause_campaigns(self, request: HttpRequest, queryset: QuerySet[Campaign]) -> None:
        self._control(request, queryset, campaign_pause, "paused")

    @admin.action(description="Resume the selected campaigns")
    def resume_campaigns(self, request: HttpRequest, queryset: QuerySet[Campaign]) -> None:
        self._control(request, queryset, campaign_resume, "resumed")

    def _control(self, request: HttpRequest, queryset: QuerySet[Campaign], service: Any, verb: str) -> None:
        for campaign in queryset:
            try:
                service(campaign=campaign)
            except TurnControlError as exc:
                self.message_user(request, str(exc), messages.ERROR)
            else:
                self.message_user(request, f"{campaign.name} {verb}.", messages.SUCCESS)

    @admin.action(description="Resolve the open turn now (through the workers, as at the deadline)")
    def resolve_now(self, request: HttpRequest, queryset: QuerySet[Campaign]) -> None:
        for campaign in queryset:
            turn = open_turn(campaign)
            if turn is None or not turn_claim(turn_id=turn.pk, now=timezone.now()):
                self.message_user(request, f"{campaign.name} has no open turn to resolve.", messages.ERROR)
                continue
            transaction.on_commit(partial(turn_resolve.delay, turn.pk))
            self.message_user(
                request,
                f"Turn {turn.number} of {campaign.name} is resolving; it is done when its status reads resolved "
                "(Turns list). A failure is shown there with its error.",
                messages.SUCCESS,
            )

    @admin.display(description="Season")
    def season_year(self, obj: Campaign) -> str:
        return f"{obj.get_season_display()} {obj.year}"

    @admin.display(description="Ruleset")
    def rules_link(self, obj: Campaign) -> str:
        if not obj.pk:
            return "Save the campaign first."
        changed = len(obj.ruleset.overrides())
        url = reverse("admin:campaign_campaign_rules", args=[obj.pk])
        return format_html('<a href="{}">Edit the rules</a> ({} house rule(s) differ from RULES.md)', url, changed)

    def get_urls(self) -> list[URLPattern]:
        own = [
            path("<int:pk>/rules/", self.admin_site.admin_view(self.rules_view), name="campaign_campaign_rules"),
            path("<int:pk>/dry-run/", self.admin_site.admin_view(self.dry_run_view), name="campaign_campaign_dry_run"),
            path("<int:pk>/extend/", self.admin_site.admin_view(self.extend_view), name="campaign_campaign_extend"),
        ]
        return own + super().get_urls()

    def _campaign(self, request: HttpRequest, pk: int) -> Campaign:
        campaign = get_object_or_404(Campaign, pk=pk)
        if not self.has_change_permission(request, campaign):
            raise PermissionDenied
        return campaign

    def dry_run_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """What the open turn would do if it resolved now; nothing is written."""
        campaign = self._campaign(request, pk)
        turn = open_turn(campaign)
        result: dict[str, Any] | None = None
        error = ""
        if turn is None:
            error = f"{campaign.name} has no open turn."
        else:
            try:
                result = turn_dry_run(turn_id=turn.pk, now=timezone.now())
            except ValueError as exc:
                error = str(exc)
        context = {
            **self.admin_site.each_context(request),
            "title": f"Dry run of {campaign}",
            "campaign": campaign,
            "turn": turn,
            "result": result,
            "error": error,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/campaign/dry_run.html", context)

    def extend_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        campaign = self._campaign(request, pk)
        form = ExtendForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            by = timedelta(days=form.cleaned_data["days"], hours=form.cleaned_data["hours"])
            try:
                turn = turn_extend(campaign=campaign, by=by)
            except TurnControlError as exc:
                form.add_error(None, str(exc))
            else:
                self.message_user(request, f"Turn {turn.number} now ends {turn.deadline:%Y-%m-%d %H:%M} UTC.")
                return HttpResponseRedirect(reverse("admin:campaign_campaign_change", args=[pk]))
        context = {
            **self.admin_site.each_context(request),
            "title": f"Extend the deadline of {campaign}",
            "nation": None,
            "form": form,
            "intro": "Adds time to the open turn's deadline.",
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/campaign/extend.html", context)

    def rules_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        campaign = get_object_or_404(Campaign, pk=pk)
        if not self.has_change_permission(request, campaign):
            raise PermissionDenied
        current = dict(campaign.ruleset.flat)
        form = RulesetForm(request.POST or None, current=current)
        if request.method == "POST" and form.is_valid():
            changed = {k: v for k, v in form.cleaned_data.items() if current.get(k) != v}
            try:
                campaign_settings_update(campaign=campaign, values=changed)
            except RulesetError as exc:
                form.add_error(None, str(exc))
            else:
                self.message_user(request, f"Saved {len(changed)} change(s) to the rules of {campaign}.")
                return HttpResponseRedirect(reverse("admin:campaign_campaign_change", args=[pk]))
        context = {
            **self.admin_site.each_context(request),
            "title": f"Rules of {campaign}",
            "campaign": campaign,
            "form": form,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/campaign/ruleset.html", context)


class ExtendForm(forms.Form):
    days = forms.IntegerField(min_value=0, max_value=365, initial=1)
    hours = forms.IntegerField(min_value=0, max_value=23, initial=0)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("days") and not data.get("hours"):
            raise forms.ValidationError("Extend by at least one hour.")
        return data


class LayDownForm(forms.Form):
    ship_class = forms.ChoiceField(choices=ShipClass.choices, label="Class")
    name = forms.CharField(max_length=80)
    port = forms.ModelChoiceField(queryset=Port.objects.none(), help_text="An own port with a dockyard.")

    def __init__(self, *args: Any, nation: Nation, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        port_field = self.fields["port"]
        assert isinstance(port_field, forms.ModelChoiceField)
        port_field.queryset = Port.objects.filter(owner=nation, dockyard=True).order_by("name")


# Treasuries, ledger amounts and balances are 32-bit integer columns: a larger number would reach
# the database as an error (a 500), so the form refuses it first.
TREASURY_MAX = 2**31 - 1


class AdjustTreasuryForm(forms.Form):
    amount = forms.IntegerField(
        min_value=-TREASURY_MAX, max_value=TREASURY_MAX, help_text="EP to add (negative to take away); not 0."
    )
    reason = forms.CharField(max_length=150, help_text="Shown to the player in the ledger.")

    def __init__(self, *args: Any, nation: Nation, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.nation = nation

    def clean_amount(self) -> int:
        amount: int = self.cleaned_data["amount"]
        if amount == 0:
            raise forms.ValidationError("An adjustment must change the treasury: enter a non-zero amount.")
        if self.nation.treasury + amount > TREASURY_MAX:
            raise forms.ValidationError(
                f"The treasury would be {self.nation.treasury + amount} EP; it holds at most {TREASURY_MAX} EP."
            )
        if self.nation.treasury + amount < 0:
            raise forms.ValidationError(
                f"{self.nation.code} has {self.nation.treasury} EP; taking {-amount} EP would leave it "
                f"{-(self.nation.treasury + amount)} EP short. A treasury never goes below 0 (RULES.md §2)."
            )
        return amount


@admin.register(Nation)
class NationAdmin(CampaignScopedAdmin):
    list_display = ("code", "name", "campaign", "navy", "player", "treasury", "base_income")
    list_filter = (("campaign", admin.RelatedOnlyFieldListFilter),)
    search_fields = ("code", "name")
    readonly_fields = ("treasury", "quota_status", "actions_links")
    list_select_related = ("campaign", "player")

    @admin.display(description="Quota (RULES.md §1)")
    def save_model(self, request: HttpRequest, obj: Nation, form: forms.ModelForm[Nation], change: bool) -> None:
        super().save_model(request, obj, form, change)
        if "player" in form.changed_data:  # in the admin's transaction: the mail is recorded with the change
            nation_given_record(nation=obj, now=timezone.now())

    def quota_status(self, obj: Nation) -> str:
        if not obj.pk:
            return "—"
        campaign = obj.campaign
        ruleset = campaign.ruleset
        counts = navy_counts(nation_id=obj.pk)
        pct = ruleset.quota_percent(obj.navy, campaign.year)
        ok = within_quota(ruleset, navy=obj.navy, year=campaign.year, counts=counts)
        more = big_ships_allowed_now(ruleset, navy=obj.navy, year=campaign.year, counts=counts)
        return (
            f"{counts.big} of {counts.sol} SOL are 1st/2nd rates or four-deckers; limit {pct}% in "
            f"{period_label(ruleset, campaign.year)} ({'within' if ok else 'OVER'} quota); "
            f"{more} more may be laid down now. Four-deckers: {counts.four_deckers} of "
            f"{ruleset['quota.four_decker_limit']}."
        )

    @admin.display(description="GM actions")
    def actions_links(self, obj: Nation) -> str:
        if not obj.pk:
            return "—"
        return format_html(
            '<a href="{}">Lay down a ship</a> · <a href="{}">Adjust treasury</a>',
            reverse("admin:campaign_nation_lay_down", args=[obj.pk]),
            reverse("admin:campaign_nation_adjust", args=[obj.pk]),
        )

    def get_urls(self) -> list[URLPattern]:
        own = [
            path("<int:pk>/lay-down/", self.admin_site.admin_view(self.lay_down_view), name="campaign_nation_lay_down"),
            path("<int:pk>/adjust/", self.admin_site.admin_view(self.adjust_view), name="campaign_nation_adjust"),
        ]
        return own + super().get_urls()

    def _nation(self, request: HttpRequest, pk: int) -> Nation:
        nation = get_object_or_404(Nation.objects.select_related("campaign"), pk=pk)
        if not self.has_change_permission(request, nation):
            raise PermissionDenied
        return nation

    def _render(self, request: HttpRequest, nation: Nation, form: forms.Form, title: str, intro: str) -> HttpResponse:
        context = {
            **self.admin_site.each_context(request),
            "title": title,
            "nation": nation,
            "form": form,
            "intro": intro,
            "quota": self.quota_status(nation),
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/campaign/nation_form.html", context)

    def lay_down_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        nation = self._nation(request, pk)
        form = LayDownForm(request.POST or None, nation=nation)
        if request.method == "POST" and form.is_valid():
            try:
                ship = ship_lay_down(
                    nation=nation,
                    ship_class=form.cleaned_data["ship_class"],
                    name=form.cleaned_data["name"],
                    port=form.cleaned_data["port"],
                )
            except (ConstructionRefused, ShipNameError, TreasuryError) as exc:
                form.add_error(None, str(exc))
            else:
                self.message_user(
                    request,
                    f"{ship.name} laid down at {ship.building_port}; treasury now {nation.treasury} EP.",
                    messages.SUCCESS,
                )
                return HttpResponseRedirect(reverse("admin:campaign_nation_change", args=[pk]))
        return self._render(
            request,
            nation,
            form,
            f"Lay down a ship for {nation}",
            f"Treasury {nation.treasury} EP. Paid now through the ledger; the keel starts with its full build turns.",
        )

    def adjust_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        nation = self._nation(request, pk)
        form = AdjustTreasuryForm(request.POST or None, nation=nation)
        if request.method == "POST" and form.is_valid():
            try:
                treasury_adjust(nation=nation, amount=form.cleaned_data["amount"], reason=form.cleaned_data["reason"])
            except TreasuryError as exc:
                form.add_error("amount", str(exc))
            else:
                self.message_user(request, f"Treasury of {nation} is now {nation.treasury} EP.", messages.SUCCESS)
                return HttpResponseRedirect(reverse("admin:campaign_nation_change", args=[pk]))
        return self._render(
            request, nation, form, f"Adjust the treasury of {nation}", f"Treasury {nation.treasury} EP."
        )


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
                turn_retry(turn=turn)
            except TurnControlError as exc:
                self.message_user(request, str(exc), messages.ERROR)
            else:
                self.message_user(request, f"{turn} will be resumed by the next sweep.", messages.SUCCESS)

    readonly_fields = ("dice_log", "snapshot_size", "lease_token", "lease_until", "attempts", "error")
    exclude = ("snapshot",)

    @admin.display(description="Snapshot")
    def snapshot_size(self, obj: Turn) -> str:
        return "stored" if obj.snapshot else "none"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Turn]:
        return super().get_queryset(request).defer("snapshot", "dice_log").select_related("campaign")


# Celery beat's schedules run code for every campaign at once: superusers only (issues 9 and 11).
beat_admin_for_superusers_only(admin.site)
