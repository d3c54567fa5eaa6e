"""Write-side use cases of the fleets app: keels, fleets and ships."""

from __future__ import annotations

from dataclasses import dataclass, field

from fleets.models import Admiral, Fleet, Ship
from fleets.rows import rows_update
from fleets.selectors import free_fleet_name
from ports.models import Port
from ports.services import land_units_lose
from rules.names import name_fault, name_normalised
from rules.ruleset import Ruleset


class ShipNameError(ValueError):
    """A ship name is empty, too long, or already used by a ship of that navy afloat."""


def ship_name_validate(*, campaign_id: int, original_nation_id: int, name: str) -> str:
    """Return the cleaned name (rules.names: NFKC, whitespace collapsed) or raise :class:`ShipNameError`
    saying what is allowed; the navy's names are compared in that form, so a look-alike is a clash."""
    fault = name_fault(name)
    if fault is not None:
        raise ShipNameError(f"The ship's name cannot be used: {fault}.")
    cleaned = name_normalised(name)
    if not cleaned:
        raise ShipNameError("A ship needs a name (1–80 characters).")
    if len(cleaned) > 80:
        raise ShipNameError(f"Ship names are at most 80 characters; {cleaned[:20]!r}… has {len(cleaned)}.")
    clash = (
        Ship.objects.filter(campaign_id=campaign_id, original_nation_id=original_nation_id, name=cleaned)
        .exclude(condition__in=Ship.GONE)
        .exists()
    )
    if clash:
        raise ShipNameError(
            f"The navy already has a ship named {cleaned!r} afloat or building; choose another name "
            "(names may be reused once a ship is lost)."
        )
    return cleaned


def keel_create(
    *, ruleset: Ruleset, nation_id: int, crew: str, port: Port, ship_class: str, name: str, turn: int
) -> Ship:
    """A new ship on the stocks at ``port`` with its full build turns (RULES.md §1).

    The caller has checked the rules, the name (``name`` is what :func:`ship_name_validate` returned,
    in the caller's transaction) and paid for it; this only records the keel, in one INSERT (so it
    needs no transaction of its own: the caller's holds it with the payment).
    """
    return Ship.objects.create(
        campaign_id=port.campaign_id,
        name=name,
        ship_class=ship_class,
        nation_id=nation_id,
        original_nation_id=nation_id,
        condition=Ship.Condition.BUILDING,
        crew=crew,
        building_port=port,
        building_turns_left=ruleset.ship_build_turns[ship_class],
        laid_down_turn=turn,
    )


def keels_advance(*, campaign_id: int, turn: int) -> list[tuple[Ship, Fleet]]:
    """RULES.md §1, phase 2: "ships laid down in earlier turns lose one build turn first; at 0 they are
    launched: commissioned, with the nation's default crew, into a fleet of their nation in that port
    (a new fleet named after the port if there is none), free to move that turn."

    Returns the launched ships with the fleet each joined. Keels are taken in id order, so a new fleet
    is created once per port and reused by later launches there.

    RULES.md §12.2: in a port settling after its capture (taken in the turn before this one) keels keep
    losing a build turn, but none is launched before the turn after: a keel that would reach 0 now
    stays on the slips with its last turn (a keel is never stored at 0) and is launched next phase 2.
    """
    launched: list[tuple[Ship, Fleet]] = []
    keels = (
        Ship.objects.select_for_update(of=("self",))
        .filter(campaign_id=campaign_id, condition=Ship.Condition.BUILDING)
        .exclude(laid_down_turn=turn)
        .select_related("nation", "building_port__sea_zone")
        .order_by("id")
    )
    # The fleet each (nation, port) launches into, with the last line position given there: read (or
    # created) at its first launch, then reused, so a port launching several keels costs its queries once.
    joined: dict[tuple[int, int], tuple[Fleet, int]] = {}
    building: list[Ship] = []
    for ship in keels:
        port = ship.building_port
        assert port is not None  # a keel always has its yard (database constraint)
        settling = port.taken_turn is not None and port.taken_turn == turn - 1
        if ship.building_turns_left > 1 or settling:
            ship.building_turns_left = max(1, ship.building_turns_left - 1)
            building.append(ship)
            continue
        ship.building_turns_left = 0
        place = (ship.nation_id, port.pk)
        if place in joined:
            fleet, last = joined[place]
        else:
            found = (
                Fleet.objects.filter(campaign_id=campaign_id, nation_id=ship.nation_id, port=port)
                .order_by("id")
                .first()
            )
            if found is None:
                fleet = Fleet.objects.create(
                    campaign_id=campaign_id,
                    nation_id=ship.nation_id,
                    name=free_fleet_name(campaign_id=campaign_id, nation_id=ship.nation_id, base=port.name),
                    sea_zone=port.sea_zone,
                    port=port,
                    crew=ship.nation.crew,
                    created_turn=turn,
                )
                last = 0
            else:
                fleet = found
                fleet.port = port  # the port filtered on: the launch report reads it without a query
                last = fleet.ships.order_by("-line_position").values_list("line_position", flat=True).first() or 0
        ship.condition = Ship.Condition.READY
        ship.crew = ship.nation.crew
        ship.fleet = fleet
        ship.building_port = None
        ship.line_position = last + 1
        joined[place] = (fleet, ship.line_position)
        launched.append((ship, fleet))
    # Written together, a statement per kind of change, instead of a save per keel.
    rows_update(Ship, building, ["building_turns_left"])
    rows_update(
        Ship,
        [ship for ship, _ in launched],
        ["building_turns_left", "condition", "crew", "fleet", "building_port", "line_position"],
    )
    return launched


