"""The GM's admin for campaigns, nations, the ledger, relations, turns and orders.

Every page is scoped to the campaigns the user runs (campaign.permissions.CampaignScopedAdmin): a
staff account sees only its own campaigns' rows, a superuser all of them.

Treasuries are read-only here: they change only through the ledger (the "Adjust treasury" and
"Lay down a ship" pages call the services, which write the ledger line).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import OuterRef, QuerySet, Subquery
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html

from campaign.audit_admin import AuditEntryAdmin as AuditEntryAdmin  # registers the audit log's page
from campaign.beat_admin import beat_admin_for_superusers_only
from campaign.desk import desk_for_gm
from campaign.gm_actions import (
    campaign_end,
    campaign_start,
    gm_campaign_pause,
    gm_campaign_resume,
    gm_rules_update,
    gm_ship_lay_down,
    gm_treasury_adjust,
    gm_turn_dry_run,
    gm_turn_extend,
    gm_turn_resolve_now,
    gm_turn_retry,
)
from campaign.health import turns_summary
from campaign.mail.admin import DeliveryAdmin as DeliveryAdmin  # registers the mail's admin page
from campaign.models import Campaign, LedgerEntry, Nation, Order, Relation, Turn, Victory, slug_validator
from campaign.pages.map import map_for_gm
from campaign.permissions import CampaignScopedAdmin, CampaignScopedInline, can_appoint_gms, is_superuser
from campaign.players import PlayerError, player_invite, player_replace
from campaign.repair.admin import CampaignRevertAdmin as CampaignRevertAdmin  # registers the archive's page
from campaign.repair.admin import RepairAdminMixin
from campaign.scenario import ScenarioError, available_scenarios
from campaign.services import TreasuryError
from campaign.standings import campaign_standings, victory_description
from campaign.turn.lifecycle import TurnControlError, open_turn
from fleets.models import ShipClass
from fleets.selectors import navy_counts
from fleets.services import ShipNameError
from ports.models import Port
from rules.construction import ConstructionRefused, big_ships_allowed_now, period_label, within_quota
from rules.ruleset import SETTINGS, RulesetError, Setting


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
                help_text=setting.help,
            )

    def sections(self) -> list[tuple[str, list[tuple[Setting, forms.BoundField, bool]]]]:
        """Per rule section: each setting with its field and whether the campaign's value is a house rule."""
        grouped: dict[str, list[tuple[Setting, forms.BoundField, bool]]] = {}
        for setting in SETTINGS:
            field = self[setting.key]
            house = field.initial != setting.default
            grouped.setdefault(setting.section, []).append((setting, field, house))
        return list(grouped.items())


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


