"""Serializers of the campaign API: output shapes, and the documented request bodies.

Order bodies are *documented* here (one schema per ``kind``, README "Orders JSON") but *checked* by
:mod:`campaign.orders.validator`, the one validator the web forms and ``submit_orders`` share: a body the
schema allows can still be refused for what it refers to (a fleet of another nation, a port not
adjacent…), and that refusal names the order and the reason.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from battles.api.serializers import BattleSummarySerializer
from campaign.api.event_serializers import TurnEventsField
from campaign.models import Campaign, LedgerEntry, Order, Season
from rules.ruleset import GRADES, SHIP_CLASSES

# --- campaigns -----------------------------------------------------------------------------------------


class CampaignSummarySerializer(serializers.Serializer[Any]):
    slug = serializers.CharField()
    name = serializers.CharField()
    year = serializers.IntegerField()
    season = serializers.ChoiceField(choices=Season.choices)
    turn = serializers.IntegerField(help_text="The current turn's number.")
    status = serializers.ChoiceField(choices=Campaign.Status.choices)
    deadline = serializers.DateTimeField(allow_null=True, help_text="Deadline of the open turn (UTC), if any.")
    nation = serializers.CharField(allow_null=True, help_text="Code of the nation the caller commands, if any.")
    gm = serializers.BooleanField(help_text="The caller runs this campaign (its owner GM, a co-GM, or a superuser).")
    ready = serializers.BooleanField(help_text="The caller's nation is marked ready for the open turn.")


class TurnStateSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    status = serializers.CharField(help_text="open | resolving | resolved")
    season = serializers.ChoiceField(choices=Season.choices)
    season_name = serializers.CharField(source="season_label", help_text="The season in words, e.g. 'High Summer'.")
    year = serializers.IntegerField()
    deadline = serializers.DateTimeField(allow_null=True)


class ProjectionSerializer(serializers.Serializer[Any]):
    base = serializers.IntegerField(help_text="Base income (EP).")
    ports = serializers.IntegerField(help_text="Income of the paying ports (EP).")
    income = serializers.IntegerField(help_text="Next phase 9 income (EP).")
    upkeep = serializers.IntegerField(help_text="Next phase 9 upkeep (EP).")
    upkeep_unpaid = serializers.IntegerField(help_text="Upkeep the treasury could not pay.")
    treasury_after = serializers.IntegerField(help_text="Treasury after phase 9 if nothing changes.")


class DockyardSerializer(serializers.Serializer[Any]):
    key = serializers.CharField(help_text="Port key, as a lay_down order's port.")
    name = serializers.CharField()


class QuotaSerializer(serializers.Serializer[Any]):
    period = serializers.CharField(help_text="The quota period of the current year (rules §1).")
    percent = serializers.IntegerField(help_text="The nation's quota percentage for the period.")
    within = serializers.BooleanField(help_text="The navy is within its quota, counting this turn's lay-downs.")
    ships_of_the_line = serializers.IntegerField(source="counts.sol")
    big_ships = serializers.IntegerField(source="counts.big", help_text="1st/2nd rates and four-deckers.")
    four_deckers = serializers.IntegerField(source="counts.four_deckers")
    big_allowed_now = serializers.IntegerField(help_text="More 1st/2nd rates the quota allows now.")
    four_decker_limit = serializers.IntegerField()
    pending_keels = serializers.IntegerField(help_text="Lay-down orders listed this turn.")
    dockyards = DockyardSerializer(
        many=True,
        source="dockyard_ports",
        help_text="Own ports free to build in: the key a lay-down takes, and the name.",
    )


class NationViewSerializer(serializers.Serializer[Any]):
    campaign = serializers.CharField(source="viewer.campaign.slug")
    nation = serializers.CharField(source="viewer.nation.code")
    nation_name = serializers.CharField(source="viewer.nation.name")
    gm = serializers.BooleanField(source="viewer.is_gm", help_text="The caller looks as the campaign's GM.")
    turn = TurnStateSerializer(allow_null=True, source="viewer.turn")
    deadline = serializers.DateTimeField(allow_null=True)
    ready = serializers.BooleanField(source="viewer.ready")
    treasury = serializers.IntegerField(help_text="EP in the treasury.")
    committed_ep = serializers.IntegerField(help_text="EP committed by this turn's lay-down and raise orders.")
    available_ep = serializers.IntegerField(help_text="Treasury less committed EP.")
    projection = ProjectionSerializer()
    quota = QuotaSerializer()


class AdmiralSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    grade = serializers.ChoiceField(choices=GRADES)


class ShipSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    ship_class = serializers.ChoiceField(choices=SHIP_CLASSES, help_text="Ship class.")
    nation = serializers.CharField(source="nation.code")
    original_nation = serializers.CharField(source="original_nation.code", help_text="Differs when captured.")
    condition = serializers.CharField(help_text="ready | damaged | disabled")
    crew = serializers.ChoiceField(choices=GRADES)
    in_ordinary = serializers.BooleanField()


class FleetSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    nation = serializers.CharField(source="nation.code")
    own = serializers.BooleanField(help_text="The viewer's own fleet (otherwise an ally's).")
    sea_zone = serializers.CharField(source="sea_zone.key")
    port = serializers.CharField(source="port.key", allow_null=True, help_text="Port key, or null at sea.")
    admiral = AdmiralSerializer(allow_null=True)
    posture = serializers.CharField(help_text="seek | avoid | blockade")
    blockade_port = serializers.CharField(source="blockade_port.key", allow_null=True)
    in_supply = serializers.BooleanField()
    ships = ShipSerializer(many=True, help_text="Ships afloat, in line order (flagship first).")


class LedgerEntrySerializer(serializers.ModelSerializer[LedgerEntry]):
    class Meta:
        model = LedgerEntry
        fields = ["id", "turn", "kind", "amount", "reason", "balance", "unpaid", "created_at"]


def _turn_named() -> serializers.IntegerField:
    """The optional ``turn`` of a write's body (issue 26)."""
    return serializers.IntegerField(
        required=False,
        min_value=1,
        help_text="The turn this write is for (the turn you read): refused with 409 turn_closed, nothing stored, "
        "when it is no longer the open turn. Not stored with the order.",
    )


