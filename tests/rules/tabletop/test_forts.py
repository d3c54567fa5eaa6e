"""Seed 002 (002_be804442a497452b.txt, Blood, Bilge & Iron Balls: forts and shore batteries), and the
port's forts as the campaign counts them (RULES.md §6).

Each test quotes the seed line it implements, verbatim.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import ScriptedDice, SeededDice
from rules.ruleset import DEFAULT_RULESET, LINE_CLASSES, SHIP_CLASSES, Ruleset
from rules.strategic_log import StrategicLog
from rules.tabletop.forts import (
    FORT_EXTREME_RANGE_INCHES,
    FORT_FIRE_MODIFIER,
    FORT_HIT_TABLE,
    FortHitEffect,
    FortSize,
    RangeBand,
    clear_gun_for,
    fire_at_fort_for,
    fort_firing_table,
    fort_hit_row,
    fort_hits_table,
    fort_mapping_table,
    fort_may_fire,
    fort_profile,
    fort_size_for,
    fort_sizes_table,
    port_forts,
    port_forts_table,
    roll_clear_gun,
    roll_fire_at_fort,
    ship_may_fire_at_fort,
    shore_battery_table,
)

R = DEFAULT_RULESET

# --- The forts -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "per_sector"), [("small", 1), ("medium", 2), ("large", 3)])
def test_guns_per_sector(size: str, per_sector: int) -> None:
    """002: "All forts will have a 180 degree firing arc that will be divided into four 45 degree
    sectors. ... Small Forts have one gun per sector, Medium Forts two guns per sector and Large Forts
    three guns per sector."."""
    profile = fort_profile(size)
    assert (profile.guns_per_sector, profile.sectors, profile.arc_degrees) == (per_sector, 4, 180)
    assert profile.guns == 4 * per_sector


def test_fort_sizes_printable_rows() -> None:
    """002: "Forts can be Small, Medium or Large in size" / "Small Forts have one gun per sector,
    Medium Forts two guns per sector and Large Forts three guns per sector"."""
    assert fort_sizes_table().rows == (
        ("Small", "1", "4 over 180°", "4"),
        ("Medium", "2", "4 over 180°", "8"),
        ("Large", "3", "4 over 180°", "12"),
    )
    assert any("no gun can fire into the arc of its neighbour" in n for n in fort_sizes_table().notes)
    with pytest.raises(ValueError, match="fort size: 'huge' is not small, medium or large"):
        fort_profile("huge")


@pytest.mark.parametrize("band", [RangeBand.POINT_BLANK, RangeBand.CLOSE])
def test_forts_cannot_fire_at_point_blank_or_close(band: RangeBand) -> None:
    """002: "Fort Guns fire during their sides Firing Phase with a +1 modifier but have a minimum
    range; they cannot target anything at point blank or Close Range."."""
    permission = fort_may_fire(band)
    assert not permission.allowed
    assert f"cannot target anything at {band.label} range" in permission.reason


def test_forts_fire_at_long_and_extreme_to_thirty_inches_at_plus_one() -> None:
    """002: "Also, Extreme Range is extended for Fort Guns by six inches to a maximum of thirty inches
    rather than the usual twenty four." and "with a +1 modifier"."""
    assert FORT_FIRE_MODIFIER == 1
    assert FORT_EXTREME_RANGE_INCHES == 30
    assert fort_may_fire(RangeBand.LONG).allowed
    assert fort_may_fire("extreme", 30).allowed
    assert fort_may_fire(RangeBand.EXTREME, 27.5).allowed
    refused = fort_may_fire(RangeBand.EXTREME, 30.5)
    assert not refused.allowed and "30 inches at most" in refused.reason


