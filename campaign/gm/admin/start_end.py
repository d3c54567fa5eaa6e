"""Start a campaign from a scenario, and its standings with the page that ends it."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone

from campaign.gm.actions import campaign_end, campaign_start, gm_campaign_clock_start
from campaign.gm.admin.base import CampaignPages
from campaign.gm.admin.forms import EndCampaignForm, StartCampaignForm, StartClockForm
from campaign.gm.checklist import setup_checklist
from campaign.models import Campaign, Turn, Victory
from campaign.permissions import is_superuser
from campaign.scenarios.loading import ScenarioError
from campaign.standings import campaign_standings, victory_description
from campaign.turn.lifecycle import TurnControlError, clock_turn
from rules.ruleset import RulesetError


def _started_message(campaign: Campaign, turn: Turn | None) -> str:
    ends = ""
    if turn is not None and turn.deadline is not None:
        when = timezone.localtime(turn.deadline)
        ends = f" Turn {turn.number} ends {when:%A %-d %B %Y, %H:%M} ({when.tzname()})."
    return f"{campaign.name} has started: its clock runs.{ends} Every player is told by mail."


class StartEndPages(CampaignPages):
    def get_urls(self) -> list[URLPattern]:
        own = [
            path("<int:pk>/end/", self.admin_site.admin_view(self.end_view), name="campaign_campaign_end"),
            path("start/", self.admin_site.admin_view(self.start_view), name="campaign_campaign_start"),
            path(
                "<int:pk>/start-clock/",
                self.admin_site.admin_view(self.clock_start_view),
                name="campaign_campaign_clock_start",
            ),
        ]
        return own + super().get_urls()

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
                    request,
                    f"{campaign.name} is set up; its clock does not run yet. Invite its players from each "
                    "nation's page, review its rules, then press Start on this desk.",
                    messages.SUCCESS,
                )
                return HttpResponseRedirect(reverse("admin:campaign_campaign_desk", args=[campaign.pk]))
        return TemplateResponse(
            request,
            "admin/campaign/start.html",
            self._context(request, "Start a campaign from a scenario", form=form),
        )

    def clock_start_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """Start a campaign being set up: the check list (players, rules), the first deadline, then Start."""
        campaign = self._campaign(request, pk)
        turn = clock_turn(campaign)
        planned = turn.deadline if turn is not None and turn.deadline else None
        if planned is None or planned <= timezone.now():
            planned = timezone.now() + timedelta(days=int(campaign.ruleset["calendar.turn_length_days"]))
        planned = timezone.localtime(planned).replace(second=0, microsecond=0)
        form = StartClockForm(request.POST or None, initial={"first_deadline": planned})
        if request.method == "POST" and form.is_valid():
            try:
                started = gm_campaign_clock_start(
                    campaign=campaign, actor=request.user, first_deadline=form.cleaned_data["first_deadline"]
                )
            except TurnControlError as exc:
                form.add_error(None, str(exc))
            else:
                self.message_user(request, _started_message(campaign, started))
                return HttpResponseRedirect(reverse("admin:campaign_campaign_desk", args=[pk]))
        context = self._context(
            request,
            f"Start {campaign}",
            campaign=campaign,
            clock=turn,
            checklist=setup_checklist(campaign=campaign),
            form=form,
            zone=timezone.get_current_timezone_name(),
            desk_url=reverse("admin:campaign_campaign_desk", args=[pk]),
            rules_url=reverse("admin:campaign_campaign_rules", args=[pk]),
            setting_up=campaign.status == Campaign.Status.SETUP,
        )
        return TemplateResponse(request, "admin/campaign/clock_start.html", context)

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
