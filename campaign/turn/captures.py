"""Ports taken this turn change owner, at the end of phase 9 (RULES.md §7 "Capture", §3 phase 9).

"A port taken in turn T changes owner after phase 9 of T (so T's income from it is 0). The garrison
controls the guns until then [S]. In T+1 the port is settling [...]. On capture the besiegers
become its garrison, the old garrison is removed, batteries pass to the captor, and every ship in
the port of a nation at war with the captor is captured in its condition (afloat, in ordinary or
building, keeping build turns)."

Phase 6 (siege table) and phase 7 (a garrison starved by attrition) record ``Port.captor`` and
``Port.taken_turn``; :func:`ports_taken_change_owner` completes every such capture, ports in key
order. ``taken_turn`` stays: it is how the next turn knows the port is settling.

House details (RULES.md is silent): the captor's own besiegers become the garrison; besiegers of
other nations stay ashore (guests of an ally of the captor, or whatever their relation makes them
next turn). The old garrison is every unit in the port's garrison and every unit there of a nation
at war with the captor. The old garrison commander goes with his garrison. Captured ships take the
captor's crew grade (§0 "prizes their captor's") and join a fleet of the captor in the port (the
first by id, or a new one named after the port); a captured transport's land unit is lost (§7).
Admirals of the nations at war with the captor who wait in the port, or command a fleet whose
ships were all taken there, are lost.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction

from campaign.models import Nation
from campaign.selectors import Diplomacy, diplomacy_for_campaign
from campaign.turn.context import PhaseContext
from fleets.models import Admiral, Fleet, Ship
from fleets.rows import rows_update
from fleets.services import prizes_take
from ports.models import LandUnit, Port
from ports.services import port_owner_change
from rules.turn_events import CaptureTaken, PortCaptured, counted


@dataclass
class Capture:
    """What one port's capture did."""

    port: Port
    old_owner: Nation
    captor: Nation
    ships: list[Ship] = field(default_factory=list)
    keels: list[Ship] = field(default_factory=list)
    admirals: list[Admiral] = field(default_factory=list)
    garrison: int = 0
    units_removed: int = 0
    cargo_lost: int = 0
    prize_fleet: Fleet | None = None


@transaction.atomic
def port_capture_complete(*, port: Port, turn: int, diplomacy: Diplomacy) -> Capture:
    """Hand ``port`` to its captor (RULES.md §7 "Capture"). Precondition: ``port.captor`` is set.

    Idempotent in effect: the captor is cleared, so a second call refuses (``ValueError``).
    """
    if port.captor_id is None:
        raise ValueError(f"{port.key} was not taken: it has no captor")
    captor = Nation.objects.get(pk=port.captor_id)
    capture = Capture(port=port, old_owner=Nation.objects.get(pk=port.owner_id), captor=captor)

    def hostile(nation_id: int) -> bool:
        return diplomacy.at_war(nation_id, captor.pk)

    units = list(
        LandUnit.objects.filter(port=port, state__in=[LandUnit.State.GARRISON, LandUnit.State.ASHORE]).order_by("id")
    )
    garrison = [u for u in units if u.nation_id == captor.pk]
    removed = [
        u for u in units if u.nation_id != captor.pk and (u.state == LandUnit.State.GARRISON or hostile(u.nation_id))
    ]
    port_owner_change(port=port, garrison=garrison, removed=removed)
    capture.garrison, capture.units_removed = len(garrison), len(removed)

    ships = [
        s
        for s in Ship.objects.filter(fleet__port=port, condition__in=Ship.AFLOAT)
        .select_related("fleet")
        .order_by("fleet_id", "line_position", "id")
        if hostile(s.nation_id)
    ]
    if ships:
        prizes = prizes_take(ships=ships, port=port, captor_id=captor.pk, crew=captor.crew, turn=turn)
        capture.prize_fleet, capture.cargo_lost, capture.ships = prizes.fleet, prizes.cargo_lost, ships
        capture.admirals.extend(prizes.admirals)

    keels = [
        s for s in Ship.objects.filter(building_port=port, condition=Ship.Condition.BUILDING) if hostile(s.nation_id)
    ]
    for keel in keels:
        keel.nation = captor  # building_port and building_turns_left stay: it goes on building for the captor
    rows_update(Ship, keels, ["nation"])
    capture.keels = keels

    waiting = [
        a
        for a in Admiral.objects.filter(port=port, status=Admiral.Status.ACTIVE, fleet__isnull=True).order_by("name")
        if hostile(a.nation_id)
    ]
    for admiral in waiting:
        admiral.status = Admiral.Status.LOST
        admiral.port = None
    rows_update(Admiral, waiting, ["status", "port"])
    capture.admirals += waiting
    return capture


def ports_taken_change_owner(ctx: PhaseContext) -> list[Capture]:
    """RULES.md §3 phase 9, after income and upkeep: "ports taken this turn change owner" (§7).

    Ports in key order. Everyone sees the change of owner (§3 fog of war: "every port's owner");
    the captor and the old owner get the list of what was taken.
    """
    diplomacy = diplomacy_for_campaign(campaign_id=ctx.campaign.pk)
    captures = []
    for port in Port.objects.filter(campaign=ctx.campaign, captor__isnull=False).order_by("key"):
        capture = port_capture_complete(port=port, turn=ctx.turn.number, diplomacy=diplomacy)
        captures.append(capture)
        old, new = capture.old_owner.code, capture.captor.code
        text = f"{port.name} passed from {capture.old_owner.name} to {capture.captor.name}."
        ctx.report(None, PortCaptured(text=text, port_key=port.key, port_name=port.name, owner=new, previous_owner=old))
        taken = []
        if capture.ships:
            taken.append(
                "ships "
                + ", ".join(
                    f"{s.name} ({s.get_ship_class_display()}, {s.get_condition_display().lower()})"
                    for s in capture.ships
                )
            )
        if capture.keels:
            taken.append(
                "keels "
                + ", ".join(
                    f"{s.name} ({s.get_ship_class_display()}, {counted(s.building_turns_left, 'turn')})"
                    for s in capture.keels
                )
            )
        if capture.admirals:
            taken.append("admirals " + ", ".join(f"{a.name} (lost)" for a in capture.admirals))
        if capture.units_removed:
            taken.append(f"{counted(capture.units_removed, 'land unit')} of the old garrison (lost)")
        if capture.cargo_lost:
            taken.append(f"{counted(capture.cargo_lost, 'land unit')} aboard captured transports (lost)")
        summary = f"Taken with {port.name}: " + ("; ".join(taken) if taken else "nothing but the port and its guns")
        summary += f". {new}'s garrison there: {counted(capture.garrison, 'land unit')}; batteries: {port.batteries}."
        ctx.report(
            sorted({old, new}),
            CaptureTaken(
                text=summary,
                port_key=port.key,
                port_name=port.name,
                ship_ids=tuple(s.pk for s in capture.ships),
                keel_ids=tuple(s.pk for s in capture.keels),
                admirals=tuple(a.name for a in capture.admirals),
            ),
        )
    return captures
