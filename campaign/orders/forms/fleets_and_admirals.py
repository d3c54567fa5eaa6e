"""Forms of the fleet organisation orders and of appointing admirals (RULES.md §0, §3)."""

from __future__ import annotations

from typing import Any

from django import forms

from campaign.models import Order
from campaign.orders.forms.base import Choices, OrderForm


class TransferForm(OrderForm):
    kind = Order.Kind.TRANSFER
    title = "Move ships between fleets"
    group = "Fleets and admirals"
    help = "Phase 3, before movement: ships join another fleet in the same place (rules §3)."

    def setup(self) -> None:
        self.ships_field(label="Ships")
        self.fleet_field(self.choices.fleets, name="to_fleet", label="To fleet")

    def body(self) -> dict[str, Any]:
        return {"kind": self.kind, "ships": self.cleaned_data["ships"], "to_fleet": self.cleaned_data["to_fleet"]}


class FormFleetForm(OrderForm):
    kind = Order.Kind.FORM_FLEET
    title = "Form a new fleet"
    group = "Fleets and admirals"
    help = "Phase 3: ships in one place form a new fleet (rules §3)."

    def setup(self) -> None:
        self.ships_field(label="Ships")
        self.fields["name"] = forms.CharField(label="Name of the new fleet", max_length=80, strip=True)

    def body(self) -> dict[str, Any]:
        return {"kind": self.kind, "ships": self.cleaned_data["ships"], "name": self.cleaned_data["name"]}


class MergeForm(OrderForm):
    kind = Order.Kind.MERGE
    title = "Merge fleets"
    group = "Fleets and admirals"
    help = "Phase 3: a fleet joins another in the same place; it takes no later order (rules §3)."

    def setup(self) -> None:
        self.fleet_field(self.choices.fleets_afloat, label="Fleet")
        self.fleet_field(self.choices.fleets, name="into", label="Into fleet")

    def body(self) -> dict[str, Any]:
        return {"kind": self.kind, "fleet": self.cleaned_data["fleet"], "into": self.cleaned_data["into"]}


class AppointForm(OrderForm):
    kind = Order.Kind.APPOINT
    title = "Appoint an admiral"
    group = "Fleets and admirals"
    help = "Phase 3: an active admiral takes command of a fleet in the same place (rules §0)."

    def setup(self) -> None:
        options: Choices = []
        for admiral in self.choices.admirals:
            fleet = getattr(admiral, "fleet", None)
            where = (
                f"commands {fleet.name}"
                if fleet is not None
                else (f"waiting at {admiral.port.name}" if admiral.port is not None else "unassigned")
            )
            options.append((admiral.name, f"{admiral.name} ({admiral.grade}) — {where}"))
        self.fields["admiral"] = forms.ChoiceField(label="Admiral", choices=options)
        self.fleet_field(self.choices.fleets_afloat)

    def body(self) -> dict[str, Any]:
        return {"kind": self.kind, "admiral": self.cleaned_data["admiral"], "fleet": self.cleaned_data["fleet"]}
