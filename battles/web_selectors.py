"""Read side of the battle report pages: which battles a player may see, and each report made readable.

Fog of war (RULES.md §3), fixed at the time of the battle: a player sees a battle if their nation
fought in it (``Battle.sides[*].nations``) or was allied to a side when it was fought
(``Battle.seen_by``, written at resolution), or if their turn report for that turn notes it (an
event carrying ``"battle": <id>``); a GM (staff, or the campaign's ``gm``) sees every battle. An
alliance made later opens nothing. Any other battle is answered exactly like one that does not
exist (404).

The battles app does not import the campaign app (import contracts): the campaign is named by its
slug and its nations, relations and reports are reached through the Battle's own relations.

The stored report is the engine's JSON (``battles.engine``; CONTRACT.md "Battle report"), in one of
four shapes: a fleet action fought as an engagement of one or more days (``"type": "engagement"``:
each day's report, the gauge and pursuit dice), running the guns and garrison guns (one report with
its barrage), and fireships (``"attacks"``). :func:`battle_view` turns any of them into one
template-friendly structure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.paginator import Page, Paginator
from django.http import Http404

from battles.models import Battle
from fleets.models import Fleet, Ship

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
        fought = {code for side in _sides(sides) for code in side.get("nations", [])}
        return self.code in fought or (isinstance(seen_by, list) and self.code in seen_by)


def _sides(raw: Any) -> list[dict[str, Any]]:
    if not isinstance(raw, list):
        return []
    return [s if isinstance(s, dict) else {} for s in raw]


def _viewer(*, user: User, campaign: Any) -> Viewer:
    """The viewer of a campaign (a ``campaign.models.Campaign``, reached through a Battle)."""
    if not user.is_authenticated:
        return Viewer(False, None, None)
    if getattr(user, "is_staff", False) or campaign.gm_id == user.pk:
        return Viewer(True, None, None)
    nation = campaign.nations.filter(player=user).first()
    if nation is None:
        return Viewer(False, None, None)
    return Viewer(False, nation, nation.code)


def _noted(viewer: Viewer, turn_ids: Iterable[int] | None = None) -> set[int]:
    """Battle ids the viewer's turn reports note (events carrying a ``battle`` key)."""
    if viewer.nation is None:
        return set()
    reports = viewer.nation.reports.all()
    if turn_ids is not None:
        reports = reports.filter(turn_id__in=list(turn_ids))
    ids: set[int] = set()
    for body in reports.values_list("body", flat=True):
        events = body.get("events", []) if isinstance(body, dict) else []
        for event in events:
            battle = event.get("battle") if isinstance(event, dict) else None
            if isinstance(battle, int):
                ids.add(battle)
    return ids


