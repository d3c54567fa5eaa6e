"""Running the Guns, coastal forts and the garrison guns (RULES.md §6 and §4 "Garrison guns").

§6: side 0 attacks the port, side 1 is the defender's ships in it (possibly none). Each round the
defender, who always has the initiative, fires the barrage — fortification dice (at +1, with hot
shot), then battery dice, then ship dice, die k at C[(k−1) mod |C|] skipping forward past ships out
of the line — and the attackers still in the line, paired with the ships in port as in §5, fire
back, then the attacker's admiral. The attacker stays for another round by the rule (a defender's
ship still afloat and fighting, its L < 1/4, rounds left), else breaks off: its disabled ships and
those taken by the port stay behind, its damaged ships roll the towing d10.

§4 "Garrison guns": one barrage of fortification and battery dice (no ship dice) at the hostile
ships inside a port, with §6's targeting, hot shot and "8 = taken by the port"; no return fire.
"""

from __future__ import annotations

from rules.dice import Dice
from rules.ruleset import DEFAULT_RULESET, Ruleset

from .combat import (
    D6,
    D10,
    DAMAGED,
    DISABLED,
    E_DAMAGED,
    NO_SHIP,
    READY,
    Params,
    params_for,
)
from .fight_state import Combat
from .fleet_action import build_report
from .report import BEATEN, HELD, RETIRED, BattleReport, EventRow, RoundLines
from .spec import GARRISON_GUNS, RUNNING_THE_GUNS, BattleSpec, PortSpec, SpecError

ATTACKER = 0
DEFENDER = 1


def coastal_forts(port: PortSpec, ruleset: Ruleset = DEFAULT_RULESET) -> int:
    """§6/§7 [S]: coastal forts = the Fortification factor; Gibraltar has 2 × FF (6)."""
    multiplier = ruleset["guns.coastal_forts_gibraltar_multiplier"] if port.gibraltar else 1
    return port.fortification * multiplier


def barrage_dice(
    port: PortSpec, defender_ships_afloat: int, ruleset: Ruleset = DEFAULT_RULESET, *, ship_dice: bool = True
) -> tuple[int, int, int]:
    """§6 [S]: (fortification, battery, ship) dice = (5 × FF, or 10 × FF at Gibraltar;
    1 per artillery battery; floor(defender's ships in port not sunk or captured / 4)).

    Alexandria (FF 3, no batteries, 5 ships): (15, 0, 1) = 16 dice. Gibraltar alone: 30.
    The garrison guns (§4) have no ship dice (``ship_dice=False``).
    """
    per_ff = ruleset["guns.barrage_per_ff_gibraltar"] if port.gibraltar else ruleset["guns.barrage_per_ff"]
    ships = defender_ships_afloat // ruleset["guns.ships_per_barrage_die"] if ship_dice else 0
    return per_ff * port.fortification, port.batteries, ships


