"""Read-side queries of the campaign app (permissions applied here, not in templates)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, Q, QuerySet

from campaign.models import Campaign


def campaigns_for_user(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[Campaign]:
    """Campaigns a visitor may see: staff see all; a player those where they command a nation or are GM.

    Anonymous visitors see none: a campaign's existence is the group's business.
    """
    if not user.is_authenticated:
        return Campaign.objects.none()
    campaigns = Campaign.objects.annotate(nation_count=Count("nations", distinct=True))
    if getattr(user, "is_staff", False):
        return campaigns.order_by("name")
    return campaigns.filter(Q(gm=user) | Q(nations__player=user)).distinct().order_by("name")
