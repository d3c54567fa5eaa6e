"""The order pages: the list with edit and withdraw, a form for every kind, refusals next to the field."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from campaign.models import Campaign, Nation, Order, Turn
from campaign.orders.forms import ORDER_FORMS
from campaign.orders.services import order_add
from fleets.models import Fleet
from tests.factories import AdmiralFactory, ShipFactory
from tests.support.order_forms import more_of_britain, order_form_cases
from tests.support.played_campaign import kept
from tests.web.fog_worlds import client_for, players_world, user
from tests.worlds import World

pytestmark = pytest.mark.django_db


def _world() -> World:
    return players_world(treasury=120)


@pytest.fixture
def world() -> World:
    """The players' world, its rows copied in (built once, kept in the played-rows cache)."""
    return kept(_world, shift="exact", fresh_ids=True)


def _url(w: World, **query: str) -> str:
    url = reverse("campaign:orders", args=[w.campaign.slug])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def _field_block(page: str, name: str) -> str:
    """The HTML of one field's block (label, input, its errors)."""
    start = page.index(f'id="field-{name}"')
    end = min(i for i in (page.find('id="field-', start + 10), page.find("</form>", start)) if i != -1)
    return page[start:end]


def _first_rates(w: World, n: int) -> None:
    for k in range(n):
        ShipFactory.create(fleet=w.channel_fleet, nation=w.gb, name=f"Old Royal {k}", ship_class="1st", crew="B")


# --- the page ------------------------------------------------------------------------------------------------


def test_the_orders_page_shows_the_treasury_and_only_the_nations_own_fleets(world: World) -> None:
    page = client_for(world.gb.player).get(_url(world)).content.decode()
    assert "Great Britain</h1>" in page and "Orders for turn 1" in page
    assert 'id="treasury">120 EP' in page
    assert "Channel Fleet" in page
    assert "Brest Fleet" not in page


@pytest.mark.parametrize("kind", sorted(ORDER_FORMS))
def test_every_order_kind_has_a_form(world: World, kind: str) -> None:
    response = client_for(world.gb.player).get(_url(world, kind=kind))
    assert response.status_code == 200
    page = response.content.decode()
    assert f'name="kind" value="{kind}"' in page
    assert "csrfmiddlewaretoken" in page


def test_a_move_offers_only_reachable_paths_from_the_fleets_place(world: World) -> None:
    page = client_for(world.gb.player).get(_url(world, kind="move")).content.decode()
    values = set(re.findall(r'<option value="([^"]*)"', _field_block(page, "path")))
    # In Portsmouth: leave for The Channel, then on to the adjacent Bay of Biscay; Brest is French.
    assert values == {"sea", "sea|biscay"}


def test_a_fleet_at_sea_may_enter_an_own_port_or_go_two_zones(world: World) -> None:
    Fleet.objects.filter(pk=world.channel_fleet.pk).update(port=None)
    page = client_for(world.gb.player).get(_url(world, kind="move")).content.decode()
    values = set(re.findall(r'<option value="([^"]*)"', _field_block(page, "path")))
    assert values == {"port:portsmouth", "biscay"}  # Brest is an enemy port: never entered


def test_a_move_is_added_to_the_list_in_listed_order(world: World) -> None:
    client = client_for(world.gb.player)
    fleet = world.channel_fleet
    response = client.post(_url(world), {"kind": "move", "fleet": fleet.pk, "path": "sea|biscay"})
    assert response.status_code == 302
    order = Order.objects.get(nation=world.gb)
    assert order.body == {"kind": "move", "fleet": fleet.pk, "path": ["sea", "biscay"]}
    page = client.get(_url(world)).content.decode()
    assert "Channel Fleet: to sea → Bay of Biscay" in page and f'id="order-{order.pk}"' in page


def test_laying_down_a_first_rate_commits_its_cost(world: World) -> None:
    client = client_for(world.gb.player)
    response = client.post(
        _url(world), {"kind": "lay_down", "class": "1st", "name": "Caledonia", "port": "portsmouth"}, follow=True
    )
    page = response.content.decode()
    assert Order.objects.filter(nation=world.gb, kind="lay_down").count() == 1
    assert 'id="treasury">120 EP' in page and 'id="committed">20 EP' in page and 'id="available">100 EP' in page


