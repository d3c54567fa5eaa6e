"""Forms of the orders for building and ships (RULES.md §1, §2, §7)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms

from campaign.models import Order
from campaign.orders.choices import NOT_DAMAGED
from campaign.orders.forms.base import Choices, OrderForm
from campaign.orders.schema import RAISE_UNITS


class LayDownForm(OrderForm):
    kind = Order.Kind.LAY_DOWN
    title = "Lay down a ship"
    group = "Building and ships"
    help = (
        "Phase 2: a new ship in an own dockyard port, paid from the treasury; 1st and 2nd rates and four-deckers "
        "within the quota (rules §1)."
    )
    empty = {
        "port": "You have no own port with a dockyard that can build now (not besieged, not taken this turn or last)."
    }

    def setup(self) -> None:
        statuses = self.choices.class_statuses
        self.fields["class"] = forms.ChoiceField(
            label="Class",
            choices=[(c.cls, c.label) for c in statuses],
            widget=forms.RadioSelect,
            error_messages={"required": "Choose a class.", "invalid_choice": "Choose a ship class from the list."},
        )
        self.fields["name"] = forms.CharField(label="Name", max_length=80, strip=True)
        self.port_field("port", self.choices.dockyards, label="Dockyard")

    @property
    def class_rows(self) -> list[dict[str, Any]]:
        chosen = self.value("class")
        return [
            {"status": c, "checked": c.cls == chosen, "id": f"id_class_{k}"}
            for k, c in enumerate(self.choices.class_statuses)
        ]

    def body(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"kind": self.kind, "class": data["class"], "name": data["name"], "port": data["port"]}


class RaiseForm(OrderForm):
    kind = Order.Kind.RAISE
    title = "Raise a land unit or siege train"
    group = "Building and ships"
    help = "Phase 2: in an own port that is not besieged; it joins the garrison (rules §7)."
    empty = {"port": "You have no own port that is not besieged."}

    def setup(self) -> None:
        self.fields["unit"] = forms.ChoiceField(
            label="Raise",
            choices=[(u, f"{u.replace('_', ' ')} ({self.choices.raise_cost(u)} EP)") for u in RAISE_UNITS],
        )
        self.port_field("port", self.choices.raise_ports, label="Port")

    def body(self) -> dict[str, Any]:
        return {"kind": self.kind, "unit": self.cleaned_data["unit"], "port": self.cleaned_data["port"]}


class RepairForm(OrderForm):
    kind = Order.Kind.REPAIR
    title = "Repair a ship"
    group = "Building and ships"
    help = "Standing: repair a damaged or disabled ship in an own port with a dockyard, or stop a repair (rules §2)."

    empty = {"ship": "None of your ships is damaged or disabled: there is nothing to repair."}

    def setup(self) -> None:
        ships = sorted(self.choices.ships.values(), key=lambda sp: (sp[1].fleet.name, sp[0].name))
        repairable: list[tuple[int, str]] = []
        waiting: list[tuple[int, str]] = []
        for ship, place in ships:
            # The repair check's own answer (the order's check and phase 8 ask it too): a ready ship
            # is never listed; a damaged one that cannot be repaired now is listed with the reason, since
            # its standing order waits for it (or is stopped here).
            refusal = self.choices.repair_refusal(ship, place)
            if refusal == NOT_DAMAGED:
                continue
            label = self.choices.ship_label(ship, place)
            if refusal is None:
                repairable.append((ship.pk, label))
            else:
                waiting.append((ship.pk, f"{label} — not now: {refusal}"))
        groups: Choices = []
        if repairable:
            groups.append(("Can be repaired now", repairable))
        if waiting:
            groups.append(("Damaged, not repairable now (a standing order waits; or stop one)", waiting))
        self.fields["ship"] = forms.TypedChoiceField(
            label="Ship",
            coerce=int,
            choices=groups,
            error_messages={"invalid_choice": "Choose one of your damaged or disabled ships from the list."},
        )
        self.fields["on"] = forms.ChoiceField(
            label="Repair", choices=[("on", "Start (or keep) repairing"), ("off", "Stop repairing")]
        )

    def body(self) -> dict[str, Any]:
        return {"kind": self.kind, "ship": self.cleaned_data["ship"], "on": self.cleaned_data["on"] == "on"}

    @classmethod
    def initial_from_body(cls, body: Mapping[str, Any]) -> dict[str, Any]:
        return {"ship": body.get("ship"), "on": "on" if body.get("on", True) else "off"}


class LayUpForm(OrderForm):
    kind = Order.Kind.LAY_UP
    title = "Lay a ship up in ordinary"
    group = "Building and ships"
    help = "Phase 8: a ship in an own port goes into ordinary: less upkeep, it cannot leave port (rules §2)."
    empty = {"ship": "None of your ships in commission is in an own port."}

    def setup(self) -> None:
        own = {p.pk for p in self.choices.own_ports}
        self.ship_field(
            (s, p)
            for s, p in self.choices.ships.values()
            if p.port is not None and p.port.pk in own and not s.in_ordinary
        )

    def body(self) -> dict[str, Any]:
        return {"kind": self.kind, "ship": self.cleaned_data["ship"]}


class RecommissionForm(OrderForm):
    kind = Order.Kind.RECOMMISSION
    title = "Recommission a ship"
    group = "Building and ships"
    help = "Phase 8: a ship in ordinary in an own port returns to commission (rules §2)."
    empty = {"ship": "None of your ships is laid up in ordinary in an own port."}

    def setup(self) -> None:
        own = {p.pk for p in self.choices.own_ports}
        self.ship_field(
            (s, p) for s, p in self.choices.ships.values() if p.port is not None and p.port.pk in own and s.in_ordinary
        )

    def body(self) -> dict[str, Any]:
        return {"kind": self.kind, "ship": self.cleaned_data["ship"]}
