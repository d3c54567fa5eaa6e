"""Movement and contacts of phase 3, and the engagements they leave for phase 4 (RULES.md §4
"Zones and ports", "Movement", "Posture", "Sides", "Sighting", "Battle or not", "Sally",
"Besieged-port engagement", "Hostile fleets in one port"; §2 in ordinary; §3 "Processing order",
"Strategic dice", "Fog of war").

The phase loads the campaign's fleets once into a :class:`SeaWorld`, moves them in memory step by
step, resolves contacts after each step, and writes every fleet's place back at the end.

Movement, by rule:

* A move order is a path of at most ``movement.max_steps`` steps (``movement.max_steps_with_disabled``
  if the fleet has a disabled ship); the rest of a longer path is not sailed and is reported. A step
  is an adjacent zone's key, ``"sea"`` (leave the port into its zone) or ``"port:<key>"`` (enter an
  own or allied port in the current zone). A step that is impossible when it comes up (not
  adjacent, a port of a nation neither own nor allied, leaving port while at sea…) is skipped with
  the rest of the path, and reported.
* Steps are simultaneous: every fleet takes step 1 from where it stood, then contacts are resolved;
  then step 2. Fleets that swap zones in one step do not meet (contacts look only at where fleets
  are after the step).
* Leaving an own or allied port sets ``Fleet.left_port_turn`` to this turn (§8 supply).
* Ships in ordinary cannot leave port (§2). House resolution: when a fleet with some ships in
  ordinary sails, those ships stay behind in the port, joining the nation's lowest-id fleet there
  that is not sailing, or a new fleet named after the port; a fleet whose every ship is in ordinary
  does not sail (the order is skipped and reported).
* Port capacity (§4): at the end of the phase at most ``capacity × movement.port_ships_per_capacity``
  ships afloat (all nations) may be in a port. Ships already there count first; fleets that
  entered this turn are admitted in processing order (nations by code, orders by position), and a
  fleet whose entry would exceed the limit stays at sea in the zone.

Contacts, by rule:

* After step 1 in every zone where nations at war are at sea; after step 2 in the zones a fleet
  entered in step 2 (by moving there or leaving a port into it). A fleet that entered a port in the
  step is still at sea for that step's contacts (sighted at ``sighting.port_move``), and stays at
  sea if it is caught. Zones are taken in key order; each zone and step has its own dice,
  ``ctx.dice("<zone>:<step>")``, logged with place = the zone's key.
* Sides: :func:`sides_split` (§4 "Sides"). Sides are ordered by their lead nation's code: sighting
  (each seeking side against the other), then intercept.
* Battle if both sides seek and either sighted; intercept (opposed d6) if only one seeks and it
  sighted; a side with no ship able to form a line caught by one that has is captured whole (an
  engagement of kind ``capture``). Every fleet of both sides stops there: the rest of its path is
  not sailed, and it takes no part in later contacts this turn (it has a battle to fight).
* Posture: a side seeks if any of its fleets seeks (seek or blockade). House resolution: a fleet of
  transports only never seeks (avoid is its default, and it cannot fight).
* Fog of war: a nation's report shows what it sighted (class and condition of each ship), whom it
  met, the rest of a path it could not sail, and where its fleets (and its allies') ended the phase.
  A sighting that failed is not reported: the searcher saw nothing.

Phase 4's own engagements are recorded at the end of the phase, after the at-sea ones of their
zone, port by port in key order: hostile fleets in one port, then sallies, then the besieged-port
engagement (see :func:`port_engagements_plan`).

House resolutions for cases the rules leave open:

* A fleet already committed to a battle in step 1 takes no part in step-2 contacts, so a zone can
  see a second battle (step 2's newcomers against the fleets not yet engaged).
* When nations at war do not split into two sides, nations left out of the split stay out of that
  zone's contacts for the rest of the turn (§4 "the rest stay out this turn").
* If either side contains a fleet that entered or left a port in the step, that side is sighted at
  ``sighting.port_move``.
* "Escorts transports": the target side has transports and at least one other ship.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from battles.engagements import (
    FleetRank,
    able_to_form_a_line,
    ship_line_key,
    side_order,
    sol_count,
)
from battles.engine import ContactDie, ContactSide, intercept_roll, sighting_roll
from battles.models import Engagement
from campaign.models import Nation, Order
from campaign.selectors import Diplomacy, diplomacy_for_campaign
from campaign.turn.runner import PhaseContext
from fleets.models import Admiral, Fleet, Ship
from ports.models import LandUnit, Port, SeaZone
from rules.ruleset import LIGHT_CLASSES, SOL_CLASSES
from rules.strategic_log import StrategicDie
from rules.supply import retreat_step

SEA = "sea"
PORT_PREFIX = "port:"


@dataclass
class Mover:
    """One fleet during phase 3: the model (moved in memory, saved at the end) and its ships."""

    fleet: Fleet
    ships: list[Ship]
    start_port_id: int | None
    order: Order | None = None
    path: list[str] = field(default_factory=list)
    sailed: list[str] = field(default_factory=list)
    left_port: bool = False
    port_step: int = 0
    entered_port: bool = False
    engaged: bool = False
    halted: bool = False

    @property
    def seeks(self) -> bool:
        """§4 posture: seek, or blockade (counts as seek); a fleet of transports only never seeks."""
        return self.fleet.posture in (Fleet.Posture.SEEK, Fleet.Posture.BLOCKADE) and any(
            s.ship_class != "transport" for s in self.ships
        )

    @property
    def sol(self) -> int:
        return sol_count(self.ships)

    def at_sea_in(self, zone_id: int, step: int) -> bool:
        """At sea in the zone for the contacts of ``step`` (a fleet entering a port there this step is)."""
        if self.fleet.sea_zone_id != zone_id or not self.ships:
            return False
        return self.fleet.port_id is None or (self.entered_port and self.port_step == step)


@dataclass
class Party:
    """One side of a contact or of a planned engagement: its nations and fleets, lead fleet first."""

    nations: list[int]
    movers: list[Mover]
    in_port: bool = False

    @property
    def lead(self) -> Mover:
        return self.movers[0]

    @property
    def ships(self) -> list[Ship]:
        return [s for m in self.movers for s in m.ships]

    @property
    def seeks(self) -> bool:
        return any(m.seeks for m in self.movers)


@dataclass
class EngagementPlan:
    """An engagement to record for phase 4 (see :class:`~battles.models.Engagement`)."""

    kind: str
    zone: SeaZone
    parties: list[Party]
    step: int = 0
    port: Port | None = None
    interceptor: int | None = None
    sighted: tuple[bool | None, bool | None] = (None, None)
    context: dict[str, Any] = field(default_factory=dict)


@dataclass
class SeaWorld:
    """Everything phase 3 reads, loaded once: zones and their graph, ports, nations, relations,
    admirals and every fleet with its afloat ships (in line order)."""

    ctx: PhaseContext
    zones: dict[int, SeaZone]
    zones_by_key: dict[str, SeaZone]
    graph: dict[str, set[str]]
    ports: dict[int, Port]
    ports_by_key: dict[str, Port]
    nations: dict[int, Nation]
    diplomacy: Diplomacy
    admirals: dict[int, Admiral]
    movers: dict[int, Mover]
    plans: list[EngagementPlan] = field(default_factory=list)
    out: set[tuple[int, int]] = field(default_factory=set)

    def code(self, nation_id: int) -> str:
        return self.nations[nation_id].code

    def friendly(self, a: int, b: int) -> bool:
        return self.diplomacy.allied(a, b)

    def own_port_zones(self, nation_id: int) -> list[str]:
        return sorted({self.zones[p.sea_zone_id].key for p in self.ports.values() if p.owner_id == nation_id})

    def admiral_grade(self, fleet: Fleet) -> str | None:
        admiral = self.admirals.get(fleet.admiral_id) if fleet.admiral_id is not None else None
        return admiral.grade if admiral is not None else None

    def party(self, movers: Iterable[Mover], *, in_port: bool = False) -> Party:
        """The movers as a side: lead fleet first, then by descending SOL (§4)."""
        listed = list(movers)
        by_id = {m.fleet.pk: m for m in listed}
        order = side_order(FleetRank(m.fleet.pk, m.sol, self.admiral_grade(m.fleet)) for m in listed)
        nations = sorted({m.fleet.nation_id for m in listed}, key=self.code)
        return Party(nations, [by_id[i] for i in order], in_port)

    def lead_code(self, party: Party) -> str:
        return self.code(party.lead.fleet.nation_id)

    def label(self, party: Party) -> str:
        return "/".join(self.code(n) for n in party.nations)

    def codes(self, party: Party) -> list[str]:
        return [self.code(n) for n in party.nations]

    def friends_of(self, nation_id: int) -> list[str]:
        """The nation and its allies: who sees its forces (§3 fog of war)."""
        return sorted(self.code(n) for n in self.nations if self.friendly(nation_id, n))


def sea_world_load(ctx: PhaseContext) -> SeaWorld:
    campaign = ctx.campaign
    zones = {z.pk: z for z in SeaZone.objects.filter(campaign=campaign)}
    graph: dict[str, set[str]] = {z.key: set() for z in zones.values()}
    through = SeaZone.adjacent.through.objects.filter(from_seazone__campaign=campaign)
    for a, b in through.values_list("from_seazone_id", "to_seazone_id"):
        graph[zones[a].key].add(zones[b].key)
        graph[zones[b].key].add(zones[a].key)
    ports = {p.pk: p for p in Port.objects.filter(campaign=campaign)}
    nations = {n.pk: n for n in Nation.objects.filter(campaign=campaign)}
    admirals = {a.pk: a for a in Admiral.objects.filter(campaign=campaign, status=Admiral.Status.ACTIVE)}
    key = ship_line_key(ctx.ruleset)
    ships: dict[int, list[Ship]] = defaultdict(list)
    rows = Ship.objects.filter(campaign=campaign, condition__in=Ship.AFLOAT, fleet__isnull=False)
    for ship in sorted(rows, key=key):
        assert ship.fleet_id is not None
        ships[ship.fleet_id].append(ship)
    movers = {
        f.pk: Mover(f, ships.get(f.pk, []), f.port_id) for f in Fleet.objects.filter(campaign=campaign).order_by("id")
    }
    return SeaWorld(
        ctx=ctx,
        zones=zones,
        zones_by_key={z.key: z for z in zones.values()},
        graph=graph,
        ports=ports,
        ports_by_key={p.key: p for p in ports.values()},
        nations=nations,
        diplomacy=diplomacy_for_campaign(campaign_id=campaign.pk),
        admirals=admirals,
        movers=movers,
    )


# --- movement ------------------------------------------------------------------------------------


@dataclass
class MoveNote:
    """What became of one move order: ``skipped`` (nothing could be done) or a note for ``done``."""

    order: Order
    skipped: bool
    note: str


def fleets_move(world: SeaWorld, orders: Sequence[Order]) -> list[MoveNote]:
    """Carry out the move orders (§4 "Movement") and resolve contacts after each step.

    ``orders`` come in processing order. Returns the outcome of each order for the caller to mark;
    contacts leading to a fight are appended to ``world.plans``."""
    ruleset = world.ctx.ruleset
    notes: dict[int, MoveNote] = {}
    moving: list[Mover] = []
    for order in orders:
        reason = _order_attach(world, order)
        if reason is not None:
            notes[order.pk] = MoveNote(order, True, reason)
            continue
        mover = world.movers[int(order.body["fleet"])]
        moving.append(mover)
        limit = ruleset[
            "movement.max_steps_with_disabled"
            if any(s.condition == Ship.Condition.DISABLED for s in mover.ships)
            else "movement.max_steps"
        ]
        if len(mover.path) > limit:
            cut = mover.path[limit:]
            mover.path = mover.path[:limit]
            why = "it has a disabled ship" if limit < ruleset["movement.max_steps"] else "the most a move order allows"
            world.ctx.report(
                [world.code(mover.fleet.nation_id)],
                f"{mover.fleet.name} may sail {limit} step(s) ({why}): {', '.join(cut)} not sailed.",
                fleet=mover.fleet.pk,
            )
    for step in (1, 2):
        entered: set[int] = set()
        for mover in moving:
            mover.entered_port = False
            if mover.halted or mover.engaged or len(mover.path) < step:
                continue
            token = mover.path[step - 1]
            zone_entered, problem = _step_take(world, mover, token, step)
            if problem is not None:
                mover.halted = True
                rest = mover.path[step - 1 :]
                world.ctx.report(
                    [world.code(mover.fleet.nation_id)],
                    f"{mover.fleet.name} could not sail {', '.join(rest)}: {problem}.",
                    fleet=mover.fleet.pk,
                )
                if not mover.sailed and mover.order is not None:
                    notes[mover.order.pk] = MoveNote(mover.order, True, problem)
                continue
            mover.sailed.append(token)
            if zone_entered is not None:
                entered.add(zone_entered)
        if step == 1:
            zone_ids = {m.fleet.sea_zone_id for m in world.movers.values() if m.at_sea_in(m.fleet.sea_zone_id, step)}
        else:
            zone_ids = entered
        for zone in sorted((world.zones[z] for z in zone_ids), key=lambda z: z.key):
            contacts_resolve(world, zone, step)
        for mover in moving:
            if mover.engaged and mover.entered_port and mover.port_step == step:
                mover.fleet.port_id = None  # caught on its way in: it stays at sea (§4)
            mover.entered_port = False
    for mover in moving:
        assert mover.order is not None
        if mover.order.pk in notes:
            continue
        where = _place_name(world, mover.fleet)
        text = f"sailed {' → '.join(mover.sailed)}" if mover.sailed else "did not sail"
        if mover.engaged and len(mover.sailed) < len(mover.path):
            text += f"; stopped by the enemy, {', '.join(mover.path[len(mover.sailed) :])} not sailed"
        notes[mover.order.pk] = MoveNote(mover.order, False, f"{text}; now {where}")
    return [notes[o.pk] for o in orders if o.pk in notes]


def _order_attach(world: SeaWorld, order: Order) -> str | None:
    """Check a move order against the fleet as it is now; None if it can be sailed."""
    body = order.body
    try:
        mover = world.movers[int(body.get("fleet"))]
    except (KeyError, TypeError, ValueError):
        return f"fleet {body.get('fleet')!r} does not exist"
    fleet = mover.fleet
    if fleet.nation_id != order.nation_id:
        return f"{fleet.name} is not one of your fleets"
    path = body.get("path")
    if not isinstance(path, list) or not path or not all(isinstance(t, str) for t in path):
        return "the order has no path"
    if mover.order is not None:
        return f"{fleet.name} already has a move order"
    if not mover.ships:
        return f"{fleet.name} has no ships"
    if fleet.port_id is not None and path[0] == SEA:
        laid_up = [s for s in mover.ships if s.in_ordinary]
        if len(laid_up) == len(mover.ships):
            return f"every ship of {fleet.name} is laid up in ordinary and cannot leave port"
        if laid_up:
            _leave_behind(world, mover, laid_up)
    mover.order = order
    mover.path = list(path)
    return None


def _leave_behind(world: SeaWorld, mover: Mover, ships: list[Ship]) -> None:
    """§2: ships in ordinary cannot leave port; they stay in it (module docstring)."""
    fleet = mover.fleet
    port = world.ports[fleet.port_id] if fleet.port_id is not None else None
    assert port is not None
    staying = [
        m
        for m in world.movers.values()
        if m is not mover and m.fleet.port_id == port.pk and m.fleet.nation_id == fleet.nation_id and m.order is None
    ]
    if staying:
        keeper = min(staying, key=lambda m: m.fleet.pk)
    else:
        nation = world.nations[fleet.nation_id]
        new = Fleet.objects.create(
            campaign_id=fleet.campaign_id,
            nation_id=fleet.nation_id,
            name=free_fleet_name(campaign_id=fleet.campaign_id, nation_id=fleet.nation_id, base=port.name),
            sea_zone_id=port.sea_zone_id,
            port=port,
            crew=nation.crew,
            left_port_turn=fleet.left_port_turn,
            created_turn=world.ctx.turn.number,
        )
        keeper = Mover(new, [], port.pk)
        world.movers[new.pk] = keeper
    top = max((s.line_position for s in keeper.ships), default=0)
    for k, ship in enumerate(ships, start=1):
        ship.fleet = keeper.fleet
        ship.line_position = top + k
    Ship.objects.bulk_update(ships, ["fleet", "line_position"])
    keeper.ships.extend(ships)
    mover.ships = [s for s in mover.ships if s not in ships]
    world.ctx.report(
        [world.code(fleet.nation_id)],
        f"{len(ships)} ship(s) of {fleet.name} in ordinary stayed in {port.name} with {keeper.fleet.name}.",
        fleet=fleet.pk,
    )


def free_fleet_name(*, campaign_id: int, nation_id: int, base: str) -> str:
    """``base``, or ``base 2``, ``base 3``… — the first name the nation has not given a fleet."""
    taken = set(Fleet.objects.filter(campaign_id=campaign_id, nation_id=nation_id).values_list("name", flat=True))
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base} {n}"
    return name


def _step_take(world: SeaWorld, mover: Mover, token: str, step: int) -> tuple[int | None, str | None]:
    """One step (§4). Returns (zone entered, None) or (None, why it is impossible)."""
    fleet = mover.fleet
    zone = world.zones[fleet.sea_zone_id]
    if token == SEA:
        if fleet.port_id is None:
            return None, f"it is already at sea in {zone.name}"
        port = world.ports[fleet.port_id]
        fleet.port_id = None
        mover.left_port = True
        mover.port_step = step
        if world.friendly(fleet.nation_id, port.owner_id):
            fleet.left_port_turn = world.ctx.turn.number  # §8 supply (c)
        return zone.pk, None
    if token.startswith(PORT_PREFIX):
        key = token[len(PORT_PREFIX) :]
        entered = world.ports_by_key.get(key)
        if fleet.port_id is not None:
            return None, "it is in port: its first step must be to sea"
        if entered is None:
            return None, f"there is no port {key!r}"
        port = entered
        if port.sea_zone_id != zone.pk:
            return None, f"{port.name} is not in {zone.name}"
        if not world.friendly(fleet.nation_id, port.owner_id):
            owner = world.code(port.owner_id)
            return None, f"{port.name} belongs to {owner}, neither own nor allied"
        fleet.port_id = port.pk
        mover.entered_port = True
        mover.port_step = step
        return None, None
    target = world.zones_by_key.get(token)
    if fleet.port_id is not None:
        return None, "it is in port: its first step must be to sea"
    if target is None:
        return None, f"there is no sea zone {token!r}"
    if token not in world.graph[zone.key]:
        return None, f"{target.name} is not adjacent to {zone.name}"
    fleet.sea_zone_id = target.pk
    return target.pk, None


# --- contacts ------------------------------------------------------------------------------------


def sides_split(
    nations: Iterable[int], *, sol: dict[int, int], code: dict[int, str], diplomacy: Diplomacy
) -> tuple[list[int], list[int]] | None:
    """§4 "Sides": the two sides of the nations present, or None if no two of them are at war.

    "When the nations at war there do not split into two sides, side 1 is the nation with most SOL
    there (ties: lower code) and its allies; side 2 the nations at war with it and their allies,
    leaving out any nation allied to side 1 or at war with another side-2 nation; the rest stay out".
    Nations are taken by descending SOL then code; an ally joins a side only if it is at war with
    the other side (§10: allies "are never dragged into each other's wars"). With two nations at
    war, or two alliances at war, this is the natural split.
    """
    present = sorted(set(nations), key=lambda n: (-sol.get(n, 0), code[n]))
    warring = [n for n in present if any(diplomacy.at_war(n, m) for m in present)]
    if not warring:
        return None
    lead = warring[0]
    one: list[int] = [lead]
    two: list[int] = []
    for n in present:
        if n == lead or not diplomacy.at_war(n, lead):
            continue
        if any(diplomacy.allied(n, m) for m in one) or any(diplomacy.at_war(n, m) for m in two):
            continue
        two.append(n)
    if not two:
        return None
    grown = True
    while grown:
        grown = False
        for n in present:
            if n in one or n in two:
                continue
            for mine, theirs in ((one, two), (two, one)):
                if (
                    any(diplomacy.allied(n, m) for m in mine)
                    and any(diplomacy.at_war(n, m) for m in theirs)
                    and not any(diplomacy.at_war(n, m) for m in mine)
                    and not any(diplomacy.allied(n, m) for m in theirs)
                ):
                    mine.append(n)
                    grown = True
                    break
    return one, two


def _split_parties(world: SeaWorld, movers: list[Mover], *, in_port: bool = False) -> list[Party] | None:
    """The two sides of these fleets, ordered by lead nation code (§3), or None."""
    sol: dict[int, int] = defaultdict(int)
    for m in movers:
        sol[m.fleet.nation_id] += m.sol
    split = sides_split(
        (m.fleet.nation_id for m in movers),
        sol=sol,
        code={n: world.code(n) for n in world.nations},
        diplomacy=world.diplomacy,
    )
    if split is None:
        return None
    parties = [world.party([m for m in movers if m.fleet.nation_id in side], in_port=in_port) for side in split]
    return sorted(parties, key=world.lead_code)


def contacts_resolve(world: SeaWorld, zone: SeaZone, step: int) -> None:
    """§4 sighting, battle or not, intercept, for the fleets at sea in ``zone`` after ``step``."""
    ctx = world.ctx
    present = [
        m
        for m in world.movers.values()
        if not m.engaged and m.at_sea_in(zone.pk, step) and (m.fleet.pk, zone.pk) not in world.out
    ]
    if len({m.fleet.nation_id for m in present}) < 2:
        return
    parties = _split_parties(world, present)
    if parties is None:
        return
    inside = {m.fleet.pk for p in parties for m in p.movers}
    for m in present:
        if m.fleet.pk not in inside:
            world.out.add((m.fleet.pk, zone.pk))  # §4: "the rest stay out this turn"
    place = zone.key
    dice = ctx.dice(f"{zone.key}:{step}")
    gale = ctx.ruleset.is_gale_season(ctx.turn.season)
    labels = [world.label(p) for p in parties]
    sighted: list[bool | None] = [None, None]
    for k, party in enumerate(parties):
        if not party.seeks:
            continue
        target = parties[1 - k]
        result = sighting_roll(
            dice,
            ctx.ruleset,
            zone_type=zone.type,
            light_ships=sum(1 for s in party.ships if s.ship_class in LIGHT_CLASSES),
            target_ships_at_sea=len(target.ships),
            target_escorts_transports=_escorts(target.ships),
            admiral_grade=world.admiral_grade(party.lead.fleet),
            gale_season=gale,
            target_used_port=any(m.port_step == step for m in target.movers),
            side=k,
        )
        sighted[k] = result.sighted
        mods = ", ".join(f"{name} {value:+d}" for name, value in result.modifiers) or "no modifiers"
        verdict = "sighted" if result.sighted else "not sighted"
        detail = f"step {step}: {verdict}; needs {result.needed}; {mods}"
        for d in result.dice:
            _log(ctx, d, place, f"{labels[k]}>{labels[1 - k]}", detail)
        if result.sighted:
            ctx.report(
                world.codes(party),
                f"{zone.name}, step {step}: we sighted {len(target.ships)} {labels[1 - k]} ship(s): "
                f"{_ship_summary(target.ships)}.",
                zone=zone.key,
                step=step,
                sighted=[
                    {"nation": world.code(s.nation_id), "class": s.ship_class, "condition": s.condition}
                    for s in target.ships
                ],
            )
    seekers = [k for k in (0, 1) if parties[k].seeks]
    battle, interceptor = False, None
    if len(seekers) == 2:
        battle = bool(sighted[0] or sighted[1])
    elif len(seekers) == 1 and sighted[seekers[0]]:
        k = seekers[0]
        result_i = intercept_roll(
            dice,
            ctx.ruleset,
            interceptor=_contact_side(world, parties[k]),
            target=_contact_side(world, parties[1 - k]),
            interceptor_side=k,
        )
        for d in result_i.dice:
            verdict = "intercepted" if result_i.intercepted else "escaped"
            _log(ctx, d, place, labels[d.side], f"step {step}: {labels[k]} intercepting {labels[1 - k]}: {verdict}")
        battle, interceptor = result_i.intercepted, k
        if not result_i.intercepted:
            ctx.report(world.codes(parties[k]), f"{zone.name}, step {step}: the {labels[1 - k]} ships escaped us.")
    if not battle:
        return
    able = [able_to_form_a_line(p.ships) for p in parties]
    if not any(able):
        return
    kind = Engagement.Kind.CAPTURE if able[0] != able[1] else Engagement.Kind.AT_SEA
    world.plans.append(
        EngagementPlan(kind, zone, parties, step=step, interceptor=interceptor, sighted=(sighted[0], sighted[1]))
    )
    for k, party in enumerate(parties):
        enemy = parties[1 - k]
        how = (
            "both sides sought battle"
            if interceptor is None
            else ("we intercepted them" if interceptor == k else "they intercepted us")
        )
        fleets = ", ".join(m.fleet.name for m in party.movers)
        ctx.report(
            world.codes(party),
            f"{zone.name}, step {step}: {fleets} met {len(enemy.ships)} {labels[1 - k]} ship(s) "
            f"({_ship_summary(enemy.ships)}); {how}. "
            + ("They will be taken without a fight." if kind == Engagement.Kind.CAPTURE and not able[1 - k] else "")
            + ("We cannot fight them." if kind == Engagement.Kind.CAPTURE and not able[k] else "")
            + ("Battle follows." if kind == Engagement.Kind.AT_SEA else ""),
            zone=zone.key,
            step=step,
            met=[
                {"nation": world.code(s.nation_id), "class": s.ship_class, "condition": s.condition}
                for s in enemy.ships
            ],
        )
        for m in party.movers:
            m.engaged = True
            if m.order is not None and len(m.path) > step and not m.halted:
                ctx.report(
                    [world.code(m.fleet.nation_id)],
                    f"{m.fleet.name} stopped in {zone.name}: {', '.join(m.path[step:])} not sailed.",
                    fleet=m.fleet.pk,
                )


def _contact_side(world: SeaWorld, party: Party) -> ContactSide:
    lead = party.lead.fleet
    return ContactSide(world.nations[lead.nation_id].navy, world.admiral_grade(lead), lead.in_supply)


def _escorts(ships: Sequence[Ship]) -> bool:
    classes = {s.ship_class for s in ships}
    return "transport" in classes and len(classes) > 1


def _log(ctx: PhaseContext, d: ContactDie, place: str, subject: str, detail: str) -> None:
    ctx.log.append(
        StrategicDie(
            purpose=d.purpose,
            place=place,
            die="d6",
            raw=d.raw,
            mod=d.mod,
            result=d.result,
            subject=subject,
            detail=detail,
        )
    )


def _ship_summary(ships: Sequence[Ship]) -> str:
    counts: dict[tuple[str, str], int] = defaultdict(int)
    for s in ships:
        counts[(s.ship_class, s.condition)] += 1
    return ", ".join(f"{n} × {cls} ({cond})" for (cls, cond), n in sorted(counts.items()))


def _place_name(world: SeaWorld, fleet: Fleet) -> str:
    if fleet.port_id is not None:
        return f"in {world.ports[fleet.port_id].name}"
    return f"at sea in {world.zones[fleet.sea_zone_id].name}"


# --- end of the phase ------------------------------------------------------------------------------


def port_capacity_enforce(world: SeaWorld) -> None:
    """§4: at most capacity × ``movement.port_ships_per_capacity`` ships afloat in a port at the end
    of phase 3; ships already there count first, then fleets that entered in processing order; a
    fleet whose entry would exceed the limit stays at sea in the zone."""
    per = world.ctx.ruleset["movement.port_ships_per_capacity"]
    inside: dict[int, list[Mover]] = defaultdict(list)
    for mover in world.movers.values():
        if mover.fleet.port_id is not None:
            inside[mover.fleet.port_id].append(mover)
    for port in sorted((world.ports[p] for p in inside), key=lambda p: p.key):
        movers = inside[port.pk]
        entering = [m for m in movers if m.left_port or m.start_port_id != port.pk]
        count = sum(len(m.ships) for m in movers if m not in entering)
        limit = port.capacity * per
        for mover in sorted(entering, key=lambda m: _processing_key(world, m)):
            if count + len(mover.ships) <= limit:
                count += len(mover.ships)
                continue
            mover.fleet.port_id = None
            world.ctx.report(
                [world.code(mover.fleet.nation_id)],
                f"{mover.fleet.name} could not enter {port.name}: it holds {limit} ships and {count} are there; "
                f"the fleet stays at sea in {world.zones[port.sea_zone_id].name}.",
                fleet=mover.fleet.pk,
            )


def _processing_key(world: SeaWorld, mover: Mover) -> tuple[str, int, int]:
    position = mover.order.position if mover.order is not None else 0
    return (world.code(mover.fleet.nation_id), position, mover.fleet.pk)


def fleets_save(world: SeaWorld) -> None:
    Fleet.objects.bulk_update([m.fleet for m in world.movers.values()], ["sea_zone", "port", "left_port_turn"])


def port_engagements_plan(world: SeaWorld, sally_orders: Sequence[Order]) -> list[MoveNote]:
    """The engagements phase 4 fights besides the contacts at sea, port by port in key order:
    hostile fleets in one port (§4, after a declaration of war), sallies against blockaders (§4
    "Sally"), and the besieged-port engagement (§4 [S]). Returns the outcome of each sally order."""
    notes: list[MoveNote] = []
    sallying: dict[int, list[tuple[Order, Mover]]] = defaultdict(list)
    for order in sally_orders:
        try:
            mover = world.movers[int(order.body.get("fleet"))]
        except (KeyError, TypeError, ValueError):
            notes.append(MoveNote(order, True, f"fleet {order.body.get('fleet')!r} does not exist"))
            continue
        fleet = mover.fleet
        if fleet.nation_id != order.nation_id:
            notes.append(MoveNote(order, True, f"{fleet.name} is not one of your fleets"))
        elif fleet.port_id is None:
            notes.append(MoveNote(order, True, f"{fleet.name} is not in a port"))
        elif not [s for s in mover.ships if not s.in_ordinary]:
            notes.append(MoveNote(order, True, f"{fleet.name} has no ship fit to sail"))
        else:
            sallying[fleet.port_id].append((order, mover))
    besiegers: dict[int, set[int]] = defaultdict(set)
    for port_id, nation_id in LandUnit.objects.filter(
        campaign=world.ctx.campaign, state=LandUnit.State.ASHORE
    ).values_list("port_id", "nation_id"):
        assert port_id is not None
        if world.diplomacy.at_war(nation_id, world.ports[port_id].owner_id):
            besiegers[port_id].add(nation_id)
    for port in sorted(world.ports.values(), key=lambda p: p.key):
        zone = world.zones[port.sea_zone_id]
        in_port = [m for m in world.movers.values() if m.fleet.port_id == port.pk and _fit(m)]
        hostile = _split_parties(world, in_port, in_port=True) if in_port else None
        if hostile is not None:
            owner = [k for k, p in enumerate(hostile) if port.owner_id in p.nations]
            world.plans.append(
                EngagementPlan(
                    Engagement.Kind.IN_PORT,
                    zone,
                    hostile,
                    port=port,
                    context={"guns_side": owner[0] if owner else None},
                )
            )
        sallied: set[int] = set()
        if port.pk in sallying:
            notes += _sally_plan(world, port, sallying[port.pk], sallied)
        if besiegers.get(port.pk):
            _besieged_plan(world, port, besiegers[port.pk], sallied)
    return notes


def _fit(mover: Mover) -> bool:
    """Has a ship that can fight in port (not laid up in ordinary)."""
    return any(not s.in_ordinary for s in mover.ships)


def _blockaders(world: SeaWorld, port: Port) -> list[Mover]:
    """Fleets at sea in the port's zone with posture "blockade <port>" and at least 1 SOL."""
    return [
        m
        for m in world.movers.values()
        if m.fleet.port_id is None
        and m.fleet.sea_zone_id == port.sea_zone_id
        and m.fleet.posture == Fleet.Posture.BLOCKADE
        and m.fleet.blockade_port_id == port.pk
        and any(s.ship_class in SOL_CLASSES for s in m.ships)
    ]


