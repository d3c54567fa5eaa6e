"""Serializers of the battle API: battle records, and the simulator's documented body and results.

The battle spec is *documented* here (CONTRACT.md "Battle spec") and *checked* by
:func:`battles.engine.parse_spec`, whose :class:`~battles.engine.SpecError` names the bad field, exactly
as ``simulate_battle`` reports it.
"""

from __future__ import annotations

from typing import Any, get_args

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from battles.api.seeds import SeedField
from battles.engine import BATTLE_TYPES
from battles.models import Battle, Engagement
from battles.simulator import MAX_BATTERIES, MAX_FORTIFICATION, MAX_RUNS, MAX_SHIPS_PER_SIDE
from rules.fireships import Condition as FireshipCondition
from rules.fireships import ConditionAfter as FireshipConditionAfter
from rules.fireships import FireshipEffect
from rules.ruleset import GRADES, NAVIES, SHIP_CLASSES


@extend_schema_field({"anyOf": [{"type": "integer", "nullable": True}, {"type": "string"}]})
class RefField(serializers.JSONField):
    """A ship's ref: its id in a campaign (a number), a spec's own ref (text), or null."""


# --- battle records ------------------------------------------------------------------------------------


class BattleSideSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(required=False, help_text="The side's name, e.g. 'British'.")
    nations = serializers.ListField(child=serializers.CharField(), help_text="Nation codes on this side.")


class BattleSummarySerializer(serializers.Serializer[Any]):
    """A battle as every part of the API gives it (the battle list, one battle, a turn report's battles):
    keys and codes for programs, each with its display name beside."""

    id = serializers.IntegerField()
    turn = serializers.IntegerField(source="turn.number", help_text="The turn it was fought in.")
    kind = serializers.ChoiceField(choices=Battle.Kind.choices)
    kind_name = serializers.CharField(source="get_kind_display", help_text="e.g. 'Fleet action'.")
    place = serializers.CharField(help_text="Port key where fought at a port, else the sea-zone key.")
    place_name = serializers.SerializerMethodField(help_text="The place's display name, e.g. 'Brest'.")
    sea_zone = serializers.CharField(source="sea_zone.key", help_text="Sea-zone key.")
    sea_zone_name = serializers.CharField(source="sea_zone.name")
    port = serializers.CharField(source="port.key", allow_null=True, help_text="Port key, if at a port.")
    port_name = serializers.CharField(source="port.name", allow_null=True)
    sides = BattleSideSerializer(many=True, help_text="Side 0 first.")
    winner = serializers.IntegerField(allow_null=True, help_text="0, 1 or null for no winner.")
    winner_name = serializers.SerializerMethodField(help_text="The winning side's name, or null for no winner.")
    seed = SeedField(allow_null=True)

    def get_place_name(self, battle: Battle) -> str:
        return battle.port.name if battle.port is not None else battle.sea_zone.name

    def get_winner_name(self, battle: Battle) -> str | None:
        sides = battle.sides if isinstance(battle.sides, list) else []
        if battle.winner is None or not 0 <= battle.winner < len(sides) or not isinstance(sides[battle.winner], dict):
            return None
        side = sides[battle.winner]
        return str(side.get("name") or "/".join(side.get("nations") or []))


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
    fortification = serializers.IntegerField(min_value=0, max_value=MAX_FORTIFICATION)
    batteries = serializers.IntegerField(min_value=0, max_value=MAX_BATTERIES, required=False)
    gibraltar = serializers.BooleanField(required=False)


class SimulatorRequestSerializer(serializers.Serializer[Any]):
    type = serializers.ChoiceField(choices=BATTLE_TYPES)
    max_rounds = serializers.IntegerField(required=False, min_value=1, max_value=50, help_text="Default 6.")
    sides = serializers.ListField(
        child=SideSpecSerializer(), min_length=2, max_length=2, help_text="Exactly two; side 0 attacks."
    )
    port = PortSpecSerializer(required=False, allow_null=True, help_text="Running the guns only.")
    seed = SeedField(
        required=False,
        min_value=0,
        max_value=2**63 - 1,
        help_text="Seed for the dice (default: random): a string of digits, or a number below 2^53.",
    )
    dice = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=10),
        required=False,
        min_length=1,
        max_length=10_000,
        help_text="Hand-rolled faces to replay, in order (not with seed or runs).",
    )
    runs = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_RUNS, help_text="Fight this many times and return the odds."
    )


# --- the simulator's results and the stored reports ----------------------------------------------------

