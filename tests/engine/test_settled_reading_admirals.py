"""RULES.md §12.11, the settled reading of §0 "Admirals" and §5 "End of the day" for an admiral whose
flagship is boarded: the engine's fates (injected dice) and the campaign's reading of them."""

from __future__ import annotations

from dataclasses import replace

from battles.engagements.applying import _side_admiral_lost
from battles.engine import Ruleset, ScriptedDice, fight_engagement

from .helpers import fleet, ships, side


def _engage(faces: list[int]):
    dice = ScriptedDice(faces)
    # A: the flagship A1 (admiral grade D: modifier 0, 2 extra dice a round) and A2; B: one ship. Each
    # ship carries a ref, as the campaign's do (its database id), since the campaign reads fates by ref.
    a = [replace(s, ref=k) for k, s in enumerate(ships("A", 2), 1)]
    b = [replace(s, ref=3) for s in ships("B", 1)]
    spec = fleet(side("A", a, admiral="D"), side("B", b), 1)
    report = fight_engagement(spec, dice, Ruleset.from_flat())
    assert dice.unused == [], f"dice left over: {dice.unused}"
    return report


def test_12_11_a_flagship_abandoned_by_a_beaten_captor_brings_the_admiral_back() -> None:
    """§12.11: "a flagship retaken, or abandoned by a captor that retired, broke or was beaten, brings
    him back (his extra dice still stop for the rest of the day from the moment it was taken, §5)."

    A1, the flagship, is taken in its own failed boarding; A2 then sinks B1, so B is beaten and
    abandons its prize: A1 ends the battle with its owner, and the admiral is not lost."""

    faces = [6, 1]  # gauge: A
    faces += [6, 1]  # initiative: A
    faces += [8, 1, 6]  # A1 fires an 8 and loses its own boarding (1 v 6): B takes the flagship
    faces += [10, 1]  # A2 sinks B1 (no explosion); the admiral's two dice are not rolled (flagship taken)
    report = _engage(faces)
    day = report.days[0].report
    assert all(d["purpose"] != "admiral" for d in day.dice())  # his dice stopped from the moment it was taken
    assert report.winner == 0 and report.outcome[1] == "beaten"
    fates = {s.name: (s.fate, s.captured_by) for s in report.ships}
    assert fates["A1"] == ("intact", None)  # abandoned by the beaten captor: back with its owner
    assert fates["B1"][0] == "sunk"
    assert not _side_admiral_lost(report, 0)  # so the admiral is not lost


def test_12_11_a_flagship_left_in_enemy_hands_loses_the_admiral() -> None:
    """§12.11: "An admiral whose flagship ends the battle sunk or in enemy hands is lost".

    The same boarding, but A retires and B, which held, keeps A1: the admiral is lost."""

    faces = [6, 1]  # gauge: A
    faces += [6, 1]  # initiative: A
    faces += [8, 1, 6]  # B takes the flagship A1 in A1's own boarding
    faces += [1]  # A2 misses; no admiral dice
    faces += [1]  # B1 misses A2
    faces += [6]  # A checks at L = 1/2: 6 − 2 − 1 (flagship captured) = 3: retires; B holds and keeps A1
    report = _engage(faces)
    assert report.outcome == ("retired", "held") and report.winner == 1
    fates = {s.name: (s.fate, s.captured_by) for s in report.ships}
    assert fates["A1"] == ("captured", 1)
    assert _side_admiral_lost(report, 0)
