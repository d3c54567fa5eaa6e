"""Issue 14 "One turn, fast": the queries of phase 4 and phase 10 do not grow with the ships or the
nations — one query per kind of row per fight (a battle of 30 ships a side costs what one of 5
does), and the reports and the snapshot of phase 10 one query per kind of row, not per nation.

Counted with Django's CaptureQueriesContext on real PostgreSQL; the battles are the real phase 3
contacts and phase 4 fights of a seeded campaign.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles.engagements import engagements_fight_zone, engagements_fight_zones, zone_batches
from battles.models import Battle, Engagement
from campaign.models import NationTurn, Relation, TurnReport
from tests.factories import NationFactory
from tests.support.turns import phases_run
from tests.worlds import World, fleet, sea_world, zone

pytestmark = pytest.mark.django_db

#: The most queries one zone's single fight may cost, whatever its ships: the zone's savepoint and
#: its release, the turn lock, the zone's pending and earlier engagements, both sides' fleets, their
#: ships, the Battle row, one write of the ships (and one of the land units lost aboard), the
#: admirals lost (admirals, fleets), a retreat's ports, zones and fleets, the engagement itself.
ZONE_QUERIES_MAX = 16
#: Statements on the ships of one fight: both sides' in one load, and one write.
SHIP_STATEMENTS_MAX = 2

SEED = 3  # checked: every zone below sees its two fleets meet and fight


def _tables(sql: str) -> set[str]:
    """The table a statement reads or writes (not the ones it joins)."""
    found = re.search(r'(?:FROM|UPDATE|INTO) "(\w+)"', sql)
    return {found.group(1)} if found else set()


def battles_at_sea(sizes: dict[str, int]) -> World:
    """GB and FR fleets of ``n`` ships of the line and three frigates each (frigates make the
    sighting all but certain) seeking battle in each zone of ``sizes``; phase 3 has found them."""
    world = sea_world(seed=SEED)
    for key, n in sizes.items():
        fleet(world, world.gb, f"GB {key}", key, [("3rd-74", n), ("frigate", 3)])
        fleet(world, world.fr, f"FR {key}", key, [("3rd-74", n), ("frigate", 3)])
    phases_run(world.turn, 1, 2, 3)
    return world


def test_a_fight_costs_the_same_queries_with_5_or_30_ships_a_side() -> None:
    world = battles_at_sea({"downs": 5, "north-sea": 30})
    counts: dict[str, int] = {}
    ship_statements: dict[str, int] = {}
    for key in ("downs", "north-sea"):
        z = zone(world, key)
        assert Engagement.objects.filter(turn=world.turn, sea_zone=z).count() == 1, "the seed gives one contact"
        with CaptureQueriesContext(connection) as queries:
            fought = engagements_fight_zone(turn_id=world.turn.pk, zone_id=z.pk, fought_by="test", alliances={})
        assert len(fought) == 1
        counts[key] = len(queries.captured_queries)
        ship_statements[key] = sum(1 for q in queries.captured_queries if "fleets_ship" in _tables(q["sql"]))
    big = Battle.objects.get(turn=world.turn, place="north-sea")
    assert len(big.report["ships"]) >= 2 * 30, "the big battle was fought with its full lines"
    assert max(counts.values()) <= ZONE_QUERIES_MAX, counts
    assert max(ship_statements.values()) <= SHIP_STATEMENTS_MAX, ship_statements
    # Outcomes differ (a retreat, a lost admiral, land units) by at most those optional writes;
    # nothing may be per ship: thirty ships a side would add dozens.
    assert abs(counts["north-sea"] - counts["downs"]) <= 4, counts


def test_phase_4_grows_with_the_battles_by_a_constant_each() -> None:
    """N and 2N battles: the second N cost no more per battle than the bound of one zone's fight."""
    few = ["downs", "approaches"]
    more = [*few, "north-sea", "channel"]
    world = battles_at_sea(dict.fromkeys(more, 4))
    per_zone = []
    for key in more:
        z = zone(world, key)
        with CaptureQueriesContext(connection) as queries:
            engagements_fight_zone(turn_id=world.turn.pk, zone_id=z.pk, fought_by="test", alliances={})
        per_zone.append(len(queries.captured_queries))
    assert Battle.objects.filter(turn=world.turn).count() == len(more)
    n = len(few)
    first, second = sum(per_zone[:n]), sum(per_zone[n:])
    assert first <= n * ZONE_QUERIES_MAX and second <= n * ZONE_QUERIES_MAX, per_zone
    assert sum(per_zone) <= 2 * n * ZONE_QUERIES_MAX


