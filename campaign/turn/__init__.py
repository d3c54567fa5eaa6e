"""A turn's resolution (RULES.md §3): where each part of it lives.

* ``lifecycle`` — claiming a due turn, its lease, the GM's pause/resume/extend, players' "ready".
* ``runner`` — runs the phases in order, each once, in its own transaction (and the dry run).
* ``registry`` — the one table of phases: number, name, title for players, function.
* ``context`` — :class:`~campaign.turn.context.PhaseContext`, what every phase receives.
* ``outcomes`` — the pending orders of a phase, and marking them done or skipped.
* ``phase_01_diplomacy`` … ``phase_10_next_turn`` — one module per phase, named after it.
* ``sea/`` — the sea-movement work of phase 3 (the fleets in memory, paths, contacts, ports,
  fleet organisation, what it records for phase 4).
* ``captures`` — the end of phase 9: ports taken this turn change owner.

What a phase reports is a typed event (``ctx.report(nations, event)``); the kinds live in
:mod:`rules.turn_events`, below both the turn and ``battles``, which writes the battle events.

Work on the other apps' models is in their services and selectors (``fleets.services``,
``fleets.weather``, ``ports.services``…); battles are fought by ``battles``.
"""
