"""Fleet actions of phase 4: fighting the engagements phase 3 recorded, recording their battles and
applying the results (RULES.md §4 "Sides", "Weather gauge", "After a battle", "Sally",
"Besieged-port engagement", "Hostile fleets in one port"; §5; §0 admirals; §7 transports).

One call, :func:`engagements_fight_zone`, settles every pending :class:`~battles.models.Engagement`
of one sea zone in one transaction, in sequence order: each is marked fought together with its
:class:`~battles.models.Battle` row and every change to ships, fleets, admirals and land units, so
a battle is fought exactly once however often the call is made (a Celery task per zone, or phase 4
inline for whatever a lost task left). Zones do not share fleets or ships (a fleet is in one zone,
or in a port of that zone, at the end of phase 3), so zones can be fought in parallel.

What a fight uses, by rule:

* **Sides and line** (§4): a side's admiral is its best-graded admiral (ties: the fleet with more
  SOL, then lower fleet id) and the lead fleet is his (with none: most SOL, then lower id). The line
  is the lead fleet's line, then the other fleets by descending SOL (then id), each fleet in its
  line order (``Ship.line_position``; unset: class EP descending, then id), flagship first; of
  these the ready and damaged ships that :func:`~battles.engine.line_eligible` admits form the
  line. Each ship fires with its own (owner's) navy and crew; initiative, integrity, intercept and
  gauge use the lead fleet's nation; the side is out of supply if its lead fleet is.
* **Days** (§5): :func:`~battles.engine.fight_engagement` rolls the gauge each day and handles
  pursuit; a side continues or evades by its lead fleet's ``after_battle`` standing order
  (auto: evade if its L is higher; continue: never evade; evade: always).
* **After the battle** (§4): sunk ships leave their fleets (``lost_turn``); captured ships change
  owner (``original_nation`` kept), take the captor's crew grade and join the captor's lead fleet
  in the condition they were taken in; ships not in the line share their side's fate (captured
  when their side broke or was beaten and the enemy held; otherwise they stay or leave with it);
  a lost or captured transport loses its land unit (§7). A side that retired, broke, evaded or was
  beaten leaves with all its surviving ships to the retreat destination phase 3 worked out for each
  fleet; it meets no one else this turn (later engagements of the zone leave it out). An admiral
  whose flagship is sunk or captured is lost (§0): the side's admiral as the engine tracks him day
  by day, any other fleet's admiral with his fleet's first ship.
* **Kinds**: ``capture`` (a side with no ship able to form a line, caught by one that has, is taken
  whole without a battle); ``sally`` (no sighting or intercept; if the blockaders leave, the port is
  not blockaded this turn; the sallying fleet is back in port at the end of phase 4 whatever
  happens, so it never leaves it in the database); ``besieged_port`` (sighting 3+ at +2, a modified
  6+ catches the ships in port at anchor, intercept +1, gauge +2 to the fleet at sea; the side in
  port stays in port whatever its outcome); ``in_port`` (hostile fleets in one port: no sighting or
  intercept, neither at anchor, the side holding the port's guns — its owner's — has the gauge).

House resolutions (RULES.md is silent):

* Hostile fleets in one port fight one Naval Day: neither can evade or pursue out of the port, and
  both stay in it whatever the outcome.
* Ships laid up in ordinary take no part in a fight in port (they cannot form a line or sail); they
  stay where they are, to be captured with the port (§7) or hit by its guns (§4).
* In a sally the blockaders that leave go to the adjacent zone of their retreat order (never into
  a port of the zone: the rule says they leave the zone).
* A side that finds its enemy gone when its engagement comes up (driven off by an earlier battle in
  the zone) fights nothing; the engagement is closed with a note.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from fractions import Fraction
from typing import Any

from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone

from battles.engine import (
    FLEET_ACTION,
    AdmiralSpec,
    BattleSpec,
    ContactDie,
    ContactSide,
    EngagementContext,
    EngagementDay,
    EngagementReport,
    EngagementSide,
    GaugeResult,
    ShipSpec,
    SideSpec,
    fight_engagement,
    intercept_roll,
    line_eligible,
    sighting_roll,
    weather_gauge_roll,
)
from battles.engine.combat import params_for
from battles.engine.fleet_action import fight_day_with
from battles.models import Battle, Engagement
from battles.selectors import ship_line_key as line_key
from fleets.models import Admiral, Fleet, Ship
from ports.models import LandUnit, Port, SeaZone
from rules.dice import SeededDice, derive_seed
from rules.ruleset import GRADES, LIGHT_CLASSES, SOL_CLASSES, Ruleset
from rules.strategic_log import StrategicDie

#: RULES.md §3: battles are phase 4; a battle's seed is derived from (campaign seed, turn, 4, place, sequence).
BATTLE_PHASE = 4
HELD, RETIRED, BROKE, BEATEN, EVADED = "held", "retired", "broke", "beaten", "evaded"
#: Outcomes after which a side leaves the zone (§4 "After a battle", "Blockade").
LEAVING = frozenset({RETIRED, BROKE, EVADED, BEATEN})
_FIGHTING = ("ready", "damaged")
# Fleet.after_battle → the engine's evade threshold: None is §5's default (evade if its L is higher),
# above 1 never evades, 0 always does.
_EVADE_AT: dict[str, Fraction | None] = {"auto": None, "continue": Fraction(2), "evade": Fraction(0)}


# --- ordering helpers shared with phase 3 -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FleetRank:
    """What §4's side order needs of one fleet: its SOL at the place and its admiral's grade."""

    fleet_id: int
    sol: int
    admiral_grade: str | None


def side_order(fleets: Iterable[FleetRank]) -> list[int]:
    """§4: fleet ids of one side, lead fleet first, then the others by descending SOL (then id).

    "A side's admiral is its best-graded admiral (ties: the fleet with more SOL, then lower fleet
    id); the lead fleet is his (with no admiral, the fleet with most SOL, then lower id)."
    """
    ranked = sorted(fleets, key=lambda f: (-f.sol, f.fleet_id))
    if not ranked:
        return []
    commanded = [f for f in ranked if f.admiral_grade is not None]
    lead = (
        min(commanded, key=lambda f: (GRADES.index(f.admiral_grade or ""), -f.sol, f.fleet_id))
        if commanded
        else ranked[0]
    )
    return [lead.fleet_id, *(f.fleet_id for f in ranked if f is not lead)]


def ship_line_key(ruleset: Ruleset) -> Callable[[Ship], tuple[int, int, int]]:
    """A fleet's line order as a sort key (§4; :func:`battles.selectors.ship_line_key`)."""
    return lambda ship: line_key(ship, ruleset)


