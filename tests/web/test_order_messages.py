"""Issue 13, "Words, not keys", in the message a player reads after a change on the order page: every
kind of order added through its form, and an order changed, moved and withdrawn. Each message names
fleets, ships, classes, ports and nations — never their keys, codes or ids (the stored line of
``order_describe``, "Order 1 (lay_down): 1st 'Caledonia' at portsmouth", is for the API and scripts);
and the GM's desk, which lists every nation's orders in the same words."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import Campaign, Order
from campaign.orders.errors import OrderRefused
from campaign.orders.services import order_add
from tests.support.order_forms import more_of_britain, order_form_cases
from tests.support.played_campaign import kept
from tests.support.words import forbidden_words, visible_text
from tests.web.fog_worlds import client_for, players_world, user
from tests.worlds import World

pytestmark = pytest.mark.django_db

#: An id where a name belongs ("ship 12", "fleet 3").
AN_ID = re.compile(r"\b(ship|fleet|ships|admiral)s? \d+\b")


def _world() -> World:
    return players_world(treasury=120)


@pytest.fixture
def world() -> World:
    """The players' world, its rows copied in (built once, kept in the played-rows cache)."""
    return kept(_world, shift="exact", fresh_ids=True)


def _orders(w: World) -> str:
    return reverse("campaign:orders", args=[w.campaign.slug])


def _message(response: Any) -> str:
    """The text of the page's one message, as a person reads it."""
    assert response.status_code == 200
    html = response.content.decode()
    start = html.index('<ul class="messages">')
    messages = visible_text(html[start : html.index("</ul>", start)]).split("\n")
    said = [line.strip() for line in messages if line.strip()]
    assert len(said) == 1, said
    return said[0]


def _leaks(w: World, text: str) -> list[str]:
    found = [f"{what}: {m.group(0)}" for what, pattern in forbidden_words(w.campaign) for m in pattern.finditer(text)]
    return found + [f"an id: {m.group(0)}" for m in AN_ID.finditer(text)]


def _form_data(w: World, kind: str) -> dict[str, Any]:
    if kind == "move":
        return {"fleet": w.channel_fleet.pk, "path": "sea|biscay"}
    if kind == "lay_down":
        return {"class": "1st", "name": "Caledonia", "port": "portsmouth"}
    data, body = order_form_cases(w, more_of_britain(w))[kind]
    assert body is not None, f"{kind}'s case is a refusal"
    return data


#: What a few of the messages say in full (the others are checked for leaks only).
SAID = {
    "move": "Added order 1 — Channel Fleet: to sea → Bay of Biscay",
    "lay_down": "Added order 1 — 1st rate Caledonia at Portsmouth (20 EP)",
    "battle_orders": "Added order 1 — Channel Fleet: after a drawn day, evade; retreat into Portsmouth",
    "posture": "Added order 1 — Channel Fleet: blockade Brest",
    "raise": "Added order 1 — siege train at Portsmouth",
    "merge": "Added order 1 — Reserve into Channel Fleet",
    "offer_peace": "Added order 1 — offer peace to France",
    "embark": "Added order 1 — Channel Fleet: embark 1 land unit at Portsmouth",
}


@pytest.mark.parametrize(
    "kind",
    [
        "move",
        "lay_down",
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
    ],
)
def test_the_message_after_adding_an_order_names_things_not_keys(world: World, kind: str) -> None:
    data = _form_data(world, kind)
    response = client_for(world.gb.player).post(_orders(world), {"kind": kind, **data}, follow=True)
    message = _message(response)
    assert Order.objects.filter(nation=world.gb, kind=kind).count() == 1, message
    assert message.startswith("Added order 1 — "), message
    assert _leaks(world, message) == [], message
    if kind in SAID:
        assert message == SAID[kind]


