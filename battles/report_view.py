"""The battle report page's reading of a stored report (RULES.md §5, §6, §9; CONTRACT.md "Battle
report"): :func:`battle_view` turns any of its shapes into one template-friendly structure.

The stored report is the engine's JSON (``battles.engine``), in one of four shapes: a fleet action
fought as an engagement of one or more days (``"type": "engagement"``: each day's report, the gauge
and pursuit dice), running the guns and garrison guns (one report with its barrage), and fireships
(``"attacks"``). The words are the engine's text report's (:mod:`battles.engine.text`), so the page
and ``simulate_battle`` say the same thing the same way. Who may see a battle is
:mod:`battles.web_selectors`' business.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from battles.engine.spec import SpecError, line_eligible
from battles.engine.text import (
    INTERCEPT_WORDS,
    SIGHTING_WORDS,
    decisions_text,
    event_text,
    integrity_in_words,
    result_text,
    roll_text,
    signed,
)
from battles.models import Battle, Engagement
from battles.tabletop.history import history_lines, table_decision
from fleets.models import Fleet, Ship, ShipClass
from rules.ruleset import NAVY_NAMES
from rules.turn_events import BattleFought, event_from_json

#: Ship classes by their names: the page says "3rd rate (74/80)", never the key "3rd-74".
CLASS_NAMES: dict[str, str] = dict(ShipClass.choices)


def _class_name(key: str) -> str:
    return CLASS_NAMES.get(key, key)


@dataclass
class ShipView:
    side: int
    name: str
    cls: str
    crew: str
    nation: str
    fate: str
    exploded: bool
    captured_by: str
    in_line: bool = True


@dataclass
class SideView:
    index: int
    name: str
    nations: list[str]
    navy: str = ""
    admiral: str = ""
    crew: str = ""
    ships: int = 0
    lost: int = 0
    outcome: str = ""
    winner: bool = False
    ship_list: list[ShipView] = field(default_factory=list)
    fleets: str = ""


@dataclass
class RoundView:
    round: int
    initiative: str = ""
    barrage: int | None = None
    pairs: list[tuple[str, str]] = field(default_factory=list)
    reserves: list[str] = field(default_factory=list)
    checks: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    fire: list[str] = field(default_factory=list)


@dataclass
class DayView:
    day: int
    gauge: str
    rounds: list[RoundView]
    outcome: str
    after: str = ""


@dataclass
class DieView:
    n: int
    day: int | None
    round: int
    side: str
    die: str
    purpose: str
    raw: Any
    mod: Any
    result: Any
    ship: str
    target: str
    effect: str

    @property
    def words(self) -> str:
        """The die in a line a player reads: "British, fire: d10 rolled 7, +1 = 8 — Victory at Redoutable:
        damaged"."""
        modifier = "" if self.mod in ("0", "+0", "") else f", {self.mod}"
        total = "" if self.result is None or (not modifier and self.result == self.raw) else f" = {self.result}"
        line = f"{self.side + ', ' if self.side else ''}{self.purpose}: {self.die} rolled {self.raw}{modifier}{total}"
        aim = " at ".join(part for part in (self.ship, self.target) if part)
        if aim or self.effect:
            line += " — " + ": ".join(part for part in (aim, self.effect) if part)
        return line


@dataclass
class DiceRound:
    """The dice of one round (of one day), shown as a card."""

    title: str
    dice: list[DieView]


@dataclass
class BattleView:
    battle: Battle
    title: str
    where: str
    result: str
    sides: list[SideView]
    days: list[DayView]
    ships: list[list[ShipView]]
    dice: list[DieView]
    notes: list[str]
    attacks: list[dict[str, Any]]

    @property
    def dice_rounds(self) -> list[DiceRound]:
        """The dice log as one card per round (per day and round when the battle lasted days)."""
        days = len({d.day for d in self.dice}) > 1
        cards: list[DiceRound] = []
        for die in self.dice:
            title = (f"Day {die.day}, " if days and die.day is not None else "") + (
                f"round {die.round}" if die.round else "before the rounds"
            )
            if not cards or cards[-1].title != title[:1].upper() + title[1:]:
                cards.append(DiceRound(title[:1].upper() + title[1:], []))
            cards[-1].dice.append(die)
        return cards


_KIND_TITLES = {
    "fleet_action": "Fleet action",
    "running_the_guns": "Running the guns",
    "garrison_guns": "Garrison guns",
    "fireships": "Fireship attack",
}


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