def _sally_plan(world: SeaWorld, port: Port, orders: list[tuple[Order, Mover]], sallied: set[int]) -> list[MoveNote]:
    """§4 "Sally": the fleets of one nation and its allies sally together against the blockaders
    at war with them; a sally needs no sighting or intercept."""
    notes: list[MoveNote] = []
    first = min((m.fleet.nation_id for _, m in orders), key=world.code)
    group = [(o, m) for o, m in orders if world.friendly(first, m.fleet.nation_id)]
    for order, mover in orders:
        if (order, mover) not in group:
            notes.append(MoveNote(order, True, f"{world.code(first)} sallies from {port.name} against other enemies"))
    nations = {m.fleet.nation_id for _, m in group}
    enemies = [
        m
        for m in _blockaders(world, port)
        if any(world.diplomacy.at_war(m.fleet.nation_id, n) for n in nations)
        and not any(world.friendly(m.fleet.nation_id, n) for n in nations)
    ]
    if not enemies:
        for order, mover in group:
            notes.append(MoveNote(order, True, f"{port.name} is not blockaded against {mover.fleet.name}"))
        return notes
    sally = world.party([m for _, m in group], in_port=True)
    blockade = world.party(enemies)
    parties = sorted([sally, blockade], key=world.lead_code)
    world.plans.append(
        EngagementPlan(
            Engagement.Kind.SALLY,
            world.zones[port.sea_zone_id],
            parties,
            port=port,
            context={"sally_side": parties.index(sally), "port": port.key},
        )
    )
    for order, mover in group:
        sallied.add(mover.fleet.pk)
        notes.append(MoveNote(order, False, f"sallies from {port.name} against the {world.label(blockade)} blockaders"))
    return notes


