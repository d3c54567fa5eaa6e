"""The assault aid of a storming fought on the table: seed 003's fire procedure (003_c4e3f888d3ea5fbd.txt,
La Bataille Premier Rules, page 24) with the forces' factors read from the ruleset's table settings.

Each test quotes the seed line it implements, verbatim.
"""

from __future__ import annotations

from rules.dice import ScriptedDice
from rules.ruleset import DEFAULT_RULESET as R
from rules.ruleset import Ruleset
from rules.strategic_log import StrategicLog
from rules.tabletop.storming import (
    Besiegers,
    assault_fire_table,
    fire_rolled_text,
    roll_storming_fires,
    storming_fires,
)


def test_a_siege_train_fires_as_the_seeds_battery_at_medium_range() -> None:
    """Seed 003: "The batteries are at four hexes distant from the infantry and therefore at medium range
    where they both fire 7." — the only range the seed gives a battery's fire factor for."""
    assert R["table.battery_fire_factor"] == 7
    attack, _ = storming_fires(
        besiegers=[Besiegers("France", 1, 1)],
        garrison=1,
        garrison_name="Spain",
        fortification=0,
        gibraltar=False,
        batteries=0,
        ruleset=R,
    )
    [train] = attack.lines
    assert (train.what, train.count, train.factor, train.total) == ("France: siege trains (as batteries)", 1, 7, 7)


def test_the_seeds_example_odds_two_batteries_against_a_line_in_clear_terrain() -> None:
    """Seed 003: "Their combined fire equals 14. The fire defense of a line formation with less than
    seven increments is 9 in clear terrain. This translates into 14 to 9 or 1 1/2 to 1 on the Fire
    Combat Chart ." — the garrison's two batteries against a besieging unit in line in the open."""
    _, sally = storming_fires(
        besiegers=[Besiegers("France", 1)],
        garrison=0,
        garrison_name="Spain",
        fortification=0,
        gibraltar=False,
        batteries=2,
        ruleset=R,
    )
    assert (sally.total, sally.defence, sally.exact, sally.column) == (14, 9, "14 to 9", "1.5\u20131")


def test_each_side_totals_its_factors_and_the_odds_are_rounded_down() -> None:
    """Seed 003: "To fire against a hex, simply total the eligible fire factors and compare this sum to
    the fire defense factor. [...] Establish the odds (round any fractions down)"."""
    ruleset = Ruleset.from_flat({"table.land_unit_fire_factor": 5, "table.works_fire_defence": 20})
    attack, sally = storming_fires(
        besiegers=[Besiegers("France", 3, 1), Besiegers("Spain", 2)],
        garrison=2,
        garrison_name="Great Britain",
        fortification=2,
        gibraltar=False,
        batteries=1,
        ruleset=ruleset,
    )
    assert [(line.what, line.total) for line in attack.lines] == [
        ("France: land units", 10),
        ("France: siege trains (as batteries)", 7),
        ("Spain: land units", 10),
    ]
    # 27 against 20 = 1.35: rounded down to 1–1, not 1.5–1.
    assert (attack.total, attack.defence, attack.column) == (27, 20, "1\u20131")
    # 2 units at 5, 2 forts and a battery at 7: 31 against 9 = 3.4: 3–1.
    assert (sally.total, sally.column) == (31, "3\u20131")
    printed = assault_fire_table(attack)
    assert printed.rows[-1] == ("Total", "", "", "27")
    assert any("27 against 20 is 27 to 20; rounded down, read the column 1\u20131" in n for n in printed.notes)


def test_fire_below_the_chart_causes_no_loss() -> None:
    """Odds worse than the chart's lowest column cause no loss (house reading of "find the result on the
    Fire Combat Chart"); a side with nothing to fire prints 0."""
    attack, _ = storming_fires(
        besiegers=[Besiegers("France", 1)],
        garrison=1,
        garrison_name="Spain",
        fortification=0,
        gibraltar=False,
        batteries=0,
        ruleset=Ruleset.from_flat({"table.works_fire_defence": 100}),
    )
    assert attack.column == "below 1\u20133: no loss"


def test_the_server_rolls_the_besiegers_fire_then_the_garrisons_tens_then_units() -> None:
    """Seed 003: "The dice are rolled with a result of 43. By cross-indexing the dice roll of 43 with
    the odds column, 1.5 – 1, we see that “1” is the result." — here the garrison's two batteries
    (14 against 9: 1.5–1) roll 4 then 3; the besiegers (6 against the works' 18: below 1–2, 1–3)
    roll first, 6 then 6."""
    fires = storming_fires(
        besiegers=[Besiegers("France", 1)],
        garrison=0,
        garrison_name="Spain",
        fortification=0,
        gibraltar=False,
        batteries=2,
        ruleset=R,
    )
    log = StrategicLog()
    attack, sally = roll_storming_fires(ScriptedDice([6, 6, 4, 3]), log, place="cadiz", fires=fires)
    assert (attack.attack, attack.defence, attack.roll, attack.column and attack.column.label) == (
        6,
        18,
        66,
        "1\u20133",
    )
    assert fire_rolled_text(attack) == "dice 6 and 6 (66), column 1\u20133: 1 increment lost"
    assert (sally.attack, sally.defence, sally.roll, sally.increments_lost) == (14, 9, 43, 1)
    assert fire_rolled_text(sally) == "dice 4 and 3 (43), column 1.5\u20131: 1 increment lost"
    assert [(d.purpose, d.place, d.subject, d.die, d.raw) for d in log] == [
        ("fire_combat", "cadiz", "besiegers", "d6", 6),
        ("fire_combat", "cadiz", "besiegers", "d6", 6),
        ("fire_combat", "cadiz", "garrison", "d6", 4),
        ("fire_combat", "cadiz", "garrison", "d6", 3),
    ]


def test_a_rolled_fire_below_the_chart_says_no_loss_and_plurals_are_right() -> None:
    """Odds worse than the chart's lowest column cause no loss, whatever the dice; seed 003: "The
    result is the number of increments lost." """
    fires = storming_fires(
        besiegers=[Besiegers("France", 1)],
        garrison=3,
        garrison_name="Spain",
        fortification=3,
        gibraltar=False,
        batteries=3,
        ruleset=Ruleset.from_flat({"table.works_fire_defence": 100}),
    )
    attack, sally = roll_storming_fires(ScriptedDice([6, 6, 6, 6]), StrategicLog(), place="cadiz", fires=fires)
    assert (attack.column, attack.increments_lost) == (None, 0)
    assert fire_rolled_text(attack) == "dice 6 and 6 (66): odds below the chart, no loss"
    assert sally.increments_lost > 1
    assert fire_rolled_text(sally).endswith(f"{sally.increments_lost} increments lost")
