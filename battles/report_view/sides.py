"""A stored battle's sides and ships as the report page shows them (:mod:`battles.report_view`): the
sides by their nations' names, each side's ships with their fates and crews, the line of a battle
fought on the table, and the ships that shared their side's fate out of the line."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from battles.engine.spec import SpecError, line_eligible
from battles.models import Battle, Engagement
from battles.report_view.shapes import ShipView, SideView, class_name
from fleets.models import Fleet, Ship
from rules.ruleset import NAVY_NAMES
from rules.turn_events import BattleFought, event_from_json


def stored_sides(raw: Any) -> list[dict[str, Any]]:
    """A Battle's stored ``sides`` as a list of dicts, whatever was stored."""
    if not isinstance(raw, list):
        return []
    return [s if isinstance(s, dict) else {} for s in raw]


def side_label(side: Mapping[str, Any], nation_names: Mapping[str, str], index: int) -> str:
    """A side as players read it: a name made of nation codes ("GB", "FR/ES") becomes the nations'
    names; another name (a port's, a fleet's) is kept, followed by its nations' names when it does
    not already say them."""
    name = str(side.get("name") or "")
    codes = [c.strip() for c in re.split(r"[/,&]", name)] if name else []
    if codes and all(c in nation_names for c in codes):
        return " & ".join(nation_names[c] for c in codes)
    nations = [nation_names.get(str(c), str(c)) for c in side.get("nations") or []]
    missing = [n for n in nations if n not in name]
    if not name:
        return " & ".join(nations) or ("First side" if index == 0 else "Second side")
    return f"{name} ({', '.join(missing)})" if missing else name


def side_views(battle: Battle, report: Mapping[str, Any], engine_sides: Sequence[Any]) -> list[SideView]:
    """Both sides as stored on the Battle and in the engine's report; sides named by their nations'
    codes ("GB", "FR/ES") get the nations' names. Two queries: nation names and fleet names."""
    stored = stored_sides(battle.sides)
    nation_names = dict(battle.campaign.nations.values_list("code", "name"))
    fleet_ids = [int(f) for s in stored for f in s.get("fleets") or [] if isinstance(f, int)]
    fleet_names = dict(Fleet.objects.filter(pk__in=fleet_ids).values_list("pk", "name")) if fleet_ids else {}
    sides: list[SideView] = []
    for k in (0, 1):
        kept = stored[k] if k < len(stored) else {}
        engine = engine_sides[k] if k < len(engine_sides) else {}
        admiral = kept.get("admiral") or engine.get("admiral")
        outcome = (report.get("outcome") or ["", ""])[k] if len(report.get("outcome") or []) > k else ""
        name = side_label({**kept, "name": kept.get("name") or engine.get("name") or ""}, nation_names, k)
        sides.append(
            SideView(
                index=k,
                name=name,
                fleets=", ".join(fleet_names[f] for f in kept.get("fleets") or [] if f in fleet_names),
                nations=[nation_names.get(c, c) for c in kept.get("nations") or []],
                navy=NAVY_NAMES.get(str(engine.get("navy", "")), str(engine.get("navy", ""))),
                admiral=f"{admiral.get('name') or 'unnamed'} ({admiral.get('grade')})" if admiral else "",
                ships=int(engine.get("ships", 0) or 0),
                lost=int(engine.get("lost", 0) or 0),
                outcome=outcome,
                winner=battle.winner == k,
            )
        )
    return sides


