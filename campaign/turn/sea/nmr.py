"""The campaign's policy for nations without orders (NMR, "no move received"; a house option, issue 11).

* ``hold`` (the default): their standing orders hold — nothing to do here.
* ``return_to_port``: :func:`nmr_fleets_to_port`, at the start of phase 3's movement, brings each of their
  fleets at sea into an own port of the sea zone it is in (the port of that zone owned by the nation,
  first by name); a fleet with no own port in its zone holds where it is. A fleet that comes home from a
  blockade ends it (its posture goes back to seek battle). Port capacity is enforced
  after movement as for every fleet. Each nation reads what happened in its report.
* ``ask_gm``: the turn waits at its deadline while such nations remain (campaign.turn.lifecycle.turns_due)
  until the GM enters their orders, extends the deadline or resolves it now. Orders the GM entered after
  the deadline carry a late mark (campaign.orders.deadline); :func:`late_orders_report` tells each nation
  which of its orders were entered so, by whom and why, at the start of phase 1.

"Without orders" means a nation with a player that entered nothing this turn (``NationTurn.submitted_at``
empty): a player who entered orders and withdrew them all did give orders.
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef

from campaign.models import Nation, NmrPolicy, Order
from campaign.selectors import nations_without_orders as nations_without_orders_of_turn
from campaign.turn.context import PhaseContext
from fleets.models import Fleet, Ship
from ports.models import Port
from rules.turn_events import FleetNoted, Note


def nations_without_orders(ctx: PhaseContext) -> list[Nation]:
    """The campaign's nations with a player and no orders entered in this turn (one query)."""
    return list(nations_without_orders_of_turn(campaign_id=ctx.campaign.pk, turn_id=ctx.turn.pk))


def nmr_fleets_to_port(ctx: PhaseContext) -> int:
    """With the "fleets return to port" policy, bring the fleets at sea of nations without orders into an
    own port of their zone; returns how many entered one."""
    if ctx.campaign.nmr_policy != NmrPolicy.RETURN_TO_PORT:
        return 0
    missing = {n.pk: n for n in nations_without_orders(ctx)}
    if not missing:
        return 0
    afloat = Ship.objects.filter(fleet=OuterRef("pk"), condition__in=Ship.AFLOAT)
    fleets = (
        Fleet.objects.filter(campaign=ctx.campaign, nation_id__in=missing, port__isnull=True)
        .filter(Exists(afloat))
        .select_related("sea_zone", "blockade_port")
        .order_by("nation__code", "name")
    )
    own_ports: dict[tuple[int, int], Port] = {}
    for candidate in Port.objects.filter(campaign=ctx.campaign, owner_id__in=missing).order_by("-name"):
        own_ports[(candidate.owner_id or 0, candidate.sea_zone_id)] = candidate  # by name: the first one wins
    entered = 0
    for fleet in fleets:
        nation = missing[fleet.nation_id]
        port = own_ports.get((fleet.nation_id, fleet.sea_zone_id))
        if port is None:
            text = (
                f"No orders were received: {fleet.name} had no own port in {fleet.sea_zone.name} to return to "
                "and held its position."
            )
            ctx.report(
                [nation.code], FleetNoted(text=text, fleet_id=fleet.pk, fleet_name=fleet.name, code="no_orders_held")
            )
            continue
        # A fleet that leaves its station ends its blockade: the posture goes with the port it named
        # (the database holds "a blockade names a port"), back to the default, seek battle.
        lifted = fleet.blockade_port if fleet.posture == Fleet.Posture.BLOCKADE else None
        fleet.port = port
        fleet.posture = Fleet.Posture.SEEK if lifted is not None else fleet.posture
        fleet.blockade_port = None
        fleet.save(update_fields=["port", "posture", "blockade_port"])
        entered += 1
        text = f"No orders were received: {fleet.name} returned to {port.name} (the campaign's house rule)"
        text += f" and no longer blockades {lifted.name}." if lifted is not None else "."
        ctx.report(
            [nation.code],
            FleetNoted(
                text=text,
                fleet_id=fleet.pk,
                fleet_name=fleet.name,
                port_key=port.key,
                port_name=port.name,
                code="no_orders_returned",
            ),
        )
    return entered


def late_orders_report(ctx: PhaseContext) -> int:
    """Tell each nation which of its orders a GM entered after the deadline, and why (issue 26); returns
    how many there were (one query)."""
    late = (
        Order.objects.filter(turn=ctx.turn)
        .exclude(late_by="")
        .select_related("nation")
        .order_by("nation__code", "position")
    )
    count = 0
    for order in late:
        text = (
            f"Order {order.position} ({order.get_kind_display().lower()}) was entered by the GM "
            f"({order.late_by}) after the deadline: {order.late_reason}"
        )
        ctx.report([order.nation.code], Note(text=text))
        count += 1
    return count
