"""What a bot plays from (issue 30): the nations and how they stand, the rules as numbers, a fleet's
legal moves, orders checked without storing, the list of turns; and refusals a program can read
(``index``, ``field`` as a path, the numbers as members).

RULES.md §3 "Fog of war": "A nation sees its own and allied forces ... It sees nothing of neutral
fleets." Relations are public (every nation sees all relations); offers only between the two nations.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from campaign.models import Campaign, DiplomaticOffer, NationTurn, Order
from campaign.orders.choices import OrderChoices, order_desk_for_player
from campaign.orders.services import orders_replace
from rules.ruleset import Ruleset
from tests.web.fog_worlds import FogWorld, turn_close

pytestmark = pytest.mark.django_db

SLUG = "channel-1805"
BASE = f"/api/v1/campaigns/{SLUG}"


def _as(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


# --- nations -------------------------------------------------------------------------------------------


def test_the_nations_list_gives_each_relation_to_the_callers_nation(fw: FogWorld) -> None:
    rows = {r["code"]: r for r in _as(fw.nelson).get(f"{BASE}/nations/").json()["results"]}
    assert {c: r["relation"] for c, r in rows.items()} == {
        "GB": "self",
        "FR": "war",
        "PT": "alliance",
        "NL": "peace",
    }
    assert rows["GB"]["player"] == "nelson" and rows["FR"]["player"] == "villeneuve"
    assert rows["PT"]["player"] is None and rows["NL"]["name"] == "Batavian Republic"
    # France sees the same world from its side: the Dutch are its allies, Portugal a neutral.
    french = {r["code"]: r["relation"] for r in _as(fw.villeneuve).get(f"{BASE}/nations/").json()["results"]}
    assert french == {"GB": "war", "FR": "self", "PT": "peace", "NL": "alliance"}


def test_offers_are_shown_only_to_the_two_nations_they_concern(fw: FogWorld) -> None:
    DiplomaticOffer.objects.create(
        campaign=fw.campaign, from_nation=fw.w.fr, to_nation=fw.w.gb, kind=DiplomaticOffer.Kind.PEACE, turn=1
    )
    british = {r["code"]: r for r in _as(fw.nelson).get(f"{BASE}/nations/").json()["results"]}
    assert british["FR"]["offers"] == [{"from_nation": "FR", "to_nation": "GB", "kind": "peace", "turn": 1}]
    assert british["PT"]["offers"] == [] and british["GB"]["offers"] == []
    # Portugal's player (here the GM looking through Portugal) sees no letter between two others.
    portuguese = _as(fw.gm).get(f"{BASE}/nations/?nation=PT").json()["results"]
    assert all(r["offers"] == [] for r in portuguese)


def test_readiness_is_given_unless_the_campaign_hides_it(fw: FogWorld) -> None:
    NationTurn.objects.filter(nation=fw.w.fr).update(ready=True)
    rows = {r["code"]: r["ready"] for r in _as(fw.nelson).get(f"{BASE}/nations/").json()["results"]}
    assert rows == {"GB": False, "FR": True, "PT": False, "NL": False}
    Campaign.objects.filter(pk=fw.campaign.pk).update(show_readiness=False)
    hidden = {r["code"]: r["ready"] for r in _as(fw.nelson).get(f"{BASE}/nations/").json()["results"]}
    assert set(hidden.values()) == {None}


def test_the_nations_list_shows_nothing_secret(fw: FogWorld) -> None:
    for row in _as(fw.nelson).get(f"{BASE}/nations/").json()["results"]:
        assert set(row) == {"code", "name", "player", "relation", "offers", "ready"}
    assert _as(fw.nelson).get(f"{BASE}/nations/?nation=FR").status_code == 403
    assert _as(fw.outsider).get(f"{BASE}/nations/").status_code == 404


# --- rules ---------------------------------------------------------------------------------------------


def test_the_rules_are_the_campaigns_numbers_house_rules_included(fw: FogWorld) -> None:
    Campaign.objects.filter(pk=fw.campaign.pk).update(
        settings={"ship.cost.frigate": 7, "movement.max_steps": 3, "economy.raise_siege_train_cost": 9}
    )
    data = _as(fw.nelson).get(f"{BASE}/rules/").json()
    classes = {c["ship_class"]: c for c in data["ship_classes"]}
    assert classes["frigate"]["cost"] == 7 and classes["1st"]["cost"] == 20
    assert classes["four-decker"]["build_turns"] == 6 and classes["four-decker"]["counts_for_quota"] is True
    assert classes["3rd-74"]["repair_damaged"] == 1 and classes["3rd-74"]["repair_disabled"] == 3
    assert data["movement"]["max_steps"] == 3 and data["raise_costs"] == {"land_unit": 3, "siege_train": 9}
    assert data["quota"]["period"] == "1800" and data["quota"]["percent"] == 20
    assert data["quota"]["table"]["FR"] == {"pre1792": 10, "1792": 10, "1800": 10, "1809": 15}
    assert data["house_rules"] == {"ship.cost.frigate": 7, "movement.max_steps": 3, "economy.raise_siege_train_cost": 9}
    ruleset = Ruleset.from_flat(data["house_rules"])
    assert data["settings"] == dict(ruleset.flat)
    assert data["settings"]["orders.keep_ready"] == 0


# --- legal moves ---------------------------------------------------------------------------------------


def test_a_fleets_moves_are_the_paths_the_order_form_offers(fw: FogWorld) -> None:
    fleet = fw.w.channel_fleet
    data = _as(fw.nelson).get(f"{BASE}/fleets/{fleet.pk}/moves/").json()
    assert data["fleet"] == fleet.pk and data["turn"] == 1
    desk = order_desk_for_player(user=fw.nelson, slug=SLUG)
    choices = OrderChoices(desk=desk)
    offered = {p.steps for p in choices.move_paths(choices.fleets_by_id[fleet.pk])}
    assert {tuple(p["path"]) for p in data["paths"]} == offered
    to_biscay = next(p for p in data["paths"] if p["path"] == ["sea", "biscay"])
    assert to_biscay["zones"] == ["biscay"] and to_biscay["zone"] == "biscay" and to_biscay["port"] is None
    # Brest is France's: no path enters it.
    assert all(p["port"] in (None, "portsmouth") for p in data["paths"])


def test_every_path_given_is_accepted_as_a_move_order(fw: FogWorld) -> None:
    fleet = fw.w.channel_fleet
    client = _as(fw.nelson)
    for path in client.get(f"{BASE}/fleets/{fleet.pk}/moves/").json()["paths"]:
        body = [{"kind": "move", "fleet": fleet.pk, "path": path["path"]}]
        assert client.post(f"{BASE}/orders/validate/", body, format="json").status_code == 200, path


def test_a_nation_never_sees_another_nations_fleet_moves(fw: FogWorld) -> None:
    client = _as(fw.nelson)
    for fleet in (fw.w.brest_fleet, fw.lisbon_fleet, fw.dutch_fleet):  # enemy, ally, neutral
        response = client.get(f"{BASE}/fleets/{fleet.pk}/moves/")
        assert response.status_code == 404, fleet.name
        assert response.json()["errors"][0] == {
            "index": None,
            "field": None,
            "code": "not_found",
            "message": response.json()["detail"],
        }
    assert client.get(f"{BASE}/fleets/{2**62}/moves/").status_code == 404
    assert _as(fw.gm).get(f"{BASE}/fleets/{fw.w.brest_fleet.pk}/moves/?nation=FR").status_code == 200


def test_moves_are_closed_while_no_turn_is_open(fw: FogWorld) -> None:
    from campaign.models import Turn

    Turn.objects.filter(campaign=fw.campaign).update(status=Turn.Status.RESOLVING)
    response = _as(fw.nelson).get(f"{BASE}/fleets/{fw.w.channel_fleet.pk}/moves/")
    assert response.status_code == 409 and response.json()["errors"][0]["code"] == "turn_closed"


# --- validation ----------------------------------------------------------------------------------------


def test_validation_answers_each_order_in_words_and_stores_nothing(fw: FogWorld) -> None:
    body = [
        {"kind": "lay_down", "class": "frigate", "name": "Amethyst", "port": "portsmouth"},
        {"kind": "move", "fleet": fw.w.channel_fleet.pk, "path": ["sea", "biscay"]},
    ]
    response = _as(fw.nelson).post(f"{BASE}/orders/validate/", body, format="json")
    assert response.status_code == 200, response.json()
    data = response.json()
    assert data["nation"] == "GB" and data["turn"] == 1
    assert [o["kind"] for o in data["orders"]] == ["lay_down", "move"]
    assert data["orders"][1]["description"] == "Order 2 (move, fleet 'Channel Fleet'): sea → biscay"
    assert not Order.objects.filter(nation=fw.w.gb).exists()
    assert NationTurn.objects.get(nation=fw.w.gb).submitted_at is None


def test_validation_refuses_exactly_as_put_would(fw: FogWorld) -> None:
    body = [
        {"kind": "posture", "fleet": fw.w.channel_fleet.pk, "posture": "seek"},
        {"kind": "lay_down", "class": "frigate", "name": "Amethyst", "port": "portsmouth", "colour": "red"},
        {"kind": "move", "fleet": fw.w.channel_fleet.pk, "path": ["sea", "biscay", "channel"]},
        {"kind": "lay_down", "class": "four-decker", "name": "Goliath", "port": "portsmouth"},
        {"kind": "lay_down", "class": "four-decker", "name": "Leviathan", "port": "portsmouth"},
        {"kind": "lay_down", "class": "1st", "name": "Titan", "port": "portsmouth"},
        {"kind": "lay_down", "class": "2nd", "name": "Ajax", "port": "portsmouth"},
    ]
    client = _as(fw.nelson)
    checked = client.post(f"{BASE}/orders/validate/", body, format="json")
    replaced = client.put(f"{BASE}/orders/", body, format="json")
    assert checked.status_code == replaced.status_code == 400
    assert checked.json() == replaced.json()
    errors = checked.json()["errors"]
    assert [(e["index"], e["field"], e["code"]) for e in errors] == [
        (1, "[1].colour", "unknown_key"),
        (2, "[2].path", "path_too_long"),
        (4, "[4].class", "four_decker_limit"),
        (6, "[6].class", "over_quota"),
    ]
    assert errors[1]["steps"] == 3 and errors[1]["limit"] == 2
    assert errors[2]["limit"] == 1 and errors[2]["have"] == 1
    assert (errors[3]["limit"], errors[3]["big"], errors[3]["sol"]) == (20, 3, 13)
    assert not Order.objects.filter(nation=fw.w.gb).exists()


def test_a_single_orders_refusal_has_no_index_and_its_numbers(fw: FogWorld) -> None:
    body = {"kind": "lay_down", "class": "four-decker", "name": "Goliath", "port": "portsmouth"}
    keels = [{"kind": "lay_down", "class": "3rd-74", "name": f"Keel {n}", "port": "portsmouth"} for n in range(4)]
    orders_replace(nation=fw.w.gb, bodies=keels)
    error = _as(fw.nelson).post(f"{BASE}/orders/", body, format="json").json()["errors"][0]
    assert error["index"] is None and error["field"] == "class" and error["code"] == "not_enough_ep"
    assert (error["cost"], error["available"], error["treasury"], error["committed"]) == (30, 20, 60, 40)


def test_a_refusal_carries_its_numbers_from_the_state_not_only_the_rules(fw: FogWorld) -> None:
    ship = fw.w.channel_fleet.ships.order_by("pk").first()
    assert ship is not None
    body = [
        {"kind": "form_fleet", "ships": [ship.pk], "name": "x" * 81},
        {"kind": "land", "fleet": fw.w.channel_fleet.pk, "port": "portsmouth", "units": 2},
    ]
    errors = _as(fw.nelson).post(f"{BASE}/orders/validate/", body, format="json").json()["errors"]
    assert [(e["index"], e["field"], e["code"]) for e in errors] == [
        (0, "[0].name", "bad_name"),
        (1, "[1].units", "not_enough_units"),
    ]
    assert (errors[0]["limit"], errors[0]["length"]) == (80, 81)
    assert (errors[1]["units"], errors[1]["available"]) == (2, 0)


def test_validation_of_a_closed_turn_is_a_409(fw: FogWorld) -> None:
    turn_close(fw.campaign)
    response = _as(fw.nelson).post(f"{BASE}/orders/validate/", [{"turn": 1, "kind": "sally"}], format="json")
    assert response.status_code == 409 and response.json()["open_turn"] == 2


# --- turns ---------------------------------------------------------------------------------------------


def test_the_turns_list_gives_every_turn_newest_first(fw: FogWorld) -> None:
    turn_close(fw.campaign)
    data = _as(fw.nelson).get(f"{BASE}/turns/").json()
    assert data["count"] == 2
    assert [(t["number"], t["status"], t["season"]) for t in data["results"]] == [
        (2, "open", "summer"),
        (1, "resolved", "spring"),
    ]
    assert data["results"][1]["resolved_at"] is not None
    assert _as(fw.outsider).get(f"{BASE}/turns/").status_code == 404