FATES = ["intact", "damaged", "disabled", "sunk", "captured"]
PURPOSES = [
    "initiative", "fire", "admiral", "boarding", "explosion", "explosion_fire", "integrity", "towing",
    "barrage_fort", "barrage_battery", "barrage_ship", "hot_shot",
]  # fmt: skip


class ShipFateSerializer(serializers.Serializer[Any]):
    side = serializers.IntegerField()
    name = serializers.CharField()
    fate = serializers.ChoiceField(choices=FATES)
    exploded = serializers.BooleanField()
    captured_by = serializers.IntegerField(allow_null=True)
    ref = RefField(help_text="The ship's id in a campaign (or the spec's ref).")
    navy = serializers.CharField(help_text="The ship's own navy in the battle.")
    crew = serializers.CharField(help_text="The ship's crew grade in the battle.")


ShipFateSerializer._declared_fields["class"] = serializers.ChoiceField(choices=SHIP_CLASSES)


class DieSerializer(serializers.Serializer[Any]):
    n = serializers.IntegerField()
    round = serializers.IntegerField()
    side = serializers.IntegerField(help_text="The side rolling.")
    die = serializers.ChoiceField(choices=["d6", "d10"])
    purpose = serializers.CharField(
        help_text="initiative | fire | admiral | boarding | explosion | explosion_fire | integrity | towing | "
        "barrage_fort | barrage_battery | barrage_ship | hot_shot"
    )
    raw = serializers.IntegerField()
    mod = serializers.IntegerField()
    result = serializers.IntegerField()
    ship = serializers.CharField(allow_null=True)
    target = serializers.CharField(allow_null=True)
    effect = serializers.CharField(required=False, allow_null=True, help_text="What the die did, for people.")
    day = serializers.IntegerField(required=False, help_text="Engagements: the day it was rolled.")


class ReportAdmiralSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    grade = serializers.ChoiceField(choices=GRADES)


class ReportSideSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    navy = serializers.CharField()
    admiral = ReportAdmiralSerializer(allow_null=True)
    ships = serializers.IntegerField(help_text="Ships the side brought.")
    lost = serializers.IntegerField(help_text="Ships it lost.")
    L = serializers.CharField(help_text="Its loss ratio as a fraction, e.g. '1/3'.")


class RoundLinesSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    initiative = serializers.IntegerField(allow_null=True)
    barrage = serializers.IntegerField(allow_null=True)
    lines = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    reserves = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))


class MoraleCheckSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    side = serializers.IntegerField()
    L = serializers.CharField()
    penalty = serializers.IntegerField()
    raw = serializers.IntegerField()
    mod = serializers.IntegerField()
    total = serializers.IntegerField()
    result = serializers.CharField()


class ReportEventSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    kind = serializers.CharField(help_text="taken | captured | abandoned | kept | broke_off | stays")
    side = serializers.IntegerField()
    ship = serializers.CharField(allow_null=True)
    by = serializers.IntegerField(allow_null=True)


class ContactSerializer(serializers.Serializer[Any]):
    """The contact roll of a besieged-port engagement (rules §4): the fleet at sea sighting the ships in
    port, catching them at anchor, intercepting."""

    sighted = serializers.BooleanField()
    at_anchor = serializers.BooleanField(help_text="Caught at anchor (a modified 6+).")
    needed = serializers.IntegerField(help_text="What the sighting total had to reach.")
    modifiers = serializers.ListField(
        child=serializers.ListField(child=serializers.JSONField()), help_text="Each modifier applied: [name, value]."
    )
    intercepted = serializers.BooleanField()
    dice = serializers.ListField(child=serializers.DictField(), help_text="The sighting and intercept dice.")


def engagement_kind_field() -> serializers.ChoiceField:
    return serializers.ChoiceField(
        choices=Engagement.Kind.choices, required=False, help_text="Fleet actions of a turn: how the fleets met."
    )


def contact_field() -> ContactSerializer:
    return ContactSerializer(
        required=False, allow_null=True, help_text="Fleet actions of a turn: the besieged port's contact roll, if any."
    )


