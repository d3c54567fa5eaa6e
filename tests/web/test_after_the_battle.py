"""Issue 13, "the state after the turn, not before": a fleet destroyed in battle is gone from the map
and the dashboard, and the ships lost count the ones the enemy took."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from fleets.models import Ship
from tests.web.fog_worlds import FogWorld, battle_event, battle_in, client_for, sighting, turn_close

pytestmark = pytest.mark.django_db


def _page(fw: FogWorld, name: str, user: object) -> str:
    response = client_for(user).get(reverse(name, args=[fw.campaign.slug]))
    assert response.status_code == 200
    return response.content.decode()


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _french_fleet_sighted_then_destroyed(fw: FogWorld) -> None:
    """Britain sights three French ships in Biscay, then fights them: two sunk, one taken."""
    battle = battle_in(fw.campaign, fw.w.biscay, [["GB"], ["FR"]], winner=0)
    rows = [(0, "3rd-74", "damaged"), (1, "3rd-74", "sunk"), (1, "3rd-74", "sunk"), (1, "frigate", "captured")]
    turn_close(
        fw.campaign,
        {fw.w.gb: [sighting(fw.w.biscay, [("FR", "3rd-74", "ready")] * 3), battle_event(battle, rows)]},
    )


def test_the_map_shows_no_enemy_left_where_a_battle_sank_or_took_them_all(fw: FogWorld) -> None:
    _french_fleet_sighted_then_destroyed(fw)
    page = _page(fw, "campaign:map", fw.nelson)
    assert "France: 3 ships seen" not in page  # the sighting before the battle is not the last word
    assert "ships seen at sea in Bay of Biscay" not in page
    assert "ship seen at sea in Bay of Biscay" not in page


def test_the_map_shows_the_enemies_a_battle_left_afloat(fw: FogWorld) -> None:
    battle = battle_in(fw.campaign, fw.w.biscay, [["GB"], ["FR"]], winner=None)
    rows = [(0, "3rd-74", "damaged"), (1, "3rd-74", "damaged"), (1, "3rd-74", "sunk")]
    turn_close(
        fw.campaign,
        {fw.w.gb: [sighting(fw.w.biscay, [("FR", "3rd-74", "ready")] * 5), battle_event(battle, rows)]},
    )
    page = _page(fw, "campaign:map", fw.nelson)
    assert "France: 1 ship seen at sea in Bay of Biscay" in page
    assert "France: 5 ships seen" not in page


def test_a_fleet_with_no_ships_left_is_not_listed_as_a_force_and_prizes_count_as_lost(fw: FogWorld) -> None:
    """The dashboard of the beaten side: "Brest Fleet 0 ships · at sea" must not appear."""
    brest_ships = list(Ship.objects.filter(fleet=fw.w.brest_fleet).order_by("id"))
    taken, sunk = brest_ships[0], brest_ships[1:]
    Ship.objects.filter(pk__in=[s.pk for s in sunk]).update(condition=Ship.Condition.SUNK, fleet=None, lost_turn=1)
    taken.nation, taken.fleet = fw.w.gb, fw.w.channel_fleet
    taken.save(update_fields=["nation", "fleet"])
    page = _page(fw, "campaign:dashboard", fw.villeneuve)
    fleets = _text(page[page.index('id="fleets"') : page.index("</section>", page.index('id="fleets"'))])
    assert "Brest Fleet 0 ships" not in fleets and "0 ships (0 SOL)" not in fleets
    assert "Orders for Brest Fleet" not in fleets
    assert "No ships left in Brest Fleet: it is no longer a force." in fleets
    assert "Fleets 0 fleets, 0 ships, 0 of the line" in fleets
    assert "Ships lost 10" in fleets  # nine sunk and the prize
    assert f"{taken.name} (3rd rate (74/80)), captured by Great Britain" in fleets
    assert "Vaisseau 9 (3rd rate (74/80)), sunk in turn 1" in fleets
    # The captor lists the prize in its own fleet, taken from France, and has lost nothing.
    winner = _text(_page(fw, "campaign:dashboard", fw.nelson))
    assert "Channel Fleet 11 ships" in winner and "taken from France" in winner
    assert "Ships lost" not in winner
