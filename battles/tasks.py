"""Celery tasks of the battles app: thin, idempotent, taking ids (DESIGN.md).

``battle_resolve`` fights the engagements of a few contested sea zones; the turn fans its zones out in
batches (``TURN_BATTLE_ZONES_PER_TASK``) as the header of a chord whose callback finishes the turn
(``campaign.tasks.turn_resolve``).
"""

from __future__ import annotations

from celery import shared_task

from battles.engagements import engagements_fight_zones
from battles.tabletop.pdf import pack_pdf_print as _pack_pdf_print


@shared_task(name="battles.battle_resolve", acks_late=True)
def battle_resolve(turn_id: int, zone_ids: list[int] | int) -> list[int]:
    """Fight every pending engagement of the zones ``zone_ids`` this turn (one zone id is also taken:
    messages queued before zones were batched); returns the engagement ids fought now.

    Safe to run any number of times, or not at all: engagements already fought are skipped, and
    phase 4 fights inline whatever a lost task left. The task id and worker are recorded on each
    engagement it fought.
    """
    request = battle_resolve.request
    fought_by = f"task {request.id} on {request.hostname}" if request.id else "battle_resolve called directly"
    zones = [zone_ids] if isinstance(zone_ids, int) else list(zone_ids)
    return engagements_fight_zones(turn_id=turn_id, zone_ids=zones, fought_by=fought_by)


@shared_task(name="battles.pack_pdf_print", acks_late=True)
def pack_pdf_print(pdf_id: int) -> str:
    """Print a battle pack queued by a request (battles.tabletop.pdf): idempotent, one Chromium per pack."""
    return _pack_pdf_print(pdf_id)