def ship_views(report: Mapping[str, Any], sides: list[SideView]) -> list[list[ShipView]]:
    """Each side's ships and fates; crews and nations from the campaign's ships (the engine keeps
    their ids as "ref"), in one query. Fills each side's ship list and crews."""
    names = [s.name for s in sides]
    ship_rows: list[dict[str, Any]] = list(report.get("ships") or [])
    refs: list[int] = [s["ref"] for s in ship_rows if isinstance(s.get("ref"), int)]
    known = {s.pk: s for s in Ship.objects.filter(pk__in=refs).select_related("original_nation")} if refs else {}
    crews: list[set[str]] = [set(), set()]
    ships: list[list[ShipView]] = [[], []]
    for row in ship_rows:
        side = row.get("side", 0) if row.get("side") in (0, 1) else 0
        ref = row.get("ref")
        ship = known.get(ref) if isinstance(ref, int) else None
        # The report records the crew that fought; older reports did not, and a prize now carries its
        # captor's crew (RULES.md §4), so for those only an uncaptured ship's crew is known.
        crew = row.get("crew") or (ship.crew if ship is not None and row.get("fate") != "captured" else "")
        if crew:
            crews[side].add(crew)
        by = row.get("captured_by")
        ships[side].append(
            ShipView(
                side=side,
                name=str(row.get("name", "")),
                cls=class_name(str(row.get("class", ship.ship_class if ship else ""))),
                crew=crew,
                nation=ship.original_nation.name if ship is not None else "",
                fate=str(row.get("fate", "")),
                exploded=bool(row.get("exploded")),
                captured_by=names[by] if by in (0, 1) else "",
            )
        )
    for k, side_view in enumerate(sides):
        if len(side_view.nations) == 1:
            for view in ships[k]:  # a ship of the side's only nation needs no "(nation)" after its name
                if view.nation == side_view.nations[0]:
                    view.nation = ""
        side_view.ship_list = ships[k]
        side_view.crew = ", ".join(sorted(crews[k]))
        if not side_view.ships:
            side_view.ships = len(ships[k])
    return ships


def tabletop_line(report: Mapping[str, Any], sides: list[SideView]) -> None:
    """A table-fought report lists every ship of the battle: count only those in the line, as the
    server's report does (its ``in_line``; in reports stored before, the rules' line by class)."""
    rows = [r for r in report.get("ships") or [] if isinstance(r, Mapping)]
    for k, side in enumerate(sides):
        own = [r for r in rows if r.get("side", 0) == k]
        try:
            eligible = line_eligible(str(r.get("class", "")) for r in own)
        except SpecError:  # a class the rules do not know: counted in the line, as before
            eligible = [True] * len(own)
        flags = [
            bool(r["in_line"]) if isinstance(r.get("in_line"), bool) else e for r, e in zip(own, eligible, strict=True)
        ]
        for view, flag in zip(side.ship_list, flags, strict=False):
            view.in_line = flag
        side.ships = sum(flags)


def ships_out_of_line(battle: Battle, sides: list[SideView], ships: list[list[ShipView]]) -> None:
    """Add the ships that took part without fighting in the line (frigates and smaller, RULES.md §4:
    they share their side's fate) to each side's list. The engine's report holds only the line; the
    engagement's battle event holds every ship with its fate (one query)."""
    result = Engagement.objects.filter(battle=battle).values_list("result", flat=True).first()
    stored = result.get("events") if isinstance(result, Mapping) else None
    if not isinstance(stored, list):
        return
    report = battle.report if isinstance(battle.report, Mapping) else {}
    listed = {r.get("ref") for r in report.get("ships") or [] if isinstance(r, Mapping)}
    names = [s.name for s in sides]
    for raw in stored:
        event = event_from_json(raw) if isinstance(raw, Mapping) else None
        if not isinstance(event, BattleFought) or event.battle_id != battle.pk:
            continue
        for row in event.ships:
            if row.side not in (0, 1) or row.ship_id in listed:
                continue
            listed.add(row.ship_id)
            captured = row.fate == "captured"
            ships[row.side].append(
                ShipView(
                    side=row.side,
                    name=row.ship_name,
                    cls=class_name(row.ship_class),
                    crew="",
                    nation="",
                    fate=row.fate,
                    exploded=False,
                    captured_by=names[1 - row.side] if captured else "",
                    in_line=False,
                )
            )
        break
