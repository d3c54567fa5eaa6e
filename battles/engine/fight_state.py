"""One battle's state while it is fought, and the mechanics that act on it: pairing and targeting
(RULES.md §5 "Lines"), fire with the d10 chart, boarding and explosions (§5 "A round" steps 2–3),
captures and towing — shared by the Fast Fleet Action (§5), Running the Guns (§6) and the garrison
guns (§4).

The hot path of the simulator (see :mod:`battles.engine.combat`): ships are integer indexes into
plain lists and every die is appended to one flat log.
"""

from __future__ import annotations

from collections.abc import Callable

from .combat import (
    CAPTURED,
    D6,
    D10,
    DAMAGED,
    DISABLED,
    E_DAMAGED,
    E_DISABLED,
    E_NONE,
    E_SUNK,
    NO_SHIP,
    READY,
    SUNK,
    Chart,
    Params,
    static_for,
)
from .spec import BattleSpec


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