def _pairs(lines: Sequence[Sequence[str]]) -> list[tuple[str, str]]:
    """§5 Lines: ship k of the smaller line faces ship k of the other; extras double up on 1, 2, 3…"""
    if len(lines) != 2:
        return []
    a, b = list(lines[0]), list(lines[1])
    if not a or not b:
        return [(x, "") for x in a] + [("", y) for y in b]
    small, big, flipped = (a, b, False) if len(a) <= len(b) else (b, a, True)
    n = len(small)
    slots: list[list[str]] = [[big[k]] for k in range(n)]
    for e, y in enumerate(big[n:]):
        slots[e % n].append(y)
    out = []
    for k, ship in enumerate(small):
        others = ", ".join(slots[k])
        out.append((others, ship) if flipped else (ship, others))
    return out


def _event_line(e: Mapping[str, Any], names: Sequence[str]) -> str:
    """An end-of-round event of a stored report, in the engine's words ("?" for a side it lacks)."""
    side = names[e.get("side", 0)] if e.get("side") in (0, 1) else "?"
    by = names[e["by"]] if e.get("by") in (0, 1) else "?"
    return event_text(str(e.get("kind")), e.get("ship") or "", side, by)


def _fire_summary(dice: Iterable[Mapping[str, Any]], names: Sequence[str]) -> list[str]:
    """Per side, what its dice did in a round: "British: 12 dice — 3 damaged, 1 sunk"."""
    out = []
    for s in (0, 1):
        rows = [d for d in dice if d.get("side") == s and d.get("purpose") not in ("initiative", "integrity")]
        if not rows:
            continue
        effects: dict[str, int] = {}
        for d in rows:
            effect = str(d.get("effect") or "")
            if effect and effect not in ("miss", "none", "no effect", "no explosion", "wins", "loses"):
                effects[effect] = effects.get(effect, 0) + 1
        done = ", ".join(f"{n} {e}" for e, n in effects.items()) or "no effect"
        out.append(f"{names[s]}: {len(rows)} {'die' if len(rows) == 1 else 'dice'} — {done}")
    return out


def _day_view(
    day: int, report: Mapping[str, Any], dice: Sequence[Mapping[str, Any]], gauge: str, names: Sequence[str]
) -> DayView:
    """One day (or the only round series) of a report; ``names``: the sides' display names."""
    checks: dict[int, list[str]] = {}
    for c in report.get("checks") or []:
        side = names[c.get("side", 0)]
        line = integrity_in_words(
            side, c.get("L"), c.get("penalty"), c.get("raw"), c.get("mod"), c.get("total"), c.get("result")
        )
        checks.setdefault(c.get("round", 0), []).append(line)
    events: dict[int, list[str]] = {}
    for e in report.get("events") or []:
        text = _event_line(e, names)
        if text:
            events.setdefault(e.get("round", 0), []).append(text)
    rounds = []
    for r in report.get("round_lines") or []:
        n = r.get("round", 0)
        initiative = r.get("initiative")
        in_round = [d for d in dice if d.get("round") == n]
        rounds.append(
            RoundView(
                round=n,
                initiative=names[initiative] if initiative in (0, 1) else "",
                barrage=r.get("barrage"),
                pairs=_pairs(r.get("lines") or []),
                reserves=[f"{names[k]}: {', '.join(res)}" for k, res in enumerate(r.get("reserves") or []) if res],
                checks=checks.get(n, []),
                events=[] if n == report.get("rounds") else events.get(n, []),
                fire=_fire_summary(in_round, names),
            )
        )
    last = report.get("rounds", 0)
    after = "; ".join(events.get(last, []))
    text = result_text(names, report.get("winner"), report.get("outcome") or ["", ""])
    return DayView(day, gauge, rounds, text, after)


def _die_view(d: Mapping[str, Any], names: Sequence[str]) -> DieView:
    side = d.get("side")
    return DieView(
        n=int(d.get("n", 0)),
        day=d.get("day"),
        round=int(d.get("round", 0) or 0),
        side=names[side] if side in (0, 1) else "",
        die=str(d.get("die", "")),
        purpose=str(d.get("purpose", "")).replace("_", " "),
        raw=d.get("raw"),
        mod=signed(d.get("mod", 0)),
        result=d.get("result"),
        ship=d.get("ship") or "",
        target=d.get("target") or "",
        effect=str(d.get("effect") or d.get("detail") or ""),
    )


def _side_views(battle: Battle, report: Mapping[str, Any], engine_sides: Sequence[Any]) -> list[SideView]:
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


def _ship_views(report: Mapping[str, Any], sides: list[SideView]) -> list[list[ShipView]]:
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
                cls=_class_name(str(row.get("class", ship.ship_class if ship else ""))),
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


def _tabletop_line(report: Mapping[str, Any], sides: list[SideView]) -> None:
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


