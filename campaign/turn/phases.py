"""The phases of RULES.md §3 that the turn pipeline runs, by number.

Each phase is thin orchestration: it reads what it needs, calls the apps' services and the pure
rule modules, marks the orders it carried out or skipped, and notes events for the turn reports.
Within a phase, nations are taken in code order and each nation's orders in listed order (§3).
"""

from __future__ import annotations

from collections import defaultdict

from django.db import transaction

from campaign.models import Campaign, LedgerEntry, Nation, NationTurn, Order, Turn, TurnPhase, TurnReport
from campaign.selectors import diplomacy_for_campaign
from campaign.services import land_unit_raise, ledger_post, ship_lay_down
from campaign.turn.captures import ports_taken_change_owner
from campaign.turn.diplomacy import diplomacy_phase
from campaign.turn.phase_guns import guns_phase
from campaign.turn.phase_land import landings_and_sieges_phase, storms_supply_attrition_phase
from campaign.turn.phase_sea import battles_phase, movement_phase
from campaign.turn.repairs import repairs_phase
from campaign.turn.runner import Phase, PhaseContext
from fleets.models import Blockade, Ship
from fleets.services import ShipNameError, keels_advance
from ports.models import Port
from rules.calendar import TurnDate, deadline_after
from rules.construction import ConstructionRefused
from rules.economy import EconomyShip, IncomePort, economy_turn, income, upkeep


def _orders(ctx: PhaseContext, kinds: tuple[str, ...]) -> list[Order]:
    """This turn's pending orders of ``kinds``: nations in code order, then listed order (§3)."""
    return list(
        Order.objects.filter(turn=ctx.turn, kind__in=kinds, outcome=Order.Outcome.PENDING)
        .select_related("nation")
        .order_by("nation__code", "position")
    )


def _done(order: Order, note: str = "") -> None:
    order.outcome = Order.Outcome.DONE
    order.outcome_note = note[:300]
    order.save(update_fields=["outcome", "outcome_note"])


def _skip(ctx: PhaseContext, order: Order, reason: str) -> None:
    """An order that became impossible is skipped and reported to its nation — never a failed turn."""
    order.outcome = Order.Outcome.SKIPPED
    order.outcome_note = reason[:300]
    order.save(update_fields=["outcome", "outcome_note"])
    ctx.report([order.nation.code], f"Order {order.position} ({order.kind}) skipped: {reason}", order=order.pk)


# --- phase 2: construction and raising (RULES.md §1, §7) ------------------------------------------


def construction_phase(ctx: PhaseContext) -> None:
    for ship, fleet in keels_advance(campaign_id=ctx.campaign.pk, turn=ctx.turn.number):
        ctx.report(
            [ship.nation.code],
            f"{ship.name} ({ship.get_ship_class_display()}) launched at {fleet.port} and joined {fleet.name}.",
        )
    ports = {p.key: p for p in Port.objects.filter(campaign=ctx.campaign)}
    for order in _orders(ctx, (Order.Kind.LAY_DOWN, Order.Kind.RAISE)):
        body = order.body
        port = ports.get(body.get("port", ""))
        if port is None:
            _skip(ctx, order, f"port {body.get('port')!r} does not exist")
            continue
        try:
            if order.kind == Order.Kind.LAY_DOWN:
                ship = ship_lay_down(nation=order.nation, ship_class=body["class"], name=body["name"], port=port)
                _done(order, f"{ship.name} laid down at {port.name}")
                ctx.report([order.nation.code], f"Laid down {ship.name} ({body['class']}) at {port.name}.")
            else:
                train = body.get("unit") == "siege_train"
                land_unit_raise(nation=order.nation, port=port, siege_train=train)
                what = "siege train" if train else "land unit"
                _done(order, f"{what} raised at {port.name}")
                ctx.report([order.nation.code], f"Raised a {what} at {port.name}.")
        except (ConstructionRefused, ShipNameError) as refused:
            _skip(ctx, order, str(refused))


# --- phase 9: income and upkeep (RULES.md §2) -------------------------------------------------------


