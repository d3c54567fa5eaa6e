"""The table's result through the API (issue 15): players of both sides enter and confirm, the GM
approves; an impossible result is a 400 naming the field, changing nothing; a player of neither side
may not enter one."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from battles.models import Battle, TabletopBattle
from campaign.accounts.api_tokens import api_token_create
from campaign.models import Turn
from fleets.models import Ship
from ports.models import LandUnit, Port
from tests.support.tabletop import gibraltar_siege, gibraltar_storming, table_ships

pytestmark = pytest.mark.django_db


def _client(user_id: int) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {api_token_create(user_id=user_id, name='table').secret}")
    return client


def test_both_sides_enter_and_confirm_and_the_gm_approves_through_the_api() -> None:
    world, table, _ = gibraltar_siege()
    users = get_user_model().objects
    fr_player = users.create_user("villeneuve", "v@example.com", "pw")
    gb_player = users.create_user("nelson", "n@example.com", "pw")
    world.fr.player, world.gb.player = fr_player, gb_player
    world.fr.save()
    world.gb.save()
    base = f"/api/v1/campaigns/{world.campaign.slug}/table/{table.pk}/"
    fr, gb, gm = _client(fr_player.pk), _client(gb_player.pk), _client(world.campaign.gm_id or 0)

    state = fr.get(base)
    assert state.status_code == 200, state.content
    data = state.json()
    assert data["status"] == "waiting" and data["my_side"] == 0 and data["sides"] == ["France", "Great Britain"]
    ships = {s["name"]: s for s in data["ships"]}
    assert len(ships) == 7 and ships["Escadre de Cadix 1"]["captors"] == ["GB"]

    rows = [{"ship": s["id"], "fate": "intact"} for s in data["ships"]]
    rows[0] = {"ship": ships["Escadre de Cadix 1"]["id"], "fate": "captured", "captured_by": "ES"}
    refused = fr.post(base + "result/", {"ships": rows, "held_field": 1}, format="json")
    assert refused.status_code == 400
    problem = refused.json()
    assert problem["errors"][0]["field"] == "ships[0].captured_by", problem
    assert "France" not in problem["detail"] and "Great Britain (GB)" in problem["detail"]
    assert TabletopBattle.objects.get(pk=table.pk).result == {}

    prize_id = ships["Escadre de Cadix 1"]["id"]
    rows[0] = {
        "ship": prize_id,
        "fate": "captured",
        "captured_by": "GB",
        "taken_in": "damaged",
    }
    entered = fr.post(base + "result/", {"ships": rows, "admirals_lost": [], "held_field": 1}, format="json")
    assert entered.status_code == 200 and entered.json()["status"] == "entered"
    early = gm.post(base + "approve/")
    assert early.status_code == 409  # not confirmed by the other side yet
    confirmed = gb.post(base + "confirm/")
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "confirmed"
    approved = gm.post(base + "approve/")
    assert approved.status_code == 200 and approved.json()["status"] == "applied"
    battle = Battle.objects.get(turn=world.turn, place="gibraltar")
    assert battle.winner == 1 and battle.report["type"] == "tabletop"
    prize = Ship.objects.select_related("nation", "original_nation").get(pk=prize_id)
    assert (prize.nation.code, prize.original_nation.code, prize.condition) == ("GB", "FR", "damaged")
    assert Turn.objects.get(pk=world.turn.pk).status == Turn.Status.RESOLVING


def test_a_player_of_neither_side_cannot_see_or_enter_the_result() -> None:
    world, table, _ = gibraltar_siege()
    stranger = get_user_model().objects.create_user("stranger", "s@example.com", "pw")
    response = _client(stranger.pk).get(f"/api/v1/campaigns/{world.campaign.slug}/table/{table.pk}/")
    assert response.status_code == 404
    assert len(table_ships(table)) == 7


def test_a_storming_result_is_entered_confirmed_and_approved_through_the_api() -> None:
    world, table, _ = gibraltar_storming()
    users = get_user_model().objects
    fr_player = users.create_user("massena", "m@example.com", "pw")
    gb_player = users.create_user("eliott", "e@example.com", "pw")
    world.fr.player, world.gb.player = fr_player, gb_player
    world.fr.save()
    world.gb.save()
    base = f"/api/v1/campaigns/{world.campaign.slug}/table/{table.pk}/"
    fr, gb, gm = _client(fr_player.pk), _client(gb_player.pk), _client(world.campaign.gm_id or 0)

    data = fr.get(base).json()
    assert (data["kind"], data["my_side"], data["sides"]) == ("storming", 0, ["France", "Great Britain"])
    assert data["storming"] == {"garrison": 1, "besiegers": [{"code": "FR", "name": "France", "units": 3}]}
    refused = fr.post(
        base + "storming-result/", {"garrison_lost": 0, "besiegers_lost": {"FR": 4}, "port_taken": False}, format="json"
    )
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "besiegers_lost.FR"
    assert "4 units lost, but France had only 3 there" in refused.json()["detail"]
    assert TabletopBattle.objects.get(pk=table.pk).result == {}
    ships_body = fr.post(base + "result/", {"ships": [], "held_field": None}, format="json")
    assert ships_body.status_code == 400  # a storming's result is units lost, not ships' fates

    body = {"garrison_lost": 0, "besiegers_lost": {"FR": 2}, "port_taken": False}
    entered = fr.post(base + "storming-result/", body, format="json")
    assert entered.status_code == 200 and entered.json()["status"] == "entered"
    assert gb.post(base + "confirm/").json()["status"] == "confirmed"
    approved = gm.post(base + "approve/")
    assert approved.status_code == 200 and approved.json()["status"] == "applied"
    # Two French units lost, the siege train last; the siege goes on with it (one more turn counted).
    left = LandUnit.objects.filter(campaign=world.campaign, nation=world.fr, state=LandUnit.State.ASHORE)
    assert [u.siege_train for u in left] == [True]
    assert Port.objects.get(campaign=world.campaign, key="gibraltar").siege_turns == 1
    assert Turn.objects.get(pk=world.turn.pk).status == Turn.Status.RESOLVING


def test_a_battles_result_is_not_entered_as_a_storming() -> None:
    world, table, _ = gibraltar_siege()
    response = _client(world.campaign.gm_id or 0).post(
        f"/api/v1/campaigns/{world.campaign.slug}/table/{table.pk}/storming-result/",
        {"garrison_lost": 0, "port_taken": False},
        format="json",
    )
    assert response.status_code == 400 and "This is a battle, not a storming" in response.json()["detail"]
