"""Read-side queries of the ports app: the sea-zone graph, ports and the land units at them.

Each query is one round trip whatever the size of the campaign; the phases of RULES.md §3 read
these once per phase and work on the rows in memory.
"""

from __future__ import annotations

from collections import defaultdict

from ports.models import LandUnit, Port, SeaZone


def zone_graph(*, campaign_id: int) -> dict[str, set[str]]:
    """Sea-zone adjacency as zone key → keys of the adjacent zones (RULES.md §4, §8 supply).

    ``SeaZone.adjacent`` is symmetric, so every pair is listed both ways; zones without a
    neighbour are present with an empty set.
    """
    graph: dict[str, set[str]] = {
        key: set() for key in SeaZone.objects.filter(campaign_id=campaign_id).values_list("key", flat=True)
    }
    through = SeaZone.adjacent.through
    for a, b in through.objects.filter(from_seazone__campaign_id=campaign_id).values_list(
        "from_seazone__key", "to_seazone__key"
    ):
        graph[a].add(b)
        graph[b].add(a)
    return graph


def port_recently_taken(port: Port, turn: int) -> bool:
    """RULES.md §1, §2, §7: a port taken this turn or last (``taken_turn`` ≥ ``turn`` − 1) is settling:
    it does not build, repair, supply or pay."""
    return port.taken_turn is not None and port.taken_turn >= turn - 1


def ports_for_campaign(*, campaign_id: int) -> list[Port]:
    """Every port of the campaign in key order (RULES.md §3: places in key order), with its zone,
    owner and captor loaded."""
    return list(
        Port.objects.filter(campaign_id=campaign_id).select_related("sea_zone", "owner", "captor").order_by("key")
    )


def land_units_by_port(*, campaign_id: int) -> dict[int, list[LandUnit]]:
    """Land units in a garrison or ashore, grouped by port id, each list in unit id order."""
    out: dict[int, list[LandUnit]] = defaultdict(list)
    units = (
        LandUnit.objects.filter(campaign_id=campaign_id, state__in=[LandUnit.State.GARRISON, LandUnit.State.ASHORE])
        .select_related("nation")
        .order_by("id")
    )
    for unit in units:
        assert unit.port_id is not None  # a garrison or ashore unit always has its port (constraint)
        out[unit.port_id].append(unit)
    return out
