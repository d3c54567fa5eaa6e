"""Monte-Carlo odds of a battle (CONTRACT.md ``--runs N``), by fighting it many times.

Each run is an ordinary battle of RULES.md §5 or §6 (or the §4 garrison guns) with its own
:class:`~rules.dice.SeededDice`: run ``i`` of a batch seeded ``K`` uses ``derive_seed(K, i)``, so
odds are reproducible from ``K`` and any single run can be replayed and read on its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.dice import Dice, SeededDice, derive_seed
from rules.ruleset import DEFAULT_RULESET, Ruleset

from .combat import FATES
from .fleet_action import fight_day
from .report import BattleReport
from .running_guns import garrison_barrage, run_the_guns
from .spec import FLEET_ACTION, RUNNING_THE_GUNS, BattleSpec

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class Odds:
    """``win[s]`` and ``draw`` are fractions of the runs; ``mean_losses[s][fate]`` is the mean
    number of side ``s``'s ships ending in that fate (all five fates, intact included)."""

    runs: int
    seed: int
    win: tuple[float, float]
    draw: float
    mean_losses: tuple[dict[str, float], dict[str, float]]

    def to_json(self) -> dict[str, Any]:
        return {
            "runs": self.runs,
            "win": list(self.win),
            "draw": self.draw,
            "mean_losses": [dict(m) for m in self.mean_losses],
            "seed": self.seed,
        }


def run_seed(seed: int, i: int) -> int:
    """The seed of run ``i`` (from 0) of a batch seeded ``seed``."""
    return derive_seed(seed, i)


def fight(spec: BattleSpec, dice: Dice, ruleset: Ruleset = DEFAULT_RULESET) -> BattleReport:
    """Fight ``spec`` by its type: fleet action, running the guns or garrison guns."""
    if spec.type == FLEET_ACTION:
        return fight_day(spec, dice, ruleset)
    if spec.type == RUNNING_THE_GUNS:
        return run_the_guns(spec, dice, ruleset)
    return garrison_barrage(spec, dice, ruleset)


def simulate_odds(
    spec: BattleSpec,
    runs: int,
    seed: int,
    ruleset: Ruleset = DEFAULT_RULESET,
    progress: Progress | None = None,
) -> Odds:
    """Fight ``spec`` ``runs`` times and count winners and fates. ``progress(done, runs)`` is
    called now and then (about a hundred times in all) for a progress bar."""
    if runs < 1:
        raise ValueError(f"runs must be at least 1, got {runs}")
    wins = [0, 0]
    draws = 0
    n0 = len(spec.sides[0].ships)
    totals = [[0] * len(FATES), [0] * len(FATES)]  # per side, per ship state (FATES order)
    step = max(1, runs // 100)
    for i in range(runs):
        report = fight(spec, SeededDice(run_seed(seed, i)), ruleset)
        if report.winner is None:
            draws += 1
        else:
            wins[report.winner] += 1
        for k, state in enumerate(report.states):
            totals[0 if k < n0 else 1][state] += 1
        if progress is not None and ((i + 1) % step == 0 or i + 1 == runs):
            progress(i + 1, runs)
    mean = tuple({fate: totals[s][f] / runs for f, fate in enumerate(FATES)} for s in (0, 1))
    return Odds(
        runs=runs,
        seed=seed,
        win=(wins[0] / runs, wins[1] / runs),
        draw=draws / runs,
        mean_losses=(mean[0], mean[1]),
    )


def render_odds(odds: Odds, spec: BattleSpec) -> str:
    """A readable summary of :class:`Odds`."""
    names = [side.name for side in spec.sides]
    out = [f"{odds.runs} runs (seed {odds.seed})"]
    for s in (0, 1):
        out.append(f"  {names[s]} wins: {odds.win[s]:.1%}")
    out.append(f"  no winner: {odds.draw:.1%}")
    out.append("Mean ships per fate:")
    for s in (0, 1):
        fates = ", ".join(f"{fate} {odds.mean_losses[s][fate]:.2f}" for fate in FATES)
        out.append(f"  {names[s]} ({len(spec.sides[s].ships)}): {fates}")
    return "\n".join(out) + "\n"
