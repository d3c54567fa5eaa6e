"""The turn lifecycle and the phases run inline (RULES.md §1–§3); the worker tests are in test_turn_worker."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from campaign.models import Campaign, LedgerEntry, Nation, Order, Turn, TurnPhase, TurnReport
from campaign.tasks import turn_resolve
from campaign.turn.lifecycle import (
    TurnControlError,
    campaign_pause,
    campaign_resume,
    lease_acquire,
    nation_ready_set,
    turn_claim,
    turn_extend,
    turns_due,
)
from campaign.turn.runner import phase_run, phases_remaining, turn_dry_run
from config.settings.base import CELERY_BEAT_SCHEDULE
from fleets.models import Fleet, Ship
from tests.worlds import two_power_world

pytestmark = pytest.mark.django_db


def resolve_inline(turn: Turn) -> None:
    assert turn_claim(turn_id=turn.pk, now=timezone.now())
    assert turn_resolve(turn.pk) == "done"


def ledger_sums_match(campaign: Campaign) -> None:
    for nation in Nation.objects.filter(campaign=campaign):
        assert nation.treasury == sum(LedgerEntry.objects.filter(nation=nation).values_list("amount", flat=True))


def test_the_beat_sweep_runs_at_least_every_15_seconds() -> None:
    """Issue 4: "a Celery beat sweep (every 15 s or less) claims due turns"."""
    entry = CELERY_BEAT_SCHEDULE["turns-sweep"]
    assert entry["task"] == "campaign.turns_sweep"
    assert float(entry["schedule"]) <= 15


def test_a_turn_is_due_at_its_deadline_or_when_every_player_is_ready(django_user_model) -> None:
    """§3: "A turn resolves at its deadline or as soon as every nation with a player is ready"."""
    world = two_power_world()
    now = timezone.now()
    assert turns_due(now=now) == []
    assert turns_due(now=now + timedelta(days=8)) == [world.turn.pk]
    nelson = django_user_model.objects.create_user("nelson", password="pw-0123456789")
    world.gb.player = nelson
    world.gb.save()
    nation_ready_set(nation=world.gb, ready=True)
    # France has no player: it is left out of "everyone ready".
    assert turns_due(now=now) == [world.turn.pk]
    nation_ready_set(nation=world.gb, ready=False)
    assert turns_due(now=now) == []


def test_a_paused_campaign_resolves_nothing_and_resuming_moves_the_deadline() -> None:
    """§3: "Pause moves the deadline by the pause's length"."""
    world = two_power_world()
    deadline = world.turn.deadline
    assert deadline is not None
    paused_at = timezone.now()
    campaign_pause(campaign=world.campaign, now=paused_at)
    assert turns_due(now=paused_at + timedelta(days=30)) == []
    with pytest.raises(TurnControlError):
        campaign_pause(campaign=world.campaign)
    campaign_resume(campaign=world.campaign, now=paused_at + timedelta(hours=30))
    world.turn.refresh_from_db()
    assert world.turn.deadline == deadline + timedelta(hours=30)


def test_extending_adds_time_and_refuses_nonsense() -> None:
    world = two_power_world()
    deadline = world.turn.deadline
    assert deadline is not None
    turn_extend(campaign=world.campaign, by=timedelta(days=2))
    world.turn.refresh_from_db()
    assert world.turn.deadline == deadline + timedelta(days=2)
    with pytest.raises(TurnControlError, match="positive"):
        turn_extend(campaign=world.campaign, by=timedelta(0))


def test_only_one_claim_and_one_lease_win() -> None:
    world = two_power_world()
    now = timezone.now()
    assert turn_claim(turn_id=world.turn.pk, now=now)
    assert not turn_claim(turn_id=world.turn.pk, now=now)
    assert lease_acquire(turn_id=world.turn.pk, now=now) is not None
    assert lease_acquire(turn_id=world.turn.pk, now=now) is None
    assert turn_resolve(world.turn.pk) == "held"  # a duplicate delivery does nothing


def test_a_resolved_turn_opens_the_next_season_with_reports_and_a_new_deadline() -> None:
    """§3: "when turn T resolves, T+1 opens with deadline = resolution time + the campaign's turn length,
    rounded up to its deadline hour (UTC)"; Spring is followed by Summer."""
    world = two_power_world()
    resolve_inline(world.turn)
    world.turn.refresh_from_db()
    assert world.turn.status == Turn.Status.RESOLVED
    nxt = Turn.objects.get(campaign=world.campaign, number=2)
    assert (nxt.status, nxt.season, nxt.year) == (Turn.Status.OPEN, "summer", 1805)
    assert nxt.deadline is not None and nxt.deadline.hour == 20 and nxt.deadline.minute == 0
    assert world.turn.resolved_at is not None
    assert timedelta(days=7) <= nxt.deadline - world.turn.resolved_at < timedelta(days=7, hours=24)
    assert nxt.snapshot is not None and nxt.snapshot["campaign"]["turn"] == 2
    assert nxt.snapshot["snapshots"] == {}  # a snapshot never nests the earlier ones
    campaign = Campaign.objects.get(pk=world.campaign.pk)
    assert (campaign.turn_number, campaign.season) == (2, "summer")
    assert TurnReport.objects.filter(turn=world.turn).count() == 2
    assert phases_remaining(world.turn.pk) == []


