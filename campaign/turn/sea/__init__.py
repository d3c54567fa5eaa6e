"""Movement and contacts of phase 3, and the engagements they leave for phase 4 (RULES.md §4
"Zones and ports", "Movement", "Posture", "Sides", "Sighting", "Battle or not", "Sally",
"Besieged-port engagement", "Hostile fleets in one port"; §2 in ordinary; §3 "Processing order",
"Strategic dice", "Fog of war").

The sea-movement work of phase 3, in small modules: :mod:`~campaign.turn.sea.world` (the fleets
loaded once), :mod:`~campaign.turn.sea.paths` (moving), :mod:`~campaign.turn.sea.contacts`,
:mod:`~campaign.turn.sea.in_port` (capacity, port engagements), :mod:`~campaign.turn.sea.records`
and :mod:`~campaign.turn.sea.organisation` (the fleet-organisation orders before moving).

The phase loads the campaign's fleets once into a :class:`SeaWorld`, moves them in memory step by
step, resolves contacts after each step, and writes every fleet's place back at the end.

Movement, by rule:

* A move order is a path of at most ``movement.max_steps`` steps (``movement.max_steps_with_disabled``
  if the fleet has a disabled ship); the rest of a longer path is not sailed and is reported. A step
  is an adjacent zone's key, ``"sea"`` (leave the port into its zone) or ``"port:<key>"`` (enter an
  own or allied port in the current zone). A step that is impossible when it comes up (not
  adjacent, a port of a nation neither own nor allied, leaving port while at sea…) is skipped with
  the rest of the path, and reported. The length and each step are the move order's own checks
  (:func:`campaign.orders.board.max_steps`, :meth:`campaign.orders.board.Board.step`, on a board
  over the rows the phase loaded), so the reason reported is the one the order page gives; a sally
  is re-checked likewise (:func:`campaign.orders.board.sally_place_check`).
* Steps are simultaneous: every fleet takes step 1 from where it stood, then contacts are resolved;
  then step 2. Fleets that swap zones in one step do not meet (contacts look only at where fleets
  are after the step).
* Leaving an own or allied port sets ``Fleet.left_port_turn`` to this turn (§8 supply).
* Ships in ordinary cannot leave port (§2). House resolution: when a fleet with some ships in
  ordinary sails, those ships stay behind in the port, joining the nation's lowest-id fleet there
  that is not sailing, or a new fleet named after the port; a fleet whose every ship is in ordinary
  does not sail (the order is skipped and reported).
* Port capacity (§4): at the end of the phase at most ``capacity × movement.port_ships_per_capacity``
  ships afloat (all nations) may be in a port. Ships already there count first; fleets that
  entered this turn are admitted in processing order (nations by code, orders by position), and a
  fleet whose entry would exceed the limit stays at sea in the zone.

Contacts, by rule:

* After step 1 in every zone where nations at war are at sea; after step 2 in the zones a fleet
  entered in step 2 (by moving there or leaving a port into it). A fleet that entered a port in the
  step is still at sea for that step's contacts (sighted at ``sighting.port_move``), and stays at
  sea if it is caught. Zones are taken in key order; each zone and step has its own dice,
  ``ctx.dice("<zone>:<step>")``, logged with place = the zone's key.
* Sides: :func:`campaign.turn.sea.contacts.sides_split` (§4 "Sides"). Sides are ordered by their
  lead nation's code: sighting (each seeking side against the other), then intercept.
* Battle if both sides seek and either sighted; intercept (opposed d6) if only one seeks and it
  sighted; a side with no ship able to form a line caught by one that has is captured whole (an
  engagement of kind ``capture``). Every fleet of both sides stops there: the rest of its path is
  not sailed, and it takes no part in later contacts this turn (it has a battle to fight).
* Posture: a side seeks if any of its fleets seeks (seek or blockade). House resolution: a fleet of
  transports only never seeks (avoid is its default, and it cannot fight).
* Fog of war: a nation's report shows what it sighted (class and condition of each ship), whom it
  met, the rest of a path it could not sail, and where its fleets (and its allies') ended the phase.
  A sighting that failed is not reported: the searcher saw nothing.

Phase 4's own engagements are recorded at the end of the phase, after the at-sea ones of their
zone, port by port in key order: hostile fleets in one port, then sallies, then the besieged-port
engagement (see :func:`campaign.turn.sea.in_port.port_engagements_plan`).

House resolutions for cases the rules leave open:

* A fleet already committed to a battle in step 1 takes no part in step-2 contacts, so a zone can
  see a second battle (step 2's newcomers against the fleets not yet engaged).
* When nations at war do not split into two sides, the nations left out of the split that are at
  war with each other form sides the same way and meet afterwards, in the same zone and step, on
  the same dice stream (§12.7 as settled: "a zone may see several battles"); those left with no one
  to meet stay out of that zone's contacts for the rest of the turn (§4 "the rest stay out this turn").
* If either side contains a fleet that entered or left a port in the step, that side is sighted at
  ``sighting.port_move``.
* "Escorts transports": the target side has transports and at least one other ship.
"""