def _besieged_plan(world: SeaWorld, port: Port, besieging: set[int], sallied: set[int]) -> None:
    """§4 [S]: a fleet at sea (seek or blockade) in the zone of a besieged port, at war with the
    besiegers' ships inside, may fight them in phase 4."""
    inside = [
        m
        for m in world.movers.values()
        if m.fleet.port_id == port.pk and m.fleet.nation_id in besieging and m.fleet.pk not in sallied and _fit(m)
    ]
    if not inside:
        return
    port_party = world.party(inside, in_port=True)
    lead = port_party.lead.fleet.nation_id
    sea: list[Mover] = []
    for m in sorted(world.movers.values(), key=lambda m: (world.code(m.fleet.nation_id), m.fleet.pk)):
        n = m.fleet.nation_id
        if (
            m.fleet.port_id is None
            and m.fleet.sea_zone_id == port.sea_zone_id
            and m.ships
            and m.fleet.posture in (Fleet.Posture.SEEK, Fleet.Posture.BLOCKADE)
            and world.diplomacy.at_war(n, lead)
            and not any(world.friendly(n, x) for x in port_party.nations)
            and not any(world.diplomacy.at_war(n, o.fleet.nation_id) for o in sea)
        ):
            sea.append(m)
    if not sea:
        return
    sea_party = world.party(sea)
    parties = sorted([port_party, sea_party], key=world.lead_code)
    world.plans.append(
        EngagementPlan(
            Engagement.Kind.BESIEGED_PORT,
            world.zones[port.sea_zone_id],
            parties,
            port=port,
            context={"in_port_side": parties.index(port_party)},
        )
    )