def test_income_and_upkeep_go_through_the_ledger() -> None:
    """§2 phase 9: income = base + EP of own ports; upkeep = ceil(Σ class EP of commissioned ships / 20)."""
    world = two_power_world(treasury=50)
    resolve_inline(world.turn)
    gb = Nation.objects.get(pk=world.gb.pk)
    lines = list(LedgerEntry.objects.filter(nation=gb, turn=1).order_by("id").values_list("kind", "amount"))
    # base 3 + Portsmouth 2 = 5; ten 74s: ceil(100 / 20) = 5.
    assert lines == [("opening", 50), ("income", 5), ("upkeep", -5)]
    assert gb.treasury == 50
    ledger_sums_match(world.campaign)


def test_unpaid_upkeep_is_recorded_and_puts_the_nation_out_of_supply() -> None:
    """§2: "If upkeep exceeds the treasury, the treasury pays what it has, the line records the unpaid amount,
    and all that nation's ships count as out of supply until the end of the next turn"."""
    world = two_power_world(treasury=1)
    for i in range(30):
        Ship.objects.create(
            campaign=world.campaign, name=f"Extra {i}", ship_class="1st", nation=world.fr,
            original_nation=world.fr, crew="D", fleet=world.brest_fleet,
        )  # fmt: skip
    resolve_inline(world.turn)
    fr = Nation.objects.get(pk=world.fr.pk)
    upkeep = LedgerEntry.objects.get(nation=fr, kind="upkeep")
    # income 2 + 2 = 4 → treasury 5; upkeep ceil((100 + 600) / 20) = 35: 5 paid, 30 unpaid.
    assert (upkeep.amount, upkeep.unpaid, upkeep.balance) == (-5, 30, 0)
    assert fr.treasury == 0 and fr.unpaid_upkeep_turn == 1
    ledger_sums_match(world.campaign)


def test_keels_lose_a_turn_and_launch_into_a_fleet_in_their_port() -> None:
    """§1: "Each phase 2, ships laid down in earlier turns lose one build turn first; at 0 they are launched ...
    into a fleet of their nation in that port (a new fleet named after the port if there is none)"."""
    world = two_power_world()
    keel = Ship.objects.create(
        campaign=world.campaign, name="Caledonia", ship_class="frigate", nation=world.gb,
        original_nation=world.gb, crew="B", condition="building", building_port=world.portsmouth,
        building_turns_left=1, laid_down_turn=0,
    )  # fmt: skip
    Fleet.objects.filter(pk=world.channel_fleet.pk).update(port=None)  # nobody of GB in port any more
    resolve_inline(world.turn)
    keel.refresh_from_db()
    assert keel.condition == "ready" and keel.building_turns_left == 0
    assert keel.fleet is not None and keel.fleet.name == "Portsmouth" and keel.fleet.port == world.portsmouth
    report = TurnReport.objects.get(turn=world.turn, nation=world.gb).body
    assert any("Caledonia" in e["text"] and "launched" in e["text"] for e in report["events"])


