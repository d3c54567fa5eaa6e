"""The readable, round-by-round battle report (the default output of ``simulate_battle``).

Renders what RULES.md §5 and §6 make happen, from a report alone: the sides, each round's pairing in
divisions of about ``battle.division_size`` ships (§5: "a grouping of consecutive pairs in the text
report only"), every die with what it did, integrity checks with their exact L, the end-of-day
captures and abandoned prizes, and each ship's fate. Every line can be traced to the dice log.

The wording of a battle is written once, here: the battle report page (``battles.report_view``)
builds its words from the same public functions (:func:`signed`, :func:`roll_text`,
:func:`integrity_text`, :func:`event_text`, :func:`decisions_text`, :func:`result_text`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.ruleset import DEFAULT_RULESET, Ruleset

from .combat import D6, NO_SHIP, DieRow
from .engagement import EngagementReport
from .report import BattleReport, RoundLines
from .spec import FLEET_ACTION, GARRISON_GUNS, RUNNING_THE_GUNS, SideSpec

_TITLES = {
    FLEET_ACTION: "Fast Fleet Action",
    RUNNING_THE_GUNS: "Running the Guns",
    GARRISON_GUNS: "Garrison guns",
}
_CONSEQUENCES = frozenset({"boarding", "explosion", "explosion_fire", "hot_shot"})
#: An integrity check's result as the report says it (§5 step 5).
CHECK_WORDS = {"held": "holds", "retired": "retires", "broke": "breaks"}
#: A pursuer's sighting and intercept (§5 "Pursuit") as the report says them; None: not rolled.
SIGHTING_WORDS = {True: "sighted", False: "not sighted", None: "—"}
INTERCEPT_WORDS = {True: "intercepted", False: "escaped", None: "—"}


def signed(n: object) -> str:
    """A modifier with its sign ("+1", "−2"); anything but a whole number as it is."""
    if not isinstance(n, int):
        return str(n)
    return f"+{n}" if n >= 0 else f"−{-n}"


def roll_text(name: str, raw: object, mod: object, result: object) -> str:
    """One side's roll of an opposed die (gauge, intercept): "A 6+0=6"."""
    return f"{name} {raw}{signed(mod)}={result}"


def integrity_text(side: str, loss: str, penalty: object, raw: object, mod: object, total: object, result: str) -> str:
    """§5 step 5: "Integrity B: L = 1/4 (−0 for L): d6 2+0=2 → retires"."""
    word = CHECK_WORDS.get(result, result)
    return f"Integrity {side}: L = {loss} (−{penalty} for L): d6 {raw}{signed(mod)}={total} → {word}"


def integrity_in_words(
    side: str, loss: str, penalty: object, raw: object, mod: object, total: object, result: str
) -> str:
    """The integrity check told to a player: "France had lost 6 of its 13 ships of the day and rolled to
    hold together (rules §5): it rolled 1, −2 in all (−2 for its losses), making −1: it breaks"."""
    word = CHECK_WORDS.get(result, result)
    lost, _, of = str(loss).partition("/")
    losses = f"had lost {lost} of its {of} ships of the day" if of else f"had lost {loss} of its ships"
    return (
        f"{side} {losses} and rolled to hold together (rules §5): it rolled {raw}, {signed(mod)} in all "
        f"(−{penalty} for its losses), making {total}: it {word}"
    )


def event_text(kind: str, ship: str, owner: str, by: str) -> str:
    """An end-of-round event of a battle (§5 "End of the day", §6): ``owner`` is the name of the
    side it concerns, ``by`` the other side's; "" for a kind the report does not know."""
    if kind == "taken":
        return f"{ship} ({owner}), damaged, is taken by {by} as {owner} breaks"
    if kind == "captured":
        return f"{ship} ({owner}), disabled, is captured by {by}"
    if kind == "kept":
        return f"{ship} ({owner}), disabled: no winner, {owner} keeps it"
    if kind == "abandoned":
        return f"{ship}: prize abandoned by {owner}, returned to its owner"
    if kind == "broke_off":
        return f"{owner} breaks off"
    if kind == "stays":
        return f"{owner} stays for another round"
    return ""