def test_a_batch_of_zones_shares_its_transaction_lock_relations_and_table_reads() -> None:
    """A battle task of four zones (issue 14): what does not change between zones is done once, so a
    fight costs fewer queries in a batch than alone, and the batch fights exactly what one task per
    zone would have."""
    keys = ["downs", "approaches", "north-sea", "channel"]
    world = battles_at_sea(dict.fromkeys(keys, 4))
    zones = [zone(world, key).pk for key in keys]
    with CaptureQueriesContext(connection) as queries:
        fought = engagements_fight_zones(turn_id=world.turn.pk, zone_ids=zones, fought_by="test", alliances={})
    assert len(fought) == len(keys) == Battle.objects.filter(turn=world.turn).count()
    assert sorted(Engagement.objects.filter(turn=world.turn).values_list("status", flat=True)) == ["fought"] * 4
    # Alone, each fight pays its savepoint, release, turn lock and table read: 4 of ZONE_QUERIES_MAX.
    assert len(queries.captured_queries) <= len(keys) * (ZONE_QUERIES_MAX - 4) + 4, len(queries.captured_queries)
    assert engagements_fight_zones(turn_id=world.turn.pk, zone_ids=zones, fought_by="again") == []


@pytest.mark.parametrize(
    ("zones", "sizes"),
    [(0, []), (1, [1]), (2, [1, 1]), (3, [2, 1]), (4, [2, 2]), (8, [4, 4]), (16, [4, 4, 4, 4]), (17, [4, 4, 3, 3, 3])],
)
def test_zones_are_cut_into_even_batches_of_at_most_four_and_at_least_two(zones: int, sizes: list[int]) -> None:
    batches = zone_batches(list(range(zones)), 4)
    assert [len(b) for b in batches] == sizes
    assert [z for b in batches for z in b] == list(range(zones)), "every zone once, in order"


def _phase_10_queries(world: World) -> tuple[int, Counter[str]]:
    phases_run(world.turn, *range(1, 10))
    with CaptureQueriesContext(connection) as queries:
        phases_run(world.turn, 10)
    tables: Counter[str] = Counter()
    for q in queries.captured_queries:
        tables.update(_tables(q["sql"]))
    return len(queries.captured_queries), tables


@pytest.mark.parametrize("extra_nations", [0, 6])
def test_phase_10_reports_and_snapshot_cost_one_query_per_kind_of_row(extra_nations: int) -> None:
    """Every nation's report, the next turn's rows and its snapshot: the same queries for 2 nations
    as for 8 (reports: one read, one insert; the snapshot: one read per kind of row)."""
    world = sea_world(seed=SEED)
    for i in range(extra_nations):
        code = f"N{i}"
        nation = NationFactory.create(campaign=world.campaign, code=code, name=f"Nation {i}")
        NationTurn.objects.create(turn=world.turn, nation=nation)
        Relation.objects.create(campaign=world.campaign, a=world.gb, b=nation, state=Relation.State.PEACE)
    total, tables = _phase_10_queries(world)
    nations = 2 + extra_nations
    assert TurnReport.objects.filter(turn=world.turn).count() == nations
    # Reports: the stored ones read, the new ones inserted, the snapshot's read of every report.
    assert tables["campaign_turnreport"] <= 3, tables
    # Nations: phase 10's own read, the snapshot's, the mail's three lists of players, and the webhooks'
    # two (turn resolved, turn opened: each one query of the hooks told, joined to their nation's player).
    assert tables["campaign_nation"] <= 7, tables
    assert tables["fleets_ship"] == 1 and tables["fleets_fleet"] <= 2, tables  # the snapshot's reads
    # The same total whatever the nations: fixed for the two sizes of this test.
    assert total <= PHASE_10_QUERIES_MAX, (total, tables)


#: Phase 10 of a campaign without players (no mail to record): the turn rows, the reports, the next
#: turn and its nations' rows, the snapshot's one read per kind of row, savepoints (measured: 41 with
#: 2 nations and with 8; before issue 14 every nation added a read, an insert and two savepoints). The
#: snapshot's backup now also reads the conversations, their dispatches, copies and mutes, and the
#: table battles (issues 15 and 16 in the export): one query per kind, 48 whatever the nations.
PHASE_10_QUERIES_MAX = 48
