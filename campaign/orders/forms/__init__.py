"""Django forms for every order kind (README "Orders JSON"): each produces the JSON body that
:func:`~campaign.orders.services.order_add` / ``order_update`` validate, with its choices narrowed to
what is legal now (:class:`~campaign.orders.choices.OrderChoices`). One module per group of the order
page; :data:`ORDER_FORMS` is the table of every kind's form.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaign.models import Order
from campaign.orders.choices import OrderChoices
from campaign.orders.forms.armies import EmbarkForm, LandForm
from campaign.orders.forms.base import OrderForm
from campaign.orders.forms.building_and_ships import LayDownForm, LayUpForm, RaiseForm, RecommissionForm, RepairForm
from campaign.orders.forms.diplomacy import DeclareWarForm, LeaveAllianceForm, OfferPeaceForm, ProposeAllianceForm
from campaign.orders.forms.fleets_and_admirals import AppointForm, FormFleetForm, MergeForm, TransferForm
from campaign.orders.forms.fleets_at_sea import (
    BattleOrdersForm,
    FireshipsForm,
    LineOrderForm,
    MoveForm,
    PostureForm,
    RunGunsForm,
    SallyForm,
)
from campaign.orders.schema import DIPLOMACY_KINDS

ORDER_FORMS: dict[str, type[OrderForm]] = {
    form.kind: form
    for form in (
        MoveForm,
        PostureForm,
        BattleOrdersForm,
        LineOrderForm,
        RunGunsForm,
        SallyForm,
        FireshipsForm,
        LayDownForm,
        RaiseForm,
        RepairForm,
        LayUpForm,
        RecommissionForm,
        TransferForm,
        FormFleetForm,
        MergeForm,
        AppointForm,
        EmbarkForm,
        LandForm,
        DeclareWarForm,
        OfferPeaceForm,
        ProposeAllianceForm,
        LeaveAllianceForm,
    )
}
assert set(ORDER_FORMS) == set(Order.Kind.values), "every order kind needs a form"
assert all(ORDER_FORMS[k].group == "Diplomacy" for k in DIPLOMACY_KINDS)


def order_menu() -> list[tuple[str, list[dict[str, str]]]]:
    """The order kinds grouped as on the page (and in the README): (group, [{kind, title}])."""
    groups: dict[str, list[dict[str, str]]] = {}
    for form in ORDER_FORMS.values():
        groups.setdefault(form.group, []).append({"kind": form.kind, "title": form.title})
    return list(groups.items())


def order_form_for(
    kind: str,
    *,
    choices: OrderChoices,
    data: Mapping[str, Any] | None = None,
    initial: Mapping[str, Any] | None = None,
) -> OrderForm:
    """The form of ``kind`` (a KeyError for an unknown kind)."""
    return ORDER_FORMS[kind](data, choices=choices, initial=initial)


__all__ = ["ORDER_FORMS", "OrderForm", "order_form_for", "order_menu"]