def decisions_text(side_names: Sequence[str], decisions: Sequence[str]) -> str:
    """§5: what each side decided after a day: "A continues, B evades"."""
    return ", ".join(f"{side_names[s]} {decision}s" for s, decision in enumerate(decisions[:2]))


def result_text(side_names: Sequence[str], winner: int | None, outcome: Sequence[str]) -> str:
    """A day's or an engagement's result: "A wins; A held, B retired"."""
    head = "no winner" if winner not in (0, 1) else f"{side_names[winner]} wins"
    return f"{head}; " + ", ".join(f"{side_names[s]} {outcome[s]}" for s in (0, 1) if s < len(outcome))


def _side_line(letter: str, side: SideSpec, extra: Iterable[str] = ()) -> str:
    bits = [f"{side.name} ({side.navy})"]
    if side.admiral is not None:
        bits.append(f"admiral {side.admiral.name or 'unnamed'} ({side.admiral.grade})")
    else:
        bits.append("no admiral")
    bits.append(f"crew {side.crew}")
    if not side.in_supply:
        bits.append("out of supply")
    bits.extend(extra)
    return f"  {letter}  " + "; ".join(bits) + f" — {len(side.ships)} ship{'s' if len(side.ships) != 1 else ''}"


def _die_text(row: DieRow, names: list[str]) -> str:
    _rnd, _side, sides, purpose, raw, mod, result, ship, target, effect = row
    die = "d6" if sides == D6 else "d10"
    roll = f"{die} {raw}" if mod == 0 else f"{die} {raw}{signed(mod)}={result}"
    who = names[ship] if ship != NO_SHIP else "the port's guns" if purpose.startswith("barrage") else ""
    tgt = names[target] if target != NO_SHIP else ""
    label = purpose.replace("_", " ")
    if purpose == "boarding":
        return f"boarding: {who} {roll} {effect}"
    if purpose in ("explosion", "hot_shot"):
        return f"{label} ({tgt}): {roll} → {effect}"
    if purpose == "towing":
        return f"towing {who}: {roll} → {effect}"
    arrow = f"{who} → {tgt}" if who else f"→ {tgt}"
    return f"{label}: {arrow}: {roll} → {effect}"


def _divisions(lines: RoundLines, size: int) -> list[list[tuple[int, list[int]]]]:
    out: list[list[tuple[int, list[int]]]] = [[]]
    count = 0
    for slot in lines.slots():
        if out[-1] and count + len(slot[1]) > size:
            out.append([])
            count = 0
        out[-1].append(slot)
        count += len(slot[1])
    return out


def _render_lines(report: BattleReport, lines: RoundLines, names: list[str], size: int) -> list[str]:
    a, b = lines.lines
    side_names = [s.name for s in report.sides]
    out = [f"  Lines: {len(a)} v {len(b)} in the line"]
    small_side = 0 if len(a) <= len(b) else 1
    for k, division in enumerate(_divisions(lines, size), start=1):
        if not division:
            continue
        out.append(f"    Division {k}")
        for small, enemies in division:
            left = names[small]
            right = ", ".join(names[e] for e in enemies)
            pair = f"{left}  v  {right}" if small_side == 0 else f"{right}  v  {left}"
            out.append(f"      {pair}")
    for s in (0, 1):
        if lines.reserves[s]:
            out.append(f"    Reserves ({side_names[s]}): " + ", ".join(names[i] for i in lines.reserves[s]))
    return out


