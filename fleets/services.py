"""Write-side use cases of the fleets app: keels, fleets and ships."""

from __future__ import annotations

from django.db import transaction

from fleets.models import Fleet, Ship
from fleets.selectors import free_fleet_name
from ports.models import Port
from rules.ruleset import Ruleset


class ShipNameError(ValueError):
    """A ship name is empty, too long, or already used by a ship of that navy afloat."""


def ship_name_validate(*, campaign_id: int, original_nation_id: int, name: str) -> str:
    """Return the cleaned name or raise :class:`ShipNameError` saying what is allowed."""
    cleaned = " ".join(name.split())
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


@transaction.atomic
def keel_create(
    *, ruleset: Ruleset, nation_id: int, crew: str, port: Port, ship_class: str, name: str, turn: int
) -> Ship:
    """A new ship on the stocks at ``port`` with its full build turns (RULES.md §1).

    The caller has checked the rules and paid for it; this only records the keel.
    """
    cleaned = ship_name_validate(campaign_id=port.campaign_id, original_nation_id=nation_id, name=name)
    return Ship.objects.create(
        campaign_id=port.campaign_id,
        name=cleaned,
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
    """
    launched: list[tuple[Ship, Fleet]] = []
    keels = (
        Ship.objects.select_for_update(of=("self",))
        .filter(campaign_id=campaign_id, condition=Ship.Condition.BUILDING)
        .exclude(laid_down_turn=turn)
        .select_related("nation", "building_port__sea_zone")
        .order_by("id")
    )
    for ship in keels:
        ship.building_turns_left -= 1
        if ship.building_turns_left > 0:
            ship.save(update_fields=["building_turns_left"])
            continue
        port = ship.building_port
        assert port is not None  # a keel always has its yard (database constraint)
        fleet = (
            Fleet.objects.filter(campaign_id=campaign_id, nation_id=ship.nation_id, port=port).order_by("id").first()
        )
        if fleet is None:
            fleet = Fleet.objects.create(
                campaign_id=campaign_id,
                nation_id=ship.nation_id,
                name=free_fleet_name(campaign_id=campaign_id, nation_id=ship.nation_id, base=port.name),
                sea_zone=port.sea_zone,
                port=port,
                crew=ship.nation.crew,
                created_turn=turn,
            )
        last = fleet.ships.order_by("-line_position").values_list("line_position", flat=True).first() or 0
        ship.condition = Ship.Condition.READY
        ship.crew = ship.nation.crew
        ship.fleet = fleet
        ship.building_port = None
        ship.line_position = last + 1
        ship.save(update_fields=["building_turns_left", "condition", "crew", "fleet", "building_port", "line_position"])
        launched.append((ship, fleet))
    return launched
