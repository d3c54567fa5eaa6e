"""Serializers of the battle API: battle records, and the simulator's documented body and results.

The battle spec is *documented* here (CONTRACT.md "Battle spec") and *checked* by
:func:`battles.engine.parse_spec`, whose :class:`~battles.engine.SpecError` names the bad field, exactly
as ``simulate_battle`` reports it.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from battles.engine import BATTLE_TYPES
from battles.simulator import MAX_RUNS, MAX_SHIPS_PER_SIDE
from rules.ruleset import GRADES, NAVIES, SHIP_CLASSES


class SpecErrorSerializer(serializers.Serializer[Any]):
    field = serializers.CharField(help_text="Path of the offending field, e.g. 'sides[1].ships[0].class'.")
    detail = serializers.CharField(help_text="What is wrong with it.")


# --- battle records ------------------------------------------------------------------------------------


class BattleSideSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(required=False)
    nations = serializers.ListField(child=serializers.CharField(), help_text="Nation codes on this side.")


class BattleSummarySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    turn = serializers.IntegerField(source="turn.number", help_text="The turn it was fought in.")
    kind = serializers.CharField(help_text="fleet_action | running_the_guns | garrison_guns | fireships …")
    place = serializers.CharField(help_text="Zone or port key.")
    sea_zone = serializers.CharField(source="sea_zone.key")
    port = serializers.CharField(source="port.key", allow_null=True)
    sides = BattleSideSerializer(many=True, help_text="Side 0 first.")
    winner = serializers.IntegerField(allow_null=True, help_text="0, 1 or null for no winner.")
    seed = serializers.IntegerField(allow_null=True)


class BattleDetailSerializer(BattleSummarySerializer):
    report = serializers.DictField(
        help_text="The engine's stored report (CONTRACT.md 'Battle report', full dice log); a fleet action "
        'fought over several days is an engagement report ("type": "engagement") with its "days".'
    )


class BattlePageSerializer(serializers.Serializer[Any]):
    count = serializers.IntegerField(help_text="Battles the caller may see.")
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = BattleSummarySerializer(many=True)


# --- the simulator's body ------------------------------------------------------------------------------


class AdmiralSpecSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    grade = serializers.ChoiceField(choices=GRADES)


class ShipSpecSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(min_length=1, help_text="Unique within the battle; not blank.")
    # "class" is a Python keyword: declared below.
    crew = serializers.ChoiceField(choices=GRADES, required=False, help_text="Default: the side's crew.")
    condition = serializers.ChoiceField(
        choices=["ready", "damaged", "disabled"],
        required=False,
        help_text="Default ready; disabled only for the port's ships when running the guns.",
    )
    navy = serializers.ChoiceField(choices=NAVIES, required=False, help_text="An allied ship's navy.")


ShipSpecSerializer._declared_fields["class"] = serializers.ChoiceField(choices=SHIP_CLASSES)


class SideSpecSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(required=False)
    navy = serializers.ChoiceField(choices=NAVIES)
    admiral = AdmiralSpecSerializer(required=False, allow_null=True)
    crew = serializers.ChoiceField(choices=GRADES, required=False, help_text="Default D.")
    in_supply = serializers.BooleanField(required=False, default=True)
    weather_gauge = serializers.BooleanField(required=False, default=False)
    at_anchor = serializers.BooleanField(required=False, default=False)
    ships = serializers.ListField(child=ShipSpecSerializer(), max_length=MAX_SHIPS_PER_SIDE)


class PortSpecSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(required=False)
    fortification = serializers.IntegerField(min_value=0)
    batteries = serializers.IntegerField(min_value=0, required=False)
    gibraltar = serializers.BooleanField(required=False)


class SimulatorRequestSerializer(serializers.Serializer[Any]):
    type = serializers.ChoiceField(choices=BATTLE_TYPES)
    max_rounds = serializers.IntegerField(required=False, min_value=1, max_value=50, help_text="Default 6.")
    sides = serializers.ListField(
        child=SideSpecSerializer(), min_length=2, max_length=2, help_text="Exactly two; side 0 attacks."
    )
    port = PortSpecSerializer(required=False, allow_null=True, help_text="Running the guns only.")
    seed = serializers.IntegerField(
        required=False, min_value=0, max_value=2**63 - 1, help_text="Seed for the dice (default: random)."
    )
    dice = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=10),
        required=False,
        min_length=1,
        help_text="Hand-rolled faces to replay, in order (not with seed or runs).",
    )
    runs = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_RUNS, help_text="Fight this many times and return the odds."
    )


# --- the simulator's results ---------------------------------------------------------------------------


class ShipFateSerializer(serializers.Serializer[Any]):
    side = serializers.IntegerField()
    name = serializers.CharField()
    fate = serializers.ChoiceField(choices=["intact", "damaged", "disabled", "sunk", "captured"])
    exploded = serializers.BooleanField()
    captured_by = serializers.IntegerField(allow_null=True)


class DieSerializer(serializers.Serializer[Any]):
    n = serializers.IntegerField()
    round = serializers.IntegerField()
    side = serializers.IntegerField(help_text="The side rolling.")
    die = serializers.ChoiceField(choices=["d6", "d10"])
    purpose = serializers.CharField()
    raw = serializers.IntegerField()
    mod = serializers.IntegerField()
    result = serializers.IntegerField()
    ship = serializers.CharField(allow_null=True)
    target = serializers.CharField(allow_null=True)


class BattleReportSerializer(serializers.Serializer[Any]):
    type = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True, help_text="null when the dice were given.")
    rounds = serializers.IntegerField(help_text="Rounds fought.")
    winner = serializers.IntegerField(allow_null=True)
    outcome = serializers.ListField(child=serializers.CharField(), help_text="held | retired | broke | beaten")
    barrage = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="Running the guns: dice due per round."
    )
    ships = ShipFateSerializer(many=True)
    dice = DieSerializer(many=True, help_text="Every die, in canonical order (rules §5).")


class OddsSerializer(serializers.Serializer[Any]):
    runs = serializers.IntegerField()
    seed = serializers.IntegerField()
    win = serializers.ListField(child=serializers.FloatField(), help_text="Fraction of runs each side won.")
    draw = serializers.FloatField(help_text="Fraction of runs with no winner.")
    mean_losses = serializers.ListField(
        child=serializers.DictField(child=serializers.FloatField()),
        help_text="Per side, the mean number of ships ending in each fate.",
    )


SIMULATOR_RESULT = PolymorphicProxySerializer(
    component_name="SimulatorResult",
    serializers=[BattleReportSerializer, OddsSerializer],
    resource_type_field_name=None,
)
