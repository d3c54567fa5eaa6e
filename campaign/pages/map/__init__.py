"""The map page: the real map drawn on the server as SVG, with orders from the map.

* ``page``     the page itself: a nation's map now, and the GM's without fog of war
* ``items``    what it shows: zones, ports, own and allied fleets, known enemies
* ``markers``  where forces are drawn; ``layers`` this turn's and last turn's orders drawn
* ``drawing``  labels, lines between zones, the view box; ``svg`` the ``<svg>`` itself
* ``moves``    an own fleet's legal moves, and entering one; ``orders`` the other fleet orders from the map
"""
