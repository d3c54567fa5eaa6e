"""The GM's backup and copy of a campaign from the admin (issue 29), no shell needed: export (the
``export_campaign`` document, downloaded) and import (the ``import_campaign`` restore; from the admin as a copy under a
new name and slug, run by the GM who imports it, its players mapped) — each audited.

The export's entry goes to the exported campaign; the import's ("imported") to the new copy, naming
where it came from, so the copy's log ends with how it came to be. ``import_campaign`` on the command
line is the same service (issue 25): a restored backup's log is the exported one plus that entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, User
from django.db import transaction

from campaign.audit import audit_record
from campaign.backup.document import BackupError, campaign_export, campaign_import
from campaign.gm.actions import Actor
from campaign.models import Campaign
from campaign.models.audit import AuditAction
from rules.names import name_fault, name_normalised

NAME_MAX = Campaign._meta.get_field("name").max_length or 100


def gm_campaign_export(*, campaign: Campaign, actor: Actor) -> dict[str, Any]:
    """The campaign's full state as the export document (what ``export_campaign`` prints), audited."""
    document = campaign_export(campaign=campaign)
    audit_record(
        campaign=campaign,
        actor=actor,
        action=AuditAction.CAMPAIGN_EXPORTED,
        summary=f"{campaign.name} exported (turn {campaign.turn_number}).",
        after={"turn": campaign.turn_number, "seed": campaign.seed},
    )
    return document


@transaction.atomic
def gm_campaign_import(
    *,
    document: Any,
    slug: str | None,
    gm: AbstractBaseUser | None,
    players: Mapping[str, User] | None = None,
    actor: Actor,
    name: str | None = None,
    replace: bool = False,
) -> Campaign:
    """Restore ``document`` (``campaign_import``) at ``slug``, run by ``gm``, each nation code in
    ``players`` given to its user, renamed ``name`` if given — and write its "imported" audit entry,
    naming where it came from. All or nothing: a ``BackupError`` lists every problem, nothing written."""
    if name is not None:
        fault = name_fault(name)
        if fault is not None:
            raise BackupError(f"The copy's name cannot be used: {fault}.")
        name = name_normalised(name)
        if not name:
            raise BackupError("Give the copy a name; players read it on every page and mail.")
        if len(name) > NAME_MAX:
            raise BackupError(f"The name is {len(name)} characters long; at most {NAME_MAX} are allowed.")
    campaign = campaign_import(document=document, slug=slug, replace=replace, gm=gm, players=players)  # type: ignore[arg-type]
    source = document["campaign"]  # checked by campaign_import
    if name is not None and name != campaign.name:
        Campaign.objects.filter(pk=campaign.pk).update(name=name)
        campaign.name = name
    mapped = {code: user.get_username() for code, user in sorted((players or {}).items())}
    runner = f", run by {gm.get_username()}" if gm is not None else ", with no GM"
    audit_record(
        campaign=campaign,
        actor=actor,
        action=AuditAction.CAMPAIGN_IMPORTED,
        summary=f"{campaign.name} imported from an export of {source['name']} ({source['slug']}), "
        f"turn {campaign.turn_number}{runner}.",
        before={"name": source["name"], "slug": source["slug"]},
        after={
            "name": campaign.name,
            "slug": campaign.slug,
            "gm": gm.get_username() if gm is not None else None,
            "players": mapped,
        },
    )
    return campaign


__all__ = ["gm_campaign_export", "gm_campaign_import"]
