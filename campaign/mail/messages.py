"""One delivery → one multipart message (plain text and HTML) from the event's own templates:
``templates/emails/<event>.txt`` and ``.html``, both extending the mail's base layout."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.utils import timezone

from campaign.mail.calendar import deadlines_calendar
from campaign.mail.content import context_for, subject_for
from campaign.models import Delivery, MailEvent


def message_for(delivery: Delivery) -> EmailMultiAlternatives | None:
    """The mail of a delivery, or None if the recipient has no address or nothing is left to say."""
    address = delivery.recipient.email
    if not address:
        return None
    context = context_for(delivery)
    if context is None:
        return None
    context["subject"] = subject = subject_for(delivery, context)
    text = render_to_string(f"emails/{delivery.event}.txt", context)
    html = render_to_string(f"emails/{delivery.event}.html", context)
    message = EmailMultiAlternatives(subject=subject, body=text, from_email=settings.DEFAULT_FROM_EMAIL, to=[address])
    message.attach_alternative(html, "text/html")
    if delivery.event == MailEvent.TURN_OPENED and delivery.turn is not None and delivery.turn.deadline is not None:
        ics = deadlines_calendar([delivery.turn], name=delivery.campaign.name, now=timezone.now())
        message.attach(f"turn-{delivery.turn.number}-deadline.ics", ics, "text/calendar")
    return message