def sol_count(ships: Iterable[Ship]) -> int:
    return sum(1 for s in ships if s.ship_class in SOL_CLASSES)


def able_to_form_a_line(ships: Sequence[Ship]) -> bool:
    """§4: some ship of the side could form a line (ready or damaged, and not a transport)."""
    fighting = [s for s in ships if s.condition in _FIGHTING]
    return any(line_eligible([s.ship_class for s in fighting]))


# --- selectors for the pipeline ------------------------------------------------------------------


def engagement_zones_pending(*, turn_id: int) -> list[int]:
    """Zones (ids, in key order) with engagements still to fight this turn."""
    rows = (
        Engagement.objects.filter(turn_id=turn_id, status=Engagement.Status.PENDING)
        .order_by("sea_zone__key")
        .values_list("sea_zone_id", flat=True)
        .distinct()
    )
    return list(dict.fromkeys(rows))


def engagement_zones_to_dispatch(*, turn_id: int, now: datetime, minimum: int = 2) -> list[int]:
    """The fan-out of DESIGN.md "A turn": zones whose pending engagements were never handed to a
    battle task, marked as handed now — but only when there are at least ``minimum`` of them (one
    zone is fought inline as fast). A zone is dispatched at most once: whatever a lost task leaves
    is fought by phase 4 itself, never re-dispatched."""
    with transaction.atomic():
        fresh = list(
            Engagement.objects.select_for_update(of=("self",))
            .filter(turn_id=turn_id, status=Engagement.Status.PENDING, dispatched_at__isnull=True)
            .select_related("sea_zone")
            .order_by("sea_zone__key", "sequence")
        )
        zones = list(dict.fromkeys(e.sea_zone_id for e in fresh))
        if len(zones) < minimum:
            return []
        Engagement.objects.filter(pk__in=[e.pk for e in fresh]).update(dispatched_at=now)
    return zones


@dataclass(frozen=True, slots=True)
class FleetOutcome:
    """How a fleet came out of this turn's fights: its side's last ``outcome`` and whether it ``won``."""

    outcome: str
    won: bool
    zone_id: int
    engagement_id: int


def fleet_outcomes(*, turn_id: int) -> dict[int, list[FleetOutcome]]:
    """Every fought engagement's outcome per fleet (fleet id → outcomes in fighting order).

    For phase 6 ("a fleet that did not retire, break, evade or get beaten this turn" may land) and
    phase 5 ("won a battle in P's zone this turn" may run the guns)."""
    out: dict[int, list[FleetOutcome]] = defaultdict(list)
    rows = Engagement.objects.filter(turn_id=turn_id, status=Engagement.Status.FOUGHT).order_by(
        "sea_zone__key", "sequence"
    )
    for e in rows:
        for fleet_id, data in e.result.get("fleets", {}).items():
            out[int(fleet_id)].append(FleetOutcome(data["outcome"], data["won"], e.sea_zone_id, e.pk))
    return dict(out)


