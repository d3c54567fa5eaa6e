"""A deterministic randomized campaign (issue 4 "How it will be checked"): europe-1805 played for six
turns through orders, every nation giving a random list of candidate orders each turn (refused ones
are dropped: that exercises validation too), with every invariant checked after every turn —
nothing resolved twice, treasuries equal to their ledgers, ships and land units conserved, the
quota never exceeded by building — and turn 4 re-run from an export giving the same result.

The orders come from ``random.Random`` seeded per (campaign seed, turn, nation), and every choice
iterates the campaign's state by stable keys (zone and port keys, nation codes, fleet and ship
names), so the same state gives the same orders in any copy of the campaign.
"""

from __future__ import annotations

import json
import os
import random
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.utils import timezone

from campaign.backup import campaign_export, campaign_import
from campaign.models import Campaign, LedgerEntry, Nation, Order, Relation, Turn, TurnPhase, TurnReport
from campaign.orders.validation import OrderRefused, order_add
from campaign.scenario import scenario_load
from campaign.selectors import diplomacy_for_campaign
from campaign.tasks import turn_resolve
from campaign.turn.lifecycle import turn_claim
from campaign.turn.phases import PHASES
from fleets.models import Admiral, Fleet, Ship
from ports.models import LandUnit, Port, SeaZone
from rules.ruleset import BIG_CLASSES, SHIP_CLASSES, SOL_CLASSES
from tests.campaign.test_invariants import comparable

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

SEED = int(os.environ.get("FUZZ_SEED", "1805"))
TURNS = 6
RERUN_TURN = 4
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


# --- the invariants ----------------------------------------------------------------------------------


@dataclass
class History:
    """What must never be lost from one turn to the next."""

    ship_nation: dict[int, int] = field(default_factory=dict)  # ship id → original nation
    units: set[int] = field(default_factory=set)
    lost_units: set[int] = field(default_factory=set)


def quota_counts(nation: Nation) -> tuple[int, int]:
    """RULES.md §1: (sol, big) — sol owned in any condition but sunk, big not captured."""
    ships = Ship.objects.filter(nation=nation).exclude(condition__in=Ship.GONE)
    sol = ships.filter(ship_class__in=SOL_CLASSES).count()
    big = ships.filter(ship_class__in=BIG_CLASSES, original_nation=nation).count()
    return sol, big


def check_turn(campaign: Campaign, turn: Turn, history: History, counts_before: dict[int, tuple[int, int]]) -> None:
    nations = list(Nation.objects.filter(campaign=campaign).order_by("code"))
    ruleset = campaign.ruleset
    # Every phase recorded exactly once.
    phases = list(TurnPhase.objects.filter(turn=turn).order_by("phase").values_list("phase", flat=True))
    assert phases == sorted(PHASES), f"turn {turn.number}: phases {phases}"
    # Treasury == Σ ledger ≥ 0.
    for nation in nations:
        amounts = LedgerEntry.objects.filter(nation=nation).values_list("amount", flat=True)
        assert nation.treasury == sum(amounts) >= 0, f"turn {turn.number}: {nation.code} treasury vs ledger"
    # Ships conserved: none vanishes, none changes its original nation; afloat ones in a fleet, lost ones not.
    ships = {s.pk: s for s in Ship.objects.filter(campaign=campaign)}
    missing = set(history.ship_nation) - set(ships)
    assert not missing, f"turn {turn.number}: ships vanished: {sorted(missing)}"
    for pk, original in history.ship_nation.items():
        assert ships[pk].original_nation_id == original, f"turn {turn.number}: ship {pk} changed original nation"
    for ship in ships.values():
        if ship.condition in Ship.AFLOAT:
            assert ship.fleet_id is not None, f"turn {turn.number}: {ship} afloat without a fleet"
        else:
            assert ship.fleet_id is None, f"turn {turn.number}: {ship} ({ship.condition}) still in a fleet"
        history.ship_nation.setdefault(ship.pk, ship.original_nation_id)
    # Quota never exceeded by building: each big keel of this turn, at the moment it was laid down
    # (phase 2, listed order; only phase 1 — diplomacy — comes before it), with the new keel counted.
    keels = Ship.objects.filter(campaign=campaign, laid_down_turn=turn.number).order_by("id")
    running = dict(counts_before)
    for keel in keels:
        sol, big = running[keel.original_nation_id]
        sol += keel.ship_class in SOL_CLASSES
        big += keel.ship_class in BIG_CLASSES
        running[keel.original_nation_id] = (sol, big)
        if keel.ship_class in BIG_CLASSES:
            nation = next(n for n in nations if n.pk == keel.original_nation_id)
            pct = ruleset.quota_percent(nation.navy, turn.year)
            assert 100 * big <= pct * sol, (
                f"turn {turn.number}: {nation.code} laid down {keel.name} ({keel.ship_class}) over quota: "
                f"100×{big} > {pct}×{sol}"
            )
    for nation in nations:
        four = Ship.objects.filter(nation=nation, original_nation=nation, ship_class="four-decker").exclude(
            condition__in=Ship.GONE
        )
        assert four.count() <= ruleset["quota.four_decker_limit"], f"turn {turn.number}: {nation.code} four-deckers"
    # Land units conserved: never deleted; once lost, lost for good.
    units = dict(LandUnit.objects.filter(campaign=campaign).values_list("pk", "state"))
    assert history.units <= set(units), f"turn {turn.number}: land units deleted"
    relost = {pk for pk in history.lost_units if units[pk] != LandUnit.State.LOST}
    assert not relost, f"turn {turn.number}: lost land units came back: {relost}"
    history.units |= set(units)
    history.lost_units |= {pk for pk, state in units.items() if state == LandUnit.State.LOST}
    # Every order carried out or skipped with a reason.
    for order in Order.objects.filter(turn=turn):
        assert order.outcome in (Order.Outcome.DONE, Order.Outcome.SKIPPED), f"turn {turn.number}: {order} pending"
        assert order.outcome_note, f"turn {turn.number}: {order} {order.outcome} without a note"
    # Every nation has its report.
    reported = set(TurnReport.objects.filter(turn=turn).values_list("nation__code", flat=True))
    assert reported == {n.code for n in nations}, f"turn {turn.number}: reports for {sorted(reported)}"


