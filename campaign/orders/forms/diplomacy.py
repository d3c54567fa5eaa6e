"""Forms of the diplomatic orders (RULES.md §10)."""

from __future__ import annotations

from typing import Any

from django import forms

from campaign.models import Order
from campaign.orders.forms.base import OrderForm
from campaign.orders.schema import DIPLOMACY_FROM

_RELATION_WORDS = {"peace": "at peace with", "war": "at war with", "alliance": "allied with"}


class DiplomacyForm(OrderForm):
    group = "Diplomacy"

    def setup(self) -> None:
        targets = self.choices.diplomacy_targets(self.kind)
        allowed = " or ".join(_RELATION_WORDS[state] for state in DIPLOMACY_FROM[self.kind])
        self.why_empty["nation"] = f"No nation: this order is given only to a nation you are {allowed}."
        self.fields["nation"] = forms.ChoiceField(
            label="Nation",
            choices=[(n.code, f"{n.name} — now at {state}") for n, state in targets],
            error_messages={"invalid_choice": "Choose a nation from the list."},
        )

    def body(self) -> dict[str, Any]:
        return {"kind": self.kind, "nation": self.cleaned_data["nation"]}


class DeclareWarForm(DiplomacyForm):
    kind = Order.Kind.DECLARE_WAR
    title = "Declare war"
    help = "Phase 1: from peace or alliance (rules §10)."


class OfferPeaceForm(DiplomacyForm):
    kind = Order.Kind.OFFER_PEACE
    title = "Offer peace"
    help = "Phase 1: from war; peace comes when the other nation offers it too (rules §10)."


class ProposeAllianceForm(DiplomacyForm):
    kind = Order.Kind.PROPOSE_ALLIANCE
    title = "Propose or accept an alliance"
    help = "Phase 1: from peace; proposing to a nation that proposed to you accepts (rules §10)."


class LeaveAllianceForm(DiplomacyForm):
    kind = Order.Kind.LEAVE_ALLIANCE
    title = "Leave an alliance"
    help = "Phase 1: from alliance (rules §10)."
