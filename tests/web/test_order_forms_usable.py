"""Issue 13, "Forms": each order form preselects something that can act or says why nothing can (no
empty list with an active button), lists only what the order can use (damaged ships for repair, by
the repair check's own rule; a fleet's ships for a transfer), and orders can be moved up and down
their list — the listed order is the order of resolution — without JavaScript, through a service
that checks the new list as a whole, and through the API."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from campaign.models import Order
from campaign.orders.errors import OrderRefused, RefusalCode
from campaign.orders.services import order_add, order_move, orders_reorder
from fleets.models import Fleet
from tests.factories import ShipFactory
from tests.support.played_campaign import kept
from tests.web.fog_worlds import client_for, players_world
from tests.worlds import World

pytestmark = pytest.mark.django_db


def _world() -> World:
    return players_world(treasury=120)


@pytest.fixture
def world() -> World:
    """The players' world, its rows copied in (built once, kept in the played-rows cache)."""
    return kept(_world, shift="exact", fresh_ids=True)


def _page(w: World, kind: str, **query: str) -> str:
    url = reverse("campaign:orders", args=[w.campaign.slug]) + f"?kind={kind}"
    url += "".join(f"&{k}={v}" for k, v in query.items())
    response = client_for(w.gb.player).get(url)
    assert response.status_code == 200
    return response.content.decode()


def _form(page: str) -> str:
    start = page.index('id="order-form"')
    return page[start : page.index("</form>", start)]


def _options(page: str, name: str) -> list[str]:
    start = page.index(f'name="{name}"')
    select = page[start : page.index("</select>", start)]
    return [re.sub(r"<[^>]+>", "", o) for o in re.findall(r"<option[^>]*>.*?</option>", select)]


def _selected(page: str, name: str) -> str:
    start = page.index(f'name="{name}"')
    select = page[start : page.index("</select>", start)]
    match = re.search(r'<option value="([^"]*)" selected>', select)
    return match.group(1) if match else ""


def _submit_button(form: str) -> str:
    return re.search(r'<button type="submit" class="primary"[^>]*>', form).group(0)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("kind", "reason"),
    [
        ("fireships", "None of your fleets has a fireship."),
        ("embark", "None of your fleets has an empty transport."),
        ("land", "None of your fleets carries land units."),
        ("recommission", "None of your ships is laid up in ordinary in an own port."),
        ("repair", "None of your ships is damaged or disabled: there is nothing to repair."),
        ("propose_alliance", "No nation: this order is given only to a nation you are at peace with."),
    ],
)
def test_a_form_with_nothing_to_choose_says_why_and_its_button_is_disabled(
    world: World, kind: str, reason: str
) -> None:
    form = _form(_page(world, kind))
    assert reason in form
    assert " disabled" in _submit_button(form)


def test_a_form_with_choices_has_an_active_button(world: World) -> None:
    form = _form(_page(world, "move"))
    assert 'id="form-blocked"' not in form
    assert " disabled" not in _submit_button(form)


def test_move_preselects_a_fleet_that_can_move_and_marks_the_one_that_cannot(world: World) -> None:
    # The first fleet by name is laid up in port: it cannot move, and is not the one offered first.
    stuck = Fleet.objects.create(
        campaign=world.campaign,
        nation=world.gb,
        name="Adamant Reserve",
        sea_zone=world.channel,
        port=world.portsmouth,
        crew="B",
    )
    ShipFactory.create(fleet=stuck, nation=world.gb, name="Hulk", in_ordinary=True)
    page = _page(world, "move")
    assert _selected(page, "fleet") == str(world.channel_fleet.pk)
    assert any("Adamant Reserve" in o and "cannot move now" in o for o in _options(page, "fleet"))
    assert _options(page, "path"), "the preselected fleet has paths to choose"
    # Asking for the stuck fleet explains why, with the button off.
    form = _form(_page(world, "move", fleet=str(stuck.pk)))
    assert "Adamant Reserve cannot move: ships in ordinary cannot leave port" in form and "Hulk" in form
    assert " disabled" in _submit_button(form)


