"""RULES.md §9 "Fireships", one rule case per test."""

from __future__ import annotations

import pytest

from rules.dice import ScriptedDice
from rules.fireships import (
    FireshipEffect,
    FireshipReport,
    FireshipTarget,
    fireship_attack_modifier,
    fireships_attack,
)
from rules.ruleset import DEFAULT_RULESET, Ruleset
from rules.strategic_log import StrategicLog

R = DEFAULT_RULESET


def attack(
    faces: list[int],
    *,
    fireships: tuple[int, ...] = (901,),
    targets: tuple[FireshipTarget, ...] = (FireshipTarget(1, "ready", False),),
    ff: int = 2,
    ruleset: Ruleset = R,
    log: StrategicLog | None = None,
) -> FireshipReport:
    dice = ScriptedDice(faces)
    report = fireships_attack(
        "toulon", fireships, targets, ff, ruleset, dice, log if log is not None else StrategicLog()
    )
    assert dice.unused == [], "every scripted face should have been rolled"
    return report


def test_fireship_k_attacks_the_kth_enemy_ship_cycling() -> None:
    """§9 "Fireship k attacks the k-th enemy ship in P in line order, cycling"."""
    targets = (FireshipTarget(1, "ready", False), FireshipTarget(2, "ready", False))
    report = attack([1, 1, 1], fireships=(901, 902, 903), targets=targets)
    assert [(a.fireship_id, a.target_id) for a in report.attacks] == [(901, 1), (902, 2), (903, 1)]


def test_every_fireship_sent_is_expended_whatever_it_does() -> None:
    """§9 "each is expended" — those stopped by the guns and those that do nothing as well."""
    targets = (FireshipTarget(1, "ready", True),)
    report = attack([9, 1, 1], fireships=(901, 902), targets=targets)  # 901 stopped; 902 gets through, rolls 1
    assert [a.effect for a in report.attacks] == [FireshipEffect.STOPPED, FireshipEffect.NOTHING]
    assert report.expended == (901, 902) and report.unused == ()


def test_the_port_guns_stop_a_fireship_on_a_modified_four() -> None:
    """§9 "each fireship first takes one fortification die (d10 +1, no hot shot): 4+ stops it"."""
    guarded = (FireshipTarget(1, "ready", True),)
    log = StrategicLog()
    stopped = attack([3], targets=guarded, log=log)
    assert stopped.attacks[0].effect is FireshipEffect.STOPPED
    assert stopped.conditions[1] == "ready" and stopped.attacks[0].attack_die is None
    (fort,) = log.records
    assert (fort.purpose, fort.raw, fort.mod, fort.result) == ("fireship_fort", 3, 1, 4)


def test_a_fireship_the_guns_miss_goes_on_to_attack() -> None:
    """§9 "A survivor rolls d10": a fortification die of 2 (+1 = 3) does not stop it."""
    log = StrategicLog()
    report = attack([2, 9], targets=(FireshipTarget(1, "ready", True),), log=log)
    assert report.attacks[0].effect is FireshipEffect.DISABLED
    assert [r.purpose for r in log] == ["fireship_fort", "fireship"]


def test_the_guns_fire_only_for_the_targets_side() -> None:
    """§9 "If P's guns fire for the target's side": no fortification die for a target they do not cover."""
    log = StrategicLog()
    targets = (FireshipTarget(1, "ready", False), FireshipTarget(2, "ready", True))
    attack([6, 1, 6], fireships=(901, 902), targets=targets, log=log)
    assert [(r.purpose, r.subject) for r in log] == [
        ("fireship", "fireship:901>ship:1"),
        ("fireship_fort", "fireship:902>ship:2"),
        ("fireship", "fireship:902>ship:2"),
    ]