def battle_for_player(*, user: User, campaign: str, battle_id: int) -> Battle:
    """The battle ``battle_id`` of the campaign with slug ``campaign`` if ``user`` may see it, else 404."""
    battle = (
        Battle.objects.select_related("campaign", "turn", "sea_zone", "port")
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


@dataclass(frozen=True)
class BattleList:
    campaign: Any
    page: Page[Any]  # of Battle
    is_gm: bool


def battles_for_player(*, user: User, campaign: str, page: int | str | None = 1, per_page: int = 25) -> BattleList:
    """The battles of the campaign the user may see, newest turn first, a page at a time (404 for a
    campaign the user takes no part in). Sides are filtered in Python: JSON containment is not
    portable to SQLite (``make run``)."""
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
    battles = Battle.objects.filter(pk__in=list(chosen.object_list)).select_related("turn", "sea_zone", "port")
    by_id = {b.pk: b for b in battles}
    chosen.object_list = [by_id[pk] for pk in chosen.object_list if pk in by_id]
    return BattleList(the_campaign, chosen, viewer.is_gm)


# --- the report, made readable ------------------------------------------------------------------------------


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


_KIND_TITLES = {
    "fleet_action": "Fleet action",
    "running_the_guns": "Running the guns",
    "garrison_guns": "Garrison guns",
    "fireships": "Fireship attack",
}
_CHECK_WORDS = {"held": "holds", "retired": "retires", "broke": "breaks"}


def _signed(n: Any) -> str:
    if not isinstance(n, int):
        return str(n)
    return f"+{n}" if n >= 0 else f"−{-n}"


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


def _event_text(e: Mapping[str, Any], names: Sequence[str]) -> str:
    side = names[e.get("side", 0)] if e.get("side") in (0, 1) else "?"
    by = names[e["by"]] if e.get("by") in (0, 1) else "?"
    ship = e.get("ship") or ""
    kind = e.get("kind")
    return {
        "taken": f"{ship} ({side}), damaged, is taken by {by} as {side} breaks",
        "captured": f"{ship} ({side}), disabled, is captured by {by}",
        "kept": f"{ship} ({side}), disabled: no winner, {side} keeps it",
        "abandoned": f"{ship}: prize abandoned by {side}, returned to its owner",
        "broke_off": f"{side} breaks off",
        "stays": f"{side} stays for another round",
    }.get(str(kind), f"{kind}: {ship}")


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
        out.append(f"{names[s]}: {len(rows)} dice — {done}")
    return out


def _day_view(
    day: int, report: Mapping[str, Any], dice: Sequence[Mapping[str, Any]], gauge: str, names: Sequence[str]
) -> DayView:
    """One day (or the only round series) of a report; ``names``: the sides' display names."""
    checks: dict[int, list[str]] = {}
    for c in report.get("checks") or []:
        word = _CHECK_WORDS.get(c.get("result"), c.get("result"))
        checks.setdefault(c.get("round", 0), []).append(
            f"Integrity {names[c.get('side', 0)]}: L = {c.get('L')} (−{c.get('penalty')}): "
            f"d6 {c.get('raw')}{_signed(c.get('mod'))}={c.get('total')} → {word}"
        )
    events: dict[int, list[str]] = {}
    for e in report.get("events") or []:
        events.setdefault(e.get("round", 0), []).append(_event_text(e, names))
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
    outcome = report.get("outcome") or ["", ""]
    winner = report.get("winner")
    after = "; ".join(events.get(last, []))
    result = "no winner" if winner not in (0, 1) else f"{names[winner]} wins"
    text = f"{result}; " + ", ".join(f"{names[k]} {outcome[k]}" for k in (0, 1) if k < len(outcome))
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
        mod=_signed(d.get("mod", 0)),
        result=d.get("result"),
        ship=d.get("ship") or "",
        target=d.get("target") or "",
        effect=str(d.get("effect") or d.get("detail") or ""),
    )


