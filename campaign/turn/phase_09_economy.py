"""Phase 9 of RULES.md §3: income and upkeep (§2), then the ports taken this turn change owner (§7
"Capture", :mod:`campaign.turn.captures`)."""

from __future__ import annotations

from collections import defaultdict

from campaign.economy import economy_inputs
from campaign.models import LedgerEntry, Nation
from campaign.selectors import diplomacy_for_campaign
from campaign.services import LedgerPost, ledger_post_many
from campaign.turn.captures import ports_taken_change_owner
from campaign.turn.context import PhaseContext
from fleets.models import Ship
from fleets.selectors import blockades_for_turn
from ports.models import Port
from rules.economy import economy_turn
from rules.turn_events import LedgerChanged


def economy_phase(ctx: PhaseContext) -> None:
    """Phase 9: each nation's income and upkeep (§2) from :func:`campaign.economy.economy_inputs` —
    the inputs the dashboard projects — with this turn's blockades not lifted by a storm."""
    turn = ctx.turn.number
    diplomacy = diplomacy_for_campaign(campaign_id=ctx.campaign.pk)
    blockades = blockades_for_turn(campaign_id=ctx.campaign.pk, turn=turn, at_war=diplomacy.at_war)
    # Grouped by nation first, so the work grows with the campaign, not with nations × ships.
    ports: dict[int, list[Port]] = defaultdict(list)
    for port in Port.objects.filter(campaign=ctx.campaign):
        ports[port.owner_id].append(port)
    ships: dict[int, list[Ship]] = defaultdict(list)
    for ship in Ship.objects.filter(campaign=ctx.campaign).only("nation_id", "ship_class", "condition", "in_ordinary"):
        ships[ship.nation_id].append(ship)
    lines: list[LedgerPost] = []
    out_of_supply: list[int] = []
    # Locked for the phase: the treasuries the results start from are the ones the lines are booked on.
    for nation in Nation.objects.select_for_update().filter(campaign=ctx.campaign).order_by("code"):
        inputs = economy_inputs(
            nation=nation, turn=turn, ports=ports[nation.pk], ships=ships[nation.pk], blockades=blockades
        )
        result = economy_turn(nation.treasury, inputs.income(), inputs.upkeep(ctx.ruleset))
        for line in result.lines:
            income = line.amount > 0
            lines.append(
                LedgerPost(
                    nation_id=nation.pk,
                    amount=line.amount,
                    kind=LedgerEntry.Kind.INCOME if income else LedgerEntry.Kind.UPKEEP,
                    reason=line.reason,
                    unpaid=0 if income else result.upkeep_unpaid,
                )
            )
        if result.out_of_supply:
            out_of_supply.append(nation.pk)
        ctx.report(
            [nation.code],
            LedgerChanged(
                text=f"Income {result.income.total} EP, upkeep {result.upkeep_due} EP"
                + (f" ({result.upkeep_unpaid} EP unpaid: all ships out of supply)" if result.out_of_supply else "")
                + f"; treasury {result.treasury_after} EP.",
                treasury=result.treasury_after,
                income=result.income.total,
                upkeep=result.upkeep_due,
                upkeep_unpaid=result.upkeep_unpaid,
            ),
        )
    ledger_post_many(turn=turn, lines=lines)
    if out_of_supply:
        Nation.objects.filter(pk__in=out_of_supply).update(unpaid_upkeep_turn=turn)
    # §3 phase 9: "ports taken this turn change owner" after income and upkeep (§7 Capture).
    ports_taken_change_owner(ctx)
