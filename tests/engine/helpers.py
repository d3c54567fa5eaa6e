"""Small builders for engine tests: sides of zero-modifier ships, scripted battles that must use
every die they are given, and readers for the dice log."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from battles.engine import (
    DEFAULT_RULESET,
    AdmiralSpec,
    BattleReport,
    BattleSpec,
    PortSpec,
    Ruleset,
    ScriptedDice,
    ShipSpec,
    SideSpec,
    fight_day,
    garrison_barrage,
    run_the_guns,
)

# FR and NL with crew D have every modifier 0 (initiative, combat, boarding, integrity), so the
# faces in a scripted test are the results.


def ships(prefix: str, n: int, *, navy: str = "FR", crew: str = "D", damaged: Sequence[int] = ()) -> list[ShipSpec]:
    return [
        ShipSpec(f"{prefix}{k}", "3rd-74", navy, crew, "damaged" if k in damaged else "ready") for k in range(1, n + 1)
    ]


def side(
    name: str,
    n: int | list[ShipSpec],
    *,
    navy: str = "FR",
    crew: str = "D",
    admiral: str | None = None,
    damaged: Sequence[int] = (),
    **flags: Any,
) -> SideSpec:
    listed = n if isinstance(n, list) else ships(name, n, navy=navy, crew=crew, damaged=damaged)
    return SideSpec(
        name,
        navy,
        tuple(listed),
        None if admiral is None else AdmiralSpec(admiral, f"Admiral {name}"),
        crew,
        **flags,
    )


def fleet(a: SideSpec, b: SideSpec, max_rounds: int | None = None) -> BattleSpec:
    return BattleSpec("fleet_action", (a, b), max_rounds)


def rtg(a: SideSpec, b: SideSpec, port: PortSpec, max_rounds: int | None = None) -> BattleSpec:
    return BattleSpec("running_the_guns", (a, b), max_rounds, port)


def scripted(fight: Any, spec: BattleSpec, faces: Sequence[int], ruleset: Ruleset = DEFAULT_RULESET) -> BattleReport:
    """Fight with exactly these faces: every one must be used, none may be missing."""
    dice = ScriptedDice(faces)
    report: BattleReport = fight(spec, dice, ruleset)
    assert dice.unused == [], f"dice left over: {dice.unused}"
    return report


def day(spec: BattleSpec, faces: Sequence[int], ruleset: Ruleset = DEFAULT_RULESET) -> BattleReport:
    return scripted(fight_day, spec, faces, ruleset)


def guns(spec: BattleSpec, faces: Sequence[int], ruleset: Ruleset = DEFAULT_RULESET) -> BattleReport:
    return scripted(run_the_guns, spec, faces, ruleset)


def garrison(spec: BattleSpec, faces: Sequence[int], ruleset: Ruleset = DEFAULT_RULESET) -> BattleReport:
    return scripted(garrison_barrage, spec, faces, ruleset)


def fate(report: BattleReport, name: str) -> str:
    return next(s.fate for s in report.ships if s.name == name)


def ship_result(report: BattleReport, name: str) -> Any:
    return next(s for s in report.ships if s.name == name)


def dice(report: BattleReport, purpose: str | None = None) -> list[dict[str, Any]]:
    return [d for d in report.dice() if purpose is None or d["purpose"] == purpose]


def shots(report: BattleReport, purpose: str = "fire") -> list[tuple[str | None, str | None, str]]:
    """(ship, target, effect) of every die with this purpose, in order."""
    return [(d["ship"], d["target"], d["effect"]) for d in dice(report, purpose)]


def purposes(report: BattleReport) -> list[str]:
    return [d["purpose"] for d in report.dice()]
