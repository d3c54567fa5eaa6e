"""Write-side use cases of the ports app: landings, sieges, captures and land-unit losses (RULES.md §7, §8).

These services change ports and land units only. What involves other apps — transports giving up
their cargo, ships captured with a port, who is at war with whom — is decided by the caller (the
turn phases in ``campaign``), which passes ids and nations in; every service here runs in the
caller's transaction (each phase runs in one) or opens its own.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping

from django.db import transaction

from ports.models import LandUnit, Port
from rules.siege import SiegeResult


class LandingError(ValueError):
    """A landing the rules do not allow (a state other than garrison or ashore)."""


@transaction.atomic
def land_units_land(*, units: Iterable[LandUnit], port: Port, state: str) -> list[LandUnit]:
    """RULES.md §7: landed units join ``port`` — "own port → garrison; allied → guests; enemy →
    besiegers" (guests and besiegers are both ``ashore``; which one a unit is follows from the
    relations, so a war declared later turns guests into besiegers without a write).

    The caller clears the transports' cargo in the same transaction.
    """
    if state not in (LandUnit.State.GARRISON, LandUnit.State.ASHORE):
        raise LandingError(f"Land units land into a garrison or ashore, not {state!r}.")
    landed = list(units)
    for unit in landed:
        unit.state = state
        unit.port = port
        unit.out_of_supply_turns = 0  # ashore it is fed (or starved) as the port is, counted afresh
    LandUnit.objects.bulk_update(landed, ["state", "port", "out_of_supply_turns"])
    return landed


def land_units_lose(*, unit_ids: Collection[int]) -> int:
    """Mark land units lost (siege table, attrition, a lost or captured transport, a port taken
    from them). They stay in the database for history; a lost unit has no port. Returns how many
    changed (a unit already lost is left as it is, so a repeated call changes nothing)."""
    if not unit_ids:
        return 0
    return (
        LandUnit.objects.filter(pk__in=list(unit_ids))
        .exclude(state=LandUnit.State.LOST)
        .update(state=LandUnit.State.LOST, port=None)
    )


@transaction.atomic
def siege_result_apply(*, port: Port, result: SiegeResult, captor_id: int | None, turn: int) -> None:
    """Record one port's siege roll (RULES.md §7 "Siege", "Capture").

    The units the table destroyed are lost. ``Port.siege_turns`` becomes the count of consecutive
    turns the port has ended phase 6 besieged (0 when the siege ended or the port was taken, so
    the count resets). A port taken now records its ``captor`` and ``taken_turn``; it changes owner
    after phase 9 (:func:`port_owner_change`) and the garrison keeps the guns until then [S].
    """
    if result.taken and captor_id is None:
        raise ValueError(f"{port.key}: a port taken needs its captor")
    land_units_lose(unit_ids=(*result.besiegers_lost, *result.garrison_lost))
    port.siege_turns = result.next_earlier_turns
    fields = ["siege_turns"]
    if result.taken:
        port.captor_id = captor_id
        port.taken_turn = turn
        fields += ["captor", "taken_turn"]
    port.save(update_fields=fields)


def siege_end(*, port: Port) -> None:
    """RULES.md §7: "A siege with no besiegers left ends, and its count resets"."""
    if port.siege_turns:
        port.siege_turns = 0
        port.save(update_fields=["siege_turns"])


def port_taken_record(*, port: Port, captor_id: int, turn: int) -> None:
    """A port lost to its besiegers outside the siege table (RULES.md §8: "A garrison wiped out this
    way loses the port to its besiegers at the end of the turn"): the captor takes it after phase 9."""
    port.captor_id = captor_id
    port.taken_turn = turn
    port.siege_turns = 0
    port.save(update_fields=["captor", "taken_turn", "siege_turns"])


@transaction.atomic
def port_owner_change(*, port: Port, garrison: Iterable[LandUnit], removed: Iterable[LandUnit]) -> Port:
    """RULES.md §7 "Capture", after phase 9 of the turn it was taken: the captor becomes the owner.

    ``garrison``: the captor's besiegers, who become its garrison. ``removed``: the old garrison
    (and everyone else in the port at war with the captor), lost. Batteries stay with the port and
    so pass to the captor; the old garrison's commander goes with his garrison. ``taken_turn`` is
    kept: in the next turn the port is settling (§7). Precondition: ``port.captor_id`` is set.
    """
    if port.captor_id is None:
        raise ValueError(f"{port.key} was not taken: it has no captor")
    land_units_lose(unit_ids=[u.pk for u in removed])
    new_garrison = list(garrison)
    for unit in new_garrison:
        unit.state = LandUnit.State.GARRISON
    LandUnit.objects.bulk_update(new_garrison, ["state"])
    port.owner_id = port.captor_id
    port.captor = None
    port.commander = ""
    port.siege_turns = 0
    port.save(update_fields=["owner", "captor", "commander", "siege_turns"])
    return port


def land_units_supply_record(*, streaks: Mapping[int, int]) -> None:
    """Store each land unit's consecutive turns out of supply (0 when in supply), RULES.md §8."""
    by_count: dict[int, list[int]] = defaultdict(list)
    for unit_id, count in streaks.items():
        by_count[count].append(unit_id)
    # One UPDATE per distinct count: a handful, however many units there are.
    for count, ids in sorted(by_count.items()):
        LandUnit.objects.filter(pk__in=ids).exclude(out_of_supply_turns=count).update(out_of_supply_turns=count)


def sieges_end(*, a_id: int, b_id: int, at_war: Callable[[int, int], bool]) -> list[Port]:
    """§10 "A war ending in peace: sieges between the two end": a port of nation ``a_id`` or ``b_id``
    with land units of the other ashore, none of whose besiegers is still at war with its owner
    (``at_war``, the relations after the peace), is no longer besieged (its consecutive-siege count
    resets). The units stay ashore as guests."""
    ended: list[Port] = []
    pairs = ((a_id, b_id), (b_id, a_id))
    for owner_id, besieger_id in pairs:
        ports = Port.objects.filter(
            owner_id=owner_id, land_units__nation_id=besieger_id, land_units__state=LandUnit.State.ASHORE
        ).distinct()
        for port in ports:
            ashore = set(
                LandUnit.objects.filter(port=port, state=LandUnit.State.ASHORE).values_list("nation_id", flat=True)
            )
            if any(at_war(owner_id, n) for n in ashore):
                continue  # another nation still besieges it
            if port.siege_turns:
                Port.objects.filter(pk=port.pk).update(siege_turns=0)
            ended.append(port)
    return ended
