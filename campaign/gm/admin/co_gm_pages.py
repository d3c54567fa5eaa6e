"""The GM invites a co-GM by mail (issue 29): like a player's invitation, a signed link that makes the
account a co-GM of the campaign (and staff) when followed (campaign.players.services.co_gm_invite)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse

from campaign.gm.admin.base import CampaignPages
from campaign.gm.admin.forms import InviteForm
from campaign.players.services import PlayerError, co_gm_invite


class CoGmPages(CampaignPages):
    def get_urls(self) -> list[URLPattern]:
        own = [
            path(
                "<int:pk>/invite-co-gm/",
                self.admin_site.admin_view(self.co_gm_invite_view),
                name="campaign_campaign_co_gm_invite",
            ),
        ]
        return own + super().get_urls()

    def co_gm_invite_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        campaign = self._campaign(request, pk)
        form = InviteForm(request.POST or None)
        form.fields["email"].help_text = (
            "The co-GM's address; an account with it is used, or one is made. The link makes it a GM of "
            "this campaign only."
        )
        if request.method == "POST" and form.is_valid():
            try:
                invitation = co_gm_invite(campaign=campaign, email=form.cleaned_data["email"], actor=request.user)
            except PlayerError as exc:
                form.add_error("email", str(exc))
            else:
                self.message_user(
                    request,
                    f"{invitation.email} is invited to help run {campaign.name}; the mail is on its way.",
                    messages.SUCCESS,
                )
                return HttpResponseRedirect(reverse("admin:campaign_campaign_desk", args=[campaign.pk]))
        co_gms = sorted(u.get_username() for u in campaign.co_gms.all())
        context = self._context(
            request, f"Invite a co-GM to {campaign.name}", campaign=campaign, form=form, co_gms=co_gms
        )
        return TemplateResponse(request, "admin/campaign/co_gm_invite.html", context)
