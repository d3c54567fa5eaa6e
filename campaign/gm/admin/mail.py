"""The GM's view of the mail: every delivery of the campaigns they run, with its state and last error, and
a resend action; the GM's announcements, mailed to every player of one of their campaigns when saved.

Both are scoped like every campaign admin (campaign.permissions.CampaignScopedAdmin): a GM or co-GM
sees, resends and announces only for the campaigns they run — without Django's model permissions,
since running the campaign is what grants it — and a superuser everywhere. Another campaign's rows do
not exist for them: their pages answer 404. The resend and the announcement are audited services
(campaign.gm.mail). Registered from ``campaign.admin`` (the app's admin module Django discovers).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.forms import ModelChoiceField
from django.http import Http404, HttpRequest, HttpResponse

from campaign.gm.mail import AnnouncementError, announcement_checked, gm_announcement_send, gm_deliveries_resend
from campaign.models import Announcement, Delivery
from campaign.permissions import CampaignRunFilter, CampaignScopedAdmin, is_superuser


class _MissingIsNotFound(CampaignScopedAdmin):
    """A row outside the user's campaigns answers 404 on its pages (change, history, delete), not the
    admin's "does not exist" redirect: as if it did not exist, and said so."""

    def _get_obj_does_not_exist_redirect(self, request: HttpRequest, opts: Any, object_id: str) -> HttpResponse:
        raise Http404(f"No {opts.verbose_name} with the id {object_id!r} in the campaigns you run.")


@admin.register(Delivery)
class DeliveryAdmin(_MissingIsNotFound):
    list_display = (
        "created_at",
        "campaign",
        "turn_number",
        "event",
        "recipient",
        "nation",
        "state",
        "attempts",
        "error",
    )
    list_filter = (CampaignRunFilter, "state", "event")
    search_fields = ("recipient__username", "recipient__email", "error")
    list_select_related = ("campaign", "turn", "recipient", "nation")
    actions = ["resend"]
    readonly_fields = [f.name for f in Delivery._meta.fields]

    @admin.display(description="Turn", ordering="turn__number")
    def turn_number(self, obj: Delivery) -> int | None:
        return obj.turn.number if obj.turn else None

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # deliveries are written by the events they tell of, never by hand

    @admin.action(description="Send the selected mails again")
    def resend(self, request: HttpRequest, queryset: QuerySet[Delivery]) -> None:
        # The action's queryset is this admin's, scoped: another campaign's ids posted here are not in it.
        outcome = gm_deliveries_resend(
            deliveries=queryset.select_related("campaign", "turn", "recipient", "nation"), actor=request.user
        )
        self.message_user(
            request, f"{outcome.resent} mail{'s' if outcome.resent != 1 else ''} queued to be sent again."
        )
        if outcome.busy:
            verb = "were" if outcome.busy != 1 else "was"
            self.message_user(request, f"{outcome.busy} being sent right now {verb} left alone.", messages.WARNING)


class AnnouncementForm(forms.ModelForm[Announcement]):
    """The service's own check, so a refusal is a form error and nothing is stored."""

    class Meta:
        model = Announcement
        fields = ("campaign", "title", "body")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("title") and data.get("body"):
            try:
                data["title"], data["body"] = announcement_checked(title=data["title"], body=data["body"])
            except AnnouncementError as exc:
                raise forms.ValidationError(str(exc)) from exc
        return data


@admin.register(Announcement)
class AnnouncementAdmin(_MissingIsNotFound):
    """A GM writes an announcement here; saving a new one mails it to every player of the campaign."""

    form = AnnouncementForm
    list_display = ("created_at", "campaign", "title")
    list_filter = (CampaignRunFilter,)
    list_select_related = ("campaign",)
    fields = ("campaign", "title", "body")

    def has_add_permission(self, request: HttpRequest) -> bool:
        """Running a campaign is what lets a GM announce to it (superusers: as Django's permissions say)."""
        if is_superuser(request.user):
            return super().has_add_permission(request)
        return self._in_scope(request, None)

    def has_change_permission(self, request: HttpRequest, obj: Announcement | None = None) -> bool:
        return False if obj is not None else super().has_change_permission(request, obj)  # it was sent as written

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if db_field.name == "campaign" and isinstance(field, ModelChoiceField):
            field.error_messages["invalid_choice"] = (
                "Choose one of the campaigns you run: an announcement goes only to their players."
            )
        return field

    def save_model(self, request: HttpRequest, obj: Announcement, form: Any, change: bool) -> None:
        """Sent through the audited service (in the admin's transaction; the mail goes after commit)."""
        sent, count = gm_announcement_send(campaign=obj.campaign, title=obj.title, body=obj.body, actor=request.user)
        obj.pk, obj.created_at = sent.pk, sent.created_at
        self.message_user(request, f"Mailed to {count} player{'s' if count != 1 else ''}.")