def test_fort_firing_printable_rows() -> None:
    """002: "with a +1 modifier", "cannot target anything at point blank or Close Range", "a maximum of
    thirty inches rather than the usual twenty four", "must fire at the nearest ship in the chosen
    range band", "will also inflict three Crew Star hits rather than the usual one, cause a fire and
    draw the usual Damage Card", "Ships firing at Forts must Fourth Rates or above and be at Long Range
    but, they will only hit on a d6 score of 6", "Firer rolls one d6 per available gun."."""
    rows = {r[0]: r[1] for r in fort_firing_table().rows}
    assert rows["Fort fire modifier"] == "+1"
    assert rows["Fort minimum range"] == "Cannot target anything at point blank or close range"
    assert rows["Fort extreme range"] == "Extended by 6 inches to 30 inches (usually 24)"
    assert rows["Fort target"] == "Any range band, but the nearest ship in the chosen band"
    assert "3 Crew Star hits (not 1), a fire and the usual Damage Card" in rows["Fort gun hits"]
    assert rows["Ships firing at a fort"] == "Fourth rates or above only, at long range only, hitting on a 6"
    assert rows["Ship's dice"] == "One d6 per available gun"


@pytest.mark.parametrize("ship_class", SHIP_CLASSES)
@pytest.mark.parametrize("band", list(RangeBand))
def test_ships_fire_at_forts_only_fourth_rates_or_above_at_long_range(ship_class: str, band: RangeBand) -> None:
    """002: "Ships firing at Forts must Fourth Rates or above and be at Long Range"."""
    permission = ship_may_fire_at_fort(ship_class, band)
    assert permission.allowed == (ship_class in LINE_CLASSES and band is RangeBand.LONG)
    if ship_class not in LINE_CLASSES:
        assert permission.reason == "only fourth rates or above may fire at a fort"


def test_fourth_rates_are_the_smallest_that_may_fire() -> None:
    """002: "Ships firing at Forts must Fourth Rates or above"."""
    assert ship_may_fire_at_fort("4th", "long").allowed
    assert not ship_may_fire_at_fort("heavy-frigate", "long").allowed
    with pytest.raises(ValueError, match="ship class: 'xebec' is not one of"):
        ship_may_fire_at_fort("xebec", "long")


# --- The table of sixes --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sixes", "effect", "seed_line"),
    [
        (0, FortHitEffect.NONE, "they will only hit on a d6 score of 6"),
        (1, FortHitEffect.SILENCED_ONE_TURN, "One 6 = One gun in quadrant silenced for one turn."),
        (
            2,
            FortHitEffect.SILENCED_UNTIL_CLEARED,
            "Two 6’s = One gun in quadrant silenced until cleared with roll of 5 or 6.",
        ),
        (3, FortHitEffect.GUN_DESTROYED, "Three 6’s = One gun in quadrant destroyed."),
        (
            4,
            FortHitEffect.GUN_DESTROYED_FORT_SILENCED,
            "Four or more 6’s = One gun in quadrant destroyed and whole fort silenced for one turn",
        ),
        (
            7,
            FortHitEffect.GUN_DESTROYED_FORT_SILENCED,
            "Four or more 6’s = One gun in quadrant destroyed and whole fort silenced for one turn",
        ),
    ],
)
def test_table_of_sixes(sixes: int, effect: FortHitEffect, seed_line: str) -> None:
    """002: "Firer rolls one d6 per available gun." and the line ``seed_line``."""
    assert fort_hit_row(sixes).effect is effect
    faces = [6] * sixes + [5, 1]
    assert fire_at_fort_for(faces).effect is effect
    assert fire_at_fort_for(faces).sixes == sixes


def test_fort_hits_printable_rows() -> None:
    """002: "One 6 = One gun in quadrant silenced for one turn." / "Two 6’s = One gun in quadrant
    silenced until cleared with roll of 5 or 6." / "Three 6’s = One gun in quadrant destroyed." /
    "Four or more 6’s = One gun in quadrant destroyed and whole fort silenced for one turn" and "Any
    hits on the Fort will first silence the guns for a turn with excess hits destroying them."."""
    assert fort_hits_table().rows == (
        ("1", "One gun in the quadrant silenced for one turn"),
        ("2", "One gun in the quadrant silenced until cleared with a roll of 5 or 6"),
        ("3", "One gun in the quadrant destroyed"),
        ("4 or more", "One gun in the quadrant destroyed and the whole fort silenced for one turn"),
    )
    assert fort_hits_table().notes == ("Hits first silence the guns for a turn; excess hits destroy them.",)
    assert len(FORT_HIT_TABLE) == 5


