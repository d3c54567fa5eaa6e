"""Typed turn events (issue 8): every kind round-trips through its stored JSON, and the shapes that
reports stored before the kinds existed are read back as the right kind (no database)."""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from pathlib import Path
from typing import Any

import pytest

from rules.turn_events import (
    EVENT_KINDS,
    BattleFought,
    BattleShip,
    ContactMade,
    Note,
    SeenShip,
    TurnEvent,
    counted,
    event_from_json,
    report_events,
)

OLD_EVENTS = Path(__file__).parent.parent / "fixtures" / "old_turn_events.json"


def _sample(hint: Any, n: int) -> Any:
    """A value of type ``hint`` that differs from the field's default (so a lost field is noticed)."""
    args = typing.get_args(hint)
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return _sample(next(a for a in args if a is not type(None)), n)
    if typing.get_origin(hint) is tuple:
        return tuple(_sample(args[0], n + k) for k in range(2))
    if hint is SeenShip:
        return SeenShip(nation="FR", ship_class="1st", condition="damaged", name=f"Ship {n}", in_ordinary=True)
    if hint is BattleShip:
        return BattleShip(side=n % 2, ship_id=100 + n, ship_name=f"Ship {n}", ship_class="3rd-74", fate="sunk")
    return {int: 7 + n, str: f"value {n}", bool: True}[hint]


def _instance(cls: type[TurnEvent]) -> TurnEvent:
    hints = typing.get_type_hints(cls)
    values = {f.name: _sample(hints[f.name], i) for i, f in enumerate(dataclasses.fields(cls))}
    return cls(**values)


@pytest.mark.parametrize("kind", sorted(EVENT_KINDS))
def test_every_kind_round_trips_through_its_stored_json(kind: str) -> None:
    event = _instance(EVENT_KINDS[kind])
    stored = json.loads(json.dumps({"nations": ["GB"], **event.to_json()}))
    assert stored["kind"] == kind and stored["text"] == event.text and stored["phase"] == event.phase
    assert event_from_json(stored) == event


def test_every_kind_has_its_own_discriminator() -> None:
    assert len(EVENT_KINDS) == len({cls.__name__ for cls in EVENT_KINDS.values()})
    assert all(issubclass(cls, TurnEvent) and cls.kind == kind for kind, cls in EVENT_KINDS.items())


def test_a_current_event_with_a_field_of_the_wrong_type_is_not_taken_at_its_word() -> None:
    bad = {"phase": 4, "kind": "battle_fought", "text": "Battle.", "battle_id": "12", "place_key": "biscay"}
    assert event_from_json(bad) == Note(text="Battle.", phase=4)
    missing = {"phase": 4, "kind": "contact_made", "text": "Seen.", "zone_key": "biscay"}  # no "how"
    assert isinstance(event_from_json(missing), Note)


def test_an_old_battle_event_is_read_with_its_ship_rows() -> None:
    old = {
        "phase": 4,
        "text": "Battle at Bay of Biscay: GB against FR, 1 day(s).",
        "battle": 3,
        "engagement": 9,
        "place": "biscay",
        "ships": [{"side": 1, "ship": 55, "name": "Redoutable", "class": "3rd-74", "fate": "captured"}],
    }
    assert event_from_json(old) == BattleFought(
        text="Battle at Bay of Biscay: GB against FR, 1 day(s).",
        phase=4,
        battle_id=3,
        engagement_id=9,
        place_key="biscay",
        ships=(BattleShip(side=1, ship_id=55, ship_name="Redoutable", ship_class="3rd-74", fate="captured"),),
    )


@pytest.mark.parametrize("place_key", ["zone", "sea_zone", "place"])
@pytest.mark.parametrize("ships_key", ["sighted", "forces", "fleets", "ships"])
def test_an_old_sighting_is_read_whatever_its_place_and_ships_were_called(place_key: str, ships_key: str) -> None:
    forces = [
        {"nation": "FR", "ships": [{"class": "1st", "condition": "damaged"}]},
        {"nation": "ES", "counts": {"frigate": 2}},
    ]
    old = {"phase": 3, "text": "Sighted.", "type": "sighting", place_key: "biscay", "step": 2, ships_key: forces}
    event = event_from_json(old)
    assert isinstance(event, ContactMade)
    assert (event.how, event.zone_key, event.step) == ("sighted", "biscay", 2)
    assert [(s.nation, s.ship_class, s.condition) for s in event.ships] == [
        ("FR", "1st", "damaged"),
        ("ES", "frigate", "ready"),
        ("ES", "frigate", "ready"),
    ]


#: The kind each shape of the old stored events (by phase and the data keys beside the text) is read as.
OLD_SHAPES = {
    (1, ("offer",)): "offer_made",
    (1, ("relation",)): "relation_changed",
    (2, ()): "note",
    (3, ()): "note",
    (3, ("fleet",)): "fleet_noted",
    (3, ("fleet", "port", "zone")): "fleet_moved",
    (3, ("met", "step", "zone")): "contact_made",
    (3, ("order",)): "order_carried_out",
    (3, ("sighted", "step", "zone")): "contact_made",
    (4, ("battle", "engagement", "place", "ships")): "battle_fought",
    (4, ("engagement",)): "engagement_noted",
    (4, ("engagement", "fleet")): "fleet_noted",
    (4, ("engagement", "place", "ships")): "side_captured",
    (4, ("port",)): "port_blockaded",
    (4, ("port", "ships")): "port_looked_into",
    (5, ("battle", "port")): "port_action_fought",
    (5, ("order",)): "order_skipped",
    (6, ("besiegers_lost", "garrison_lost", "port")): "siege_dice",
    (6, ("order",)): "order_skipped",
    (6, ("outcome", "port", "taken")): "siege_rolled",
    (6, ("port",)): "port_noted",
    (6, ("port", "units")): "units_landed",
    (7, ()): "note",
    (7, ("damaged", "lost", "zone")): "storm_struck",
    (7, ("fleet",)): "fleet_noted",
    (7, ("place",)): "place_noted",
    (7, ("port",)): "port_noted",
    (8, ()): "note",
    (8, ("order",)): "order_skipped",
    (8, ("ship",)): "ship_noted",
    (9, ("treasury",)): "ledger_changed",
}


def test_the_events_the_old_code_stored_are_read_as_their_kinds() -> None:
    """Real stored events of the code before the kinds (tests/fixtures/old_turn_events.json)."""
    stored = json.loads(OLD_EVENTS.read_text())["events"]
    seen = set()
    for old in stored:
        shape = (old["phase"], tuple(sorted(k for k in old if k not in ("phase", "nations", "text"))))
        event = event_from_json(old)
        assert (event.kind, event.text, event.phase) == (OLD_SHAPES[shape], old["text"], old["phase"]), old
        seen.add(shape)
    assert seen == set(OLD_SHAPES)


def test_a_report_body_gives_its_events_and_ignores_what_is_not_one() -> None:
    body = {"turn": 1, "events": [{"phase": 2, "text": "Laid down Caledonia."}, "junk", 3]}
    assert report_events(body) == [Note(text="Laid down Caledonia.", phase=2)]
    assert report_events({"turn": 1}) == [] and report_events(None) == []


def test_counted_puts_the_noun_in_the_right_number() -> None:
    assert [counted(n, "ship") for n in (0, 1, 2)] == ["0 ships", "1 ship", "2 ships"]
    assert counted(1, "land unit") == "1 land unit" and counted(3, "die", "dice") == "3 dice"
