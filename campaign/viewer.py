"""Who is looking at a campaign's pages, and through which nation's eyes (RULES.md §3 "Fog of war").

Every ``*_for_player`` selector of the players' pages starts here. A campaign is visible to its GMs
(owner and co-GMs), to superusers and to its players (:func:`campaign.permissions.campaign_role`; being
staff grants nothing); to anybody else it does not exist
(:class:`~django.http.Http404`). A player sees their own nation only: asking for another nation's page
is refused with :class:`~django.core.exceptions.PermissionDenied`. A GM may pick any nation and then
sees exactly what that nation sees.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, Func, IntegerField, OuterRef, Subquery
from django.http import Http404

from campaign.models import Campaign, DispatchCopy, Nation, NationTurn, Turn
from campaign.permissions import campaign_role, co_gm_of
from campaign.selectors import Diplomacy, diplomacy_from_relations, relations_of
from rules.ruleset import Ruleset

User = AbstractBaseUser | AnonymousUser


@dataclass(frozen=True)
class CurrentTurn:
    """The campaign's latest turn (the open one while a campaign runs)."""

    id: int
    number: int
    status: str
    status_label: str
    season_label: str
    year: int
    deadline: datetime | None
    #: The campaign has ended: its last turn may still be open in the database, but it takes no more
    #: orders and readiness, and no deadline runs (the services refuse them too).
    campaign_ended: bool = False
    #: The season's key ("high_summer"), as the API spells it; ``season_label`` is for people.
    season: str = ""

    @property
    def is_open(self) -> bool:
        return self.status == Turn.Status.OPEN and not self.campaign_ended


@dataclass
class Viewer:
    """The requesting user, the campaign and the nation whose eyes they look through.

    One per request, never changed once made: the lookups built from its nations are kept on it
    (a map asked ``nations_by_id`` once per port)."""

    user_id: int
    campaign: Campaign
    nation: Nation
    nations: list[Nation]
    is_gm: bool
    diplomacy: Diplomacy
    turn: CurrentTurn | None
    ruleset: Ruleset

    @cached_property
    def nations_by_id(self) -> dict[int, Nation]:
        return {n.pk: n for n in self.nations}

    @cached_property
    def nations_by_code(self) -> dict[str, Nation]:
        return {n.code: n for n in self.nations}

    @property
    def pickable(self) -> list[Nation]:
        """The nations this viewer may look through: all for a GM, their own for a player."""
        return self.nations if self.is_gm else [self.nation]

    def friendly(self, nation_id: int) -> bool:
        """Own or allied (RULES.md §3: "a nation sees its own and allied forces")."""
        return self.diplomacy.allied(self.nation.pk, nation_id)

    @cached_property
    def friendly_codes(self) -> frozenset[str]:
        return frozenset(n.code for n in self.nations if self.friendly(n.pk))

    @property
    def ready(self) -> bool:
        return bool(getattr(self.nation, "ready", False))

    @property
    def ready_cleared(self) -> bool:
        """A change of orders after marking ready cleared it (issue 26): the ready box says so."""
        return bool(getattr(self.nation, "ready_cleared", False))

    @property
    def unread_dispatches(self) -> int:
        """The unread dispatches of the nation looked through (counted in the nations' query)."""
        return int(getattr(self.nation, "unread_dispatches", 0))


class NationNotChosen(Exception):
    """A GM acted for a nation without saying which one (a read may default to one; an action may not)."""


def nation_labels(viewer: Viewer) -> dict[str, tuple[str, str]]:
    """Every nation of the campaign as code → (name, colour), as the pages label forces."""
    return {n.code: (n.name, n.color) for n in viewer.nations}


def _current_turn(latest: Turn | None) -> CurrentTurn | None:
    if latest is None:
        return None
    return CurrentTurn(
        id=latest.pk,
        number=latest.number,
        status=latest.status,
        status_label=latest.get_status_display(),
        season_label=latest.get_season_display(),
        season=latest.season,
        year=latest.year,
        deadline=latest.deadline,
        campaign_ended=latest.campaign.status == Campaign.Status.ENDED,
    )


