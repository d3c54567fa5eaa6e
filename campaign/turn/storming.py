"""A besieged port's storming fought on the table (issue 15; RULES.md §7 "Siege").

How the turn treats it — phase 6 runs once, and only this port's siege waits:

* Phase 6 resolves the landings and every siege in port key order as always. At a port whose
  storming is marked for the table, when the siege's d10 would be rolled (G > 0 and 2B ≥ G), no die
  is rolled: the siege as it stands is kept with the storming (:func:`storming_hold`), which waits
  for its result. Every other port's siege rolls its own die, seeded from (campaign seed, turn, 6,
  port key) as ever, so their dice and their order in the turn's log are exactly what they would have
  been. A marking where no roll comes about (no besiegers, or G = 0: taken without a roll; or too few
  to roll) ends "no battle there".
* Phase 7 waits (:func:`stormings_wait`, its ``waits`` hook) while a storming is at the table: the
  turn stops after phase 6, with phase 6 recorded once.
* The approved result (:func:`storming_settle` with the entered body) — or the GM's fall-back to the
  dice, the same d10 phase 6 would have rolled with the turn's seeded dice — is applied by the code
  phase 6 applies a d10 with (:func:`siege_outcome_apply`: the units lost, the siege count, a capture
  recorded for after phase 9), its report events join phase 6's record and its die (if any) the end
  of the turn's dice log. Then the turn resolves on from phase 7.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from battles.models import TabletopBattle
from campaign.models import Nation, Turn, TurnPhase
from campaign.turn.context import PhaseContext
from ports.models import Port
from ports.services import siege_result_apply
from rules.siege import (
    SiegeOutcome,
    SiegeResult,
    SiegeState,
    siege_roll,
    siege_state_from_json,
    siege_state_json,
    siege_table_result,
)
from rules.turn_events import PortNoted, SiegeDice, SiegeRolled, counted

#: The phase whose sieges a storming replaces.
SIEGE_PHASE = 6

_OUTCOME_TEXT = {
    SiegeOutcome.TAKEN_UNDEFENDED: "had no garrison and was taken",
    SiegeOutcome.NO_ROLL: "holds: the besiegers are too few to assault it",
    SiegeOutcome.BESIEGER_LOST: "holds; the besiegers lost a unit",
    SiegeOutcome.NOTHING: "holds",
    SiegeOutcome.GARRISON_LOST: "lost a garrison unit",
    SiegeOutcome.STORMED: "was stormed: the garrison was removed and the port taken",
    SiegeOutcome.STORMED_AT_A_COST: "was stormed at the cost of a besieging unit",
}


def _table_text(result: SiegeResult) -> str:
    garrison, besiegers = len(result.garrison_lost), len(result.besiegers_lost)
    taken = "the port was taken" if result.taken else "the port held"
    return (
        f"was stormed on the table: the garrison lost {counted(garrison, 'unit')}, the besiegers "
        f"{counted(besiegers, 'unit')}; {taken}"
    )


def siege_outcome_apply(
    ctx: PhaseContext,
    port: Port,
    result: SiegeResult,
    besieging: Sequence[str],
    nations: Mapping[str, Nation],
) -> None:
    """Apply one port's siege result — the d10's or a storming's from the table — and report it.

    ``besieging`` are the besieging nations' codes. The units lost are removed, the siege count kept
    or reset, a port taken records its captor for after phase 9 (``ports.services``). Everyone sees
    "every port's owner, sieges" (§3 fog of war); the numbers and the die go to the owner and the
    besieging nations.
    """
    captor = nations[result.captor] if result.captor else None
    siege_result_apply(port=port, result=result, captor_id=captor.pk if captor else None, turn=ctx.turn.number)
    owner = next(n for n in nations.values() if n.pk == port.owner_id)
    named = ", ".join(sorted(nations[c].name for c in set(besieging)))
    how = _table_text(result) if result.outcome is SiegeOutcome.AT_TABLE else _OUTCOME_TEXT[result.outcome]
    text = f"{port.name} ({owner.name}), besieged by {named}, {how}"
    if result.outcome is SiegeOutcome.GARRISON_LOST and result.taken:
        text += ", its last: the port is taken"
    if captor is not None:
        text += f". {captor.name} takes it over at the end of the turn"
    elif result.still_besieged:
        text += f" (besieged {counted(result.next_earlier_turns, 'turn')} running)"
    elif not result.taken:
        text += ". The siege has ended: no besiegers are left"
    ctx.report(
        None,
        SiegeRolled(
            text=text + ".", port_key=port.key, port_name=port.name, outcome=str(result.outcome), taken=result.taken
        ),
    )
    detail = f"Siege of {port.name}: B {result.b} against G {result.g}"
    if result.die is not None and result.modifiers is not None:
        detail += f"; d10 {result.die.raw} {result.modifiers.total:+d} = {result.die.result} ({result.die.detail})"
    elif result.outcome is SiegeOutcome.AT_TABLE:
        detail += "; fought on the table"
    else:
        detail += "; no roll"
    detail += f"; besiegers lost {len(result.besiegers_lost)}, garrison lost {len(result.garrison_lost)}."
    ctx.report(
        sorted({owner.code, *besieging}),
        SiegeDice(
            text=detail,
            port_key=port.key,
            port_name=port.name,
            besiegers_lost=tuple(result.besiegers_lost),
            garrison_lost=tuple(result.garrison_lost),
        ),
    )


# --- phase 6: holding a storming ---------------------------------------------------------------------


def stormings_marked(ctx: PhaseContext) -> dict[str, TabletopBattle]:
    """The turn's stormings marked for the table, by port key (locked: phase 6 holds them)."""
    rows = TabletopBattle.objects.select_for_update().filter(
        turn=ctx.turn, kind=TabletopBattle.Kind.STORMING, status=TabletopBattle.Status.MARKED
    )
    return {row.place: row for row in rows}


