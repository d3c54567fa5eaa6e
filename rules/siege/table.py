"""A storming fought on the table instead of the siege roll (RULES.md §7 "Siege"; issue 15).

Phase 6 holds a besieged port's siege at the table when its d10 would be rolled; the group fights the
storming with miniatures and enters what came of it: how many garrison units were lost, how many
besieging units of each nation, and whether the port was taken. :func:`siege_table_result` checks
that entry against the siege as phase 6 found it and turns it into the same :class:`SiegeResult`
the d10 gives, so one writer applies both. The units lost are chosen as the siege table chooses
them (RULES.md §7 "the siege train last": ordinary units first, then lowest id), each nation's
besiegers on their own.

The checks keep to what the siege table itself allows:

* no side loses more units than it had there (a nation loses only its own besiegers);
* the port is taken only when no garrison unit is left, and a port whose garrison is all lost is
  taken ("7–8 one garrison unit lost (the port taken if none is left)");
* the siege count follows the d10's rule: besieged still (not taken, besiegers left) → one more
  turn, otherwise it resets.

:func:`siege_state_json` and :func:`siege_state_from_json` keep a held siege as phase 6 found it.

Pure Python: no Django, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.ruleset import Ruleset
from rules.siege.roll import (
    SiegeOutcome,
    SiegeResult,
    SiegeState,
    SiegeUnit,
    captor_of,
    garrison_strength,
    unit_to_lose,
)


class SiegeResultRefused(ValueError):
    """An entered storming that cannot be: ``field`` names the part, the message what is allowed."""

    def __init__(self, message: str, *, field: str, code: str = "invalid") -> None:
        super().__init__(message)
        self.field = field
        self.code = code


def _count(value: object, field: str, most: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SiegeResultRefused(f"{field}: a whole number of units, 0 or more; got {value!r}.", field=field)
    if value > most:
        raise SiegeResultRefused(
            f"{field}: {value} units lost, but {what} had only {most} there.", field=field, code="too_many"
        )
    return value


def _lose(units: list[SiegeUnit], n: int) -> list[int]:
    """``n`` of ``units`` lost, the siege train last (as the siege table picks them)."""
    left = list(units)
    lost = []
    for _ in range(n):
        unit = unit_to_lose(left)
        left.remove(unit)
        lost.append(unit.id)
    return lost


def siege_table_result(
    state: SiegeState, body: Mapping[str, Any], ruleset: Ruleset, nation_names: Mapping[str, str] | None = None
) -> SiegeResult:
    """The storming's entered result (``garrison_lost``, ``besiegers_lost`` by nation code,
    ``port_taken``) as the siege's result; raises :class:`SiegeResultRefused`, naming the part."""
    names = dict(nation_names or {})
    if not isinstance(body, Mapping):
        raise SiegeResultRefused(
            "A storming's result is an object with garrison_lost, besiegers_lost and port_taken.", field="result"
        )
    garrison_lost = _count(body.get("garrison_lost", 0), "garrison_lost", len(state.garrison), "the garrison")
    by_nation: dict[str, list[SiegeUnit]] = {}
    for unit in state.besiegers:
        by_nation.setdefault(unit.nation, []).append(unit)
    given = body.get("besiegers_lost") or {}
    if not isinstance(given, Mapping):
        raise SiegeResultRefused(
            'besiegers_lost: an object of the besieging nations\' codes and the units each lost, e.g. {"FR": 1}.',
            field="besiegers_lost",
        )
    besiegers_lost: list[int] = []
    for code, n in given.items():
        field = f"besiegers_lost.{code}"
        if code not in by_nation:
            there = ", ".join(f"{names.get(c, c)} ({c})" for c in sorted(by_nation))
            raise SiegeResultRefused(
                f"{field}: {names.get(str(code), code)} had no besieging unit there; the besiegers are {there}.",
                field=field,
                code="not_there",
            )
        lost = _count(n, field, len(by_nation[code]), names.get(code) or code)
        besiegers_lost += _lose(by_nation[code], lost)
    taken = body.get("port_taken")
    if not isinstance(taken, bool):
        raise SiegeResultRefused("port_taken: true (the port was taken) or false (it held).", field="port_taken")
    left = len(state.garrison) - garrison_lost
    if taken and left:
        raise SiegeResultRefused(
            f"port_taken: the port cannot be taken while {left} garrison unit{'s are' if left != 1 else ' is'} left; "
            "enter the garrison's losses, or say it held.",
            field="port_taken",
            code="impossible",
        )
    if not taken and not left:
        raise SiegeResultRefused(
            "port_taken: with no garrison unit left the port is taken (rules §7); say it was taken, or enter fewer "
            "garrison losses.",
            field="port_taken",
            code="impossible",
        )
    still_besieged = not taken and len(besiegers_lost) < len(state.besiegers)
    return SiegeResult(
        port=state.port,
        outcome=SiegeOutcome.AT_TABLE,
        b=len(state.besiegers),
        g=garrison_strength(len(state.garrison), state.gibraltar, ruleset),
        modifiers=None,
        die=None,
        besiegers_lost=tuple(besiegers_lost),
        garrison_lost=tuple(_lose(list(state.garrison), garrison_lost)),
        taken=taken,
        captor=captor_of(state.besiegers) if taken else None,
        still_besieged=still_besieged,
        next_earlier_turns=state.earlier_turns + 1 if still_besieged else 0,
    )


def _units_json(units: tuple[SiegeUnit, ...]) -> list[list[Any]]:
    return [[u.id, u.nation, u.siege_train] for u in units]


def siege_state_json(state: SiegeState) -> dict[str, Any]:
    """A siege as phase 6 found it, as JSON (kept with the storming held at the table)."""
    return {
        "port": state.port,
        "besiegers": _units_json(state.besiegers),
        "garrison": _units_json(state.garrison),
        "fortification": state.fortification,
        "gibraltar": state.gibraltar,
        "earlier_turns": state.earlier_turns,
        "blockaded": state.blockaded,
        "commander": state.commander,
    }


def siege_state_from_json(data: Mapping[str, Any]) -> SiegeState:
    """The inverse of :func:`siege_state_json`."""
    return SiegeState(
        port=str(data["port"]),
        besiegers=tuple(SiegeUnit(int(i), str(n), bool(t)) for i, n, t in data["besiegers"]),
        garrison=tuple(SiegeUnit(int(i), str(n), bool(t)) for i, n, t in data["garrison"]),
        fortification=int(data["fortification"]),
        gibraltar=bool(data["gibraltar"]),
        earlier_turns=int(data["earlier_turns"]),
        blockaded=bool(data["blockaded"]),
        commander=data.get("commander") or None,
    )
