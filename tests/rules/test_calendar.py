"""RULES.md §3 calendar and deadlines."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.calendar import (
    TurnDate,
    deadline_after,
    deadline_after_pause,
    deadline_extended,
    is_gale_season,
    next_season,
    round_up_to_hour,
)
from rules.ruleset import DEFAULT_RULESET, SEASONS, Ruleset, RulesetError

R = DEFAULT_RULESET


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, second, tzinfo=UTC)


# --- seasons -------------------------------------------------------------------------------------


def test_the_year_has_five_seasons_in_order() -> None:
    """§3 "five a year: Winter (Dec–Feb), Spring (Mar–Apr), Summer (May–Jun), High Summer (Jul–Aug),
    Autumn (Sep–Nov)"."""
    date = TurnDate(1806, "winter")
    seen = [date.advance(i) for i in range(5)]
    assert [(d.label, d.span) for d in seen] == [
        ("Winter 1806", "Dec 1805–Feb 1806"),
        ("Spring 1806", "Mar–Apr 1806"),
        ("Summer 1806", "May–Jun 1806"),
        ("High Summer 1806", "Jul–Aug 1806"),
        ("Autumn 1806", "Sep–Nov 1806"),
    ]


def test_winter_1806_follows_autumn_1805() -> None:
    """§3 "Winter opens the year (Winter 1806 = Dec 1805–Feb 1806)"."""
    assert TurnDate(1805, "autumn").next() == TurnDate(1806, "winter")
    assert next_season("autumn") == "winter"
    assert TurnDate(1806, "winter").first_month() == (1805, 12)
    assert TurnDate(1806, "winter").last_month() == (1806, 2)


def test_december_belongs_to_the_next_years_winter() -> None:
    """§3 "Winter 1806 = Dec 1805–Feb 1806": December 1805 is in Winter 1806, January 1806 too."""
    assert TurnDate.for_month(1805, 12) == TurnDate(1806, "winter")
    assert TurnDate.for_month(1806, 1) == TurnDate(1806, "winter")
    assert TurnDate.for_month(1806, 11) == TurnDate(1806, "autumn")
    assert TurnDate.for_month(1806, 3) == TurnDate(1806, "spring")


def test_turn_dates_sort_chronologically_with_winter_first() -> None:
    """Winter opens the year, so Winter 1806 comes after Autumn 1805 and before Spring 1806."""
    dates = [TurnDate(1806, "spring"), TurnDate(1805, "autumn"), TurnDate(1806, "winter")]
    assert sorted(dates) == [TurnDate(1805, "autumn"), TurnDate(1806, "winter"), TurnDate(1806, "spring")]
    assert TurnDate(1806, "spring").turns_since(TurnDate(1805, "autumn")) == 2


@given(year=st.integers(1700, 1900), season=st.sampled_from(SEASONS), n=st.integers(0, 60))
def test_advancing_n_turns_is_n_single_steps(year: int, season: str, n: int) -> None:
    """Advancing is consistent with repeated next() and with turns_since."""
    start = TurnDate(year, season)
    stepped = start
    for _ in range(n):
        stepped = stepped.next()
    assert start.advance(n) == stepped
    assert stepped.turns_since(start) == n


def test_winter_and_autumn_are_the_gale_seasons() -> None:
    """§3 "Winter and Autumn are gale seasons"."""
    assert [s for s in SEASONS if is_gale_season(s, R)] == ["winter", "autumn"]
    assert TurnDate(1806, "winter").is_gale(R)
    house = Ruleset.from_flat({"calendar.gale_spring": 1})
    assert TurnDate(1806, "spring").is_gale(house)


def test_an_unknown_season_is_refused() -> None:
    """Seasons are the five names of the ruleset."""
    with pytest.raises(RulesetError, match="season"):
        TurnDate(1806, "monsoon")


# --- deadlines -----------------------------------------------------------------------------------


