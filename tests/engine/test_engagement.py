"""Multi-day engagements (RULES.md §5 "End of the day", last sentences; §4 gauge and pursuit)."""

from __future__ import annotations

from fractions import Fraction

from battles.engine import (
    EngagementContext,
    EngagementSide,
    Ruleset,
    ScriptedDice,
    fight_engagement,
)

from .helpers import fleet, side

DAY1 = (6, 1, 6, 1, 1, 1, 1, 9, 1, 1, 1, 4)  # gauge to A; A4 disables B4; B holds at L = 1/4


def engage(spec, faces, ruleset=None, context=None):
    dice = ScriptedDice(faces)
    report = fight_engagement(spec, dice, ruleset or Ruleset.from_flat(), context)
    assert dice.unused == [], f"dice left over: {dice.unused}"
    return report


def test_after_a_day_both_held_the_side_with_higher_l_evades_and_is_pursued():
    """§5: "after a day in which both held, each side continues or evades by its standing order
    (default: evade if its L is higher); a pursuer re-sights at +1 and intercepts"; §4: the pursuer
    gets +1 on the next day's gauge; "at most 3 days"."""
    faces = [*DAY1]
    faces += [5, 3, 3]  # A re-sights (open sea 5+: no light ships −1, pursuit +1) and intercepts (≥)
    faces += [1, 1] + [6, 1] + [1] * 4 + [1] * 3  # day 2: gauge 1+1 v 1 to A; 4 v 3, nothing hits
    faces += [6, 1] + [6, 1] + [1] * 4 + [1] * 3  # equal L: both continue; day 3, the last
    report = engage(fleet(side("A", 4), side("B", 4), 1), faces)
    assert len(report.days) == 3
    pursuit = report.pursuits[0]
    assert pursuit.decisions == ("continue", "evade")
    assert pursuit.pursuer == 0
    assert pursuit.sighting is not None and pursuit.sighting.sighted
    assert dict(pursuit.sighting.modifiers) == {"no light ships": -1, "pursuit": 1}
    assert pursuit.intercept is not None and pursuit.intercept.intercepted
    assert [d.mod for d in report.days[1].gauge.dice] == [1, 0]
    assert report.pursuits[1].decisions == ("continue", "continue")
    assert [d.mod for d in report.days[2].gauge.dice] == [0, 0]
    b4 = next(s for s in report.ships if s.name == "B4")
    assert (b4.fate, b4.captured_by) == ("captured", 0)  # day 1's winner took it
    assert len(report.days[1].report.spec.sides[1].ships) == 3


def test_an_evader_that_is_not_sighted_escapes():
    """§5 / seed: "If not, then the evading fleet leaves the contested sea zone"."""
    report = engage(fleet(side("A", 4), side("B", 4), 1), [*DAY1, 4])
    assert len(report.days) == 1
    assert report.outcome == ("held", "evaded")
    assert report.winner == 0


def test_an_engagement_lasts_at_most_max_days():
    """§5: "at most 3 days per zone per turn" — ``battle.max_days``."""
    report = engage(fleet(side("A", 4), side("B", 4), 1), list(DAY1), Ruleset.from_flat({"battle.max_days": 1}))
    assert len(report.days) == 1
    assert report.pursuits == ()


def test_standing_orders_decide_who_evades():
    """§3/§5: each side "continues or evades by its standing order" — here B never evades and A
    evades at any L (evade_at 0); A evades, B pursues and fails to sight it."""
    context = EngagementContext(sides=(EngagementSide(evade_at=Fraction(0)), EngagementSide(evade_at=Fraction(2))))
    report = engage(fleet(side("A", 4), side("B", 4), 1), [*DAY1, 2], context=context)
    assert report.pursuits[0].decisions == ("evade", "continue")
    assert report.pursuits[0].pursuer == 1
    assert report.outcome == ("evaded", "held")


def test_when_both_evade_the_engagement_ends():
    context = EngagementContext(sides=(EngagementSide(evade_at=Fraction(0)), EngagementSide(evade_at=Fraction(0))))
    report = engage(fleet(side("A", 4), side("B", 4), 1), list(DAY1), context=context)
    assert report.outcome == ("evaded", "evaded")