def test_lay_down_orders_run_in_listed_order_and_a_failing_one_is_skipped_and_reported() -> None:
    """§1: "In phase 2 the nation's lay-downs run in listed order; each is checked again, paid ... one that
    fails is skipped and reported"."""
    world = two_power_world(treasury=12)
    for position, name in enumerate(("Bellona", "Bombay"), start=1):
        Order.objects.create(
            campaign=world.campaign, turn=world.turn, nation=world.gb, position=position, kind="lay_down",
            body={"kind": "lay_down", "class": "3rd-74", "name": name, "port": "portsmouth"},
        )  # fmt: skip
    resolve_inline(world.turn)
    outcomes = dict(Order.objects.filter(turn=world.turn).values_list("body__name", "outcome"))
    assert outcomes == {"Bellona": "done", "Bombay": "skipped"}
    assert Ship.objects.get(name="Bellona").condition == "building"
    assert not Ship.objects.filter(name="Bombay").exists()
    report = TurnReport.objects.get(turn=world.turn, nation=world.gb).body
    assert any("skipped" in e["text"] and "costs 10 EP" in e["text"] for e in report["events"])
    ledger_sums_match(world.campaign)


def test_a_phase_runs_once_however_often_it_is_asked() -> None:
    world = two_power_world()
    turn_claim(turn_id=world.turn.pk, now=timezone.now())
    assert phase_run(turn_id=world.turn.pk, number=9, now=timezone.now())
    assert not phase_run(turn_id=world.turn.pk, number=9, now=timezone.now())
    assert LedgerEntry.objects.filter(kind="income").count() == 2
    assert TurnPhase.objects.filter(turn=world.turn, phase=9).count() == 1


def test_a_dry_run_shows_the_turn_and_writes_nothing() -> None:
    world = two_power_world()
    result = turn_dry_run(turn_id=world.turn.pk, now=timezone.now())
    assert {p["phase"] for p in result["phases"]} == set(phases_remaining(world.turn.pk))
    world.turn.refresh_from_db()
    assert world.turn.status == Turn.Status.OPEN
    assert not TurnPhase.objects.exists() and not TurnReport.objects.exists()
    assert LedgerEntry.objects.count() == 2 and Turn.objects.count() == 1


def test_resolve_turn_dry_run_command_prints_what_would_happen(capsys) -> None:
    two_power_world()
    call_command("resolve_turn", "channel-1805", "--dry-run")
    out = capsys.readouterr().out
    assert "would resolve" in out and "Income 4 EP" in out and "nothing was written" in out


def test_resolve_turn_refuses_an_unknown_campaign() -> None:
    with pytest.raises(CommandError, match="No campaign with slug 'nowhere'"):
        call_command("resolve_turn", "nowhere")


def test_a_resolution_that_keeps_failing_waits_for_the_gms_retry() -> None:
    """A bug that fails a phase is not retried every 15 s for ever: after TURN_MAX_ATTEMPTS failures the
    sweep leaves the turn (its error on show) until the GM retries; a dead worker (no error) is always
    resumed."""
    from django.conf import settings

    from campaign.turn.lifecycle import turn_retry, turns_stalled

    world = two_power_world()
    now = timezone.now()
    assert turn_claim(turn_id=world.turn.pk, now=now)
    limit = settings.TURN_MAX_ATTEMPTS
    Turn.objects.filter(pk=world.turn.pk).update(attempts=limit - 1, error="ValueError: boom")
    assert turns_stalled(now=now) == [world.turn.pk]
    Turn.objects.filter(pk=world.turn.pk).update(attempts=limit)
    assert turns_stalled(now=now) == []
    Turn.objects.filter(pk=world.turn.pk).update(error="")
    assert turns_stalled(now=now) == [world.turn.pk]  # killed workers leave no error: always resumed
    Turn.objects.filter(pk=world.turn.pk).update(error="ValueError: boom")
    turn_retry(turn=Turn.objects.get(pk=world.turn.pk))
    assert turns_stalled(now=now) == [world.turn.pk]
    assert turn_resolve(world.turn.pk) == "done"
    with pytest.raises(TurnControlError, match="nothing to retry"):
        turn_retry(turn=Turn.objects.get(pk=world.turn.pk))