@admin.register(Campaign)
class CampaignAdmin(RepairAdminMixin, CampaignScopedAdmin):
    campaign_field = ""  # the rows are the campaigns themselves
    list_display = ("name", "slug", "season_year", "turn_number", "status", "deadline", "gm", "desk_link")
    list_filter = ("status",)
    list_select_related = ("gm",)
    filter_horizontal = ("co_gms",)
    search_fields = ("name", "slug")
    # The lifecycle is the services' (start, the turn, pause/resume, end): never typed in here (issue 11).
    LIFECYCLE = ("slug", "scenario", "status", "turn_number", "season", "year", "start_year", "seed", "created_at")
    readonly_fields = ("gm_links", "rules_link", "turn_controls", "repair_links", *LIFECYCLE)
    fieldsets = (
        (None, {"fields": ("name", "gm_links", "gm", "co_gms")}),
        ("House options", {"fields": ("show_readiness", "nmr_policy", "reminder_hours", "rules_link")}),
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
        """Deleting a campaign deletes its turns, battles, ledger and reports: superusers only."""
        return is_superuser(request.user) and super().has_delete_permission(request, obj)

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

    @admin.action(description="Pause the selected campaigns (deadlines move by the pause)")
    def pause_campaigns(self, request: HttpRequest, queryset: QuerySet[Campaign]) -> None:
        self._control(request, queryset, gm_campaign_pause, "paused")

    @admin.action(description="Resume the selected campaigns")
    def resume_campaigns(self, request: HttpRequest, queryset: QuerySet[Campaign]) -> None:
        self._control(request, queryset, gm_campaign_resume, "resumed")

    def _control(self, request: HttpRequest, queryset: QuerySet[Campaign], service: Any, verb: str) -> None:
        for campaign in queryset:
            try:
                service(campaign=campaign, actor=request.user)
            except TurnControlError as exc:
                self.message_user(request, str(exc), messages.ERROR)
            else:
                self.message_user(request, f"{campaign.name} {verb}.", messages.SUCCESS)

    @admin.action(description="Resolve the open turn now (through the workers, as at the deadline)")
    def resolve_now(self, request: HttpRequest, queryset: QuerySet[Campaign]) -> None:
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
            path("<int:pk>/desk/", self.admin_site.admin_view(self.desk_view), name="campaign_campaign_desk"),
            path("<int:pk>/end/", self.admin_site.admin_view(self.end_view), name="campaign_campaign_end"),
            path("start/", self.admin_site.admin_view(self.start_view), name="campaign_campaign_start"),
        ]
        return own + super().get_urls()

    def _campaign(self, request: HttpRequest, pk: int) -> Campaign:
        """The campaign, if the user runs it; a campaign of other GMs does not exist for them (404)."""
        campaign = get_object_or_404(Campaign, pk=pk)
        if not self.has_change_permission(request, campaign):
            raise Http404("No such campaign.")
        return campaign

    def _context(self, request: HttpRequest, title: str, **extra: Any) -> dict[str, Any]:
        return {**self.admin_site.each_context(request), "title": title, "opts": self.model._meta, **extra}

    def desk_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """The GM's desk: the open turn, every nation at a glance, the map without fog, failed mail."""
        campaign = self._campaign(request, pk)
        desk = desk_for_gm(campaign=campaign)
        seamap = map_for_gm(user=request.user, slug=campaign.slug) if desk.nations else None
        context = self._context(
            request,
            f"Desk of {campaign}",
            campaign=campaign,
            desk=desk,
            m=seamap,
            map_title=f"{campaign.name}: every nation's forces (no fog of war)",
            audit_url=reverse("admin:campaign_auditentry_changelist") + f"?campaign__id__exact={campaign.pk}",
            mail_url=reverse("admin:campaign_delivery_changelist")
            + f"?campaign__id__exact={campaign.pk}&state__exact=failed",
        )
        return TemplateResponse(request, "admin/campaign/desk.html", context)

    def start_view(self, request: HttpRequest) -> HttpResponse:
        """Start a campaign from a scenario: name, slug, seed, first deadline, deadline rhythm."""
        if not (is_superuser(request.user) or request.user.is_staff):
            raise PermissionDenied
        form = StartCampaignForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                campaign = campaign_start(
                    scenario=data["scenario"],
                    name=data["name"],
                    slug=data["slug"],
                    seed=data["seed"],
                    first_deadline=data["first_deadline"],
                    turn_length_days=data["turn_length_days"],
                    gm=request.user,  # type: ignore[arg-type]
                    actor=request.user,
                )
            except (ScenarioError, RulesetError) as exc:
                form.add_error(None, str(exc))
            else:
                self.message_user(
                    request, f"{campaign.name} started; invite its players from each nation's page.", messages.SUCCESS
                )
                return HttpResponseRedirect(reverse("admin:campaign_campaign_desk", args=[campaign.pk]))
        return TemplateResponse(
            request,
            "admin/campaign/start.html",
            self._context(request, "Start a campaign from a scenario", form=form),
        )

    def end_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """The standings by the campaign's victory condition; ending it (with a reason) mails them to all."""
        campaign = self._campaign(request, pk)
        form = EndCampaignForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                campaign_end(campaign=campaign, actor=request.user, reason=form.cleaned_data["reason"])
            except TurnControlError as exc:
                form.add_error(None, str(exc))
            else:
                self.message_user(request, f"{campaign.name} has ended; everyone is mailed the final standings.")
                return HttpResponseRedirect(reverse("admin:campaign_campaign_end", args=[pk]))
        context = self._context(
            request,
            f"Final standings of {campaign}"
            if campaign.status == Campaign.Status.ENDED
            else f"Standings of {campaign}",
            campaign=campaign,
            standings=campaign_standings(campaign.pk),
            victory=victory_description(campaign),
            by_points=campaign.victory == Victory.POINTS,
            ended=campaign.status == Campaign.Status.ENDED,
            form=form,
        )
        return TemplateResponse(request, "admin/campaign/end.html", context)

    def dry_run_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """What the open turn would do if it resolved now; nothing is written."""
        campaign = self._campaign(request, pk)
        turn = open_turn(campaign)
        result: dict[str, Any] | None = None
        error = ""
        try:
            result = gm_turn_dry_run(campaign=campaign, actor=request.user)
        except ValueError as exc:  # TurnControlError included: no open turn
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
                turn = gm_turn_extend(campaign=campaign, actor=request.user, by=by)
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
        campaign = self._campaign(request, pk)
        current = dict(campaign.ruleset.flat)
        form = RulesetForm(request.POST or None, current=current)
        if request.method == "POST" and form.is_valid():
            changed = {k: v for k, v in form.cleaned_data.items() if current.get(k) != v}
            try:
                gm_rules_update(campaign=campaign, actor=request.user, values=changed)
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


