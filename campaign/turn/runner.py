"""Resolving a turn: the phases of RULES.md §3, each run once, in order, in its own transaction.

A phase is a function ``(ctx: PhaseContext) -> None`` registered in :data:`campaign.turn.registry.PHASES`.
The runner runs every phase without a :class:`~campaign.models.TurnPhase` row, in number order; the phase's work,
its strategic dice (appended to ``Turn.dice_log``), its report events and the ``TurnPhase`` row are
committed together. A worker that dies part-way leaves a consistent state, and the next run resumes
at the first phase not done — with the same dice, since they are seeded from (campaign seed, turn,
phase, place).

Phase 4 (battles) may be fanned out first: one Celery task per contested zone fights and records its
battles in parallel (see ``campaign.tasks``); the phase itself then fights whatever is left inline,
so a lost battle task delays nothing but never loses a battle.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction

from campaign.models import Nation, Turn, TurnPhase
from campaign.turn.context import PhaseContext
from campaign.turn.registry import PHASES


def phases_done(turn_id: int) -> set[int]:
    return set(TurnPhase.objects.filter(turn_id=turn_id).values_list("phase", flat=True))


def phase_run(*, turn_id: int, number: int, now: datetime) -> bool:
    """Run one phase unless it is already recorded; True if it ran now.

    The phase, its dice log, its events and its ``TurnPhase`` row commit together. The turn row is
    locked first, so two runners cannot interleave phases of one turn.
    """
    with transaction.atomic():
        # The turn's snapshot (the whole campaign as the turn opened) is for backups, never for a
        # phase: left unread, it is not decoded ten times a turn.
        turn = Turn.objects.select_for_update().select_related("campaign").defer("snapshot").get(pk=turn_id)
        if TurnPhase.objects.filter(turn=turn, phase=number).exists():
            return False
        campaign = turn.campaign
        ctx = PhaseContext(campaign=campaign, turn=turn, ruleset=campaign.ruleset, phase=number, now=now)
        phase = PHASES[number]
        phase.run(ctx)
        if len(ctx.log):
            Turn.objects.filter(pk=turn.pk).update(dice_log=[*turn.dice_log, *ctx.log.to_list()])
        TurnPhase.objects.create(turn=turn, phase=number, summary={"name": phase.name, "events": ctx.events})
    return True


def phase_waits(*, turn_id: int, number: int) -> bool:
    """Whether phase ``number`` must wait before it can run (phase 4: a battle on the table)."""
    waits = PHASES[number].waits
    return waits is not None and waits(turn_id)


def phases_remaining(turn_id: int) -> list[int]:
    done = phases_done(turn_id)
    return [n for n in sorted(PHASES) if n not in done]


class _DryRunRollback(Exception):
    pass


def turn_dry_run(*, turn_id: int, now: datetime) -> dict[str, Any]:
    """Resolve the turn inline and roll everything back: what would happen, with nothing written.

    The dice are seeded as in the real resolution, so with unchanged orders the real turn does exactly
    what the dry run showed.
    """
    result: dict[str, Any] = {}
    try:
        with transaction.atomic():
            claimed = Turn.objects.filter(pk=turn_id, status=Turn.Status.OPEN).update(status=Turn.Status.RESOLVING)
            if claimed != 1:
                raise ValueError("Only an open turn can be dry-run; this one is already resolving or resolved.")
            before = _treasuries(turn_id)
            waiting = False
            for number in phases_remaining(turn_id):
                if phase_waits(turn_id=turn_id, number=number):
                    waiting = True  # a battle goes to the table: the turn would stop here
                    break
                phase_run(turn_id=turn_id, number=number, now=now)
            result = {
                "waits_for_table": waiting,
                "phases": [
                    {"phase": p.phase, **p.summary} for p in TurnPhase.objects.filter(turn_id=turn_id).order_by("phase")
                ],
                "treasuries": {code: (before[code], after) for code, after in _treasuries(turn_id).items()},
            }
            raise _DryRunRollback
    except _DryRunRollback:
        pass
    return result


def _treasuries(turn_id: int) -> dict[str, int]:
    turn = Turn.objects.get(pk=turn_id)
    return dict(Nation.objects.filter(campaign_id=turn.campaign_id).order_by("code").values_list("code", "treasury"))
