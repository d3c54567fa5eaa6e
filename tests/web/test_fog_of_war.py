"""Fog of war and permissions on the players' read pages (RULES.md §3 "Fog of war"; issue 5).

"A nation sees its own and allied forces; enemies it sighted or fought this turn; the ships in a
port it blockades; every port's owner, sieges and blockades; all relations. It sees nothing of
neutral fleets." And never another nation's orders, treasury or ledger.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import LedgerEntry, NationTurn, Relation, Turn
from campaign.orders.services import order_add
from campaign.pages.contacts import contacts_from_events
from campaign.services import ledger_post
from fleets.models import Fleet
from rules.turn_events import event_from_json
from tests.web.fog_worlds import (
    FogWorld,
    battle_event,
    battle_in,
    blockade_event,
    client_for,
    relate,
    sighting,
    turn_close,
)

pytestmark = pytest.mark.django_db


def _pages(fw: FogWorld) -> dict[str, str]:
    slug = fw.campaign.slug
    return {
        "dashboard": reverse("campaign:dashboard", args=[slug]),
        "map": reverse("campaign:map", args=[slug]),
        "turns": reverse("campaign:turns", args=[slug]),
    }


def _enemy_markers(html: str) -> int:
    return html.count('data-kind="enemy"')


# --- who may look at what ---------------------------------------------------------------------------


def test_a_player_is_refused_another_nations_pages(fw: FogWorld) -> None:
    """A player asking for France's dashboard, map or turn list gets 403, whatever the page."""
    turn_close(fw.campaign)
    client = client_for(fw.nelson)
    for url in [*_pages(fw).values(), reverse("campaign:turn", args=[fw.campaign.slug, 1])]:
        assert client.get(url + "?nation=FR").status_code == 403, url
        assert client.get(url + "?nation=GB").status_code == 200, url


def test_someone_outside_the_campaign_finds_nothing_there(fw: FogWorld) -> None:
    """A logged-in user with no nation in it and not its GM: the campaign does not exist (404)."""
    client = client_for(fw.outsider)
    for url in _pages(fw).values():
        assert client.get(url).status_code == 404
        assert client.get(url + "?nation=GB").status_code == 404
    response = client.post(reverse("campaign:ready", args=[fw.campaign.slug]), {"ready": "1", "nation": "GB"})
    assert response.status_code == 404


def test_an_anonymous_visitor_is_sent_to_log_in(fw: FogWorld) -> None:
    for url in _pages(fw).values():
        response = Client().get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


def test_an_unknown_nation_or_campaign_is_not_found(fw: FogWorld) -> None:
    client = client_for(fw.nelson)
    assert client.get(_pages(fw)["dashboard"] + "?nation=XX").status_code == 404
    assert client.get(reverse("campaign:dashboard", args=["no-such-campaign"])).status_code == 404


def test_a_player_cannot_mark_another_nation_ready(fw: FogWorld) -> None:
    client = client_for(fw.nelson)
    response = client.post(reverse("campaign:ready", args=[fw.campaign.slug]), {"ready": "1", "nation": "FR"})
    assert response.status_code == 403
    assert not NationTurn.objects.get(turn=fw.w.turn, nation=fw.w.fr).ready


def test_the_gm_looks_through_any_nations_eyes(fw: FogWorld) -> None:
    """The campaign's GM (and staff) may pick any nation; the page then shows that nation."""
    ledger_post(nation=fw.w.fr, turn=1, amount=7, kind=LedgerEntry.Kind.ADJUSTMENT, reason="Subsidy from Madrid")
    client = client_for(fw.gm)
    page = client.get(_pages(fw)["dashboard"] + "?nation=FR").content.decode()
    assert "Subsidy from Madrid" in page
    assert '<option value="FR" selected>' in page
    assert "GM view" in page
    staff = client_for(_staff())
    assert staff.get(_pages(fw)["map"] + "?nation=PT").status_code == 200


def _staff() -> object:
    from tests.web.fog_worlds import user

    return user("admiralty-staff", staff=True)


# --- never another nation's treasury, ledger, orders or report ------------------------------------------