def render_report(report: BattleReport, ruleset: Ruleset = DEFAULT_RULESET) -> str:
    """A battle report as text, round by round."""
    names = [s.name for s in report.ships]
    side_names = [s.name for s in report.sides]
    size = ruleset["battle.division_size"]
    out = _head_lines(report)
    rows_by_round: dict[int, list[tuple[int, DieRow]]] = {}
    for n, row in enumerate(report.dice_rows, start=1):
        rows_by_round.setdefault(row[0], []).append((n, row))
    events_by_round: dict[int, list[str]] = {}
    for e in report.events:
        if e.kind == "stays":
            events_by_round.setdefault(e.round, []).append("  " + event_text(e.kind, "", side_names[e.side], ""))
    for lines in report.lines:
        out.append("")
        out.append(f"Round {lines.round}")
        out.extend(_round_lines(report, lines, rows_by_round.get(lines.round, []), names, size))
        out.extend(events_by_round.get(lines.round, []))
    out.extend(_end_lines(report, names, side_names))
    return "\n".join(out) + "\n"


def _head_lines(report: BattleReport) -> list[str]:
    """The title, and the sides (a fleet action) or the port and its two sides (a port action)."""
    spec = report.spec
    head = _TITLES.get(report.type, report.type)
    seed = f"seed {report.seed}" if report.seed is not None else "dice given"
    out = [f"{head} ({seed}), at most {report.max_rounds} round{'s' if report.max_rounds != 1 else ''}"]
    if report.type == FLEET_ACTION:
        for k, fleet in enumerate(spec.sides):
            flags = [f for f, on in (("weather gauge", fleet.weather_gauge), ("at anchor", fleet.at_anchor)) if on]
            letter = "A" if k == report.first else "B"
            out.append(_side_line(letter, fleet, flags))
    else:
        port = spec.port
        assert port is not None
        extra = f", {port.batteries} batteries" if port.batteries else ""
        gib = " (Gibraltar)" if port.gibraltar else ""
        out.append(
            f"  Port: {port.name}{gib}, fortification {port.fortification}{extra}; coastal forts {report.coastal_forts}"
        )
        role = ("attacker", "ships in port") if report.type == RUNNING_THE_GUNS else ("ships in port", "holds the guns")
        for k, port_side in enumerate(spec.sides):
            out.append(_side_line(role[k], port_side))
    return out


def _round_lines(
    report: BattleReport, lines: RoundLines, rows: list[tuple[int, DieRow]], names: list[str], size: int
) -> list[str]:
    """One round: the pairing and initiative (or the barrage due), then every die in order under
    the side that rolled it, integrity checks in their place."""
    side_names = [s.name for s in report.sides]
    checks = {(c.round, c.side): c for c in report.checks}
    rnd = lines.round
    out: list[str] = []
    lines_shown = lines.barrage is None
    if lines.barrage is None:
        # Fast Fleet Action: the pairing, then the initiative, open the round.
        out.extend(_render_lines(report, lines, names, size))
        out.append(_initiative_text(report, rnd, lines, side_names))
    else:
        out.append(f"  Barrage: {lines.barrage} dice due")
    header: str | None = None
    for n, row in rows:
        purpose, side = row[3], row[1]
        if purpose == "initiative":
            continue
        if purpose == "integrity":
            c = checks[(rnd, side)]
            loss = f"{c.lost}/{c.start}"
            out.append("  " + integrity_text(side_names[side], loss, c.penalty, c.raw, c.mod, c.total, c.result))
            continue
        if purpose == "towing":
            if header != "towing":
                header = "towing"
                out.append(f"  {side_names[side]} leaves with its damaged ships:")
            out.append(f"  {n:>5}    {_die_text(row, names)}")
            continue
        if purpose.startswith("barrage") and header != "barrage":
            header = "barrage"
            out.append(f"  {side_names[side]} fires the barrage:")
        elif purpose in ("fire", "admiral") and header != f"fire{side}":
            if not lines_shown:
                lines_shown = True
                out.extend(_render_lines(report, lines, names, size))
            header = f"fire{side}"
            out.append(f"  {side_names[side]} fires:")
        indent = "      " if purpose in _CONSEQUENCES else "    "
        out.append(f"  {n:>5}{indent}{_die_text(row, names)}")
    if not lines_shown and (lines.lines[0] or lines.lines[1]):
        out.extend(_render_lines(report, lines, names, size))
    return out


