"""Celery tasks of the battles app: thin, idempotent, taking ids (DESIGN.md).

``battle_resolve`` fights one contested sea zone's engagements; the turn fans out one per zone as
the header of a chord whose callback finishes the turn (``campaign.tasks.turn_resolve``).
"""

from __future__ import annotations

from celery import shared_task

from battles.engagements import engagements_fight_zone


@shared_task(name="battles.battle_resolve", acks_late=True)
def battle_resolve(turn_id: int, zone_id: int) -> list[int]:
    """Fight every pending engagement of one zone this turn; returns the engagement ids fought now.

    Safe to run any number of times, or not at all: engagements already fought are skipped, and
    phase 4 fights inline whatever a lost task left. The task id and worker are recorded on each
    engagement it fought.
    """
    request = battle_resolve.request
    fought_by = f"task {request.id} on {request.hostname}" if request.id else "battle_resolve called directly"
    return engagements_fight_zone(turn_id=turn_id, zone_id=zone_id, fought_by=fought_by)
