"""One delivery → one multipart message (plain text and HTML) from the event's own templates
(``templates/emails/<event>.txt`` and ``.html``, the HTML extending the mail's base layout), with the
one-click unsubscribe headers of RFC 8058; and a recipient's digest, several deliveries in one mail."""

from __future__ import annotations

from collections.abc import Sequence
from email.utils import formataddr, parseaddr
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from campaign.accounts.preferences import unsubscribe_token
from campaign.mail.calendar import deadlines_calendar
from campaign.mail.content import absolute, context_for, subject_for
from campaign.models import Campaign, Delivery, MailEvent


def campaign_sender(campaign: Campaign) -> str:
    """The From of a campaign's mail: the site's address under the campaign's name, so a player sees
    at a glance which campaign wrote ("Channel 1805 (Admiralty)")."""
    _, address = parseaddr(settings.DEFAULT_FROM_EMAIL)
    return formataddr((f"{campaign.name} (Admiralty)", address or settings.DEFAULT_FROM_EMAIL))


def campaign_reply_to(campaign: Campaign) -> list[str]:
    """Whoever runs the campaign (owner first, then co-GMs) with an address: a reply reaches the GMs,
    not the site's unattended mailbox."""
    gms = [campaign.gm] if campaign.gm is not None else []
    gms += sorted(campaign.co_gms.all(), key=lambda user: user.pk)
    addresses: dict[str, str] = {}
    for user in gms:
        if user.email:
            name = user.get_full_name() or user.get_username()
            addresses.setdefault(user.email.lower(), formataddr((name, user.email)))
    return list(addresses.values())


def _links(delivery: Delivery) -> dict[str, str]:
    token = unsubscribe_token(user_id=delivery.recipient_id, campaign_id=delivery.campaign_id, event=delivery.event)
    return {
        "unsubscribe_url": absolute(reverse("campaign:mail_unsubscribe", args=[token])),
        "preferences_url": absolute(reverse("campaign:mail_preferences", args=[delivery.campaign.slug])),
    }


def _rendered(delivery: Delivery) -> dict[str, Any] | None:
    """The delivery's subject, text and HTML, or None if there is nothing to tell any more."""
    context = context_for(delivery)
    if context is None:
        return None
    context.update(_links(delivery))
    context["event_label"] = delivery.get_event_display()
    context["subject"] = subject_for(delivery, context)
    return {
        "subject": context["subject"],
        # The "What's next" facts come first in every mail to a player (the HTML's base template has them).
        "text": render_to_string("emails/_whats_next.txt", context)
        + render_to_string(f"emails/{delivery.event}.txt", context),
        "html": render_to_string(f"emails/{delivery.event}.html", context),
        "context": context,
    }


def message_for(delivery: Delivery) -> EmailMultiAlternatives | None:
    """The mail of a delivery, or None if the recipient has no address or nothing is left to say."""
    address = delivery.recipient.email
    rendered = _rendered(delivery) if address else None
    if rendered is None:
        return None
    links = rendered["context"]
    text = rendered["text"].rstrip() + render_to_string("emails/_footer.txt", links)
    message = EmailMultiAlternatives(
        subject=rendered["subject"],
        body=text,
        from_email=campaign_sender(delivery.campaign),
        to=[address],
        reply_to=campaign_reply_to(delivery.campaign),
        headers={
            "List-Unsubscribe": f"<{links['unsubscribe_url']}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.attach_alternative(rendered["html"], "text/html")
    if delivery.event == MailEvent.TURN_OPENED and delivery.turn is not None and delivery.turn.deadline is not None:
        ics = deadlines_calendar([delivery.turn], name=delivery.campaign.name, now=timezone.now())
        message.attach(f"turn-{delivery.turn.number}-deadline.ics", ics, "text/calendar")
    return message


def digest_message_for(deliveries: Sequence[Delivery]) -> EmailMultiAlternatives | None:
    """One mail gathering a recipient's digest deliveries (in the order they happened)."""
    recipient = deliveries[0].recipient
    items = [item for item in (_rendered(d) for d in deliveries) if item is not None] if recipient.email else []
    if not items:
        return None
    subject = f"Your Admiralty digest: {len(items)} mail{'s' if len(items) != 1 else ''}"
    context = {
        "items": items,
        "recipient": recipient,
        "settings_url": absolute(reverse("campaign:settings")),
        "subject": subject,
    }
    message = EmailMultiAlternatives(
        subject=subject,
        body=render_to_string("emails/digest.txt", context),
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[recipient.email],
    )
    message.attach_alternative(render_to_string("emails/digest.html", context), "text/html")
    return message
