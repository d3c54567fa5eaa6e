"""Read-side queries of the campaign app (permissions applied here, not in templates)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, Exists, OuterRef, QuerySet
from django.db.models.expressions import RawSQL

from campaign.models import AuditEntry, Campaign, Nation, NationTurn, Relation
from campaign.permissions import campaigns_run_by, campaigns_taken_part_in


def campaigns_for_user(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[Campaign]:
    """Campaigns a visitor may see, by name: those they run or play in (campaign.permissions); all for a
    superuser. Being staff grants nothing. Anonymous visitors see none: a campaign's existence is the
    group's business.
    """
    visible = campaigns_taken_part_in(user).values("pk")
    return Campaign.objects.filter(pk__in=visible).annotate(nation_count=Count("nations")).order_by("name")


def audit_entries_for_user(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[AuditEntry]:
    """Audit entries of the campaigns ``user`` runs (every campaign's for a superuser), newest first."""
    return AuditEntry.objects.filter(campaign_id__in=campaigns_run_by(user).values("pk")).order_by("-created_at", "-pk")


class Diplomacy:
    """The relations of one campaign, read once: who is at war with or allied to whom (RULES.md §10)."""

    def __init__(self, states: dict[frozenset[int], str]) -> None:
        self._states = states

    def state(self, a: int, b: int) -> str:
        if a == b:
            return "self"
        return self._states.get(frozenset((a, b)), Relation.State.PEACE)

    def at_war(self, a: int, b: int) -> bool:
        return self.state(a, b) == Relation.State.WAR

    def allied(self, a: int, b: int) -> bool:
        """Allied or the same nation: "own or allied" in the rules."""
        return a == b or self.state(a, b) == Relation.State.ALLIANCE


def diplomacy_for_campaign(*, campaign_id: int) -> Diplomacy:
    rows = Relation.objects.filter(campaign_id=campaign_id).values_list("a_id", "b_id", "state")
    return Diplomacy({frozenset((a, b)): state for a, b, state in rows})


def relations_of(table: str, campaign_column: str) -> RawSQL:
    """An annotation: the relations of the campaign whose id is ``table.campaign_column`` in the query,
    as an array of ``[a, b, state]`` (:func:`diplomacy_from_relations` reads it). It lets a query that
    reads a campaign (or its turn) bring its diplomacy along instead of costing a query of its own.
    Written as SQL because the ORM's JSONObject/ArraySubquery took longer to compile (per request)
    than the separate query it saves; ``table`` and ``campaign_column`` are our names, never input."""
    return RawSQL(
        "SELECT COALESCE(json_agg(json_build_array(r.a_id, r.b_id, r.state)), '[]') FROM "
        f'{Relation._meta.db_table} r WHERE r.campaign_id = "{table}"."{campaign_column}"',
        (),
    )


def diplomacy_from_relations(relations: list[list[Any]]) -> Diplomacy:
    """The :class:`Diplomacy` of the rows a :func:`relations_of` annotation read."""
    return Diplomacy({frozenset((a, b)): state for a, b, state in relations})


def nations_without_orders(*, campaign_id: int, turn_id: int) -> QuerySet[Nation]:
    """The campaign's nations with a player that entered no orders for the turn, by code: the one
    answer to "who sent no orders", for the missing-orders policy, the "no orders" mail and the GM's
    digest alike. A nation with no turn state at all entered nothing either; one that entered orders
    and withdrew them all did give orders (``NationTurn.submitted_at``)."""
    submitted = NationTurn.objects.filter(turn_id=turn_id, nation=OuterRef("pk"), submitted_at__isnull=False)
    return (
        Nation.objects.filter(campaign_id=campaign_id, player__isnull=False).exclude(Exists(submitted)).order_by("code")
    )
