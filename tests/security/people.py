"""A campaign seen by everybody who might ask (issue 9's permission matrix) and a cheap fingerprint of
the database, to prove that a refused request changed nothing.

Channel 1805 (tests.web.fog_worlds): Britain played by nelson, France by villeneuve, run by barham
(owner) and a co-GM; turn 1 resolved with a battle Britain fought and France did not see, turn 2 open
with one British order. Beside it another campaign with its own GM and player.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db.models import Sum

from battles.models import Battle
from campaign.models import Campaign, Nation, Order
from campaign.orders.services import order_add
from tests.factories import CampaignFactory, NationFactory
from tests.support.played_campaign import kept
from tests.support.row_counts import row_counts
from tests.web.fog_worlds import FogWorld, battle_in, fog_world_built, turn_close, user

#: Everybody of the matrix, weakest first.
ROLES = (
    "anonymous",
    "staff",
    "other_gm",
    "other_player",
    "other_nation",
    "own_player",
    "co_gm",
    "owner",
    "superuser",
)


@dataclass
class Cast:
    fog: FogWorld
    battle: Battle
    order: Order
    people: dict[str, Any]

    @property
    def campaign(self) -> Campaign:
        return self.fog.campaign

    @property
    def gb(self) -> Nation:
        return self.fog.w.gb


def cast() -> Cast:
    """The cast's rows copied in (tests/support/played_campaign.py ``kept``: built once by the first
    process that asks, kept in the played-rows cache), its time stamps as if built now: the tests of
    the matrix only ask of these rows, and building them again (the fog world, the turn closed with
    its snapshot export, the order and the extra users) cost each test about ten times the copy.
    The same ids as the build gives (``fresh_ids`` off): the turn-2 snapshot and the order's body
    quote the fleets' ids inside their JSON. Built for real when the test made rows before asking."""
    return kept(cast_built, shift="exact")


def cast_built() -> Cast:
    """The cast built through the worlds, the factories and the services."""
    fog = fog_world_built()
    battle = battle_in(fog.campaign, fog.w.channel, [["GB"], ["NL"]])
    turn_close(fog.campaign)
    order = order_add(nation=fog.w.gb, body={"kind": "posture", "fleet": fog.w.channel_fleet.pk, "posture": "avoid"})
    users = get_user_model()
    staff = users.objects.create_user("clerk", "clerk@example.org", "a-long-test-password", is_staff=True)
    other_gm = users.objects.create_user("other-gm", "ogm@example.org", "a-long-test-password", is_staff=True)
    co_gm = users.objects.create_user("co-gm", "cogm@example.org", "a-long-test-password", is_staff=True)
    other_player = user("other-player")
    superuser = users.objects.create_superuser("root", "root@example.org", "a-long-test-password")
    other = CampaignFactory.create(slug="baltic-1807", name="Baltic 1807", gm=other_gm)
    NationFactory.create(campaign=other, code="DK", name="Denmark", player=other_player)
    fog.campaign.co_gms.add(co_gm)
    owner = fog.gm
    owner.is_staff = True
    owner.save(update_fields=["is_staff"])
    people = {
        "anonymous": None,
        "staff": staff,
        "other_gm": other_gm,
        "other_player": other_player,
        "other_nation": fog.villeneuve,
        "own_player": fog.nelson,
        "co_gm": co_gm,
        "owner": owner,
        "superuser": superuser,
    }
    return Cast(fog, battle, order, people)


def fingerprint() -> tuple[Any, ...]:
    """Row counts of every table of the product's apps, the treasuries and every order body: equal
    before and after a request means the request wrote nothing that matters."""
    counts = row_counts(
        model
        for label in ("campaign", "fleets", "ports", "battles", "auth")
        for model in apps.get_app_config(label).get_models()
    )
    treasuries = tuple(Nation.objects.order_by("pk").values_list("pk", "treasury"))
    orders = tuple(Order.objects.order_by("pk").values_list("pk", "position", "body"))
    total = Nation.objects.aggregate(total=Sum("treasury"))["total"]
    ready = tuple(apps.get_model("campaign", "NationTurn").objects.order_by("pk").values_list("pk", "ready"))
    return counts, treasuries, orders, total, ready
