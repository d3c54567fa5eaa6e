"""Revert and re-run on the europe-1805 scenario with every nation's orders (tests/golden's candidates):
ships laid down and launched, fleets formed, units raised, ports besieged and taken after the turn go
back; the re-run with the same seed gives the same campaign as the first run, export for export."""

from __future__ import annotations

import pytest

from campaign.backup.document import campaign_export
from campaign.gm.repair.services import campaign_revert
from campaign.models import CampaignRevert, Turn
from campaign.scenarios.loading import scenario_load
from tests.repair.worlds import id_sequences, id_sequences_restore, state_of, without_clock_times
from tests.support.exports import differences
from tests.support.random_orders import resolve_open_turn, submit_random_orders

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def test_three_turns_reverted_to_turn_2_and_played_again_come_out_the_same() -> None:
    campaign = scenario_load(name="europe-1805", slug="revert-1805", seed=1805)
    submit_random_orders(campaign)
    resolve_open_turn(campaign)
    submit_random_orders(campaign)
    sequences = id_sequences()  # where turn 2's resolution starts making rows
    resolve_open_turn(campaign)
    orders_from = id_sequences(("campaign_order",))  # report events quote order ids
    submit_random_orders(campaign)
    resolve_open_turn(campaign)
    first = campaign_export(campaign=campaign)
    opening = Turn.objects.get(campaign=campaign, number=2).snapshot
    assert opening is not None

    result = campaign_revert(campaign=campaign, turn_number=2, reason="Replay from turn 2", actor=None)
    assert result.archived["later turns"] == 2
    reverted = campaign_export(campaign=campaign, with_snapshots=False)
    assert state_of(reverted) == state_of(opening), differences(state_of(reverted), state_of(opening))
    assert [o["outcome"] for o in reverted["orders"] if o["turn"] == 2] == ["pending"] * sum(
        1 for o in first["orders"] if o["turn"] == 2
    )

    # Turn 2 again with its own orders, then turn 3 with the orders given the first time (they were
    # archived with the revert, and are entered again as a player would).
    id_sequences_restore(sequences)
    resolve_open_turn(campaign)
    archived = CampaignRevert.objects.get().archived("orders")
    assert archived, "turn 3's orders were archived"
    id_sequences_restore(orders_from)
    submit_random_orders(campaign)
    resolve_open_turn(campaign)
    again = campaign_export(campaign=campaign)
    # The audit log differs by design: it records the revert and the re-run.
    first.pop("audit", None), again.pop("audit", None)
    a, b = without_clock_times(first), without_clock_times(again)
    assert a == b, differences(a, b)
