"""The landing page: the campaigns a visitor plays or runs, with their nation, turn and deadline."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Exists, OuterRef

from campaign.models import Campaign, Nation, NationTurn, Turn
from campaign.permissions import campaigns_run_by
from campaign.selectors import campaigns_for_user
from campaign.viewer import User


@dataclass(frozen=True)
class CampaignRow:
    campaign: Campaign
    nation: Nation | None
    is_gm: bool
    turn_number: int
    deadline: datetime | None
    turn_status: str
    ready: bool


def home_for_player(*, user: User) -> list[CampaignRow]:
    """The campaigns the user plays or runs, with their nation, turn and deadline (four queries)."""
    campaigns = list(campaigns_for_user(user=user).filter(archived_at__isnull=True))  # archived: hidden
    if not campaigns:
        return []
    ids = [c.pk for c in campaigns]
    run = set(campaigns_run_by(user).filter(pk__in=ids).values_list("pk", flat=True))
    mine = {n.campaign_id: n for n in Nation.objects.filter(campaign_id__in=ids, player_id=user.pk)}
    ready = NationTurn.objects.filter(turn=OuterRef("pk"), nation__player_id=user.pk, ready=True)
    turns = {
        t.campaign_id: t
        for t in Turn.objects.filter(
            campaign_id__in=ids, status__in=[Turn.Status.OPEN, Turn.Status.RESOLVING, Turn.Status.TABLE]
        ).annotate(me_ready=Exists(ready))
    }
    rows = []
    for c in campaigns:
        turn = turns.get(c.pk)
        rows.append(
            CampaignRow(
                campaign=c,
                nation=mine.get(c.pk),
                is_gm=c.pk in run,
                turn_number=turn.number if turn else c.turn_number,
                deadline=turn.deadline if turn else None,
                turn_status=turn.get_status_display() if turn else "",
                ready=bool(getattr(turn, "me_ready", False)),
            )
        )
    return rows


__all__ = ["CampaignRow", "home_for_player"]
