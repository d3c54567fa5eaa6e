"""Shared combat mechanics: the d10 chart, boarding, explosions, pairing and targeting.

Implements RULES.md §0 (the modified d10 with its natural 1 and natural 10; d6 totals never
clamped) and §5 "Lines" and "A round" steps 2–3, which the Fast Fleet Action (§5), Running the Guns
(§6) and the garrison guns (§4) all use.

This is the hot path of the simulator, so it is written for speed rather than elegance: ships are
integer indexes into plain lists (side 0's ships first, then side 1's), every modifier and every
chart lookup is precomputed into a table indexed by the raw face, and a logged die is ROW plain values
appended to one flat list, cut into :data:`DieRow` tuples when a report is read and turned into dicts
only when a JSON report is built.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, cast

from rules.ruleset import Ruleset

from .spec import BattleSpec

D6: Final = 6
D10: Final = 10

# Ship states. A ship at DISABLED or above is out for the day ("out"); the order matters.
READY: Final = 0
DAMAGED: Final = 1
DISABLED: Final = 2
SUNK: Final = 3
CAPTURED: Final = 4
FATES: Final = ("intact", "damaged", "disabled", "sunk", "captured")

# Chart effects of a d10 result (§5 step 3).
E_NONE: Final = 0
E_DAMAGED: Final = 1
E_BOARD: Final = 2
E_DISABLED: Final = 3
E_SUNK: Final = 4

NO_SHIP: Final = -1

#: One logged die: (round, side, die sides, purpose, raw, mod, result, ship, target, effect).
#: ``ship``/``target`` are ship indexes or NO_SHIP; ``effect`` is a short word for the text report.
DieRow = tuple[int, int, int, str, int, int, int, int, int, str]
#: While a battle is fought its dice go into one flat list, ROW values per die (extending a list
#: with a short-lived tuple is much cheaper than keeping a tuple per die); see :func:`dice_rows`.
ROW: Final = 10


def dice_rows(flat: Sequence[int | str]) -> tuple[DieRow, ...]:
    """The flat dice log cut into one :data:`DieRow` per die."""
    it = iter(flat)
    return tuple(cast("DieRow", row) for row in zip(*([it] * ROW), strict=True))


#: Raw face → (applied result, chart effect); index 0 is unused.
Chart = tuple[tuple[int, int], ...]


class Params:
    """Every number the combat rules need, read once from a :class:`Ruleset`, plus memo tables.

    Build it with :func:`params_for`; it is immutable in meaning (the memo dicts only cache).
    """

    __slots__ = (
        "_charts",
        "_ships",
        "anchor_penalty",
        "board_nat",
        "chart_boarding",
        "chart_damaged",
        "chart_disabled",
        "chart_sunk",
        "division_size",
        "explosion_dice",
        "explosion_on",
        "gauge_initiative",
        "integrity_den",
        "integrity_flagship_lost",
        "integrity_hold",
        "integrity_num",
        "integrity_out_of_supply",
        "integrity_retire",
        "integrity_step_pct",
        "max_attackers",
        "max_days",
        "max_rounds",
        "out_of_supply_initiative",
        "ruleset",
        "towing_sunk_on",
        "unmodified",
    )

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.chart_damaged = ruleset["battle.chart_damaged"]
        self.chart_boarding = ruleset["battle.chart_boarding"]
        self.chart_disabled = ruleset["battle.chart_disabled"]
        self.chart_sunk = ruleset["battle.chart_sunk"]
        self.explosion_on = ruleset["battle.explosion_on"]
        self.explosion_dice = ruleset["battle.explosion_dice"]
        self.max_attackers = ruleset["battle.max_attackers_per_ship"]
        self.anchor_penalty = ruleset["battle.at_anchor_penalty"]
        self.towing_sunk_on = ruleset["battle.towing_sunk_on"]
        self.max_rounds = ruleset["battle.max_rounds"]
        self.max_days = ruleset["battle.max_days"]
        self.division_size = ruleset["battle.division_size"]
        self.out_of_supply_initiative = ruleset["battle.out_of_supply_initiative"]
        self.gauge_initiative = ruleset["gauge.initiative_bonus"]
        self.integrity_num = ruleset["battle.integrity_threshold_num"]
        self.integrity_den = ruleset["battle.integrity_threshold_den"]
        self.integrity_step_pct = ruleset["battle.integrity_step_pct"]
        self.integrity_hold = ruleset["battle.integrity_hold"]
        self.integrity_retire = ruleset["battle.integrity_retire"]
        self.integrity_flagship_lost = ruleset["battle.integrity_flagship_lost"]
        self.integrity_out_of_supply = ruleset["battle.integrity_out_of_supply"]
        self.board_nat = ruleset.boarding_nat
        self._charts: dict[int, Chart] = {}
        self._ships: dict[tuple[str, str], tuple[int, int, Chart]] = {}
        self.unmodified = self.chart(0)

    def effect(self, result: int) -> int:
        """§5 step 3: 1–3 none, 4–7 damaged, 8 boarding, 9 disabled, 10 sunk (as set in the ruleset)."""
        if result >= self.chart_sunk:
            return E_SUNK
        if result >= self.chart_disabled:
            return E_DISABLED
        if result >= self.chart_boarding:
            return E_BOARD
        if result >= self.chart_damaged:
            return E_DAMAGED
        return E_NONE

    def chart(self, mod: int) -> Chart:
        """§0: ``clamp(raw + mod, 1, 10)``, but a natural 1 is always 1 (no damage) and a natural 10
        always 10 (sunk), whatever the chart settings say about modified results."""
        table = self._charts.get(mod)
        if table is None:
            rows = [(0, E_NONE)]
            for raw in range(1, D10 + 1):
                if raw == 1:
                    rows.append((1, E_NONE))
                elif raw == D10:
                    rows.append((D10, E_SUNK))
                else:
                    result = min(D10, max(1, raw + mod))
                    rows.append((result, self.effect(result)))
            table = self._charts[mod] = tuple(rows)
        return table

    def ship_mods(self, crew: str, navy: str) -> tuple[int, int, Chart]:
        """(d10 fire modifier, d6 boarding modifier, fire chart) of a ship: its own crew morale
        plus its own navy's combat / boarding nationality (§0, CONTRACT: "a ship's fire and
        boarding use its own navy's modifiers")."""
        key = (crew, navy)
        mods = self._ships.get(key)
        if mods is None:
            morale = self.ruleset.grade_mod(crew)
            fire = morale + self.ruleset.combat_nat(navy)
            mods = self._ships[key] = (fire, morale + self.ruleset.boarding_nat(navy), self.chart(fire))
        return mods


