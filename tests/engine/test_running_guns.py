"""Running the Guns (RULES.md §6) and the garrison guns (§4), one rule case per test.

Attackers are French, crew D (modifier 0); the ships in port Egyptian, crew F (fire 0; boarding +1,
EG using the Ottoman list). Fortification dice are at +1, so a fort's raw 1 is still a natural 1.
"""

from __future__ import annotations

from typing import Any

import pytest

from battles.engine import BattleSpec, PortSpec, Ruleset, SideSpec, barrage_dice, coastal_forts

from .helpers import dice, fate, garrison, guns, purposes, rtg, ship_result, shots, side

ALEXANDRIA = PortSpec(3, "Alexandria")
GIBRALTAR = PortSpec(3, "Gibraltar", gibraltar=True)


def attackers(n: int, **kw: Any) -> SideSpec:
    return side("A", n, **kw)


def in_port(n: int, **kw: Any) -> SideSpec:
    return side("P", n, navy="EG", crew="F", **kw)


def garrison_spec(n: int, port: PortSpec, holder_navy: str = "GB", holder_ships: int = 0) -> BattleSpec:
    return BattleSpec("garrison_guns", (side("A", n), side("G", holder_ships, navy=holder_navy)), port=port)


# --- The barrage count ------------------------------------------------------------------------


def test_the_alexandria_raid_rolls_sixteen_barrage_dice_then_fifteen_with_two_ships_sunk():
    """§6 [S]: "Alexandria, FF 3, no batteries, 5 ships → 15 + 0 + 1 = 16 dice"; "the defender
    recounts its dice and fires again": with two of the five sunk, floor(3/4) = 0 → 15."""
    faces = [1] * 16 + [10, 1, 10, 1] + [1] * 8 + [1] * 3  # round 1: A1, A2 sink P1, P2
    faces += [1] * 15 + [1] * 6 + [1] * 3  # round 2
    report = guns(rtg(attackers(24, admiral="C"), in_port(5), ALEXANDRIA, 2), faces)
    assert report.barrage == (16, 15)
    per_round = [
        len([d for d in dice(report) if d["purpose"].startswith("barrage") and d["round"] == r]) for r in (1, 2)
    ]
    assert per_round == [16, 15]
    assert [d["purpose"] for d in dice(report)[:16]] == ["barrage_fort"] * 15 + ["barrage_ship"]


def test_the_alexandria_raid_rolls_sixteen_again_with_four_ships_left():
    """§6 [S]: "the French fleet would have taken another barrage of 15-16 attack dice" — with one
    ship sunk, floor(4/4) = 1 → 16."""
    faces = [1] * 16 + [10, 1] + [1] * 9 + [1] * 3
    faces += [1] * 16 + [1] * 8 + [1] * 3
    report = guns(rtg(attackers(24, admiral="C"), in_port(5), ALEXANDRIA, 2), faces)
    assert report.barrage == (16, 16)


def test_gibraltar_fires_thirty_dice_and_has_six_coastal_forts():
    """§6 [S]: "Gibraltar (FF 3) alone → 30 dice"; "Coastal forts = Fortification factor
    (Gibraltar 2 × = 6)". Against an empty port there is no winner."""
    report = guns(rtg(attackers(1), in_port(0), GIBRALTAR), [1] * 30)
    assert report.barrage == (30,)
    assert report.coastal_forts == 6
    assert coastal_forts(ALEXANDRIA) == 3
    assert report.winner is None
    assert report.outcome == ("retired", "held")


def test_batteries_add_a_die_each_at_the_defenders_combat_nationality_and_ship_dice_add_crew():
    """§6: "+ 1 per artillery battery in the port + floor(defender's ships … / 4)"; "Battery dice
    take the defender's combat nationality; ship dice that plus the defending side's crew morale".
    Spanish port (−1), crew B (+1): forts +1, batteries −1, ships 0."""
    spanish = side("P", 4, navy="ES", crew="B")
    report = guns(rtg(attackers(8), spanish, PortSpec(1, "Cartagena", batteries=2), 1), [1] * 8 + [1] * 8)
    barrage = [(d["purpose"], d["mod"]) for d in dice(report) if d["purpose"].startswith("barrage")]
    assert barrage == [("barrage_fort", 1)] * 5 + [("barrage_battery", -1)] * 2 + [("barrage_ship", 0)]
    assert barrage_dice(PortSpec(1, batteries=2), 4) == (5, 2, 1)