class ReadySerializer(serializers.Serializer[Any]):
    ready = serializers.BooleanField(help_text="true: the nation is ready; the turn may resolve before the deadline.")
    turn = _turn_named()


class ReadyStateSerializer(serializers.Serializer[Any]):
    nation = serializers.CharField()
    turn = serializers.IntegerField()
    ready = serializers.BooleanField()


_READY_CLEARED = (
    "true: a change of orders after the nation was marked ready cleared it (unless the campaign's house "
    "option orders.keep_ready keeps it); mark ready again when the orders are done."
)


# --- turn reports --------------------------------------------------------------------------------------


class TurnBattleSerializer(BattleSummarySerializer):
    """A battle of the turn, as the battle endpoints give it, and whether the nation fought in it."""

    fought = serializers.BooleanField(help_text="The viewer's nation fought in it (otherwise an ally, or seen).")


class TurnReportSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    season = serializers.ChoiceField(choices=Season.choices)
    season_name = serializers.CharField(help_text="The season in words, e.g. 'High Summer'.")
    year = serializers.IntegerField()
    nation = serializers.CharField(source="viewer.nation.code")
    events = TurnEventsField(
        help_text="The nation's report: its events in phase order (fog of war applied), each with its "
        "``kind``, ``phase`` and ``text`` and the fields of its kind.",
    )
    battles = TurnBattleSerializer(many=True)
    previous = serializers.IntegerField(allow_null=True, help_text="The resolved turn before, if any.")
    next = serializers.IntegerField(allow_null=True, help_text="The resolved turn after, if any.")


# --- orders --------------------------------------------------------------------------------------------


def _fleet() -> serializers.IntegerField:
    return serializers.IntegerField(help_text="Fleet id.")


def _ship() -> serializers.IntegerField:
    return serializers.IntegerField(help_text="Ship id.")


def _ids(what: str) -> serializers.ListField:
    return serializers.ListField(child=serializers.IntegerField(), min_length=1, help_text=f"{what} ids.")


def _port(**kwargs: Any) -> serializers.CharField:
    return serializers.CharField(help_text="Port key.", **kwargs)


def _name() -> serializers.CharField:
    return serializers.CharField(min_length=1, max_length=80)


