"""Diplomacy in sight (RULES.md §10, §3 "Fog of war": every nation sees all relations): who is at war
with or allied to whom, the offers of peace and alliance waiting for an answer, and the nations
with their players and whether each is ready for the open turn.

Readiness is shown to players unless the campaign's house option ``Campaign.show_readiness`` hides
it; the GM always sees it. Offers are shown to the two nations they concern (and to a GM looking
through either), never to a third nation: an offer is a letter, not a relation.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Q, Value

from campaign.models import DiplomaticOffer, Relation
from campaign.viewer import Viewer


@dataclass(frozen=True)
class NationStanding:
    """One nation's row: its relations to the others, its player, and whether it is ready."""

    code: str
    name: str
    color: str
    player: str
    ready: bool | None  # None: hidden by the house option
    at_war_with: list[str]
    allied_with: list[str]
    own: bool


@dataclass(frozen=True)
class PendingOffer:
    from_name: str
    to_name: str
    kind_label: str
    turn: int
    to_us: bool
    #: The two nations' codes and the offer's kind key, for programs (the API's nations list).
    from_code: str = ""
    to_code: str = ""
    kind: str = ""


@dataclass(frozen=True)
class DiplomacyPanel:
    nations: list[NationStanding]
    offers: list[PendingOffer]
    readiness_shown: bool

    @property
    def ready_count(self) -> int:
        return sum(1 for n in self.nations if n.ready)


def _players_and_offers(viewer: Viewer) -> tuple[dict[int, str], list[tuple[int, int, str, int]]]:
    """The players' names by user id and the offers to or from the viewer's nation as (from id,
    to id, kind, turn), in one query: the dashboard is held to 20 queries (issue 5) and has none
    to spare, so the two reads go as one UNION ALL of same-shaped rows tagged by their first column."""
    user_model = get_user_model()
    us = viewer.nation.pk
    player_ids = [n.player_id for n in viewer.nations if n.player_id is not None]
    players = user_model.objects.filter(pk__in=player_ids).values_list(
        Value("player"), "pk", Value(0), Value(""), Value(0), user_model.USERNAME_FIELD
    )
    offers = (
        DiplomaticOffer.objects.filter(campaign=viewer.campaign)
        .filter(Q(from_nation_id=us) | Q(to_nation_id=us))
        .values_list(Value("offer"), "from_nation_id", "to_nation_id", "kind", "turn", Value(""))
    )
    names: dict[int, str] = {}
    found: list[tuple[int, int, str, int]] = []
    for tag, a, b, kind, turn, username in players.union(offers, all=True):
        if tag == "player":
            names[a] = username
        else:
            found.append((a, b, kind, turn))
    return names, sorted(found, key=lambda o: (o[3], o[0], o[1], o[2]))


def diplomacy_for_viewer(viewer: Viewer) -> DiplomacyPanel:
    """The relations, pending offers and nations panel as ``viewer`` may see them (one query: the
    players' names and the offers; relations and readiness come with the viewer)."""
    # By name, as players read them (the viewer's nations come in code order: "Spain, France").
    nations = sorted(viewer.nations, key=lambda n: n.name)
    players, offer_rows = _players_and_offers(viewer)
    show_ready = viewer.campaign.show_readiness or viewer.is_gm
    state = viewer.diplomacy.state
    rows = [
        NationStanding(
            code=n.code,
            name=n.name,
            color=n.color,
            player=players.get(n.player_id, "") if n.player_id else "",
            ready=bool(getattr(n, "ready", False)) if show_ready else None,
            at_war_with=[o.name for o in nations if o.pk != n.pk and state(n.pk, o.pk) == Relation.State.WAR],
            allied_with=[o.name for o in nations if o.pk != n.pk and state(n.pk, o.pk) == Relation.State.ALLIANCE],
            own=n.pk == viewer.nation.pk,
        )
        for n in nations
    ]
    by_id = viewer.nations_by_id
    kinds = dict(DiplomaticOffer.Kind.choices)
    offers = [
        PendingOffer(
            from_name=by_id[a].name,
            to_name=by_id[b].name,
            kind_label=str(kinds.get(kind, kind)).lower(),
            turn=turn,
            to_us=b == viewer.nation.pk,
            from_code=by_id[a].code,
            to_code=by_id[b].code,
            kind=kind,
        )
        for a, b, kind, turn in offer_rows
        if a in by_id and b in by_id
    ]
    return DiplomacyPanel(nations=rows, offers=offers, readiness_shown=show_ready)


__all__ = ["DiplomacyPanel", "NationStanding", "PendingOffer", "diplomacy_for_viewer"]
