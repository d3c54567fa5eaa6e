"""The game master's work on a campaign: everything a GM does that a player does not.

* ``actions``  the GM's actions (clock, resolve now, rules, treasury, lay-down, start, end), each audited
* ``desk``     the GM's desk of one campaign, read in a fixed number of queries
* ``checklist`` what the GM checks before pressing Start
* ``archive``  hiding an ended campaign from the active lists, and bringing it back
* ``backup``   the GM's export and import from the admin (audited; the document itself is ``campaign.backup``)
* ``repair/``  revert to a turn's snapshot, re-run the open turn, re-fight a battle
* ``admin/``   the GM's pages in the admin, one module per concern

Who plays which nation (invitations, replacing a player) is ``campaign.players``; the audit log the GM's
actions write is ``campaign.audit``. The players' pages and the API never import this package.
"""
