"""Read side of the endpoints a bot plays from (:mod:`campaign.api.play_views`): nations with their
relations, the campaign's rules as numbers, a fleet's legal moves and the list of turns.

Each starts from the web's own selectors, so permissions and fog of war are theirs: the nations
panel of the dashboard (:func:`campaign.pages.diplomacy.diplomacy_for_viewer`: offers only between
the caller's nation and another, readiness only where the campaign shows it), the map's legal moves
(:func:`campaign.pages.map.moves.map_move_for_player`: own fleets afloat only), the rules page's
ruleset (every number read from it, never written here).
"""

from __future__ import annotations

from typing import Any

from campaign.models import Relation, Turn
from campaign.pages.diplomacy import diplomacy_for_viewer
from campaign.pages.map.moves import MapMove
from campaign.viewer import User, viewer_for_player
from rules.economy import repair_cost
from rules.ruleset import BIG_CLASSES, QUOTA_PERIODS, SHIP_CLASS_NAMES, SHIP_CLASSES, SOL_CLASSES, Ruleset
from rules.ruleset import DEFAULTS as RULEBOOK

_RELATION: dict[str, str] = {
    Relation.State.WAR: "war",
    Relation.State.PEACE: "peace",
    Relation.State.ALLIANCE: "alliance",
}


def nations_for_player(*, user: User, slug: str, nation_code: str | None) -> list[dict[str, Any]]:
    """Every nation of the campaign as the caller's nation sees it (what the dashboard's panel shows:
    relations are public, offers only between the caller and each nation, readiness where shown)."""
    viewer = viewer_for_player(user=user, slug=slug, nation_code=nation_code)
    panel = diplomacy_for_viewer(viewer)
    own = viewer.nation
    rows = []
    for standing in sorted(panel.nations, key=lambda n: n.code):
        nation = viewer.nations_by_code[standing.code]
        relation = "self" if nation.pk == own.pk else _RELATION[viewer.diplomacy.state(own.pk, nation.pk)]
        offers = [
            {"from_nation": o.from_code, "to_nation": o.to_code, "kind": o.kind, "turn": o.turn}
            for o in panel.offers
            if standing.code in (o.from_code, o.to_code) and nation.pk != own.pk
        ]
        rows.append(
            {
                "code": standing.code,
                "name": standing.name,
                "player": standing.player or None,
                "relation": relation,
                "offers": offers,
                "ready": standing.ready,
            }
        )
    return rows


def rules_as_numbers(ruleset: Ruleset, *, navy: str, year: int) -> dict[str, Any]:
    """The ruleset as a program reads it: the same values the rules page shows (both read them here
    from the ruleset), grouped as a bot needs them, plus every setting by its key."""
    return {
        "ship_classes": [
            {
                "ship_class": c,
                "name": SHIP_CLASS_NAMES[c],
                "cost": ruleset.ship_cost[c],
                "build_turns": ruleset.ship_build_turns[c],
                "ship_of_the_line": c in SOL_CLASSES,
                "counts_for_quota": c in BIG_CLASSES,
                "repair_damaged": repair_cost(c, "damaged", ruleset),
                "repair_disabled": repair_cost(c, "disabled", ruleset),
            }
            for c in SHIP_CLASSES
        ],
        "raise_costs": {
            "land_unit": ruleset["economy.raise_land_unit_cost"],
            "siege_train": ruleset["economy.raise_siege_train_cost"],
        },
        "movement": {
            "max_steps": ruleset["movement.max_steps"],
            "max_steps_with_disabled": ruleset["movement.max_steps_with_disabled"],
            "port_ships_per_capacity": ruleset["movement.port_ships_per_capacity"],
        },
        "quota": {
            "period": ruleset.quota_period(year),
            "percent": ruleset.quota_percent(navy, year),
            "four_decker_limit": ruleset["quota.four_decker_limit"],
            "period_starts": {p: ruleset[f"quota.period_start.{p}"] for p in QUOTA_PERIODS if p != "pre1792"},
            "table": {navy_code: dict(periods) for navy_code, periods in ruleset.quota_pct.items()},
        },
        "repair": {
            "damaged_percent": ruleset["economy.repair_damaged_pct"],
            "disabled_percent": ruleset["economy.repair_disabled_pct"],
        },
        "settings": {key: ruleset[key] for key in RULEBOOK},
        "house_rules": ruleset.overrides(),
    }


def rules_for_api(*, user: User, slug: str, nation_code: str | None) -> dict[str, Any]:
    """The campaign's rules as numbers for anyone who may see the campaign (quota for the nation's navy)."""
    viewer = viewer_for_player(user=user, slug=slug, nation_code=nation_code)
    year = viewer.turn.year if viewer.turn is not None else viewer.campaign.year
    return rules_as_numbers(viewer.campaign.ruleset, navy=viewer.nation.navy, year=year)


def legal_paths(move: MapMove) -> list[dict[str, Any]]:
    """The map's legal moves of one fleet as paths: each the move order's steps, the zones passed, and
    where it ends (shortest first per destination, as the map rings them)."""
    paths = []
    for destination in move.destinations:
        for choice in (destination.path, *destination.others):
            zones = [s for s in choice.steps if s != "sea" and not s.startswith("port:")]
            paths.append(
                {
                    "path": list(choice.steps),
                    "zones": zones,
                    "zone": destination.zone_key,
                    "port": destination.port_key or None,
                    "name": destination.name,
                }
            )
    return paths


def turns_for_player(*, user: User, slug: str, nation_code: str | None) -> list[dict[str, Any]]:
    """The campaign's turns, newest first (nothing secret: numbers, dates and states)."""
    viewer = viewer_for_player(user=user, slug=slug, nation_code=nation_code)
    rows = Turn.objects.filter(campaign=viewer.campaign).order_by("-number")
    return [dict(row) for row in rows.values("number", "year", "season", "status", "deadline", "resolved_at")]