def economy_phase(ctx: PhaseContext) -> None:
    turn = ctx.turn.number
    diplomacy = diplomacy_for_campaign(campaign_id=ctx.campaign.pk)
    blockaders: dict[int, list[int]] = defaultdict(list)
    for port_id, nation_id in Blockade.objects.filter(campaign=ctx.campaign, turn=turn, lifted=False).values_list(
        "port_id", "fleet__nation_id"
    ):
        blockaders[port_id].append(nation_id)
    ports_by_owner: dict[int, list[IncomePort]] = defaultdict(list)
    for port in Port.objects.filter(campaign=ctx.campaign):
        ports_by_owner[port.owner_id].append(
            IncomePort(
                key=port.key,
                ep_value=port.ep_value,
                besieged=port.siege_turns > 0,
                blockaded=any(diplomacy.at_war(n, port.owner_id) for n in blockaders[port.pk]),
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
            f"Income {result.income.total} EP, upkeep {result.upkeep_due} EP"
            + (f" ({result.upkeep_unpaid} EP unpaid: all ships out of supply)" if result.out_of_supply else "")
            + f"; treasury {result.treasury_after} EP.",
            treasury=result.treasury_after,
        )
    # §3 phase 9: "ports taken this turn change owner" after income and upkeep (§7 Capture).
    ports_taken_change_owner(ctx)


# --- phase 10: the next turn opens (RULES.md §3) ---------------------------------------------------


def next_turn_phase(ctx: PhaseContext) -> None:
    """Close this turn, store every nation's report, open the next with its deadline, notify players."""
    turn, campaign = ctx.turn, ctx.campaign
    Turn.objects.filter(pk=turn.pk).update(
        status=Turn.Status.RESOLVED, resolved_at=ctx.now, lease_token=None, lease_until=None
    )
    _reports_store(ctx)
    if campaign.last_turn is not None and turn.number >= campaign.last_turn:
        Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.ENDED)
        ctx.report(None, f"The campaign ended with turn {turn.number}.")
    else:
        date = TurnDate(turn.year, turn.season).next()
        new = Turn.objects.create(
            campaign=campaign,
            number=turn.number + 1,
            year=date.year,
            season=date.season,
            deadline=deadline_after(ctx.now, ctx.ruleset),
        )
        Campaign.objects.filter(pk=campaign.pk).update(turn_number=new.number, year=date.year, season=date.season)
        NationTurn.objects.bulk_create(
            [NationTurn(turn=new, nation=n) for n in Nation.objects.filter(campaign=campaign)]
        )
        # The backup of the new turn's opening state, for export_campaign --turn N.
        from campaign.backup import campaign_export

        new.snapshot = campaign_export(campaign=Campaign.objects.get(pk=campaign.pk), with_snapshots=False)
        new.save(update_fields=["snapshot"])
    from campaign.tasks import turn_reports_email

    transaction.on_commit(lambda: turn_reports_email.delay(turn.pk))


def _reports_store(ctx: PhaseContext) -> None:
    """Each nation's report: the events of every phase it may see (fog of war applied when noted)."""
    events = [
        event
        for summary in TurnPhase.objects.filter(turn=ctx.turn).order_by("phase").values_list("summary", flat=True)
        for event in summary.get("events", [])
    ] + ctx.events
    for nation in Nation.objects.filter(campaign=ctx.campaign):
        seen = [e for e in events if e["nations"] is None or nation.code in e["nations"]]
        TurnReport.objects.update_or_create(
            turn=ctx.turn,
            nation=nation,
            defaults={
                "body": {
                    "turn": ctx.turn.number,
                    "season": ctx.turn.season,
                    "year": ctx.turn.year,
                    "events": [{k: v for k, v in e.items() if k != "nations"} for e in seen],
                }
            },
        )


PHASES: dict[int, Phase] = {
    1: diplomacy_phase,
    2: construction_phase,
    3: movement_phase,
    4: battles_phase,
    5: guns_phase,
    6: landings_and_sieges_phase,
    7: storms_supply_attrition_phase,
    8: repairs_phase,
    9: economy_phase,
    10: next_turn_phase,
}