@given(st.lists(st.integers(min_value=1, max_value=6), min_size=1, max_size=40))
def test_more_sixes_never_do_less(faces: list[int]) -> None:
    """002: "Any hits on the Fort will first silence the guns for a turn with excess hits destroying
    them." — only sixes count, and the effect grows with them."""
    order = list(FortHitEffect)
    result = fire_at_fort_for(faces)
    assert result.sixes == faces.count(6)
    more = fire_at_fort_for([*faces, 6])
    assert order.index(more.effect) >= order.index(result.effect)


def test_roll_fire_at_fort_one_die_per_gun_logged() -> None:
    """002: "Firer rolls one d6 per available gun." — a 74 at long range with 3 guns bearing."""
    log = StrategicLog()
    result = roll_fire_at_fort(
        ScriptedDice([6, 2, 6]), log, place="gibraltar", ship_class="3rd-74", band="long", guns=3, subject="ship:4"
    )
    assert (result.faces, result.sixes, result.effect) == ((6, 2, 6), 2, FortHitEffect.SILENCED_UNTIL_CLEARED)
    assert [(d.purpose, d.raw, d.subject) for d in log] == [("fort_fire_back", f, "ship:4") for f in (6, 2, 6)]


def test_roll_fire_at_fort_refuses_without_rolling() -> None:
    """002: "Ships firing at Forts must Fourth Rates or above and be at Long Range"."""
    log = StrategicLog()
    with pytest.raises(ValueError, match="only fourth rates or above"):
        roll_fire_at_fort(ScriptedDice([6]), log, place="z", ship_class="frigate", band="long", guns=1)
    with pytest.raises(ValueError, match="only from long range, not close range"):
        roll_fire_at_fort(ScriptedDice([6]), log, place="z", ship_class="1st", band="close", guns=1)
    with pytest.raises(ValueError, match="at least one available gun, got 0"):
        roll_fire_at_fort(ScriptedDice([6]), log, place="z", ship_class="1st", band="long", guns=0)
    assert len(log) == 0


@pytest.mark.parametrize(("face", "cleared"), [(1, False), (2, False), (3, False), (4, False), (5, True), (6, True)])
def test_clearing_a_silenced_gun_on_5_or_6(face: int, cleared: bool) -> None:
    """002: "Two 6’s = One gun in quadrant silenced until cleared with roll of 5 or 6."."""
    assert clear_gun_for(face).cleared is cleared
    log = StrategicLog()
    assert roll_clear_gun(ScriptedDice([face]), log, place="z").cleared is cleared
    assert [d.purpose for d in log] == ["fort_clear"]


# --- The port's forts (RULES.md §6 with the house size mapping) -----------------------------------


def test_gibraltar_has_six_large_forts() -> None:
    """RULES.md §6: "Coastal forts = Fortification factor (Gibraltar 2 × = 6) [S]"; 002: "the Large
    Forts should be reserved for the very largest historical precedents in a scenario."."""
    forts = port_forts(fortification=3, gibraltar=True, batteries=0, ruleset=R)
    assert forts.coastal_forts == 6
    ((group,),) = (forts.groups,)
    assert (group.count, group.profile.size, group.guns) == (6, FortSize.LARGE, 72)
    table = port_forts_table(forts, "Gibraltar")
    assert table.title == "Forts of Gibraltar: 6 coastal forts"
    assert table.rows == (
        (
            "6 coastal forts",
            "Large",
            "3 guns",
            "72 guns",
            "2 × fortification factor 3 (Gibraltar); large for factor 3 or more",
        ),
    )


def test_gibraltars_batteries_are_small_forts_beside_its_six() -> None:
    """002: "In an attempt to keep things simple all land based guns will be considered to be in forts
    unless an historical scenario dictates otherwise."."""
    forts = port_forts(fortification=3, gibraltar=True, batteries=3, ruleset=R)
    assert [(g.kind, g.count, g.profile.size) for g in forts.groups] == [
        ("coastal forts", 6, FortSize.LARGE),
        ("artillery batteries", 3, FortSize.SMALL),
    ]
    assert (forts.forts, forts.guns) == (9, 72 + 12)
    assert port_forts_table(forts, "Gibraltar").title == "Forts of Gibraltar: 6 coastal forts, 3 artillery batteries"