def play_turn(campaign: Campaign, history: History) -> tuple[Turn, int, int]:
    counts = {n.pk: quota_counts(n) for n in Nation.objects.filter(campaign=campaign)}
    accepted, refused = submit_random_orders(campaign)
    turn = resolve_open_turn(campaign)
    check_turn(campaign, turn, history, counts)
    return turn, accepted, refused


def test_six_random_turns_of_europe_keep_every_invariant_and_re_run_identically() -> None:
    campaign = scenario_load(name="europe-1805", slug="fuzz", seed=SEED)
    history = History()
    check_start(campaign, history)
    totals = [0, 0]
    expected: dict | None = None
    for number in range(1, TURNS + 1):
        if number == RERUN_TURN:
            expected = rerun(campaign)
        turn, accepted, refused = play_turn(campaign, history)
        assert turn.number == number
        if number == RERUN_TURN:
            got = same_run(campaign_export(campaign=campaign))
            assert got == expected, "the original resolved it otherwise: " + differences(got, expected)
        totals[0] += accepted
        totals[1] += refused
    # The fuzz must exercise both sides of validation, and the quota check must have keels to check.
    assert totals[0] > 100 and totals[1] > 10, totals
    big_keels = Ship.objects.filter(campaign=campaign, laid_down_turn__gte=1, ship_class__in=BIG_CLASSES)
    assert big_keels.exists()
    assert Turn.objects.filter(campaign=campaign, status=Turn.Status.RESOLVED).count() == TURNS


def check_start(campaign: Campaign, history: History) -> None:
    for ship in Ship.objects.filter(campaign=campaign):
        history.ship_nation[ship.pk] = ship.original_nation_id
    history.units = set(LandUnit.objects.filter(campaign=campaign).values_list("pk", flat=True))
    for nation in Nation.objects.filter(campaign=campaign):
        four = Ship.objects.filter(nation=nation, original_nation=nation, ship_class="four-decker")
        assert four.exclude(condition__in=Ship.GONE).count() <= 1


#: Database ids quoted in report texts ("ship 788 is not an afloat ship of FR"): they differ by copy.
QUOTED_ID = re.compile(r"\b(ships?|fleets?|to fleet|into fleet) \d+")


def same_run(document: dict) -> dict:
    """``comparable`` without the wall-clock times of the submissions, the campaign's name, and the
    database ids quoted in texts."""
    doc = json.loads(QUOTED_ID.sub(r"\1 #", json.dumps(comparable(document))))
    doc["campaign"].pop("name")
    for state in doc["nation_turns"]:
        state.pop("submitted_at")
    return doc


def rerun(campaign: Campaign) -> dict:
    """Turn RERUN_TURN from an export, twice, with orders generated from the same seed against each
    copy: both resolve identically (and the original, resolving it next, must match them)."""
    document = json.loads(json.dumps(campaign_export(campaign=campaign)))
    copies = [campaign_import(document=document, slug=f"fuzz-rerun-{i}") for i in (1, 2)]
    for copy in copies:
        submit_random_orders(copy)
        turn = resolve_open_turn(copy)
        assert turn.number == RERUN_TURN
    first, second = (same_run(campaign_export(campaign=c)) for c in copies)
    assert Order.objects.filter(campaign=copies[0], turn__number=RERUN_TURN).exists()
    assert first == second, "two copies resolved it differently: " + differences(first, second)
    return first


def differences(a: Any, b: Any, path: str = "", out: list[str] | None = None) -> str:
    """The first few places where two documents differ, for the failure message."""
    out = [] if out is None else out
    if len(out) >= 12:
        return "; ".join(out)
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                out.append(f"{path}.{key} only on one side")
            else:
                differences(a[key], b[key], f"{path}.{key}", out)
    elif isinstance(a, list | tuple) and isinstance(b, list | tuple):
        if len(a) != len(b):
            out.append(f"{path}: {len(a)} != {len(b)} items")
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            differences(x, y, f"{path}[{i}]", out)
    elif a != b:
        out.append(f"{path}: {str(a)[:300]!r} != {str(b)[:300]!r}")
    return "; ".join(out)
