"""A nation's stored turn report as the pages read it back: its events grouped by phase, and the battles it names.

The report body is ``{"turn", "season", "year", "events": [...]}`` as the turn runner stores it, each
event read back as its typed kind (:func:`rules.turn_events.event_from_json`, which also reads the
shapes of older reports); only the nation's own report is read (it had fog of war applied when written).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from battles.models import Battle
from campaign.models import Campaign, Nation, Turn, TurnReport
from campaign.pages.report_summary import SUMMARISED_KINDS, ReportSummary, summary_for_report
from campaign.turn.registry import PHASE_TITLES
from rules.turn_events import TurnEvent, report_events


@dataclass
class ReportView:
    turn_number: int
    season: str
    year: int
    events: list[TurnEvent]
    battle_ids: list[int]
    nation_code: str = ""
    _summary: ReportSummary | None = None

    @property
    def summary(self) -> ReportSummary:
        """The news first: battles, ships, ports, money, what each order did (read once, then kept)."""
        if self._summary is None:
            self._summary = summary_for_report(self.events, self.nation_code)
        return self._summary

    @property
    def story(self) -> list[tuple[str, list[TurnEvent]]]:
        """:attr:`by_phase` without what the summary already tells (each order's outcome) and the
        fleets' positions after their moves (before the battles; the positions after the turn follow)."""
        groups = [(title, [e for e in events if e.kind not in SUMMARISED_KINDS]) for title, events in self.by_phase]
        return [(title, events) for title, events in groups if events]

    @property
    def by_phase(self) -> list[tuple[str, list[TurnEvent]]]:
        """The events grouped by phase, in phase order (events keep their order within a phase)."""
        groups: dict[int, list[TurnEvent]] = defaultdict(list)
        for event in self.events:
            groups[event.phase].append(event)
        return [(PHASE_TITLES.get(n, "Other"), groups[n]) for n in sorted(groups)]


def season_labels() -> dict[str, str]:
    """A turn's season code → its readable name."""
    return {str(code): str(label) for code, label in Turn._meta.get_field("season").choices or []}


def report_for_nation(nation: Nation, *, number: int | None = None) -> ReportView | None:
    """The nation's report of resolved turn ``number``, or its latest report (one query)."""
    reports = TurnReport.objects.filter(nation=nation, turn__status=Turn.Status.RESOLVED)
    if number is not None:
        reports = reports.filter(turn__number=number)
    row = reports.order_by("-turn__number").values("body", "turn__number", "turn__season", "turn__year").first()
    if row is None:
        return None
    events = report_events(row["body"])
    battle_ids = sorted({e.battle for e in events if e.battle is not None})
    season = season_labels().get(row["turn__season"], row["turn__season"])
    return ReportView(row["turn__number"], str(season), row["turn__year"], events, battle_ids, nation.code)


def battle_sides_by_id(ids: Sequence[int], campaign: Campaign) -> dict[int, list[Any]]:
    """The ``sides`` of the campaign's battles ``ids`` by Battle id (one query, none for no ids)."""
    if not ids:
        return {}
    rows = Battle.objects.filter(campaign=campaign, pk__in=list(ids)).values_list("pk", "sides")
    return {pk: sides if isinstance(sides, list) else [] for pk, sides in rows}


__all__ = ["ReportView", "battle_sides_by_id", "report_for_nation", "season_labels"]
