"""Random but deterministic candidate orders for a whole campaign, as the fuzz and golden tests give them.

The orders come from ``random.Random`` seeded per (campaign seed, turn, nation), and every choice
iterates the campaign's state by stable keys (zone and port keys, nation codes, fleet and ship
names), so the same state gives the same orders in any copy of the campaign. Some are meant to be
refused (an enemy port to enter, a diplomatic step that does not fit): that exercises validation.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from campaign.models import Campaign, Nation, Order, Relation, Turn
from campaign.orders.errors import OrderRefused
from campaign.orders.services import order_add
from campaign.selectors import diplomacy_for_campaign
from campaign.tasks import turn_resolve
from campaign.turn.lifecycle import turn_claim
from fleets.models import Admiral, Fleet, Ship
from ports.models import LandUnit, Port, SeaZone
from rules.ruleset import SHIP_CLASSES

NAMES = ("Achille", "Bellona", "Conqueror", "Dreadnought", "Euryalus", "Formidable", "Glory", "Hercule")


# --- the state a nation's orders are generated from ------------------------------------------------


@dataclass
class World:
    """The campaign as the open turn stands, read once, keyed by stable names."""

    campaign: Campaign
    nations: list[Nation]
    zones: dict[int, SeaZone]
    adjacent: dict[int, list[SeaZone]]
    ports_in_zone: dict[int, list[Port]]
    fleets: dict[int, list[Fleet]]  # nation id → its fleets, by name
    ships: dict[int, list[Ship]]  # fleet id → its ships afloat, in line order
    waiting_admirals: dict[int, list[Admiral]]  # nation id → active admirals without a fleet
    units: dict[tuple[int, int], int] = field(default_factory=dict)  # (nation, port) → units there
    relation: dict[frozenset[int], str] = field(default_factory=dict)

    @classmethod
    def read(cls, campaign: Campaign) -> World:
        zones = {z.pk: z for z in SeaZone.objects.filter(campaign=campaign).prefetch_related("adjacent")}
        adjacent = {pk: sorted(z.adjacent.all(), key=lambda a: a.key) for pk, z in zones.items()}
        ports_in_zone: dict[int, list[Port]] = defaultdict(list)
        for port in Port.objects.filter(campaign=campaign).order_by("key"):
            ports_in_zone[port.sea_zone_id].append(port)
        fleets: dict[int, list[Fleet]] = defaultdict(list)
        for fleet in Fleet.objects.filter(campaign=campaign).select_related("admiral").order_by("name"):
            fleets[fleet.nation_id].append(fleet)
        ships: dict[int, list[Ship]] = defaultdict(list)
        afloat = Ship.objects.filter(campaign=campaign, condition__in=Ship.AFLOAT).select_related("original_nation")
        for ship in sorted(afloat, key=lambda s: (s.line_position, s.original_nation.code, s.name)):
            assert ship.fleet_id is not None
            ships[ship.fleet_id].append(ship)
        waiting: dict[int, list[Admiral]] = defaultdict(list)
        for admiral in Admiral.objects.filter(campaign=campaign, status=Admiral.Status.ACTIVE, fleet__isnull=True):
            waiting[admiral.nation_id].append(admiral)
        units: dict[tuple[int, int], int] = defaultdict(int)
        for unit in LandUnit.objects.filter(campaign=campaign, state__in=("garrison", "ashore")):
            assert unit.port_id is not None
            units[(unit.nation_id, unit.port_id)] += 1
        diplomacy = diplomacy_for_campaign(campaign_id=campaign.pk)
        nations = list(Nation.objects.filter(campaign=campaign).order_by("code"))
        relation = {frozenset((a.pk, b.pk)): diplomacy.state(a.pk, b.pk) for a in nations for b in nations}
        return cls(
            campaign=campaign,
            nations=nations,
            zones=zones,
            adjacent=adjacent,
            ports_in_zone=ports_in_zone,
            fleets=fleets,
            ships=ships,
            waiting_admirals={k: sorted(v, key=lambda a: a.name) for k, v in waiting.items()},
            units=units,
            relation=relation,
        )

    def distance_to_enemy(self, nation: Nation) -> dict[int, int]:
        """Steps from each zone to the nearest zone holding a port of a nation at war with ``nation``."""
        frontier = [pk for pk in sorted(self.zones) if any(self.enemy(nation, p) for p in self.ports_in_zone[pk])]
        distance = dict.fromkeys(frontier, 0)
        while frontier:
            nxt = []
            for pk in frontier:
                for other in self.adjacent[pk]:
                    if other.pk not in distance:
                        distance[other.pk] = distance[pk] + 1
                        nxt.append(other.pk)
            frontier = nxt
        return distance

    def state(self, a: int, b: int) -> str:
        return self.relation[frozenset((a, b))]

    def friendly(self, nation: Nation, port: Port) -> bool:
        return port.owner_id == nation.pk or self.state(nation.pk, port.owner_id) == Relation.State.ALLIANCE

    def enemy(self, nation: Nation, port: Port) -> bool:
        return self.state(nation.pk, port.owner_id) == Relation.State.WAR


def random_path(
    rng: random.Random, world: World, nation: Nation, fleet: Fleet, *, invading: bool = False
) -> tuple[list[str], int, bool]:
    """A move of 1–2 steps: along adjacent zones, out of port, into an own or allied port (and now and
    then an enemy one, which must be refused). Returns the path and where it ends (zone id, in port)."""
    zone, in_port = fleet.sea_zone_id, fleet.port_id is not None
    path: list[str] = []
    for _ in range(rng.choice((1, 2, 2))):
        if in_port:
            path.append("sea")
            in_port = False
            continue
        ports = [p for p in world.ports_in_zone[zone] if world.friendly(nation, p) or rng.random() < 0.1]
        if ports and not invading and rng.random() < 0.3:
            path.append(f"port:{rng.choice(ports).key}")
            in_port = True
            continue
        choices = world.adjacent[zone]
        if invading:  # an army afloat heads for the nearest enemy port
            distance = world.distance_to_enemy(nation)
            if distance.get(zone) == 0:
                break
            best = min((distance.get(z.pk, 99) for z in choices), default=99)
            choices = [z for z in choices if distance.get(z.pk, 99) == best] or choices
        nxt = rng.choice(choices)
        path.append(nxt.key)
        zone = nxt.pk
    return path, zone, in_port


def fleet_orders(rng: random.Random, world: World, nation: Nation, fleet: Fleet) -> list[dict[str, Any]]:
    ships = world.ships.get(fleet.pk, [])
    if not ships:
        return []
    orders: list[dict[str, Any]] = []
    zone, in_port = fleet.sea_zone_id, fleet.port_id is not None
    transports = [s for s in ships if s.ship_class == "transport"]
    if transports:
        empty = [s for s in transports if s.cargo_id is None]
        sources = [p for p in world.ports_in_zone[zone] if world.units.get((nation.pk, p.pk))]
        if empty and sources and rng.random() < 0.8:
            port = next((p for p in sources if p.pk == fleet.port_id), None) or rng.choice(sources)
            units = min(len(empty), world.units[(nation.pk, port.pk)], rng.randint(1, 2))
            orders.append({"kind": "embark", "fleet": fleet.pk, "port": port.key, "units": units})
    roll = rng.random()
    if roll < 0.55 or (transports and roll < 0.8):
        path, zone, in_port = random_path(rng, world, nation, fleet, invading=bool(transports))
        orders.append({"kind": "move", "fleet": fleet.pk, "path": path})
    elif roll < 0.65 and in_port:
        orders.append({"kind": "sally", "fleet": fleet.pk})
    if transports and rng.random() < 0.8:
        targets = sorted(world.ports_in_zone[zone], key=lambda p: not world.enemy(nation, p))
        if targets:
            land_at = targets[0] if rng.random() < 0.7 else rng.choice(targets)
            orders.append({"kind": "land", "fleet": fleet.pk, "port": land_at.key, "units": rng.randint(1, 2)})
    enemy_ports = [p for p in world.ports_in_zone[zone] if world.enemy(nation, p)]
    if rng.random() < 0.4:
        if enemy_ports and rng.random() < 0.6:
            orders.append(
                {"kind": "posture", "fleet": fleet.pk, "posture": "blockade", "port": rng.choice(enemy_ports).key}
            )
        else:
            orders.append({"kind": "posture", "fleet": fleet.pk, "posture": rng.choice(("seek", "avoid"))})
    if rng.random() < 0.15:
        friendly = [p for p in world.ports_in_zone[zone] if world.friendly(nation, p)]
        orders.append(
            {
                "kind": "battle_orders",
                "fleet": fleet.pk,
                "after_battle": rng.choice(("auto", "continue", "evade")),
                "retreat_port": rng.choice(friendly).key if friendly and rng.random() < 0.5 else None,
                "retreat_zone": rng.choice(world.adjacent[zone]).key if rng.random() < 0.5 else None,
            }
        )
    if rng.random() < 0.1:
        line = [s.pk for s in ships]
        rng.shuffle(line)
        orders.append({"kind": "line_order", "fleet": fleet.pk, "ships": line})
    if enemy_ports and not in_port and rng.random() < 0.5:
        target = rng.choice(enemy_ports).key
        if any(s.ship_class == "fireship" for s in ships) and rng.random() < 0.7:
            orders.append({"kind": "fireships", "fleet": fleet.pk, "port": target})
        orders.append({"kind": "run_guns", "fleet": fleet.pk, "port": target})
    for ship in ships:
        in_own_port = fleet.port_id is not None
        if ship.condition != Ship.Condition.READY and in_own_port and rng.random() < 0.7:
            orders.append({"kind": "repair", "ship": ship.pk, "on": rng.random() < 0.9})
        elif in_own_port and rng.random() < 0.05:
            orders.append({"kind": "recommission" if ship.in_ordinary else "lay_up", "ship": ship.pk})
    return orders


def organisation_orders(rng: random.Random, world: World, nation: Nation, turn: int) -> list[dict[str, Any]]:
    """Transfers, new fleets, merges and appointments between fleets in one place."""
    orders: list[dict[str, Any]] = []
    by_place: dict[tuple[int, int | None], list[Fleet]] = defaultdict(list)
    for fleet in world.fleets.get(nation.pk, []):
        if world.ships.get(fleet.pk):
            by_place[(fleet.sea_zone_id, fleet.port_id)].append(fleet)
    port_key = {p.pk: p.key for ports in world.ports_in_zone.values() for p in ports}
    for place in sorted(by_place, key=lambda p: (world.zones[p[0]].key, port_key.get(p[1] or 0, ""))):
        fleets = by_place[place]
        first = fleets[0]
        if len(fleets) >= 2 and rng.random() < 0.3:
            a, b = rng.sample(fleets, 2)
            if rng.random() < 0.5:
                orders.append({"kind": "merge", "fleet": a.pk, "into": b.pk})
            else:
                moving = [s.pk for s in world.ships[a.pk] if rng.random() < 0.5][:3]
                if moving:
                    orders.append({"kind": "transfer", "ships": moving, "to_fleet": b.pk})
        if len(world.ships[first.pk]) >= 2 and rng.random() < 0.15:
            split = [s.pk for s in world.ships[first.pk][1:] if rng.random() < 0.5]
            if split:
                orders.append({"kind": "form_fleet", "ships": split, "name": f"Squadron {turn}-{rng.randint(1, 99)}"})
    waiting = world.waiting_admirals.get(nation.pk, [])
    fleets = [f for f in world.fleets.get(nation.pk, []) if world.ships.get(f.pk)]
    for admiral in waiting:
        if fleets and rng.random() < 0.6:
            same_place = [f for f in fleets if admiral.port_id is not None and f.port_id == admiral.port_id]
            orders.append({"kind": "appoint", "admiral": admiral.name, "fleet": rng.choice(same_place or fleets).pk})
    return orders


def economy_orders(rng: random.Random, world: World, nation: Nation) -> list[dict[str, Any]]:
    orders: list[dict[str, Any]] = []
    own = [p for ports in world.ports_in_zone.values() for p in ports if p.owner_id == nation.pk]
    own.sort(key=lambda p: p.key)
    yards = [p for p in own if p.dockyard]
    # Transports and fireships (none at sea in 1805) for landings, sieges and fireship attacks; big
    # classes often, to press on the quota and the four-decker limit.
    classes = [*(["transport"] * 2 if rng.random() < 0.5 else []), *(["fireship"] if rng.random() < 0.3 else [])]
    classes += [rng.choice(("four-decker", "1st", "1st", "2nd", *SHIP_CLASSES)) for _ in range(rng.randint(0, 3))]
    yard = rng.choice(yards) if yards else None
    for ship_class in classes:
        if yard is None:
            break
        name = f"{rng.choice(NAMES)} {rng.randint(1, 40)}"
        port = yard if rng.random() < 0.7 else rng.choice(yards)
        orders.append({"kind": "lay_down", "class": ship_class, "name": name, "port": port.key})
    if own and rng.random() < 0.5:
        unit = "siege_train" if rng.random() < 0.3 else "land_unit"
        orders.append({"kind": "raise", "unit": unit, "port": (yard or rng.choice(own)).key})
    return orders


def diplomacy_orders(rng: random.Random, world: World, nation: Nation) -> list[dict[str, Any]]:
    if rng.random() >= 0.3:
        return []
    other = rng.choice([n for n in world.nations if n.pk != nation.pk])
    state = world.state(nation.pk, other.pk)
    by_state: dict[str, tuple[str, ...]] = {
        Relation.State.PEACE: ("declare_war", "declare_war", "propose_alliance"),
        Relation.State.WAR: ("offer_peace",),
        Relation.State.ALLIANCE: ("leave_alliance", "declare_war"),
    }
    kinds = by_state[state]
    kind = rng.choice(kinds)
    if rng.random() < 0.1:
        kind = rng.choice(("declare_war", "offer_peace", "propose_alliance", "leave_alliance"))  # maybe refused
    return [{"kind": kind, "nation": other.code}]


def nation_orders(world: World, nation: Nation, turn: int) -> list[dict[str, Any]]:
    rng = random.Random(f"{world.campaign.seed}/{turn}/{nation.code}")
    orders = diplomacy_orders(rng, world, nation)
    orders += organisation_orders(rng, world, nation, turn)
    for fleet in world.fleets.get(nation.pk, []):
        orders += fleet_orders(rng, world, nation, fleet)
    orders += economy_orders(rng, world, nation)
    return orders


def submit_random_orders(campaign: Campaign) -> tuple[int, int]:
    """Every nation's candidate orders through ``order_add``; returns (accepted, refused)."""
    turn = Turn.objects.get(campaign=campaign, status=Turn.Status.OPEN)
    world = World.read(campaign)
    accepted = refused = 0
    for nation in world.nations:
        for body in nation_orders(world, nation, turn.number):
            try:
                order_add(nation=nation, body=body)
            except OrderRefused as refusal:
                assert refusal.message.startswith("Order "), refusal.message  # it names the order
                refused += 1
            else:
                accepted += 1
    # A refused order left nothing behind: the stored lists are exactly the accepted orders.
    assert Order.objects.filter(turn=turn).count() == accepted
    return accepted, refused


def resolve_open_turn(campaign: Campaign) -> Turn:
    turn = Turn.objects.get(campaign=campaign, status=Turn.Status.OPEN)
    assert turn_claim(turn_id=turn.pk, now=timezone.now())
    assert turn_resolve(turn.pk) == "done"
    # A second sweep or a duplicate delivery finds nothing to claim or resolve.
    assert not turn_claim(turn_id=turn.pk, now=timezone.now())
    assert turn_resolve(turn.pk) == "held"
    turn.refresh_from_db()
    assert turn.status == Turn.Status.RESOLVED
    return turn
