"""Seeded statistical checks against the exact probabilities of RULES.md §0, §4 and §5.

Every count is compared with its exact expectation within 4 standard errors; the seeds are fixed,
so each test is deterministic, but a wrong table, modifier or die size moves a frequency by far
more than that margin.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable
from fractions import Fraction

from battles.engine import (
    AdmiralSpec,
    BattleSpec,
    ScriptedDice,
    SeededDice,
    ShipSpec,
    SideSpec,
    derive_seed,
    fight_day,
    sighting_roll,
    simulate_odds,
)


def within(count: int, n: int, p: Fraction | float, sigmas: float = 4.0) -> bool:
    p = float(p)
    return abs(count / n - p) <= sigmas * math.sqrt(p * (1 - p) / n) + 1e-12


def band(result: int) -> str:
    if result >= 10:
        return "sunk"
    return {9: "disabled", 8: "boarding"}.get(result, "damaged" if result >= 4 else "none")


def fleet(navy_a: str, crew_a: str, navy_b: str, crew_b: str, n: int = 12, **b_flags: bool) -> BattleSpec:
    a = SideSpec(
        "A", navy_a, tuple(ShipSpec(f"A{k}", "3rd-74", navy_a, crew_a) for k in range(n)), AdmiralSpec("D"), crew_a
    )
    b = SideSpec(
        "B", navy_b, tuple(ShipSpec(f"B{k}", "3rd-74", navy_b, crew_b) for k in range(n)), None, crew_b, **b_flags
    )
    return BattleSpec("fleet_action", (a, b))


def dice_of(spec: BattleSpec, battles: int, salt: str) -> Iterable[dict[str, object]]:
    for i in range(battles):
        yield from fight_day(spec, SeededDice(derive_seed(salt, i))).dice()


def exact_bands(mod: int) -> dict[str, Fraction]:
    """§0: the chart band of clamp(raw + mod, 1, 10), natural 1 none and natural 10 sunk."""
    out: Counter[str] = Counter()
    for raw in range(1, 11):
        result = 1 if raw == 1 else 10 if raw == 10 else max(1, min(10, raw + mod))
        out[band(result)] += 1
    return {k: Fraction(out[k], 10) for k in ("none", "damaged", "boarding", "disabled", "sunk")}


def test_fire_dice_fall_in_each_chart_band_with_the_exact_probability_for_their_modifier():
    """§0/§5: British crew D fire at +1 (none 2/10, damaged 4/10, boarding, disabled 1/10 each,
    sunk 2/10); Prussian crew H at −3 (none 6/10, damaged 3/10, sunk 1/10 — the natural 10)."""
    spec = fleet("GB", "D", "PR", "H")
    by_mod: dict[int, Counter[str]] = {1: Counter(), -3: Counter()}
    for d in dice_of(spec, 2500, "bands"):
        if d["purpose"] in ("fire", "admiral"):
            assert d["mod"] in by_mod
            by_mod[int(str(d["mod"]))][band(int(str(d["result"])))] += 1
    for mod, counts in by_mod.items():
        n = sum(counts.values())
        assert n > 3000
        for name, p in exact_bands(mod).items():
            assert within(counts[name], n, p), (mod, name, counts[name] / n, float(p))


def test_raw_faces_are_uniform_for_both_die_sizes():
    """Every die drawn is a fair d6 or d10, whatever it is for."""
    faces: dict[str, Counter[int]] = {"d6": Counter(), "d10": Counter()}
    for d in dice_of(fleet("FR", "D", "NL", "D"), 400, "faces"):
        faces[str(d["die"])][int(str(d["raw"]))] += 1
    for die, sides in (("d6", 6), ("d10", 10)):
        n = sum(faces[die].values())
        assert set(faces[die]) == set(range(1, sides + 1))
        for face in range(1, sides + 1):
            assert within(faces[die][face], n, Fraction(1, sides))


def test_initiative_goes_to_the_higher_total_with_ties_rolled_again():
    """§5 step 1: British admiral D, +1 nationality v French 0: A wins with probability
    P(a + 1 > b | no tie) = 21/31."""
    wins = rounds = 0
    for i in range(3000):
        report = fight_day(fleet("GB", "D", "FR", "D", n=4), SeededDice(derive_seed("init", i)))
        for lines in report.lines:
            rounds += 1
            wins += lines.initiative == 0
    assert within(wins, rounds, Fraction(21, 31))


def test_boarding_is_won_by_the_firer_with_the_exact_probability():
    """§5 step 3: opposed d6 + own morale + own boarding nationality, ties rolled again. An
    Ottoman crew D boards at +1 against French crew D: the firer wins 21/31 of them; the French
    firer wins 10/31 against the Ottoman target."""
    won = {0: [0, 0], 1: [0, 0]}  # per firing side: [boardings won, boardings]
    spec = fleet("OT", "D", "FR", "D")
    for i in range(1500):
        rows = fight_day(spec, SeededDice(derive_seed("boarding", i))).dice()
        # A boarding is a pair of dice, the firer's then the target's; ties repeat the pair.
        for first, second in itertools.pairwise(rows):
            if first["purpose"] != "boarding" or second["purpose"] != "boarding" or first["effect"] == "tie":
                continue
            if (first["ship"], first["target"]) != (second["target"], second["ship"]):
                continue
            side = int(str(first["side"]))
            won[side][0] += first["effect"] == "wins"
            won[side][1] += 1
    assert won[0][1] > 500 and won[1][1] > 500
    assert within(won[0][0], won[0][1], Fraction(21, 31))
    assert within(won[1][0], won[1][1], Fraction(10, 31))


def test_a_sunk_ship_explodes_one_time_in_six():
    """§5 step 3: "then a d6: on 6 it explodes"."""
    rolls = [d["effect"] for d in dice_of(fleet("FR", "D", "NL", "D"), 1500, "boom") if d["purpose"] == "explosion"]
    assert len(rolls) > 1500
    assert within(rolls.count("exploded"), len(rolls), Fraction(1, 6))


def test_integrity_checks_hold_retire_and_break_with_the_exact_probabilities():
    """§5 step 5: with a total modifier m, holds if raw + m ≥ 4, retires on 2–3, breaks on ≤ 1."""
    by_mod: dict[int, Counter[str]] = {}
    for i in range(4000):
        report = fight_day(fleet("FR", "D", "NL", "D", n=8), SeededDice(derive_seed("integrity", i)))
        for c in report.checks:
            by_mod.setdefault(c.mod, Counter())[c.result] += 1
    checked = 0
    for mod, counts in by_mod.items():
        n = sum(counts.values())
        if n < 400:
            continue
        checked += 1
        exact = {
            "held": Fraction(sum(1 for r in range(1, 7) if r + mod >= 4), 6),
            "retired": Fraction(sum(1 for r in range(1, 7) if 2 <= r + mod <= 3), 6),
            "broke": Fraction(sum(1 for r in range(1, 7) if r + mod <= 1), 6),
        }
        for result, p in exact.items():
            assert within(counts[result], n, p), (mod, result)
    assert checked >= 2


def test_sighting_probabilities_follow_the_natural_six_and_one():
    """§4: open sea 5+ at −1 sights only on a natural 6 (1/6); narrows 3+ at +3 fails only on a
    natural 1 (5/6); coastal 4+ at 0 sights half the time."""
    cases = [
        ({"zone_type": "open", "light_ships": 0, "target_ships_at_sea": 5}, Fraction(1, 6)),
        ({"zone_type": "narrows", "light_ships": 3, "target_ships_at_sea": 30, "admiral_grade": "A"}, Fraction(5, 6)),
        ({"zone_type": "coastal", "light_ships": 1, "target_ships_at_sea": 5}, Fraction(1, 2)),
    ]
    for k, (kw, p) in enumerate(cases):
        dice = SeededDice(derive_seed("sighting", k))
        hits = sum(sighting_roll(dice, **kw).sighted for _ in range(6000))  # type: ignore[arg-type]
        assert within(hits, 6000, p), kw


def test_monte_carlo_odds_match_the_exact_odds_of_a_one_ship_duel():
    """A 1 v 1 day of one round, all modifiers 0. The first to fire wins on 9–10 (0.2) and half
    its boardings (0.05), and after a 1–3 (0.3) loses on the reply's 9–10 or half its 8 (0.25) or
    wins half of that 8 (0.05); a 4–7 or two misses leave equal L: no winner. Either side fires
    first half the time: P(A wins) = P(B wins) = ½(0.265 + 0.125) = 0.195; draw 0.61."""
    a = SideSpec("A", "FR", (ShipSpec("A1", "3rd-74", "FR", "D"),))
    b = SideSpec("B", "NL", (ShipSpec("B1", "3rd-74", "NL", "D"),))
    runs = 20000
    odds = simulate_odds(BattleSpec("fleet_action", (a, b), 1), runs, seed=2026)
    assert within(round(odds.win[0] * runs), runs, 0.195)
    assert within(round(odds.win[1] * runs), runs, 0.195)
    assert within(round(odds.draw * runs), runs, 0.61)


def test_odds_are_reproducible_from_their_seed():
    spec = fleet("GB", "C", "FR", "D", n=6)
    assert simulate_odds(spec, 300, seed=9) == simulate_odds(spec, 300, seed=9)
    assert simulate_odds(spec, 300, seed=9) != simulate_odds(spec, 300, seed=10)


def test_a_scripted_replay_of_seeded_dice_uses_the_same_faces():
    """The statistical tests rely on SeededDice; its faces replay exactly through ScriptedDice."""
    spec = fleet("GB", "B", "ES", "E", n=10)
    report = fight_day(spec, SeededDice(77))
    assert fight_day(spec, ScriptedDice(report.raw_dice)).dice() == report.dice()