@pytest.mark.parametrize(
    ("face", "effect", "after"),
    [
        (1, FireshipEffect.NOTHING, "ready"),
        (5, FireshipEffect.NOTHING, "ready"),
        (6, FireshipEffect.DAMAGED, "damaged"),
        (8, FireshipEffect.DAMAGED, "damaged"),
        (9, FireshipEffect.DISABLED, "disabled"),
        (10, FireshipEffect.SUNK, "sunk"),
    ],
)
def test_each_band_of_the_fireship_die(face: int, effect: FireshipEffect, after: str) -> None:
    """§9 "1–5 nothing; 6–8 damaged [...]; 9 disabled; 10 [...] sunk" (FF below 3: no modifier)."""
    report = attack([face], ff=2)
    assert report.attacks[0].effect is effect
    assert report.conditions[1] == after


def test_damage_to_a_damaged_ship_disables_it() -> None:
    """§9 "6–8 damaged (disabled if already damaged)"."""
    report = attack([7], targets=(FireshipTarget(1, "damaged", False),))
    assert report.attacks[0].condition_before == "damaged"
    assert report.conditions[1] == "disabled"


def test_damage_to_a_disabled_ship_changes_nothing() -> None:
    """House resolution: results never improve a ship, so "damaged" leaves a disabled ship disabled."""
    report = attack([7], targets=(FireshipTarget(1, "disabled", False),))
    assert report.attacks[0].effect is FireshipEffect.DAMAGED
    assert report.conditions[1] == "disabled"


def test_a_big_fortress_takes_two_from_the_fireship_die() -> None:
    """§9 "A survivor rolls d10, −2 if FF ≥ 3": at FF 3 an 8 only damages (6), a 7 does nothing (5),
    and at FF 2 there is no penalty."""
    assert fireship_attack_modifier(3, R) == -2
    assert fireship_attack_modifier(2, R) == 0
    assert attack([8], ff=3).attacks[0].effect is FireshipEffect.DAMAGED
    assert attack([7], ff=3).attacks[0].effect is FireshipEffect.NOTHING
    assert attack([9], ff=3).attacks[0].effect is FireshipEffect.DAMAGED


def test_a_natural_ten_sinks_even_against_a_big_fortress() -> None:
    """§9 "10, or a natural 10, sunk": at FF 3 a natural 10 (8 after −2) still sinks; the log
    records the applied result, 10."""
    log = StrategicLog()
    report = attack([10], ff=4, log=log)
    assert report.attacks[0].effect is FireshipEffect.SUNK
    (die,) = log.records
    assert (die.raw, die.mod, die.result) == (10, -2, 10)


def test_a_modified_ten_sinks() -> None:
    """§9 "10 [...] sunk": a house rule giving +1 lets a natural 9 reach 10."""
    house = Ruleset.from_flat({"fireship.big_fort_penalty": 1})
    assert attack([9], ff=3, ruleset=house).attacks[0].effect is FireshipEffect.SUNK


def test_a_sunk_target_passes_the_next_fireship_on_to_the_next_ship_afloat() -> None:
    """House resolution after §6's barrage: fireship k goes at T[k], or the next one still afloat."""
    targets = (FireshipTarget(1, "ready", False), FireshipTarget(2, "ready", False))
    report = attack([10, 1, 1], fireships=(901, 902, 903), targets=targets)
    assert [a.target_id for a in report.attacks] == [1, 2, 2]


def test_fireships_with_nothing_left_to_burn_are_expended_without_effect() -> None:
    """§12.10: "The list is the enemy ships in P in line order when the attack begins (in ordinary
    included, building excluded); if fireship k's ship has been sunk or captured meanwhile, it goes at
    the next one after it in that list that is not, cycling; with none left the remaining fireships are
    expended without effect." With no enemy ship in P at all there is no attack: none is sent."""
    report = attack([10], fireships=(901, 902))
    assert report.expended == (901, 902) and report.unused == ()
    assert len(report.attacks) == 1  # the second rolls no die and does nothing
    assert attack([], fireships=(901,), targets=()).unused == (901,)


def test_duplicate_ids_are_refused() -> None:
    """Each fireship and each target is one ship: a duplicate id is the caller's error."""
    with pytest.raises(ValueError, match="twice"):
        attack([], fireships=(901, 901))
