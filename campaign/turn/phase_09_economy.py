"""Phase 9 of RULES.md §3: income and upkeep (§2), then the ports taken this turn change owner (§7
"Capture", :mod:`campaign.turn.captures`)."""

from __future__ import annotations

from collections import defaultdict

from campaign.models import LedgerEntry, Nation
from campaign.selectors import diplomacy_for_campaign
from campaign.services import ledger_post
from campaign.turn.captures import ports_taken_change_owner
from campaign.turn.context import PhaseContext
from fleets.models import Ship
from fleets.selectors import blockading_nations_by_port
from ports.models import Port
from rules.economy import EconomyShip, IncomePort, economy_turn, income, upkeep
from rules.turn_events import LedgerChanged


def economy_phase(ctx: PhaseContext) -> None:
    turn = ctx.turn.number
    diplomacy = diplomacy_for_campaign(campaign_id=ctx.campaign.pk)
    blockaders = blockading_nations_by_port(campaign_id=ctx.campaign.pk, turn=turn)
    ports_by_owner: dict[int, list[IncomePort]] = defaultdict(list)
    for port in Port.objects.filter(campaign=ctx.campaign):
        ports_by_owner[port.owner_id].append(
            IncomePort(
                key=port.key,
                ep_value=port.ep_value,
                besieged=port.siege_turns > 0,
                blockaded=any(diplomacy.at_war(n, port.owner_id) for n in blockaders.get(port.pk, [])),
                taken_recently=port.taken_turn is not None and port.taken_turn >= turn - 1,
            )
        )
    ships_by_nation: dict[int, list[EconomyShip]] = defaultdict(list)
    for nation_id, ship_class, condition, in_ordinary in Ship.objects.filter(campaign=ctx.campaign).values_list(
        "nation_id", "ship_class", "condition", "in_ordinary"
    ):
        ships_by_nation[nation_id].append(EconomyShip(ship_class, condition, in_ordinary))  # type: ignore[arg-type]
    for nation in Nation.objects.filter(campaign=ctx.campaign).order_by("code"):
        result = economy_turn(
            nation.treasury,
            income(nation.base_income, ports_by_owner[nation.pk]),
            upkeep(ships_by_nation[nation.pk], ctx.ruleset),
        )
        for line in result.lines:
            kind = LedgerEntry.Kind.INCOME if line.amount > 0 else LedgerEntry.Kind.UPKEEP
            entry = ledger_post(nation=nation, turn=turn, amount=line.amount, kind=kind, reason=line.reason)
            if kind == LedgerEntry.Kind.UPKEEP and result.upkeep_unpaid:
                LedgerEntry.objects.filter(pk=entry.pk).update(unpaid=result.upkeep_unpaid)
        if result.out_of_supply:
            Nation.objects.filter(pk=nation.pk).update(unpaid_upkeep_turn=turn)
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
    # §3 phase 9: "ports taken this turn change owner" after income and upkeep (§7 Capture).
    ports_taken_change_owner(ctx)
