"""RULES.md §3 "Strategic dice": the stored record of every roll outside battles."""

from __future__ import annotations

import pytest

from rules.dice import ScriptedDice
from rules.strategic_log import PURPOSES, StrategicDie, StrategicLog, StrategicLogError


def test_a_roll_is_stored_with_purpose_place_die_raw_modifier_and_result() -> None:
    """§3 "stored in the turn's dice log with purpose, place, die, raw, modifier and result"."""
    log = StrategicLog()
    record = log.roll(ScriptedDice([4]), purpose="siege", place="malta", die="d10", mod=-3, subject="port:malta")
    assert record == StrategicDie("siege", "malta", "d10", 4, -3, 1, "port:malta")
    assert log.records == (record,)


def test_the_faces_of_a_log_replay_it() -> None:
    """§3 dice "seeded [...]" and replayable: feeding the raw faces back rolls the same dice."""
    log = StrategicLog()
    dice = ScriptedDice([6, 2, 5])
    log.roll(dice, purpose="storm", place="biscay", die="d6")
    log.roll(dice, purpose="storm_damage", place="biscay", die="d10", subject="ship:1")
    log.roll(dice, purpose="storm", place="channel", die="d6")
    replay = StrategicLog()
    again = ScriptedDice(log.faces())
    for r in log:
        replay.roll(again, purpose=r.purpose, place=r.place, die=r.die, mod=r.mod, subject=r.subject)
    assert replay.records == log.records
    assert [r.place for r in log.for_place("biscay")] == ["biscay", "biscay"]


def test_records_round_trip_through_json_data() -> None:
    """The stored form (a JSON object per die) restores the same record."""
    record = StrategicDie("fireship", "toulon", "d10", 10, -2, 10, "fireship:3>ship:4", "sunk")
    assert StrategicDie.from_dict(record.to_dict()) == record
    log = StrategicLog([record])
    assert log.to_list() == [record.to_dict()]


def test_a_malformed_record_is_refused_with_the_field_named() -> None:
    """An unknown purpose, a face the die does not have or a missing field is an error naming it."""
    with pytest.raises(StrategicLogError, match="purpose"):
        StrategicDie("weather", "biscay", "d6", 3, 0, 3)
    with pytest.raises(StrategicLogError, match="raw"):
        StrategicDie("storm", "biscay", "d6", 7, 0, 7)
    with pytest.raises(StrategicLogError, match="die"):
        StrategicDie.from_dict({"purpose": "storm", "place": "x", "die": "d8", "raw": 1, "mod": 0, "result": 1})
    with pytest.raises(StrategicLogError, match="mod: missing"):
        StrategicDie.from_dict({"purpose": "storm", "place": "x", "die": "d6", "raw": 1, "result": 1})


def test_the_purposes_cover_every_strategic_roll_of_the_rules() -> None:
    """§3 "sighting, intercept, gauge, sieges, storms, attrition, garrison barrages, fireships"."""
    assert {
        "sighting",
        "intercept",
        "gauge",
        "siege",
        "storm",
        "storm_damage",
        "attrition",
        "attrition_unit",
        "barrage_fort",
        "barrage_battery",
        "hot_shot",
        "fireship_fort",
        "fireship",
    } <= PURPOSES


def test_the_tabletop_purposes_are_stored_like_any_other_roll() -> None:
    """Issue 15: the pack's dice are "logged in the same canonical dice log as automatic battles"."""
    tabletop = {
        "wind_initial",
        "wind_change",
        "wind_speed",
        "setup",
        "tide_effect",
        "grounding",
        "unstick",
        "marsh_passage",
        "fort_fire_back",
        "fort_clear",
        "fire_combat",
    }
    assert tabletop <= PURPOSES
    for purpose in sorted(tabletop):
        die = StrategicDie(purpose=purpose, place="gibraltar", die="d6", raw=4, mod=0, result=4)
        assert StrategicDie.from_dict(die.to_dict()) == die
