"""The GM's desk page of one campaign — the open turn, every nation at a glance, the map without fog,
failed mail, invitations not yet accepted (campaign.gm.desk reads it all) — and the desk's buttons: send
the failed mail again, send an invitation again, revoke it. Each button is a form POSTed with its CSRF
token (no JavaScript), calls one audited service and comes back to the desk with a message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.views.decorators.http import require_http_methods, require_POST

from campaign.gm.actions import gm_invitation_resend, gm_invitation_revoke
from campaign.gm.admin.base import CampaignPages
from campaign.gm.desk import desk_for_gm
from campaign.gm.mail import gm_deliveries_resend
from campaign.models import Delivery, Invitation
from campaign.pages.map.page import map_for_gm
from campaign.players.services import PlayerError


class DeskPages(CampaignPages):
    def get_urls(self) -> list[URLPattern]:
        def post(view: Callable[..., HttpResponse]) -> Any:
            return self.admin_site.admin_view(require_POST(view))

        invitation = "<int:pk>/invitations/<int:invitation_pk>"
        own = [
            path("<int:pk>/desk/", self.admin_site.admin_view(self.desk_view), name="campaign_campaign_desk"),
            path("<int:pk>/mail/resend-failed/", post(self.resend_failed_view), name="campaign_campaign_resend_failed"),
            path(f"{invitation}/resend/", post(self.invitation_resend_view), name="campaign_invitation_resend"),
            path(
                f"{invitation}/revoke/",
                self.admin_site.admin_view(require_http_methods(["GET", "POST"])(self.invitation_revoke_view)),
                name="campaign_invitation_revoke",
            ),
        ]
        return own + super().get_urls()

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

    def _back_to_desk(self, pk: int) -> HttpResponse:
        return HttpResponseRedirect(reverse("admin:campaign_campaign_desk", args=[pk]))

    def resend_failed_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """Every failed mail of the campaign due again now (audited, one entry naming them)."""
        campaign = self._campaign(request, pk)
        failed = Delivery.objects.filter(campaign=campaign, state=Delivery.State.FAILED)
        outcome = gm_deliveries_resend(
            deliveries=failed.select_related("campaign", "turn", "recipient", "nation"), actor=request.user
        )
        if outcome.resent:
            self.message_user(
                request, f"{outcome.resent} mail{'s' if outcome.resent != 1 else ''} queued to be sent again."
            )
        else:
            self.message_user(request, "No mail of this campaign has failed: nothing to send again.", messages.INFO)
        return self._back_to_desk(campaign.pk)

    def _invitation(self, request: HttpRequest, pk: int, invitation_pk: int) -> Invitation:
        """The invitation, if it is one of this campaign's and the user runs the campaign (else 404)."""
        campaign = self._campaign(request, pk)
        return get_object_or_404(
            Invitation.objects.select_related("nation", "campaign"), pk=invitation_pk, campaign=campaign
        )

    def invitation_resend_view(self, request: HttpRequest, pk: int, invitation_pk: int) -> HttpResponse:
        invitation = self._invitation(request, pk, invitation_pk)
        try:
            gm_invitation_resend(invitation=invitation, actor=request.user)
        except PlayerError as exc:
            self.message_user(request, str(exc), messages.ERROR)
        else:
            self.message_user(
                request,
                f"The invitation of {invitation.email} to {invitation.offered} is mailed again, with a fresh link.",
            )
        return self._back_to_desk(pk)

    def invitation_revoke_view(self, request: HttpRequest, pk: int, invitation_pk: int) -> HttpResponse:
        """Revoke an invitation not yet accepted: a confirmation page (GET), then the audited service (POST)."""
        invitation = self._invitation(request, pk, invitation_pk)
        if request.method != "POST":
            return self._confirm(
                request,
                invitation.campaign,
                title=f"Revoke the invitation of {invitation.email} to {invitation.offered}",
                explain=(
                    "Every link of this invitation will say it was revoked, and nobody can join as a co-GM with it. "
                    "Invite someone again from the desk."
                    if invitation.co_gm
                    else "Every link of this invitation will say it was revoked, and nobody can take the nation "
                    "with it. The nation keeps its current player (if any); invite someone again from its page."
                ),
                button="Revoke the invitation",
            )
        try:
            gm_invitation_revoke(invitation=invitation, actor=request.user)
        except PlayerError as exc:
            self.message_user(request, str(exc), messages.ERROR)
        else:
            self.message_user(
                request,
                f"The invitation of {invitation.email} to {invitation.offered} is revoked; its link now says so.",
            )
        return self._back_to_desk(pk)