def test_a_house_rule_changes_the_barrage():
    """``guns.barrage_per_ff`` and ``guns.ships_per_barrage_die`` are settings."""
    rules = Ruleset.from_flat({"guns.barrage_per_ff": 2, "guns.ships_per_barrage_die": 2})
    assert barrage_dice(ALEXANDRIA, 5, rules) == (6, 0, 2)


# --- Targeting --------------------------------------------------------------------------------


def test_barrage_dice_go_round_the_attackers_in_line_order():
    """§6: "die k goes at C[(k−1) mod |C|]"."""
    report = guns(rtg(attackers(3), in_port(0), PortSpec(1)), [1] * 5)
    assert [t for _s, t, _e in shots(report, "barrage_fort")] == ["A1", "A2", "A3", "A1", "A2"]


def test_a_barrage_die_skips_forward_past_ships_out_of_the_line():
    """§6: "if that ship is no longer in the line, at the next one after it in C that is"."""
    report = guns(rtg(attackers(3), in_port(0), PortSpec(1)), [5, 1, 1, 1, 1, 1, 1])
    assert [t for _s, t, _e in shots(report, "barrage_fort")] == ["A1", "A2", "A3", "A2", "A2"]


def test_when_no_attacker_is_left_in_the_line_the_rest_are_not_rolled_but_all_are_counted():
    """§6: "if none is, the rest are not rolled"; "The report gives each round's count, even when
    fewer were rolled"."""
    report = guns(rtg(attackers(1), in_port(0), PortSpec(1)), [8])
    assert len(dice(report)) == 1
    assert report.barrage == (5,)
    assert report.outcome == ("beaten", "held")


def test_reserves_are_barrage_targets():
    """§6: C is the attackers not sunk, disabled or captured "(reserves included)"."""
    report = guns(rtg(attackers(6), in_port(1), PortSpec(1), 1), [1] * 5 + [1, 1])
    assert [t for _s, t, _e in shots(report, "barrage_fort")] == ["A1", "A2", "A3", "A4", "A5"]


# --- Barrage results --------------------------------------------------------------------------


def test_hot_shot_on_a_six_disables_a_ship_that_was_not_already_damaged():
    """§6: "a 4–7 result on a ship that was not already damaged is followed at once by a d6, and
    on 6 the ship is disabled instead"."""
    report = guns(rtg(attackers(1), in_port(0), PortSpec(1)), [3, 6])
    assert [(d["purpose"], d["result"], d["effect"]) for d in dice(report)] == [
        ("barrage_fort", 4, "hot shot"),
        ("hot_shot", 6, "disabled"),
    ]
    assert ship_result(report, "A1").captured_by == 1  # a disabled ship stays behind


def test_hot_shot_below_six_only_damages():
    """§6: hot shot d6 other than 6: the ship is damaged as usual."""
    report = guns(rtg(attackers(2), in_port(0), PortSpec(1)), [3, 5, 1, 1, 1, 1, 1])
    assert fate(report, "A1") == "damaged"
    assert dice(report)[1]["effect"] == "damaged"


def test_no_hot_shot_for_a_ship_already_damaged_which_is_disabled():
    """§6: hot shot only "on a ship that was not already damaged"; §5: a damaged ship hit again
    is disabled."""
    report = guns(rtg(side("A", 1, damaged=[1]), in_port(0), PortSpec(1)), [3])
    assert purposes(report) == ["barrage_fort"]
    assert dice(report)[0]["effect"] == "disabled"


def test_battery_dice_have_no_hot_shot():
    """§6: hot shot belongs to the fortification dice only."""
    report = guns(rtg(attackers(2), in_port(0), PortSpec(0, batteries=1)), [5, 1])
    assert purposes(report) == ["barrage_battery", "towing"]


def test_an_eight_from_the_barrage_puts_the_ship_aground_taken_by_the_port():
    """§6: "For every barrage die … an 8 means the ship runs aground and is taken by the port: no
    boarding roll"."""
    report = guns(rtg(attackers(2), in_port(0), PortSpec(1)), [7, 1, 1, 1, 1])
    assert dice(report)[0]["effect"] == "aground"
    assert "boarding" not in purposes(report)
    assert ship_result(report, "A1").captured_by == 1


