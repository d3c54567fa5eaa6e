"""Fast Fleet Action: one Naval Day between two sides (RULES.md §5).

Implements §5 "A round" (initiative with every modifier and re-rolled ties, the at-anchor first
round, both sides' fire through :mod:`battles.engine.combat`, integrity at exact fractions with
hold / retire / break and the retiring side's towing rolls) and §5 "End of the day" (the winner,
its capture of the loser's disabled ships, the no-winner case of the seed's "unless both sides leave
at the end of the first day", and the abandonment of boarded prizes). Multi-day engagements are in
:mod:`battles.engine.engagement`.
"""

from __future__ import annotations

from rules.dice import Dice, SeededDice
from rules.ruleset import DEFAULT_RULESET, Ruleset

from .combat import (
    CAPTURED,
    D6,
    DAMAGED,
    DISABLED,
    NO_SHIP,
    Chart,
    Params,
    params_for,
)
from .fight_state import Combat
from .report import (
    BEATEN,
    BROKE,
    HELD,
    RETIRED,
    BattleReport,
    EventRow,
    IntegrityCheck,
    RoundLines,
)
from .spec import FLEET_ACTION, BattleSpec, SpecError


def fight_day(spec: BattleSpec, dice: Dice, ruleset: Ruleset = DEFAULT_RULESET) -> BattleReport:
    """Fight one Naval Day of Fast Fleet Action (RULES.md §5); side A is ``spec.sides[0]``.

    Every ship listed is in the line (the campaign chooses who forms it, see
    :func:`~battles.engine.spec.line_eligible`). Dice are drawn from ``dice`` in the canonical
    order of §5; a :class:`~rules.dice.DiceError` from scripted dice propagates. Pure: no I/O.
    """
    return fight_day_with(spec, dice, params_for(ruleset), first=0)


def fight_day_with(spec: BattleSpec, dice: Dice, p: Params, *, first: int = 0) -> BattleReport:
    """:func:`fight_day` with precomputed :class:`Params` and a choice of side A (``first``): in a
    campaign the winner of the weather gauge is side A (§4), whatever its place in the spec."""
    if spec.type != FLEET_ACTION:
        raise SpecError("type", f"fight_day fights a {FLEET_ACTION}, not {spec.type!r}")
    if first not in (0, 1):
        raise ValueError(f"first must be 0 or 1, got {first!r}")
    roll = dice.roll
    c = Combat(spec, roll, p)
    max_rounds = spec.max_rounds if spec.max_rounds is not None else p.max_rounds
    a_side = first
    b_side = 1 - first
    log = c.log.extend
    lost = c.lost

    st = c.static
    init_mod = st.init_mod
    admiral_dice = st.admiral_dice
    anchor = st.anchor
    # Round 1 at anchor: that side's ships' and admiral's d10s are at battle.at_anchor_penalty.
    anchor_charts: list[Chart] = c.charts
    anchor_mods: list[int] = c.fire_mod
    if anchor[0] or anchor[1]:
        anchor_mods = [m + p.anchor_penalty if anchor[c.side_of[i]] else m for i, m in enumerate(c.fire_mod)]
        anchor_charts = [p.chart(m) for m in anchor_mods]

    triggered = [False, False]
    prev_lost = [0, 0]
    outcome = [HELD, HELD]
    lines: list[RoundLines] = []
    checks: list[IntegrityCheck] = []
    events: list[EventRow] = []
    rounds = 0

    for rnd in range(1, max_rounds + 1):
        rounds = rnd
        c.rnd = rnd
        c.fired = [False] * c.n
        c.pair(c.available(0), c.available(1))

        # 1. Initiative: A rolls, then B; a tie rolls again, A first. At anchor in round 1: no roll.
        if rnd == 1 and (anchor[0] or anchor[1]):
            initiative = 1 if anchor[0] else 0
        else:
            while True:
                ra = roll(D6)
                rb = roll(D6)
                ta = ra + init_mod[a_side]
                tb = rb + init_mod[b_side]
                wa, wb = ("wins", "loses") if ta > tb else ("loses", "wins") if tb > ta else ("tie", "tie")
                log((rnd, a_side, D6, "initiative", ra, init_mod[a_side], ta, NO_SHIP, NO_SHIP, wa))
                log((rnd, b_side, D6, "initiative", rb, init_mod[b_side], tb, NO_SHIP, NO_SHIP, wb))
                if ta != tb:
                    initiative = a_side if ta > tb else b_side
                    break
        # pair() makes fresh lists every round and nothing changes them afterwards: no copies.
        lines.append(RoundLines(rnd, (c.lines[0], c.lines[1]), (c.reserves[0], c.reserves[1]), initiative))

        # 2–4. The initiative side fires, then the other fires back with what is still in the line.
        for s in (initiative, 1 - initiative):
            if rnd == 1 and anchor[s]:
                c.fire(s, anchor_charts, anchor_mods, admiral_dice[s])
            else:
                c.fire(s, c.charts, c.fire_mod, admiral_dice[s])

        # 5. Integrity.
        ended = _integrity_step(c, p, (a_side, b_side), triggered, prev_lost, outcome, checks, events)
        prev_lost = [lost[0], lost[1]]
        if ended:
            break

    winner = end_of_day(c, outcome, events, rounds)
    return build_report(spec, dice, c, p, outcome, winner, rounds, max_rounds, lines, checks, events, a_side)


