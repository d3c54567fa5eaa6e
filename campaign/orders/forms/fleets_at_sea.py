"""Forms of the orders for fleets at sea (RULES.md §4–§6, §9)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms

from campaign.models import Order
from campaign.orders.choices import FleetPlace, PathChoice
from campaign.orders.forms.base import OrderForm
from fleets.models import Fleet

NO_FLEET = "You have no fleet with ships afloat."


class MoveForm(OrderForm):
    kind = Order.Kind.MOVE
    title = "Move a fleet"
    group = "Fleets at sea"
    help = (
        "A path of up to 2 steps (1 with a disabled ship): an adjacent zone, entering an own or allied port "
        "of the zone, or leaving port for its zone (rules §4)."
    )
    fleet_dependent = True
    empty = {"fleet": NO_FLEET}

    def setup(self) -> None:
        places = self.choices.fleets_afloat
        paths: dict[int, list[PathChoice]] = {}

        def paths_of(place: FleetPlace) -> list[PathChoice]:
            if place.fleet.pk not in paths:
                paths[place.fleet.pk] = self.choices.move_paths(place)
            return paths[place.fleet.pk]

        # The fleet shown first is one that can move; those that cannot say so in the list.
        self.fleet_field(places, note=lambda p: "" if paths_of(p) else "cannot move now")
        chosen = self.selected_fleet(places, can_act=lambda p: bool(paths_of(p)))
        options = paths_of(chosen) if chosen is not None else []
        self.fields["path"] = forms.ChoiceField(
            label="Path",
            choices=[(p.value, p.label) for p in options],
            error_messages={"invalid_choice": "Choose a path from the list (choose the fleet first)."},
        )
        if chosen is not None and not options:
            self.why_empty["path"] = self.no_move_reason(chosen)

    @staticmethod
    def no_move_reason(place: FleetPlace) -> str:
        laid_up = [s.name for s in place.ships if s.in_ordinary]
        if laid_up and place.port is not None:
            return (
                f"{place.fleet.name} cannot move: ships in ordinary cannot leave port (rules §2) — "
                f"{', '.join(laid_up)}. Recommission them or move them to another fleet first."
            )
        return f"{place.fleet.name} has nowhere to go from {place.where}: no step its orders allow (rules §4)."

    def body(self) -> dict[str, Any]:
        return {"kind": self.kind, "fleet": self.cleaned_data["fleet"], "path": self.cleaned_data["path"].split("|")}

    @classmethod
    def initial_from_body(cls, body: Mapping[str, Any]) -> dict[str, Any]:
        return {"fleet": body.get("fleet"), "path": "|".join(body.get("path") or [])}


class PostureForm(OrderForm):
    kind = Order.Kind.POSTURE
    title = "Set a fleet's posture"
    group = "Fleets at sea"
    help = "Standing: seek battle, avoid battle, or blockade a port from its zone (rules §4)."
    empty = {"fleet": NO_FLEET}

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
        "retreat (rules §4, §5)."
    )
    empty = {"fleet": NO_FLEET}

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
    help = "Standing: the order of the fleet's line, flagship first (rules §4). Number the ships 1, 2, 3…"
    fleet_dependent = True
    empty = {"fleet": NO_FLEET}

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
    empty = {"fleet": NO_FLEET}

    def fleets(self) -> list[FleetPlace]:
        return self.choices.fleets_afloat

    def targets(self, place: FleetPlace) -> list[Any]:
        reach = self.choices.zones_in_reach(place)
        return [p for p in self.choices.enemy_ports if p.sea_zone_id in reach]

    def setup(self) -> None:
        places = self.fleets()
        targets: dict[int, list[Any]] = {p.fleet.pk: self.targets(p) for p in places}
        self.fleet_field(places, note=lambda p: "" if targets[p.fleet.pk] else "no enemy port in reach")
        chosen = self.selected_fleet(places, can_act=lambda p: bool(targets[p.fleet.pk]))
        ports = targets[chosen.fleet.pk] if chosen is not None else []
        self.port_field("port", ports, label="Port (of a nation at war, in the fleet's reach)")
        if chosen is not None and not ports:
            self.why_empty["port"] = (
                f"{chosen.fleet.name} can reach no port of a nation at war with you this turn (from {chosen.where})."
            )

    def body(self) -> dict[str, Any]:
        return {"kind": self.kind, "fleet": self.cleaned_data["fleet"], "port": self.cleaned_data["port"]}


class RunGunsForm(_PortAttackForm):
    kind = Order.Kind.RUN_GUNS
    title = "Run the guns"
    group = "Fleets at sea"
    help = (
        "Phase 5: attack a port of a nation at war, from sea in its zone — the fleet must blockade it or "
        "win a battle in its zone this turn (rules §4, §6)."
    )


class FireshipsForm(_PortAttackForm):
    kind = Order.Kind.FIRESHIPS
    title = "Fireship attack"
    group = "Fleets at sea"
    help = "Phase 5: the fleet's fireships attack the ships in an enemy port (rules §9)."
    empty = {"fleet": "None of your fleets has a fireship."}

    def fleets(self) -> list[FleetPlace]:
        return [p for p in self.choices.fleets_afloat if any(s.ship_class == "fireship" for s in p.ships)]


class SallyForm(OrderForm):
    kind = Order.Kind.SALLY
    title = "Sally against blockaders"
    group = "Fleets at sea"
    help = "A fleet in a blockaded port leaves it to fight the blockaders, without sighting (rules §4)."
    empty = {"fleet": "None of your fleets is in port."}

    def setup(self) -> None:
        self.fleet_field([p for p in self.choices.fleets_afloat if p.port is not None])

    def body(self) -> dict[str, Any]:
        return {"kind": self.kind, "fleet": self.cleaned_data["fleet"]}