def test_barrage_explosion_dice_are_the_defenders_unmodified_without_hot_shot():
    """§6: "A 10 sinks, with the explosion d6 of §5; the two extra dice are the defender's,
    unmodified, targeted as in §5, without hot shot" — and their 8 puts a ship aground too."""
    report = guns(rtg(attackers(3), in_port(0), PortSpec(1)), [9, 6, 5, 8, 1])
    blast = dice(report, "explosion_fire")
    assert [(d["side"], d["ship"], d["target"], d["mod"], d["effect"]) for d in blast] == [
        (1, None, "A2", 0, "damaged"),
        (1, None, "A3", 0, "aground"),
    ]
    assert "hot_shot" not in purposes(report)
    assert ship_result(report, "A1").exploded


# --- Return fire, staying and breaking off ----------------------------------------------------


def test_the_attackers_in_the_line_pair_two_per_ship_in_port_and_the_rest_are_reserves():
    """§6: "the attackers still in the line are paired (§5, two attackers per ship at most; the
    rest are reserves — this cap overrides the seed example's 16 ships firing at 5)"."""
    report = guns(rtg(attackers(7), in_port(2), PortSpec(1), 1), [1] * 5 + [1] * 4)
    assert [s for s, _t, _e in shots(report)] == ["A1", "A2", "A3", "A4"]
    assert [report.ships[i].name for i in report.lines[0].reserves[0]] == ["A5", "A6", "A7"]


def test_damaged_attackers_do_not_return_fire():
    """§6: "Then the attackers still in the line are paired" — a ship the barrage damaged is out."""
    report = guns(rtg(attackers(2), in_port(1), PortSpec(1), 1), [5, 1, 1, 1, 1, 1, 1, 1])
    assert [s for s, _t, _e in shots(report)] == ["A2"]


def test_running_the_guns_boarding_is_real_and_the_ship_in_port_can_win():
    """§6: "An 8 is a real boarding (§5), which the ship in port can win"."""
    report = guns(rtg(attackers(1), in_port(1), PortSpec(0)), [8, 1, 6])
    assert ship_result(report, "A1").captured_by == 1
    assert report.barrage == (0,)
    assert report.winner == 1
    assert report.outcome == ("beaten", "held")


def test_the_attacker_breaks_off_once_its_l_reaches_a_quarter():
    """§6: "the attacker stays while the port still holds a defender's ship …, its L < 1/4 …";
    otherwise it breaks off."""
    report = guns(rtg(attackers(4), in_port(1), PortSpec(1)), [9, 1, 1, 1, 1, 1, 1, 1])
    assert report.rounds == 1
    assert report.winner == 1
    assert report.outcome == ("retired", "held")


def test_the_attacker_stays_for_another_round_while_the_rule_allows():
    """§6: stays while a defender's ship fights on, L < 1/4 and rounds are left; "the first is
    always fought"."""
    faces = [1] * 5 + [1, 1]  # round 1: nobody hurt
    faces += [1] * 5 + [1, 1]  # round 2
    report = guns(rtg(attackers(2), in_port(1), PortSpec(1), 2), faces)
    assert report.rounds == 2
    assert [e.kind for e in report.events] == ["stays", "broke_off"]


def test_a_house_rule_changes_when_the_attacker_stays():
    """``guns.stay_loss_num/den``: with 1/2, losing one ship of four no longer ends the raid."""
    rules = Ruleset.from_flat({"guns.stay_loss_den": 2})
    faces = [9, 1, 1, 1, 1, 1, 1, 1]  # A1 sunk (no explosion); A2, A3 fire; A4 a reserve
    faces += [1] * 5 + [1, 1]
    report = guns(rtg(attackers(4), in_port(1), PortSpec(1), 2), faces, rules)
    assert report.rounds == 2


def test_breaking_off_leaves_disabled_ships_tows_prizes_and_rolls_for_damaged_ships():
    """§6: "its disabled ships and ships taken by the port stay behind (captured by the defender);
    it tows off its prizes; then each of its damaged ships rolls an unmodified d10 in line order:
    10 = sunk". The port then holds no fighting ship and A3 is afloat: the attacker wins."""
    faces = [8, 3, 1, 1, 1, 1]  # A1 disabled; A2 damaged (hot shot 1); the rest miss A3
    faces += [8, 6, 1]  # A3 boards P1 and wins
    faces += [10]  # A2's towing roll sinks it
    report = guns(rtg(attackers(3), in_port(1), PortSpec(1)), faces)
    assert ship_result(report, "A1").captured_by == 1
    assert fate(report, "A2") == "sunk"
    assert ship_result(report, "P1").captured_by == 0
    assert report.winner == 0
    assert report.outcome == ("held", "beaten")


