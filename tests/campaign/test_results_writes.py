"""The one writer of battle results (battles.results) and the port actions' use of it: many ships
written in one UPDATE by value, and a prize's place at the end of its new fleet's line the same as
when each ship was written before the next was read (issue 14 "One turn, fast")."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles.port_results import _Changes
from battles.results import CAPTURE_FIELDS, SINK_FIELDS, fleet_line_ends, ship_sink, ships_save
from fleets.models import Ship
from tests.factories import FleetFactory, ShipFactory
from tests.worlds import two_power_world

pytestmark = pytest.mark.django_db


def test_many_ships_of_different_fates_are_written_in_one_update() -> None:
    world = two_power_world()
    gb_ships = list(world.channel_fleet.ships.order_by("id"))
    fr_ships = list(world.brest_fleet.ships.order_by("id"))
    lost: list[int] = []
    for ship in gb_ships[:3]:
        ship_sink(ship, turn=1, lost_units=lost)
    for n, ship in enumerate(fr_ships[:4], start=1):
        ship.nation = world.gb
        ship.crew = "B"
        ship.fleet = world.channel_fleet
        ship.line_position = 100 + n
        ship.condition = "damaged" if n % 2 else "disabled"
    changed = gb_ships[:3] + fr_ships[:4]
    with CaptureQueriesContext(connection) as queries:
        ships_save(changed, lost, fields=sorted(set(SINK_FIELDS) | set(CAPTURE_FIELDS)))
    assert len(queries.captured_queries) == 1  # no land unit was aboard
    for ship in gb_ships[:3]:
        stored = Ship.objects.get(pk=ship.pk)
        assert (stored.condition, stored.fleet_id, stored.lost_turn) == ("sunk", None, 1)
    for n, ship in enumerate(fr_ships[:4], start=1):
        stored = Ship.objects.get(pk=ship.pk)
        assert stored.nation == world.gb and stored.fleet == world.channel_fleet and stored.crew == "B"
        assert stored.line_position == 100 + n
        assert stored.condition == ("damaged" if n % 2 else "disabled")
    untouched = Ship.objects.get(pk=gb_ships[3].pk)
    assert untouched.condition == "ready" and untouched.fleet == world.channel_fleet


def test_line_ends_of_many_fleets_in_one_query() -> None:
    world = two_power_world()
    empty = FleetFactory.create(nation=world.gb, sea_zone=world.channel)
    ShipFactory.create(fleet=world.channel_fleet, line_position=17)
    with CaptureQueriesContext(connection) as queries:
        ends = fleet_line_ends([world.channel_fleet.pk, world.brest_fleet.pk, empty.pk])
    assert len(queries.captured_queries) == 1
    assert ends == {world.channel_fleet.pk: 17, world.brest_fleet.pk: 0, empty.pk: 0}


def test_a_port_prize_goes_after_the_line_as_the_action_left_it() -> None:
    """The destination's last ship sank earlier in the same action: the prize takes its place, as it
    did when each ship was written before the next prize's place was read; a second prize follows."""
    world = two_power_world()
    home = world.channel_fleet
    for n, ship in enumerate(home.ships.order_by("id"), start=1):
        Ship.objects.filter(pk=ship.pk).update(line_position=n)  # 1…10
    in_action = {s.pk: s for s in home.ships.filter(line_position__gte=9)}  # 9 and 10 fight
    in_action.update({s.pk: s for s in world.brest_fleet.ships.order_by("id")[:2]})
    changes = _Changes(in_action)
    last = next(s for s in in_action.values() if s.line_position == 10)
    ship_sink(last, turn=1, lost_units=changes.lost_units)
    changes.note(last, SINK_FIELDS)
    prizes = [s for s in in_action.values() if s.fleet_id == world.brest_fleet.pk]
    with CaptureQueriesContext(connection) as queries:
        first = changes.next_line_position(home)
        prizes[0].fleet = home
        prizes[0].line_position = first
        second = changes.next_line_position(home)
    assert (first, second) == (10, 11)
    assert len(queries.captured_queries) == 1  # the line's end outside the action, read once