def _ships_out_of_line(battle: Battle, sides: list[SideView], ships: list[list[ShipView]]) -> None:
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
                    cls=_class_name(row.ship_class),
                    crew="",
                    nation="",
                    fate=row.fate,
                    exploded=False,
                    captured_by=names[1 - row.side] if captured else "",
                    in_line=False,
                )
            )
        break


def _engagement_days(
    report: Mapping[str, Any], dice_raw: Sequence[Mapping[str, Any]], names: Sequence[str]
) -> list[DayView]:
    """The days of an engagement: each day's gauge and rounds, and the decisions and pursuit after it."""
    days: list[DayView] = []
    pursuits = {p.get("after_day"): p for p in report.get("pursuits") or []}
    for d in report.get("days") or []:
        number = d.get("day", len(days) + 1)
        g = d.get("gauge") or {}
        rolls = ", ".join(
            roll_text(names[x.get("side", 0)], x.get("raw"), x.get("mod", 0), x.get("result"))
            for x in g.get("dice") or []
        )
        winner = g.get("winner")
        gauge = f"Weather gauge: {rolls + ' → ' if rolls else ''}{names[winner] if winner in (0, 1) else '—'}"
        day_dice = [x for x in dice_raw if x.get("day") == number]
        view = _day_view(number, d.get("report") or {}, day_dice, gauge, names)
        p = pursuits.get(number)
        if p:
            bits = [decisions_text(names, p.get("decisions") or [])]
            if p.get("pursuer") in (0, 1):
                seen = SIGHTING_WORDS[p.get("sighted")]
                caught = INTERCEPT_WORDS[p.get("intercepted")]
                bits.append(f"pursuit by {names[p['pursuer']]}: {seen}, {caught}")
            view.after = "; ".join(b for b in [view.after, *bits] if b)
        days.append(view)
    return days


def _fireship_attacks(
    report: Mapping[str, Any], dice_raw: list[dict[str, Any]], notes: list[str]
) -> list[dict[str, Any]]:
    """The attacks of a fireship report; their dice join ``dice_raw`` and the spent and unused
    fireships ``notes``."""
    attacks: list[dict[str, Any]] = []
    for k, a in enumerate(report.get("attacks") or [], 1):
        attacks.append(a)
        for purpose, die in (("fortification", a.get("fort_die")), ("attack", a.get("attack_die"))):
            if die:
                dice_raw.append(
                    {
                        "n": len(dice_raw) + 1,
                        "round": k,
                        "side": 1 if purpose == "fortification" else 0,
                        "die": die.get("die"),
                        "purpose": f"fireship {purpose}",
                        "raw": die.get("raw"),
                        "mod": die.get("mod", 0),
                        "result": die.get("result"),
                        "ship": a.get("fireship"),
                        "target": a.get("target"),
                        "effect": die.get("detail") or a.get("effect"),
                    }
                )
    if report.get("expended"):
        notes.append("Fireships spent: " + ", ".join(report["expended"]) + ".")
    if report.get("unused"):
        notes.append("Fireships unused: " + ", ".join(report["unused"]) + ".")
    return attacks


def battle_view(battle: Battle) -> BattleView:
    """The battle's report as one readable structure (sides, days and rounds, fates, dice), whatever
    its shape. One query for the ships' crews and nations, one for the ships out of the line; nothing
    else beyond ``battle`` itself."""
    report: dict[str, Any] = battle.report if isinstance(battle.report, dict) else {}
    kind = report.get("type", battle.kind)
    days_raw: list[dict[str, Any]] = report.get("days") or []
    first_report: Mapping[str, Any] = days_raw[0].get("report", {}) if days_raw else report
    sides = _side_views(battle, report, first_report.get("sides") or [])
    names = [s.name for s in sides]
    ships = _ship_views(report, sides)
    if kind == "tabletop":
        _tabletop_line(report, sides)
    _ships_out_of_line(battle, sides, ships)
    dice_raw: list[dict[str, Any]] = list(report.get("dice") or [])
    days: list[DayView] = []
    notes: list[str] = []
    if kind == "engagement":
        days = _engagement_days(report, dice_raw, names)
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
        days.append(_day_view(1, report, dice_raw, "", names))
        if report.get("coastal_forts") is not None:
            notes.append(f"Coastal forts: {report['coastal_forts']}.")
        if report.get("barrage"):
            notes.append("Barrage dice due per round: " + ", ".join(str(b) for b in report["barrage"]) + ".")
    attacks = _fireship_attacks(report, dice_raw, notes) if kind == "fireships" else []
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
        dice=[_die_view(d, names) for d in dice_raw],
        notes=notes,
        attacks=attacks,
    )
