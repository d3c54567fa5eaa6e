"""A nation's GM pages: lay down a ship, adjust the treasury (both through the ledger), invite a player by
mail, replace the player — each one audited service (campaign.gm.actions, campaign.players.services)."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

from campaign.gm.actions import gm_ship_lay_down, gm_treasury_adjust
from campaign.gm.admin.forms import AdjustTreasuryForm, InviteForm, LayDownForm, ReplacePlayerForm
from campaign.models import Nation
from campaign.players.services import PlayerError, player_invite, player_replace
from campaign.services import TreasuryError
from fleets.selectors import navy_counts
from fleets.services import ShipNameError
from rules.construction import ConstructionRefused, big_ships_allowed_now, period_label, within_quota


class NationPages(admin.ModelAdmin):
    """The nation admin's pages (``has_change_permission`` is CampaignScopedAdmin's)."""

    @admin.display(description="Quota (rules §1)")
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
            '<a href="{}">Lay down a ship</a> · <a href="{}">Adjust treasury</a> · <a href="{}">Orders by email</a>',
            reverse("admin:campaign_nation_invite", args=[obj.pk]),
            reverse("admin:campaign_nation_replace", args=[obj.pk]),
            reverse("admin:campaign_nation_lay_down", args=[obj.pk]),
            reverse("admin:campaign_nation_adjust", args=[obj.pk]),
            reverse("admin:campaign_nation_orders_by_mail", args=[obj.pk]),
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