def storming_hold(ctx: PhaseContext, table: TabletopBattle, port: Port, state: SiegeState, owner: Nation) -> None:
    """Phase 6 at a port whose storming goes to the table: no d10; the siege as it stands is kept with
    the storming (side 0 the besiegers, side 1 the garrison and the owner), which now waits."""
    besieging = sorted({u.nation for u in state.besiegers})
    defending = sorted({owner.code, *(u.nation for u in state.garrison)})
    table.pack = {**(table.pack or {}), "siege": {**siege_state_json(state), "sides": [besieging, defending]}}
    table.status = TabletopBattle.Status.WAITING
    table.save(update_fields=["pack", "status", "updated_at"])
    text = f"The storming of {port.name} ({owner.name}) is fought on the table; the siege waits for its result."
    ctx.report(None, PortNoted(text=text, port_key=port.key, port_name=port.name, code="storming_at_table"))


def stormings_unheld_close(ctx: PhaseContext, rolled: set[str]) -> None:
    """At the end of phase 6: a storming marked (or asked for) where the siege rolled its d10 anyway
    was fought by the dice; one where no roll came about had no storming there this turn."""
    waiting = TabletopBattle.objects.filter(
        turn=ctx.turn, kind=TabletopBattle.Kind.STORMING, status__in=TabletopBattle.BEFORE
    )
    waiting.filter(place__in=rolled).update(
        status=TabletopBattle.Status.AUTOMATIC, note="Not approved before the turn resolved: fought by the dice."
    )
    waiting.exclude(place__in=rolled).update(
        status=TabletopBattle.Status.NO_BATTLE, note="No siege roll came about there this turn."
    )


# --- after phase 6: the result, or the dice ------------------------------------------------------------


def storming_state(table: TabletopBattle) -> SiegeState:
    """The siege of a held storming, as phase 6 found it."""
    siege = (table.pack or {}).get("siege")
    if not siege:
        raise ValueError("This storming has not come to the table: phase 6 has not held its siege.")
    return siege_state_from_json(siege)


def storming_result_check(table: TabletopBattle, body: Mapping[str, Any]) -> SiegeResult:
    """An entered storming result checked against the held siege (raises ``SiegeResultRefused``)."""
    names = dict(Nation.objects.filter(campaign_id=table.campaign_id).values_list("code", "name"))
    return siege_table_result(storming_state(table), body, table.campaign.ruleset, names)


@transaction.atomic
def storming_settle(*, table: TabletopBattle, body: Mapping[str, Any] | None, now: datetime) -> SiegeResult:
    """Apply a held storming: the approved ``body`` or, with None, the d10 phase 6 would have rolled
    (the turn's seeded dice for this port). Its events join phase 6's record and its die the turn's
    dice log; applied once (a second call finds it settled and raises ValueError)."""
    table = TabletopBattle.objects.select_for_update().select_related("campaign").get(pk=table.pk)
    siege = dict((table.pack or {}).get("siege") or {})
    if not siege or siege.get("settled"):
        raise ValueError("This storming's siege is not waiting to be settled.")
    turn = Turn.objects.select_for_update().defer("snapshot").get(pk=table.turn_id)
    campaign = table.campaign
    ctx = PhaseContext(campaign=campaign, turn=turn, ruleset=campaign.ruleset, phase=SIEGE_PHASE, now=now)
    state = storming_state(table)
    if body is None:
        result = siege_roll(state, ctx.ruleset, ctx.dice(state.port), ctx.log)
    else:
        result = storming_result_check(table, body)
    port = Port.objects.select_for_update().get(campaign=campaign, key=state.port)
    nations = {n.code: n for n in Nation.objects.filter(campaign=campaign)}
    siege_outcome_apply(ctx, port, result, [u.nation for u in state.besiegers], nations)
    record = TurnPhase.objects.select_for_update().get(turn=turn, phase=SIEGE_PHASE)
    record.summary = {**record.summary, "events": [*record.summary.get("events", []), *ctx.events]}
    record.save(update_fields=["summary"])
    if len(ctx.log):
        Turn.objects.filter(pk=turn.pk).update(dice_log=[*turn.dice_log, *ctx.log.to_list()])
    siege["settled"] = True
    table.pack = {**table.pack, "siege": siege}
    table.save(update_fields=["pack", "updated_at"])
    return result


def stormings_wait(turn_id: int) -> bool:
    """Phase 7's hook: first settle by the dice every held storming the GM (or the table's deadline)
    sent back to the dice; then say whether a storming still waits at the table."""
    fallen_back = TabletopBattle.objects.filter(
        turn_id=turn_id, kind=TabletopBattle.Kind.STORMING, status=TabletopBattle.Status.AUTOMATIC
    )
    for table in fallen_back.order_by("place"):
        siege = (table.pack or {}).get("siege")
        if siege and not siege.get("settled"):
            storming_settle(table=table, body=None, now=timezone.now())
    return TabletopBattle.objects.filter(
        turn_id=turn_id, kind=TabletopBattle.Kind.STORMING, status__in=TabletopBattle.OUTSTANDING
    ).exists()
