"""The base of every order form: fields shared by the kinds, and a refusal shown next to its field.

The forms check only the shape of the input (a choice from the list, a whole number); the rules are the
server's: a body the services refuse comes back as :class:`~campaign.orders.errors.OrderRefused`, and
:meth:`OrderForm.refuse` shows its message next to the field it names (``refusal.field``), or above
the form when it is about the whole order or a field the form does not show.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar

from django import forms

from battles.widgets import use_fast_selects
from campaign.orders.choices import FleetPlace, OrderChoices
from campaign.orders.errors import OrderRefused

Choices = list[tuple[str, Any]]

#: Lists longer than this are grouped (ports by sea zone).
LONG_LIST = 12


def _flat_choices(choices: Iterable[Any]) -> Iterable[Any]:
    """The values of a choice list, groups (``(label, [(value, label), …])``) opened."""
    for value, label in choices:
        if isinstance(label, list | tuple):
            yield from (v for v, _ in label)
        else:
            yield value


class OrderForm(forms.Form):
    """One order kind. Subclasses declare ``kind``, ``title``, ``group``, build their fields in
    :meth:`setup` from the nation's :class:`OrderChoices` and turn cleaned data into a body."""

    kind: ClassVar[str]
    title: ClassVar[str]
    group: ClassVar[str]
    help: ClassVar[str] = ""
    #: Its choices depend on the fleet chosen: the page offers a "show choices" refresh.
    fleet_dependent: ClassVar[bool] = False
    #: Why a required list is empty, by field name, as a player reads it ("None of your fleets has a
    #: fireship."); :meth:`setup` may add reasons that depend on the fleet chosen to ``self.why_empty``.
    empty: ClassVar[Mapping[str, str]] = {}

    def __init__(
        self, data: Mapping[str, Any] | None = None, *, choices: OrderChoices, initial: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(data, initial=dict(initial or {}))
        self.choices = choices
        self.why_empty: dict[str, str] = {}
        self.setup()
        use_fast_selects(self)

    @property
    def can_refresh(self) -> bool:
        """Whether "show the choices for this fleet" has a fleet to show them for."""
        field = self.fields.get("fleet")
        return self.fleet_dependent and isinstance(field, forms.ChoiceField) and bool(list(field.choices))  # type: ignore[arg-type]

    @property
    def blocked(self) -> str:
        """Why this order cannot be given now ("" when it can): a required list with nothing in it. The
        page shows the reason and no active button (an empty list with a button only invites a refusal)."""
        for name, field in self.fields.items():
            if not field.required or not isinstance(field, forms.ChoiceField):
                continue
            if not any(True for _ in _flat_choices(field.choices)):  # type: ignore[arg-type]
                reason = self.why_empty.get(name) or self.empty.get(name)
                return reason or f"There is nothing to choose as “{field.label}” now."
        return ""

    # -- building ---------------------------------------------------------------------------------------
    def setup(self) -> None:
        raise NotImplementedError

    def body(self) -> dict[str, Any]:
        """The order body from the cleaned data (call after ``is_valid()``)."""
        raise NotImplementedError

    @classmethod
    def initial_from_body(cls, body: Mapping[str, Any]) -> dict[str, Any]:
        """Initial field values for editing a stored order."""
        return {k: v for k, v in body.items() if k != "kind"}

    def value(self, name: str) -> Any:
        """The field's current value: submitted data first, then the initial value."""
        if self.is_bound and name in self.data:
            return self.data.get(name)
        return self.initial.get(name)

    # -- shared fields -------------------------------------------------------------------------------------
    def fleet_field(
        self,
        places: Iterable[FleetPlace],
        *,
        name: str = "fleet",
        label: str = "Fleet",
        note: Callable[[FleetPlace], str] | None = None,
    ) -> None:
        """A choice of fleets; ``note`` adds a word to a fleet's label (e.g. "cannot move now")."""
        self.fields[name] = forms.TypedChoiceField(
            label=label,
            coerce=int,
            choices=[(p.fleet.pk, p.label + (f" · {n}" if note and (n := note(p)) else "")) for p in places],
            error_messages={"invalid_choice": "Choose one of your fleets from the list."},
        )

    def selected_fleet(
        self, places: list[FleetPlace], name: str = "fleet", *, can_act: Callable[[FleetPlace], bool] | None = None
    ) -> FleetPlace | None:
        """The fleet whose choices are shown: the one submitted or given, else the first that
        ``can_act`` (one that has something to choose), else the first."""
        by_id = {p.fleet.pk: p for p in places}
        raw = self.value(name)
        try:
            chosen = by_id.get(int(raw)) if raw not in (None, "") else None
        except (TypeError, ValueError):
            chosen = None
        if chosen is None and places:
            able = [p for p in places if can_act(p)] if can_act is not None else places
            chosen = (able or places)[0]
            self.initial[name] = chosen.fleet.pk
        return chosen

    def port_field(
        self, name: str, ports: Iterable[Any], *, label: str, required: bool = True, blank: str = "—"
    ) -> None:
        ports = list(ports)
        options: Choices = [(p.key, self.choices.port_label(p)) for p in ports]
        if len(ports) > LONG_LIST:
            # A long list is grouped by sea zone (<optgroup>), the zones in name order.
            zones: dict[str, list[tuple[str, str]]] = {}
            for port in ports:
                zones.setdefault(self.choices.zone_name(port.sea_zone_id), []).append(
                    (port.key, self.choices.port_label(port, zone=False))
                )
            options = [(zone, zones[zone]) for zone in sorted(zones)]
        if not required:
            options = [("", blank), *options]
        self.fields[name] = forms.ChoiceField(
            label=label,
            required=required,
            choices=options,
            error_messages={"invalid_choice": "Choose a port from the list."},
        )

    def ship_field(self, ships: Iterable[Any], *, label: str = "Ship") -> None:
        self.fields["ship"] = forms.TypedChoiceField(
            label=label,
            coerce=int,
            choices=[(ship.pk, self.choices.ship_label(ship, place)) for ship, place in ships],
            error_messages={"invalid_choice": "Choose one of your ships from the list."},
        )

    def ships_field(self, *, label: str, help_text: str = "") -> None:
        groups: Choices = []
        for place in self.choices.fleets_afloat:
            groups.append(
                (
                    f"{place.fleet.name} — {place.where}",
                    [(s.pk, self.choices.ship_label(s, place).split(" — ")[0]) for s in place.ships],
                )
            )
        self.fields["ships"] = forms.TypedMultipleChoiceField(
            label=label,
            coerce=int,
            choices=groups,
            widget=forms.CheckboxSelectMultiple,
            help_text=help_text,
            error_messages={"invalid_choice": "Choose your own ships afloat from the list."},
        )

    # -- refusals -----------------------------------------------------------------------------------------
    def refuse(self, refused: OrderRefused) -> str | None:
        """Show the server's refusal next to the field it names; returns that field (None: the whole
        order, or a field this form does not show, shown above the form)."""
        field = refused.field if refused.field in self.fields else None
        self.add_error(field, refused.message)
        return field
