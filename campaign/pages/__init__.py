"""The players' pages: what a nation's player (or a GM looking through a nation) sees, fog of war applied.

Each page has a ``*_for_player`` selector that decides who may see what and returns plain data:

* (``campaign.viewer``, beside this package: who is looking, as which nation — every selector starts there)
* ``contacts``    enemy forces known from the nation's own turn reports (the event shapes it reads)
* ``reports``     a stored turn report read back, events grouped by phase
* ``ports``       every port's owner, garrison, sieges and blockades, and whether it pays and builds
* ``dashboard``   treasury, ledger, projection, quota, fleets, ports, sieges, contacts
* ``map``         the map now (zones, ports, own and allied fleets, known enemies, markers)
* ``map_drawing`` the SVG's geometry: zone labels, lines between zones, the viewBox, zoom and pan
* ``map_moves`` orders from the map: an own fleet's legal moves (the move form's), and entering one
* ``history``     the resolved turns, and one past turn with its battles and map as it left it
* ``home``        the landing page's campaigns
* ``paging``      page numbers for the ledger and the turn list
* ``labels``      readable names of ship classes, conditions and zone types
* ``views``       thin views over the above
"""
