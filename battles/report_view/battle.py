"""A stored battle report put together for the battle page (:mod:`battles.report_view`): its sides
and ships, its days or attacks, its dice and the notes under it, whatever the report's shape."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battles.models import Battle
from battles.report_view.days import day_view, die_view, engagement_days, fireship_attacks
from battles.report_view.shapes import BattleView, DayView
from battles.report_view.sides import ship_views, ships_out_of_line, side_views, tabletop_line
from battles.tabletop.history import history_lines, table_decision

_KIND_TITLES = {
    "fleet_action": "Fleet action",
    "running_the_guns": "Running the guns",
    "garrison_guns": "Garrison guns",
    "fireships": "Fireship attack",
}


def battle_view(battle: Battle) -> BattleView:
    """The battle's report as one readable structure (sides, days and rounds, fates, dice), whatever
    its shape. One query for the ships' crews and nations, one for the ships out of the line; nothing
    else beyond ``battle`` itself."""
    report: dict[str, Any] = battle.report if isinstance(battle.report, dict) else {}
    kind = report.get("type", battle.kind)
    days_raw: list[dict[str, Any]] = report.get("days") or []
    first_report: Mapping[str, Any] = days_raw[0].get("report", {}) if days_raw else report
    sides = side_views(battle, report, first_report.get("sides") or [])
    names = [s.name for s in sides]
    ships = ship_views(report, sides)
    if kind == "tabletop":
        tabletop_line(report, sides)
    ships_out_of_line(battle, sides, ships)
    dice_raw: list[dict[str, Any]] = list(report.get("dice") or [])
    days: list[DayView] = []
    notes: list[str] = []
    if kind == "engagement":
        days = engagement_days(report, dice_raw, names)
        if report.get("engagement"):
            notes.append(f"Engagement: {str(report['engagement']).replace('_', ' ')}.")
    elif kind == "tabletop":
        # Issue 15: fought with miniatures; the result was entered, confirmed and approved.
        table = report.get("tabletop") or {}
        history = table.get("history") or []
        if history:
            notes.append("Fought on the table. " + " ".join(history_lines(history)))
            if table_decision(history):
                notes.append(table_decision(history))
        else:
            entered = table.get("entered_by")
            notes.append(
                "Fought on the table; the result was entered"
                + (f" by {entered}" if entered else "")
                + " and approved by the game master."
            )
    elif kind in ("fleet_action", "running_the_guns", "garrison_guns"):
        days.append(day_view(1, report, dice_raw, "", names))
        if report.get("coastal_forts") is not None:
            notes.append(f"Coastal forts: {report['coastal_forts']}.")
        if report.get("barrage"):
            notes.append("Barrage dice due per round: " + ", ".join(str(b) for b in report["barrage"]) + ".")
    attacks = fireship_attacks(report, dice_raw, notes) if kind == "fireships" else []
    if isinstance(report.get("dice_offset"), int) and report["dice_offset"]:
        notes.append(
            f"Seed {battle.seed}; these dice follow the first {report['dice_offset']} dice drawn at this port "
            "this turn."
        )
    elif battle.seed is not None:
        notes.append(f"Seed {battle.seed}.")
    winner = battle.winner
    result = "No winner" if winner not in (0, 1) else f"{names[winner]} won"
    outcome = report.get("outcome") or []
    if len(outcome) == 2:
        result += " — " + ", ".join(f"{names[k]} {outcome[k]}" for k in (0, 1))
    where = battle.port.name if battle.port is not None else battle.sea_zone.name
    return BattleView(
        battle=battle,
        title=f"{_KIND_TITLES.get(battle.kind, battle.kind)} at {where}",
        where=where,
        result=result,
        sides=sides,
        days=days,
        ships=ships,
        dice=[die_view(d, names) for d in dice_raw],
        notes=notes,
        attacks=attacks,
    )
