"""Every port as a nation sees it: owner, garrison, sieges and blockades (RULES.md §3: "every port's owner,
sieges and blockades" are known to all), and whether it pays and can build this turn (RULES.md §1, §2)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, F, Q

from campaign.viewer import Viewer
from fleets.selectors import Blockades, blockades_for_turn
from ports.models import LandUnit, Port
from ports.selectors import port_recently_taken
from rules.economy import IncomePort


@dataclass(frozen=True)
class PortRow:
    key: str
    name: str
    zone_name: str
    owner_code: str
    owner_name: str
    color: str
    fortification: int
    capacity: int
    ep_value: int
    dockyard: bool
    garrison: int
    siege_turns: int
    besiegers: tuple[str, ...]  # nation codes (the API's)
    blockaders: tuple[str, ...]
    besieger_names: tuple[str, ...]  # the same nations by name, for people
    blockader_names: tuple[str, ...]
    taken_turn: int | None
    pays: bool
    can_build: bool


def _ports_with_garrisons(viewer: Viewer) -> list[Port]:
    """Every port with its zone and garrison count (one query)."""
    return list(
        Port.objects.filter(campaign=viewer.campaign)
        .select_related("sea_zone")
        .annotate(
            garrison=Count(
                "land_units",
                filter=Q(land_units__state=LandUnit.State.GARRISON, land_units__nation_id=F("owner_id")),
            )
        )
        .order_by("key")
    )


def blockades_for_viewer(viewer: Viewer, *, turn_number: int) -> Blockades:
    """The blockades standing while turn ``turn_number`` is open: the last resolved turn's, not lifted
    by a storm (one query, :func:`fleets.selectors.blockades_for_turn`)."""
    return blockades_for_turn(campaign_id=viewer.campaign.pk, turn=turn_number - 1, at_war=viewer.diplomacy.at_war)


def _besiegers(viewer: Viewer) -> dict[int, set[int]]:
    """Nations with land units ashore at a port whose owner they are at war with, by port id (one query)."""
    out: dict[int, set[int]] = defaultdict(set)
    rows = LandUnit.objects.filter(campaign=viewer.campaign, state=LandUnit.State.ASHORE).values_list(
        "port_id", "nation_id", "port__owner_id"
    )
    for port_id, nation_id, owner_id in rows:
        if port_id is not None and viewer.diplomacy.at_war(nation_id, owner_id):
            out[port_id].add(nation_id)
    return out


def _port_row(viewer: Viewer, port: Port, *, blockades: Blockades, besiegers: set[int], turn_number: int) -> PortRow:
    by_id = viewer.nations_by_id
    owner = by_id[port.owner_id]
    blockading = sorted((by_id[n] for n in blockades.blockaders_of(port.pk, port.owner_id)), key=lambda n: n.code)
    besieging = sorted((by_id[n] for n in besiegers), key=lambda n: n.code)
    blockaders = [n.code for n in blockading]
    taken_recently = port_recently_taken(port, turn_number)
    besieged = port.siege_turns > 0
    return PortRow(
        key=port.key,
        name=port.name,
        zone_name=port.sea_zone.name,
        owner_code=owner.code,
        owner_name=owner.name,
        color=owner.color,
        fortification=port.fortification,
        capacity=port.capacity,
        ep_value=port.ep_value,
        dockyard=port.dockyard,
        garrison=int(getattr(port, "garrison", 0)),
        siege_turns=port.siege_turns,
        besiegers=tuple(n.code for n in besieging),
        blockaders=tuple(blockaders),
        besieger_names=tuple(n.name for n in besieging),
        blockader_names=tuple(n.name for n in blockading),
        taken_turn=port.taken_turn,
        # §2: whether phase 9 counts it, by the rule phase 9 applies (rules.economy.IncomePort.pays).
        pays=IncomePort(port.key, port.ep_value, besieged, bool(blockaders), taken_recently).pays,
        can_build=port.dockyard and not besieged and not taken_recently,
    )


def ports_for_viewer(
    viewer: Viewer, *, turn_number: int, blockades: Blockades | None = None
) -> tuple[list[Port], list[PortRow]]:
    """Every port of the campaign in key order (with its ``sea_zone``) and, in the same order, its row as
    of turn ``turn_number``: the blockades standing from the turn before it (``blockades``, or
    :func:`blockades_for_viewer`) and the sieges now (three queries, two with ``blockades`` given).
    The two lists are aligned: ``rows[i]`` is ``ports[i]``."""
    ports = _ports_with_garrisons(viewer)
    if blockades is None:
        blockades = blockades_for_viewer(viewer, turn_number=turn_number)
    besiegers = _besiegers(viewer)
    rows = [
        _port_row(viewer, p, blockades=blockades, besiegers=besiegers.get(p.pk, set()), turn_number=turn_number)
        for p in ports
    ]
    return ports, rows


__all__ = ["PortRow", "blockades_for_viewer", "ports_for_viewer"]
