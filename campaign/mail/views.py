"""The mail's pages: one-click unsubscribe (no login), the preferences of a campaign's mail, and the
calendar feed (a secret address, no login). Thin: parse, call one service or selector, respond."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaign.accounts.preferences import (
    calendar_token_renew,
    calendar_token_revoke,
    campaigns_of_user,
    preference_set,
    preferences_for,
    unsubscribe_read,
)
from campaign.mail.calendar import deadlines_calendar
from campaign.models import CalendarToken, Campaign, MailEvent, Turn

DELIVERY_CHOICES = [("now", "Each mail as it happens"), ("digest", "In one mail a day (digest)"), ("off", "Off")]


class PreferencesForm(forms.Form):
    """One choice per event: at once, in the daily digest, or off."""

    def __init__(self, *args: object, initial_choices: dict[str, str], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        for event in MailEvent:
            self.fields[event.value] = forms.ChoiceField(
                label=event.label, choices=DELIVERY_CHOICES, widget=forms.RadioSelect, initial=initial_choices[event]
            )


def _user_id(request: HttpRequest) -> int:
    """The logged-in user's id (the views that call this require a login)."""
    user_id = request.user.pk
    if not isinstance(user_id, int):
        raise Http404("Log in first.")
    return user_id


# RFC 8058: the mail client POSTs "List-Unsubscribe=One-Click" with no cookie and no CSRF token; the
# signed token in the address is the only credential, and it can only turn off its own event.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET asks to confirm (link scanners must not unsubscribe anyone); POST turns the event off."""
    target = unsubscribe_read(token)
    if target is None:
        return render(request, "campaign/mail_unsubscribe.html", {"invalid": True}, status=404)
    campaign = get_object_or_404(Campaign, pk=target.campaign_id)
    context = {"campaign": campaign, "event": target.event, "done": False}
    if request.method == "POST":
        preference_set(user_id=target.user_id, campaign_id=campaign.pk, event=target.event, enabled=False, digest=False)
        context["done"] = True
    return render(request, "campaign/mail_unsubscribe.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest, slug: str) -> HttpResponse:
    """The user's mail from one campaign: each event at once, in the daily digest, or off."""
    campaign = next((c for c in campaigns_of_user(_user_id(request)) if c.slug == slug), None)
    if campaign is None:
        raise Http404("You have no part in that campaign.")
    current = {
        c.event.value: ("off" if not c.enabled else "digest" if c.digest else "now")
        for c in preferences_for(user_id=_user_id(request), campaign_id=campaign.pk)
    }
    form = PreferencesForm(request.POST or None, initial_choices=current)
    if request.method == "POST" and form.is_valid():
        for event in MailEvent:
            choice = form.cleaned_data[event.value]
            preference_set(
                user_id=_user_id(request),
                campaign_id=campaign.pk,
                event=event,
                enabled=choice != "off",
                digest=choice == "digest",
            )
        messages.success(request, f"Your mail settings for {campaign.name} are saved.")
        return redirect("campaign:mail_preferences", slug=campaign.slug)
    return render(request, "campaign/mail_preferences.html", {"campaign": campaign, "form": form})


@require_GET
def calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    """Every deadline of the campaigns of the token's user, as an iCalendar feed."""
    owner = CalendarToken.objects.filter(token=token).values_list("user_id", flat=True).first()
    if owner is None:
        raise Http404("No such calendar: its address may have been revoked.")
    campaigns = campaigns_of_user(owner)
    turns = (
        Turn.objects.filter(campaign__in=campaigns, deadline__isnull=False)
        .select_related("campaign")
        # Every turn of the reader's campaigns: their snapshots and dice logs are not read.
        .only("id", "number", "deadline", "campaign__id", "campaign__slug", "campaign__name")
        .order_by("deadline")
    )
    body = deadlines_calendar(turns, name="Admiralty deadlines", now=timezone.now())
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="admiralty-deadlines.ics"'
    return response


@login_required
@require_POST
def calendar_manage(request: HttpRequest) -> HttpResponse:
    """Settings: make a (new) secret address for the calendar feed, or revoke it."""
    if request.POST.get("action") == "revoke":
        calendar_token_revoke(user_id=_user_id(request))
        messages.success(request, "Your calendar address is revoked: calendars using it get nothing any more.")
    else:
        calendar_token_renew(user_id=_user_id(request))
        messages.success(request, "Your calendar has a new address; any old one stops working.")
    return redirect("campaign:settings")


__all__ = ["calendar_feed", "calendar_manage", "preferences", "unsubscribe"]
