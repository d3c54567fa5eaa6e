"""A nation's turn report told news first: what it won and lost, what its orders did, and why.

Built from the report's typed events alone (the nation's own report, fog of war already applied) and
the few facts of the battles it names (which side was the nation's, who won, which ships fought in the
line — one query each for battles and captures without a battle). Every capture and loss gets one
sentence naming the rule behind it, with the rule cited as "rules §N" so the pages link it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from battles.models import Battle, Engagement
from campaign.models import Order
from campaign.pages.labels import CLASS_LABELS
from rules.turn_events import (
    BattleFought,
    CaptureTaken,
    FleetMoved,
    LandUnitsLost,
    LedgerChanged,
    OrderCarriedOut,
    OrderSkipped,
    PortBlockaded,
    PortCaptured,
    SideCaptured,
    StormStruck,
    TurnEvent,
    counted,
)

LOST = ("sunk", "captured")
#: Events the summary stands for, left out of the story that follows it: what each order did (the
#: summary lists them) and where each fleet ended its moves (the positions after the turn say it better).
SUMMARISED_KINDS = (OrderCarriedOut.kind, OrderSkipped.kind, FleetMoved.kind)


@dataclass(frozen=True)
class BattleFacts:
    """What a report's battle event does not say: whose each side was, the winner, the line."""

    sides: tuple[tuple[str, ...], ...]
    winner: int | None
    in_line: frozenset[int]
    place: str = ""

    def side_of(self, code: str) -> int | None:
        return next((k for k, nations in enumerate(self.sides) if code in nations), None)


@dataclass(frozen=True)
class BattleLine:
    battle_id: int
    place: str
    result: str  # "won", "lost" or "drawn"

    @property
    def sentence(self) -> str:
        return f"Battle at {self.place} {'ended with no winner' if self.result == 'drawn' else self.result}"


@dataclass(frozen=True)
class OrderLine:
    """What one order did: carried out, or skipped and why (``code`` for programs, ``text`` for players)."""

    position: int
    kind: str
    text: str
    skipped: bool
    code: str


@dataclass
class ReportSummary:
    battles: list[BattleLine] = field(default_factory=list)
    ships_lost: int = 0
    ships_taken: int = 0
    ports_taken: list[str] = field(default_factory=list)
    ports_lost: list[str] = field(default_factory=list)
    blockading: list[str] = field(default_factory=list)
    income: int | None = None
    upkeep: int | None = None
    treasury: int | None = None
    orders: list[OrderLine] = field(default_factory=list)
    explanations: list[str] = field(default_factory=list)

    @property
    def won(self) -> int:
        return sum(1 for b in self.battles if b.result == "won")

    @property
    def lost(self) -> int:
        return sum(1 for b in self.battles if b.result == "lost")

    @property
    def skipped(self) -> list[OrderLine]:
        return [o for o in self.orders if o.skipped]

    @property
    def carried_out(self) -> int:
        return sum(1 for o in self.orders if not o.skipped)

    @property
    def headline(self) -> str:
        """:attr:`news` as a sentence's start ("Battle at Cadiz won, Toulon blockaded")."""
        return self.news[:1].upper() + self.news[1:]

    @property
    def news(self) -> str:
        """The turn's news in one line, for a mail's subject: battles, ports, blockades; else what the
        orders did ("battle at Cadiz won, Toulon blockaded")."""
        parts = [b.sentence.replace("Battle at", "battle at", 1) for b in self.battles]
        parts += [f"{name} taken" for name in self.ports_taken]
        parts += [f"{name} lost" for name in self.ports_lost]
        parts += [f"{name} blockaded" for name in self.blockading]
        if self.ships_lost and not self.battles:
            parts.append(f"{counted(self.ships_lost, 'ship')} lost")
        if not parts:  # a quiet turn: what the orders did, and the money
            if not self.orders:
                parts.append("no orders given")
            if self.carried_out:
                parts.append(f"{counted(self.carried_out, 'order')} carried out")
            if self.skipped:
                parts.append(f"{counted(len(self.skipped), 'order')} skipped")
            if self.income is not None:
                parts.append(f"income {self.income} EP")
        return ", ".join(parts[:3]) + (f" and {len(parts) - 3} more" if len(parts) > 3 else "")


