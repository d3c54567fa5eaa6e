"""Fighting a zone's engagements (phase 4): dispatching zones to battle tasks, settling each
engagement in sequence, the besieged port's contact roll, hostile fleets in one port, and the
strategic dice a fight adds to the turn's log (RULES.md §3, §4, §5).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from battles.engagements.applying import capture_whole, event_add, results_apply
from battles.engagements.loading import (
    FightingSide,
    ZoneState,
    battle_side_json,
    battle_spec,
    contact_side,
    engagement_side,
    engagement_sides_load,
)
from battles.engagements.ordering import BATTLE_PHASE, LEAVING
from battles.engagements.table import table_claim, table_rows_lock
from battles.engine import (
    FLEET_ACTION,
    BattleSpec,
    ContactDie,
    ContactSide,
    EngagementContext,
    EngagementDay,
    EngagementReport,
    GaugeResult,
    fight_engagement,
    intercept_roll,
    sighting_roll,
    weather_gauge_roll,
)
from battles.engine.combat import params_for
from battles.engine.fleet_action import fight_day_with
from battles.models import Battle, Engagement
from battles.results import battle_record
from battles.selectors import alliances_now
from rules.dice import SeededDice, derive_seed, reseed_key
from rules.ruleset import LIGHT_CLASSES, Ruleset
from rules.strategic_log import StrategicDie
from rules.turn_events import EngagementNoted, PlaceNoted


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


def zone_batches(zones: Sequence[int], per_task: int, at_least: int = 2) -> list[list[int]]:
    """``zones`` cut into batches of at most ``per_task``, in order, as evenly as that allows (17
    zones by 4: 4, 4, 3, 3, 3 rather than 4, 4, 4, 4, 1): the battle tasks of one turn. Never fewer
    than ``at_least`` batches while there are zones enough, so that two contested zones are still
    fought by two tasks in parallel."""
    if not zones:
        return []
    count = min(len(zones), max(-(-len(zones) // max(1, per_task)), at_least))
    size, extra = divmod(len(zones), count)
    batches, start = [], 0
    for i in range(count):
        end = start + size + (1 if i < extra else 0)
        batches.append(list(zones[start:end]))
        start = end
    return batches


def engagements_fight_zone(
    *, turn_id: int, zone_id: int, fought_by: str, alliances: Mapping[str, Collection[str]] | None = None
) -> list[int]:
    """:func:`engagements_fight_zones` for one zone."""
    return engagements_fight_zones(turn_id=turn_id, zone_ids=[zone_id], fought_by=fought_by, alliances=alliances)


def engagements_fight_zones(
    *,
    turn_id: int,
    zone_ids: Sequence[int],
    fought_by: str,
    alliances: Mapping[str, Collection[str]] | None = None,
) -> list[int]:
    """Fight every pending engagement of the zones ``zone_ids``, zone by zone in that order and in
    sequence order within a zone, in one transaction.

    Idempotent: engagements already fought are skipped (the rows are locked first, so a duplicate
    task waits and then finds nothing left); each is marked fought with its battle and ship changes.
    ``fought_by`` names who fought them (a task id and worker, or "inline"). ``alliances``: each
    nation code's allies this turn (who may see a battle besides those who fought it); when not
    given, read from the campaign's relations as they stand (phase 1 is over by phase 4). Returns
    the ids fought.

    Zones are independent (a fleet is in one zone), so a batch shares what does not change between
    them — the transaction, the lock on the turn, the relations, the table markings — and reads the
    zones' engagements in one query: a battle task of several zones costs fewer queries per battle
    than one task per zone (issue 14).
    """
    with transaction.atomic():
        _turn_key_share(turn_id)
        every = list(
            Engagement.objects.select_for_update(of=("self",))
            .filter(turn_id=turn_id, sea_zone_id__in=list(zone_ids))
            .select_related("turn__campaign", "sea_zone", "port")
            # A fight needs the turn's number and season, not its stored snapshot and dice log
            # (large JSON, decoded for nothing in every zone).
            .defer("turn__snapshot", "turn__dice_log")
            .order_by("sea_zone_id", "sequence")
        )
        by_zone: dict[int, list[Engagement]] = {}
        for engagement in every:
            by_zone.setdefault(engagement.sea_zone_id, []).append(engagement)
        # A zone whose battle is on the table: its later engagements wait for its result.
        waiting = {z for z, group in by_zone.items() if any(e.status == Engagement.Status.AT_TABLE for e in group)}
        pending = [e for e in every if e.status == Engagement.Status.PENDING and e.sea_zone_id not in waiting]
        if not pending:
            return []
        if alliances is None:
            alliances = alliances_now(campaign=pending[0].turn.campaign)
        marked = table_rows_lock(turn_id=turn_id, engagements=pending)
        now = timezone.now()
        fought: list[int] = []
        for zone_id in zone_ids:
            if zone_id not in waiting:
                fought += _zone_fight(
                    by_zone.get(zone_id, []), ZoneState(alliances=alliances, table_rows=marked), fought_by, now
                )
        return fought


def _zone_fight(engagements: list[Engagement], state: ZoneState, fought_by: str, now: datetime) -> list[int]:
    """One zone's engagements (all of them this turn, in sequence order): the fought ones tell
    ``state`` who already left; the pending ones are fought in turn until one goes to the table."""
    for done in engagements:
        if done.status == Engagement.Status.FOUGHT:
            state.worsted |= {int(f) for f, d in done.result.get("fleets", {}).items() if d["outcome"] in LEAVING}
    fought = []
    for engagement in engagements:
        if engagement.status != Engagement.Status.PENDING:
            continue
        if _engagement_settle(engagement, state):
            # Held back for the table (issue 15): it and the zone's later engagements wait.
            engagement.status = Engagement.Status.AT_TABLE
            engagement.save(update_fields=["status", "result"])
            break
        engagement.status = Engagement.Status.FOUGHT
        engagement.fought_at = now
        engagement.fought_by = fought_by[:200]
        engagement.save(update_fields=["status", "fought_at", "fought_by", "battle", "result"])
        fought.append(engagement.pk)
    return fought


def _turn_key_share(turn_id: int) -> None:
    """Take FOR KEY SHARE on the turn before any engagement lock.

    A Battle row's foreign key to the turn needs this lock anyway; taking it first means a battle
    task waits for a phase 4 that holds the turn (FOR UPDATE) instead of holding engagement locks
    that phase 4 waits for — no deadlock between a late task and the inline fallback."""
    table = connection.ops.quote_name(Engagement._meta.get_field("turn").related_model._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT 1 FROM {table} WHERE id = %s FOR KEY SHARE", [turn_id])


def _engagement_settle(e: Engagement, state: ZoneState) -> bool:
    """Load both sides as they stand now and settle the engagement: no fight when a side has gone
    or neither can form a line, a capture whole when only one can, else a battle — or, for a battle
    sent to the table, hold it back (True)."""
    sides = engagement_sides_load(e, state, e.turn.campaign.ruleset)
    result: dict[str, Any] = {"events": [], "strategic_dice": [], "fleets": {}, "outcome": None, "winner": None}
    e.result = result
    where = e.port.name if e.port is not None else e.sea_zone.name
    gone = [s for s in sides if not s.fleets]
    if gone:
        present = [s for s in sides if s.fleets]
        missing = " and ".join("/".join(s.data.get("nations", [])) for s in gone)
        result["note"] = f"no fight: the {missing} ships were no longer there"
        for side in present:
            text = f"At {where} there was no fight: the {missing} ships had gone."
            event_add(
                result,
                side.nations,
                PlaceNoted(text=text, place_key=e.place, place_name=where, engagement_id=e.pk, code="no_fight"),
            )
        return False
    able = [bool(s.line) for s in sides]
    if not any(able):
        result["note"] = "no fight: neither side had a ship able to form a line"
        text = f"At {where} neither side could form a line: no battle."
        noted = PlaceNoted(text=text, place_key=e.place, place_name=where, engagement_id=e.pk, code="no_fight")
        event_add(result, sides[0].nations + sides[1].nations, noted)
        return False
    if able[0] != able[1]:
        capture_whole(e, sides, victim=0 if not able[0] else 1, state=state)
        return False
    return _engagement_fight(e, sides, state, where)


def _engagement_fight(e: Engagement, sides: list[FightingSide], state: ZoneState, where: str) -> bool:
    """Both sides can form a line: roll the besieged port's contact if any; then hold the battle
    back if it goes to the table (True), else fight the days, record the Battle row and apply its
    results."""
    campaign = e.turn.campaign
    ruleset = campaign.ruleset
    kind = e.kind
    ctx = e.context or {}
    result = e.result
    # A battle the GM re-fights has the seed they gave (campaign.gm.repair); every other its derived one.
    reseeded = (e.turn.reseeds or {}).get(reseed_key(BATTLE_PHASE, e.place, e.sequence))
    derived = derive_seed(campaign.seed, e.turn.number, BATTLE_PHASE, e.place, e.sequence)
    seed = int(reseeded) if reseeded is not None else derived
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
            return False
        interceptor = 1 - in_port_side
    if table_claim(e, sides, ruleset, state.table_rows):
        # What the table needs of the contact: who is at anchor and who intercepted (the pack shows it).
        result["table"] = {
            "contact": contact,
            "at_anchor_side": in_port_side if at_anchor else None,
            "interceptor": interceptor,
        }
        return True
    spec, names = battle_spec(sides, at_anchor_side=in_port_side if at_anchor else None)
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
                sides=(engagement_side(sides[0]), engagement_side(sides[1])),
            ),
        )
    _record_strategic(e, sides, report, result)
    fought = {code for side in sides for code in side.nations}
    battle = battle_record(
        campaign_id=e.campaign_id,
        turn_id=e.turn_id,
        kind=Battle.Kind.FLEET_ACTION,
        sea_zone_id=e.sea_zone_id,
        port_id=e.port_id,
        place=e.place,
        sequence=e.sequence,
        seed=seed,
        sides=[battle_side_json(s) for s in sides],
        winner=report.winner,
        report={**report.to_json(), "engagement": kind, "contact": contact},
        seen_by=fought | {ally for code in fought for ally in state.alliances.get(code, ())},
    )
    e.battle = battle
    results_apply(e, sides, report, names, battle, state, where)
    return False


def _besieged_port_contact(
    e: Engagement,
    sides: list[FightingSide],
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
            interceptor=contact_side(sea),
            target=contact_side(port),
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
        text = f"Off besieged {where} the fleet of {sea.words} engaged the ships of {port.words} in port{anchored}."
        event_add(
            result,
            sea.nations + port.nations,
            EngagementNoted(text=text, engagement_id=e.pk, code="ships_in_port_engaged"),
        )
    elif sighting.sighted:
        text = f"Off besieged {where} we sighted the ships of {port.words} but could not engage them."
        event_add(result, sea.nations, EngagementNoted(text=text, engagement_id=e.pk, code="ships_in_port_sighted"))
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


def _record_strategic(
    e: Engagement, sides: list[FightingSide], report: EngagementReport, result: dict[str, Any]
) -> None:
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
