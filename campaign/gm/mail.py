"""The GM's mail actions, each one audited service used by the admin (and the desk): send deliveries
again, and post an announcement to every player of a campaign.

The audit entry is written in the action's transaction (campaign.audit), so a refused or failed action
leaves none; the mail itself goes after commit (campaign.outbox.mail.mail_send_after_commit).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.utils import timezone

from campaign.audit import audit_record
from campaign.models import Announcement, Campaign, Delivery
from campaign.models.audit import AuditAction
from campaign.outbox.mail import announcement_record, delivery_resend, mail_send_after_commit

Actor = AbstractBaseUser | AnonymousUser | None

TITLE_MAX = Announcement._meta.get_field("title").max_length or 120
BODY_MAX = Announcement._meta.get_field("body").max_length or 10000


class AnnouncementError(ValueError):
    """An announcement that cannot be sent (the message says what was wrong and what is allowed)."""


@dataclass(frozen=True)
class ResendOutcome:
    """How many of the chosen mails are due again, and how many were being sent and were left alone."""

    resent: int
    busy: int


def delivery_label(delivery: Delivery) -> str:
    """One mail in words, as the audit log keeps it: what, to whom, about which nation and turn."""
    about = [delivery.nation.name] if delivery.nation is not None else []
    if delivery.turn is not None:
        about.append(f"turn {delivery.turn.number}")
    suffix = f" ({', '.join(about)})" if about else ""
    return f"{delivery.get_event_display()} to {delivery.recipient.get_username()}{suffix}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' if count != 1 else ''}"


@transaction.atomic
def gm_deliveries_resend(*, deliveries: Iterable[Delivery], actor: Actor, now: datetime | None = None) -> ResendOutcome:
    """Make each delivery due again now with a fresh set of attempts (campaign.outbox.mail.delivery_resend)
    and audit it, one entry per campaign naming the mails. The caller chooses the rows, scoped to the
    campaigns the actor runs; a mail being sent right now is left alone and not recorded."""
    now = now or timezone.now()
    by_campaign: dict[int, tuple[Campaign, list[str]]] = {}
    busy = 0
    for delivery in deliveries:
        if not delivery_resend(delivery=delivery, now=now):
            busy += 1
            continue
        campaign, labels = by_campaign.setdefault(delivery.campaign_id, (delivery.campaign, []))
        labels.append(delivery_label(delivery))
    for campaign, labels in by_campaign.values():
        audit_record(
            campaign=campaign,
            actor=actor,
            action=AuditAction.MAIL_RESENT,
            summary=f"{_plural(len(labels), 'mail')} sent again: {'; '.join(labels)}.",
            after={"mails": labels},
        )
    resent = sum(len(labels) for _, labels in by_campaign.values())
    if resent:
        mail_send_after_commit()
    return ResendOutcome(resent=resent, busy=busy)


def announcement_checked(*, title: str, body: str) -> tuple[str, str]:
    """The title (one line) and text as they will be sent; ``AnnouncementError`` if either is empty or too long."""
    subject, text = " ".join(title.split()), body.strip()
    if not subject:
        raise AnnouncementError("An announcement needs a title: it is the mail's subject.")
    if len(subject) > TITLE_MAX:
        raise AnnouncementError(f"The title has {len(subject)} characters; at most {TITLE_MAX} are allowed.")
    if not text:
        raise AnnouncementError("An announcement needs a text to send.")
    if len(text) > BODY_MAX:
        raise AnnouncementError(f"The text has {len(text)} characters; at most {BODY_MAX} are allowed.")
    return subject, text


@transaction.atomic
def gm_announcement_send(
    *, campaign: Campaign, title: str, body: str, actor: Actor, now: datetime | None = None
) -> tuple[Announcement, int]:
    """Store the GM's announcement and mail it once to every player of ``campaign`` (after commit); audited
    with its subject and how many it went to. Returns the announcement and that number."""
    now = now or timezone.now()
    subject, text = announcement_checked(title=title, body=body)
    announcement = Announcement.objects.create(campaign=campaign, title=subject, body=text)
    count = announcement_record(announcement=announcement, now=now)
    audit_record(
        campaign=campaign,
        actor=actor,
        action=AuditAction.ANNOUNCEMENT_SENT,
        summary=f"Announcement “{subject}” mailed to {_plural(count, 'player')}.",
        after={"title": subject, "players": count},
    )
    return announcement, count


__all__ = [
    "AnnouncementError",
    "ResendOutcome",
    "announcement_checked",
    "delivery_label",
    "gm_announcement_send",
    "gm_deliveries_resend",
]
