"""The GM's view of the mail: every delivery with its state and last error, and a resend action; the
GM's announcements, mailed to every player when saved.

Registered from ``campaign.admin`` (the app's admin module Django discovers).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from campaign.mail.sending import delivery_resend
from campaign.models import Announcement, Delivery
from campaign.notifications import announcement_record, mail_send_after_commit


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin[Delivery]):
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
    list_filter = ("state", "event", "campaign")
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
        now = timezone.now()
        again = [d for d in queryset if delivery_resend(delivery=d, now=now)]
        if again:
            mail_send_after_commit()
        busy = queryset.count() - len(again)
        self.message_user(request, f"{len(again)} mail{'s' if len(again) != 1 else ''} queued to be sent again.")
        if busy:
            self.message_user(
                request, f"{busy} being sent right now {'were' if busy != 1 else 'was'} left alone.", messages.WARNING
            )


@admin.register(Announcement)
class AnnouncementAdmin(admin.ModelAdmin[Announcement]):
    """A GM writes an announcement here; saving a new one mails it to every player of the campaign."""

    list_display = ("created_at", "campaign", "title")
    list_filter = ("campaign",)
    fields = ("campaign", "title", "body")

    def has_change_permission(self, request: HttpRequest, obj: Announcement | None = None) -> bool:
        return False if obj is not None else super().has_change_permission(request, obj)  # it was sent as written

    def save_model(self, request: HttpRequest, obj: Announcement, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if not change:  # in the admin's transaction: recorded with the announcement, sent after commit
            count = announcement_record(announcement=obj, now=timezone.now())
            self.message_user(request, f"Mailed to {count} player{'s' if count != 1 else ''}.")
