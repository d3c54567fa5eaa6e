"""Write-side use cases of the battles app.

Phase 5 of a turn — the garrison guns, fireships and running the guns (RULES.md §4, §6, §9): each
``*_fight``/``*_fire``/``*_send`` function below fights one action at one port with the pure engine
(:mod:`battles.engine`) or rule module (:mod:`rules.fireships`), applies the results to the ships
in the database, and records one :class:`~battles.models.Battle` row with the engine's report. The
campaign layer decides who may attack and whom (orders, diplomacy) and passes it in; the battles
app does not import the campaign app, so nations travel as :class:`Belligerent` and diplomacy as a
:class:`~battles.selectors.Relations`.

Results applied to ships (RULES.md §4 "After a battle", §6, §0 "Admirals", §7 "A lost or captured
transport loses its unit"):

* sunk → condition ``sunk``, out of its fleet, ``lost_turn`` set; a spent fireship → ``expended``;
* damaged / disabled → that condition, the ship stays where it is;
* captured → owned by the captor, crewed at the captor's default grade ("prizes their captor's"),
  in the condition it was taken in; it joins the capturing ship's fleet, else the captor's lead
  fleet among the attackers (towed prizes), else a fleet of the captor in the port (a new one
  named after the port if there is none);
* a lost or captured transport loses the land unit aboard;
* an admiral whose flagship (the first ship of his fleet's line) is sunk or captured is lost.

Dice: the caller hands in one :class:`~rules.dice.SeededDice` per port for the whole phase,
``derive_seed(campaign seed, turn, 5, port key)``, used in the order of RULES.md §3 (garrison guns,
fireships, running the guns). Each Battle row records that seed and, in its report, ``dice_offset``:
how many dice of the stream earlier actions at that port drew, so each action replays from its seed.
Garrison barrages and fireships are strategic dice (§3), also appended to the turn's dice log.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Max

from battles.engine import (
    GARRISON_GUNS,
    RUNNING_THE_GUNS,
    AdmiralSpec,
    BattleReport,
    BattleSpec,
    PortSpec,
    ShipSpec,
    SideSpec,
    garrison_barrage,
    line_eligible,
    run_the_guns,
)
from battles.models import Battle
from battles.selectors import Relations, fleet_ships_in_line
from fleets.models import Admiral, Fleet, Ship
from ports.models import LandUnit, Port
from rules.dice import SeededDice
from rules.fireships import FireshipReport, FireshipTarget, fireships_attack
from rules.ruleset import Ruleset
from rules.strategic_log import PURPOSES, StrategicDie, StrategicLog

# The engine's fates (CONTRACT.md) as ship conditions; "sunk" and "captured" are handled apart.
_FATE_CONDITION = {
    "intact": Ship.Condition.READY,
    "damaged": Ship.Condition.DAMAGED,
    "disabled": Ship.Condition.DISABLED,
}
_DAMAGE_EFFECTS = frozenset({"damaged", "disabled"})


@dataclass(frozen=True, slots=True)
class Belligerent:
    """A nation as a port action needs it: id, code and name, navy (nationality lists) and default
    crew grade (given to the prizes it takes)."""

    id: int
    code: str
    name: str
    navy: str
    crew: str


@dataclass(frozen=True, slots=True)
class PortActionContext:
    """One port's share of phase 5: the turn, the rules, diplomacy, the port's dice and the turn's
    strategic dice log."""

    campaign_id: int
    turn_id: int
    turn: int
    ruleset: Ruleset
    relations: Relations
    nations: Mapping[int, Belligerent]
    dice: SeededDice
    log: StrategicLog


@dataclass(slots=True)
class PortActionResult:
    """What an action did: its Battle row, the nations that took part (who see it in their turn
    reports) and a one-paragraph account for those reports."""

    battle: Battle
    nations: list[str]
    text: str
    losses: dict[str, Counter[str]] = field(default_factory=dict)


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
    names = _unique_names(targets)
    first = ctx.nations[targets[0].nation_id]
    spec = BattleSpec(
        type=GARRISON_GUNS,
        sides=(
            SideSpec(
                name=f"Ships in {port.name}",
                navy=first.navy,
                crew=first.crew,
                ships=tuple(_ship_spec(s, names[s.pk], ctx) for s in targets),
            ),
            SideSpec(name=f"{holder.name} garrison", navy=holder.navy, crew=holder.crew, ships=()),
        ),
        port=_port_spec(port, hostile=True),
    )
    offset = ctx.dice.count
    report = garrison_barrage(spec, ctx.dice, ctx.ruleset)
    _strategic_dice_append(ctx.log, report, port.key)
    codes = _codes(ctx, {s.nation_id for s in targets})  # before any ship changes hands
    ships = {s.pk: s for s in targets}
    losses = _results_apply(ctx, port, report, ships, port_captor=holder.id, attacker_fleets=())
    battle = _battle_record(
        ctx,
        port,
        Battle.Kind.GARRISON_GUNS,
        sides=[{"name": spec.sides[0].name, "nations": codes}, {"name": spec.sides[1].name, "nations": [holder.code]}],
        winner=report.winner,
        report={**report.to_json(), "dice_offset": offset},
    )
    text = (
        f"The guns of {port.name} ({holder.code}) fired {report.barrage[0] if report.barrage else 0} dice "
        f"at {len(targets)} hostile ship(s) inside: {_losses_text(losses)}."
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
    losses: dict[str, Counter[str]] = {}
    spent = [by_id[i] for i in result.expended]
    for ship in spent:
        _ship_gone(ship, ctx.turn, Ship.Condition.EXPENDED)
        losses.setdefault(ctx.nations[ship.nation_id].code, Counter())["expended"] += 1
    flagships = _flagships({s.fleet_id for s in targets if s.fleet_id is not None}, ctx.ruleset)
    lost_flagships: set[int] = set()
    for ship_id, after in result.conditions.items():
        ship = by_id[ship_id]
        if after == ship.condition:
            continue
        code = ctx.nations[ship.nation_id].code
        losses.setdefault(code, Counter())[after] += 1
        if after == "sunk":
            if flagships.get(ship.fleet_id or 0) == ship.pk:
                lost_flagships.add(ship.fleet_id or 0)
            _ship_gone(ship, ctx.turn, Ship.Condition.SUNK)
        else:
            ship.condition = after
            ship.save(update_fields=["condition"])
    _admirals_lose(lost_flagships)
    fleet_code = ctx.nations[attacker].code
    target_codes = _codes(ctx, {s.nation_id for s in targets})
    battle = _battle_record(
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
    text = f"{fleet.name} ({fleet_code}) sent {len(spent)} fireship(s) into {port.name}: {_losses_text(losses)}."
    return PortActionResult(battle, sorted({fleet_code, *target_codes}), text, losses)


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
    lead = fleets[0]
    lead_nation = ctx.nations[lead.nation_id]
    admiral = lead.admiral
    names = _unique_names([*line, *defenders])
    defending = ctx.nations[guns_holder_id if guns_hostile and guns_holder_id is not None else defenders[0].nation_id]
    spec = BattleSpec(
        type=RUNNING_THE_GUNS,
        sides=(
            SideSpec(
                name=f"{lead_nation.name} ({lead.name})",
                navy=lead_nation.navy,
                crew=lead_nation.crew,
                admiral=None if admiral is None else AdmiralSpec(admiral.grade, admiral.name),
                in_supply=lead.in_supply,
                ships=tuple(_ship_spec(s, names[s.pk], ctx) for s in line),
            ),
            SideSpec(
                name=port.name,
                navy=defending.navy,
                crew=defending.crew,
                ships=tuple(_ship_spec(s, names[s.pk], ctx) for s in defenders),
            ),
        ),
        port=_port_spec(port, hostile=guns_hostile),
    )
    offset = ctx.dice.count
    report = run_the_guns(spec, ctx.dice, ctx.ruleset)
    attacker_codes = _codes(ctx, attacking_nations)
    defender_codes = _codes(ctx, {s.nation_id for s in defenders} | {defending.id})  # before ships change hands
    ships = {s.pk: s for s in (*line, *defenders)}
    losses = _results_apply(ctx, port, report, ships, port_captor=defending.id, attacker_fleets=fleets)
    battle = _battle_record(
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
    who = {0: f"the attackers ({', '.join(attacker_codes)})", 1: f"the defenders of {port.name}"}
    text = (
        f"{', '.join(f.name for f in fleets)} ran the guns of {port.name} with {len(line)} ship(s) against "
        f"{len(defenders)} in port; barrage {', '.join(map(str, report.barrage or ()))} dice over {report.rounds} "
        f"round(s); {_losses_text(losses)}; "
        + (f"won by {who[report.winner]}" if report.winner is not None else "no winner")
        + f"; the attackers broke off into {port.sea_zone.name}."
    )
    return PortActionResult(battle, sorted({*attacker_codes, *defender_codes}), text, losses)


# --- applying results -----------------------------------------------------------------------------------


def _results_apply(
    ctx: PortActionContext,
    port: Port,
    report: BattleReport,
    ships: Mapping[int, Ship],
    *,
    port_captor: int,
    attacker_fleets: Sequence[Fleet],
) -> dict[str, Counter[str]]:
    """Apply an engine report's fates to the ships (module docstring); returns losses by nation code.

    A ship taken in a boarding goes to the nation of the ship that won it: into the captor's first
    fleet among ``attacker_fleets`` (the attackers tow their prizes off with their lead fleet) when
    that ship was an attacker, else into the winning ship's own fleet in the port. A ship taken with
    no boarding — an 8 of a barrage ("taken by the port"), an attacker's disabled ship left behind —
    goes to ``port_captor``, into a fleet of it in ``port``.
    """
    taken_cond = _conditions_when_taken(report)
    boarded_by = _boarding_winners(report)
    refs = [r.ref for r in report.ships]
    # Read before any change: a capturing ship may itself be sunk or taken later in the list.
    first_fleet = {pk: s.fleet for pk, s in ships.items()}
    first_nation = {pk: s.nation_id for pk, s in ships.items()}
    flagships = _flagships({s.fleet_id for s in ships.values() if s.fleet_id is not None}, ctx.ruleset)
    attacking = {f.pk for f in attacker_fleets}
    losses: dict[str, Counter[str]] = {}
    lost_flagships: set[int] = set()
    for index, result in enumerate(report.ships):
        assert isinstance(result.ref, int)
        ship = ships[result.ref]
        code = ctx.nations[ship.nation_id].code
        fleet_id = ship.fleet_id or 0
        if result.fate in ("sunk", "captured"):
            losses.setdefault(code, Counter())[result.fate] += 1
            if flagships.get(fleet_id) == ship.pk:
                lost_flagships.add(fleet_id)
        if result.fate == "sunk":
            _ship_gone(ship, ctx.turn, Ship.Condition.SUNK)
        elif result.fate == "captured":
            winner_index = boarded_by.get(index)
            if winner_index is None:
                captor, destination = port_captor, _port_fleet(ctx, port, port_captor)
            else:
                winner_ref = refs[winner_index]
                assert isinstance(winner_ref, int)
                captor = first_nation[winner_ref]
                own_fleet = first_fleet[winner_ref]
                assert own_fleet is not None
                destination = own_fleet
                if own_fleet.pk in attacking:
                    destination = next((f for f in attacker_fleets if f.nation_id == captor), own_fleet)
            _ship_capture(ctx, ship, captor, destination, taken_cond.get(index, ship.condition))
        else:
            condition = _FATE_CONDITION[result.fate]
            if condition != ship.condition:
                losses.setdefault(code, Counter())[condition] += 1
                ship.condition = condition
                ship.save(update_fields=["condition"])
    _admirals_lose(lost_flagships)
    return losses


def _conditions_when_taken(report: BattleReport) -> dict[int, str]:
    """Each ship's condition when it was taken: its starting condition, worsened by every damaging
    die at it before (dice rows carry the applied effect; a ship captured is out of the battle, so
    no die follows its capture). RULES.md §4: prizes join "in the condition they were taken in"."""
    current: dict[int, str] = {}
    index = 0
    for side in report.spec.sides:
        for ship in side.ships:
            current[index] = ship.condition
            index += 1
    for row in report.dice_rows:
        target, effect = row[8], row[9]
        if target >= 0 and effect in _DAMAGE_EFFECTS:
            current[target] = effect
    return current


def _boarding_winners(report: BattleReport) -> dict[int, int]:
    """Captured ship index → the ship that won the boarding (its d6 row says "wins")."""
    winners: dict[int, int] = {}
    for row in report.dice_rows:
        purpose, ship, target, effect = row[3], row[7], row[8], row[9]
        if purpose == "boarding" and effect == "wins" and ship >= 0 and target >= 0:
            winners[target] = ship
    return winners


def _ship_capture(ctx: PortActionContext, ship: Ship, captor: int, fleet: Fleet, condition: str) -> None:
    """The ship passes to ``captor`` in ``condition``, into ``fleet`` at the end of its line."""
    _cargo_lose(ship)
    last = Ship.objects.filter(fleet=fleet).aggregate(m=Max("line_position"))["m"] or 0
    ship.nation_id = captor
    ship.crew = ctx.nations[captor].crew
    ship.condition = condition
    ship.fleet = fleet
    ship.line_position = last + 1
    if fleet.port_id is None:
        ship.in_ordinary = False  # towed off to sea: a ship in ordinary cannot be at sea (§2)
    ship.save(update_fields=["nation", "crew", "condition", "fleet", "line_position", "in_ordinary", "cargo"])


def _ship_gone(ship: Ship, turn: int, condition: str) -> None:
    """Sunk or expended: out of its fleet, kept in history with the turn it was lost."""
    _cargo_lose(ship)
    ship.condition = condition
    ship.fleet = None
    ship.lost_turn = turn
    ship.save(update_fields=["condition", "fleet", "lost_turn", "cargo"])


def _cargo_lose(ship: Ship) -> None:
    """RULES.md §7: "A lost or captured transport loses its unit."""
    if ship.cargo_id is not None:
        LandUnit.objects.filter(pk=ship.cargo_id).update(state=LandUnit.State.LOST, port=None)
        ship.cargo = None