def test_a_first_rate_over_quota_is_refused_next_to_the_class_and_nothing_is_stored(world: World) -> None:
    _first_rates(world, 2)  # 12 SOL, 2 big: a third would be 300 > 20 × 13 = 260
    client = client_for(world.gb.player)
    form = client.get(_url(world, kind="lay_down")).content.decode()
    row = re.search(r'<tr class="not-allowed">(?:(?!</tr>).)*value="1st"(?:(?!</tr>).)*</tr>', form, re.S)
    assert row is not None and "over quota" in row.group(0)  # greyed out, still selectable
    response = client.post(_url(world), {"kind": "lay_down", "class": "1st", "name": "Caledonia", "port": "portsmouth"})
    assert response.status_code == 200
    page = response.content.decode()
    block = page[page.index('id="field-class"') : page.index("</fieldset>", page.index('id="field-class"'))]
    assert "1st/2nd-rate quota" in block and "300 &gt; 20×13=260" in block
    assert "1st/2nd-rate quota" not in _field_block(page, "name")
    assert not Order.objects.filter(nation=world.gb).exists()


def test_a_ship_name_in_use_is_refused_next_to_the_name(world: World) -> None:
    response = client_for(world.gb.player).post(
        _url(world), {"kind": "lay_down", "class": "3rd-74", "name": "HMS 3", "port": "portsmouth"}
    )
    page = response.content.decode()
    assert "already has a ship named" in _field_block(page, "name")
    assert not Order.objects.exists()


def test_a_second_move_for_a_fleet_is_refused_next_to_the_fleet(world: World) -> None:
    order_add(nation=world.gb, body={"kind": "move", "fleet": world.channel_fleet.pk, "path": ["sea"]})
    response = client_for(world.gb.player).post(
        _url(world), {"kind": "move", "fleet": world.channel_fleet.pk, "path": "sea|biscay"}
    )
    page = response.content.decode()
    assert "already has a move order" in _field_block(page, "fleet")
    assert Order.objects.count() == 1


def test_a_path_that_is_not_offered_is_refused_and_changes_nothing(world: World) -> None:
    response = client_for(world.gb.player).post(
        _url(world), {"kind": "move", "fleet": world.channel_fleet.pk, "path": "sea|brest"}
    )
    assert "Choose a path from the list" in _field_block(response.content.decode(), "path")
    assert not Order.objects.exists()


def test_another_nations_fleet_cannot_be_ordered(world: World) -> None:
    response = client_for(world.gb.player).post(
        _url(world), {"kind": "posture", "fleet": world.brest_fleet.pk, "posture": "avoid", "port": ""}
    )
    assert "Choose one of your fleets" in response.content.decode()
    assert not Order.objects.exists()


def test_diplomacy_offers_only_what_the_relation_allows(world: World) -> None:
    client = client_for(world.gb.player)
    war = _field_block(client.get(_url(world, kind="declare_war")).content.decode(), "nation")
    peace = _field_block(client.get(_url(world, kind="offer_peace")).content.decode(), "nation")
    assert 'value="FR"' not in war  # already at war
    assert 'value="FR"' in peace


def test_the_choices_follow_the_fleet_chosen_without_javascript(world: World) -> None:
    second = Fleet.objects.create(
        campaign=world.campaign, nation=world.gb, name="Western Squadron", sea_zone=world.biscay, crew="B"
    )
    ShipFactory.create(fleet=second, nation=world.gb, name="Ajax", crew="B")
    page = client_for(world.gb.player).get(_url(world, kind="move", fleet=str(second.pk), refresh="1")).content.decode()
    values = set(re.findall(r'<option value="([^"]*)"', _field_block(page, "path")))
    assert values == {"channel", "channel|port:portsmouth"}


# --- edit and withdraw -----------------------------------------------------------------------------------------


