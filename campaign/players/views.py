"""The invitation link a player follows (``/invitations/<signed token>/``): thin over campaign.players.services.

GET shows what the invitation offers; POST accepts it — a new account chooses its password here, an
existing one signs in first. Works without JavaScript.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from campaign.players.services import (
    InvitationClosed,
    PlayerError,
    co_gm_accept,
    invitation_accept,
    invitation_from_token,
)


class ChoosePasswordForm(forms.Form):
    password1 = forms.CharField(label="Password", widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))
    password2 = forms.CharField(
        label="The password again", widget=forms.PasswordInput(attrs={"autocomplete": "new-password"})
    )

    def clean(self) -> dict[str, str]:
        data = super().clean() or {}
        if data.get("password1") and data.get("password1") != data.get("password2"):
            raise forms.ValidationError("The two passwords differ; type the same one twice.")
        return data


@require_http_methods(["GET", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    try:
        invite = invitation_from_token(token)
    except InvitationClosed as closed:  # accepted, revoked or replaced: it gives nothing any more
        return render(request, "campaign/invitation.html", {"error": str(closed)}, status=410)
    except PlayerError as refused:
        return render(request, "campaign/invitation.html", {"error": str(refused)}, status=404)
    invited = invite.user
    new_account = not invited.has_usable_password()
    signed_in_as_other = request.user.is_authenticated and request.user.pk != invited.pk
    if not new_account and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    form = ChoosePasswordForm(request.POST or None) if new_account and not signed_in_as_other else None
    error = ""
    if request.method == "POST" and not signed_in_as_other and (form is None or form.is_valid()):
        password = form.cleaned_data["password1"] if form else None
        try:
            if invite.co_gm:
                co_gm_accept(invitation=invite, user=invited, password=password)
                done = f"You help run {invite.campaign.name} as a co-GM."
                url = reverse("admin:campaign_campaign_desk", args=[invite.campaign_id])
            else:
                nation = invitation_accept(invitation=invite, user=invited, password=password)
                done = f"You command {nation.name} in {invite.campaign.name}."
                url = reverse("campaign:dashboard", args=[invite.campaign.slug])
        except PlayerError as refused:
            error = str(refused)
        else:
            if not request.user.is_authenticated:
                login(request, invited, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, done)
            return HttpResponseRedirect(url)
    context = {
        "invite": invite,
        "form": form,
        "new_account": new_account,
        "signed_in_as_other": signed_in_as_other,
        "error": error,
    }
    return render(request, "campaign/invitation.html", context, status=400 if error else 200)
