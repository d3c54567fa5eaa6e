"""Read side of the REST API's campaign resources that the web selectors do not already return whole.

Permissions and fog of war are not decided here: every function starts from
:func:`campaign.viewer.viewer_for_player` (404 for a campaign the user has no part in, 403 for
a player asking for another nation) and reads only what that viewer may see, with the same rule as
the map (RULES.md §3: "a nation sees its own and allied forces" — ``Viewer.friendly``).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, QuerySet

from battles.selectors import ship_line_key
from campaign.models import Campaign, LedgerEntry, Nation
from campaign.permissions import campaign_role, co_gm_of
from campaign.viewer import User, Viewer, viewer_for_player
from fleets.models import Fleet, Ship


@dataclass
class FleetList:
    """The own and allied fleets the viewer's nation sees, each with its ships afloat in line order."""

    viewer: Viewer
    fleets: list[Fleet]
    ships: dict[int, list[Ship]]


def fleets_for_player(*, user: User, slug: str, nation_code: str | None = None) -> FleetList:
    """Own and allied fleets with their ships afloat (three queries after the viewer's).

    Enemy and neutral fleets are never read: what a nation knows of them is in its turn report.
    """
    viewer = viewer_for_player(user=user, slug=slug, nation_code=nation_code)
    friendly_ids = [n.pk for n in viewer.nations if viewer.friendly(n.pk)]
    fleets = list(
        Fleet.objects.filter(campaign=viewer.campaign, nation_id__in=friendly_ids)
        .select_related("nation", "sea_zone", "port", "admiral", "blockade_port")
        .order_by("nation__code", "name", "id")
    )
    ships: dict[int, list[Ship]] = defaultdict(list)
    for ship in sorted(
        Ship.objects.filter(fleet_id__in=[f.pk for f in fleets], condition__in=Ship.AFLOAT).select_related(
            "nation", "original_nation"
        ),
        key=lambda s: ship_line_key(s, viewer.ruleset),
    ):
        assert ship.fleet_id is not None
        ships[ship.fleet_id].append(ship)
    return FleetList(viewer, fleets, dict(ships))


def ledger_for_player(*, user: User, slug: str, nation_code: str | None = None) -> QuerySet[LedgerEntry]:
    """The viewer's nation's ledger, newest line first (a player's own nation only; a GM any)."""
    viewer = viewer_for_player(user=user, slug=slug, nation_code=nation_code)
    return LedgerEntry.objects.filter(nation=viewer.nation).order_by("-id")


class NationRequired(Exception):
    """A GM who plays no nation in the campaign named none: the API does not pick one for them."""

    def __init__(self, codes: list[str]) -> None:
        self.codes = codes
        listed = ", ".join(codes) if codes else "none yet"
        super().__init__(f"Name the nation with ?nation=CODE: a game master may look through any of {listed}.")


def api_nation_code(*, user: User, slug: str, nation_code: str | None) -> str | None:
    """The nation an API request is for: the one named; else the caller's own (None, for the selectors to
    find). A GM who plays no nation here and names none gets :class:`NationRequired` listing the codes, where
    the web pages would show the first nation — a script must never act for a nation it did not choose.
    One query when no nation is named (two for such a GM); who may see the campaign at all is still the
    selectors' business (404 / 403)."""
    if nation_code:
        return nation_code
    if not user.is_authenticated:
        return None  # nobody's nation: the selectors refuse the visitor
    plays = Nation.objects.filter(campaign_id=OuterRef("pk"), player_id=user.pk)
    # Whether the caller co-runs and plays here are read with the campaign (its few columns the part needs),
    # not by three queries: most calls name no nation, and are a player's.
    campaign = (
        Campaign.objects.annotate(viewer_co_gm=co_gm_of(int(user.pk)), viewer_plays=Exists(plays))
        .only("pk", "gm_id")
        .filter(slug=slug)
        .first()
    )
    if campaign is None:
        return None
    role = campaign_role(user, campaign, nations=(), co_gm=bool(campaign.viewer_co_gm))
    if role.runs and not campaign.viewer_plays:
        codes = list(Nation.objects.filter(campaign=campaign).order_by("code").values_list("code", flat=True))
        raise NationRequired(codes)
    return None


__all__ = ["FleetList", "NationRequired", "api_nation_code", "fleets_for_player", "ledger_for_player"]
