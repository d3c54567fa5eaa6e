"""Archive an ended campaign (issue 29): hidden from the active lists (the home page, the admin's campaign
list unless asked for), its admin page read-only; taken out of the archive again at will. Audited."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.utils import timezone

from campaign.audit import audit_record
from campaign.models import Campaign
from campaign.models.audit import AuditAction

Actor = AbstractBaseUser | AnonymousUser | None


class ArchiveError(ValueError):
    """The campaign cannot be archived (or taken out) now; nothing changed."""


@transaction.atomic
def campaign_archive(*, campaign: Campaign, actor: Actor, now: datetime | None = None) -> Campaign:
    """Archive an ended campaign; ``ArchiveError`` for one in play or already archived."""
    locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if locked.status != Campaign.Status.ENDED:
        raise ArchiveError(
            f"{locked.name} is {locked.get_status_display().lower()}: only an ended campaign can be archived."
        )
    if locked.archived_at is not None:
        raise ArchiveError(f"{locked.name} is archived already.")
    locked.archived_at = now or timezone.now()
    locked.save(update_fields=["archived_at"])
    audit_record(
        campaign=locked,
        actor=actor,
        action=AuditAction.CAMPAIGN_ARCHIVED,
        summary=f"{locked.name} archived: hidden from the active lists and read-only.",
        before={"archived": False},
        after={"archived": True},
    )
    return locked


@transaction.atomic
def campaign_unarchive(*, campaign: Campaign, actor: Actor) -> Campaign:
    """Take an archived campaign out of the archive (it stays ended); ``ArchiveError`` if not archived."""
    locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if locked.archived_at is None:
        raise ArchiveError(f"{locked.name} is not archived.")
    locked.archived_at = None
    locked.save(update_fields=["archived_at"])
    audit_record(
        campaign=locked,
        actor=actor,
        action=AuditAction.CAMPAIGN_UNARCHIVED,
        summary=f"{locked.name} taken out of the archive.",
        before={"archived": True},
        after={"archived": False},
    )
    return locked
