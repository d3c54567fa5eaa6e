"""A deterministic randomized campaign (issue 4 "How it will be checked"): europe-1805 played for six
turns through orders, every nation giving a random list of candidate orders each turn (refused ones
are dropped: that exercises validation too), with every invariant checked after every turn —
nothing resolved twice, treasuries equal to their ledgers, ships and land units conserved, the
quota never exceeded by building — and turn 4 re-run from an export giving the same result.

The orders come from tests/support/random_orders.py.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

import pytest

from campaign.backup.document import campaign_export, campaign_import
from campaign.models import Campaign, LedgerEntry, Nation, Order, Turn, TurnPhase, TurnReport
from campaign.scenarios.loading import scenario_load
from campaign.turn.registry import PHASES
from fleets.models import Ship
from ports.models import LandUnit
from rules.ruleset import BIG_CLASSES, SOL_CLASSES
from tests.support.exports import differences, same_run
from tests.support.random_orders import resolve_open_turn, submit_random_orders

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

SEED = int(os.environ.get("FUZZ_SEED", "1805"))
TURNS = 6
RERUN_TURN = 4


# --- the invariants ----------------------------------------------------------------------------------


@dataclass
class History:
    """What must never be lost from one turn to the next."""

    ship_nation: dict[int, int] = field(default_factory=dict)  # ship id → original nation
    units: set[int] = field(default_factory=set)
    lost_units: set[int] = field(default_factory=set)


def quota_counts(nation: Nation) -> tuple[int, int]:
    """RULES.md §1: (sol, big) — sol owned in any condition but sunk, big not captured."""
    ships = Ship.objects.filter(nation=nation).exclude(condition__in=Ship.GONE)
    sol = ships.filter(ship_class__in=SOL_CLASSES).count()
    big = ships.filter(ship_class__in=BIG_CLASSES, original_nation=nation).count()
    return sol, big


def check_turn(campaign: Campaign, turn: Turn, history: History, counts_before: dict[int, tuple[int, int]]) -> None:
    nations = list(Nation.objects.filter(campaign=campaign).order_by("code"))
    ruleset = campaign.ruleset
    # Every phase recorded exactly once.
    phases = list(TurnPhase.objects.filter(turn=turn).order_by("phase").values_list("phase", flat=True))
    assert phases == sorted(PHASES), f"turn {turn.number}: phases {phases}"
    # Treasury == Σ ledger ≥ 0.
    for nation in nations:
        amounts = LedgerEntry.objects.filter(nation=nation).values_list("amount", flat=True)
        assert nation.treasury == sum(amounts) >= 0, f"turn {turn.number}: {nation.code} treasury vs ledger"
    # Ships conserved: none vanishes, none changes its original nation; afloat ones in a fleet, lost ones not.
    ships = {s.pk: s for s in Ship.objects.filter(campaign=campaign)}
    missing = set(history.ship_nation) - set(ships)
    assert not missing, f"turn {turn.number}: ships vanished: {sorted(missing)}"
    for pk, original in history.ship_nation.items():
        assert ships[pk].original_nation_id == original, f"turn {turn.number}: ship {pk} changed original nation"
    for ship in ships.values():
        if ship.condition in Ship.AFLOAT:
            assert ship.fleet_id is not None, f"turn {turn.number}: {ship} afloat without a fleet"
        else:
            assert ship.fleet_id is None, f"turn {turn.number}: {ship} ({ship.condition}) still in a fleet"
        history.ship_nation.setdefault(ship.pk, ship.original_nation_id)
    # Quota never exceeded by building: each big keel of this turn, at the moment it was laid down
    # (phase 2, listed order; only phase 1 — diplomacy — comes before it), with the new keel counted.
    keels = Ship.objects.filter(campaign=campaign, laid_down_turn=turn.number).order_by("id")
    running = dict(counts_before)
    for keel in keels:
        sol, big = running[keel.original_nation_id]
        sol += keel.ship_class in SOL_CLASSES
        big += keel.ship_class in BIG_CLASSES
        running[keel.original_nation_id] = (sol, big)
        if keel.ship_class in BIG_CLASSES:
            nation = next(n for n in nations if n.pk == keel.original_nation_id)
            pct = ruleset.quota_percent(nation.navy, turn.year)
            assert 100 * big <= pct * sol, (
                f"turn {turn.number}: {nation.code} laid down {keel.name} ({keel.ship_class}) over quota: "
                f"100×{big} > {pct}×{sol}"
            )
    for nation in nations:
        four = Ship.objects.filter(nation=nation, original_nation=nation, ship_class="four-decker").exclude(
            condition__in=Ship.GONE
        )
        assert four.count() <= ruleset["quota.four_decker_limit"], f"turn {turn.number}: {nation.code} four-deckers"
    # Land units conserved: never deleted; once lost, lost for good.
    units = dict(LandUnit.objects.filter(campaign=campaign).values_list("pk", "state"))
    assert history.units <= set(units), f"turn {turn.number}: land units deleted"
    relost = {pk for pk in history.lost_units if units[pk] != LandUnit.State.LOST}
    assert not relost, f"turn {turn.number}: lost land units came back: {relost}"
    history.units |= set(units)
    history.lost_units |= {pk for pk, state in units.items() if state == LandUnit.State.LOST}
    # Every order carried out or skipped with a reason.
    for order in Order.objects.filter(turn=turn):
        assert order.outcome in (Order.Outcome.DONE, Order.Outcome.SKIPPED), f"turn {turn.number}: {order} pending"
        assert order.outcome_note, f"turn {turn.number}: {order} {order.outcome} without a note"
    # Every nation has its report.
    reported = set(TurnReport.objects.filter(turn=turn).values_list("nation__code", flat=True))
    assert reported == {n.code for n in nations}, f"turn {turn.number}: reports for {sorted(reported)}"


def play_turn(campaign: Campaign, history: History) -> tuple[Turn, int, int]:
    counts = {n.pk: quota_counts(n) for n in Nation.objects.filter(campaign=campaign)}
    accepted, refused = submit_random_orders(campaign)
    turn = resolve_open_turn(campaign)
    check_turn(campaign, turn, history, counts)
    return turn, accepted, refused


def test_six_random_turns_of_europe_keep_every_invariant_and_re_run_identically() -> None:
    campaign = scenario_load(name="europe-1805", slug="fuzz", seed=SEED)
    history = History()
    check_start(campaign, history)
    totals = [0, 0]
    expected: dict | None = None
    for number in range(1, TURNS + 1):
        if number == RERUN_TURN:
            expected = rerun(campaign)
        turn, accepted, refused = play_turn(campaign, history)
        assert turn.number == number
        if number == RERUN_TURN:
            got = same_run(campaign_export(campaign=campaign))
            assert got == expected, "the original resolved it otherwise: " + differences(got, expected)
        totals[0] += accepted
        totals[1] += refused
    # The fuzz must exercise both sides of validation, and the quota check must have keels to check.
    assert totals[0] > 100 and totals[1] > 10, totals
    big_keels = Ship.objects.filter(campaign=campaign, laid_down_turn__gte=1, ship_class__in=BIG_CLASSES)
    assert big_keels.exists()
    assert Turn.objects.filter(campaign=campaign, status=Turn.Status.RESOLVED).count() == TURNS


def check_start(campaign: Campaign, history: History) -> None:
    for ship in Ship.objects.filter(campaign=campaign):
        history.ship_nation[ship.pk] = ship.original_nation_id
    history.units = set(LandUnit.objects.filter(campaign=campaign).values_list("pk", flat=True))
    for nation in Nation.objects.filter(campaign=campaign):
        four = Ship.objects.filter(nation=nation, original_nation=nation, ship_class="four-decker")
        assert four.exclude(condition__in=Ship.GONE).count() <= 1


def rerun(campaign: Campaign) -> dict:
    """Turn RERUN_TURN from an export, twice, with orders generated from the same seed against each
    copy: both resolve identically (and the original, resolving it next, must match them)."""
    document = json.loads(json.dumps(campaign_export(campaign=campaign)))
    copies = [campaign_import(document=document, slug=f"fuzz-rerun-{i}") for i in (1, 2)]
    for copy in copies:
        submit_random_orders(copy)
        turn = resolve_open_turn(copy)
        assert turn.number == RERUN_TURN
    first, second = (same_run(campaign_export(campaign=c)) for c in copies)
    assert Order.objects.filter(campaign=copies[0], turn__number=RERUN_TURN).exists()
    assert first == second, "two copies resolved it differently: " + differences(first, second)
    return first
