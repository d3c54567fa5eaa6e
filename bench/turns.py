"""Turn resolution speed and SQL query counts (issue 4), on PostgreSQL.

Two campaigns, resolved inline in this process (the phases a worker runs, without the broker):
* europe-1805 with every fleet at sea, seeking battle, so that many zones see battles;
* the same campaign scaled ten times (every fleet copied ten times, in the same places).

Prints the wall time of each phase and of the whole turn, the SQL queries per turn and per phase,
the number of battles, and the ratios between the two sizes. Goal: at most 1 s for europe-1805 on
this 2-core machine (an idle one: the figure is wall time), the tenfold campaign under ten times
that, and a query count that does not grow with the number of ships.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from typing import Any

BENCH_DATABASE = "admiralty_bench"
CONTESTED_ZONES = 32


def bench_database_prepare(name: str = BENCH_DATABASE) -> str:
    """A fresh, migrated PostgreSQL database for a bench, set up as this process's; returns its URL.

    ``make bench`` runs every bench in one process: Django is set up by the first, so a later one
    points the already-configured connection at its own database here (else it would migrate the
    first bench's database while its workers read an empty one)."""
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")
    url = f"postgres://postgres@127.0.0.1:5432/{name}"
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connections

    connections.close_all()
    settings.DATABASES["default"]["NAME"] = name
    connections["default"].settings_dict["NAME"] = name
    call_command("migrate", verbosity=0)
    return url


def everyone_at_sea(slug: str, copies: int) -> Any:
    """Load europe-1805 as ``slug``; every ship commissioned, every fleet at sea seeking battle, ×copies."""
    from django.db import transaction

    from campaign.models import Campaign
    from campaign.scenarios.loading import scenario_load
    from fleets.models import Fleet, Ship

    campaign = scenario_load(name="europe-1805", slug=slug, seed=1805)
    with transaction.atomic():
        Ship.objects.filter(campaign=campaign).update(in_ordinary=False)
        Fleet.objects.filter(campaign=campaign).update(port=None, posture=Fleet.Posture.SEEK, blockade_port=None)
        _bring_enemies_together(campaign)
        originals = list(Fleet.objects.filter(campaign=campaign).prefetch_related("ships"))
        for copy in range(2, copies + 1):
            for fleet in originals:
                ships = list(fleet.ships.all())
                fleet_copy = Fleet.objects.create(
                    campaign=campaign,
                    nation_id=fleet.nation_id,
                    name=f"{fleet.name} ({copy})",
                    sea_zone_id=fleet.sea_zone_id,
                    crew=fleet.crew,
                    posture=Fleet.Posture.SEEK,
                )
                Ship.objects.bulk_create(
                    [
                        Ship(
                            campaign=campaign,
                            name=f"{s.name} ({copy})",
                            ship_class=s.ship_class,
                            nation_id=s.nation_id,
                            original_nation_id=s.original_nation_id,
                            crew=s.crew,
                            fleet=fleet_copy,
                            line_position=s.line_position,
                        )
                        for s in ships
                    ]
                )
    return Campaign.objects.get(pk=campaign.pk)


def _bring_enemies_together(campaign: Any) -> None:
    """A general war (every pair of nations at war) with the fleets dealt round some zones, so that many
    zones hold hostile sides: about 20 battles once sighting has done its work."""
    from campaign.models import Nation, Relation
    from fleets.models import Fleet
    from ports.models import SeaZone

    nations = list(Nation.objects.filter(campaign=campaign).order_by("pk"))
    Relation.objects.filter(campaign=campaign).delete()
    Relation.objects.bulk_create(
        [
            Relation(campaign=campaign, a=a, b=b, state=Relation.State.WAR)
            for i, a in enumerate(nations)
            for b in nations[i + 1 :]
        ]
    )
    # Fleets (grouped by nation, in id order) dealt round the first CONTESTED_ZONES zones: every such
    # zone receives fleets of two or three nations.
    zones = list(SeaZone.objects.filter(campaign=campaign).order_by("key").values_list("pk", flat=True))
    zones = zones[:CONTESTED_ZONES]
    for i, fleet in enumerate(Fleet.objects.filter(campaign=campaign).order_by("nation__code", "id")):
        fleet.sea_zone_id = zones[i % len(zones)]
        fleet.save(update_fields=["sea_zone"])


def _resolve(campaign: Any) -> dict[str, Any]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from battles.models import Battle
    from campaign.models import Turn
    from campaign.turn.lifecycle import turn_claim
    from campaign.turn.registry import PHASE_NAMES
    from campaign.turn.runner import phase_run, phases_remaining
    from fleets.models import Ship

    turn = Turn.objects.get(campaign=campaign, status=Turn.Status.OPEN)
    ships = Ship.objects.filter(campaign=campaign).exclude(condition__in=Ship.GONE).count()
    assert turn_claim(turn_id=turn.pk, now=timezone.now())
    phase_times: dict[int, float] = {}
    phase_queries: Counter[int] = Counter()
    start = time.perf_counter()
    for number in phases_remaining(turn.pk):
        with CaptureQueriesContext(connection) as queries:
            t0 = time.perf_counter()
            phase_run(turn_id=turn.pk, number=number, now=timezone.now())
            phase_times[number] = time.perf_counter() - t0
        phase_queries[number] = len(queries.captured_queries)
    total = time.perf_counter() - start
    return {
        "ships": ships,
        "seconds": total,
        "queries": sum(phase_queries.values()),
        "phase_times": phase_times,
        "phase_queries": phase_queries,
        "battles": Battle.objects.filter(turn=turn).count(),
        "names": PHASE_NAMES,
    }


def main() -> None:
    bench_database_prepare()
    from django.conf import settings

    settings.DEBUG = False
    one = _resolve(everyone_at_sea("bench-europe", 1))
    ten = _resolve(everyone_at_sea("bench-europe-x10", 10))
    for label, r in (("europe-1805, all at sea", one), ("tenfold campaign", ten)):
        print(
            f"{label:<26} {r['ships']:>6} ships  {r['battles']:>4} battles  {r['seconds']:7.2f} s  "
            f"{r['queries']:>6} SQL queries"
        )
        for number, seconds in sorted(r["phase_times"].items()):
            queries = r["phase_queries"][number]
            print(f"    phase {number:>2} {r['names'][number]:<20} {seconds:7.3f} s  {queries:>6} queries")
    print(
        f"ratios tenfold / europe: time {ten['seconds'] / one['seconds']:.2f}× (goal ≤ 10), "
        f"queries {ten['queries'] / max(1, one['queries']):.2f}× (goal: not growing with ships, "
        f"{ten['ships'] / one['ships']:.1f}× the ships)"
    )
    print(f"goal europe-1805 in at most 1 s: {'met' if one['seconds'] <= 1 else 'NOT met'} ({one['seconds']:.2f} s)")
