"""Fireship attacks on ships in port (RULES.md §9 "Fireships").

"In phase 5, before running the guns, a fleet allowed to run the guns at P may send its
fireship-class ships at the enemy ships in P; each is expended. Fireship k attacks the k-th enemy
ship in P in line order, cycling. If P's guns fire for the target's side, each fireship first takes
one fortification die (d10 +1, no hot shot): 4+ stops it. A survivor rolls d10, −2 if FF ≥ 3:
1–5 nothing; 6–8 damaged (disabled if already damaged); 9 disabled; 10, or a natural 10, sunk."

Whether the fleet may attack, which ships in P are its enemies (in ordinary included, building
excluded, as for running the guns) and whether P's guns fire for each target's side (not while the
port is settling, §7) are the caller's decisions, passed in as data.

House resolutions (RULES.md wins over these):

* Targets are assigned as §6 assigns barrage dice: fireship k goes at T[(k−1) mod |T|]; if that
  ship has already been sunk by an earlier fireship, at the next one after it in T that is afloat.
  When every target is sunk, the remaining fireships are expended without effect (RULES.md §12.10);
  with no enemy ship in P at all, none is sent.
* Results never improve a ship: "damaged" on a disabled ship and "disabled" on a disabled ship
  change nothing.
* The fortification die is ``raw + modifier`` unclamped (it is a stop check, not the combat chart).

Dice order: fireships in the order given; for each, its fortification d10 (if the guns fire for
the target's side) then, if it got through, its attack d10. Logged as ``fireship_fort`` and
``fireship`` with the port as place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Final, Literal

from rules.dice import Dice
from rules.ruleset import Ruleset
from rules.strategic_log import DIE_SIDES, FIRESHIP, FIRESHIP_FORT, StrategicDie, StrategicLog

Condition = Literal["ready", "damaged", "disabled"]
ConditionAfter = Literal["ready", "damaged", "disabled", "sunk"]
_AFLOAT: Final = frozenset({"ready", "damaged", "disabled"})
#: "a natural 10": the top face of the d10, named by the die rather than by a rule number.
_NATURAL_TEN: Final = DIE_SIDES["d10"]


class FireshipEffect(StrEnum):
    """What one fireship did."""

    STOPPED = "stopped"
    NOTHING = "nothing"
    DAMAGED = "damaged"
    DISABLED = "disabled"
    SUNK = "sunk"


@dataclass(frozen=True, slots=True)
class FireshipTarget:
    """An enemy ship in the port, by the caller's id, in line order.

    ``guns_defend``: P's guns fire for this ship's side (held by its nation or an ally, and the
    port not settling).
    """

    ship_id: int
    condition: Condition
    guns_defend: bool

    def __post_init__(self) -> None:
        if self.condition not in _AFLOAT:
            raise ValueError(f"ship {self.ship_id}: condition {self.condition!r} is not ready, damaged or disabled")


@dataclass(frozen=True, slots=True)
class FireshipAttack:
    """One fireship's attack: its dice (``fort_die`` None when the guns did not fire), the
    effect, and the target's condition before and after."""

    fireship_id: int
    target_id: int
    fort_die: StrategicDie | None
    attack_die: StrategicDie | None
    effect: FireshipEffect
    condition_before: Condition
    condition_after: ConditionAfter


@dataclass(frozen=True, slots=True)
class FireshipReport:
    """Every attack in order; ``expended`` are the fireships sent (all spent), ``unused`` those
    kept back because no target was left afloat; ``conditions`` each target's final condition."""

    port: str
    attacks: tuple[FireshipAttack, ...]
    expended: tuple[int, ...]
    unused: tuple[int, ...]
    conditions: Mapping[int, ConditionAfter]


def fireship_attack_modifier(fortification: int, ruleset: Ruleset) -> int:
    """The attack d10's modifier: ``fireship.big_fort_penalty`` (−2) if FF ≥ ``fireship.big_fort_ff`` (3)."""
    return ruleset["fireship.big_fort_penalty"] if fortification >= ruleset["fireship.big_fort_ff"] else 0


def fireship_effect(total: int, natural: int, ruleset: Ruleset) -> FireshipEffect:
    """The band of the attack d10: 1–5 nothing, 6–8 damaged, 9 disabled, 10+ or a natural 10 sunk."""
    if natural == _NATURAL_TEN or total >= ruleset["fireship.sunk_min"]:
        return FireshipEffect.SUNK
    if total >= ruleset["fireship.disabled_min"]:
        return FireshipEffect.DISABLED
    if total >= ruleset["fireship.damaged_min"]:
        return FireshipEffect.DAMAGED
    return FireshipEffect.NOTHING