def fleets_worsted(*, turn_id: int) -> set[int]:
    """Fleets that retired, broke, evaded or were beaten in a fight this turn (§4, §7)."""
    return {
        fleet_id
        for fleet_id, outcomes in fleet_outcomes(turn_id=turn_id).items()
        if any(o.outcome in LEAVING for o in outcomes)
    }


def ports_unblockaded_by_sally(*, turn_id: int) -> set[int]:
    """Ports whose blockaders a sally drove off this turn: not blockaded this turn (§4 "Sally")."""
    rows = Engagement.objects.filter(
        turn_id=turn_id, kind=Engagement.Kind.SALLY, status=Engagement.Status.FOUGHT
    ).values_list("port_id", "result")
    return {port_id for port_id, result in rows if port_id is not None and result.get("lifts_blockade")}


def engagements_fought(*, turn_id: int) -> list[Engagement]:
    """This turn's fought engagements in reporting order: zones by key, then sequence."""
    return list(
        Engagement.objects.filter(turn_id=turn_id, status=Engagement.Status.FOUGHT)
        .select_related("sea_zone")
        .order_by("sea_zone__key", "sequence")
    )


# --- fighting -------------------------------------------------------------------------------------


@dataclass
class _Side:
    """One side of an engagement as it stands when the engagement is fought."""

    index: int
    data: dict[str, Any]
    in_port: bool
    fleets: list[Fleet]
    ships: dict[int, list[Ship]]
    line: list[Ship] = field(default_factory=list)
    others: list[Ship] = field(default_factory=list)

    @property
    def lead(self) -> Fleet:
        return self.fleets[0]

    @property
    def admiral(self) -> Admiral | None:
        admiral = self.lead.admiral
        return admiral if admiral is not None and admiral.status == Admiral.Status.ACTIVE else None

    @property
    def nations(self) -> list[str]:
        return sorted({f.nation.code for f in self.fleets} | set(self.data.get("nations", [])))

    @property
    def label(self) -> str:
        return "/".join(sorted({f.nation.code for f in self.fleets})) or "/".join(self.data.get("nations", []))

    def all_ships(self) -> list[Ship]:
        return [s for f in self.fleets for s in self.ships[f.pk]]


@dataclass
class _ZoneState:
    """What earlier engagements of the zone changed for later ones this turn."""

    worsted: set[int] = field(default_factory=set)
    next_position: dict[int, int] = field(default_factory=dict)


def engagements_fight_zone(*, turn_id: int, zone_id: int, fought_by: str) -> list[int]:
    """Fight every pending engagement of one zone, in sequence order, in one transaction.

    Idempotent: engagements already fought are skipped (the rows are locked first, so a duplicate
    task waits and then finds nothing left); each is marked fought with its battle and ship changes.
    ``fought_by`` names who fought them (a task id and worker, or "inline"). Returns the ids fought.
    """
    with transaction.atomic():
        _turn_key_share(turn_id)
        pending = list(
            Engagement.objects.select_for_update(of=("self",))
            .filter(turn_id=turn_id, sea_zone_id=zone_id, status=Engagement.Status.PENDING)
            .select_related("turn__campaign", "sea_zone", "port")
            .order_by("sequence")
        )
        if not pending:
            return []
        state = _ZoneState()
        earlier = Engagement.objects.filter(turn_id=turn_id, sea_zone_id=zone_id, status=Engagement.Status.FOUGHT)
        for e in earlier:
            state.worsted |= {int(f) for f, d in e.result.get("fleets", {}).items() if d["outcome"] in LEAVING}
        now = timezone.now()
        for engagement in pending:
            _engagement_settle(engagement, state)
            engagement.status = Engagement.Status.FOUGHT
            engagement.fought_at = now
            engagement.fought_by = fought_by[:200]
            engagement.save(update_fields=["status", "fought_at", "fought_by", "battle", "result"])
        return [e.pk for e in pending]