def battle_view(battle: Battle) -> BattleView:
    """The battle's report as one readable structure (sides, days and rounds, fates, dice), whatever
    its shape. One query for the ships' crews and nations; nothing else beyond ``battle`` itself."""
    report: dict[str, Any] = battle.report if isinstance(battle.report, dict) else {}
    stored_sides = _sides(battle.sides)
    kind = report.get("type", battle.kind)
    days_raw: list[dict[str, Any]] = report.get("days") or []
    first_report: Mapping[str, Any] = days_raw[0].get("report", {}) if days_raw else report
    engine_sides = first_report.get("sides") or []
    # Nation names for sides named by their codes ("GB", "FR/ES"), and the fleets' names.
    nation_names = dict(battle.campaign.nations.values_list("code", "name"))
    fleet_ids = [int(f) for s in stored_sides for f in s.get("fleets") or [] if isinstance(f, int)]
    fleet_names = dict(Fleet.objects.filter(pk__in=fleet_ids).values_list("pk", "name")) if fleet_ids else {}
    sides: list[SideView] = []
    for k in (0, 1):
        stored = stored_sides[k] if k < len(stored_sides) else {}
        engine = engine_sides[k] if k < len(engine_sides) else {}
        admiral = stored.get("admiral") or engine.get("admiral")
        outcome = (report.get("outcome") or ["", ""])[k] if len(report.get("outcome") or []) > k else ""
        name = str(stored.get("name") or engine.get("name") or f"Side {k}")
        codes = [c.strip() for c in re.split(r"[/,&]", name)]
        if codes and all(c in nation_names for c in codes):
            name = " & ".join(nation_names[c] for c in codes)
        sides.append(
            SideView(
                index=k,
                name=name,
                fleets=", ".join(fleet_names[f] for f in stored.get("fleets") or [] if f in fleet_names),
                nations=list(stored.get("nations") or []),
                navy=str(engine.get("navy", "")),
                admiral=f"{admiral.get('name') or 'unnamed'} ({admiral.get('grade')})" if admiral else "",
                ships=int(engine.get("ships", 0) or 0),
                lost=int(engine.get("lost", 0) or 0),
                outcome=outcome,
                winner=battle.winner == k,
            )
        )
    names = [s.name for s in sides]

    # Ships: crews and nations from the campaign's ships (the engine keeps their ids as "ref").
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
                cls=str(row.get("class", ship.ship_class if ship else "")),
                crew=crew,
                nation=ship.original_nation.code if ship is not None else "",
                fate=str(row.get("fate", "")),
                exploded=bool(row.get("exploded")),
                captured_by=names[by] if by in (0, 1) else "",
            )
        )
    for k, side_view in enumerate(sides):
        side_view.ship_list = ships[k]
        side_view.crew = ", ".join(sorted(crews[k]))
        if not side_view.ships:
            side_view.ships = len(ships[k])

    dice_raw: list[dict[str, Any]] = list(report.get("dice") or [])
    days: list[DayView] = []
    notes: list[str] = []
    if kind == "engagement":
        pursuits = {p.get("after_day"): p for p in report.get("pursuits") or []}
        for d in days_raw:
            number = d.get("day", len(days) + 1)
            g = d.get("gauge") or {}
            rolls = ", ".join(
                f"{names[x.get('side', 0)]} {x.get('raw')}{_signed(x.get('mod', 0))}={x.get('result')}"
                for x in g.get("dice") or []
            )
            winner = g.get("winner")
            gauge = f"Weather gauge: {rolls + ' → ' if rolls else ''}{names[winner] if winner in (0, 1) else '—'}"
            day_dice = [x for x in dice_raw if x.get("day") == number]
            view = _day_view(number, d.get("report") or {}, day_dice, gauge, names)
            p = pursuits.get(number)
            if p:
                decisions = p.get("decisions") or []
                bits = [", ".join(f"{names[k]} {dec}s" for k, dec in enumerate(decisions[:2]))]
                if p.get("pursuer") in (0, 1):
                    seen = {True: "sighted", False: "not sighted", None: "—"}[p.get("sighted")]
                    caught = {True: "intercepted", False: "escaped", None: "—"}[p.get("intercepted")]
                    bits.append(f"pursuit by {names[p['pursuer']]}: {seen}, {caught}")
                view.after = "; ".join(b for b in [view.after, *bits] if b)
            days.append(view)
        if report.get("engagement"):
            notes.append(f"Engagement: {str(report['engagement']).replace('_', ' ')}.")
    elif kind in ("fleet_action", "running_the_guns", "garrison_guns"):
        days.append(_day_view(1, report, dice_raw, "", names))
        if report.get("coastal_forts") is not None:
            notes.append(f"Coastal forts: {report['coastal_forts']}.")
        if report.get("barrage"):
            notes.append("Barrage dice due per round: " + ", ".join(str(b) for b in report["barrage"]) + ".")
    attacks: list[dict[str, Any]] = []
    if kind == "fireships":
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
    title = f"{_KIND_TITLES.get(battle.kind, battle.kind)} at {where}"
    return BattleView(
        battle=battle,
        title=title,
        where=where,
        result=result,
        sides=sides,
        days=days,
        ships=ships,
        dice=[_die_view(d, names) for d in dice_raw],
        notes=notes,
        attacks=attacks,
    )