def test_another_nations_treasury_ledger_and_orders_are_not_shown(fw: FogWorld) -> None:
    ledger_post(
        nation=fw.w.fr, turn=1, amount=13, kind=LedgerEntry.Kind.ADJUSTMENT, reason="Secret subsidy from Madrid"
    )
    order_add(nation=fw.w.fr, body={"kind": "lay_down", "class": "1st", "name": "Imperial Secret", "port": "brest"})
    client = client_for(fw.nelson)
    for url in _pages(fw).values():
        page = client.get(url).content.decode()
        assert "Secret subsidy" not in page
        assert "Imperial Secret" not in page
    fw.w.fr.refresh_from_db()
    dashboard = client.get(_pages(fw)["dashboard"]).content.decode()
    assert f"{fw.w.fr.treasury} <small>EP" not in dashboard  # France's 73 EP is nowhere as a treasury


def test_another_nations_report_is_never_read(fw: FogWorld) -> None:
    turn_close(
        fw.campaign,
        {
            fw.w.gb: [{"phase": 9, "text": "Income 5 EP, upkeep 3 EP; treasury 62 EP."}],
            fw.w.fr: [
                {"phase": 3, "text": "Our secret rendezvous off Ushant was kept."},
                sighting(fw.w.channel, [("GB", "1st", "ready")] * 9),
            ],
        },
    )
    client = client_for(fw.nelson)
    history = client.get(reverse("campaign:turn", args=[fw.campaign.slug, 1])).content.decode()
    assert "Income 5 EP" in history
    assert "secret rendezvous" not in history
    assert "Our secret" not in client.get(_pages(fw)["dashboard"]).content.decode()


# --- forces ------------------------------------------------------------------------------------------


def test_an_enemy_fleet_that_was_not_sighted_is_absent_from_the_map_and_dashboard(fw: FogWorld) -> None:
    """France's fleet is at sea in Biscay, but Britain's report saw nothing: no trace of it."""
    turn_close(fw.campaign, {fw.w.gb: [{"phase": 3, "text": "Channel Fleet is in Portsmouth."}]})
    client = client_for(fw.nelson)
    for url in (_pages(fw)["map"], _pages(fw)["map"] + "?zone=biscay", _pages(fw)["dashboard"]):
        page = client.get(url).content.decode()
        assert "Brest Fleet" not in page
        assert "Vaisseau" not in page
        assert _enemy_markers(page) == 0
    panel = client.get(_pages(fw)["map"] + "?zone=biscay").content.decode()
    assert "None seen here." in panel
    assert "No enemy ships were seen in turn 1" in client.get(_pages(fw)["dashboard"]).content.decode()


def test_a_sighted_enemy_is_shown_where_the_report_saw_it(fw: FogWorld) -> None:
    """§4: "A sighting shows the sighted ships (class, condition) in the nation's turn report"."""
    seen = [("FR", "3rd-74", "ready")] * 4 + [("FR", "3rd-74", "damaged")]
    turn_close(fw.campaign, {fw.w.gb: [sighting(fw.w.biscay, seen, step=2)]})
    client = client_for(fw.nelson)
    page = client.get(_pages(fw)["map"] + "?zone=biscay").content.decode()
    assert _enemy_markers(page) == 1
    assert "France: 5 ships seen at sea in Bay of Biscay" in page
    assert "5 × 3rd rate (74/80) (1 damaged)" in page
    assert "Brest Fleet" not in page and "Vaisseau" not in page  # class and condition only
    dashboard = client.get(_pages(fw)["dashboard"]).content.decode()
    assert "France — Bay of Biscay" in dashboard
    assert "Sighted in step 2" in dashboard
    # France's own view: the report was Britain's, France sees its own fleet and no enemy.
    french = client_for(fw.villeneuve).get(_pages(fw)["map"]).content.decode()
    assert _enemy_markers(french) == 0


