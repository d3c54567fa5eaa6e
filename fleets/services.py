"""Write-side use cases of the fleets app: keels, fleets and ships."""

from __future__ import annotations

from django.db import transaction

from fleets.models import Ship
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
