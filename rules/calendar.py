"""The campaign calendar and turn deadlines (RULES.md §3 "Calendar, turns and orders").

"One turn = one season, five a year: Winter (Dec–Feb), Spring (Mar–Apr), Summer (May–Jun), High
Summer (Jul–Aug), Autumn (Sep–Nov). Winter opens the year (Winter 1806 = Dec 1805–Feb 1806).
Winter and Autumn are gale seasons."

"Deadlines: when turn T resolves, T+1 opens with deadline = resolution time + the campaign's turn
length (default 7 days), rounded up to its deadline hour (UTC). [...] Pause moves the deadline by
the pause's length; extend adds time."

Seasons are the names of :data:`rules.ruleset.SEASONS`; which of them are gale seasons, the turn
length and the deadline hour are ruleset settings. The months of each season are part of the
season's definition (vocabulary, like the season names), not tunable numbers.

Pure Python: no Django, no I/O. Every datetime in and out is timezone-aware; results are in UTC.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final

from rules.ruleset import SEASONS, Ruleset, RulesetError

SEASON_NAMES: Final = {
    "winter": "Winter",
    "spring": "Spring",
    "summer": "Summer",
    "high_summer": "High Summer",
    "autumn": "Autumn",
}

# The calendar months of each season, in order. Winter's December belongs to the previous calendar
# year ("Winter 1806 = Dec 1805–Feb 1806"), which is why a month before January is the previous
# year's.
SEASON_MONTHS: Final = {
    "winter": (12, 1, 2),
    "spring": (3, 4),
    "summer": (5, 6),
    "high_summer": (7, 8),
    "autumn": (9, 10, 11),
}

_MONTH_ABBR: Final = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_JANUARY: Final = 1
_DECEMBER: Final = 12

assert tuple(SEASON_NAMES) == SEASONS == tuple(SEASON_MONTHS), "season vocabulary out of step"


def _check_season(season: str) -> None:
    if season not in SEASONS:
        raise RulesetError(f"season: {season!r} is not one of {', '.join(SEASONS)}")


def next_season(season: str) -> str:
    """The season after ``season``; Autumn is followed by Winter (of the next campaign year)."""
    _check_season(season)
    return SEASONS[(SEASONS.index(season) + 1) % len(SEASONS)]


def is_gale_season(season: str, ruleset: Ruleset) -> bool:
    """Whether ``season`` is a gale season under ``ruleset`` (default: Winter and Autumn)."""
    return ruleset.is_gale_season(season)


@functools.total_ordering
@dataclass(frozen=True, slots=True)
class TurnDate:
    """A campaign year and season, e.g. ``TurnDate(1806, "winter")``; ordered chronologically.

    ``year`` is the campaign year, which Winter opens: ``TurnDate(1806, "winter")`` runs from
    December 1805 to February 1806 and follows ``TurnDate(1805, "autumn")``. An unknown season is a
    :class:`RulesetError`.
    """

    year: int
    season: str

    def __post_init__(self) -> None:
        _check_season(self.season)

    @classmethod
    def for_month(cls, year: int, month: int) -> TurnDate:
        """The season a calendar month falls in: December 1805 is Winter 1806."""
        if not _JANUARY <= month <= _DECEMBER:
            raise ValueError(f"month: {month} is not 1..12")
        for season, months in SEASON_MONTHS.items():
            if month in months:
                # Winter's first month is the previous calendar year's December.
                return cls(year + 1 if month == _DECEMBER else year, season)
        raise AssertionError("every month belongs to a season")  # pragma: no cover

    @property
    def season_index(self) -> int:
        """Position of the season in the year: Winter 0 … Autumn 4."""
        return SEASONS.index(self.season)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, TurnDate):
            return NotImplemented
        return (self.year, self.season_index) < (other.year, other.season_index)

    def next(self) -> TurnDate:
        """The following turn's date: Autumn 1805 → Winter 1806."""
        return self.advance(1)

    def advance(self, turns: int) -> TurnDate:
        """The date ``turns`` turns later (``turns`` ≥ 0)."""
        if turns < 0:
            raise ValueError(f"turns: {turns} is negative")
        years, index = divmod(self.season_index + turns, len(SEASONS))
        return TurnDate(self.year + years, SEASONS[index])

    def turns_since(self, earlier: TurnDate) -> int:
        """How many turns after ``earlier`` this date is (negative if it is before it)."""
        return (self.year - earlier.year) * len(SEASONS) + self.season_index - earlier.season_index

    def is_gale(self, ruleset: Ruleset) -> bool:
        return ruleset.is_gale_season(self.season)

    def first_month(self) -> tuple[int, int]:
        """(calendar year, month) of the season's first month: Winter 1806 → (1805, 12)."""
        month = SEASON_MONTHS[self.season][0]
        return (self.year - 1 if month == _DECEMBER else self.year, month)

    def last_month(self) -> tuple[int, int]:
        """(calendar year, month) of the season's last month: Winter 1806 → (1806, 2)."""
        month = SEASON_MONTHS[self.season][-1]
        return (self.year - 1 if month == _DECEMBER else self.year, month)

    @property
    def label(self) -> str:
        """The season and campaign year, e.g. "Winter 1806"."""
        return f"{SEASON_NAMES[self.season]} {self.year}"

    @property
    def span(self) -> str:
        """The months, e.g. "Dec 1805–Feb 1806" (one year when both share it: "Mar–Apr 1806")."""
        (y0, m0), (y1, m1) = self.first_month(), self.last_month()
        if y0 == y1:
            return f"{_MONTH_ABBR[m0 - 1]}–{_MONTH_ABBR[m1 - 1]} {y1}"
        return f"{_MONTH_ABBR[m0 - 1]} {y0}–{_MONTH_ABBR[m1 - 1]} {y1}"

    def __str__(self) -> str:
        return self.label


