"""What entering orders costs on europe-1805: every order one by one costs the same fixed number of
queries, and a whole list is checked against one set of reads (the turn with its campaign, the
nation, the map, its fleets and ships), whatever its length."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign.models import Campaign, Nation
from campaign.orders.services import order_add, orders_replace
from campaign.scenarios.loading import scenario_load
from fleets.models import Fleet
from tests.support.played_campaign import kept

pytestmark = pytest.mark.django_db

#: Queries of one blockade order_add: the turn locked with its campaign, the list, the nation, its
#: fleets, the ports, the order's insert and the submission's upsert (the test's transaction adds a
#: savepoint and its release). It was 10 before the turn brought its campaign.
ORDER_ADD_QUERIES = 9


def _europe() -> Campaign:
    return scenario_load(name="europe-1805", slug="order-costs", seed=1805)


@pytest.fixture
def europe() -> Campaign:
    """europe-1805, its rows copied in (loaded once, kept in the played-rows cache): the queries counted
    are the orders', not the load's."""
    return kept(_europe)


def blockades(nation: Nation, port: str, count: int) -> list[dict[str, Any]]:
    fleets = Fleet.objects.filter(nation=nation).order_by("pk")[:count]
    assert len(fleets) == count
    return [{"kind": "posture", "fleet": f.pk, "posture": "blockade", "port": port} for f in fleets]


def test_orders_entered_one_by_one_cost_the_same_each(europe: Campaign) -> None:
    gb = Nation.objects.get(campaign=europe, code="GB")
    counts = []
    for body in blockades(gb, "brest", 4):
        with CaptureQueriesContext(connection) as queries:
            order_add(nation=gb, body=body)
        counts.append(len(queries.captured_queries))
    assert counts == [ORDER_ADD_QUERIES] * len(counts)


def test_a_whole_list_costs_the_queries_of_one_order(europe: Campaign) -> None:
    gb = Nation.objects.get(campaign=europe, code="GB")
    bodies = blockades(gb, "brest", 6)
    with CaptureQueriesContext(connection) as one:
        orders_replace(nation=gb, bodies=bodies[:1])
    with CaptureQueriesContext(connection) as six:
        orders_replace(nation=gb, bodies=bodies)
    assert len(six.captured_queries) == len(one.captured_queries)