def _campaign_for_viewer(*, user: AbstractBaseUser, slug: str) -> tuple[Turn | None, Campaign, bool, list[list[Any]]]:
    """The campaign ``slug`` with its latest turn, whether ``user`` is its co-GM and its relations, read
    in one query (two without a turn yet); Http404 when there is no such campaign. Apart from
    :func:`viewer_for_player` so its checks read on their own."""
    latest = (
        Turn.objects.select_related("campaign")
        .defer("snapshot", "dice_log")  # large JSON blobs no page header needs
        .annotate(
            viewer_co_gm=co_gm_of(int(user.pk), "campaign_id"),
            relation_rows=relations_of(Turn._meta.db_table, "campaign_id"),
        )
        .filter(campaign__slug=slug)
        .order_by("-number")
        .first()
    )
    if latest is not None:
        return latest, latest.campaign, bool(latest.viewer_co_gm), latest.relation_rows
    found = (
        Campaign.objects.annotate(
            viewer_co_gm=co_gm_of(int(user.pk)), relation_rows=relations_of(Campaign._meta.db_table, "id")
        )
        .filter(slug=slug)
        .first()
    )
    if found is None:
        raise Http404("No such campaign.")
    return None, found, bool(found.viewer_co_gm), found.relation_rows


def _nations_for_viewer(campaign: Campaign, latest: Turn | None) -> list[Nation]:
    """The campaign's nations in code order, each with what the page header shows of it for the latest
    turn (ready, ready cleared, orders given) and its unread dispatches, in one query."""
    ready = NationTurn.objects.filter(turn=latest, nation=OuterRef("pk"), ready=True)
    ready_cleared = NationTurn.objects.filter(turn=latest, nation=OuterRef("pk"), ready_cleared=True)
    # Orders given by the deadline (or at all, before it): the header says whose the turn waits for.
    given = NationTurn.objects.filter(turn=latest, nation=OuterRef("pk"), submitted_at__isnull=False)
    if latest is not None and latest.deadline is not None:
        given = given.filter(submitted_at__lte=latest.deadline)
    # The header's unread count rides on this query rather than costing one of its own.
    unread = (
        DispatchCopy.objects.filter(
            nation=OuterRef("pk"), arrived_at__isnull=False, read_at__isnull=True, dispatch__hidden_at__isnull=True
        )
        .order_by()
        # A plain COUNT(*) over the correlated rows (no GROUP BY): it is 0, not NULL, for a nation
        # without unread dispatches, so no Coalesce either.
        .annotate(n=Func(function="COUNT", template="COUNT(*)", output_field=IntegerField()))
        .values("n")
    )
    return list(
        Nation.objects.filter(campaign=campaign)
        .annotate(
            ready=Exists(ready),
            ready_cleared=Exists(ready_cleared),
            orders_given=Exists(given),
            unread_dispatches=Subquery(unread),
        )
        .order_by("code")
    )


def viewer_for_player(*, user: User, slug: str, nation_code: str | None = None) -> Viewer:
    """Who may look at campaign ``slug`` through which nation's eyes (two queries).

    Raises Http404 for a campaign the user has no part in (or that does not exist) and for an
    unknown nation code; PermissionDenied when a player asks for another nation than their own.
    A GM without a nation of their own looks through the first nation in code order.
    """
    if not user.is_authenticated:
        raise Http404("No such campaign.")
    latest, campaign, co_gm, relation_rows = _campaign_for_viewer(user=user, slug=slug)
    nations = _nations_for_viewer(campaign, latest)
    role = campaign_role(user, campaign, nations=nations, co_gm=co_gm)
    is_gm, own = role.runs, role.nation
    if not role.takes_part:
        raise Http404("No such campaign.")
    if nation_code:
        chosen = next((n for n in nations if n.code == nation_code.upper()), None)
        if chosen is None:
            raise Http404("No such nation in this campaign.")
        if not is_gm and own is not None and chosen.pk != own.pk:
            raise PermissionDenied("You may only look at your own nation.")
    else:
        chosen = own or (nations[0] if nations else None)
    if chosen is None:
        raise Http404("This campaign has no nations yet.")
    return Viewer(
        user_id=int(user.pk),
        campaign=campaign,
        nation=chosen,
        nations=nations,
        is_gm=is_gm,
        diplomacy=diplomacy_from_relations(relation_rows),
        turn=_current_turn(latest),
        ruleset=campaign.ruleset,
    )


def acting_viewer_for_player(*, user: User, slug: str, nation_code: str | None = None) -> Viewer:
    """:func:`viewer_for_player` for an action taken in a nation's name (marking it ready, say).

    A page may show a GM the first nation when none is named, but an action must not fall on a
    nation nobody chose: a GM who plays no nation here and names none gets :class:`NationNotChosen`.
    A player acts for their own nation, named or not.
    """
    viewer = viewer_for_player(user=user, slug=slug, nation_code=nation_code)
    if not nation_code and viewer.is_gm and viewer.nation.player_id != user.pk:
        raise NationNotChosen("Choose a nation: a game master must say which nation this is for.")
    return viewer


__all__ = [
    "CurrentTurn",
    "NationNotChosen",
    "User",
    "Viewer",
    "acting_viewer_for_player",
    "nation_labels",
    "viewer_for_player",
]
