"""Battles fought on the table, the battles app's side of them (issue 15): the battle and storming packs
(:mod:`.pack`, :mod:`.storming`, with the parts both print in :mod:`.sections`), a pack printed to PDF
(:mod:`.pdf`) and a result's history in words (:mod:`.history`).

Holding a battle back in phase 4 and writing its approved result stay with the other engagements of
phase 4, in :mod:`battles.engagements.table` (phase 4's fight calls it; it writes through the same
helpers as a battle fought by the dice).
"""
