"""A stored battle's days, rounds and dice as the report page shows them (:mod:`battles.report_view`):
the lines' pairings, each round's checks, events and fire, the gauge and pursuit between days, a
fireship report's attacks, and each die in a line a player reads."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

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
from battles.report_view.shapes import DayView, DieView, RoundView


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


def day_view(
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


def die_view(d: Mapping[str, Any], names: Sequence[str]) -> DieView:
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


def engagement_days(
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
        view = day_view(number, d.get("report") or {}, day_dice, gauge, names)
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


def fireship_attacks(
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