def _barrage(
    c: Combat,
    p: Params,
    spec: BattleSpec,
    port: PortSpec,
    *,
    ship_dice: bool,
) -> int:
    """Fire one barrage at side 0; return the number of dice due (all of them are logged only
    while a target is left). Leaves ``c.inline`` marking side 0's ships still in the line."""
    ruleset = p.ruleset
    cond = c.cond
    afloat = sum(1 for j in c.ships[DEFENDER] if cond[j] <= DISABLED)  # not sunk or captured
    fort, battery, ship = barrage_dice(port, afloat, ruleset, ship_dice=ship_dice)
    due = fort + battery + ship

    # C: the attackers not sunk, disabled or captured when the barrage begins, reserves included.
    targets = c.available(ATTACKER)
    inline = [False] * c.n
    for i in targets:
        inline[i] = True
    c.inline = inline
    c.lines = [targets, []]
    c.reserves = [[], []]
    c.pnf = [0, 0]
    c.pin = [0, 0]

    defender = spec.sides[DEFENDER]
    battery_mod = ruleset.combat_nat(defender.navy)
    kinds = (
        ("barrage_fort", ruleset["guns.fort_modifier"], fort),
        ("barrage_battery", battery_mod, battery),
        ("barrage_ship", battery_mod + ruleset.grade_mod(defender.crew), ship),
    )
    hot_shot_on = ruleset["guns.hot_shot_on"]
    roll = c.roll
    log = c.log.extend
    fired = c.fired
    m = len(targets)
    k = 0
    for purpose, mod, count in kinds:
        chart = p.chart(mod)
        for _ in range(count):
            # Die k goes at C[(k−1) mod |C|], or the next ship after it in C still in the line.
            start = k % m if m else 0
            t = NO_SHIP
            for step in range(m):
                candidate = targets[(start + step) % m]
                if inline[candidate]:
                    t = candidate
                    break
            if t < 0:
                return due  # no attacker left in the line: the rest are not rolled
            k += 1
            raw = roll(D10)
            result, eff = chart[raw]
            fired[t] = True
            if purpose == "barrage_fort" and eff == E_DAMAGED and cond[t] == READY:
                # Hot shot: a fort's 4–7 on a ship not already damaged is followed by a d6.
                log((c.rnd, DEFENDER, D10, purpose, raw, mod, result, NO_SHIP, t, "hot shot"))
                shot = roll(D6)
                if shot >= hot_shot_on:
                    c.knock_out(t, DISABLED)
                    effect = "disabled"
                else:
                    cond[t] = DAMAGED
                    inline[t] = False
                    effect = "damaged"
                log((c.rnd, DEFENDER, D6, "hot_shot", shot, 0, shot, NO_SHIP, t, effect))
            else:
                c.apply(DEFENDER, NO_SHIP, t, purpose, raw, mod, result, eff)
    return due


def run_the_guns(spec: BattleSpec, dice: Dice, ruleset: Ruleset = DEFAULT_RULESET) -> BattleReport:
    """Running the Guns (RULES.md §6): side 0 attacks ``spec.port``, side 1 is the ships in it.

    In-supply, weather-gauge and at-anchor flags, the defender's admiral and ship classes play no
    part. ``max_rounds`` (spec, else ``battle.max_rounds``) bounds the rounds. Pure: no I/O.
    """
    if spec.type != RUNNING_THE_GUNS or spec.port is None:
        raise SpecError("type", f"run_the_guns needs a {RUNNING_THE_GUNS} spec with a port")
    p = params_for(ruleset)
    port = spec.port
    c = Combat(spec, dice.roll, p)
    max_rounds = spec.max_rounds if spec.max_rounds is not None else p.max_rounds
    rnd, lines, events, barrage = _gun_rounds(c, p, spec, port, ruleset, max_rounds)
    # Measured before the break-off, which hands the attacker's disabled ships to the defender.
    attacker_beaten = c.lost[ATTACKER] >= c.start[ATTACKER]
    _break_off(c, rnd, events)
    winner, outcome = _guns_winner_and_outcome(c, attacker_beaten)
    return build_report(
        spec,
        dice,
        c,
        p,
        outcome,
        winner,
        rnd,
        max_rounds,
        lines,
        [],
        events,
        DEFENDER,
        barrage=barrage,
        coastal_forts=coastal_forts(port, ruleset),
    )


