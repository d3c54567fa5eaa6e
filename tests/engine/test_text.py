"""The readable reports: divisions, rounds, integrity, end of day, fates; engagements; odds."""

from __future__ import annotations

from battles.engine import (
    BattleSpec,
    PortSpec,
    Ruleset,
    ScriptedDice,
    SeededDice,
    fight_day,
    fight_engagement,
    render_engagement,
    render_odds,
    render_report,
    simulate_odds,
)

from .helpers import day, fleet, garrison, guns, side


def test_lines_are_grouped_in_divisions_of_about_twenty_ships():
    """§5: "Divisions of about 20 ships are a grouping of consecutive pairs in the text report
    only" — 30 pairs make a division of 20 and one of 10."""
    report = day(fleet(side("A", 30), side("B", 30), 1), [6, 1] + [1] * 60)
    text = render_report(report)
    assert "Division 1" in text and "Division 2" in text and "Division 3" not in text
    block = text.split("Division 2")[0].split("Division 1")[1]
    assert block.count("  v  ") == 20


def test_the_division_size_is_a_setting():
    report = day(fleet(side("A", 30), side("B", 30), 1), [6, 1] + [1] * 60)
    assert "Division 3" in render_report(report, Ruleset.from_flat({"battle.division_size": 10}))


def test_the_text_report_tells_the_day_die_by_die():
    faces = [6, 1, 5, 5, 9, 1, 1, 1, 1, 2, 10, 3]  # A's admiral misses twice; B retires, towing B1, B2
    text = render_report(day(fleet(side("A", 4, admiral="D"), side("B", 4), 1), faces))
    for words in (
        "Fast Fleet Action (dice given), at most 1 round",
        "A  A (FR); admiral Admiral A (D); crew D — 4 ships",
        "Initiative: A 6, B 1 → A",
        "fire: A1 → B1: d10 5 → damaged",
        "Integrity B: L = 1/4 (−0 for L): d6 2+0=2 → retires",
        "towing B1: d10 10 → sunk",
        "B3 (B), disabled, is captured by A",
        "admiral: A1 → B4: d10 1 → none",
        "Result: A wins; A held, B retired. 1 round(s), 12 dice.",
    ):
        assert words in text, words


def test_running_the_guns_text_shows_the_barrage_and_the_forts():
    spec = BattleSpec("running_the_guns", (side("A", 2), side("P", 0, navy="EG")), port=PortSpec(1, "Acre"))
    text = render_report(guns(spec, [7, 1, 1, 1, 1]))
    assert "Port: Acre, fortification 1; coastal forts 1" in text
    assert "Barrage: 5 dice due" in text
    assert "barrage fort: the port's guns → A1: d10 7+1=8 → aground" in text


def test_garrison_guns_text():
    spec = BattleSpec("garrison_guns", (side("A", 1), side("G", 0, navy="GB")), port=PortSpec(1, "Malta"))
    assert "Garrison guns (dice given)" in render_report(garrison(spec, [1] * 5))


def test_an_engagement_renders_each_day_and_the_pursuit():
    faces = [6, 1, 6, 1, 1, 1, 1, 9, 1, 1, 1, 4, 5, 3, 3, 1, 1, 6, 1, 1, 1, 1, 1, 1, 1, 1]
    rules = Ruleset.from_flat({"battle.max_days": 2})
    report = fight_engagement(fleet(side("A", 4), side("B", 4), 1), ScriptedDice(faces), rules)
    text = render_engagement(report)
    assert "=== Day 1 — weather gauge: A 6+0=6, B 1+0=1 → A ===" in text
    assert "Decisions: A continues, B evades" in text
    assert "Pursuit by A: sighting d6 5+0=5 → sighted" in text
    assert "Intercept: A 3+0=3, B 3+0=3 → intercepted" in text
    assert "=== Day 2" in text


def test_odds_report_progress_and_read_as_text():
    calls: list[tuple[int, int]] = []
    spec = fleet(side("A", 3), side("B", 3))
    odds = simulate_odds(spec, 250, seed=3, progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (250, 250)
    assert len(calls) <= 126
    text = render_odds(odds, spec)
    assert text.startswith("250 runs (seed 3)")
    assert "A wins:" in text and "Mean ships per fate:" in text


def test_a_seeded_report_names_its_seed():
    report = day(fleet(side("A", 1), side("B", 1), 1), [6, 1, 1, 1])
    assert report.seed is None
    assert render_report(fight_day(fleet(side("A", 1), side("B", 1), 1), SeededDice(12))).startswith(
        "Fast Fleet Action (seed 12)"
    )