class BattleReportSerializer(serializers.Serializer[Any]):
    """A battle report (one fight): the published keys first, then the engine's extra keys."""

    type = serializers.ChoiceField(choices=BATTLE_TYPES)
    seed = SeedField(allow_null=True, help_text="null when the dice were given.")
    rounds = serializers.IntegerField(help_text="Rounds fought.")
    winner = serializers.IntegerField(allow_null=True)
    outcome = serializers.ListField(
        child=serializers.ChoiceField(choices=["held", "retired", "broke", "beaten", "evaded"])
    )
    barrage = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="Running the guns: dice due per round."
    )
    ships = ShipFateSerializer(many=True)
    dice = DieSerializer(many=True, help_text="Every die, in canonical order (rules §5).")
    sides = ReportSideSerializer(many=True)
    first = serializers.IntegerField(allow_null=True, help_text="The side that fired first in round 1.")
    max_rounds = serializers.IntegerField()
    coastal_forts = serializers.IntegerField(required=False)
    round_lines = RoundLinesSerializer(many=True)
    checks = MoraleCheckSerializer(many=True)
    events = ReportEventSerializer(many=True)
    # Where a campaign's turn fought it: how the fleets met, or the port action's place in the turn's dice.
    engagement = engagement_kind_field()
    contact = contact_field()
    dice_offset = serializers.IntegerField(
        required=False, help_text="Port actions: where this battle's dice start in the turn's seeded stream."
    )


class GaugeSerializer(serializers.Serializer[Any]):
    winner = serializers.IntegerField(allow_null=True)
    dice = serializers.ListField(child=serializers.DictField(), help_text="The gauge's dice.")


class EngagementDaySerializer(serializers.Serializer[Any]):
    day = serializers.IntegerField()
    gauge = GaugeSerializer()
    report = BattleReportSerializer()


class PursuitSerializer(serializers.Serializer[Any]):
    after_day = serializers.IntegerField()
    decisions = serializers.ListField(child=serializers.CharField())
    pursuer = serializers.IntegerField(allow_null=True)
    sighted = serializers.BooleanField(allow_null=True)
    intercepted = serializers.BooleanField(allow_null=True)
    dice = serializers.ListField(child=serializers.DictField())


class EngagementReportSerializer(serializers.Serializer[Any]):
    """A fleet action fought over several days: each day's report, the pursuits between."""

    type = serializers.ChoiceField(choices=["engagement"])
    seed = SeedField(allow_null=True)
    days = EngagementDaySerializer(many=True)
    pursuits = PursuitSerializer(many=True)
    winner = serializers.IntegerField(allow_null=True)
    outcome = serializers.ListField(child=serializers.CharField())
    ships = ShipFateSerializer(many=True)
    dice = DieSerializer(many=True)
    engagement = engagement_kind_field()
    contact = contact_field()


def _labelled(values: tuple[str, ...]) -> list[tuple[str, str]]:
    return [(v, v.capitalize()) for v in values]


class StrategicDieSerializer(serializers.Serializer[Any]):
    """One die of the turn's strategic dice log, as stored (the same record as the turn's log)."""

    purpose = serializers.CharField(help_text="fireship_fort | fireship | wind_initial | wind_speed | setup | …")
    place = serializers.CharField(help_text="The sea-zone or port key it was rolled for.")
    die = serializers.ChoiceField(choices=["d6", "d10"])
    raw = serializers.IntegerField(help_text="The face shown.")
    mod = serializers.IntegerField(help_text="The sum of the modifiers applied.")
    result = serializers.IntegerField(help_text="The value the rule acted on.")
    subject = serializers.CharField(allow_null=True, help_text="What it was rolled for, by id: 'fireship:3>ship:12'.")
    detail = serializers.CharField(allow_null=True, help_text="A short note for people.")


class FireshipAttackSerializer(serializers.Serializer[Any]):
    fireship = serializers.CharField(help_text="The fireship's name.")
    fireship_ref = serializers.IntegerField(help_text="The fireship's id in the campaign.")
    target = serializers.CharField(help_text="The ship it attacked, by name.")
    target_ref = serializers.IntegerField(help_text="The target's id in the campaign.")
    fort_die = StrategicDieSerializer(allow_null=True, help_text="The port's die at it; null if no gun fired at it.")
    attack_die = StrategicDieSerializer(allow_null=True, help_text="Its attack die; null if the guns stopped it.")
    effect = serializers.ChoiceField(choices=[e.value for e in FireshipEffect])
    # Labelled, so that these sets are named after their fields rather than merged with other enums.
    before = serializers.ChoiceField(choices=_labelled(get_args(FireshipCondition)), help_text="The target's, before.")
    after = serializers.ChoiceField(choices=_labelled(get_args(FireshipConditionAfter)), help_text="And after.")


class FireshipReportSerializer(serializers.Serializer[Any]):
    """A fireship attack on the ships in a port (rules §9): each fireship's attack and its dice."""

    # Labelled: the order kind "fireships" is the same value, a different enum.
    type = serializers.ChoiceField(choices=[(Battle.Kind.FIRESHIPS.value, Battle.Kind.FIRESHIPS.label)])
    seed = SeedField(help_text="The seed of the port's dice this turn.")
    dice_offset = serializers.IntegerField(help_text="Where these dice start in the port's seeded stream this turn.")
    attacks = FireshipAttackSerializer(many=True, help_text="In order: fireship k at the k-th enemy ship, cycling.")
    expended = serializers.ListField(child=serializers.CharField(), help_text="The fireships sent (all spent).")
    unused = serializers.ListField(child=serializers.CharField(), help_text="Those kept back: no target left afloat.")