def test_ships_disabled_in_port_stay_with_the_defender():
    """§6: "Ships disabled in port stay with the defender"."""
    report = guns(rtg(attackers(1), in_port(1), PortSpec(0)), [9])
    p1 = ship_result(report, "P1")
    assert (p1.fate, p1.captured_by) == ("disabled", None)
    assert report.winner == 0  # no defender's ship fights on; A1 afloat
    assert report.outcome == ("held", "beaten")


def test_flags_and_the_defenders_admiral_play_no_part():
    """§6: "In-supply, weather-gauge and at-anchor flags and the defender's admiral play no part"."""
    a = side("A", 1, in_supply=False, weather_gauge=True)
    b = side("P", 1, navy="EG", crew="F", at_anchor=True, admiral="A")
    report = guns(rtg(a, b, PortSpec(0), 1), [2])  # mod 0, and no admiral dice
    assert purposes(report) == ["fire"]
    assert dice(report)[0]["mod"] == 0


# --- Garrison guns ----------------------------------------------------------------------------


def test_garrison_guns_fire_one_barrage_of_fort_and_battery_dice_without_ship_dice():
    """§4 Garrison guns: "5 × FF … fortification dice at +1 with hot shot, plus battery dice, no
    ship dice, one round, §6 targeting; an 8 means taken by the port"."""
    port = PortSpec(2, "Toulon", batteries=1)
    report = garrison(garrison_spec(2, port, "FR", holder_ships=8), [7] + [1] * 10)
    assert report.barrage == (11,)
    assert [d["purpose"] for d in dice(report)] == ["barrage_fort"] * 10 + ["barrage_battery"]
    assert ship_result(report, "A1").captured_by == 1
    assert report.rounds == 1
    assert "fire" not in purposes(report)


def test_garrison_guns_at_gibraltar_are_thirty_dice():
    """§4: "(At Gibraltar that is 30 dice a turn: a hostile fleet inside does not last.)"."""
    report = garrison(garrison_spec(3, GIBRALTAR), [1] * 30)
    assert report.barrage == (30,)
    assert report.coastal_forts == 6


def test_garrison_guns_disable_without_capturing_and_have_a_winner_only_when_the_port_is_cleared():
    """§4: nobody leaves a garrison barrage: a disabled ship stays disabled in port."""
    report = garrison(garrison_spec(1, PortSpec(1)), [8])
    assert (fate(report, "A1"), report.winner, report.outcome) == ("disabled", 1, ("beaten", "held"))
    spared = garrison(garrison_spec(1, PortSpec(1)), [1] * 5)
    assert (spared.winner, spared.outcome) == (None, ("held", "held"))


@pytest.mark.parametrize("ff", [0, 1, 2, 5])
def test_garrison_guns_roll_five_per_fortification_factor(ff):
    """§4: "5 × FF (Gibraltar 10 × FF) fortification dice"."""
    report = garrison(garrison_spec(1, PortSpec(ff)), [1] * (5 * ff))
    assert report.barrage == (5 * ff,)


def test_a_disabled_ship_in_port_counts_for_the_barrage_but_never_fights():
    """§6 [S]: ship dice = floor(defender's ships in port "not sunk or captured" / 4) — a disabled ship
    counts; but only ships in the line fire or are fired on (§5), so it is never a target."""
    from dataclasses import replace

    port_side = in_port(5)
    crippled = replace(port_side.ships[4], condition="disabled")
    port_side = replace(port_side, ships=(*port_side.ships[:4], crippled))
    faces = [1] * 16 + [1] * 8 + [1] * 3  # barrage, 8 attackers on the 4 in the line, 3 admiral dice
    report = guns(rtg(attackers(24, admiral="C"), port_side, ALEXANDRIA, 1), faces)
    assert report.barrage == (16,)
    assert all(target != crippled.name for _, target, _ in shots(report))
    assert fate(report, crippled.name) == "disabled"


def test_only_the_ports_ships_may_start_disabled():
    """CONTRACT: a ship's condition is ready or damaged; disabled is accepted only in the port whose
    guns are run, where it counts for the barrage."""
    from dataclasses import replace

    from battles.engine import SpecError

    french = attackers(3)
    with pytest.raises(SpecError, match=r"sides\[0\]\.ships\[0\]\.condition"):
        rtg(
            replace(french, ships=(replace(french.ships[0], condition="disabled"), *french.ships[1:])),
            in_port(2),
            ALEXANDRIA,
        )