def _flagships(fleet_ids: set[int], ruleset: Ruleset) -> dict[int, int]:
    """Fleet id → its flagship (first ship of its line) for the fleets that have an admiral."""
    with_admiral = list(Fleet.objects.filter(pk__in=fleet_ids, admiral__isnull=False))
    return {fid: ships[0].pk for fid, ships in fleet_ships_in_line(with_admiral, ruleset).items() if ships}


def _admirals_lose(fleet_ids: set[int]) -> None:
    """RULES.md §0: "An admiral whose flagship is sunk or captured in battle is lost"."""
    if not fleet_ids:
        return
    admiral_ids = list(
        Fleet.objects.filter(pk__in=fleet_ids, admiral__isnull=False).values_list("admiral_id", flat=True)
    )
    Fleet.objects.filter(pk__in=fleet_ids).update(admiral=None)
    Admiral.objects.filter(pk__in=admiral_ids).update(status=Admiral.Status.LOST, port=None)


def _port_fleet(ctx: PortActionContext, port: Port, nation_id: int) -> Fleet:
    """A fleet of ``nation_id`` in ``port`` (the lowest id), or a new one named after the port."""
    existing = Fleet.objects.filter(campaign_id=ctx.campaign_id, nation_id=nation_id, port=port).order_by("id").first()
    if existing is not None:
        return existing
    taken = set(Fleet.objects.filter(campaign_id=ctx.campaign_id, nation_id=nation_id).values_list("name", flat=True))
    name, n = port.name, 1
    while name in taken:
        n += 1
        name = f"{port.name} {n}"
    return Fleet.objects.create(
        campaign_id=ctx.campaign_id,
        nation_id=nation_id,
        name=name,
        sea_zone_id=port.sea_zone_id,
        port=port,
        crew=ctx.nations[nation_id].crew,
        created_turn=ctx.turn,
    )