def test_an_order_is_edited_in_place(world: World) -> None:
    first = order_add(nation=world.gb, body={"kind": "raise", "unit": "land_unit", "port": "portsmouth"})
    order = order_add(nation=world.gb, body={"kind": "posture", "fleet": world.channel_fleet.pk, "posture": "avoid"})
    client = client_for(world.gb.player)
    edit = reverse("campaign:order_edit", args=[world.campaign.slug, order.pk])
    form = client.get(edit).content.decode()
    assert "Change order 2" in form and '<option value="avoid" selected>' in form
    response = client.post(edit, {"kind": "posture", "fleet": world.channel_fleet.pk, "posture": "seek", "port": ""})
    assert response.status_code == 302
    order.refresh_from_db()
    assert order.body["posture"] == "seek" and order.position == 2
    first.refresh_from_db()
    assert first.position == 1


def test_a_refused_edit_changes_nothing(world: World) -> None:
    order = order_add(
        nation=world.gb, body={"kind": "lay_down", "class": "3rd-74", "name": "Ajax", "port": "portsmouth"}
    )
    _first_rates(world, 2)
    edit = reverse("campaign:order_edit", args=[world.campaign.slug, order.pk])
    response = client_for(world.gb.player).post(
        edit, {"kind": "lay_down", "class": "1st", "name": "Ajax", "port": "portsmouth"}
    )
    assert response.status_code == 200 and "1st/2nd-rate quota" in response.content.decode()
    order.refresh_from_db()
    assert order.body["class"] == "3rd-74"


def test_withdrawing_an_order_moves_the_later_ones_up(world: World) -> None:
    first = order_add(nation=world.gb, body={"kind": "raise", "unit": "land_unit", "port": "portsmouth"})
    second = order_add(nation=world.gb, body={"kind": "raise", "unit": "siege_train", "port": "portsmouth"})
    client = client_for(world.gb.player)
    url = reverse("campaign:order_withdraw", args=[world.campaign.slug, first.pk])
    assert client.get(url).status_code == 405
    assert client.post(url).status_code == 302
    assert not Order.objects.filter(pk=first.pk).exists()
    second.refresh_from_db()
    assert second.position == 1