def _turn_key_share(turn_id: int) -> None:
    """Take FOR KEY SHARE on the turn before any engagement lock.

    A Battle row's foreign key to the turn needs this lock anyway; taking it first means a battle
    task waits for a phase 4 that holds the turn (FOR UPDATE) instead of holding engagement locks
    that phase 4 waits for — no deadlock between a late task and the inline fallback."""
    if connection.vendor != "postgresql":
        return
    table = connection.ops.quote_name(Engagement._meta.get_field("turn").related_model._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT 1 FROM {table} WHERE id = %s FOR KEY SHARE", [turn_id])


def _engagement_settle(e: Engagement, state: _ZoneState) -> None:
    campaign = e.turn.campaign
    ruleset = campaign.ruleset
    kind = e.kind
    ctx = e.context or {}
    in_port_sides: set[int] = set()
    if kind == Engagement.Kind.SALLY:
        in_port_sides = {int(ctx["sally_side"])}
    elif kind == Engagement.Kind.BESIEGED_PORT:
        in_port_sides = {int(ctx["in_port_side"])}
    elif kind == Engagement.Kind.IN_PORT:
        in_port_sides = {0, 1}
    sides = [_side_load(e, k, e.sides[k], k in in_port_sides, state, ruleset) for k in (0, 1)]
    result: dict[str, Any] = {"events": [], "strategic_dice": [], "fleets": {}, "outcome": None, "winner": None}
    e.result = result
    where = e.port.name if e.port is not None else e.sea_zone.name
    gone = [s for s in sides if not s.fleets]
    if gone:
        present = [s for s in sides if s.fleets]
        missing = " and ".join("/".join(s.data.get("nations", [])) for s in gone)
        result["note"] = f"no fight: the {missing} ships were no longer there"
        for side in present:
            _event(result, side.nations, f"At {where} there was no fight: the {missing} ships had gone.", place=e.place)
        return
    able = [bool(s.line) for s in sides]
    if not any(able):
        result["note"] = "no fight: neither side had a ship able to form a line"
        _event(result, sides[0].nations + sides[1].nations, f"At {where} neither side could form a line: no battle.")
        return
    if able[0] != able[1]:
        _capture_whole(e, sides, victim=0 if not able[0] else 1, state=state)
        return
    seed = derive_seed(campaign.seed, e.turn.number, BATTLE_PHASE, e.place, e.sequence)
    dice = SeededDice(seed)
    contact: dict[str, Any] | None = None
    at_anchor = False
    interceptor = e.interceptor
    in_port_side = ctx.get("in_port_side") if kind == Engagement.Kind.BESIEGED_PORT else None
    gale = ruleset.is_gale_season(e.turn.season)
    if in_port_side is not None:
        contact, at_anchor = _besieged_port_contact(e, sides, in_port_side, dice, ruleset, gale, result)
        if not contact["intercepted"]:
            result["note"] = "no fight: the ships in port were not brought to action"
            return
        interceptor = 1 - in_port_side
    spec, names = _spec(sides, at_anchor_side=in_port_side if at_anchor else None)
    if kind == Engagement.Kind.IN_PORT:
        report = _fight_in_port(spec, dice, ruleset, ctx.get("guns_side"))
    else:
        report = fight_engagement(
            spec,
            dice,
            ruleset,
            EngagementContext(
                zone_type=e.sea_zone.type,
                gale_season=gale,
                interceptor=interceptor,
                in_port_side=in_port_side,
                sides=(_engagement_side(sides[0]), _engagement_side(sides[1])),
            ),
        )
    _record_strategic(e, sides, report, result)
    battle = Battle.objects.create(
        campaign_id=e.campaign_id,
        turn_id=e.turn_id,
        kind=Battle.Kind.FLEET_ACTION,
        sea_zone_id=e.sea_zone_id,
        port_id=e.port_id,
        place=e.place,
        sequence=e.sequence,
        seed=seed,
        sides=[_battle_side(s) for s in sides],
        winner=report.winner,
        report={**report.to_json(), "engagement": kind, "contact": contact},
    )
    e.battle = battle
    _results_apply(e, sides, report, names, battle, state, where)


def _side_load(
    e: Engagement, k: int, data: dict[str, Any], in_port: bool, state: _ZoneState, ruleset: Ruleset
) -> _Side:
    ids = [int(i) for i in data.get("fleets", [])]
    candidates = Fleet.objects.filter(pk__in=ids).select_related("nation", "admiral").order_by("id")
    present: list[Fleet] = []
    for fleet in candidates:
        if fleet.pk in state.worsted:
            continue  # §4: a side that retired, broke or evaded meets no one else this turn
        here = fleet.port_id == e.port_id if in_port else fleet.port_id is None and fleet.sea_zone_id == e.sea_zone_id
        if here:
            present.append(fleet)
    ships: dict[int, list[Ship]] = defaultdict(list)
    rows = Ship.objects.filter(fleet__in=present, condition__in=Ship.AFLOAT).select_related("nation")
    if in_port:
        rows = rows.filter(in_ordinary=False)  # laid-up ships take no part (module docstring)
    key = ship_line_key(ruleset)
    for ship in sorted(rows, key=key):
        assert ship.fleet_id is not None  # afloat ships are in a fleet (database constraint)
        ships[ship.fleet_id].append(ship)
    present = [f for f in present if ships[f.pk]]
    ranks = [
        FleetRank(
            f.pk,
            sol_count(ships[f.pk]),
            f.admiral.grade if f.admiral is not None and f.admiral.status == Admiral.Status.ACTIVE else None,
        )
        for f in present
    ]
    by_id = {f.pk: f for f in present}
    side = _Side(k, data, in_port, [by_id[i] for i in side_order(ranks)], dict(ships))
    candidates_in_line = [s for f in side.fleets for s in side.ships[f.pk] if s.condition in _FIGHTING]
    eligible = line_eligible([s.ship_class for s in candidates_in_line])
    side.line = [s for s, ok in zip(candidates_in_line, eligible, strict=True) if ok]
    in_line = {s.pk for s in side.line}
    side.others = [s for s in side.all_ships() if s.pk not in in_line]
    return side


def _spec(sides: list[_Side], *, at_anchor_side: int | None) -> tuple[BattleSpec, dict[int, str]]:
    """The battle spec of the two lines; ship names made unique within the battle (§5 needs it)."""
    names: dict[int, str] = {}
    seen: set[str] = set()
    spec_sides = []
    for side in sides:
        specs = []
        for ship in side.line:
            name = ship.name
            if name in seen:
                name = f"{ship.name} ({ship.nation.code} #{ship.pk})"
            seen.add(name)
            names[ship.pk] = name
            specs.append(ShipSpec(name, ship.ship_class, ship.nation.navy, ship.crew, ship.condition, ship.pk))
        admiral = side.admiral
        lead = side.lead
        spec_sides.append(
            SideSpec(
                side.label,
                lead.nation.navy,
                tuple(specs),
                None if admiral is None else AdmiralSpec(admiral.grade, admiral.name),
                lead.nation.crew,
                in_supply=lead.in_supply,
                at_anchor=at_anchor_side == side.index,
            )
        )
    return BattleSpec(FLEET_ACTION, (spec_sides[0], spec_sides[1])), names


def _engagement_side(side: _Side) -> EngagementSide:
    others = side.others if not side.in_port else []
    ships = side.all_ships()
    return EngagementSide(
        evade_at=_EVADE_AT.get(side.lead.after_battle),
        light_ships=0 if side.in_port else sum(1 for s in ships if s.ship_class in LIGHT_CLASSES),
        other_ships_at_sea=len(others),
        escorts_transports=not side.in_port and _escorts_transports(ships),
    )


def _escorts_transports(ships: Sequence[Ship]) -> bool:
    classes = {s.ship_class for s in ships}
    return "transport" in classes and len(classes) > 1


def _contact_side(side: _Side) -> ContactSide:
    admiral = side.admiral
    return ContactSide(side.lead.nation.navy, None if admiral is None else admiral.grade, side.lead.in_supply)


def _besieged_port_contact(
    e: Engagement,
    sides: list[_Side],
    in_port_side: int,
    dice: SeededDice,
    ruleset: Ruleset,
    gale: bool,
    result: dict[str, Any],
) -> tuple[dict[str, Any], bool]:
    """§4 [S]: the fleet at sea sights the besiegers' ships in port at 3+ with +2 (a modified 6+
    catches them at anchor) and intercepts at +1."""
    sea, port = sides[1 - in_port_side], sides[in_port_side]
    admiral = sea.admiral
    sea_ships = sea.all_ships()
    sighting = sighting_roll(
        dice,
        ruleset,
        zone_type=e.sea_zone.type,
        light_ships=sum(1 for s in sea_ships if s.ship_class in LIGHT_CLASSES),
        target_ships_at_sea=len(port.all_ships()),
        admiral_grade=None if admiral is None else admiral.grade,
        gale_season=gale,
        besieged_port=True,
        side=sea.index,
    )
    rolled: list[ContactDie] = list(sighting.dice)
    intercepted = False
    if sighting.sighted:
        intercept = intercept_roll(
            dice,
            ruleset,
            interceptor=_contact_side(sea),
            target=_contact_side(port),
            interceptor_side=sea.index,
            besieged_port=True,
        )
        rolled += intercept.dice
        intercepted = intercept.intercepted
    labels = [sides[0].label, sides[1].label]
    for d in rolled:
        result["strategic_dice"].append(
            _die(d, e.place, subject=labels[d.side], detail=f"besieged port {e.place}: {d.purpose}")
        )
    where = e.port.name if e.port is not None else e.place
    if intercepted:
        anchored = " and caught them at anchor" if sighting.at_anchor else ""
        text = f"Off besieged {where} the {sea.label} fleet engaged the {port.label} ships in port{anchored}."
        _event(result, sea.nations + port.nations, text)
    elif sighting.sighted:
        text = f"Off besieged {where} we sighted the {port.label} ships but could not engage them."
        _event(result, sea.nations, text)
    contact = {
        "sighted": sighting.sighted,
        "at_anchor": sighting.at_anchor,
        "needed": sighting.needed,
        "modifiers": [list(m) for m in sighting.modifiers],
        "intercepted": intercepted,
        "dice": [d.to_json() for d in rolled],
    }
    return contact, sighting.at_anchor and intercepted


def _fight_in_port(spec: BattleSpec, dice: SeededDice, ruleset: Ruleset, guns_side: int | None) -> EngagementReport:
    """§4 hostile fleets in one port: one Naval Day, neither at anchor; the side holding the port's
    guns has the gauge (with neither, the gauge is rolled)."""
    if guns_side in (0, 1):
        gauge = GaugeResult(winner=int(guns_side), dice=())
    else:
        gauge = weather_gauge_roll(dice, ruleset, sides=[ContactSide(s.navy, s.admiral_grade) for s in spec.sides])
    day_sides = tuple(replace(s, weather_gauge=k == gauge.winner) for k, s in enumerate(spec.sides))
    day_spec = BattleSpec(FLEET_ACTION, (day_sides[0], day_sides[1]), spec.max_rounds)
    report = fight_day_with(day_spec, dice, params_for(ruleset), first=gauge.winner)
    report = replace(report, seed=None)
    return EngagementReport(
        seed=dice.seed,
        days=(EngagementDay(1, gauge, report, tuple(range(len(report.ships)))),),
        pursuits=(),
        ships=tuple(report.ships),
        winner=report.winner,
        outcome=report.outcome,
        spec=spec,
    )


def _die(d: ContactDie, place: str, *, subject: str, detail: str) -> dict[str, object]:
    return StrategicDie(
        purpose=d.purpose, place=place, die="d6", raw=d.raw, mod=d.mod, result=d.result, subject=subject, detail=detail
    ).to_dict()


def _record_strategic(e: Engagement, sides: list[_Side], report: EngagementReport, result: dict[str, Any]) -> None:
    """§3: the gauge, and a pursuer's sighting and intercept, are strategic dice of the turn's log."""
    labels = [sides[0].label, sides[1].label]
    pursuits = {p.after_day: p for p in report.pursuits}
    for day in report.days:
        for d in day.gauge.dice:
            result["strategic_dice"].append(
                _die(d, e.place, subject=labels[d.side], detail=f"battle {e.sequence}, day {day.day}")
            )
        pursuit = pursuits.get(day.day)
        if pursuit is not None:
            for d in pursuit.dice:
                result["strategic_dice"].append(
                    _die(d, e.place, subject=labels[d.side], detail=f"battle {e.sequence}, pursuit after day {day.day}")
                )


def _taken_conditions(report: EngagementReport, start: dict[int, str], names: dict[int, str]) -> dict[int, str]:
    """The condition each line ship was in when it was taken (§4 "in the condition they were taken
    in"): its starting condition worsened by every damaging or disabling die that hit it before."""
    by_name = {name: ref for ref, name in names.items()}
    cond = dict(start)
    for day in report.days:
        for d in day.report.dice():
            effect = d.get("effect")
            if effect in ("damaged", "disabled") and d.get("target") in by_name:
                cond[by_name[d["target"]]] = effect
    return cond


def _results_apply(
    e: Engagement,
    sides: list[_Side],
    report: EngagementReport,
    names: dict[int, str],
    battle: Battle,
    state: _ZoneState,
    where: str,
) -> None:
    result = e.result
    turn_number = e.turn.number
    outcome = report.outcome
    fates = {int(r.ref): r for r in report.ships if r.ref is not None}
    taken = _taken_conditions(report, {s.pk: s.condition for side in sides for s in side.line}, names)
    changed: list[Ship] = []
    lost_units: list[int] = []
    sunk: set[int] = set()
    captured: set[int] = set()
    rows: list[dict[str, Any]] = []
    for side in sides:
        enemy = sides[1 - side.index]
        shares_capture = outcome[side.index] in (BROKE, BEATEN) and outcome[enemy.index] == HELD
        for ship in side.line:
            fate = fates[ship.pk]
            if fate.fate == "sunk":
                _sink(ship, turn_number, lost_units)
                sunk.add(ship.pk)
            elif fate.fate == "captured":
                captor = sides[fate.captured_by if fate.captured_by is not None else enemy.index]
                _capture(ship, captor, taken.get(ship.pk, ship.condition), state, lost_units)
                captured.add(ship.pk)
            elif fate.fate in ("damaged", "disabled"):
                ship.condition = fate.fate
            changed.append(ship)
            rows.append(_ship_row(side, ship, fate.fate))
        for ship in side.others:
            if shares_capture:
                _capture(ship, enemy, ship.condition, state, lost_units)
                captured.add(ship.pk)
                changed.append(ship)
            rows.append(_ship_row(side, ship, "captured" if ship.pk in captured else ship.condition))
    _ships_save(changed, lost_units)
    lost_admirals = _admirals_lost(sides, report, sunk | captured)
    for side in sides:
        leaves = outcome[side.index] in LEAVING
        for fleet in side.fleets:
            result["fleets"][str(fleet.pk)] = {
                "side": side.index,
                "outcome": outcome[side.index],
                "won": report.winner == side.index,
            }
            if leaves:
                state.worsted.add(fleet.pk)
        if leaves:
            _retreat(e, side, result)
    result["outcome"] = list(outcome)
    result["winner"] = report.winner
    result["battle"] = battle.pk
    if e.kind == Engagement.Kind.SALLY:
        blockaders = 1 - int(e.context["sally_side"])
        result["lifts_blockade"] = outcome[blockaders] in LEAVING
        if result["lifts_blockade"]:
            port_name = e.port.name if e.port is not None else e.place
            _event(result, None, f"The {sides[blockaders].label} blockade of {port_name} was broken by a sally.")
    everyone = sorted(set(sides[0].nations) | set(sides[1].nations))
    winner = "no winner" if report.winner is None else f"the {sides[report.winner].label} side won"
    summary = "; ".join(f"{s.label} {outcome[s.index]}: {_losses(rows, s.index)}" for s in sides)
    days = len(report.days)
    _event(
        result,
        everyone,
        f"Battle at {where}: {sides[0].label} against {sides[1].label}, {days} day(s); {winner}. {summary}.",
        battle=battle.pk,
        place=e.place,
        ships=rows,
    )
    for admiral, side in lost_admirals:
        _event(result, everyone, f"Admiral {admiral.name} ({side.label}) was lost with his flagship at {where}.")


def _ship_row(side: _Side, ship: Ship, fate: str) -> dict[str, Any]:
    return {"side": side.index, "ship": ship.pk, "name": ship.name, "class": ship.ship_class, "fate": fate}


def _losses(rows: list[dict[str, Any]], side: int) -> str:
    counts: dict[str, int] = defaultdict(int)
    for row in rows:
        if row["side"] == side and row["fate"] in ("sunk", "captured", "disabled", "damaged"):
            counts[row["fate"]] += 1
    return ", ".join(f"{n} {fate}" for fate, n in sorted(counts.items())) or "no losses"


def _sink(ship: Ship, turn: int, lost_units: list[int]) -> None:
    """§3/§4: a sunk ship leaves its fleet but stays in history; its land unit is lost (§7)."""
    ship.condition = Ship.Condition.SUNK
    ship.fleet = None
    ship.lost_turn = turn
    if ship.cargo_id is not None:
        lost_units.append(ship.cargo_id)
        ship.cargo = None


def _capture(ship: Ship, captor: _Side, condition: str, state: _ZoneState, lost_units: list[int]) -> None:
    """§4: a prize joins the captor's lead fleet in the condition it was taken in; its owner is the
    captor (``original_nation`` unchanged), its crew the captor's grade (§0); land units aboard are lost."""
    lead = captor.lead
    if lead.pk not in state.next_position:
        top = Ship.objects.filter(fleet=lead).aggregate(top=Max("line_position"))["top"] or 0
        state.next_position[lead.pk] = top
    state.next_position[lead.pk] += 1
    ship.nation = lead.nation
    ship.fleet = lead
    ship.crew = lead.nation.crew
    ship.condition = condition if condition in Ship.AFLOAT else Ship.Condition.READY
    ship.in_ordinary = False
    ship.line_position = state.next_position[lead.pk]
    if ship.cargo_id is not None:
        lost_units.append(ship.cargo_id)
        ship.cargo = None


def _ships_save(ships: list[Ship], lost_units: list[int]) -> None:
    fields = ["condition", "fleet", "nation", "crew", "line_position", "lost_turn", "cargo", "in_ordinary"]
    Ship.objects.bulk_update(ships, fields)
    if lost_units:
        LandUnit.objects.filter(pk__in=lost_units).update(state=LandUnit.State.LOST, port=None)


def _admirals_lost(sides: list[_Side], report: EngagementReport, gone: set[int]) -> list[tuple[Admiral, _Side]]:
    """§0: "An admiral whose flagship is sunk or captured in battle is lost". The side's admiral
    flies his flag in the first ship of the day's line (the engine's flagship, who moves on to the
    next ship after any other loss); any other fleet's admiral in his fleet's first ship."""
    lost: list[tuple[Admiral, _Side]] = []
    for side in sides:
        for fleet in side.fleets:
            admiral = fleet.admiral
            if admiral is None or admiral.status != Admiral.Status.ACTIVE:
                continue
            flagship = side.ships[fleet.pk][0].pk
            dead = _side_admiral_lost(report, side.index) if fleet is side.lead else flagship in gone
            if dead:
                _admiral_lose(admiral, fleet)
                lost.append((admiral, side))
    return lost


def _side_admiral_lost(report: EngagementReport, index: int) -> bool:
    for day in report.days:
        side = day.report.spec.sides[index]
        if side.admiral is None or not side.ships:
            continue
        flagship = side.ships[0].ref
        if any(r.ref == flagship and r.fate in ("sunk", "captured") for r in day.report.ships):
            return True
    return False


def _admiral_lose(admiral: Admiral, fleet: Fleet) -> None:
    admiral.status = Admiral.Status.LOST
    admiral.port = None
    admiral.save(update_fields=["status", "port"])
    fleet.admiral = None
    fleet.save(update_fields=["admiral"])


def _retreat(e: Engagement, side: _Side, result: dict[str, Any]) -> None:
    """§4: a side that retired, broke or evaded (or what is left of a beaten one) goes with all its
    surviving ships to the retreat destination phase 3 worked out for each of its fleets. A side in
    port (a sally, the besieged port, hostile fleets in one port) stays in port."""
    if side.in_port:
        return
    sally = e.kind == Engagement.Kind.SALLY
    afloat = set(
        Ship.objects.filter(fleet__in=side.fleets, condition__in=Ship.AFLOAT).values_list("fleet_id", flat=True)
    )
    for fleet in side.fleets:
        if fleet.pk not in afloat:
            continue  # nothing of it is left to withdraw
        dest = side.data.get("retreat", {}).get(str(fleet.pk)) or {}
        port_key = None if sally else dest.get("port")
        zone_key = dest.get("zone")
        if port_key:
            port = Port.objects.filter(campaign_id=e.campaign_id, key=port_key).first()
            if port is not None and port.sea_zone_id == e.sea_zone_id:
                fleet.port = port
                fleet.save(update_fields=["port"])
                _event(result, [fleet.nation.code], f"{fleet.name} withdrew into {port.name}.", fleet=fleet.pk)
                continue
        if zone_key:
            zone = SeaZone.objects.filter(campaign_id=e.campaign_id, key=zone_key).first()
            if zone is not None:
                fleet.sea_zone = zone
                fleet.port = None
                fleet.save(update_fields=["sea_zone", "port"])
                _event(result, [fleet.nation.code], f"{fleet.name} withdrew to {zone.name}.", fleet=fleet.pk)
                continue
        _event(result, [fleet.nation.code], f"{fleet.name} found nowhere to withdraw to and stays.", fleet=fleet.pk)


def _capture_whole(e: Engagement, sides: list[_Side], *, victim: int, state: _ZoneState) -> None:
    """§4: "A side with no ship able to form a line, intercepted by one that has, is captured whole
    without a battle" — every ship, its land units lost, its admirals with them."""
    result = e.result
    prey, captor = sides[victim], sides[1 - victim]
    lost_units: list[int] = []
    ships = prey.all_ships()
    for ship in ships:
        _capture(ship, captor, ship.condition, state, lost_units)
    _ships_save(ships, lost_units)
    where = e.port.name if e.port is not None else e.sea_zone.name
    everyone = sorted(set(prey.nations) | set(captor.nations))
    for fleet in prey.fleets:
        result["fleets"][str(fleet.pk)] = {"side": victim, "outcome": BEATEN, "won": False}
        state.worsted.add(fleet.pk)
        admiral = fleet.admiral
        if admiral is not None and admiral.status == Admiral.Status.ACTIVE:
            _admiral_lose(admiral, fleet)
            _event(result, everyone, f"Admiral {admiral.name} ({prey.label}) was taken with his ships at {where}.")
    for fleet in captor.fleets:
        result["fleets"][str(fleet.pk)] = {"side": captor.index, "outcome": HELD, "won": True}
    result["outcome"] = [HELD, HELD]
    result["outcome"][victim] = BEATEN
    result["winner"] = captor.index
    result["captured_side"] = victim
    rows = [{"side": victim, "ship": s.pk, "name": s.name, "class": s.ship_class, "fate": "captured"} for s in ships]
    lost = f", and {len(lost_units)} land unit(s) aboard were lost" if lost_units else ""
    _event(
        result,
        everyone,
        f"At {where} the {captor.label} fleet captured all {len(ships)} {prey.label} ship(s) without a battle: "
        f"they had no ship able to form a line{lost}.",
        place=e.place,
        ships=rows,
    )


def _battle_side(side: _Side) -> dict[str, Any]:
    admiral = side.admiral
    return {
        "name": side.label,
        "nations": side.nations,
        "fleets": [f.pk for f in side.fleets],
        "lead_fleet": side.lead.pk,
        "admiral": None if admiral is None else {"name": admiral.name, "grade": admiral.grade},
    }


def _event(result: dict[str, Any], nations: list[str] | None, text: str, **data: Any) -> None:
    """A turn-report event, kept on the engagement until phase 4 hands it to the reports (fog of war:
    ``nations`` are the ones who see it; None is everyone)."""
    result["events"].append({"nations": nations, "text": text, **data})
