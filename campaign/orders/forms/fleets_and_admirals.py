"""Forms of the fleet organisation orders and of appointing admirals (RULES.md §0, §3).

Moving ships between fleets and forming a fleet start from the fleet the ships are in: its ships are
the list to tick (a fleet, not every ship of the navy), and the fleets they may join are those in
the same place.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms

from campaign.models import Order
from campaign.orders.choices import FleetPlace
from campaign.orders.forms.base import Choices, OrderForm

NO_FLEET = "You have no fleet with ships afloat."


def same_place(a: FleetPlace, b: FleetPlace) -> bool:
    return (a.zone.pk, a.port.pk if a.port else None) == (b.zone.pk, b.port.pk if b.port else None)


class _FromFleetForm(OrderForm):
    """Ships chosen from one fleet (``fleet``, not part of the order's body: the ships name it)."""

    fleet_dependent = True
    empty = {"fleet": NO_FLEET, "ships": "This fleet has no ships afloat."}

    def source(self) -> FleetPlace | None:
        places = self.choices.fleets_afloat
        if self.value("fleet") in (None, ""):
            # A stored order being edited, or a body posted without the fleet (the API's shape): the
            # fleet the first ship is in.
            given = self.data.getlist("ships") if self.is_bound and hasattr(self.data, "getlist") else None
            raw = given or (self.data.get("ships") if self.is_bound else self.initial.get("ships")) or []
            first_id = str(raw[0] if isinstance(raw, list | tuple) and raw else raw)
            first = self.choices.ships.get(int(first_id)) if first_id.isascii() and first_id.isdigit() else None
            if first is not None:
                self.initial["fleet"] = first[1].fleet.pk
        self.fleet_field(places, label="From fleet")
        # Only a filter of the ship list: the ships name the fleet in the order itself.
        self.fields["fleet"].required = False
        self.fields["fleet"].help_text = "Choose the fleet, then its ships."
        chosen = self.selected_fleet(places)
        ships = chosen.ships if chosen is not None else []
        self.fields["ships"] = forms.TypedMultipleChoiceField(
            label=f"Ships of {chosen.fleet.name}" if chosen is not None else "Ships",
            coerce=int,
            choices=[(s.pk, self.choices.ship_label(s, chosen).split(" — ")[0]) for s in ships] if chosen else [],
            widget=forms.CheckboxSelectMultiple,
            error_messages={"invalid_choice": "Choose ships of the fleet shown (choose the fleet first)."},
        )
        return chosen

    @classmethod
    def initial_from_body(cls, body: Mapping[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in body.items() if k != "kind"}


class TransferForm(_FromFleetForm):
    kind = Order.Kind.TRANSFER
    title = "Move ships between fleets"
    group = "Fleets and admirals"
    help = "Phase 3, before movement: ships join another fleet in the same place (rules §3)."

    def setup(self) -> None:
        chosen = self.source()
        others = [p for p in self.choices.fleets if chosen is not None and p is not chosen and same_place(p, chosen)]
        self.fleet_field(others, name="to_fleet", label="To fleet")
        if chosen is not None and not others:
            self.why_empty["to_fleet"] = (
                f"No other fleet of yours is {chosen.where}, where {chosen.fleet.name} is; form a new fleet instead."
            )

    def body(self) -> dict[str, Any]:
        return {"kind": self.kind, "ships": self.cleaned_data["ships"], "to_fleet": self.cleaned_data["to_fleet"]}


class FormFleetForm(_FromFleetForm):
    kind = Order.Kind.FORM_FLEET
    title = "Form a new fleet"
    group = "Fleets and admirals"
    help = "Phase 3: ships in one place form a new fleet (rules §3)."

    def setup(self) -> None:
        self.source()
        self.fields["name"] = forms.CharField(label="Name of the new fleet", max_length=80, strip=True)

    def body(self) -> dict[str, Any]:
        return {"kind": self.kind, "ships": self.cleaned_data["ships"], "name": self.cleaned_data["name"]}


class MergeForm(OrderForm):
    kind = Order.Kind.MERGE
    title = "Merge fleets"
    group = "Fleets and admirals"
    help = "Phase 3: a fleet joins another in the same place; it takes no later order (rules §3)."
    fleet_dependent = True
    empty = {"fleet": NO_FLEET}

    def setup(self) -> None:
        places = self.choices.fleets_afloat
        partners = {p.fleet.pk: [q for q in self.choices.fleets if q is not p and same_place(p, q)] for p in places}
        self.fleet_field(places, label="Fleet", note=lambda p: "" if partners[p.fleet.pk] else "alone where it is")
        chosen = self.selected_fleet(places, can_act=lambda p: bool(partners[p.fleet.pk]))
        into = partners[chosen.fleet.pk] if chosen is not None else []
        self.fleet_field(into, name="into", label="Into fleet")
        if chosen is not None and not into:
            self.why_empty["into"] = f"No other fleet of yours is {chosen.where}, where {chosen.fleet.name} is."

    def body(self) -> dict[str, Any]:
        return {"kind": self.kind, "fleet": self.cleaned_data["fleet"], "into": self.cleaned_data["into"]}


class AppointForm(OrderForm):
    kind = Order.Kind.APPOINT
    title = "Appoint an admiral"
    group = "Fleets and admirals"
    help = "Phase 3: an active admiral takes command of a fleet in the same place (rules §0)."
    empty = {"admiral": "You have no active admiral.", "fleet": NO_FLEET}

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
