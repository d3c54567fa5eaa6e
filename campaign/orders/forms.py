"""Django forms for every order kind (README "Orders JSON"): each produces the JSON body that
``campaign.orders.order_add`` / ``order_update`` validate, with its choices narrowed to what is legal
now (:class:`~campaign.orders.choices.OrderChoices`).

The forms check only the shape of the input (a choice from the list, a whole number); the rules are the
server's: a body the services refuse comes back as :class:`~campaign.orders.OrderRefused`, and
:meth:`OrderForm.refuse` shows its message next to the field it concerns (or above the form when it is
about the whole order).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar

from django import forms

from battles.widgets import use_fast_selects
from campaign.models import Order
from campaign.orders.choices import FleetPlace, OrderChoices
from campaign.orders.validation import DIPLOMACY_KINDS, RAISE_UNITS
from fleets.models import Fleet

Choices = list[tuple[str, Any]]

#: Refusals about the order list or the turn as a whole, never about one field.
_WHOLE_ORDER = re.compile(
    r"that change would leave another order|orders are closed|has ended|no open turn|no longer exists|"
    r"unknown key|missing |conflict with orders stored"
)
#: Refusals about the fleet an order names (shared by the fleet orders).
_FLEET = r"has no fleet|is merged into|already has an? [a-z_]+ order this turn|has no ship afloat|has no fireship"


def _reason(message: str) -> str:
    """The refusal without its "Order N (kind, subject): " label."""
    match = re.match(r"^Order \d+(?: \(.*?\))?:\s", message)
    return message[match.end() :] if match else message


class OrderForm(forms.Form):
    """One order kind. Subclasses declare ``kind``, ``title``, ``group``, build their fields in
    :meth:`setup` from the nation's :class:`OrderChoices` and turn cleaned data into a body."""

    kind: ClassVar[str]
    title: ClassVar[str]
    group: ClassVar[str]
    help: ClassVar[str] = ""
    #: (pattern in the refusal's reason, field) — first match wins; else ``default_field``.
    error_fields: ClassVar[list[tuple[str, str]]] = []
    default_field: ClassVar[str | None] = None
    #: Its choices depend on the fleet chosen: the page offers a "show choices" refresh.
    fleet_dependent: ClassVar[bool] = False

    def __init__(
        self, data: Mapping[str, Any] | None = None, *, choices: OrderChoices, initial: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(data, initial=dict(initial or {}))
        self.choices = choices
        self.setup()
        use_fast_selects(self)

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
    def fleet_field(self, places: Iterable[FleetPlace], *, name: str = "fleet", label: str = "Fleet") -> None:
        self.fields[name] = forms.TypedChoiceField(
            label=label,
            coerce=int,
            choices=[(p.fleet.pk, p.label) for p in places],
            error_messages={"invalid_choice": "Choose one of your fleets from the list."},
        )

    def selected_fleet(self, places: list[FleetPlace], name: str = "fleet") -> FleetPlace | None:
        """The fleet whose choices are shown: the one submitted or given, else the first."""
        by_id = {p.fleet.pk: p for p in places}
        raw = self.value(name)
        try:
            chosen = by_id.get(int(raw)) if raw not in (None, "") else None
        except (TypeError, ValueError):
            chosen = None
        if chosen is None and places:
            chosen = places[0]
            self.initial.setdefault(name, chosen.fleet.pk)
        return chosen

    def port_field(
        self, name: str, ports: Iterable[Any], *, label: str, required: bool = True, blank: str = "—"
    ) -> None:
        options: Choices = [(p.key, self.choices.port_label(p)) for p in ports]
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
    def refuse(self, message: str) -> str | None:
        """Show the server's refusal next to the field it concerns; returns that field (None: the
        whole order, shown above the form)."""
        reason = _reason(message)
        field: str | None = None
        if not _WHOLE_ORDER.search(reason.lower()):
            for pattern, name in self.error_fields:
                if re.search(pattern, reason, re.IGNORECASE) and name in self.fields:
                    field = name
                    break
            else:
                field = self.default_field if self.default_field in self.fields else None
        self.add_error(field, message)
        return field


# --- fleets at sea ------------------------------------------------------------------------------------


class MoveForm(OrderForm):
    kind = Order.Kind.MOVE
    title = "Move a fleet"
    group = "Fleets at sea"
    help = (
        "A path of up to 2 steps (1 with a disabled ship): an adjacent zone, entering an own or allied port "
        "of the zone, or leaving port for its zone (RULES.md §4)."
    )
    fleet_dependent = True
    error_fields: ClassVar[list[tuple[str, str]]] = [(_FLEET + "|sallies by order", "fleet")]
    default_field = "path"

    def setup(self) -> None:
        places = self.choices.fleets_afloat
        self.fleet_field(places)
        chosen = self.selected_fleet(places)
        paths = self.choices.move_paths(chosen) if chosen is not None else []
        self.fields["path"] = forms.ChoiceField(
            label="Path",
            choices=[(p.value, p.label) for p in paths],
            help_text="" if paths else "This fleet has no move: ships in ordinary cannot leave port (§2).",
            error_messages={"invalid_choice": "Choose a path from the list (choose the fleet first)."},
        )

    def body(self) -> dict[str, Any]:
        return {"kind": self.kind, "fleet": self.cleaned_data["fleet"], "path": self.cleaned_data["path"].split("|")}

    @classmethod
    def initial_from_body(cls, body: Mapping[str, Any]) -> dict[str, Any]:
        return {"fleet": body.get("fleet"), "path": "|".join(body.get("path") or [])}


class PostureForm(OrderForm):
    kind = Order.Kind.POSTURE
    title = "Set a fleet's posture"
    group = "Fleets at sea"
    help = "Standing: seek battle, avoid battle, or blockade a port from its zone (RULES.md §4)."
    error_fields: ClassVar[list[tuple[str, str]]] = [(_FLEET, "fleet"), (r"port", "port")]
    default_field = "posture"

    def setup(self) -> None:
        self.fleet_field(self.choices.fleets_afloat)
        self.fields["posture"] = forms.ChoiceField(label="Posture", choices=Fleet.Posture.choices)
        self.port_field(
            "port", self.choices.foreign_ports, label="Port to blockade", required=False, blank="— (not a blockade)"
        )

    def body(self) -> dict[str, Any]:
        data = self.cleaned_data
        port = data["port"] or None  # a port with another posture is the server's to refuse
        return {"kind": self.kind, "fleet": data["fleet"], "posture": data["posture"], "port": port}

    @classmethod
    def initial_from_body(cls, body: Mapping[str, Any]) -> dict[str, Any]:
        return {"fleet": body.get("fleet"), "posture": body.get("posture"), "port": body.get("port") or ""}


class BattleOrdersForm(OrderForm):
    kind = Order.Kind.BATTLE_ORDERS
    title = "Battle standing orders"
    group = "Fleets at sea"
    help = (
        "After a day in which both sides held: evade if our losses are higher, continue, or evade; where to "
        "retreat (RULES.md §4, §5)."
    )
    error_fields: ClassVar[list[tuple[str, str]]] = [
        (_FLEET, "fleet"),
        (r"retreats only|port", "retreat_port"),
        (r"sea zone", "retreat_zone"),
    ]
    default_field = "after_battle"

    def setup(self) -> None:
        self.fleet_field(self.choices.fleets_afloat)
        self.fields["after_battle"] = forms.ChoiceField(label="After a drawn day", choices=Fleet.AfterBattle.choices)
        self.port_field(
            "retreat_port", self.choices.friendly_ports, label="Retreat into port", required=False, blank="— (none)"
        )
        zones = sorted(self.choices.board.zones.values(), key=lambda z: z.name)
        self.fields["retreat_zone"] = forms.ChoiceField(
            label="Else retreat to zone",
            required=False,
            choices=[("", "— (towards the nearest own port)"), *[(z.key, z.name) for z in zones]],
        )

    def body(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "kind": self.kind,
            "fleet": data["fleet"],
            "after_battle": data["after_battle"],
            "retreat_port": data["retreat_port"] or None,
            "retreat_zone": data["retreat_zone"] or None,
        }

    @classmethod
    def initial_from_body(cls, body: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "fleet": body.get("fleet"),
            "after_battle": body.get("after_battle"),
            "retreat_port": body.get("retreat_port") or "",
            "retreat_zone": body.get("retreat_zone") or "",
        }


class LineOrderForm(OrderForm):
    kind = Order.Kind.LINE_ORDER
    title = "Line order"
    group = "Fleets at sea"
    help = "Standing: the order of the fleet's line, flagship first (RULES.md §4). Number the ships 1, 2, 3…"
    fleet_dependent = True
    error_fields: ClassVar[list[tuple[str, str]]] = [(_FLEET, "fleet")]
    default_field = None

    def setup(self) -> None:
        places = self.choices.fleets_afloat
        self.fleet_field(places)
        self.place = self.selected_fleet(places)
        order = [int(i) for i in (self.initial.get("ships") or []) if isinstance(i, int)]
        ships = self.place.ships if self.place is not None else []
        ranks = {sid: k for k, sid in enumerate(order, 1)}
        for k, ship in enumerate(ships, 1):
            self.fields[f"pos_{ship.pk}"] = forms.IntegerField(
                label=f"{ship.name} ({ship.get_ship_class_display()}, {ship.condition})",
                min_value=1,
                max_value=999,
                initial=ranks.get(ship.pk, k),
            )

    def body(self) -> dict[str, Any]:
        ships = self.place.ships if self.place is not None else []
        ranked = sorted(((self.cleaned_data[f"pos_{s.pk}"], k, s.pk) for k, s in enumerate(ships)))
        return {"kind": self.kind, "fleet": self.cleaned_data["fleet"], "ships": [sid for _, _, sid in ranked]}

    @classmethod
    def initial_from_body(cls, body: Mapping[str, Any]) -> dict[str, Any]:
        return {"fleet": body.get("fleet"), "ships": list(body.get("ships") or [])}


class _PortAttackForm(OrderForm):
    """Run the guns or send fireships at an enemy port the fleet can reach (RULES.md §4, §6, §9)."""

    fleet_dependent = True
    error_fields: ClassVar[list[tuple[str, str]]] = [(_FLEET, "fleet")]
    default_field = "port"

    def fleets(self) -> list[FleetPlace]:
        return self.choices.fleets_afloat

    def setup(self) -> None:
        places = self.fleets()
        self.fleet_field(places)
        chosen = self.selected_fleet(places)
        reach = self.choices.zones_in_reach(chosen) if chosen is not None else set()
        ports = [p for p in self.choices.enemy_ports if p.sea_zone_id in reach]
        self.port_field("port", ports, label="Port (of a nation at war, in the fleet's reach)")

    def body(self) -> dict[str, Any]:
        return {"kind": self.kind, "fleet": self.cleaned_data["fleet"], "port": self.cleaned_data["port"]}


class RunGunsForm(_PortAttackForm):
    kind = Order.Kind.RUN_GUNS
    title = "Run the guns"
    group = "Fleets at sea"
    help = (
        "Phase 5: attack a port of a nation at war, from sea in its zone — the fleet must blockade it or "
        "win a battle in its zone this turn (RULES.md §4, §6)."
    )


class FireshipsForm(_PortAttackForm):
    kind = Order.Kind.FIRESHIPS
    title = "Fireship attack"
    group = "Fleets at sea"
    help = "Phase 5: the fleet's fireships attack the ships in an enemy port (RULES.md §9)."

    def fleets(self) -> list[FleetPlace]:
        return [p for p in self.choices.fleets_afloat if any(s.ship_class == "fireship" for s in p.ships)]


class SallyForm(OrderForm):
    kind = Order.Kind.SALLY
    title = "Sally against blockaders"
    group = "Fleets at sea"
    help = "A fleet in a blockaded port leaves it to fight the blockaders, without sighting (RULES.md §4)."
    default_field = "fleet"

    def setup(self) -> None:
        self.fleet_field([p for p in self.choices.fleets_afloat if p.port is not None])

    def body(self) -> dict[str, Any]:
        return {"kind": self.kind, "fleet": self.cleaned_data["fleet"]}


# --- building, raising, ships ------------------------------------------------------------------------------


class LayDownForm(OrderForm):
    kind = Order.Kind.LAY_DOWN
    title = "Lay down a ship"
    group = "Building and ships"
    help = (
        "Phase 2: a new ship in an own dockyard port, paid from the treasury; 1st and 2nd rates and four-deckers "
        "within the quota (RULES.md §1)."
    )
    error_fields: ClassVar[list[tuple[str, str]]] = [
        (r"\bnamed?\b|\bnames\b|characters", "name"),
        (r"dockyard|own port|besieged|taken in turn|no port|not a port", "port"),
    ]
    default_field = "class"

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
    help = "Phase 2: in an own port that is not besieged; it joins the garrison (RULES.md §7)."
    error_fields: ClassVar[list[tuple[str, str]]] = [(r" EP\b|costs", "unit")]
    default_field = "port"

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
    help = "Standing: repair a damaged or disabled ship in an own port with a dockyard, or stop a repair (RULES.md §2)."
    default_field = "ship"

    def setup(self) -> None:
        dockyard_ids = {p.pk for p in self.choices.dockyards}
        ships = sorted(self.choices.ships.values(), key=lambda sp: (sp[1].fleet.name, sp[0].name))
        repairable = [
            (s, p)
            for s, p in ships
            if s.condition in ("damaged", "disabled") and p.port is not None and p.port.pk in dockyard_ids
        ]
        others = [(s, p) for s, p in ships if (s, p) not in repairable]
        self.fields["ship"] = forms.TypedChoiceField(
            label="Ship",
            coerce=int,
            choices=[
                ("Can be repaired now", [(s.pk, self.choices.ship_label(s, p)) for s, p in repairable]),
                ("Other ships (to stop a repair)", [(s.pk, self.choices.ship_label(s, p)) for s, p in others]),
            ],
            error_messages={"invalid_choice": "Choose one of your ships from the list."},
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
    help = "Phase 8: a ship in an own port goes into ordinary: less upkeep, it cannot leave port (RULES.md §2)."
    default_field = "ship"

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
    help = "Phase 8: a ship in ordinary in an own port returns to commission (RULES.md §2)."
    default_field = "ship"

    def setup(self) -> None:
        own = {p.pk for p in self.choices.own_ports}
        self.ship_field(
            (s, p) for s, p in self.choices.ships.values() if p.port is not None and p.port.pk in own and s.in_ordinary
        )

    def body(self) -> dict[str, Any]:
        return {"kind": self.kind, "ship": self.cleaned_data["ship"]}


# --- fleet organisation and admirals ------------------------------------------------------------------------


class TransferForm(OrderForm):
    kind = Order.Kind.TRANSFER
    title = "Move ships between fleets"
    group = "Fleets and admirals"
    help = "Phase 3, before movement: ships join another fleet in the same place (RULES.md §3)."
    error_fields: ClassVar[list[tuple[str, str]]] = [(_FLEET, "to_fleet")]
    default_field = "ships"

    def setup(self) -> None:
        self.ships_field(label="Ships")
        self.fleet_field(self.choices.fleets, name="to_fleet", label="To fleet")

    def body(self) -> dict[str, Any]:
        return {"kind": self.kind, "ships": self.cleaned_data["ships"], "to_fleet": self.cleaned_data["to_fleet"]}


class FormFleetForm(OrderForm):
    kind = Order.Kind.FORM_FLEET
    title = "Form a new fleet"
    group = "Fleets and admirals"
    help = "Phase 3: ships in one place form a new fleet (RULES.md §3)."
    error_fields: ClassVar[list[tuple[str, str]]] = [(r"fleet name|named|characters", "name")]
    default_field = "ships"

    def setup(self) -> None:
        self.ships_field(label="Ships")
        self.fields["name"] = forms.CharField(label="Name of the new fleet", max_length=80, strip=True)

    def body(self) -> dict[str, Any]:
        return {"kind": self.kind, "ships": self.cleaned_data["ships"], "name": self.cleaned_data["name"]}


class MergeForm(OrderForm):
    kind = Order.Kind.MERGE
    title = "Merge fleets"
    group = "Fleets and admirals"
    help = "Phase 3: a fleet joins another in the same place; it takes no later order (RULES.md §3)."
    error_fields: ClassVar[list[tuple[str, str]]] = [(r"already has a merge|is merged into", "fleet")]
    default_field = "into"

    def setup(self) -> None:
        self.fleet_field(self.choices.fleets_afloat, label="Fleet")
        self.fleet_field(self.choices.fleets, name="into", label="Into fleet")

    def body(self) -> dict[str, Any]:
        return {"kind": self.kind, "fleet": self.cleaned_data["fleet"], "into": self.cleaned_data["into"]}


class AppointForm(OrderForm):
    kind = Order.Kind.APPOINT
    title = "Appoint an admiral"
    group = "Fleets and admirals"
    help = "Phase 3: an active admiral takes command of a fleet in the same place (RULES.md §0)."
    error_fields: ClassVar[list[tuple[str, str]]] = [(_FLEET, "fleet")]
    default_field = "admiral"

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


# --- armies ----------------------------------------------------------------------------------------------------


class _ArmyForm(OrderForm):
    fleet_dependent = True
    error_fields: ClassVar[list[tuple[str, str]]] = [
        (_FLEET, "fleet"),
        (r"lies in|not in .* where the fleet|embarks units only in|lands units only there|neutral|no port", "port"),
    ]
    default_field = "units"

    def transport_fleets(self) -> list[FleetPlace]:
        return [p for p in self.choices.fleets_afloat if any(s.ship_class == "transport" for s in p.ships)]

    def ports_for(self, place: FleetPlace) -> list[Any]:
        raise NotImplementedError

    def setup(self) -> None:
        places = self.transport_fleets()
        self.fleet_field(places)
        chosen = self.selected_fleet(places)
        self.port_field("port", self.ports_for(chosen) if chosen is not None else [], label="Port")
        self.fields["units"] = forms.IntegerField(label="Land units", min_value=1, max_value=999, initial=1)

    def body(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"kind": self.kind, "fleet": data["fleet"], "port": data["port"], "units": data["units"]}


class EmbarkForm(_ArmyForm):
    kind = Order.Kind.EMBARK
    title = "Embark land units"
    group = "Armies"
    help = "Phase 3: land units board the fleet's empty transports, one unit each (RULES.md §7)."

    def ports_for(self, place: FleetPlace) -> list[Any]:
        units = self.choices.land_units_at
        if place.port is not None:
            return [place.port] if units[place.port.pk] else []
        return [p for p in self.choices.ports if p.sea_zone_id == place.zone.pk and units[p.pk]]


class LandForm(_ArmyForm):
    kind = Order.Kind.LAND
    title = "Land land units"
    group = "Armies"
    help = (
        "Phase 6: units land at a port of the fleet's zone (after its move): own → garrison, allied → guests, "
        "enemy → besiegers; never at a neutral port (RULES.md §7)."
    )

    def ports_for(self, place: FleetPlace) -> list[Any]:
        reach = self.choices.zones_in_reach(place)
        return [
            p for p in self.choices.ports if p.sea_zone_id in reach and self.choices.relation(p.owner_id) != "peace"
        ]


# --- diplomacy -----------------------------------------------------------------------------------------------


class DiplomacyForm(OrderForm):
    group = "Diplomacy"
    default_field = "nation"

    def setup(self) -> None:
        targets = self.choices.diplomacy_targets(self.kind)
        self.fields["nation"] = forms.ChoiceField(
            label="Nation",
            choices=[(n.code, f"{n.name} ({n.code}) — now at {state}") for n, state in targets],
            help_text="" if targets else "No nation: the current relations allow this order towards none.",
            error_messages={"invalid_choice": "Choose a nation from the list."},
        )

    def body(self) -> dict[str, Any]:
        return {"kind": self.kind, "nation": self.cleaned_data["nation"]}


class DeclareWarForm(DiplomacyForm):
    kind = Order.Kind.DECLARE_WAR
    title = "Declare war"
    help = "Phase 1: from peace or alliance (RULES.md §10)."


class OfferPeaceForm(DiplomacyForm):
    kind = Order.Kind.OFFER_PEACE
    title = "Offer peace"
    help = "Phase 1: from war; peace comes when the other nation offers it too (RULES.md §10)."


class ProposeAllianceForm(DiplomacyForm):
    kind = Order.Kind.PROPOSE_ALLIANCE
    title = "Propose or accept an alliance"
    help = "Phase 1: from peace; proposing to a nation that proposed to you accepts (RULES.md §10)."


class LeaveAllianceForm(DiplomacyForm):
    kind = Order.Kind.LEAVE_ALLIANCE
    title = "Leave an alliance"
    help = "Phase 1: from alliance (RULES.md §10)."


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


# --- the order list, in words ----------------------------------------------------------------------------


def order_summary(order: Order, choices: OrderChoices) -> str:
    """One order in a player's words, with names instead of ids and keys ("Channel Fleet: leave
    Portsmouth → Bay of Biscay"); ``campaign.orders.order_describe`` is the canonical line."""
    body = order.body
    board = choices.board
    fleets = choices.fleets_by_id
    ships = choices.ships

    def fleet(key: str = "fleet") -> str:
        place = fleets.get(body.get(key))
        return place.fleet.name if place is not None else f"fleet {body.get(key)}"

    def ship(value: Any) -> str:
        found = ships.get(value)
        return found[0].name if found is not None else f"ship {value}"

    def port(key: Any) -> str:
        found = board.ports.get(key) if isinstance(key, str) else None
        return found.name if found is not None else str(key)

    def zone(key: Any) -> str:
        found = board.zones.get(key) if isinstance(key, str) else None
        return found.name if found is not None else str(key)

    def step(value: str) -> str:
        if value == "sea":
            return "to sea"
        if value.startswith("port:"):
            return f"into {port(value.removeprefix('port:'))}"
        return zone(value)

    def names(values: Any, limit: int = 6) -> str:
        listed = [ship(v) for v in values or []]
        more = f" and {len(listed) - limit} more" if len(listed) > limit else ""
        return ", ".join(listed[:limit]) + more

    kind = order.kind
    nation = board.nations.get(body.get("nation", ""))
    cost = choices.ruleset.ship_cost.get(body.get("class", ""), 0)
    texts: dict[str, Callable[[], str]] = {
        Order.Kind.MOVE: lambda: f"{fleet()}: " + " → ".join(step(s) for s in body.get("path") or []),
        Order.Kind.POSTURE: lambda: (
            f"{fleet()}: "
            + (
                f"blockade {port(body.get('port'))}"
                if body.get("posture") == "blockade"
                else f"{body.get('posture')} battle"
            )
        ),
        Order.Kind.BATTLE_ORDERS: lambda: (
            f"{fleet()}: after a drawn day {body.get('after_battle')}"
            + (f"; retreat into {port(body['retreat_port'])}" if body.get("retreat_port") else "")
            + (f"; else to {zone(body['retreat_zone'])}" if body.get("retreat_zone") else "")
        ),
        Order.Kind.LINE_ORDER: lambda: f"{fleet()}: line {names(body.get('ships'))}",
        Order.Kind.RUN_GUNS: lambda: f"{fleet()}: run the guns of {port(body.get('port'))}",
        Order.Kind.SALLY: lambda: f"{fleet()}: sally against the blockaders",
        Order.Kind.FIRESHIPS: lambda: f"{fleet()}: fireships into {port(body.get('port'))}",
        Order.Kind.LAY_DOWN: lambda: f"{body.get('class')} {body.get('name')} at {port(body.get('port'))} ({cost} EP)",
        Order.Kind.RAISE: lambda: f"{str(body.get('unit')).replace('_', ' ')} at {port(body.get('port'))}",
        Order.Kind.REPAIR: lambda: ("repair " if body.get("on", True) else "stop repairing ") + ship(body.get("ship")),
        Order.Kind.LAY_UP: lambda: f"{ship(body.get('ship'))} into ordinary",
        Order.Kind.RECOMMISSION: lambda: f"{ship(body.get('ship'))} back into commission",
        Order.Kind.TRANSFER: lambda: f"{names(body.get('ships'))} → {fleet('to_fleet')}",
        Order.Kind.FORM_FLEET: lambda: f"{names(body.get('ships'))} → new fleet {body.get('name')}",
        Order.Kind.MERGE: lambda: f"{fleet()} into {fleet('into')}",
        Order.Kind.APPOINT: lambda: f"{body.get('admiral')} to command {fleet()}",
        Order.Kind.EMBARK: lambda: f"{fleet()}: embark {body.get('units')} unit(s) at {port(body.get('port'))}",
        Order.Kind.LAND: lambda: f"{fleet()}: land {body.get('units')} unit(s) at {port(body.get('port'))}",
    }
    if kind in texts:
        return texts[kind]()
    target = nation.name if nation is not None else body.get("nation")
    diplomacy: dict[str, str] = {
        Order.Kind.DECLARE_WAR: f"declare war on {target}",
        Order.Kind.OFFER_PEACE: f"offer peace to {target}",
        Order.Kind.PROPOSE_ALLIANCE: f"propose an alliance to {target}",
        Order.Kind.LEAVE_ALLIANCE: f"leave the alliance with {target}",
    }
    return diplomacy.get(kind, str(body))
