"""The GM's pages in the admin, beyond Django's lists and change forms (issue 11), one module per concern.

Each module holds a ModelAdmin mixin adding its pages (and their URLs) to the campaign's or the
nation's admin in ``campaign.admin``: the desk (``desk``), starting and ending a campaign
(``start_end``), the open turn's dry run and extension (``turn_pages``), the rules editor
(``rules_editor``), a nation's pages (``nation_pages``), and their forms (``forms``). The repairs'
pages live with the repairs (``campaign.gm.repair.admin``). Every page is thin: it checks that the user
runs the campaign (a campaign of other GMs does not exist for them: 404), parses a form and calls one
service of ``campaign.gm.actions`` or ``campaign.players.services``.
"""