def test_a_sighting_is_forgotten_when_the_next_turn_resolves(fw: FogWorld) -> None:
    """Enemies are shown as seen "this turn": the latest report only."""
    turn_close(fw.campaign, {fw.w.gb: [sighting(fw.w.biscay, [("FR", "1st", "ready")])]})
    turn_close(fw.campaign, {fw.w.gb: []})
    page = client_for(fw.nelson).get(_pages(fw)["map"]).content.decode()
    assert _enemy_markers(page) == 0


def test_enemies_fought_in_a_battle_are_shown_with_their_fates(fw: FogWorld) -> None:
    battle = battle_in(fw.campaign, fw.w.biscay, [["GB"], ["FR"]])
    event = battle_event(battle, [(0, "1st", "damaged"), (1, "3rd-74", "sunk"), (1, "3rd-74", "intact")])
    turn_close(fw.campaign, {fw.w.gb: [event], fw.w.fr: [event]})
    client = client_for(fw.nelson)
    dashboard = client.get(_pages(fw)["dashboard"]).content.decode()
    assert "France — Bay of Biscay" in dashboard
    assert "2 × 3rd rate (74/80) (1 sunk)" in dashboard
    assert "Fought" in dashboard
    page = client.get(_pages(fw)["map"]).content.decode()
    assert "France: 1 ship seen at sea in Bay of Biscay" in page  # the sunk one is not there any more
    history = client.get(reverse("campaign:turn", args=[fw.campaign.slug, 1])).content.decode()
    assert "Great Britain against France" in history


def test_a_blockader_sees_the_ships_in_the_port(fw: FogWorld) -> None:
    """§4: "A blockader sees the ships in the port it blockades without a roll"; own ships in the
    port are not counted as enemies."""
    event = blockade_event("brest", [("FR", "3rd-74", "ready")] * 6 + [("GB", "frigate", "ready")])
    turn_close(fw.campaign, {fw.w.gb: [event]})
    page = client_for(fw.nelson).get(_pages(fw)["map"] + "?zone=biscay").content.decode()
    assert "6 × 3rd rate (74/80)" in page
    assert "in Brest, which we blockade" in page
    marker = page.split("France: 6 ships seen in Brest")[0].rsplit("<g ", 1)[1]
    assert 'data-kind="enemy"' in marker  # beside Brest's zone, titled with the port
    assert f"translate({fw.w.biscay.x - 34} {fw.w.biscay.y - 14})" in marker
    assert "Frigate" not in page.split("Enemies seen")[1].split("Ports")[0]


def test_allied_fleets_are_shown_and_neutral_fleets_never(fw: FogWorld) -> None:
    client = client_for(fw.nelson)
    page = client.get(_pages(fw)["map"]).content.decode()
    assert 'data-kind="ally"' in page
    assert "Portugal: Tagus Squadron" in page
    assert "Texel Squadron" not in page
    assert "Batavian Republic: " not in page  # a neutral's ships are not drawn
    # A neutral sighted by mistake in a report still is not an allied force, and the alliance ends:
    relate(fw.w.gb, fw.pt, Relation.State.PEACE)
    assert "Tagus Squadron" not in client.get(_pages(fw)["map"]).content.decode()


def test_the_past_map_shows_only_what_that_turn_revealed(fw: FogWorld) -> None:
    """Turn history draws the next turn's opening snapshot: Britain's fleets where they ended the
    turn, France only where the report saw it."""
    turn_close(fw.campaign, {fw.w.gb: [sighting("biscay", [("FR", "2nd", "ready")] * 2)]})
    # After the turn the French fleet sails on; the past map must not follow it.
    Fleet.objects.filter(pk=fw.w.brest_fleet.pk).update(sea_zone=fw.w.channel)
    turn_close(fw.campaign, {fw.w.gb: []})
    client = client_for(fw.nelson)
    history = client.get(reverse("campaign:turn", args=[fw.campaign.slug, 1])).content.decode()
    assert _enemy_markers(history) == 1
    assert "France: 2 ships seen at sea in Bay of Biscay" in history
    assert "Brest Fleet" not in history
    assert "Great Britain: Channel Fleet" in history
    later = client.get(reverse("campaign:turn", args=[fw.campaign.slug, 2])).content.decode()
    assert _enemy_markers(later) == 0