def battle_facts(
    battle_ids: Iterable[int], engagement_ids: Iterable[int]
) -> tuple[dict[int, BattleFacts], dict[int, BattleFacts]]:
    """The facts of the battles (by Battle id) and of the captures without a battle (by Engagement id)
    a report names: two queries, none for none."""
    battles: dict[int, BattleFacts] = {}
    ids = sorted(set(battle_ids))
    if ids:
        found = Battle.objects.filter(pk__in=ids).values_list(
            "pk", "sides", "winner", "report", "sea_zone__name", "port__name"
        )
        for pk, sides, winner, report, zone_name, port_name in found:
            listed: Any = report.get("ships") if isinstance(report, Mapping) else None
            line = frozenset(
                int(r["ref"]) for r in listed or [] if isinstance(r, Mapping) and isinstance(r.get("ref"), int)
            )
            battles[pk] = BattleFacts(_side_nations(sides), winner, line, port_name or zone_name or "")
    engagements: dict[int, BattleFacts] = {}
    ids = sorted(set(engagement_ids))
    if ids:
        for pk, sides in Engagement.objects.filter(pk__in=ids).values_list("pk", "sides"):
            engagements[pk] = BattleFacts(_side_nations(sides), None, frozenset())
    return battles, engagements


def _side_nations(sides: Any) -> tuple[tuple[str, ...], ...]:
    out = []
    for side in sides if isinstance(sides, list) else []:
        nations = side.get("nations") if isinstance(side, Mapping) else None
        out.append(tuple(c for c in nations or [] if isinstance(c, str)))
    return tuple(out)


def report_summary(
    events: Sequence[TurnEvent],
    *,
    nation_code: str,
    battles: Mapping[int, BattleFacts],
    engagements: Mapping[int, BattleFacts],
    kind_labels: Mapping[str, str],
) -> ReportSummary:
    """The summary of one nation's report (see the module docstring)."""
    s = ReportSummary()
    for e in events:
        if isinstance(e, OrderCarriedOut | OrderSkipped):
            label = kind_labels.get(e.order_kind, e.order_kind.replace("_", " "))
            skipped = isinstance(e, OrderSkipped)
            # A skip's text names the order ("Order 2 (run_guns) skipped: why"): the line says only why.
            text = e.text.split(" skipped: ", 1)[-1] if skipped else e.text
            s.orders.append(OrderLine(e.order_position, label, text[:1].upper() + text[1:], skipped, e.code))
        elif isinstance(e, BattleFought):
            _battle(s, e, nation_code, battles.get(e.battle_id))
        elif isinstance(e, SideCaptured):
            _side_captured(s, e, nation_code, engagements.get(e.engagement_id or 0))
        elif isinstance(e, StormStruck) and e.lost:
            s.ships_lost += len(e.lost)
            s.explanations.append(
                f"{counted(len(e.lost), 'ship')} lost to the storm in {e.zone_name or 'a sea zone'}: a storm "
                "sinks a ship at sea that it hits twice (rules §8)."
            )
        elif isinstance(e, PortCaptured):
            _port_captured(s, e, nation_code)
        elif isinstance(e, CaptureTaken) and e.ship_ids:
            taken = (e.port_name or e.port_key) in s.ports_taken
            if taken:
                s.ships_taken += len(e.ship_ids)
            else:
                s.ships_lost += len(e.ship_ids)
            s.explanations.append(
                f"{counted(len(e.ship_ids), 'ship')} in {e.port_name or 'the port'} "
                f"{'were' if len(e.ship_ids) != 1 else 'was'} {'taken' if taken else 'lost'} with the port: "
                "ships in a port change hands when the port does (rules §7)."
            )
        elif isinstance(e, LandUnitsLost) and e.unit_ids:
            s.explanations.append(
                f"{counted(len(e.unit_ids), 'land unit')} went down with {'its' if len(e.unit_ids) == 1 else 'their'}"
                " transports: troops aboard share their ships' fate (rules §7)."
            )
        elif isinstance(e, PortBlockaded) and e.nation == nation_code:
            s.blockading.append(e.port_name or e.port_key)
        elif isinstance(e, LedgerChanged):
            s.income, s.upkeep, s.treasury = e.income, e.upkeep, e.treasury
    s.orders.sort(key=lambda o: o.position)
    return s