class StartCampaignForm(forms.Form):
    scenario = forms.ChoiceField(choices=(), help_text="The scenario data the campaign starts from.")
    name = forms.CharField(max_length=100, help_text="The campaign's name, as players read it.")
    slug = forms.SlugField(
        max_length=49, help_text="Its address: lower-case letters, digits and hyphens, e.g. channel-1805."
    )
    seed = forms.IntegerField(
        min_value=0, max_value=2**63 - 1, required=False, help_text="Every die derives from it; empty for a random one."
    )
    first_deadline = forms.DateTimeField(
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text="When the first turn resolves, in your time zone.",
    )
    turn_length_days = forms.IntegerField(
        label="Deadline rhythm (days)",
        min_value=1,
        max_value=365,
        initial=7,
        help_text="Days from one turn's resolution to the next deadline.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        scenario = self.fields["scenario"]
        assert isinstance(scenario, forms.ChoiceField)
        scenario.choices = [(name, name) for name in available_scenarios()]

    def clean_slug(self) -> str:
        slug: str = self.cleaned_data["slug"]
        try:
            slug_validator(slug)
        except ValidationError as exc:
            raise forms.ValidationError(exc.messages) from None
        if Campaign.objects.filter(slug=slug).exists():
            raise forms.ValidationError(f"A campaign with the address {slug!r} exists already; choose another.")
        return slug

    def clean_first_deadline(self) -> Any:
        when = self.cleaned_data["first_deadline"]
        if when <= timezone.now():
            raise forms.ValidationError("The first deadline must be in the future.")
        return when


class EndCampaignForm(forms.Form):
    reason = forms.CharField(
        max_length=500, widget=forms.Textarea(attrs={"rows": 2}), help_text="Why it ends now: kept in the audit log."
    )
    confirm = forms.BooleanField(label="Yes, end the campaign now: no more turns, orders close.")


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


class InviteForm(forms.Form):
    email = forms.EmailField(help_text="The player's address; an account with it is used, or one is made.")


class ReplacePlayerForm(forms.Form):
    player: forms.ModelChoiceField[Any] = forms.ModelChoiceField(
        queryset=None, required=False, help_text="An existing account; empty leaves the nation without a player."
    )
    reason = forms.CharField(max_length=500, help_text="Why: kept in the audit log.")

    def __init__(self, *args: Any, nation: Nation, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["player"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = get_user_model().objects.filter(is_active=True).order_by("username")


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

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = tuple(super().get_readonly_fields(request, obj))
        return (*fields, "campaign", "code") if obj is not None else fields

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a nation's ledger, orders and reports are history

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

    @admin.display(description="Quota (RULES.md §1)")
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
            '<a href="{}">Invite a player</a> · <a href="{}">Replace the player</a> · '
            '<a href="{}">Lay down a ship</a> · <a href="{}">Adjust treasury</a>',
            reverse("admin:campaign_nation_invite", args=[obj.pk]),
            reverse("admin:campaign_nation_replace", args=[obj.pk]),
            reverse("admin:campaign_nation_lay_down", args=[obj.pk]),
            reverse("admin:campaign_nation_adjust", args=[obj.pk]),
        )

    def get_urls(self) -> list[URLPattern]:
        own = [
            path("<int:pk>/lay-down/", self.admin_site.admin_view(self.lay_down_view), name="campaign_nation_lay_down"),
            path("<int:pk>/adjust/", self.admin_site.admin_view(self.adjust_view), name="campaign_nation_adjust"),
            path("<int:pk>/invite/", self.admin_site.admin_view(self.invite_view), name="campaign_nation_invite"),
            path("<int:pk>/replace/", self.admin_site.admin_view(self.replace_view), name="campaign_nation_replace"),
        ]
        return own + super().get_urls()

    def _nation(self, request: HttpRequest, pk: int) -> Nation:
        nation = get_object_or_404(Nation.objects.select_related("campaign"), pk=pk)
        if not self.has_change_permission(request, nation):
            raise Http404("No such nation.")
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
                ship = gm_ship_lay_down(
                    nation=nation,
                    actor=request.user,
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

    def invite_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        nation = self._nation(request, pk)
        form = InviteForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                invitation = player_invite(nation=nation, email=form.cleaned_data["email"], actor=request.user)
            except PlayerError as exc:
                form.add_error("email", str(exc))
            else:
                self.message_user(
                    request,
                    f"{invitation.email} is invited to command {nation.name}; the mail is on its way.",
                    messages.SUCCESS,
                )
                return HttpResponseRedirect(reverse("admin:campaign_campaign_desk", args=[nation.campaign_id]))
        current = nation.player.get_username() if nation.player else "nobody"
        return self._render(
            request,
            nation,
            form,
            f"Invite a player to command {nation.name}",
            f"Now played by {current}. The address is mailed a link that gives it the nation (and makes its "
            "account if it has none); until it is followed, the nation stays as it is.",
        )

    def replace_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        nation = self._nation(request, pk)
        form = ReplacePlayerForm(request.POST or None, nation=nation)
        if request.method == "POST" and form.is_valid():
            try:
                player_replace(
                    nation=nation,
                    player=form.cleaned_data["player"],
                    actor=request.user,
                    reason=form.cleaned_data["reason"],
                )
            except PlayerError as exc:
                form.add_error("player", str(exc))
            else:
                self.message_user(request, f"{nation.name} has a new player; both are told.", messages.SUCCESS)
                return HttpResponseRedirect(reverse("admin:campaign_campaign_desk", args=[nation.campaign_id]))
        current = nation.player.get_username() if nation.player else "nobody"
        return self._render(
            request,
            nation,
            form,
            f"Replace the player of {nation.name}",
            f"Now played by {current}. The old player loses the nation at once; both are mailed.",
        )

    def adjust_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        nation = self._nation(request, pk)
        form = AdjustTreasuryForm(request.POST or None, nation=nation)
        if request.method == "POST" and form.is_valid():
            try:
                gm_treasury_adjust(
                    nation=nation,
                    actor=request.user,
                    amount=form.cleaned_data["amount"],
                    reason=form.cleaned_data["reason"],
                )
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
