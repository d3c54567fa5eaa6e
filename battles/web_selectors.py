"""Read side of the battle report pages: which battles a player may see, and each report made readable.

Fog of war (RULES.md §3), fixed at the time of the battle: a player sees a battle if their nation
fought in it (``Battle.sides[*].nations``) or was allied to a side when it was fought
(``Battle.seen_by``, written at resolution), or if their turn report for that turn notes it (an
event carrying ``"battle": <id>``); a GM (owner, co-GM or superuser: campaign.permissions) sees every
battle. An
alliance made later opens nothing. Any other battle is answered exactly like one that does not
exist (404).

The battles app does not import the campaign app (import contracts) with one exception, the one module
that decides who takes part in a campaign (``campaign.permissions``, allowed by name in pyproject.toml);
the campaign is named by its slug and its nations and reports are reached through the Battle's own relations.

Each report made readable is :mod:`battles.report_view`'s.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.http import Http404

from battles.models import Battle
from battles.report_view.sides import side_label, stored_sides
from campaign.permissions import campaign_role
from rules.turn_events import report_events

User = AbstractBaseUser | AnonymousUser

# --- permissions --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Viewer:
    """Who is looking at a campaign's battles: a GM sees all; a player sees those their nation
    (``code``) fought in or was allied to a side of at the time, and the ones their turn reports note."""

    is_gm: bool
    nation: Any  # campaign.models.Nation, or None
    code: str | None

    def witnessed(self, sides: Any, seen_by: Any) -> bool:
        """Fought in it (its sides) or allied to a side when it was fought (its ``seen_by``)."""
        if self.code is None:
            return False
        fought = {code for side in stored_sides(sides) for code in side.get("nations", [])}
        return self.code in fought or (isinstance(seen_by, list) and self.code in seen_by)


def _viewer(*, user: User, campaign: Any) -> Viewer:
    """The viewer of a campaign (a ``campaign.models.Campaign``, reached through a Battle)."""
    role = campaign_role(user, campaign)
    if role.runs:
        return Viewer(True, None, None)
    if role.nation is None:
        return Viewer(False, None, None)
    return Viewer(False, role.nation, role.nation.code)


def _noted(viewer: Viewer, turn_ids: Iterable[int] | None = None) -> set[int]:
    """Battle ids the viewer's turn reports note (the events that link to a battle's report)."""
    if viewer.nation is None:
        return set()
    reports = viewer.nation.reports.all()
    if turn_ids is not None:
        reports = reports.filter(turn_id__in=list(turn_ids))
    ids: set[int] = set()
    for body in reports.values_list("body", flat=True):
        ids.update(e.battle for e in report_events(body) if e.battle is not None)
    return ids


#: The turn's JSON a battle page never shows (the whole campaign's export and the turn's dice): read with
#: each battle's turn they cost more CPU to decode than the rest of the page.
_TURN_BLOBS = ("turn__snapshot", "turn__dice_log", "turn__reseeds")


def battle_for_player(*, user: User, campaign: str, battle_id: int) -> Battle:
    """The battle ``battle_id`` of the campaign with slug ``campaign`` if ``user`` may see it, else 404."""
    battle = (
        Battle.objects.select_related("campaign", "turn", "sea_zone", "port")
        .defer(*_TURN_BLOBS)
        .filter(pk=battle_id, campaign__slug=campaign)
        .first()
    )
    if battle is None or not user.is_authenticated:
        raise Http404("No such battle.")
    viewer = _viewer(user=user, campaign=battle.campaign)
    if viewer.is_gm or viewer.witnessed(battle.sides, battle.seen_by):
        return battle
    if viewer.nation is not None and battle.pk in _noted(viewer, [battle.turn_id]):
        return battle
    raise Http404("No such battle.")


def visible_battles_for_player(*, user: User, campaign: str) -> QuerySet[Battle]:
    """Every battle of the campaign the user may see, newest turn first, as a queryset to filter and
    page (the API's list); 404 for a campaign the user takes no part in. Who sees what is
    :func:`battles_for_player`'s rule."""
    if not user.is_authenticated:
        raise Http404("No such campaign.")
    model: Any = Battle._meta.get_field("campaign").related_model
    the_campaign = model._default_manager.filter(slug=campaign).first()
    if the_campaign is None:
        raise Http404("No such campaign.")
    viewer = _viewer(user=user, campaign=the_campaign)
    if not viewer.is_gm and viewer.nation is None:
        raise Http404("No such campaign.")
    battles = Battle.objects.filter(campaign=the_campaign)
    if not viewer.is_gm:
        noted = _noted(viewer)
        rows = battles.values_list("pk", "sides", "seen_by")
        battles = battles.filter(
            pk__in=[pk for pk, sides, seen_by in rows if pk in noted or viewer.witnessed(sides, seen_by)]
        )
    return battles.select_related("turn", "sea_zone", "port").order_by("-turn__number", "id")


@dataclass(frozen=True)
class BattleList:
    campaign: Any
    page: Page[Any]  # of Battle
    is_gm: bool


def battles_for_player(*, user: User, campaign: str, page: int | str | None = 1, per_page: int = 25) -> BattleList:
    """The battles of the campaign the user may see, newest turn first, a page at a time (404 for a
    campaign the user takes no part in). Sides are filtered in Python (``viewer.witnessed``: who
    fought or saw the battle, from its sides and watchers)."""
    if not user.is_authenticated:
        raise Http404("No such campaign.")
    # The Campaign model through the Battle's foreign key: the battles app imports no campaign code.
    model: Any = Battle._meta.get_field("campaign").related_model
    the_campaign = model._default_manager.filter(slug=campaign).first()
    if the_campaign is None:
        raise Http404("No such campaign.")
    viewer = _viewer(user=user, campaign=the_campaign)
    if not viewer.is_gm and viewer.nation is None:
        raise Http404("No such campaign.")
    rows = (
        Battle.objects.filter(campaign=the_campaign)
        .order_by("-turn__number", "id")
        .values_list("pk", "sides", "seen_by")
    )
    if viewer.is_gm:
        ids = [pk for pk, _, _ in rows]
    else:
        noted = _noted(viewer)
        ids = [pk for pk, sides, seen_by in rows if pk in noted or viewer.witnessed(sides, seen_by)]
    paginator: Paginator[Any] = Paginator(ids, per_page)
    chosen: Page[Any] = paginator.get_page(page)
    battles = (
        Battle.objects.filter(pk__in=list(chosen.object_list))
        .select_related("turn", "sea_zone", "port")
        .defer("report", *_TURN_BLOBS)  # the list shows neither a report nor its turn's export
    )
    by_id = {b.pk: b for b in battles}
    chosen.object_list = [by_id[pk] for pk in chosen.object_list if pk in by_id]
    names = dict(the_campaign.nations.values_list("code", "name"))
    for battle in chosen.object_list:
        # Sides and winner in the nations' names, never their codes.
        battle.side_labels = [side_label(s, names, k) for k, s in enumerate(stored_sides(battle.sides))]
        battle.winner_label = battle.side_labels[battle.winner] if battle.winner in (0, 1) else ""
    return BattleList(the_campaign, chosen, viewer.is_gm)