def _retreat(world: SeaWorld, fleet: Fleet, zone: SeaZone) -> dict[str, str | None]:
    """§4: where one fleet goes from ``zone`` if its side retires, breaks, evades or is beaten:
    "into an own or allied port in the zone if its standing order names one, else to the adjacent
    zone its order names (default: the first step towards its nearest own port; ties: lower zone
    key)". ``zone`` is also given with a port, for a sally's blockaders, who must leave the zone."""
    port: Port | None = world.ports.get(fleet.retreat_port_id) if fleet.retreat_port_id is not None else None
    if port is not None and (port.sea_zone_id != zone.pk or not world.friendly(fleet.nation_id, port.owner_id)):
        port = None
    named = world.zones.get(fleet.retreat_zone_id) if fleet.retreat_zone_id is not None else None
    if named is not None and named.key in world.graph[zone.key]:
        step: str | None = named.key
    else:
        step = retreat_step(world.graph, zone.key, world.own_port_zones(fleet.nation_id))
    return {"port": port.key if port is not None else None, "zone": step}


def engagements_record(world: SeaWorld) -> list[Engagement]:
    """Store ``world.plans`` as :class:`~battles.models.Engagement` rows, numbered per zone in
    the order planned (at-sea contacts by step, then the ports' own engagements)."""
    turn = world.ctx.turn
    sequence: dict[int, int] = defaultdict(int)
    rows = []
    for plan in world.plans:
        sequence[plan.zone.pk] += 1
        sides = []
        for k, party in enumerate(plan.parties):
            retreat = (
                {} if party.in_port else {str(m.fleet.pk): _retreat(world, m.fleet, plan.zone) for m in party.movers}
            )
            sides.append(
                {
                    "nations": world.codes(party),
                    "fleets": [m.fleet.pk for m in party.movers],
                    "lead_fleet": party.lead.fleet.pk,
                    "seeks": party.seeks,
                    "sighted": plan.sighted[k],
                    "in_port": party.in_port,
                    "retreat": retreat,
                }
            )
        rows.append(
            Engagement(
                campaign=world.ctx.campaign,
                turn=turn,
                sea_zone=plan.zone,
                port=plan.port,
                place=plan.port.key if plan.port is not None and plan.kind != Engagement.Kind.SALLY else plan.zone.key,
                sequence=sequence[plan.zone.pk],
                kind=plan.kind,
                step=plan.step,
                sides=sides,
                interceptor=plan.interceptor,
                context=plan.context,
            )
        )
    return Engagement.objects.bulk_create(rows)


def positions_report(world: SeaWorld) -> None:
    """§3 fog of war: each nation (and its allies) learns where its fleets ended the phase."""
    for mover in sorted(world.movers.values(), key=lambda m: (world.code(m.fleet.nation_id), m.fleet.pk)):
        if not mover.ships:
            continue
        fleet = mover.fleet
        world.ctx.report(
            world.friends_of(fleet.nation_id),
            f"{fleet.name} ({world.code(fleet.nation_id)}, {len(mover.ships)} ships) is {_place_name(world, fleet)}.",
            fleet=fleet.pk,
            zone=world.zones[fleet.sea_zone_id].key,
            port=world.ports[fleet.port_id].key if fleet.port_id is not None else None,
        )