class TabletopShipSerializer(serializers.Serializer[Any]):
    side = serializers.IntegerField()
    name = serializers.CharField()
    ref = serializers.IntegerField(help_text="The ship's id in the campaign.")
    crew = serializers.CharField(help_text="The ship's crew grade in the battle.")
    fate = serializers.ChoiceField(choices=FATES)
    exploded = serializers.BooleanField(help_text="Always false: the table's result does not say.")
    captured_by = serializers.IntegerField(allow_null=True, help_text="The side that took it, if captured.")
    in_line = serializers.BooleanField(
        required=False,
        help_text="Whether it fought in the line (a frigate beside ships of the line did not); "
        "absent in reports stored before it was kept: the rules' line (ships of the line and 4th rates; "
        "smaller ships only when a side has nothing bigger).",
    )


TabletopShipSerializer._declared_fields["class"] = serializers.ChoiceField(choices=SHIP_CLASSES)


class TabletopEntrySerializer(serializers.Serializer[Any]):
    entered_by = serializers.CharField(allow_blank=True, help_text="The user name of whoever entered the result.")
    note = serializers.CharField(allow_blank=True)
    history = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="What happened to the result, in order: {at, act (entered, confirmed, disputed, gm_entered, "
        "approved, automatic), side (0, 1; null: the GM), who, by}. Absent in reports stored before it was kept.",
    )


class TabletopReportSerializer(serializers.Serializer[Any]):
    """A fleet action fought on the table: the result entered, confirmed and approved, and the dice the
    server rolled for the group's pack."""

    type = serializers.ChoiceField(choices=["tabletop"])
    seed = SeedField(allow_null=True, help_text="Always null: no server dice fought it.")
    rounds = serializers.IntegerField(help_text="Always 0: the table's rounds are not recorded.")
    winner = serializers.IntegerField(allow_null=True, help_text="The side that held the field; null: neither.")
    outcome = serializers.ListField(
        child=serializers.ChoiceField(choices=["held", "retired", "broke", "beaten", "evaded"]),
        help_text="Each side's: held, retired or beaten.",
    )
    engagement = serializers.ChoiceField(choices=Engagement.Kind.choices, help_text="How the fleets met.")
    contact = ContactSerializer(allow_null=True, help_text="The besieged port's contact roll, if any.")
    ships = TabletopShipSerializer(many=True, help_text="Every ship of both sides, side 0 first, line first.")
    dice = StrategicDieSerializer(many=True, help_text="The pack's dice the server rolled, if the group asked.")
    tabletop = TabletopEntrySerializer()


#: The stored report by its ``type``: one fight of the engine, an engagement of several days, a fireship
#: attack or a battle fought on the table.
STORED_REPORT = PolymorphicProxySerializer(
    component_name="StoredBattleReport",
    serializers={
        **dict.fromkeys(BATTLE_TYPES, BattleReportSerializer),
        "engagement": EngagementReportSerializer,
        "fireships": FireshipReportSerializer,
        "tabletop": TabletopReportSerializer,
    },
    resource_type_field_name="type",
)


@extend_schema_field(STORED_REPORT)
class StoredReportField(serializers.JSONField):
    """The stored report as written: one fight, an engagement of several days, a fireship attack, or a
    battle fought on the table."""


class BattleDetailSerializer(BattleSummarySerializer):
    report = StoredReportField(help_text="The engine's stored report, full dice log.")


class LossesSerializer(serializers.Serializer[Any]):
    intact = serializers.FloatField()
    damaged = serializers.FloatField()
    disabled = serializers.FloatField()
    sunk = serializers.FloatField()
    captured = serializers.FloatField()


class OddsSerializer(serializers.Serializer[Any]):
    runs = serializers.IntegerField()
    seed = SeedField()
    win = serializers.ListField(child=serializers.FloatField(), help_text="Fraction of runs each side won.")
    draw = serializers.FloatField(help_text="Fraction of runs with no winner.")
    mean_losses = LossesSerializer(many=True, help_text="Per side, the mean number of ships ending in each fate.")


SIMULATOR_RESULT = PolymorphicProxySerializer(
    component_name="SimulatorResult",
    serializers=[BattleReportSerializer, OddsSerializer],
    resource_type_field_name=None,
)
