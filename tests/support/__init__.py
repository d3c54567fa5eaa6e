"""Helpers shared by the test suite (test modules import from here, never from each other).

* ``tests.factories`` — factory_boy factories for single rows;
* ``tests.worlds`` — small campaigns built in the database (``two_power_world``, ``sea_world``)
  and builders for them (``zone``, ``port``, ``fleet``);
* ``tests.web.fog_worlds`` — campaigns with players, past turns and reports for the pages and the
  API (``fog_world``, ``players_world``, ``user``, ``client_for``); the ``fw`` fixture is in
  tests/conftest.py;
* ``tests.support.turns`` — orders stored for a turn, phases run one by one, turns resolved
  inline, events and reports read back;
* ``tests.support.random_orders`` — deterministic random orders for a whole campaign (fuzz, golden);
* ``tests.support.exports`` — campaign exports made comparable between runs;
* ``tests.support.sieges`` — garrisons and besiegers ashore, a seed for a wanted siege die, the
  turn's siege dice read back;
* ``tests.support.tabletop`` — Gibraltar's besieged-port battle and its storming held at the table.
"""
