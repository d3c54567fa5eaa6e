"""Serializers of what a bot needs to play from the API alone: the nations and how they stand to the
caller's, the campaign's rules as numbers, a fleet's legal moves, a list of orders checked without
storing, and the list of turns (:mod:`campaign.api.play_views`)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from campaign.models import DiplomaticOffer, Season, Turn
from rules.ruleset import QUOTA_PERIODS, SHIP_CLASSES

RELATIONS = ("war", "peace", "alliance", "self")

# --- nations -------------------------------------------------------------------------------------------


class OfferSerializer(serializers.Serializer[Any]):
    from_nation = serializers.CharField(help_text="Code of the nation that made the offer.")
    to_nation = serializers.CharField(help_text="Code of the nation it is made to.")
    kind = serializers.ChoiceField(choices=DiplomaticOffer.Kind.choices, help_text="What is offered.")
    turn = serializers.IntegerField(help_text="The turn it was made in.")


class NationSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="The nation's code, as orders and ?nation= take it.")
    name = serializers.CharField()
    player = serializers.CharField(allow_null=True, help_text="The player's display name; null: no player.")
    relation = serializers.ChoiceField(
        choices=[(r, r) for r in RELATIONS], help_text="How it stands to the caller's nation ('self' for it)."
    )
    offers = OfferSerializer(
        many=True, help_text="Pending offers of peace or alliance between it and the caller's nation."
    )
    ready = serializers.BooleanField(
        allow_null=True, help_text="Marked ready for the open turn; null where the campaign hides readiness."
    )


# --- rules ---------------------------------------------------------------------------------------------


class ShipClassRuleSerializer(serializers.Serializer[Any]):
    ship_class = serializers.ChoiceField(choices=[(c, c) for c in SHIP_CLASSES], help_text="As lay_down's class.")
    name = serializers.CharField(help_text="The class as players read it, e.g. '3rd rate (74/80)'.")
    cost = serializers.IntegerField(help_text="EP to lay one down.")
    build_turns = serializers.IntegerField(help_text="Turns it spends building.")
    ship_of_the_line = serializers.BooleanField(help_text="Counts as a ship of the line (SOL).")
    counts_for_quota = serializers.BooleanField(help_text="A 1st rate, 2nd rate or four-decker (the quota).")
    repair_damaged = serializers.IntegerField(help_text="EP to repair one when damaged.")
    repair_disabled = serializers.IntegerField(help_text="EP to repair one when disabled.")


class RaiseCostsSerializer(serializers.Serializer[Any]):
    land_unit = serializers.IntegerField(help_text="EP to raise a land unit.")
    siege_train = serializers.IntegerField(help_text="EP to raise a siege train.")


class MovementRulesSerializer(serializers.Serializer[Any]):
    max_steps = serializers.IntegerField(help_text="Steps in a move order.")
    max_steps_with_disabled = serializers.IntegerField(help_text="Steps for a fleet with a disabled ship.")
    port_ships_per_capacity = serializers.IntegerField(
        help_text="Ships a port holds per point of its capacity (its occupancy limit is capacity × this)."
    )


class QuotaRulesSerializer(serializers.Serializer[Any]):
    period = serializers.ChoiceField(
        choices=[(p, p) for p in QUOTA_PERIODS], help_text="This year's column of the quota table."
    )
    percent = serializers.IntegerField(help_text="The caller's navy's quota this year (%).")
    four_decker_limit = serializers.IntegerField(help_text="Four-deckers a nation may own, not counting captured.")
    period_starts = serializers.DictField(
        child=serializers.IntegerField(), help_text="First year of each column after 'pre1792'."
    )
    table = serializers.DictField(
        child=serializers.DictField(child=serializers.IntegerField()),
        help_text="Per navy code, per period: the largest % of its SOL that may be 1st/2nd rates or four-deckers.",
    )


class RepairRulesSerializer(serializers.Serializer[Any]):
    damaged_percent = serializers.IntegerField(help_text="A damaged ship's repair: ceil(this % of its class EP).")
    disabled_percent = serializers.IntegerField(help_text="A disabled ship's repair: ceil(this % of its class EP).")


class RulesSerializer(serializers.Serializer[Any]):
    ship_classes = ShipClassRuleSerializer(many=True)
    raise_costs = RaiseCostsSerializer()
    movement = MovementRulesSerializer()
    quota = QuotaRulesSerializer()
    repair = RepairRulesSerializer()
    settings = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="Every setting of the campaign's ruleset by key (house options included), as the rules page "
        "shows them.",
    )
    house_rules = serializers.DictField(
        child=serializers.IntegerField(), help_text="Only the settings this campaign changed from the rulebook."
    )


# --- legal moves ---------------------------------------------------------------------------------------


class LegalPathSerializer(serializers.Serializer[Any]):
    path = serializers.ListField(
        child=serializers.CharField(),
        help_text="The move order's path exactly as it takes it: zone keys, 'sea' (leave port), 'port:<key>'.",
    )
    zones = serializers.ListField(child=serializers.CharField(), help_text="The sea zones' keys it passes, in order.")
    zone = serializers.CharField(help_text="The sea zone's key where it ends.")
    port = serializers.CharField(allow_null=True, help_text="The port's key it enters at the end, or null.")
    name = serializers.CharField(help_text="Where it ends, in words.")


class FleetMovesSerializer(serializers.Serializer[Any]):
    fleet = serializers.IntegerField(help_text="The fleet's id.")
    name = serializers.CharField()
    turn = serializers.IntegerField(help_text="The open turn.")
    paths = LegalPathSerializer(many=True, help_text="Every legal path this turn, shortest first per destination.")


# --- validation ----------------------------------------------------------------------------------------


class CheckedOrderSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField(help_text="Its place in the list, from 1.")
    kind = serializers.CharField()
    description = serializers.CharField(help_text="The order in words, as the order list shows it once stored.")
    body = serializers.DictField(help_text="The body as it would be stored (defaults filled in, names cleaned).")


class OrderValidationSerializer(serializers.Serializer[Any]):
    nation = serializers.CharField()
    turn = serializers.IntegerField(help_text="The open turn the orders were checked against.")
    orders = CheckedOrderSerializer(many=True)


# --- turns ---------------------------------------------------------------------------------------------


class TurnSummarySerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    year = serializers.IntegerField()
    season = serializers.ChoiceField(choices=Season.choices)
    status = serializers.ChoiceField(choices=Turn.Status.choices)
    deadline = serializers.DateTimeField(allow_null=True, help_text="The turn's deadline (UTC), if any.")
    resolved_at = serializers.DateTimeField(allow_null=True, help_text="When it was resolved, if it has been.")
