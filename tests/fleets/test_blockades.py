"""The one "which ports are blockaded" selector (RULES.md §4 "Blockade"; issue 8):
fleets.selectors.blockades_for_turn, read by phases 6 to 9 and the players' pages."""

from __future__ import annotations

import pytest

from campaign.selectors import diplomacy_for_campaign
from fleets.models import Blockade
from fleets.selectors import blockades_for_turn
from tests.factories import FleetFactory
from tests.worlds import two_power_world

pytestmark = pytest.mark.django_db


def test_a_blockade_counts_against_nations_at_war_with_the_blockader_and_not_once_a_storm_lifts_it() -> None:
    """§4: a fleet blockades P "against every nation at war with it"; "A storm in phase 7 that damages
    or sinks at least half the blockading fleet's ships lifts it for supply, repairs and income"."""
    w = two_power_world()
    standing = FleetFactory.create(nation=w.fr, name="Blockaders", sea_zone=w.channel)
    stormed = FleetFactory.create(nation=w.gb, name="Stormed", sea_zone=w.biscay)
    Blockade.objects.create(campaign=w.campaign, turn=1, port=w.portsmouth, fleet=standing)
    Blockade.objects.create(campaign=w.campaign, turn=1, port=w.brest, fleet=stormed, lifted=True)
    Blockade.objects.create(campaign=w.campaign, turn=0, port=w.brest, fleet=stormed)  # last turn's
    at_war = diplomacy_for_campaign(campaign_id=w.campaign.pk).at_war
    now = blockades_for_turn(campaign_id=w.campaign.pk, turn=1, at_war=at_war)
    assert now.against(w.portsmouth.pk, w.gb.pk) and not now.against(w.portsmouth.pk, w.fr.pk)
    assert now.blockaders_of(w.portsmouth.pk, w.gb.pk) == [w.fr.pk]
    assert now.against_any(w.portsmouth.pk, [w.gb.pk, w.fr.pk]) == frozenset({w.gb.pk})
    assert not now.against(w.brest.pk, w.fr.pk)  # lifted by the storm
    before = blockades_for_turn(campaign_id=w.campaign.pk, turn=0, at_war=at_war)
    assert before.against(w.brest.pk, w.fr.pk) and not before.against(w.portsmouth.pk, w.gb.pk)