def _require_aware(value: datetime, name: str) -> datetime:
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{name}: a timezone-aware datetime is required, got naive {value.isoformat()}")
    return value.astimezone(UTC)


def round_up_to_hour(moment: datetime, hour: int) -> datetime:
    """The first instant at or after ``moment`` that is exactly ``hour``:00:00 UTC.

    A moment already exactly on that hour (to the microsecond) stays; anything later rolls to the
    same hour on the following day.
    """
    if not 0 <= hour < 24:  # the hours of a day, not a rule number
        raise ValueError(f"hour: {hour} is not 0..23")
    utc = _require_aware(moment, "moment")
    candidate = utc.replace(hour=hour, minute=0, second=0, microsecond=0)
    if candidate < utc:
        candidate += timedelta(days=1)
    return candidate


def turn_length(ruleset: Ruleset) -> timedelta:
    """The campaign's turn length (``calendar.turn_length_days``)."""
    return timedelta(days=ruleset["calendar.turn_length_days"])


def deadline_after(resolved_at: datetime, ruleset: Ruleset, length: timedelta | None = None) -> datetime:
    """Deadline of the turn that opens when the previous one resolves at ``resolved_at``.

    ``resolved_at + length`` (default: the ruleset's turn length) rounded up to the ruleset's
    ``calendar.deadline_hour_utc``; returned in UTC. Raises ``ValueError`` for a naive datetime.
    """
    start = _require_aware(resolved_at, "resolved_at")
    return round_up_to_hour(
        start + (turn_length(ruleset) if length is None else length), ruleset["calendar.deadline_hour_utc"]
    )


def deadline_after_pause(deadline: datetime, paused_at: datetime, resumed_at: datetime) -> datetime:
    """The deadline moved by the pause's length (``resumed_at − paused_at``); no rounding.

    Raises ``ValueError`` if the pause ends before it starts or a datetime is naive.
    """
    start = _require_aware(paused_at, "paused_at")
    end = _require_aware(resumed_at, "resumed_at")
    if end < start:
        raise ValueError(f"resumed_at {end.isoformat()} is before paused_at {start.isoformat()}")
    return _require_aware(deadline, "deadline") + (end - start)


def deadline_extended(deadline: datetime, by: timedelta) -> datetime:
    """The deadline with ``by`` added ("extend adds time"); ``by`` must not be negative."""
    if by < timedelta(0):
        raise ValueError(f"by: an extension cannot be negative ({by})")
    return _require_aware(deadline, "deadline") + by
