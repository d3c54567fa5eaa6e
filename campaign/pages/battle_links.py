"""What an old battle link leads to once a revert or a re-fight took its battle off the record (issue 25).

A revert archives the turns it turns back (:class:`~campaign.models.repairs.CampaignRevert`) and their
battles go with them, so ``/campaigns/<slug>/battles/<id>/`` in a report mail would answer 404. Instead:
a re-fought battle's link leads to the fight that took its place (same turn, kind, place and sequence)
once its turn has resolved again, and any other set-aside battle says so, with the GM's reason. Only a
GM, or a nation that fought in it or was allied to a side of it, learns anything of it (fog of war).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from battles.models import Battle
from battles.web_selectors import Viewer as BattleViewer
from campaign.models import Campaign
from campaign.models.repairs import CampaignRevert
from campaign.permissions import campaign_role
from ports.models import Port, SeaZone


@dataclass(frozen=True)
class SetAsideBattle:
    """A battle a revert took off the record, as its old link explains it."""

    battle_id: int
    turn: int
    kind_label: str
    place: str
    revert: CampaignRevert
    successor: Battle | None  # the fight that took its place, when it was re-fought and fought again


def battle_set_aside_for_player(*, user: Any, slug: str, battle_id: int) -> SetAsideBattle | None:
    """The set-aside battle ``battle_id`` of campaign ``slug`` if ``user`` may know of it, else None
    (the caller answers 404 as for any unknown battle). One query finds the revert that archived it:
    the archive's battles are searched by PostgreSQL's JSON containment, not loaded one by one."""
    campaign = Campaign.objects.filter(slug=slug).first()
    if campaign is None or not user.is_authenticated:
        return None
    role = campaign_role(user, campaign)
    viewer = BattleViewer(role.runs, role.nation, None if role.runs or role.nation is None else role.nation.code)
    if not viewer.is_gm and viewer.code is None:
        return None
    reverts = CampaignRevert.objects.filter(
        campaign=campaign, archive__document__battles__contains=[{"id": battle_id}]
    ).order_by("created_at")
    for revert in reverts:
        row = next((b for b in revert.archived("battles") if b.get("id") == battle_id), None)
        if row is None:  # in the archive, but of a turn before the one turned back to: not this revert's
            continue
        if not (viewer.is_gm or viewer.witnessed(row.get("sides"), row.get("seen_by"))):
            return None
        kind = str(row.get("type", ""))
        successor = None
        if revert.kind == CampaignRevert.Kind.REFIGHT:
            successor = (
                Battle.objects.filter(
                    campaign=campaign,
                    turn__number=row.get("turn"),
                    kind=kind,
                    place=row.get("place"),
                    sequence=row.get("sequence", 1),
                )
                .order_by("-pk")
                .first()
            )
        return SetAsideBattle(
            battle_id=battle_id,
            turn=int(row.get("turn") or 0),
            kind_label=kind.replace("_", " ").capitalize() or "Battle",
            place=_place_name(campaign, str(row.get("place") or "")),
            revert=revert,
            successor=successor,
        )
    return None


def _place_name(campaign: Campaign, key: str) -> str:
    """The name of a zone or port key of the campaign (the key itself only if the map has lost it)."""
    port = Port.objects.filter(campaign=campaign, key=key).values_list("name", flat=True).first()
    zone = SeaZone.objects.filter(campaign=campaign, key=key).values_list("name", flat=True).first()
    return port or zone or key
