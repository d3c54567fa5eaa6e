"""Battle engine speed: Naval Days per second and the cost per die against drawing dice alone.

``python -m bench battles`` prints, for 30-v-30 and 100-v-100 fleet actions fought with full dice
logs (and for the seed's Alexandria raid): the median time per Naval Day, battles per second, dice per
battle, and the ratio of the engine's time to drawing the same dice (same sizes, same order) straight
from :class:`random.Random` — both measured in this one run, on one core. Goal (issue 3): at least
2,000 30-v-30 battles a second and a ratio of at most 10. Specs are fought both as one object
again and again (Monte Carlo's case) and as a fresh object per battle (a campaign's case).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from battles.engine import (
    AdmiralSpec,
    BattleReport,
    BattleSpec,
    PortSpec,
    SeededDice,
    ShipSpec,
    SideSpec,
    fight_day,
    run_the_guns,
    simulate_odds,
)
from battles.engine.combat import ROW

GRADES = "ABCDEFGH"


def fleet_spec(n: int, tag: str = "") -> BattleSpec:
    """n British v n French ships of the line, 1805 grades: mixed B–D British crews, C–F French."""
    british = tuple(ShipSpec(f"HMS {k}{tag}", "3rd-74", "GB", GRADES[1 + k % 3]) for k in range(n))
    french = tuple(ShipSpec(f"FS {k}{tag}", "3rd-74", "FR", GRADES[2 + k % 4]) for k in range(n))
    return BattleSpec(
        "fleet_action",
        (
            SideSpec("British", "GB", british, AdmiralSpec("B", "Collingwood"), "B", weather_gauge=True),
            SideSpec("French", "FR", french, AdmiralSpec("D", "Villeneuve"), "D"),
        ),
    )


def balanced_spec(n: int) -> BattleSpec:
    """n v n with equal modifiers (French and Dutch, crew D, admirals D): longer days."""
    french = tuple(ShipSpec(f"FS {k}", "3rd-74", "FR", "D") for k in range(n))
    dutch = tuple(ShipSpec(f"NL {k}", "3rd-74", "NL", "D") for k in range(n))
    return BattleSpec(
        "fleet_action",
        (SideSpec("French", "FR", french, AdmiralSpec("D")), SideSpec("Dutch", "NL", dutch, AdmiralSpec("D"))),
    )


def alexandria_spec() -> BattleSpec:
    french = tuple(ShipSpec(f"F{k}", "3rd-74", "FR", "D") for k in range(24))
    egypt = tuple(ShipSpec(f"E{k}", "frigate", "EG", "F") for k in range(5))
    return BattleSpec(
        "running_the_guns",
        (SideSpec("French", "FR", french, AdmiralSpec("C")), SideSpec("Egyptians", "EG", egypt, crew="F")),
        port=PortSpec(3, "Alexandria"),
    )


def _draw_alone(sizes: list[int], seed: int) -> float:
    """Seconds to draw dice of these sizes from random.Random the fastest plain way."""
    rand = random.Random(seed).random
    t0 = time.perf_counter()
    for sides in sizes:
        int(rand() * sides) + 1
    return time.perf_counter() - t0


def _randint_alone(sizes: list[int], seed: int) -> float:
    randint = random.Random(seed).randint
    t0 = time.perf_counter()
    for sides in sizes:
        randint(1, sides)
    return time.perf_counter() - t0


def measure(
    name: str,
    specs: BattleSpec | list[BattleSpec],
    fight: Callable[[BattleSpec, SeededDice], BattleReport],
    n: int,
) -> None:
    """Fight n battles; ``specs`` is one spec fought again and again (as Monte Carlo does: its
    static tables are built once) or a list of equal but distinct specs, one per battle (as in a
    campaign, where every battle's spec is new)."""
    pick = (lambda i: specs[i % len(specs)]) if isinstance(specs, list) else (lambda i: specs)
    for seed in range(min(50, n)):  # warm up
        fight(pick(seed), SeededDice(seed))
    times: list[float] = []
    sizes: list[int] = []
    rounds = 0
    t_all = time.perf_counter()
    for seed in range(n):
        dice = SeededDice(seed)
        spec = pick(seed)
        t0 = time.perf_counter()
        report = fight(spec, dice)
        times.append(time.perf_counter() - t0)
        sizes.extend(report.dice_log[2::ROW])  # type: ignore[arg-type]
        rounds += report.rounds
    total = time.perf_counter() - t_all
    engine = sum(times)
    alone = min(_draw_alone(sizes, 1), _draw_alone(sizes, 2))
    randint = _randint_alone(sizes, 1)
    median = statistics.median(times)
    print(
        f"{name:<26} median {median * 1e6:7.1f} µs/day  {n / engine:7.0f} battles/s  "
        f"{len(sizes) / n:6.1f} dice/battle  {rounds / n:4.2f} rounds/battle"
    )
    print(
        f"{'':<26} ratio {engine / alone:5.1f}× vs int(random()*sides)+1 "
        f"({alone / len(sizes) * 1e9:4.1f} ns/die), {engine / randint:4.1f}× vs randint()  [{total:.1f} s wall]"
    )


def monte_carlo(spec: BattleSpec, runs: int) -> None:
    t0 = time.perf_counter()
    simulate_odds(spec, runs, seed=1)
    elapsed = time.perf_counter() - t0
    print(f"{'Monte Carlo 30 v 30':<26} {runs / elapsed:8.0f} runs/s (simulate_odds, {runs} runs, SeededDice per run)")


def main() -> None:
    print("Naval Days with full dice logs (every die logged), SeededDice, one core.")
    print("Ratio: engine time / time to draw the same dice (sizes, order) alone from random.Random.")
    measure("30 v 30, same spec", fleet_spec(30), fight_day, 4000)
    measure("30 v 30, fresh spec each", [fleet_spec(30, f"#{k}") for k in range(4000)], fight_day, 4000)
    measure("30 v 30, balanced", balanced_spec(30), fight_day, 3000)
    measure("100 v 100, same spec", fleet_spec(100), fight_day, 1000)
    measure("100 v 100, fresh spec each", [fleet_spec(100, f"#{k}") for k in range(1000)], fight_day, 1000)
    measure("Alexandria (24 v 5 RtG)", alexandria_spec(), run_the_guns, 4000)
    monte_carlo(fleet_spec(30), 4000)


if __name__ == "__main__":
    main()