def test_repair_lists_only_damaged_ships_grouped_by_whether_the_repair_check_allows_it_now(world: World) -> None:
    at_sea = Fleet.objects.create(
        campaign=world.campaign, nation=world.gb, name="Cruisers", sea_zone=world.channel, crew="B"
    )
    ShipFactory.create(fleet=world.channel_fleet, nation=world.gb, name="Battered", condition="damaged")
    ShipFactory.create(fleet=at_sea, nation=world.gb, name="Holed", condition="disabled")
    page = _page(world, "repair")
    options = _options(page, "ship")
    assert len(options) == 2, options  # the ready ships of the line are not offered
    assert any(o.startswith("Battered") and "not now" not in o for o in options)
    assert any(
        o.startswith("Holed") and "not now: Holed is at sea; ships are repaired in an own port" in o for o in options
    )
    assert '<optgroup label="Can be repaired now">' in page


def test_transfer_offers_one_fleets_ships_and_only_fleets_in_the_same_place(world: World) -> None:
    reserve = Fleet.objects.create(
        campaign=world.campaign,
        nation=world.gb,
        name="Reserve",
        sea_zone=world.channel,
        port=world.portsmouth,
        crew="B",
    )
    ShipFactory.create(fleet=reserve, nation=world.gb, name="Spare")
    far = Fleet.objects.create(
        campaign=world.campaign, nation=world.gb, name="Far Away", sea_zone=world.biscay, crew="B"
    )
    ShipFactory.create(fleet=far, nation=world.gb, name="Distant")
    page = _page(world, "transfer", fleet=str(world.channel_fleet.pk))
    form = _form(page)
    assert "Ships of Channel Fleet" in form
    assert "HMS 0" in form and "Spare" not in form and "Distant" not in form
    assert _options(page, "to_fleet") == [next(o for o in _options(page, "to_fleet") if o.startswith("Reserve"))]
    # From a fleet alone in its place there is nowhere to move ships: said, button off.
    form = _form(_page(world, "transfer", fleet=str(far.pk)))
    assert "No other fleet of yours is at sea in" in form and " disabled" in _submit_button(form)


def test_the_land_form_stores_its_order(world: World) -> None:
    from ports.models import LandUnit

    transport = ShipFactory.create(fleet=world.channel_fleet, nation=world.gb, name="Trooper", ship_class="transport")
    unit = LandUnit.objects.create(campaign=world.campaign, nation=world.gb, port=world.portsmouth)
    unit.state = LandUnit.State.EMBARKED
    unit.port = None
    unit.save()
    transport.cargo = unit
    transport.save(update_fields=["cargo"])
    url = reverse("campaign:orders", args=[world.campaign.slug])
    data = {"kind": "land", "fleet": world.channel_fleet.pk, "port": "portsmouth", "units": "1"}
    response = client_for(world.gb.player).post(url, data)
    assert response.status_code == 302, response.content.decode()[-2000:]
    assert Order.objects.get(nation=world.gb).body == {
        "kind": "land",
        "fleet": world.channel_fleet.pk,
        "port": "portsmouth",
        "units": 1,
    }


# --- reordering ----------------------------------------------------------------------------------------------


def _two_fleets_and_orders(w: World) -> tuple[Order, Order]:
    """A move of the Channel Fleet listed before its merge into the Reserve: valid in that order only
    (a merged fleet "takes no later order")."""
    reserve = Fleet.objects.create(
        campaign=w.campaign, nation=w.gb, name="Reserve", sea_zone=w.channel, port=w.portsmouth, crew="B"
    )
    ShipFactory.create(fleet=reserve, nation=w.gb, name="Spare")
    move = order_add(nation=w.gb, body={"kind": "posture", "fleet": w.channel_fleet.pk, "posture": "avoid"})
    merge = order_add(nation=w.gb, body={"kind": "merge", "fleet": w.channel_fleet.pk, "into": reserve.pk})
    return move, merge