def test_the_deadline_is_a_turn_length_later_rounded_up_to_the_deadline_hour() -> None:
    """§3 "deadline = resolution time + the campaign's turn length (default 7 days), rounded up to
    its deadline hour (UTC)" — the default hour is 20:00."""
    assert deadline_after(utc(1805, 10, 21, 11, 37), R) == utc(1805, 10, 28, 20, 0)


def test_a_deadline_past_the_hour_rolls_to_the_next_day() -> None:
    """§3 "rounded up": 20:00:01 rounds to 20:00 the day after."""
    assert deadline_after(utc(1805, 10, 21, 20, 0, 1), R) == utc(1805, 10, 29, 20, 0)
    assert round_up_to_hour(utc(1805, 10, 21, 20, 0, 0) + timedelta(microseconds=1), 20) == utc(1805, 10, 22, 20)


def test_a_deadline_exactly_on_the_hour_stays() -> None:
    """§3 "rounded up": a time already exactly on the deadline hour is not moved a day."""
    assert deadline_after(utc(1805, 10, 21, 20, 0), R) == utc(1805, 10, 28, 20, 0)


def test_deadlines_are_computed_in_utc_whatever_the_zone_given() -> None:
    """§3 "(UTC)": 21:30 in UTC+2 is 19:30 UTC, so the deadline is 20:00 UTC the same day + 7."""
    plus_two = timezone(timedelta(hours=2))
    deadline = deadline_after(datetime(1805, 10, 21, 21, 30, tzinfo=plus_two), R)
    assert deadline == utc(1805, 10, 28, 20, 0) and deadline.tzinfo is UTC


def test_turn_length_and_hour_are_the_campaigns_settings() -> None:
    """The campaign's turn length and deadline hour are ruleset settings."""
    house = Ruleset.from_flat({"calendar.turn_length_days": 3, "calendar.deadline_hour_utc": 6})
    assert deadline_after(utc(1805, 10, 21, 11, 0), house) == utc(1805, 10, 25, 6, 0)
    assert deadline_after(utc(1805, 10, 21, 11, 0), R, timedelta(days=1)) == utc(1805, 10, 22, 20, 0)


def test_a_naive_datetime_is_refused() -> None:
    """Times are stored in UTC; a time without a zone is ambiguous."""
    with pytest.raises(ValueError, match="timezone-aware"):
        deadline_after(datetime(1805, 10, 21, 11, 0), R)


def test_a_pause_moves_the_deadline_by_its_length() -> None:
    """§3 "Pause moves the deadline by the pause's length" (no rounding)."""
    deadline = utc(1805, 10, 28, 20, 0)
    moved = deadline_after_pause(deadline, utc(1805, 10, 22, 9, 0), utc(1805, 10, 23, 12, 30))
    assert moved == utc(1805, 10, 29, 23, 30)
    with pytest.raises(ValueError, match="before"):
        deadline_after_pause(deadline, utc(1805, 10, 23), utc(1805, 10, 22))


def test_extend_adds_time() -> None:
    """§3 "extend adds time"."""
    assert deadline_extended(utc(1805, 10, 28, 20), timedelta(days=2)) == utc(1805, 10, 30, 20)
    with pytest.raises(ValueError, match="negative"):
        deadline_extended(utc(1805, 10, 28, 20), timedelta(hours=-1))


@given(moment=st.datetimes(timezones=st.just(UTC)), hour=st.integers(0, 23))
def test_rounding_up_lands_on_the_hour_within_a_day(moment: datetime, hour: int) -> None:
    """The rounded time is on the hour, not before the moment, and less than a day after it."""
    try:
        rounded = round_up_to_hour(moment, hour)
    except OverflowError:
        return  # the last day of datetime's range has no "next day"
    assert (rounded.hour, rounded.minute, rounded.second, rounded.microsecond) == (hour, 0, 0, 0)
    assert moment <= rounded < moment + timedelta(days=1)