def _apply(condition: Condition, effect: FireshipEffect) -> ConditionAfter:
    """The target's condition after ``effect``; results never improve a ship."""
    if effect is FireshipEffect.SUNK:
        return "sunk"
    if effect is FireshipEffect.DISABLED:
        return "disabled"
    if effect is FireshipEffect.DAMAGED:
        # "6–8 damaged (disabled if already damaged)"; a disabled ship stays disabled.
        return "damaged" if condition == "ready" else "disabled"
    return condition


def _target_for(k: int, targets: Sequence[FireshipTarget], sunk: set[int]) -> FireshipTarget | None:
    """Fireship k (0-based) goes at T[k mod |T|], or the next ship after it in T still afloat."""
    n = len(targets)
    for step in range(n):
        candidate = targets[(k + step) % n]
        if candidate.ship_id not in sunk:
            return candidate
    return None


def fireships_attack(
    port: str,
    fireships: Sequence[int],
    targets: Sequence[FireshipTarget],
    fortification: int,
    ruleset: Ruleset,
    dice: Dice,
    log: StrategicLog,
) -> FireshipReport:
    """Send ``fireships`` (ids, in the order they go) at ``targets`` (enemy ships in ``port``, line
    order) in a port of Fortification factor ``fortification``.

    Rolls and logs each fireship's dice in turn (see the module docstring). With no targets, no
    fireship is sent. Raises ``ValueError`` on duplicate ids or a negative FF.
    """
    _check_fireship_inputs(port, fireships, targets, fortification)
    current: dict[int, Condition] = {t.ship_id: t.condition for t in targets}
    sunk: set[int] = set()
    attacks: list[FireshipAttack] = []
    expended: list[int] = []
    for k, fireship in enumerate(fireships):
        target = _target_for(k, targets, sunk)
        if target is None:
            if not targets:
                break  # no enemy ship in P: no attack, nothing is sent
            # §12.10: "with none left the remaining fireships are expended without effect".
            expended.append(fireship)
            continue
        expended.append(fireship)
        attack = _one_fireship(port, fireship, target, current[target.ship_id], fortification, ruleset, dice, log)
        if attack.condition_after == "sunk":
            sunk.add(target.ship_id)
        else:
            current[target.ship_id] = attack.condition_after
        attacks.append(attack)

    conditions: dict[int, ConditionAfter] = {
        t.ship_id: "sunk" if t.ship_id in sunk else current[t.ship_id] for t in targets
    }
    return FireshipReport(
        port=port,
        attacks=tuple(attacks),
        expended=tuple(expended),
        unused=tuple(fireships[len(expended) :]),
        conditions=MappingProxyType(conditions),
    )


def _check_fireship_inputs(
    port: str, fireships: Sequence[int], targets: Sequence[FireshipTarget], fortification: int
) -> None:
    if len(set(fireships)) != len(fireships):
        raise ValueError(f"{port}: a fireship id appears twice")
    if len({t.ship_id for t in targets}) != len(targets):
        raise ValueError(f"{port}: a target ship id appears twice")
    if fortification < 0:
        raise ValueError(f"{port}: fortification {fortification} is negative")


def _one_fireship(
    port: str,
    fireship: int,
    target: FireshipTarget,
    before: Condition,
    fortification: int,
    ruleset: Ruleset,
    dice: Dice,
    log: StrategicLog,
) -> FireshipAttack:
    """One fireship against ``target`` (in condition ``before``): the fort's die first, if the port's
    guns defend the target, then the attack die unless the fort stopped it."""
    subject = f"fireship:{fireship}>ship:{target.ship_id}"
    stops_on = ruleset["fireship.fort_stops_on"]
    fort_die = None
    if target.guns_defend:
        fort_die = log.roll(
            dice,
            purpose=FIRESHIP_FORT,
            place=port,
            die="d10",
            mod=ruleset["fireship.fort_modifier"],
            subject=subject,
            detail=f"stops it on {stops_on}+",
        )
    if fort_die is not None and fort_die.result >= stops_on:
        effect = FireshipEffect.STOPPED
        attack_die = None
    else:
        attack_mod = fireship_attack_modifier(fortification, ruleset)
        raw = dice.roll(DIE_SIDES["d10"])
        effect = fireship_effect(raw + attack_mod, raw, ruleset)
        # A natural 10 sinks whatever the modifier: the log records the result the rule
        # applied, as the battle log records a natural 10 as 10.
        result = max(raw + attack_mod, ruleset["fireship.sunk_min"]) if raw == _NATURAL_TEN else raw + attack_mod
        attack_die = log.append(
            StrategicDie(
                purpose=FIRESHIP,
                place=port,
                die="d10",
                raw=raw,
                mod=attack_mod,
                result=result,
                subject=subject,
                detail=effect.value,
            )
        )
    after: ConditionAfter = before if effect is FireshipEffect.STOPPED else _apply(before, effect)
    return FireshipAttack(
        fireship_id=fireship,
        target_id=target.ship_id,
        fort_die=fort_die,
        attack_die=attack_die,
        effect=effect,
        condition_before=before,
        condition_after=after,
    )
