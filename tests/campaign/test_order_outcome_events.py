"""Every order's outcome is a typed event in its nation's report (issue 30): ``order_carried_out`` or
``order_skipped`` with the order's id, position, kind and a code — the order check's refusal code when
that check refused it at resolution — and every ``*_noted`` event carries a code from its kind's list."""

from __future__ import annotations

from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

from campaign.models import Order, TurnReport
from rules.turn_events import EVENT_KINDS, report_events
from tests.support.turns import order_store, turn_resolve_inline
from tests.worlds import fleet, sea_world

pytestmark = pytest.mark.django_db


def test_each_order_has_one_outcome_event_with_its_id_and_a_code() -> None:
    world = sea_world()
    western = fleet(world, world.gb, "Western", "approaches")
    posture = order_store(world.turn, world.gb, "posture", fleet=world.channel_fleet.pk, posture="seek")
    sails = order_store(world.turn, world.gb, "move", fleet=world.channel_fleet.pk, path=["sea", "downs"])
    # The Western Approaches do not touch the North Sea: the move's own check refuses it at resolution.
    astray = order_store(world.turn, world.gb, "move", fleet=western.pk, path=["north-sea"])
    lay_down: dict[str, Any] = {"class": "frigate", "name": "Amazon", "port": "atlantis"}
    nowhere = order_store(world.turn, world.gb, "lay_down", **lay_down)
    turn_resolve_inline(world.turn)

    report = TurnReport.objects.get(turn=world.turn, nation=world.gb).body["events"]
    outcomes = {e["order_id"]: e for e in report if e["kind"] in ("order_carried_out", "order_skipped")}
    gb_orders = set(Order.objects.filter(turn=world.turn, nation=world.gb).values_list("pk", flat=True))
    assert set(outcomes) == gb_orders  # one event per order, no more, no fewer
    assert sum(1 for e in report if e["kind"] in ("order_carried_out", "order_skipped")) == len(gb_orders)
    assert outcomes[posture.pk]["kind"] == "order_carried_out" and outcomes[posture.pk]["code"] == "carried_out"
    moved = outcomes[sails.pk]
    assert (moved["kind"], moved["code"], moved["order_kind"], moved["order_position"]) == (
        "order_carried_out",
        "carried_out",
        "move",
        sails.position,
    )
    assert "Downs" in moved["text"] and "downs" not in moved["text"]  # names, never keys
    assert outcomes[astray.pk]["kind"] == "order_skipped" and outcomes[astray.pk]["code"] == "not_adjacent"
    assert outcomes[nowhere.pk]["kind"] == "order_skipped" and outcomes[nowhere.pk]["code"] == "unknown_port"
    # France gave no orders: its report holds none of Britain's.
    fr_report = TurnReport.objects.get(turn=world.turn, nation=world.fr).body["events"]
    assert not [e for e in fr_report if e.get("order_id") in gb_orders]


def test_every_noted_event_has_a_code_of_its_kind_and_the_schema_lists_them() -> None:
    world = sea_world()
    western = fleet(world, world.gb, "Western", "approaches")
    # Three steps: the third is not sailed (fleet_noted "move_cut_short").
    order_store(world.turn, world.gb, "move", fleet=western.pk, path=["channel", "north-sea", "downs"])
    turn_resolve_inline(world.turn)
    events = [e for r in TurnReport.objects.filter(turn=world.turn) for e in report_events(r.body)]
    noted = [e for e in events if e.kind.endswith("_noted")]
    assert any(e.kind == "fleet_noted" and e.code == "move_cut_short" for e in noted)  # type: ignore[attr-defined]
    for e in noted:
        assert e.code in EVENT_KINDS[e.kind].CODES, e  # type: ignore[attr-defined]

    schemas = SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]
    fleet_noted = schemas["FleetNotedEvent"]["properties"]["code"]
    assert set(EVENT_KINDS["fleet_noted"].CODES) <= set(fleet_noted.get("enum") or _enum(schemas, fleet_noted))
    skipped = schemas["OrderSkippedEvent"]["properties"]["code"]
    assert {"not_adjacent", "unknown_port", "fleet_left_battle"} <= set(skipped.get("enum") or _enum(schemas, skipped))
    assert "code" in schemas["OrderCarriedOutEvent"]["required"]


def _enum(schemas: dict[str, Any], prop: dict[str, Any]) -> list[str]:
    """An enum the schema moved into a component of its own (``$ref`` or ``allOf``)."""
    first: dict[str, Any] = next(iter(prop.get("allOf") or []), {})
    ref = str(prop.get("$ref") or first.get("$ref", ""))
    return list(schemas[ref.rsplit("/", 1)[-1]]["enum"]) if ref else []