@pytest.mark.parametrize(
    ("ff", "size"), [(0, None), (1, FortSize.SMALL), (2, FortSize.MEDIUM), (3, FortSize.LARGE), (5, FortSize.LARGE)]
)
def test_fort_size_from_the_fortification_factor(ff: int, size: FortSize | None) -> None:
    """RULES.md §6: "each is 10 broadsides (a light fort, FF 1, is 5) for tabletop export"; 002: "It is
    envisaged that most games will only require Small or Medium Forts."."""
    assert fort_size_for(ff) is size
    forts = port_forts(fortification=ff, gibraltar=False, batteries=0, ruleset=R)
    assert forts.coastal_forts == ff
    assert forts.forts == ff


def test_a_port_without_forts() -> None:
    forts = port_forts(fortification=0, gibraltar=False, batteries=0, ruleset=R)
    assert forts.groups == () and port_forts_table(forts, "Leith").title == "Forts of Leith: no forts"


def test_the_gibraltar_multiplier_follows_the_ruleset() -> None:
    """RULES.md §6: "Coastal forts = Fortification factor (Gibraltar 2 × = 6)" — a named setting."""
    ruleset = Ruleset.from_flat({"guns.coastal_forts_gibraltar_multiplier": 3})
    assert port_forts(fortification=3, gibraltar=True, batteries=0, ruleset=ruleset).coastal_forts == 9
    assert "3 × its fortification factor" in {r[0]: r[1] for r in fort_mapping_table(ruleset).rows}["Gibraltar"]


def test_fort_mapping_printable_rows() -> None:
    """The house mapping as the pack shows it (RULES.md §6 "Coastal forts = Fortification factor
    (Gibraltar 2 × = 6)")."""
    assert fort_mapping_table(R).rows == (
        ("Fortification factor 0", "No coastal forts"),
        ("Fortification factor 1", "1 small fort (1 gun per sector)"),
        ("Fortification factor 2", "2 medium forts (2 guns per sector)"),
        ("Fortification factor 3 or more", "That many large forts (3 guns per sector)"),
        ("Gibraltar", "2 × its fortification factor in forts of its size (6 large forts at 3)"),
        ("Each artillery battery", "1 small fort"),
    )


@given(st.integers(min_value=0, max_value=12), st.booleans(), st.integers(min_value=0, max_value=8))
def test_every_port_maps_to_forts_consistently(ff: int, gibraltar: bool, batteries: int) -> None:
    forts = port_forts(fortification=ff, gibraltar=gibraltar, batteries=batteries, ruleset=R)
    assert forts.forts == forts.coastal_forts + batteries
    assert forts.coastal_forts == (2 * ff if gibraltar else ff)
    assert len(port_forts_table(forts, "X").rows) == len(forts.groups)


def test_port_forts_refuses_bad_numbers() -> None:
    with pytest.raises(ValueError, match="fortification factor: a whole number 0 or more, got -1"):
        port_forts(fortification=-1, gibraltar=False, batteries=0, ruleset=R)
    with pytest.raises(ValueError, match="batteries: a whole number 0 or more, got -2"):
        port_forts(fortification=1, gibraltar=False, batteries=-2, ruleset=R)


@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=1, max_value=12))
def test_fire_at_fort_replays_from_its_logged_faces(seed: int, guns: int) -> None:
    log = StrategicLog()
    first = roll_fire_at_fort(SeededDice(seed), log, place="z", ship_class="1st", band="long", guns=guns)
    again = roll_fire_at_fort(
        ScriptedDice(log.faces()), StrategicLog(), place="z", ship_class="1st", band="long", guns=guns
    )
    assert again == first and len(log) == guns


def test_shore_batteries_of_the_grenada_rules() -> None:
    """004_15cba4ffbfa3ec94.txt: "SHORE BATTERIES Each Gun box represents 8-14 guns. If the shore
    battery fires red hot shot score hits normally & toss again for EACH hit as for an initial FIRE
    result."."""
    table = shore_battery_table()
    assert table.seed == "004"
    assert table.rows == (
        ("Gun box", "Each gun box represents 8–14 guns"),
        ("Red hot shot", "Score hits normally, then toss again for each hit as for an initial FIRE result"),
    )
