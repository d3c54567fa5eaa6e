"""Orders (RULES.md §3): what a nation orders for the open turn, checked when it is given.

Where things are:

* ``errors.py`` — :class:`OrderRefused` (message, ``code``, ``field``), :class:`OrdersRefused`, and
  :class:`RefusalCode`, the documented list of refusal codes.
* ``schema.py`` — the keys and JSON types of each kind's body; NUL/surrogate and range checks.
* ``board.py`` — the board (zones, adjacency, ports, relations) and the rule checks made on it
  (movement steps, port entry, running the guns, landings, diplomacy).
* ``in_port.py`` — the checks of a ship in port: repair, lay up and recommission.
* ``context.py`` — what one order is checked against: the nation's fleets and ships and what the
  orders listed before it commit.
* ``checks/`` — the per-kind checks, one module per group, in the table ``checks.CHECKS``
  (the quota check: ``checks/building_and_ships.py``).
* ``validator.py`` — one body or a whole list, checked in listed order.
* ``services.py`` — ``order_add``, ``order_update``, ``order_withdraw``, ``orders_replace``.
* ``turn_lock.py`` — the open turn a change works on, locked, and the list-version check.
* ``selectors.py`` — a turn's orders and the EP they commit.
* ``describe.py`` — orders in words.
* ``choices.py``, ``forms/``, ``views.py`` — the order page.

Resolution (``campaign/turn``) calls the same checks again, against the state at resolution, where
an order can have become impossible since it was given, so a skipped order gives the reason the
order page gives for refusing it: the move length and each step (``board.max_steps``,
``Board.step``; phase 3, over the rows it loaded, ``Board.preloaded``), the sally
(``board.sally_place_check``; phase 3), the repair (``in_port.repair_check``, with the blockade and
supply only resolution knows; phase 8), lay up and recommission (``in_port.ordinary_check``; phase 8). The
lay-down and the raise share ``campaign.services`` (``lay_down_port_check``, ``raise_port_check``,
``rules.construction``) with phase 2. Not shared yet: running the guns and fireships (phase 5),
landings (phase 6), fleet organisation and appointments (phase 3) and diplomacy (phase 1) keep
their own re-checks at resolution.
"""