_PARAMS: dict[int, Params] = {}


def params_for(ruleset: Ruleset) -> Params:
    """The :class:`Params` of a ruleset, memoised by identity (a ruleset is immutable)."""
    params = _PARAMS.get(id(ruleset))
    if params is None or params.ruleset is not ruleset:
        if len(_PARAMS) >= 32:  # campaigns build few rulesets; keep the memo bounded anyway
            _PARAMS.clear()
        params = _PARAMS[id(ruleset)] = Params(ruleset)
    return params


class Static:
    """What a battle needs of its spec that no die can change, computed once per (spec, ruleset):
    names, sides, line order, starting conditions, every ship's modifiers and chart, and each
    side's initiative / integrity modifiers and admiral dice (§0, §5). Monte Carlo fights one spec
    thousands of times and pays for this once."""

    __slots__ = (
        "admiral_dice",
        "anchor",
        "board_mod",
        "charts",
        "cond",
        "fire_mod",
        "init_mod",
        "integrity_mod",
        "n",
        "names",
        "params",
        "ships",
        "side_of",
        "spec",
    )

    def __init__(self, spec: BattleSpec, params: Params) -> None:
        ruleset = params.ruleset
        flat = [ship for side in spec.sides for ship in side.ships]
        n0 = len(spec.sides[0].ships)
        self.spec = spec
        self.params = params
        self.n = len(flat)
        self.names = [ship.name for ship in flat]
        self.side_of = [0] * n0 + [1] * (self.n - n0)
        self.ships = (list(range(n0)), list(range(n0, self.n)))
        start = {"ready": READY, "damaged": DAMAGED, "disabled": DISABLED}  # disabled: RtG port ships only
        self.cond = tuple([start[ship.condition] for ship in flat])
        # Ships share a handful of (crew, navy) pairs: one memo lookup each gives all three.
        memo, ship_mods = params._ships, params.ship_mods
        mods = [memo.get((ship.crew, ship.navy)) or ship_mods(ship.crew, ship.navy) for ship in flat]
        self.fire_mod = [m[0] for m in mods]
        self.board_mod = [m[1] for m in mods]
        self.charts = [m[2] for m in mods]
        sides = spec.sides
        self.init_mod = [
            ruleset.grade_mod(side.admiral_grade)
            + ruleset.initiative_nat(side.navy)
            + (0 if side.in_supply else params.out_of_supply_initiative)
            + (params.gauge_initiative if side.weather_gauge else 0)
            for side in sides
        ]
        self.integrity_mod = [
            ruleset.grade_mod(side.admiral_grade)
            + ruleset.combat_nat(side.navy)
            + (0 if side.in_supply else params.integrity_out_of_supply)
            for side in sides
        ]
        self.admiral_dice = [ruleset.admiral_extra_dice(side.admiral_grade) for side in sides]
        self.anchor = [side.at_anchor for side in sides]