def _end_lines(report: BattleReport, names: list[str], side_names: list[str]) -> list[str]:
    """The end of the day (captures, prizes abandoned), the result and each ship's fate."""
    out = ["", "End of the day" if report.type == FLEET_ACTION else "Afterwards"]
    shown = False
    for e in report.events:
        if e.kind == "stays":
            continue  # told in its round
        by = side_names[e.by or 0]
        text = event_text(e.kind, names[e.ship] if e.ship != NO_SHIP else "", side_names[e.side], by)
        if text:
            out.append(f"  {text}")
            shown = True
    if not shown:
        out.append("  nothing further")
    out.append("")
    dice_count = len(report.dice_rows)
    result = result_text(side_names, report.winner, report.outcome)
    out.append(f"Result: {result}. {report.rounds} round(s), {dice_count} dice.")
    if report.barrage is not None:
        out.append("Barrage dice due per round: " + ", ".join(str(b) for b in report.barrage))
    out.append("Fates:")
    for s in (0, 1):
        ships = [sh for sh in report.ships if sh.side == s]
        out.append(f"  {side_names[s]} ({len(ships)}):")
        for sh in ships:
            extra = " (exploded)" if sh.exploded else ""
            if sh.captured_by is not None:
                extra += f" by {side_names[sh.captured_by]}"
            out.append(f"    {sh.name:<24} {sh.fate}{extra}")
    return out


def _initiative_text(report: BattleReport, rnd: int, lines: RoundLines, side_names: list[str]) -> str:
    rolls = [row for row in report.dice_rows if row[0] == rnd and row[3] == "initiative"]
    if lines.initiative is None:
        return "  Initiative: —"
    if not rolls:
        return f"  Initiative: {side_names[lines.initiative]} (the other side is at anchor: no roll)"
    pairs = [roll_text(side_names[r[1]], r[4], r[5], r[6]) if r[5] else f"{side_names[r[1]]} {r[4]}" for r in rolls]
    groups = [", ".join(pairs[k : k + 2]) for k in range(0, len(pairs), 2)]
    return f"  Initiative: {'; tie, again: '.join(groups)} → {side_names[lines.initiative]}"


def render_engagement(report: EngagementReport, ruleset: Ruleset = DEFAULT_RULESET) -> str:
    """A multi-day engagement: each day's gauge and report, the decisions and pursuits between."""
    names = [s.name for s in report.spec.sides]
    out = [f"Engagement of {len(report.days)} day(s)" + (f" (seed {report.seed})" if report.seed is not None else "")]
    pursuits = {p.after_day: p for p in report.pursuits}
    for day in report.days:
        out.append("")
        g = day.gauge
        rolls = ", ".join(roll_text(names[d.side], d.raw, d.mod, d.result) for d in g.dice)
        out.append(f"=== Day {day.day} — weather gauge: {rolls} → {names[g.winner]} ===")
        out.append(render_report(day.report, ruleset).rstrip("\n"))
        p = pursuits.get(day.day)
        if p is not None:
            out.append("")
            out.append("Decisions: " + decisions_text(names, p.decisions))
            if p.sighting is not None and p.pursuer is not None:
                d = p.sighting.dice[0]
                seen = SIGHTING_WORDS[p.sighting.sighted]
                out.append(f"  Pursuit by {names[p.pursuer]}: sighting d6 {d.raw}{signed(d.mod)}={d.result} → {seen}")
            if p.intercept is not None:
                rolls = ", ".join(roll_text(names[d.side], d.raw, d.mod, d.result) for d in p.intercept.dice)
                out.append(f"  Intercept: {rolls} → {INTERCEPT_WORDS[p.intercept.intercepted]}")
    out.append("")
    out.append(f"Engagement result: {result_text(names, report.winner, report.outcome)}")
    for s in (0, 1):
        out.append(f"  {names[s]}: " + ", ".join(f"{k} {v}" for k, v in report.fates(s).items()))
    return "\n".join(out) + "\n"
