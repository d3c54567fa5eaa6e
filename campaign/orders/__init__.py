"""Orders (RULES.md §3): what a nation orders for the open turn, checked when it is given.

Where things are:

* ``errors.py`` — :class:`OrderRefused` (message, ``code``, ``field``), :class:`OrdersRefused`, and
  :class:`RefusalCode`, the documented list of refusal codes.
* ``schema.py`` — the keys and JSON types of each kind's body; NUL/surrogate and range checks.
* ``board.py`` — the board (zones, adjacency, ports, relations) and the rule checks made on it
  (movement steps, port entry, running the guns, landings, repairs, diplomacy).
* ``context.py`` — what one order is checked against: the nation's fleets and ships and what the
  orders listed before it commit.
* ``checks/`` — the per-kind checks, one module per group, in the table ``checks.CHECKS``
  (the quota check: ``checks/building_and_ships.py``).
* ``validator.py`` — one body or a whole list, checked in listed order.
* ``services.py`` — ``order_add``, ``order_update``, ``order_withdraw``, ``orders_replace``.
* ``selectors.py`` — a turn's orders and the EP they commit.
* ``describe.py`` — orders in words.
* ``choices.py``, ``forms/``, ``views.py`` — the order page.

Resolution (``campaign/turn``) does not call these checks again; it re-checks on its own what can
have changed since an order was given.
"""