# --- small helpers ----------------------------------------------------------------------------------------


def _port_spec(port: Port, *, hostile: bool) -> PortSpec:
    """The port as the engine sees it; its fortification and batteries fire only when ``hostile``."""
    return PortSpec(
        fortification=port.fortification if hostile else 0,
        name=port.name,
        batteries=port.batteries if hostile else 0,
        gibraltar=port.gibraltar,
    )


def _ship_spec(ship: Ship, name: str, ctx: PortActionContext) -> ShipSpec:
    """A ship for the engine: its own navy's modifiers and crew, its condition, its id as ``ref``."""
    return ShipSpec(
        name=name,
        cls=ship.ship_class,
        navy=ctx.nations[ship.nation_id].navy,
        crew=ship.crew,
        condition=ship.condition,
        ref=ship.pk,
    )


def _unique_names(ships: Sequence[Ship]) -> dict[int, str]:
    """Ship names for one battle: names repeat across navies, and the engine wants them unique."""
    counts = Counter(s.name for s in ships)
    return {s.pk: s.name if counts[s.name] == 1 else f"{s.name} #{s.pk}" for s in ships}


def _codes(ctx: PortActionContext, nation_ids: set[int]) -> list[str]:
    return sorted(ctx.nations[n].code for n in nation_ids)


