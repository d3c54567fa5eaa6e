"""Phase 10 of RULES.md §3: the turn closes, every nation's report is stored (fog of war applied as the
phases noted it), the next turn opens with its deadline and its backup, and the mail of
the turn is recorded (campaign.outbox.mail); dispatches in transit arrive."""

from __future__ import annotations

from campaign.backup.document import campaign_export
from campaign.dispatches.services import dispatches_release
from campaign.models import Campaign, Nation, NationTurn, Turn, TurnPhase, TurnReport
from campaign.outbox.mail import (
    campaign_ended_record,
    missed_deadline_record,
    turn_opened_record,
    turn_resolved_record,
)
from campaign.standings import ports_victory_reached
from campaign.turn.context import PhaseContext
from rules.calendar import TurnDate, deadline_after
from rules.turn_events import CampaignEnded
from rules.turn_events.kinds import counted


def next_turn_phase(ctx: PhaseContext) -> None:
    """Close this turn, store every nation's report, open the next with its deadline, notify players."""
    turn, campaign = ctx.turn, ctx.campaign
    Turn.objects.filter(pk=turn.pk).update(
        status=Turn.Status.RESOLVED, resolved_at=ctx.now, lease_token=None, lease_until=None
    )
    nations = list(Nation.objects.filter(campaign=campaign))
    reports_store(ctx, nations)
    # The mail of this turn, recorded in this phase's transaction: a resumed or repeated phase 10
    # records nothing new, and a rolled-back one nothing at all. Recorded before the next turn's, so
    # the mails go out in the order things happened (due together, they are sent in recorded order):
    # "turn N resolved" before "turn N+1 is open".
    turn_resolved_record(turn=turn, now=ctx.now)
    missed_deadline_record(turn=turn, now=ctx.now)
    last = campaign.last_turn is not None and turn.number >= campaign.last_turn
    # The "hold N ports" victory condition (a house rule) ends the campaign once a nation holds them.
    winner = ports_victory_reached(campaign)
    if last or winner is not None:
        Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.ENDED)
        why = (
            f"{winner.name} holds {counted(winner.ports, 'port')} ({campaign.victory_ports} needed to win)"
            if winner is not None
            else ""
        )
        ended = f"The campaign ended with turn {turn.number}{': ' + why if why else ''}."
        ctx.report(None, CampaignEnded(text=ended, turn=turn.number))
        campaign_ended_record(campaign=campaign, turn=turn, now=ctx.now, reason=f"{why}." if why else "")
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
        NationTurn.objects.bulk_create([NationTurn(turn=new, nation=n) for n in nations])
        # The backup of the new turn's opening state, for export_campaign --turn N (the export
        # reads the campaign row as it now stands itself).
        new.snapshot = campaign_export(campaign=campaign, with_snapshots=False)
        new.save(update_fields=["snapshot"])
        turn_opened_record(turn=new, now=ctx.now)
    # Dispatches held back by distance arrive as the next turn opens (or as the campaign ends), and only
    # now is their mail recorded: in this transaction, so a rolled-back phase delivers nothing.
    dispatches_release(campaign_id=campaign.pk, turn_number=turn.number + 1, now=ctx.now)


def reports_store(ctx: PhaseContext, nations: list[Nation] | None = None) -> None:
    """Each nation's report: the events of every phase it may see (fog of war applied when noted).

    One query per kind of row, whatever the nations: the reports already stored (a repeated
    phase 10 rewrites them) are read at once, the new ones inserted together, the others updated
    together. ``nations``: the campaign's, when the caller has them already."""
    events = [
        event
        for summary in TurnPhase.objects.filter(turn=ctx.turn).order_by("phase").values_list("summary", flat=True)
        for event in summary.get("events", [])
    ] + ctx.events
    if nations is None:
        nations = list(Nation.objects.filter(campaign=ctx.campaign))
    stored = {r.nation_id: r for r in TurnReport.objects.filter(turn=ctx.turn)}
    new: list[TurnReport] = []
    rewritten: list[TurnReport] = []
    for nation in nations:
        seen = [e for e in events if e["nations"] is None or nation.code in e["nations"]]
        body = {
            "turn": ctx.turn.number,
            "season": ctx.turn.season,
            "year": ctx.turn.year,
            "events": [{k: v for k, v in e.items() if k != "nations"} for e in seen],
        }
        report = stored.get(nation.pk)
        if report is None:
            new.append(TurnReport(turn=ctx.turn, nation=nation, body=body))
        else:
            report.body = body
            rewritten.append(report)
    TurnReport.objects.bulk_create(new)
    if rewritten:
        TurnReport.objects.bulk_update(rewritten, ["body"])
