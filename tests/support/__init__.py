"""Helpers shared by the test suite.

* ``tests.factories`` — factory_boy factories for single rows;
* ``tests.worlds`` and ``tests.web.fog_worlds`` — small campaigns built in the database;
* ``tests.support.turns`` — orders stored for a turn, phases run one by one, turns resolved inline.
"""