def test_a_turn_not_yet_resolved_has_no_history(fw: FogWorld) -> None:
    client = client_for(fw.nelson)
    assert client.get(reverse("campaign:turn", args=[fw.campaign.slug, 1])).status_code == 404
    assert client.get(reverse("campaign:turn", args=[fw.campaign.slug, 99])).status_code == 404
    Turn.objects.filter(pk=fw.w.turn.pk).update(status=Turn.Status.RESOLVING)
    assert client.get(reverse("campaign:turn", args=[fw.campaign.slug, 1])).status_code == 404


# --- the report parser on its own ----------------------------------------------------------------------


def _parse(events: list[dict[str, object]], friendly: frozenset[str] = frozenset({"GB"})) -> list[object]:
    return contacts_from_events(  # type: ignore[return-value]
        [event_from_json(e) for e in events],
        viewer_code="GB",
        friendly_codes=friendly,
        nations={"GB": ("Great Britain", "#c00"), "FR": ("France", "#00c"), "ES": ("Spain", "#cc0")},
        zones={"biscay": "Bay of Biscay", "channel": "The Channel"},
        port_zones={"brest": "biscay"},
        battle_sides={},
    )


def test_two_blockaders_reporting_one_port_count_its_ships_once() -> None:
    ships = [("FR", "3rd-74", "ready")] * 19
    contacts = _parse([blockade_event("brest", ships), blockade_event("brest", ships)])
    assert len(contacts) == 1
    assert len(contacts[0].ships) == 19  # type: ignore[attr-defined]


def test_a_meeting_replaces_the_sighting_of_the_same_step() -> None:
    seen = sighting("biscay", [("FR", "1st", "ready")] * 3, step=1)
    met = {**seen, "text": "met", "how": "met"}
    contacts = _parse([seen, met])
    assert [c.how for c in contacts] == ["met"]  # type: ignore[attr-defined]


def test_a_squadron_sighted_then_fought_is_one_force_and_a_destroyed_one_is_gone() -> None:
    """Issue 28: "Known enemy forces" listed one squadron twice (sighted in step 1, met in step 2)
    and kept a fleet every ship of which was sunk or taken."""
    sighted = sighting("biscay", [("FR", "3rd-74", "ready")] * 2, step=1)
    met_later = {**sighting("biscay", [("FR", "3rd-74", "ready")] * 2, step=2), "how": "met", "text": "met"}
    sighted_later = sighting("channel", [("ES", "frigate", "ready")], step=1)
    again = sighting("channel", [("ES", "frigate", "ready")], step=2)
    contacts = _parse([sighted, met_later, sighted_later, again])
    assert sorted((c.nation_code, c.zone_key, c.how, c.step) for c in contacts) == [  # type: ignore[attr-defined]
        ("ES", "channel", "sighted", 2),
        ("FR", "biscay", "met", 2),
    ]
    all_gone = sighting("channel", [("FR", "1st", "sunk"), ("FR", "2nd", "captured")], step=3)
    assert [c.nation_code for c in _parse([all_gone])] == []  # type: ignore[attr-defined]


def test_allied_and_own_ships_in_a_report_are_not_enemies() -> None:
    event = sighting("channel", [("GB", "1st", "ready"), ("ES", "2nd", "ready"), ("FR", "frigate", "ready")])
    contacts = _parse([event], friendly=frozenset({"GB", "ES"}))
    assert [(c.nation_code, len(c.ships)) for c in contacts] == [("FR", 1)]  # type: ignore[attr-defined]


def test_events_that_are_not_contacts_are_ignored() -> None:
    events = [
        {"phase": 3, "text": "Channel Fleet (GB, 10 ships) is at sea in The Channel.", "zone": "channel", "fleet": 1},
        {"phase": 4, "text": "Channel Fleet (GB) blockades Brest.", "port": "brest"},
        {"phase": 7, "text": "A storm.", "zone": "biscay", "lost": [], "damaged": [3]},
        {"phase": 3, "text": "A sighting in a zone we do not know.", "zone": "atlantis", "sighted": [{"class": "1st"}]},
    ]
    assert _parse(events) == []