_STATIC: dict[int, Static] = {}


def static_for(spec: BattleSpec, params: Params) -> Static:
    """The :class:`Static` of a spec, memoised by identity (specs are frozen) and bounded."""
    st = _STATIC.get(id(spec))
    if st is None or st.spec is not spec or st.params is not params:
        if len(_STATIC) >= 64:
            _STATIC.clear()
        st = _STATIC[id(spec)] = Static(spec, params)
    return st


class Combat:
    """The state of one battle's ships and the dice rolled so far; the rules act on it.

    Ship ``i`` belongs to side ``side_of[i]``; ``ships[s]`` lists side ``s``'s indexes in line order
    (its first is the flagship). Per round, :meth:`pair` sets who is ``inline`` and each paired
    ship's ``ptarget``; ``fired`` marks ships any d10 was rolled at this round.
    """

    __slots__ = (
        "board_mod",
        "capt_by",
        "charts",
        "cond",
        "exploded",
        "fire_mod",
        "fired",
        "inline",
        "lines",
        "log",
        "lost",
        "n",
        "names",
        "p",
        "pin",
        "pnf",
        "prizes",
        "ptarget",
        "reserves",
        "rnd",
        "roll",
        "ships",
        "side_of",
        "start",
        "start_cond",
        "static",
        "taken_cond",
    )

    def __init__(self, spec: BattleSpec, roll: Callable[[int], int], params: Params) -> None:
        st = static_for(spec, params)
        n = st.n
        self.p = params
        self.roll = roll
        self.static = st
        # Shared, read-only per-spec data (see Static): never mutated here.
        self.n = n
        self.names = st.names
        self.side_of = st.side_of
        self.ships = st.ships
        self.fire_mod = st.fire_mod
        self.board_mod = st.board_mod
        self.charts = st.charts
        self.start_cond = st.cond
        self.start = [len(st.ships[0]), len(st.ships[1])]
        # This battle's state.
        self.cond = list(st.cond)
        self.inline = [False] * n
        self.fired = [False] * n
        self.ptarget = [NO_SHIP] * n
        self.capt_by: list[int | None] = [None] * n
        self.taken_cond: dict[int, int] = {}  # condition of each ship when it was captured
        self.exploded = [False] * n
        self.lost = [0, 0]
        self.prizes: list[list[int]] = [[], []]
        self.lines: list[list[int]] = [[], []]
        self.reserves: list[list[int]] = [[], []]
        self.pnf = [0, 0]
        self.pin = [0, 0]
        self.rnd = 0
        self.log: list[int | str] = []  # flat: ROW values per die

    # -- lines -----------------------------------------------------------------------------------
    def available(self, s: int) -> list[int]:
        """Side ``s``'s ships not sunk, disabled or captured (damaged ones included), in line order."""
        cond = self.cond
        return [i for i in self.ships[s] if cond[i] < DISABLED]

    def pair(self, a: list[int], b: list[int]) -> None:
        """§5 Lines: ship k of one list faces ship k of the other; the longer list's extras become
        second (third…, up to ``battle.max_attackers_per_ship``) attackers on enemy ships 1, 2, 3…;
        any still left are reserves. Starts a new round's targeting state."""
        small, big = (a, b) if len(a) <= len(b) else (b, a)
        n = len(small)
        inline = [False] * self.n
        ptarget = self.ptarget
        extras = min(len(big) - n, (self.p.max_attackers - 1) * n)
        for k in range(n):
            x = small[k]
            y = big[k]
            ptarget[x] = y
            ptarget[y] = x
            inline[x] = True
            inline[y] = True
        for e in range(extras):
            y = big[n + e]
            ptarget[y] = small[e % n]
            inline[y] = True
        paired_big = big[: n + extras]
        if small is a:
            self.lines = [small, paired_big]
            self.reserves = [[], big[n + extras :]]
        else:
            self.lines = [paired_big, small]
            self.reserves = [big[n + extras :], []]
        self.inline = inline
        self.pnf = [0, 0]
        self.pin = [0, 0]

    def pick(self, s: int) -> int:
        """§5: the first ship of side ``s`` in the line (line order) not yet fired on this round,
        else the first in the line, else NO_SHIP. Both are monotone within a round (ships only
        leave the line and only become fired on), so each search resumes where the last stopped."""
        line = self.lines[s]
        inline = self.inline
        fired = self.fired
        n = len(line)
        k = self.pnf[s]
        while k < n:
            i = line[k]
            if inline[i] and not fired[i]:
                self.pnf[s] = k
                return i
            k += 1
        self.pnf[s] = n
        k = self.pin[s]
        while k < n:
            i = line[k]
            if inline[i]:
                self.pin[s] = k
                return i
            k += 1
        self.pin[s] = n
        return NO_SHIP

    # -- firing ----------------------------------------------------------------------------------
    def fire(self, s: int, charts: list[Chart], mods: list[int], admiral_dice: int) -> None:
        """§5 step 2 for side ``s``: each ship in the line, in line order, one modified d10 at its
        paired target (else :meth:`pick`); then the admiral's dice, fired by the flagship with its
        modifiers, while the flagship is not sunk, captured or disabled. Each die is resolved with
        everything it causes before the next target is chosen."""
        e = 1 - s
        inline = self.inline
        fired = self.fired
        cond = self.cond
        ptarget = self.ptarget
        roll = self.roll
        log = self.log.extend
        rnd = self.rnd
        lost = self.lost
        # Module constants as locals: this loop runs once per ship die.
        d10, none, damaged, disabled, ready = D10, E_NONE, E_DAMAGED, E_DISABLED, READY
        for i in self.lines[s]:
            if not inline[i]:
                continue
            t = ptarget[i]
            if not inline[t]:
                t = self.pick(e)
                if t < 0:
                    return  # no enemy left in the line this round: nothing more to fire at
            raw = roll(d10)
            result, eff = charts[i][raw]
            fired[t] = True
            if eff == none:
                log((rnd, s, d10, "fire", raw, mods[i], result, i, t, "none"))
            elif eff == damaged and cond[t] == ready:
                cond[t] = DAMAGED
                inline[t] = False
                log((rnd, s, d10, "fire", raw, mods[i], result, i, t, "damaged"))
            elif eff == disabled and cond[t] < DISABLED:
                cond[t] = DISABLED
                inline[t] = False
                lost[e] += 1
                log((rnd, s, d10, "fire", raw, mods[i], result, i, t, "disabled"))
            else:
                self.apply(s, i, t, "fire", raw, mods[i], result, eff)
        ships = self.ships[s]
        if admiral_dice <= 0 or not ships:
            return
        flag = ships[0]
        chart = charts[flag]
        mod = mods[flag]
        for _ in range(admiral_dice):
            if cond[flag] >= DISABLED:
                return  # the flagship was taken in its own failed boarding: no more admiral dice
            t = self.pick(e)
            if t < 0:
                return
            raw = roll(d10)
            result, eff = chart[raw]
            fired[t] = True
            self.apply(s, flag, t, "admiral", raw, mod, result, eff)

    def apply(self, s: int, f: int, t: int, purpose: str, raw: int, mod: int, result: int, eff: int) -> None:
        """Log a d10 of side ``s`` rolled at ship ``t`` and apply its result at once (§5 step 3).

        ``f`` is the firing ship, or NO_SHIP for a port's guns (§6), whose 8 puts the ship aground,
        taken by the port without a boarding roll.
        """
        cond = self.cond
        log = self.log.extend
        rnd = self.rnd
        if eff == E_NONE:
            log((rnd, s, D10, purpose, raw, mod, result, f, t, "none"))
        elif eff == E_DAMAGED:
            if cond[t] == READY:
                cond[t] = DAMAGED
                self.inline[t] = False
                log((rnd, s, D10, purpose, raw, mod, result, f, t, "damaged"))
            else:  # "a ship already damaged becomes disabled instead"
                self.knock_out(t, DISABLED)
                log((rnd, s, D10, purpose, raw, mod, result, f, t, "disabled"))
        elif eff == E_DISABLED:
            self.knock_out(t, DISABLED)
            log((rnd, s, D10, purpose, raw, mod, result, f, t, "disabled"))
        elif eff == E_SUNK:
            self.knock_out(t, SUNK)
            log((rnd, s, D10, purpose, raw, mod, result, f, t, "sunk"))
            self.explosion(s, f, t)
        elif f < 0:
            log((rnd, s, D10, purpose, raw, mod, result, f, t, "aground"))
            self.capture(t, s, boarded=False)
        elif cond[f] >= DISABLED:
            # "an 8 when that ship is no longer in the battle has no effect"
            log((rnd, s, D10, purpose, raw, mod, result, f, t, "no effect"))
        else:
            log((rnd, s, D10, purpose, raw, mod, result, f, t, "boarding"))
            self.board(f, t)

    def explosion(self, s: int, f: int, t: int) -> None:
        """§5: after a sinking, a d6; on 6 the ship explodes and side ``s`` at once rolls two
        unmodified d10s, one at a time, each at :meth:`pick`'s target (none if there is none).
        Their results apply the same way, so explosions chain; ``f`` stays the firing ship."""
        p = self.p
        raw = self.roll(D6)
        exploded = raw >= p.explosion_on
        self.log.extend((self.rnd, s, D6, "explosion", raw, 0, raw, f, t, "exploded" if exploded else "no explosion"))
        if not exploded:
            return
        self.exploded[t] = True
        e = 1 - s
        chart = p.unmodified
        for _ in range(p.explosion_dice):
            target = self.pick(e)
            if target < 0:
                return
            raw = self.roll(D10)
            result, eff = chart[raw]
            self.fired[target] = True
            self.apply(s, f, target, "explosion_fire", raw, 0, result, eff)

    def board(self, f: int, t: int) -> None:
        """§5 boarding: the firing ship then the target roll d6 + own crew morale + own boarding
        nationality; a tie rolls again; the higher captures the other (the firer can lose)."""
        roll = self.roll
        log = self.log.extend
        sf = self.side_of[f]
        st = self.side_of[t]
        mf = self.board_mod[f]
        mt = self.board_mod[t]
        while True:
            a = roll(D6)
            b = roll(D6)
            ta = a + mf
            tb = b + mt
            if ta > tb:
                log((self.rnd, sf, D6, "boarding", a, mf, ta, f, t, "wins"))
                log((self.rnd, st, D6, "boarding", b, mt, tb, t, f, "loses"))
                self.capture(t, sf, boarded=True)
                return
            if tb > ta:
                log((self.rnd, sf, D6, "boarding", a, mf, ta, f, t, "loses"))
                log((self.rnd, st, D6, "boarding", b, mt, tb, t, f, "wins"))
                self.capture(f, st, boarded=True)
                return
            log((self.rnd, sf, D6, "boarding", a, mf, ta, f, t, "tie"))
            log((self.rnd, st, D6, "boarding", b, mt, tb, t, f, "tie"))

    # -- state changes ---------------------------------------------------------------------------
    def knock_out(self, t: int, state: int) -> None:
        """Ship ``t`` is disabled or sunk: out of the line and counted in its side's L."""
        if self.cond[t] < DISABLED:
            self.lost[self.side_of[t]] += 1
        self.cond[t] = state
        self.inline[t] = False

    def capture(self, x: int, by: int, *, boarded: bool) -> None:
        """Ship ``x`` is taken by side ``by``; a ship taken by boarding is a prize that a side which
        retires, breaks or is beaten abandons (§5 end of the day), so its condition is kept."""
        if self.cond[x] < DISABLED:
            self.lost[self.side_of[x]] += 1
        self.taken_cond[x] = self.cond[x]
        self.cond[x] = CAPTURED
        self.capt_by[x] = by
        self.inline[x] = False
        if boarded:
            self.prizes[by].append(x)

    def take_at_end(self, x: int, by: int) -> None:
        """An end-of-day capture (disabled ships, a breaking side's damaged ships): after L is
        settled, so L is not touched."""
        self.taken_cond[x] = self.cond[x]
        self.cond[x] = CAPTURED
        self.capt_by[x] = by

    def towing(self, s: int) -> None:
        """§5/§6: a side leaving with damaged ships rolls an unmodified d10 for each, in line order;
        ``battle.towing_sunk_on`` or more (10) sinks it."""
        cond = self.cond
        sunk_on = self.p.towing_sunk_on
        chart = self.p.unmodified
        for i in self.ships[s]:
            if cond[i] != DAMAGED:
                continue
            raw = self.roll(D10)
            result = chart[raw][0]
            sunk = result >= sunk_on
            if sunk:
                cond[i] = SUNK
            self.log.extend((self.rnd, s, D10, "towing", raw, 0, result, i, NO_SHIP, "sunk" if sunk else "towed off"))

    def loss_fraction_ge(self, s: int, num: int, den: int) -> bool:
        """L ≥ num/den for side ``s``, exactly (integer cross-multiplication)."""
        return self.lost[s] * den >= num * self.start[s]
