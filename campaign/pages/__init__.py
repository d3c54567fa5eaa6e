"""The players' pages: what a nation's player (or a GM looking through a nation) sees, fog of war applied.

Each page has a ``*_for_player`` selector that decides who may see what and returns plain data:

* (``campaign.viewer``, beside this package: who is looking, as which nation — every selector starts there)
* ``contacts``    enemy forces known from the nation's own turn reports (the event shapes it reads)
* ``reports``     a stored turn report read back, events grouped by phase
* ``ports``       every port's owner, garrison, sieges and blockades, and whether it pays and builds
* ``dashboard``   treasury, ledger, projection, quota, fleets, ports, sieges, contacts
* ``map/``        the map page: the map now (zones, ports, own and allied fleets, known enemies,
                  markers), the SVG's geometry, orders from the map (see its ``__init__``)
* ``rulebook/``   the campaign's rules page, every number the campaign's
* ``next_strip``  the dashboard's "what's next" strip; ``report_summary`` a report's summary first
* ``battle_views`` the battle list and report with the campaign's header; ``battle_urls`` their URLs
* ``history``     the resolved turns, and one past turn with its battles and map as it left it
* ``home``        the landing page's campaigns
* ``paging``      page numbers for the ledger and the turn list
* ``labels``      readable names of ship classes, conditions and zone types
* ``views``       thin views over the above
"""