def test_changing_moving_and_withdrawing_an_order_say_it_in_words(world: World) -> None:
    client: Client = client_for(world.gb.player)
    first = order_add(nation=world.gb, body={"kind": "raise", "unit": "land_unit", "port": "portsmouth"})
    second = order_add(nation=world.gb, body={"kind": "posture", "fleet": world.channel_fleet.pk, "posture": "avoid"})
    slug = world.campaign.slug

    edit = reverse("campaign:order_edit", args=[slug, second.pk])
    changed = client.post(
        edit, {"kind": "posture", "fleet": world.channel_fleet.pk, "posture": "seek", "port": ""}, follow=True
    )
    assert _message(changed) == "Changed order 2 — Channel Fleet: seek battle"

    move = reverse("campaign:order_move", args=[slug, first.pk])
    moved = client.post(move, {"direction": "down"}, follow=True)
    assert _message(moved) == "Moved down to place 2 — land unit at Portsmouth"

    withdraw = reverse("campaign:order_withdraw", args=[slug, first.pk])
    withdrawn = client.post(withdraw, follow=True)
    assert _message(withdrawn) == "Withdrew order 2 — land unit at Portsmouth"
    assert list(world.gb.orders.values_list("pk", flat=True)) == [second.pk]


def test_the_gm_desk_writes_every_kind_of_order_in_words(world: World) -> None:
    """The GM reads each nation's orders on the desk as the player's order page writes them: names,
    never keys, codes or ids (the stored line with keys is for the API and ``submit_orders``)."""
    cases = order_form_cases(world, more_of_britain(world))
    bodies = {kind: body for kind, (_, body) in cases.items() if body is not None}
    bodies["move"] = {"fleet": world.channel_fleet.pk, "path": ["sea", "biscay"]}
    bodies["lay_down"] = {"class": "1st", "name": "Caledonia", "port": "portsmouth"}
    for position, (kind, body) in enumerate(sorted(bodies.items()), 1):
        fleet = body.get("fleet")
        Order.objects.create(
            campaign=world.campaign,
            turn=world.turn,
            nation=world.gb,
            position=position,
            kind=kind,
            body={"kind": kind, **body},
            fleet_id=fleet if isinstance(fleet, int) and kind != "transfer" else None,
        )
    gm = user("gm-desk", staff=True)
    Campaign.objects.filter(pk=world.campaign.pk).update(gm=gm)
    html = client_for(gm).get(reverse("admin:campaign_campaign_desk", args=[world.campaign.pk])).content.decode()
    start = html.index("<ol>")
    lines = [line.strip() for line in visible_text(html[start : html.index("</ol>", start)]).split("\n")]
    lines = [line for line in lines if line]
    assert len(lines) == len(bodies), lines
    assert "Channel Fleet: to sea → Bay of Biscay" in lines
    assert "1st rate Caledonia at Portsmouth (20 EP)" in lines
    assert "Channel Fleet: blockade Brest" in lines
    leaks = [leak for line in lines for leak in _leaks(world, line)]
    assert leaks == [], "\n".join(lines)


def test_a_refused_order_is_named_in_words(world: World) -> None:
    """The refusal a player reads beside the form names the order's kind and its subject in words
    ("Order 2 (offer peace, France)"), never "offer_peace" or "FR"."""
    order_add(nation=world.gb, body={"kind": "offer_peace", "nation": "FR"})
    refusals = []
    for body in (
        {"kind": "offer_peace", "nation": "FR"},
        {"kind": "lay_down", "class": "frigate", "name": "Hero", "port": "brest"},
        {"kind": "move", "fleet": world.channel_fleet.pk, "path": ["sea", "biscay", "channel", "biscay", "channel"]},
    ):
        with pytest.raises(OrderRefused) as refused:
            order_add(nation=world.gb, body=body)
        refusals.append(refused.value.message)
    assert refusals[0].startswith("Order 2 (offer peace, France): "), refusals
    assert refusals[1].startswith("Order 2 (lay down, Frigate 'Hero'): "), refusals
    assert refusals[2].startswith("Order 2 (move, fleet 'Channel Fleet'): "), refusals
    leaks = [leak for message in refusals for leak in _leaks(world, message)]
    assert leaks == [], refusals
