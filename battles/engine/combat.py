"""Shared combat mechanics: the dice and ship states, the d10 chart and the per-battle tables.

Implements RULES.md §0 (the modified d10 with its natural 1 and natural 10; d6 totals never
clamped) and §5 "Lines" and "A round" steps 2–3, which the Fast Fleet Action (§5), Running the Guns
(§6) and the garrison guns (§4) all use.

This is the hot path of the simulator, so it is written for speed rather than elegance: ships are
integer indexes into plain lists (side 0's ships first, then side 1's), every modifier and every
chart lookup is precomputed into a table indexed by the raw face, and a logged die is ROW plain values
appended to one flat list, cut into :data:`DieRow` tuples when a report is read and turned into dicts
only when a JSON report is built. The battle's state while it is fought, with pairing, targeting,
boarding and explosions, is :class:`~battles.engine.fight_state.Combat`.
"""

from __future__ import annotations

from collections.abc import Sequence
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
