"""The API's turn-report events: one schema component per event kind, made from its dataclass.

Every kind of :mod:`rules.turn_events` gets a serializer named after it (``BattleFoughtEvent``…) whose
fields follow the dataclass's typed fields, so the schema cannot drift from what the phases write;
:class:`TurnEventsField` outputs a report's typed events as their stored JSON and is documented as a
``oneOf`` with a discriminator on ``kind``.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from campaign.orders.errors import RefusalCode
from rules.turn_events import EVENT_KINDS, BattleShip, OrderSkipped, SeenShip, TurnEvent
from rules.turn_events.kinds import SKIP_CODES_AT_RESOLUTION

#: Why an order was skipped: the order check's refusal code when the same check refused it at
#: resolution, else a reason only the resolution knows.
SKIP_CODES: tuple[str, ...] = (*(str(c) for c in RefusalCode), *SKIP_CODES_AT_RESOLUTION)


class SeenShipSerializer(serializers.Serializer[Any]):
    nation = serializers.CharField(allow_null=True, help_text="Nation code, when the report says whose.")
    ship_class = serializers.CharField()
    condition = serializers.CharField()
    name = serializers.CharField(help_text="Empty unless the report named the ship.")
    in_ordinary = serializers.BooleanField(allow_null=True, help_text="Only for ships seen in a blockaded port.")


class BattleShipSerializer(serializers.Serializer[Any]):
    side = serializers.IntegerField(help_text="0 or 1: the index of the battle's side.")
    ship_id = serializers.IntegerField()
    ship_name = serializers.CharField()
    ship_class = serializers.CharField()
    fate = serializers.CharField()


_ROWS: dict[type, type[serializers.Serializer[Any]]] = {
    SeenShip: SeenShipSerializer,
    BattleShip: BattleShipSerializer,
}
_SCALARS: dict[Any, type[serializers.Field[Any, Any, Any, Any]]] = {
    int: serializers.IntegerField,
    str: serializers.CharField,
    bool: serializers.BooleanField,
}


def _field_for(hint: Any, *, null: bool = False) -> serializers.Field[Any, Any, Any, Any]:
    """The serializer field of one dataclass field's type (int, str, bool, optional, tuple of those or rows)."""
    args = typing.get_args(hint)
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return _field_for(next(a for a in args if a is not type(None)), null=True)
    if typing.get_origin(hint) is tuple:
        item = args[0]
        if item in _ROWS:
            return _ROWS[item](many=True, allow_null=null)
        return serializers.ListField(child=_SCALARS[item](), allow_null=null)
    return _SCALARS[hint](allow_null=null)


_CODE_HELP = {
    "order_carried_out": "How the order was carried out (as ordered, or nothing was left to do).",
    "order_skipped": "Why the order was skipped: the order check's refusal code when that check refused "
    "it when its phase came, else a reason only the resolution knows.",
}


def _event_serializer(cls: type[TurnEvent]) -> type[serializers.Serializer[Any]]:
    hints = typing.get_type_hints(cls)
    attrs: dict[str, Any] = {
        "phase": serializers.IntegerField(help_text="The phase of the turn it happened in, 1 to 10."),
        "kind": serializers.ChoiceField(choices=[cls.kind]),
        "text": serializers.CharField(help_text="What the nation reads."),
    }
    codes = SKIP_CODES if cls is OrderSkipped else cls.CODES
    for f in dataclasses.fields(cls):
        if f.name == "code" and codes:
            attrs["code"] = serializers.ChoiceField(choices=list(codes), help_text=_CODE_HELP.get(cls.kind, ""))
        elif f.name not in attrs:
            attrs[f.name] = _field_for(hints[f.name])
    return type(f"{cls.__name__}EventSerializer", (serializers.Serializer,), attrs)


EVENT_SERIALIZERS: dict[str, type[serializers.Serializer[Any]]] = {
    kind: _event_serializer(cls) for kind, cls in EVENT_KINDS.items()
}


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="TurnEvent",
        serializers=EVENT_SERIALIZERS,  # type: ignore[arg-type]
        resource_type_field_name="kind",
        many=True,
    )
)
class TurnEventsField(serializers.ListField):
    """A report's typed events, in phase order, as stored (``kind`` says which fields follow)."""

    def to_representation(self, data: Any) -> list[dict[str, Any]]:
        return [event.to_json() for event in data]
