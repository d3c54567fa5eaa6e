"""Battles and stormings fought on the table (issue 15): the campaign's side of them, in one place.

* ``services``   the flow: marking a place before the turn resolves, the pack, entering, confirming,
                 disputing and approving a result, the GM's fall-back
* ``record``     what a table battle records of its result: who entered, confirmed, disputed, decided
* ``thread``     the battle's thread: both sides' players and the GM talk about its result
* ``pdf``        a pack's PDF, printed by a queued task, never inside a request
* ``pages``      what a player (or a GM) sees of them, fog of war applied; ``views`` the pages' views
* ``api_views``  the same flow in the REST API

The battles app holds their records and packs (``battles.tabletop``) and phase 4's table engagements;
the rules of a table fight are in ``rules.tabletop``; a table battle's section of a backup is
``campaign.backup.tabletop``.
"""