def _integrity_step(
    c: Combat,
    p: Params,
    order: tuple[int, int],
    triggered: list[bool],
    prev_lost: list[int],
    outcome: list[str],
    checks: list[IntegrityCheck],
    events: list[EventRow],
) -> bool:
    """§5 step 5 of round ``c.rnd``: side A checks, then B only if A held; a side with no ship
    left is beaten and nobody checks. A side that retires leaves with its damaged ships (towing
    dice); one that breaks loses its damaged ships to the enemy. Returns whether the day ended."""
    rnd = c.rnd
    lost, start, cond = c.lost, c.start, c.cond
    integrity_mod = c.static.integrity_mod
    num, den = p.integrity_num, p.integrity_den
    if lost[0] >= start[0] or lost[1] >= start[1]:
        # A side with no ship left is beaten and does not check; nor does its enemy.
        for s in (0, 1):
            if lost[s] >= start[s]:
                outcome[s] = BEATEN
        return True
    ended = False
    for s in order:
        if not triggered[s]:
            if not c.loss_fraction_ge(s, num, den):
                continue
            triggered[s] = True  # the first round in which L ≥ 1/4
        elif lost[s] <= prev_lost[s]:
            continue  # later rounds: only when L rose
        penalty = integrity_penalty(lost[s], start[s], num, den, p.integrity_step_pct)
        flagship_lost = cond[c.ships[s][0]] >= DISABLED
        mod = integrity_mod[s] - penalty + (p.integrity_flagship_lost if flagship_lost else 0)
        raw = c.roll(D6)
        total = raw + mod
        result = HELD if total >= p.integrity_hold else RETIRED if total >= p.integrity_retire else BROKE
        c.log.extend((rnd, s, D6, "integrity", raw, mod, total, NO_SHIP, NO_SHIP, result))
        checks.append(IntegrityCheck(rnd, s, lost[s], start[s], penalty, raw, mod, total, result))
        if result != HELD:
            outcome[s] = result
            ended = True
            break  # B checks only if A held
    for s in order:
        if outcome[s] == RETIRED:
            c.towing(s)  # it leaves now with its damaged ships, each rolling a d10
        elif outcome[s] == BROKE:
            for i in c.ships[s]:
                if cond[i] == DAMAGED:  # its damaged ships are captured by the enemy
                    c.take_at_end(i, 1 - s)
                    events.append((rnd, "taken", s, i, 1 - s))
    return ended


def integrity_penalty(lost: int, start: int, num: int, den: int, step_pct: int) -> int:
    """§5: floor((L − 1/4) × 10) with L = lost/start, the threshold num/den and one point per
    ``step_pct`` % — exactly: it equals ``math.floor((Fraction(lost, start) - Fraction(num, den))
    * 100 / step_pct)``, done in integers (L = 7/20 gives 1, where floats give 0.999… → 0)."""
    return ((lost * den - num * start) * 100) // (start * den * step_pct)


def end_of_day(c: Combat, outcome: list[str], events: list[EventRow], rnd: int) -> int | None:
    """§5 End of the day, after the check's own consequences: the winner captures the loser's
    disabled ships (no winner: each side keeps its own), then a side that retired, broke or was
    beaten abandons the ships it took by boarding, in the condition taken. Returns the winner."""
    lost, start, cond = c.lost, c.start, c.cond
    winner: int | None = None
    if outcome[0] == HELD and outcome[1] != HELD:
        winner = 0
    elif outcome[1] == HELD and outcome[0] != HELD:
        winner = 1
    elif outcome[0] == HELD and outcome[1] == HELD:
        # Both held: the lower L wins, compared exactly (lost0/start0 vs lost1/start1).
        left, right = lost[0] * start[1], lost[1] * start[0]
        winner = 0 if left < right else 1 if right < left else None
    if winner is not None:
        loser = 1 - winner
        for i in c.ships[loser]:
            if cond[i] == DISABLED:
                c.take_at_end(i, winner)
                events.append((rnd, "captured", loser, i, winner))
    else:
        for s in (0, 1):
            for i in c.ships[s]:
                if cond[i] == DISABLED:
                    events.append((rnd, "kept", s, i, s))
    for s in (0, 1):
        if outcome[s] == HELD:
            continue
        for x in c.prizes[s]:
            if cond[x] == CAPTURED and c.capt_by[x] == s:
                cond[x] = c.taken_cond[x]
                c.capt_by[x] = None
                events.append((rnd, "abandoned", s, x, None))
    return winner


def build_report(
    spec: BattleSpec,
    dice: Dice,
    c: Combat,
    p: Params,
    outcome: list[str],
    winner: int | None,
    rounds: int,
    max_rounds: int,
    lines: list[RoundLines],
    checks: list[IntegrityCheck],
    events: list[EventRow],
    first: int,
    *,
    barrage: list[int] | None = None,
    coastal_forts: int | None = None,
) -> BattleReport:
    return BattleReport(
        type=spec.type,
        seed=dice.seed if isinstance(dice, SeededDice) else None,
        rounds=rounds,
        winner=winner,
        outcome=(outcome[0], outcome[1]),
        states=tuple(c.cond),
        captured_by=tuple(c.capt_by),
        exploded=tuple(c.exploded),
        dice_log=c.log,
        lost=(c.lost[0], c.lost[1]),
        spec=spec,
        first=first,
        max_rounds=max_rounds,
        lines=tuple(lines),
        checks=tuple(checks),
        event_rows=events,
        barrage=None if barrage is None else tuple(barrage),
        coastal_forts=coastal_forts,
    )
