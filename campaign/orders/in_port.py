"""The checks of a ship in port that the order checks and resolution share (RULES.md §2 and §8): whether
it can be repaired in phase 8, laid up or recommissioned — see :mod:`campaign.orders.board` for the rest.

Each raises :class:`~campaign.orders.errors.CheckFailed` with the bare reason and a
:class:`~campaign.orders.errors.RefusalCode`: the order checks (``checks/``) call them at submission,
the order page's choices to offer what they accept, and phase 8 (``campaign/turn``) again against the
state at resolution (phase 7 reads :func:`upkeep_unpaid_lately` for supply).
"""

from __future__ import annotations

from campaign.models import Nation
from campaign.orders.board import ShipFacts
from campaign.orders.errors import CheckFailed, RefusalCode
from fleets.models import Ship
from ports.models import Port
from ports.selectors import port_recently_taken


def repair_check(
    *,
    nation: Nation,
    ship: ShipFacts,
    port: Port | None,
    turn: int,
    blockaded: bool = False,
    fleet_in_supply: bool = True,
) -> None:
    """RULES.md §2 and §8: whether ``ship`` can be repaired in phase 8 of ``turn`` — the one check, made
    by the repair order's check at submission and by phase 8 at resolution, with the same reasons.

    §2: repair "a ship in an own port with a dockyard, not blockaded and not taken this turn or last";
    "ceil(10% of class EP) if damaged, ceil(25%) if disabled". §8: "Out of supply: ... no repairs", and
    unpaid upkeep puts "all that nation's ships ... out of supply until the end of the next turn".

    ``blockaded``: the port is blockaded against ``nation`` this turn; ``fleet_in_supply``: the ship's
    fleet as phase 7 decided it. Both are known only at resolution (blockades are established in
    phase 4, supply in phase 7), so the order check leaves them at their defaults; unpaid upkeep is
    known at submission and is checked at both.
    """
    if ship.condition not in (Ship.Condition.DAMAGED, Ship.Condition.DISABLED):
        raise CheckFailed(
            f"{ship.name} is {ship.condition}; only a damaged or disabled ship is repaired (rules §2)",
            code=RefusalCode.NOT_DAMAGED,
        )
    if port is None:
        raise CheckFailed(
            f"{ship.name} is at sea; ships are repaired in an own port with a dockyard (rules §2)",
            code=RefusalCode.AT_SEA,
        )
    if port.owner_id != nation.pk:
        raise CheckFailed(
            f"{ship.name} is in {port.name}, which is not {nation.name}'s; repairs need an own port",
            code=RefusalCode.NOT_OWN_PORT,
        )
    if not port.dockyard:
        raise CheckFailed(
            f"{port.name} has no dockyard; ships are repaired only where there is one (rules §2)",
            code=RefusalCode.NO_DOCKYARD,
        )
    if port_recently_taken(port, turn):
        assert port.taken_turn is not None  # port_recently_taken
        raise CheckFailed(
            f"{port.name} was taken in turn {port.taken_turn}; it repairs again from turn {port.taken_turn + 2} "
            "(a port taken this turn or last does not repair)",
            code=RefusalCode.RECENTLY_TAKEN,
            numbers={"taken_turn": port.taken_turn, "from_turn": port.taken_turn + 2},
        )
    if blockaded:
        raise CheckFailed(
            f"{port.name} is blockaded against {nation.name} this turn; a blockaded port does not repair",
            code=RefusalCode.BLOCKADED,
        )
    if upkeep_unpaid_lately(nation, turn):
        assert nation.unpaid_upkeep_turn is not None  # upkeep_unpaid_lately
        raise CheckFailed(
            f"{nation.name} left upkeep unpaid in turn {nation.unpaid_upkeep_turn}, so all its ships are out of "
            f"supply until the end of turn {turn}; ships out of supply are not repaired",
            code=RefusalCode.OUT_OF_SUPPLY,
            numbers={"unpaid_turn": nation.unpaid_upkeep_turn, "until_turn": turn},
        )
    if not fleet_in_supply:
        # Only resolution knows the fleet's supply, and it passes the ship model, whose fleet it names.
        fleet = ship.fleet if isinstance(ship, Ship) else None
        raise CheckFailed(
            f"{fleet.name if fleet is not None else ship.name} is out of supply; ships out of supply are not repaired",
            code=RefusalCode.OUT_OF_SUPPLY,
        )


def upkeep_unpaid_lately(nation: Nation, turn: int) -> bool:
    """RULES.md §2: unpaid upkeep puts "all that nation's ships ... out of supply until the end of the
    next turn" — upkeep left unpaid in phase 9 of this turn or the last."""
    unpaid = nation.unpaid_upkeep_turn
    return unpaid is not None and unpaid >= turn - 1


def ordinary_check(*, nation: Nation, ship: ShipFacts, port: Port | None, lay_up: bool) -> None:
    """RULES.md §2: "lay up" and "recommission" orders are for a ship in an own port."""
    if port is None or port.owner_id != nation.pk:
        where = "at sea" if port is None else f"in {port.name}, which is not {nation.name}'s"
        raise CheckFailed(
            f"{ship.name} is {where}; only a ship in an own port is laid up or recommissioned (§2)",
            code=RefusalCode.NOT_OWN_PORT,
        )
    if lay_up and ship.in_ordinary:
        raise CheckFailed(f"{ship.name} is already in ordinary", code=RefusalCode.ALREADY_IN_ORDINARY)
    if not lay_up and not ship.in_ordinary:
        raise CheckFailed(
            f"{ship.name} is in commission, not in ordinary; there is nothing to recommission",
            code=RefusalCode.NOT_IN_ORDINARY,
        )