@dataclass
class PrizesTaken:
    """What :func:`prizes_take` did: the fleet the prizes joined, the land units lost aboard captured
    transports, and the admirals lost with a fleet taken whole."""

    fleet: Fleet
    cargo_lost: int
    admirals: list[Admiral] = field(default_factory=list)


def prizes_take(*, ships: list[Ship], port: Port, captor_id: int, crew: str, turn: int) -> PrizesTaken:
    """RULES.md §7 "Capture": ``ships`` (afloat in ``port``, in line order) are captured in their
    condition by the nation ``captor_id``, take its crew grade ``crew`` (§0 "prizes their captor's")
    and join its first fleet in the port by id, or a new one named after the port. A captured
    transport's land unit is lost; the admiral of a fleet taken whole goes with his flagship (lost).
    """
    prize_fleet = Fleet.objects.filter(nation_id=captor_id, port=port).order_by("id").first()
    if prize_fleet is None:
        prize_fleet = Fleet.objects.create(
            campaign_id=port.campaign_id,
            nation_id=captor_id,
            name=free_fleet_name(campaign_id=port.campaign_id, nation_id=captor_id, base=port.name),
            sea_zone_id=port.sea_zone_id,
            port=port,
            crew=crew,
            created_turn=turn,
        )
    last = prize_fleet.ships.order_by("-line_position").values_list("line_position", flat=True).first() or 0
    emptied = {s.fleet_id for s in ships if s.fleet_id is not None}
    cargo = [s.cargo_id for s in ships if s.cargo_id is not None]
    for n, ship in enumerate(ships, start=1):
        ship.nation_id = captor_id
        ship.crew = crew
        ship.fleet = prize_fleet
        ship.line_position = last + n
        ship.cargo = None
    rows_update(Ship, ships, ["nation", "crew", "fleet", "line_position", "cargo"])
    taken = PrizesTaken(prize_fleet, land_units_lose(unit_ids=cargo))
    # The admirals of the fleets left with no ship, in one query per kind of row whatever the fleets.
    commanded = list(Fleet.objects.filter(pk__in=emptied, admiral__isnull=False).select_related("admiral"))
    manned = set(Ship.objects.filter(fleet__in=commanded, condition__in=Ship.AFLOAT).values_list("fleet_id", flat=True))
    lost_with: list[Fleet] = []
    for fleet in commanded:
        if fleet.pk in manned or fleet.admiral is None:
            continue
        admiral = fleet.admiral
        fleet.admiral = None
        admiral.status = Admiral.Status.LOST
        admiral.port = None
        lost_with.append(fleet)
        taken.admirals.append(admiral)
    if lost_with:
        Fleet.objects.filter(pk__in=[f.pk for f in lost_with]).update(admiral=None)
        Admiral.objects.filter(pk__in=[a.pk for a in taken.admirals]).update(status=Admiral.Status.LOST, port=None)
    return taken


def guests_put_to_sea(*, owner_id: int, guest_id: int, turn: int) -> list[Fleet]:
    """§10 "An alliance ending in peace": the guest nation's fleets in the owner's ports go to sea in
    each port's zone (before phase 3). Returns the fleets moved, port loaded as it was."""
    fleets = list(Fleet.objects.filter(nation_id=guest_id, port__owner_id=owner_id).select_related("port__sea_zone"))
    for fleet in fleets:
        port = fleet.port
        assert port is not None
        Fleet.objects.filter(pk=fleet.pk).update(port=None, sea_zone=port.sea_zone, left_port_turn=turn)
    return fleets