def _gun_rounds(
    c: Combat, p: Params, spec: BattleSpec, port: PortSpec, ruleset: Ruleset, max_rounds: int
) -> tuple[int, list[RoundLines], list[EventRow], list[int]]:
    """The rounds under the guns, until the attacker breaks off: each the defender's barrage, then
    the attackers' return fire. Returns the last round's number, the lines, events and barrage dice."""
    admiral_dice = ruleset.admiral_extra_dice(spec.sides[ATTACKER].admiral_grade)
    stay_num, stay_den = ruleset["guns.stay_loss_num"], ruleset["guns.stay_loss_den"]
    lines: list[RoundLines] = []
    events: list[EventRow] = []
    barrage: list[int] = []
    rnd = 0
    while True:
        rnd += 1
        c.rnd = rnd
        c.fired = [False] * c.n
        barrage.append(_barrage(c, p, spec, port, ship_dice=True))
        # The attackers still in the line are paired with the ships in port that are in the line.
        attackers = [i for i in c.lines[ATTACKER] if c.inline[i]]
        c.pair(attackers, c.available(DEFENDER))
        lines.append(
            RoundLines(
                rnd,
                (tuple(c.lines[0]), tuple(c.lines[1])),
                (tuple(c.reserves[0]), tuple(c.reserves[1])),
                DEFENDER,
                barrage[-1],
            )
        )
        c.fire(ATTACKER, c.charts, c.fire_mod, admiral_dice)
        defender_fights = c.lost[DEFENDER] < c.start[DEFENDER]
        if defender_fights and not c.loss_fraction_ge(ATTACKER, stay_num, stay_den) and rnd < max_rounds:
            events.append((rnd, "stays", ATTACKER, NO_SHIP, None))
            continue
        return rnd, lines, events, barrage


def _break_off(c: Combat, rnd: int, events: list[EventRow]) -> None:
    """Break off: disabled ships stay behind with the defender, prizes are towed off, damaged ships roll."""
    events.append((rnd, "broke_off", ATTACKER, NO_SHIP, None))
    for i in c.ships[ATTACKER]:
        if c.cond[i] == DISABLED:
            c.take_at_end(i, DEFENDER)
            events.append((rnd, "captured", ATTACKER, i, DEFENDER))
    c.towing(ATTACKER)


def _guns_winner_and_outcome(c: Combat, attacker_beaten: bool) -> tuple[int | None, list[str]]:
    """Nobody wins at an empty port; the attacker wins if it keeps a ship and none of the defender's
    is left; otherwise the defender."""
    port_empty = c.start[DEFENDER] == 0
    defender_left = any(c.cond[j] < DISABLED for j in c.ships[DEFENDER])
    attacker_keeps = any(c.cond[i] <= DAMAGED for i in c.ships[ATTACKER])
    winner: int | None
    if port_empty:
        winner = None
    elif not defender_left and attacker_keeps:
        winner = ATTACKER
    else:
        winner = DEFENDER
    outcome = [
        HELD if winner == ATTACKER else BEATEN if attacker_beaten else RETIRED,
        BEATEN if not port_empty and not defender_left else HELD,
    ]
    return winner, outcome


def garrison_barrage(spec: BattleSpec, dice: Dice, ruleset: Ruleset = DEFAULT_RULESET) -> BattleReport:
    """The garrison guns (RULES.md §4): a port whose guns are held by a nation at war with ships
    inside fires one barrage at them — fortification dice at +1 with hot shot plus battery dice, no
    ship dice, one round, §6 targeting; an 8 means taken by the port.

    ``spec.sides[0]`` is the hostile ships inside, ``spec.sides[1]`` the nation holding the guns
    (its navy gives the battery dice their combat nationality; its ships play no part). Nobody
    leaves: disabled ships stay disabled in port. The winner is side 1 only if no ship of side 0 is
    left able to fight; otherwise there is none.
    """
    if spec.type != GARRISON_GUNS or spec.port is None:
        raise SpecError("type", f"garrison_barrage needs a {GARRISON_GUNS} spec with a port")
    p = params_for(ruleset)
    c = Combat(spec, dice.roll, p)
    c.rnd = 1
    due = _barrage(c, p, spec, spec.port, ship_dice=False)
    lines = [RoundLines(1, ((), ()), ((), ()), DEFENDER, due)]  # a barrage pairs nobody
    cleared = c.lost[ATTACKER] >= c.start[ATTACKER]
    return build_report(
        spec,
        dice,
        c,
        p,
        [BEATEN if cleared else HELD, HELD],
        DEFENDER if cleared else None,
        1,
        1,
        lines,
        [],
        [],
        DEFENDER,
        barrage=[due],
        coastal_forts=coastal_forts(spec.port, ruleset),
    )