def summary_for_report(events: Sequence[TurnEvent], nation_code: str) -> ReportSummary:
    """:func:`report_summary` with the facts of the battles the events name read (two queries at most)."""
    battles, engagements = battle_facts(
        (e.battle_id for e in events if isinstance(e, BattleFought)),
        (e.engagement_id for e in events if isinstance(e, SideCaptured) and e.engagement_id is not None),
    )
    labels = {str(k): str(v).lower() for k, v in Order.Kind.choices}
    return report_summary(events, nation_code=nation_code, battles=battles, engagements=engagements, kind_labels=labels)


def _battle(s: ReportSummary, e: BattleFought, code: str, facts: BattleFacts | None) -> None:
    mine = facts.side_of(code) if facts is not None else None
    if facts is None or mine is None:
        return  # a battle seen, not fought: the story tells it
    place = e.place_name or facts.place or "sea"
    result = "drawn" if facts.winner is None else ("won" if facts.winner == mine else "lost")
    s.battles.append(BattleLine(e.battle_id, place, result))
    for row in e.ships:
        if row.fate not in LOST:
            continue
        ours = row.side == mine
        what = f"{row.ship_name} ({CLASS_LABELS.get(row.ship_class, row.ship_class)})"
        if ours:
            s.ships_lost += 1
        elif row.fate == "captured":
            s.ships_taken += 1
        else:
            continue  # an enemy sunk: the battle report tells it
        if row.fate == "sunk":
            s.explanations.append(f"{what} was sunk in the battle at {place} (rules §5).")
        elif row.ship_id not in facts.in_line:
            whose = "our" if ours else "the enemy's"
            s.explanations.append(
                f"{what} was {'lost' if ours else 'taken'} at {place} without fighting: ships outside the line "
                f"share their side's fate, and {whose} side broke or was beaten (rules §4)."
            )
        else:
            s.explanations.append(
                f"{what} was {'lost to the enemy' if ours else 'taken as a prize'} at {place}: a ship boarded, or "
                "left disabled on a side that loses, goes to the other side in the condition taken (rules §5)."
            )


def _side_captured(s: ReportSummary, e: SideCaptured, code: str, facts: BattleFacts | None) -> None:
    victim = e.ships[0].side if e.ships else None
    mine = facts.side_of(code) if facts is not None else None
    if victim is None or mine is None:
        return
    ours = victim == mine
    if ours:
        s.ships_lost += len(e.ships)
    else:
        s.ships_taken += len(e.ships)
    s.explanations.append(
        f"{counted(len(e.ships), 'ship')} {'of ours' if ours else 'of the enemy'} at {e.place_name or 'sea'} "
        f"{'were' if len(e.ships) != 1 else 'was'} taken without a battle: a side with no ship able to form a "
        "line is captured whole (rules §4)."
    )


_PORT_FALLS = "a port falls to its besiegers when the siege succeeds or its garrison is gone (rules §7)."


def _port_captured(s: ReportSummary, e: PortCaptured, code: str) -> None:
    name = e.port_name or e.port_key
    if e.owner == code:
        s.ports_taken.append(name)
        s.explanations.append(f"{name} was taken: {_PORT_FALLS}")
    elif e.previous_owner == code:
        s.ports_lost.append(name)
        s.explanations.append(f"{name} was lost: {_PORT_FALLS}")


__all__ = [
    "SUMMARISED_KINDS",
    "BattleFacts",
    "BattleLine",
    "OrderLine",
    "ReportSummary",
    "battle_facts",
    "report_summary",
    "summary_for_report",
]
