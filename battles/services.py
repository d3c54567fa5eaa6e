"""Write-side use cases of the battles app.

Phase 5 of a turn — the garrison guns, fireships and running the guns (RULES.md §4, §6, §9): each
``*_fight``/``*_fire``/``*_send`` function below fights one action at one port with the pure engine
(:mod:`battles.engine`) or rule module (:mod:`rules.fireships`), applies the results to the ships
in the database (:mod:`battles.port_results`, through :mod:`battles.results`), and records one
:class:`~battles.models.Battle` row with the engine's report. What an action is given and gives
back (:class:`Belligerent`, :class:`PortActionContext`, :class:`PortActionResult`) is in
:mod:`battles.port_context`; the campaign layer passes diplomacy in (the battles app does not
import the campaign app). Phase 4's fleet actions are :mod:`battles.engagements`.

Dice: the caller hands in one :class:`~rules.dice.SeededDice` per port for the whole phase,
``derive_seed(campaign seed, turn, 5, port key)``, used in the order of RULES.md §3 (garrison guns,
fireships, running the guns). Each Battle row records that seed and, in its report, ``dice_offset``:
how many dice of the stream earlier actions at that port drew, so each action replays from its seed.
Garrison barrages and fireships are strategic dice (§3), also appended to the turn's dice log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from battles.engine import (
    GARRISON_GUNS,
    RUNNING_THE_GUNS,
    AdmiralSpec,
    BattleSpec,
    SideSpec,
    garrison_barrage,
    line_eligible,
    run_the_guns,
)
from battles.models import Battle
from battles.port_context import (
    Belligerent,
    PortActionContext,
    PortActionResult,
    losses_text,
    nation_codes,
    port_battle_record,
    port_spec,
    ship_spec,
    strategic_dice_append,
    unique_names,
)
from battles.port_results import fireship_results_apply, port_results_apply
from battles.selectors import fleet_ships_in_line
from fleets.models import Fleet, Ship
from ports.models import Port
from rules.fireships import FireshipReport, FireshipTarget, fireships_attack
from rules.strategic_log import StrategicDie
from rules.turn_events import counted

__all__ = [
    "Belligerent",
    "PortActionContext",
    "PortActionResult",
    "fireships_send",
    "garrison_guns_fire",
    "running_the_guns_fight",
]


# --- §4 "Garrison guns" ------------------------------------------------------------------------


def garrison_guns_fire(
    *, ctx: PortActionContext, port: Port, holder: Belligerent, targets: Sequence[Ship]
) -> PortActionResult | None:
    """RULES.md §4 "Garrison guns" [S]: "a port whose guns are held by a nation at war with ships
    inside it fires one barrage at them: 5 × FF (Gibraltar 10 × FF) fortification dice at +1 with
    hot shot, plus battery dice, no ship dice, one round, §6 targeting; an 8 means taken by the
    port."

    ``targets``: the ships inside of nations at war with ``holder``, ready or damaged (a disabled
    ship is out of the barrage's targets, §6 "C"), fleet id and line order. Returns None (nothing
    recorded) when the port has no fortification and no battery to fire or nobody to fire at.
    Ships taken by the port go to the holder. Precondition: the caller decided that ``holder``
    holds the guns this turn (``battles.selectors.guns_holder``).
    """
    if not targets or (port.fortification == 0 and port.batteries == 0):
        return None
    names = unique_names(targets)
    first = ctx.nations[targets[0].nation_id]
    spec = BattleSpec(
        type=GARRISON_GUNS,
        sides=(
            SideSpec(
                name=f"Ships in {port.name}",
                navy=first.navy,
                crew=first.crew,
                ships=tuple(ship_spec(s, names[s.pk], ctx) for s in targets),
            ),
            SideSpec(name=f"{holder.name} garrison", navy=holder.navy, crew=holder.crew, ships=()),
        ),
        port=port_spec(port, hostile=True),
    )
    offset = ctx.dice.count
    report = garrison_barrage(spec, ctx.dice, ctx.ruleset)
    strategic_dice_append(ctx.log, report, port.key)
    codes = nation_codes(ctx, {s.nation_id for s in targets})  # before any ship changes hands
    ships = {s.pk: s for s in targets}
    losses = port_results_apply(ctx, port, report, ships, port_captor=holder.id, attacker_fleets=())
    battle = port_battle_record(
        ctx,
        port,
        Battle.Kind.GARRISON_GUNS,
        sides=[{"name": spec.sides[0].name, "nations": codes}, {"name": spec.sides[1].name, "nations": [holder.code]}],
        winner=report.winner,
        report={**report.to_json(), "dice_offset": offset},
    )
    text = (
        f"The guns of {port.name} ({holder.name}) fired {_dice(report.barrage[0] if report.barrage else 0)} "
        f"at {counted(len(targets), 'hostile ship')} inside: {losses_text(losses, _names(ctx))}."
    )
    return PortActionResult(battle, sorted({*codes, holder.code}), text, losses)


# --- §9 Fireships ---------------------------------------------------------------------------------


def fireships_send(
    *,
    ctx: PortActionContext,
    port: Port,
    fleet: Fleet,
    fireships: Sequence[Ship],
    targets: Sequence[Ship],
    guns_holder_id: int | None,
) -> PortActionResult | None:
    """RULES.md §9: "In phase 5, before running the guns, a fleet allowed to run the guns at P may
    send its fireship-class ships at the enemy ships in P; each is expended. Fireship k attacks the
    k-th enemy ship in P in line order, cycling. If P's guns fire for the target's side, each
    fireship first takes one fortification die (d10 +1, no hot shot): 4+ stops it."

    ``fireships``: the fleet's fireships able to sail (ready or damaged), line order. ``targets``:
    the enemy ships in P (in ordinary included, building excluded), fleet id and line order.
    P's guns fire for a target's side when their holder (``guns_holder_id``, None while settling)
    is at war with the attacker and is the target's nation or its ally. Each fireship sent is
    expended; those kept back because every target was already sunk stay in the fleet. Returns
    None when there is nothing to attack with or at.
    """
    if not fireships or not targets:
        return None
    attacker = fleet.nation_id
    holder_fires = guns_holder_id is not None and ctx.relations.at_war(guns_holder_id, attacker)

    def defended(ship: Ship) -> bool:
        return holder_fires and guns_holder_id is not None and ctx.relations.allied(guns_holder_id, ship.nation_id)

    offset = ctx.dice.count
    result = fireships_attack(
        port.key,
        [s.pk for s in fireships],
        [FireshipTarget(s.pk, s.condition, defended(s)) for s in targets],  # type: ignore[arg-type]
        port.fortification,
        ctx.ruleset,
        ctx.dice,
        ctx.log,
    )
    by_id = {s.pk: s for s in (*fireships, *targets)}
    spent, losses = fireship_results_apply(ctx, result, by_id, targets)
    fleet_code = ctx.nations[attacker].code
    target_codes = nation_codes(ctx, {s.nation_id for s in targets})
    battle = port_battle_record(
        ctx,
        port,
        Battle.Kind.FIRESHIPS,
        sides=[
            {"name": fleet.name, "nations": [fleet_code]},
            {"name": f"Ships in {port.name}", "nations": target_codes},
        ],
        winner=None,
        report=_fireship_report_json(result, by_id, ctx.dice.seed, offset),
    )
    names = _names(ctx)
    text = (
        f"{fleet.name} ({names.get(fleet_code, fleet_code)}) sent {counted(len(spent), 'fireship')} into "
        f"{port.name}: {losses_text(losses, names)}."
    )
    return PortActionResult(battle, sorted({fleet_code, *target_codes}), text, losses)


def _running_the_guns_spec(
    ctx: PortActionContext,
    port: Port,
    lead: Fleet,
    line: Sequence[Ship],
    defenders: Sequence[Ship],
    defending: Belligerent,
    *,
    guns_hostile: bool,
) -> BattleSpec:
    """The attacking line (named after its lead fleet, with its admiral and supply) against the
    ships in ``port`` (of the ``defending`` nation's navy), the port's guns firing when hostile."""
    lead_nation = ctx.nations[lead.nation_id]
    admiral = lead.admiral
    names = unique_names([*line, *defenders])
    return BattleSpec(
        type=RUNNING_THE_GUNS,
        sides=(
            SideSpec(
                name=f"{lead_nation.name} ({lead.name})",
                navy=lead_nation.navy,
                crew=lead_nation.crew,
                admiral=None if admiral is None else AdmiralSpec(admiral.grade, admiral.name),
                in_supply=lead.in_supply,
                ships=tuple(ship_spec(s, names[s.pk], ctx) for s in line),
            ),
            SideSpec(
                name=port.name,
                navy=defending.navy,
                crew=defending.crew,
                ships=tuple(ship_spec(s, names[s.pk], ctx) for s in defenders),
            ),
        ),
        port=port_spec(port, hostile=guns_hostile),
    )


def _fireship_report_json(result: FireshipReport, ships: Mapping[int, Ship], seed: int, offset: int) -> dict[str, Any]:
    def die(d: StrategicDie | None) -> dict[str, object] | None:
        return None if d is None else d.to_dict()

    return {
        "type": "fireships",
        "seed": seed,
        "dice_offset": offset,
        "attacks": [
            {
                "fireship": ships[a.fireship_id].name,
                "fireship_ref": a.fireship_id,
                "target": ships[a.target_id].name,
                "target_ref": a.target_id,
                "fort_die": die(a.fort_die),
                "attack_die": die(a.attack_die),
                "effect": a.effect.value,
                "before": a.condition_before,
                "after": a.condition_after,
            }
            for a in result.attacks
        ],
        "expended": [ships[i].name for i in result.expended],
        "unused": [ships[i].name for i in result.unused],
    }


# --- §4 "Running the guns in a campaign", §6 ----------------------------------------------------------


def running_the_guns_fight(
    *,
    ctx: PortActionContext,
    port: Port,
    fleets: Sequence[Fleet],
    defenders: Sequence[Ship],
    guns_holder_id: int | None,
) -> PortActionResult | None:
    """RULES.md §4 "Running the guns in a campaign" [S] and §6: the attacking side's fleets
    (``fleets``, lead fleet first — "Several attacking fleets of one side go together, lead fleet
    first") run the guns of ``port``; "Side 1 = every ship in P of nations at war with the attacker
    (in ordinary included, building excluded). Fortification and battery dice count only if P's
    guns are held by a nation at war with the attacker" — ``guns_holder_id`` (None while the port
    is settling) at war with a nation of the attacking side.

    The attacking line: the lead fleet's ships in line order, then the other fleets' (already in
    order), ready or damaged, filtered by :func:`~battles.engine.line_eligible` ("frigates and
    smaller only when a side has nothing bigger; transports never"). ``defenders`` are ready, damaged
    or disabled (a disabled ship in port is out of every line, but counts for the barrage's ship
    dice: "floor(defender's ships in port not sunk or captured / 4)"). The defending side is the guns
    holder when its guns fire, else the first defender's nation: its navy gives the battery and
    ship dice their nationality, and it takes the ships the port takes (an 8 of the barrage, the
    attacker's disabled ships left behind); a boarding is won by a ship, whose nation takes the
    prize. The attacker breaks off into the port's zone, where its fleets already are. Returns
    None (nothing recorded) when the side has no ship to form a line, or when there is neither a
    defender nor a hostile gun.

    Precondition (the caller's): no nation of the attacking side holds the guns or is allied to
    their holder — "Nobody runs the guns of a port whose guns its own side holds".
    """
    by_fleet = fleet_ships_in_line(fleets, ctx.ruleset)
    candidates = [s for f in fleets for s in by_fleet[f.pk] if s.condition in ("ready", "damaged")]
    eligible = line_eligible([s.ship_class for s in candidates])
    line = [s for s, ok in zip(candidates, eligible, strict=True) if ok]
    attacking_nations = {f.nation_id for f in fleets}
    guns_hostile = guns_holder_id is not None and any(
        ctx.relations.at_war(guns_holder_id, n) for n in attacking_nations
    )
    if not line or not (defenders or guns_hostile):
        return None
    defending = ctx.nations[guns_holder_id if guns_hostile and guns_holder_id is not None else defenders[0].nation_id]
    spec = _running_the_guns_spec(ctx, port, fleets[0], line, defenders, defending, guns_hostile=guns_hostile)
    offset = ctx.dice.count
    report = run_the_guns(spec, ctx.dice, ctx.ruleset)
    attacker_codes = nation_codes(ctx, attacking_nations)
    defender_codes = nation_codes(ctx, {s.nation_id for s in defenders} | {defending.id})  # before ships change hands
    ships = {s.pk: s for s in (*line, *defenders)}
    losses = port_results_apply(ctx, port, report, ships, port_captor=defending.id, attacker_fleets=fleets)
    battle = port_battle_record(
        ctx,
        port,
        Battle.Kind.RUNNING_THE_GUNS,
        sides=[
            {"name": spec.sides[0].name, "nations": attacker_codes},
            {"name": spec.sides[1].name, "nations": defender_codes},
        ],
        winner=report.winner,
        report={**report.to_json(), "dice_offset": offset},
    )
    names = _names(ctx)
    who = {
        0: f"the attackers ({', '.join(names.get(c, c) for c in attacker_codes)})",
        1: f"the defenders of {port.name}",
    }
    text = (
        f"{', '.join(f.name for f in fleets)} ran the guns of {port.name} with {counted(len(line), 'ship')} against "
        f"{len(defenders)} in port; barrage {', '.join(map(str, report.barrage or ()))} dice over {report.rounds} "
        f"{'round' if report.rounds == 1 else 'rounds'}; {losses_text(losses, _names(ctx))}; "
        + (f"won by {who[report.winner]}" if report.winner is not None else "no winner")
        + f"; the attackers broke off into {port.sea_zone.name}."
    )
    return PortActionResult(battle, sorted({*attacker_codes, *defender_codes}), text, losses)


def _names(ctx: PortActionContext) -> dict[str, str]:
    """Nation codes to names, for the texts players read."""
    return {n.code: n.name for n in ctx.nations.values()}


def _dice(n: int) -> str:
    return "1 die" if n == 1 else f"{n} dice"