_NATION = {"nation": lambda: serializers.CharField(help_text="Nation code.")}
ORDER_FIELDS: dict[str, dict[str, Any]] = {
    "move": {
        "fleet": _fleet,
        "path": lambda: serializers.ListField(
            child=serializers.CharField(),
            min_length=1,
            help_text='Steps: sea-zone keys, "port:<key>" or "sea".',
        ),
    },
    "posture": {
        "fleet": _fleet,
        "posture": lambda: serializers.ChoiceField(choices=["seek", "avoid", "blockade"]),
        "port": lambda: _port(required=False, allow_null=True),
    },
    "battle_orders": {
        "fleet": _fleet,
        "after_battle": lambda: serializers.ChoiceField(choices=["auto", "continue", "evade"]),
        "retreat_port": lambda: _port(required=False, allow_null=True),
        "retreat_zone": lambda: serializers.CharField(required=False, allow_null=True, help_text="Sea-zone key."),
    },
    "line_order": {"fleet": _fleet, "ships": lambda: _ids("Ship")},
    "run_guns": {"fleet": _fleet, "port": _port},
    "sally": {"fleet": _fleet},
    "fireships": {"fleet": _fleet, "port": _port},
    "lay_down": {"class": lambda: serializers.ChoiceField(choices=SHIP_CLASSES), "name": _name, "port": _port},
    "raise": {"unit": lambda: serializers.ChoiceField(choices=["land_unit", "siege_train"]), "port": _port},
    "repair": {"ship": _ship, "on": lambda: serializers.BooleanField(required=False, default=True)},
    "lay_up": {"ship": _ship},
    "recommission": {"ship": _ship},
    "transfer": {"ships": lambda: _ids("Ship"), "to_fleet": _fleet},
    "form_fleet": {"ships": lambda: _ids("Ship"), "name": _name},
    "merge": {"fleet": _fleet, "into": _fleet},
    "appoint": {"admiral": lambda: serializers.CharField(help_text="Admiral's name."), "fleet": _fleet},
    "embark": {"fleet": _fleet, "port": _port, "units": lambda: serializers.IntegerField(min_value=1)},
    "land": {"fleet": _fleet, "port": _port, "units": lambda: serializers.IntegerField(min_value=1)},
    "declare_war": _NATION,
    "offer_peace": _NATION,
    "propose_alliance": _NATION,
    "leave_alliance": _NATION,
}
assert set(ORDER_FIELDS) == set(Order.Kind.values), "every order kind is documented"


def _body_serializer(kind: str, fields: dict[str, Any]) -> type[serializers.Serializer[Any]]:
    attrs: dict[str, Any] = {"kind": serializers.ChoiceField(choices=[kind])}
    attrs.update({name: make() for name, make in fields.items()})
    attrs["turn"] = _turn_named()
    attrs["late_reason"] = serializers.CharField(
        required=False,
        max_length=300,
        help_text="After the deadline, in the 'GM is asked' policy, a GM entering a missing nation's orders says "
        "why (required then: without it a 400 late_reason_required). Stored with the order as its late "
        "mark, shown in the nation's report. Anyone else after the deadline: 409 deadline_passed.",
    )
    title = "".join(part.title() for part in kind.split("_"))
    return type(f"{title}OrderSerializer", (serializers.Serializer,), attrs)


ORDER_BODY_SERIALIZERS: dict[str, serializers.Serializer[Any] | type[serializers.Serializer[Any]]] = {
    kind: _body_serializer(kind, fields) for kind, fields in ORDER_FIELDS.items()
}


def order_body_schema(*, many: bool = False) -> PolymorphicProxySerializer:
    """An order body (README "Orders JSON"), one schema per ``kind``."""
    return PolymorphicProxySerializer(
        component_name="OrderBody",
        serializers=ORDER_BODY_SERIALIZERS,
        resource_type_field_name="kind",
        many=many,
    )


@extend_schema_field(order_body_schema())
class OrderBodyField(serializers.DictField):
    """An order's stored body: one of the order kinds' bodies (README "Orders JSON")."""


class OrderSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    position = serializers.IntegerField(help_text="Place in the nation's list (rules §3), from 1.")
    kind = serializers.ChoiceField(choices=Order.Kind.choices)
    description = serializers.CharField(help_text="One readable line, e.g. \"Order 2 (move, fleet 'X'): a → b\".")
    body = OrderBodyField(help_text="The order body as stored (README 'Orders JSON').")
    late_by = serializers.CharField(
        help_text="The GM who entered this order after the deadline ('GM is asked' policy); empty when on time."
    )
    late_reason = serializers.CharField(help_text="Why the GM entered it after the deadline; empty when on time.")


class OrderWrittenSerializer(OrderSerializer):
    """An order as a write answers it, with the nation's ready mark after the write."""

    ready = serializers.BooleanField(help_text="The nation is marked ready after this write.")
    ready_cleared = serializers.BooleanField(help_text=_READY_CLEARED)


class OrderReorderSerializer(serializers.Serializer[Any]):
    order = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Every order id of the open turn's list, each once, in the new listed order (the order of "
        "resolution within a phase).",
    )


class OrderListSerializer(serializers.Serializer[Any]):
    nation = serializers.CharField()
    turn = serializers.IntegerField(allow_null=True, help_text="The open turn, or null when orders are closed.")
    open = serializers.BooleanField(help_text="Orders may be changed now.")
    orders = OrderSerializer(many=True)
    ready = serializers.BooleanField(help_text="The nation is marked ready for the turn.")
    ready_cleared = serializers.BooleanField(help_text=_READY_CLEARED)
