"""Battle engine speed: Naval Days per second and the cost per die against drawing dice alone.

``python -m bench battles`` prints, for 30-v-30 and 100-v-100 fleet actions fought with full dice
logs (and for the seed's Alexandria raid): the median time per Naval Day, battles per second, dice per
battle, and the ratio of the engine's time to drawing the same dice (same sizes, same order) straight
from :class:`random.Random` — both measured in this one run, on one core. Goal (issue 3): at least
2,000 30-v-30 battles a second and a ratio of at most 10.
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
)
from battles.engine.combat import ROW

GRADES = "ABCDEFGH"


def fleet_spec(n: int) -> BattleSpec:
    """n British v n French ships of the line with mixed crews, admirals on both sides."""
    british = tuple(ShipSpec(f"HMS {k}", "3rd-74", "GB", GRADES[1 + k % 3]) for k in range(n))
    french = tuple(ShipSpec(f"FS {k}", "3rd-74", "FR", GRADES[2 + k % 4]) for k in range(n))
    return BattleSpec(
        "fleet_action",
        (
            SideSpec("British", "GB", british, AdmiralSpec("B", "Collingwood"), "B", weather_gauge=True),
            SideSpec("French", "FR", french, AdmiralSpec("D", "Villeneuve"), "D"),
        ),
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


def measure(name: str, spec: BattleSpec, fight: Callable[[BattleSpec, SeededDice], BattleReport], n: int) -> None:
    for seed in range(min(50, n)):  # warm up
        fight(spec, SeededDice(seed))
    times: list[float] = []
    sizes: list[int] = []
    rounds = 0
    t_all = time.perf_counter()
    for seed in range(n):
        dice = SeededDice(seed)
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
        f"{name:<22} median {median * 1e6:8.1f} µs/day   {n / engine:8.0f} battles/s   "
        f"{len(sizes) / n:6.1f} dice/battle   {rounds / n:4.2f} rounds/battle"
    )
    print(
        f"{'':<22} ratio to drawing the same dice alone: {engine / alone:5.1f}× "
        f"(random() per die: {alone / len(sizes) * 1e9:5.1f} ns); "
        f"to randint(): {engine / randint:4.1f}×   [{total:.1f} s wall]"
    )


def main() -> None:
    print("Fast Fleet Action, full dice logs, SeededDice, one core")
    measure("30 v 30 fleet action", fleet_spec(30), fight_day, 4000)
    measure("100 v 100 fleet action", fleet_spec(100), fight_day, 1000)
    measure("Alexandria (24 v 5 RtG)", alexandria_spec(), run_the_guns, 4000)


if __name__ == "__main__":
    main()