def test_htmx_gets_the_desk_swapped_in_place(world: World) -> None:
    response = client_for(world.gb.player).post(
        _url(world), {"kind": "raise", "unit": "land_unit", "port": "portsmouth"}, HTTP_HX_REQUEST="true"
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert page.lstrip().startswith('<div id="orders-desk"') and "<html" not in page
    assert "Added order 1 — land unit at Portsmouth" in page and 'id="committed">3 EP' in page


# --- permissions -----------------------------------------------------------------------------------------------


def test_a_player_cannot_open_or_change_another_nations_orders(world: World) -> None:
    french = order_add(nation=world.fr, body={"kind": "raise", "unit": "land_unit", "port": "brest"})
    client = client_for(world.gb.player)
    assert client.get(_url(world, nation="FR")).status_code == 403
    assert (
        client.post(_url(world), {"as_nation": "FR", "kind": "raise", "unit": "land_unit", "port": "brest"}).status_code
        == 403
    )
    assert client.get(reverse("campaign:order_edit", args=[world.campaign.slug, french.pk])).status_code == 404
    assert client.post(reverse("campaign:order_withdraw", args=[world.campaign.slug, french.pk])).status_code == 404
    assert Order.objects.filter(pk=french.pk).exists()
    assert "villeneuve" not in client.get(_url(world)).content.decode()


def test_strangers_and_visitors_get_no_order_page(world: World) -> None:
    assert client_for(user("stranger")).get(_url(world)).status_code == 404
    response = Client().get(_url(world))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_gm_enters_orders_for_any_nation(world: World) -> None:
    gm = user("gm")
    world.campaign.gm = gm
    world.campaign.save(update_fields=["gm"])
    client = client_for(gm)
    page = client.get(_url(world, nation="FR")).content.decode()
    assert "France</h1>" in page and 'id="nation-pick" name="nation"' in page
    response = client.post(_url(world), {"as_nation": "FR", "kind": "raise", "unit": "land_unit", "port": "brest"})
    assert response.status_code == 302 and "nation=FR" in response["Location"]
    assert Order.objects.get().nation == world.fr
    # A diplomatic order names a nation too: the desk's own is "as_nation".
    client.post(_url(world), {"as_nation": "FR", "kind": "offer_peace", "nation": "GB"})
    assert Order.objects.get(kind="offer_peace").nation == world.fr


def test_orders_are_closed_while_the_turn_resolves(world: World) -> None:
    Turn.objects.filter(pk=world.turn.pk).update(status=Turn.Status.RESOLVING)
    client = client_for(world.gb.player)
    page = client.get(_url(world)).content.decode()
    assert "Orders are closed" in page and "Add the order" not in page
    response = client.post(_url(world), {"kind": "raise", "unit": "land_unit", "port": "portsmouth"}, follow=True)
    assert "Orders are closed" in response.content.decode()
    assert not Order.objects.exists()


# --- speed -----------------------------------------------------------------------------------------------------


def _demo_player() -> tuple[Campaign, Any]:
    call_command("load_scenario", "europe-1805", "--start", "--slug", "big")
    campaign = Campaign.objects.get(slug="big")
    gb = Nation.objects.get(campaign=campaign, code="GB")
    gb.player = user("collingwood")
    gb.save(update_fields=["player"])
    fleet = Fleet.objects.filter(nation=gb).first()
    assert fleet is not None
    order_add(nation=gb, body={"kind": "posture", "fleet": fleet.pk, "posture": "avoid"})
    AdmiralFactory.create(nation=gb, campaign=campaign, name="Extra Admiral")
    return campaign, gb.player


@pytest.mark.parametrize("size", ["small", "demo"])
@pytest.mark.parametrize("kind", ["move", "lay_down", "transfer", "land", "appoint", "declare_war"])
def test_the_orders_page_needs_at_most_20_queries(
    world: World, size: str, kind: str, django_assert_max_num_queries: Any
) -> None:
    if size == "demo":
        campaign, user = _demo_player()
    else:
        order_add(nation=world.gb, body={"kind": "posture", "fleet": world.channel_fleet.pk, "posture": "avoid"})
        campaign, user = world.campaign, world.gb.player
    client = client_for(user)
    url = reverse("campaign:orders", args=[campaign.slug]) + f"?kind={kind}"
    with django_assert_max_num_queries(20):
        response = client.get(url)
    assert response.status_code == 200
    order = Order.objects.filter(nation__player=user).first()
    assert order is not None
    with django_assert_max_num_queries(20):
        assert client.get(reverse("campaign:order_edit", args=[campaign.slug, order.pk])).status_code == 200


# --- every form produces the body the server takes ----------------------------------------------------------


@pytest.mark.parametrize(
    "kind",
    [
        "posture",
        "battle_orders",
        "line_order",
        "sally",
        "raise",
        "repair",
        "lay_up",
        "transfer",
        "form_fleet",
        "merge",
        "appoint",
        "embark",
        "offer_peace",
        "propose_alliance",
    ],
)
def test_each_form_stores_the_body_the_readme_documents(world: World, kind: str) -> None:
    data, body = order_form_cases(world, more_of_britain(world))[kind]
    response = client_for(world.gb.player).post(_url(world), {"kind": kind, **data})
    if body is None:
        assert response.status_code == 200 and "Choose a nation from the list" in response.content.decode()
        assert not Order.objects.exists()
        return
    assert response.status_code == 302, response.content.decode()[-3000:]
    assert Order.objects.get(nation=world.gb).body == {"kind": kind, **body}


def test_running_the_guns_needs_the_fleet_at_sea_by_the_port_first(world: World) -> None:
    client = client_for(world.gb.player)
    cf = world.channel_fleet.pk
    page = client.get(_url(world, kind="run_guns")).content.decode()
    assert 'value="brest"' in _field_block(page, "port")  # Brest is within the fleet's reach
    refused = client.post(_url(world), {"kind": "run_guns", "fleet": cf, "port": "brest"}).content.decode()
    assert "Brest lies in Bay of Biscay, but the fleet will be in port at" in _field_block(refused, "port") or (
        "the fleet will be in port" in _field_block(refused, "port")
    )
    assert not Order.objects.exists()
    client.post(_url(world), {"kind": "move", "fleet": cf, "path": "sea|biscay"})
    assert client.post(_url(world), {"kind": "run_guns", "fleet": cf, "port": "brest"}).status_code == 302
    assert [o.kind for o in Order.objects.order_by("position")] == ["move", "run_guns"]


def test_the_list_names_ships_fleets_ports_and_nations(world: World) -> None:
    x = more_of_britain(world)
    cases = order_form_cases(world, x)
    for kind in ("transfer", "appoint", "repair", "offer_peace", "posture"):
        body = cases[kind][1]
        assert body is not None
        order_add(nation=world.gb, body={"kind": kind, **body})
    page = client_for(world.gb.player).get(_url(world)).content.decode()
    first, second = x["ships"][0].name, x["ships"][1].name
    assert f"{first}, {second} → Reserve" in page
    assert "Cuthbert Collingwood to command Channel Fleet" in page
    assert "repair Spare" in page
    assert "offer peace to France" in page
    assert "Channel Fleet: blockade Brest" in page


def test_htmx_reloads_the_form_for_the_fleet_chosen(world: World) -> None:
    Fleet.objects.filter(pk=world.channel_fleet.pk).update(port=None)
    page = (
        client_for(world.gb.player)
        .get(_url(world, kind="move", fleet=str(world.channel_fleet.pk)), HTTP_HX_REQUEST="true")
        .content.decode()
    )
    assert page.lstrip().startswith('<div id="orders-desk"')
    select = _field_block(page, "fleet")
    assert 'hx-get="/campaigns/channel-1805/orders/"' in select and 'hx-trigger="change"' in select
    assert set(re.findall(r'<option value="([^"]*)"', _field_block(page, "path"))) == {"port:portsmouth", "biscay"}


# --- text and numbers that cannot be stored (issue 9) ------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"kind": "lay_down", "class": "1st", "name": "Cale\x00donia", "port": "portsmouth"}, "name"),
        ({"kind": "form_fleet", "name": "Flying\x00Squadron"}, "name"),
        ({"kind": "move", "path": "sea\x00"}, "path"),
        ({"kind": "embark", "port": "portsmouth", "units": "99999999999999999999"}, "units"),
        ({"kind": "move", "fleet": "99999999999999999999999", "path": "sea"}, "fleet"),
    ],
)
def test_nul_characters_and_huge_numbers_are_refused_next_to_the_field(
    world: World, data: dict[str, str], field: str
) -> None:
    client = client_for(world.gb.player)
    data = {"fleet": str(world.channel_fleet.pk), **data}
    response = client.post(_url(world), data)
    if any("\x00" in value for value in data.values()):
        # A NUL anywhere in a form is refused before any view by config.middleware.NulByteGuardMiddleware
        # (issue 27), naming the form as what was wrong.
        assert response.status_code == 400 and "the form contains a NUL character" in response.content.decode()
    else:
        assert response.status_code == 200
        assert 'class="field-errors"' in _field_block(response.content.decode(), field)
    assert not Order.objects.filter(nation=world.gb).exists()


def test_a_nul_character_in_an_edit_is_refused_and_changes_nothing(world: World) -> None:
    order = order_add(
        nation=world.gb, body={"kind": "lay_down", "class": "frigate", "name": "Amethyst", "port": "portsmouth"}
    )
    url = reverse("campaign:order_edit", args=[world.campaign.slug, order.pk])
    response = client_for(world.gb.player).post(
        url, {"kind": "lay_down", "class": "frigate", "name": "Ame\x00thyst", "port": "portsmouth"}
    )
    assert response.status_code == 400 and "the form contains a NUL character" in response.content.decode()
    order.refresh_from_db()
    assert order.body["name"] == "Amethyst"