def _strategic_dice_append(log: StrategicLog, report: BattleReport, place: str) -> None:
    """RULES.md §3: garrison barrages are strategic dice, stored in the turn's dice log too."""
    names = [s.name for s in report.ships]
    for row in report.dice_rows:
        _rnd, _side, sides, purpose, raw, mod, result, _ship, target, effect = row
        if purpose not in PURPOSES:
            continue  # a barrage has no other purpose; anything else belongs to the battle only
        log.append(
            StrategicDie(
                purpose=purpose,
                place=place,
                die="d6" if sides == 6 else "d10",
                raw=raw,
                mod=mod,
                result=result,
                subject=f"ship:{report.ships[target].ref}" if target >= 0 else None,
                detail=f"{names[target]}: {effect}" if target >= 0 else effect,
            )
        )


def _battle_record(
    ctx: PortActionContext, port: Port, kind: str, *, sides: list[dict[str, Any]], winner: int | None, report: Any
) -> Battle:
    """One Battle row; ``sequence`` counts the actions of this kind at this port this turn, so a
    second attacking side at the same port gets its own row."""
    sequence = Battle.objects.filter(turn_id=ctx.turn_id, kind=kind, place=port.key).count() + 1
    return Battle.objects.create(
        campaign_id=ctx.campaign_id,
        turn_id=ctx.turn_id,
        kind=kind,
        sea_zone_id=port.sea_zone_id,
        port=port,
        place=port.key,
        sequence=sequence,
        seed=ctx.dice.seed,
        sides=sides,
        winner=winner,
        report=report,
    )


def _losses_text(losses: Mapping[str, Counter[str]]) -> str:
    if not losses:
        return "no ship was hit"
    parts = []
    for code in sorted(losses):
        counts = losses[code]
        what = ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items()))
        parts.append(f"{code} {what}")
    return "; ".join(parts)