def test_moving_an_order_that_would_leave_another_refused_is_refused_and_nothing_moves(world: World) -> None:
    first, second = _two_fleets_and_orders(world)
    with pytest.raises(OrderRefused) as refused:
        order_move(order=second, by=-1)
    assert refused.value.code == RefusalCode.BREAKS_ANOTHER_ORDER
    assert list(Order.objects.filter(nation=world.gb).values_list("pk", "position")) == [(first.pk, 1), (second.pk, 2)]


def test_orders_move_up_and_down_and_keep_their_bodies(world: World) -> None:
    a = order_add(nation=world.gb, body={"kind": "raise", "unit": "land_unit", "port": "portsmouth"})
    b = order_add(nation=world.gb, body={"kind": "lay_down", "class": "frigate", "name": "Naiad", "port": "portsmouth"})
    c = order_add(nation=world.gb, body={"kind": "raise", "unit": "siege_train", "port": "portsmouth"})
    moved = order_move(order=c, by=-1)
    assert moved.position == 2
    assert list(Order.objects.filter(nation=world.gb).values_list("pk", flat=True)) == [a.pk, c.pk, b.pk]
    with pytest.raises(OrderRefused) as refused:
        order_move(order=a, by=-1)
    assert refused.value.code == RefusalCode.CANNOT_MOVE and "already first of 3" in refused.value.message
    assert orders_reorder(nation=world.gb, order_ids=[b.pk, a.pk, c.pk])[0].pk == b.pk
    assert Order.objects.get(pk=b.pk).body["name"] == "Naiad" and Order.objects.get(pk=b.pk).position == 1
    with pytest.raises(OrderRefused) as refused:
        orders_reorder(nation=world.gb, order_ids=[b.pk, a.pk])
    assert refused.value.code == RefusalCode.NOT_THE_LIST


def test_the_orders_page_moves_an_order_without_javascript(world: World) -> None:
    a = order_add(nation=world.gb, body={"kind": "raise", "unit": "land_unit", "port": "portsmouth"})
    b = order_add(nation=world.gb, body={"kind": "raise", "unit": "siege_train", "port": "portsmouth"})
    client = client_for(world.gb.player)
    page = client.get(reverse("campaign:orders", args=[world.campaign.slug])).content.decode()
    assert f'action="{reverse("campaign:order_move", args=[world.campaign.slug, b.pk])}"' in page
    response = client.post(reverse("campaign:order_move", args=[world.campaign.slug, b.pk]), {"direction": "up"})
    assert response.status_code == 302
    assert list(Order.objects.filter(nation=world.gb).values_list("pk", flat=True)) == [b.pk, a.pk]
    page = client.get(response["Location"]).content.decode()
    assert "Moved up to place 1" in page
    response = client.post(reverse("campaign:order_move", args=[world.campaign.slug, b.pk]), {"direction": "sideways"})
    page = client.get(response["Location"]).content.decode()
    assert "Move an order “up” or “down”, not &#x27;sideways&#x27;." in page
    # Another nation's order is not found, as if it did not exist.
    other = order_add(nation=world.fr, body={"kind": "raise", "unit": "land_unit", "port": "brest"})
    assert (
        client.post(
            reverse("campaign:order_move", args=[world.campaign.slug, other.pk]), {"direction": "up"}
        ).status_code
        == 404
    )


def test_the_api_reorders_the_list(world: World) -> None:
    a = order_add(nation=world.gb, body={"kind": "raise", "unit": "land_unit", "port": "portsmouth"})
    b = order_add(nation=world.gb, body={"kind": "raise", "unit": "siege_train", "port": "portsmouth"})
    client = client_for(world.gb.player)
    url = f"/api/v1/campaigns/{world.campaign.slug}/orders/"
    response = client.patch(url, json.dumps({"order": [b.pk, a.pk]}), content_type="application/json")
    assert response.status_code == 200, response.content
    assert [o["id"] for o in response.json()["orders"]] == [b.pk, a.pk]
    response = client.patch(url, json.dumps({"order": [b.pk]}), content_type="application/json")
    assert response.status_code == 400 and response.json()["errors"][0]["code"] == "not_the_list"
    response = client.patch(url, json.dumps([b.pk, a.pk]), content_type="application/json")
    assert response.status_code == 400 and response.json()["errors"][0]["code"] == "not_the_list"