def test_an_admiral_whose_flagship_is_sunk_is_lost_for_the_next_day():
    """§0: "An admiral whose flagship is sunk or captured in battle is lost". On day 2 side A has
    no admiral: no gauge grade, no admiral dice."""
    faces = [6, 1]  # day 1 gauge: A (admiral G, −1): 5 v 1
    faces += [6, 1, 1, 1, 1, 1, 1]  # A's initiative; A1–A4 and one admiral die miss
    faces += [10, 1, 1, 1, 1]  # B1 sinks A1 (no explosion); B2–B4 miss
    faces += [6]  # A: L = 1/4, −1 grade G −1 flagship: 6 − 2 = 4 holds. B wins on lower L
    faces += [6, 3, 3]  # A evades (higher L); B re-sights with a natural 6 and intercepts
    faces += [1, 1]  # day 2 gauge: B 1+1 v A 1+0 (no admiral now)
    faces += [6, 1, 1, 1, 1, 1, 1, 1, 1]  # B (side A of the day) first; 4 v 3, nobody hits
    report = engage(fleet(side("A", 4, admiral="G"), side("B", 4), 1), faces, Ruleset.from_flat({"battle.max_days": 2}))
    second = report.days[1]
    assert second.gauge.winner == 1
    assert second.report.first == 1
    assert second.report.spec.sides[0].admiral is None
    assert all(d["purpose"] != "admiral" for d in second.report.dice())
    assert [d.mod for d in second.gauge.dice] == [0, 1]


def test_disabled_ships_a_side_kept_are_captured_by_a_later_days_winner():
    """§5: with no winner each side keeps its own disabled ships; they are still the loser's
    disabled ships when a later day has a winner."""
    faces = [6, 1, 6, 1, 1, 1, 1, 9, 1, 1, 9, 4, 4]  # day 1: A3 and B4 disabled, equal L, no winner
    faces += [6, 1, 6, 1, 1, 1, 9, 1, 1, 4]  # day 2: A4 disables B3; B holds; A wins on lower L
    report = engage(fleet(side("A", 4), side("B", 4), 1), faces, Ruleset.from_flat({"battle.max_days": 2}))
    fates = {s.name: (s.fate, s.captured_by) for s in report.ships}
    assert report.days[0].report.winner is None
    assert fates["B4"] == ("captured", 0)
    assert fates["B3"] == ("captured", 0)
    assert fates["A3"] == ("disabled", None)


def test_the_interceptor_gets_the_first_days_gauge_bonus_and_a_fleet_at_sea_by_a_besieged_port_two():
    """§4: gauge "+ the side that intercepted … +1 + [S] +2 for the fleet at sea next to a besieged
    port"; the ships caught at anchor are so on day 1 only, and if they evade they stay in port."""
    context = EngagementContext(interceptor=0, in_port_side=1)
    b = side("B", 4, at_anchor=True)
    faces = [1, 1]  # gauge: A 1 + 1 + 2 v B 1
    faces += [1, 1, 1, 9, 1, 1, 1, 4]  # no initiative roll in round 1: B is at anchor
    report = engage(fleet(side("A", 4), b, 1), faces, context=context)
    assert [d.mod for d in report.days[0].gauge.dice] == [3, 0]
    assert report.pursuits[0].decisions == ("continue", "evade")
    assert report.pursuits[0].sighting is None  # it stays in port: no pursuit
    assert report.outcome == ("held", "evaded")


def test_the_engagement_dice_replay_from_its_own_log():
    """§5: "a day replays identically from its seed or from a list of dice entered by hand"."""
    faces = [*DAY1, 5, 3, 3, 1, 1, 6, 1, 1, 1, 1, 1, 1, 1, 1, 6, 1, 6, 1, 1, 1, 1, 1, 1, 1, 1]
    first = engage(fleet(side("A", 4), side("B", 4), 1), faces)
    assert first.raw_dice == faces
    again = engage(fleet(side("A", 4), side("B", 4), 1), first.raw_dice)
    assert again.to_json() == first.to_json()
