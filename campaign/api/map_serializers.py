"""The API's map bodies: a sea zone and a port, each named by the key orders take, display name beside."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from ports.models import ZoneType


class ZoneSerializer(serializers.Serializer[Any]):
    key = serializers.CharField(help_text="What orders take, e.g. in a move's path.")
    name = serializers.CharField(help_text="Display name.")
    type = serializers.ChoiceField(choices=ZoneType.choices, help_text="Sets the d6 needed to sight.")
    type_name = serializers.SerializerMethodField(help_text="The type's display name.")
    x = serializers.IntegerField(help_text="Map x in the 1000×700 map.")
    y = serializers.IntegerField(help_text="Map y in the 1000×700 map.")
    adjacent = serializers.ListField(child=serializers.CharField(), help_text="Keys of the zones it touches.")
    ports = serializers.ListField(child=serializers.CharField(), help_text="Keys of the ports in this zone.")

    def get_type_name(self, zone: Any) -> str:
        return str(ZoneType(zone.type).label)


class PortSerializer(serializers.Serializer[Any]):
    key = serializers.CharField(source="port.key", help_text="What orders take (lay down, enter port…).")
    name = serializers.CharField(source="port.name", help_text="Display name.")
    zone = serializers.CharField(source="port.sea_zone.key", help_text="Key of the sea zone the port lies in.")
    zone_name = serializers.CharField(source="port.sea_zone.name")
    x = serializers.IntegerField(source="port.x")
    y = serializers.IntegerField(source="port.y")
    owner = serializers.CharField(source="row.owner_code", help_text="Nation code of the owner, as all nations see it.")
    owner_name = serializers.CharField(source="row.owner_name")
    fortification = serializers.IntegerField(source="row.fortification", help_text="Fortification factor (FF).")
    capacity = serializers.IntegerField(source="row.capacity", help_text="Holds capacity × 10 ships.")
    ep_value = serializers.IntegerField(source="row.ep_value", help_text="EP of income per turn.")
    dockyard = serializers.BooleanField(source="row.dockyard", help_text="Ships can be laid down here.")
    can_build = serializers.BooleanField(
        source="row.can_build", help_text="A dockyard neither besieged nor taken lately: its owner may lay down now."
    )
    pays = serializers.BooleanField(source="row.pays", help_text="Counts for its owner's income this turn.")
    siege_turns = serializers.IntegerField(source="row.siege_turns", help_text="Consecutive turns besieged.")
    besiegers = serializers.ListField(child=serializers.CharField(), source="row.besiegers")
    blockaders = serializers.ListField(child=serializers.CharField(), source="row.blockaders")
    taken_turn = serializers.IntegerField(source="row.taken_turn", allow_null=True, help_text="Turn last taken.")
