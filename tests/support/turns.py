"""Orders stored for a turn, phases run one at a time and turns resolved inline, for the tests of
the turn's resolution (one set of helpers instead of a ``give``/``order``/``phase_N``/``resolve``
per test file)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.utils import timezone

from campaign.models import Campaign, LedgerEntry, Nation, Order, Turn, TurnPhase, TurnReport
from campaign.tasks import turn_resolve
from campaign.turn.lifecycle import turn_claim
from campaign.turn.runner import phase_run
from fleets.models import Fleet

#: Kinds whose ``fleet`` key (if any) is not the one fleet the order is given to, so the stored
#: order has no fleet: an appointment, an embarkation, transfers and new fleets.
ORDERS_WITHOUT_ONE_FLEET = frozenset({"transfer", "form_fleet", "appoint", "embark"})


def order_store(turn: Turn, nation: Nation, kind: str, /, *, position: int | None = None, **body: Any) -> Order:
    """Store an order as given, without ``order_add``'s checks: resolution must cope with orders the
    state has overtaken since they were accepted. ``position`` defaults to after the nation's last;
    the body's keys are keywords (``nation=`` too: the giver is positional)."""
    if position is None:
        position = Order.objects.filter(turn=turn, nation=nation).count() + 1
    fleet_id = body.get("fleet") if kind not in ORDERS_WITHOUT_ONE_FLEET else None
    return Order.objects.create(
        campaign=turn.campaign,
        turn=turn,
        nation=nation,
        position=position,
        kind=kind,
        body={"kind": kind, **body},
        fleet_id=fleet_id,
    )


def open_turn(campaign: Campaign) -> Turn:
    """The campaign's turn open for orders."""
    return Turn.objects.get(campaign=campaign, status=Turn.Status.OPEN)


def phases_run(turn: Turn, *numbers: int) -> None:
    """Run the given phases of ``turn`` in the order given; each must run (not be done already)."""
    for number in numbers:
        assert phase_run(turn_id=turn.pk, number=number, now=timezone.now())


def phase_events(turn: Turn, number: int) -> list[dict[str, Any]]:
    """Run one phase of ``turn`` and return the events it recorded."""
    phases_run(turn, number)
    return TurnPhase.objects.get(turn=turn, phase=number).summary["events"]


def turn_resolve_inline(turn: Turn) -> Turn:
    """Claim ``turn`` and resolve every phase in this process (no worker); return the next turn."""
    assert turn_claim(turn_id=turn.pk, now=timezone.now())
    assert turn_resolve(turn.pk) == "done"
    return Turn.objects.get(campaign=turn.campaign, number=turn.number + 1)


def seen(turn: Turn, code: str) -> list[str]:
    """The texts of every event the nation may see (fog of war) in the phases of ``turn`` run so far."""
    return [event["text"] for event in events_seen(turn, code)]


def events_seen(turn: Turn, code: str) -> list[dict[str, Any]]:
    """Every event the nation may see (fog of war) in the phases of ``turn`` run so far, in phase order."""
    out = []
    for summary in TurnPhase.objects.filter(turn=turn).order_by("phase").values_list("summary", flat=True):
        out += [e for e in summary.get("events", []) if e["nations"] is None or code in e["nations"]]
    return out


def where(fleet: Fleet) -> tuple[str, str | None]:
    """The fleet's zone and port keys as they stand now."""
    fleet.refresh_from_db()
    return fleet.sea_zone.key, fleet.port.key if fleet.port is not None else None


def report_texts(turn: Turn, nation: Nation) -> list[str]:
    """The texts of the events in the nation's stored report of ``turn``."""
    return [e["text"] for e in TurnReport.objects.get(turn=turn, nation=nation).body["events"]]


def wait_for(condition: Callable[[], bool], timeout: float = 60.0) -> None:
    """Poll ``condition`` every 0.05 s until it holds; fail after ``timeout`` seconds (worker tests).
    A poll is one small query; a longer pause only adds to the wait after the worker is done."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError("timed out waiting")


def resolved(turn_id: int) -> bool:
    """Whether the turn is resolved, read afresh from the database."""
    return Turn.objects.get(pk=turn_id).status == Turn.Status.RESOLVED


def assert_resolved_exactly_once(turn: Turn) -> None:
    """Turn 1 resolved once: every phase recorded once, one turn 2, one income line a nation, and
    treasuries equal to their ledgers."""
    phases = list(TurnPhase.objects.filter(turn=turn).values_list("phase", flat=True))
    assert len(phases) == len(set(phases))
    assert Turn.objects.filter(campaign=turn.campaign, number=2).count() == 1
    for nation in Nation.objects.filter(campaign=turn.campaign):
        assert LedgerEntry.objects.filter(nation=nation, kind="income", turn=turn.number).count() == 1
        assert nation.treasury == sum(LedgerEntry.objects.filter(nation=nation).values_list("amount", flat=True))
