"""Phase 3 contacts after each step (RULES.md §4 "Sides", "Sighting", "Battle or not"; §3 "Strategic
dice", "Fog of war"): who meets whom at sea, and the engagements that follow."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from battles.engagements import able_to_form_a_line
from battles.engine import ContactDie, ContactSide, intercept_roll, sighting_roll
from battles.models import Engagement
from campaign.selectors import Diplomacy
from campaign.turn.context import PhaseContext
from campaign.turn.sea.world import EngagementPlan, Mover, Party, SeaWorld, steps_named
from fleets.models import Ship, ShipClass
from ports.models import SeaZone
from rules.dice import SeededDice
from rules.ruleset import LIGHT_CLASSES
from rules.strategic_log import StrategicDie
from rules.turn_events import ContactEscaped, ContactMade, FleetNoted, SeenShip, counted

#: A ship class's name for players (the class keys are the orders' and the data's).
CLASS_NAMES: dict[str, str] = {str(k): str(v) for k, v in ShipClass.choices}


def sides_split(
    nations: Iterable[int], *, sol: dict[int, int], code: dict[int, str], diplomacy: Diplomacy
) -> tuple[list[int], list[int]] | None:
    """§4 "Sides": the two sides of the nations present, or None if no two of them are at war.

    "When the nations at war there do not split into two sides, side 1 is the nation with most SOL
    there (ties: lower code) and its allies; side 2 the nations at war with it and their allies,
    leaving out any nation allied to side 1 or at war with another side-2 nation; the rest stay out".
    As settled (§12.6, §12.7): only nations at war with another nation present take part, and only
    they count as allies; side 1 is the lead and its allies that take part; side 2 is built one
    nation at a time from those at war with a side-1 nation, by descending SOL then code, each
    bringing its allies that take part. Afterwards an ally joins a side only if it is at war with
    the other side (§10: allies "are never dragged into each other's wars"). With two nations at
    war, or two alliances at war, this is the natural split.
    """
    present = sorted(set(nations), key=lambda n: (-sol.get(n, 0), code[n]))
    warring = [n for n in present if any(diplomacy.at_war(n, m) for m in present)]
    if not warring:
        return None
    lead = warring[0]
    # §12.6: side 1 is the lead and its allies that take part (at war with someone present).
    one: list[int] = [lead]
    for n in warring:
        if n != lead and diplomacy.allied(n, lead) and not any(diplomacy.at_war(n, m) for m in one):
            one.append(n)
    two: list[int] = []

    def joins(n: int) -> bool:
        """§12.7's two conditions: not allied to a side-1 nation, not at war with a side-2 nation."""
        return not any(diplomacy.allied(n, m) for m in one) and not any(diplomacy.at_war(n, m) for m in two)

    # §12.7: side 2 one nation at a time — those at war with a side-1 nation, by most SOL (ties: lower
    # code) — each bringing its allies that take part, under the same two conditions.
    for n in warring:
        if n in one or n in two or not any(diplomacy.at_war(n, m) for m in one) or not joins(n):
            continue
        two.append(n)
        for ally in warring:
            if ally not in one and ally not in two and diplomacy.allied(ally, n) and joins(ally):
                two.append(ally)
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


def parties_split(world: SeaWorld, movers: list[Mover], *, in_port: bool = False) -> list[Party] | None:
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
    """§4 sighting, battle or not, intercept, for the fleets at sea in ``zone`` after ``step``.

    §12.7: the nations left out of the first two sides that are at war with each other form sides the
    same way and meet afterwards, in the same zone and step, with the same dice stream continued; each
    nation is in one contact at most, so it fights at most one battle there. Those left with no one to
    meet stay out of the zone's contacts for the rest of the turn (§4 "the rest stay out this turn")."""
    present = [
        m
        for m in world.movers.values()
        if not m.engaged and m.at_sea_in(zone.pk, step) and (m.fleet.pk, zone.pk) not in world.out
    ]
    parties = _contact_parties(world, present)
    if parties is None:
        return
    dice = world.ctx.dice(f"{zone.key}:{step}")
    while parties is not None:
        inside = {m.fleet.pk for p in parties for m in p.movers}
        present = [m for m in present if m.fleet.pk not in inside]
        _contact_resolve(world, zone, step, parties, dice)
        parties = _contact_parties(world, present)
    for m in present:
        world.out.add((m.fleet.pk, zone.pk))  # §4: "the rest stay out this turn"


def _contact_resolve(world: SeaWorld, zone: SeaZone, step: int, parties: list[Party], dice: SeededDice) -> None:
    """One contact between two sides (§4): sightings, then battle or intercept, then the report."""
    labels = [world.label(p) for p in parties]
    sighted = _sightings(world, zone, step, parties, dice, labels)
    seekers = [k for k in (0, 1) if parties[k].seeks]
    battle, interceptor = False, None
    if len(seekers) == 2:
        battle = bool(sighted[0] or sighted[1])
    elif len(seekers) == 1 and sighted[seekers[0]]:
        battle, interceptor = _interception(world, zone, step, parties, seekers[0], dice, labels), seekers[0]
    if not battle:
        return
    able = [able_to_form_a_line(p.ships) for p in parties]
    if not any(able):
        return
    kind = Engagement.Kind.CAPTURE if able[0] != able[1] else Engagement.Kind.AT_SEA
    world.plans.append(
        EngagementPlan(kind, zone, parties, step=step, interceptor=interceptor, sighted=(sighted[0], sighted[1]))
    )
    _engaged_report(world, zone, step, parties, kind, able, interceptor, labels)


def _contact_parties(world: SeaWorld, present: list[Mover]) -> list[Party] | None:
    """The two sides of the fleets ``present`` (§4 "Sides", §12.6, §12.7), or None."""
    if len({m.fleet.nation_id for m in present}) < 2:
        return None
    return parties_split(world, present)


def _sightings(
    world: SeaWorld, zone: SeaZone, step: int, parties: list[Party], dice: SeededDice, labels: list[str]
) -> list[bool | None]:
    """§4 "Sighting": each seeking side looks for the other, side 0 first; None for a side that does
    not seek. A sighting is reported to the side that made it."""
    ctx = world.ctx
    gale = ctx.ruleset.is_gale_season(ctx.turn.season)
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
            _log(ctx, d, zone.key, f"{labels[k]}>{labels[1 - k]}", detail)
        if result.sighted:
            ctx.report(
                world.codes(party),
                ContactMade(
                    text=f"{zone.name}, step {step}: we sighted {counted(len(target.ships), 'ship')} of "
                    f"{world.words(parties[1 - k])}: {_ship_summary(target.ships)}.",
                    how="sighted",
                    zone_key=zone.key,
                    zone_name=zone.name,
                    step=step,
                    ships=_seen(world, target.ships),
                ),
            )
    return sighted


def _interception(
    world: SeaWorld, zone: SeaZone, step: int, parties: list[Party], k: int, dice: SeededDice, labels: list[str]
) -> bool:
    """§4 "Battle or not": side ``k``, the only one seeking, sighted the other; True if it intercepts."""
    ctx = world.ctx
    result = intercept_roll(
        dice,
        ctx.ruleset,
        interceptor=_contact_side(world, parties[k]),
        target=_contact_side(world, parties[1 - k]),
        interceptor_side=k,
    )
    for d in result.dice:
        verdict = "intercepted" if result.intercepted else "escaped"
        _log(ctx, d, zone.key, labels[d.side], f"step {step}: {labels[k]} intercepting {labels[1 - k]}: {verdict}")
    if not result.intercepted:
        ctx.report(
            world.codes(parties[k]),
            ContactEscaped(
                text=f"{zone.name}, step {step}: the ships of {world.words(parties[1 - k])} escaped us.",
                zone_key=zone.key,
                zone_name=zone.name,
                step=step,
            ),
        )
    return result.intercepted


def _engaged_report(
    world: SeaWorld,
    zone: SeaZone,
    step: int,
    parties: list[Party],
    kind: str,
    able: list[bool],
    interceptor: int | None,
    labels: list[str],
) -> None:
    """Tell each side whom it met and what follows, and stop its fleets there: the rest of their paths
    is not sailed and they take no part in later contacts this turn (§4)."""
    ctx = world.ctx
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
            ContactMade(
                text=f"{zone.name}, step {step}: {fleets} met {counted(len(enemy.ships), 'ship')} of "
                f"{world.words(enemy)} ({_ship_summary(enemy.ships)}); {how}. "
                + ("They will be taken without a fight." if kind == Engagement.Kind.CAPTURE and not able[1 - k] else "")
                + ("We cannot fight them." if kind == Engagement.Kind.CAPTURE and not able[k] else "")
                + ("Battle follows." if kind == Engagement.Kind.AT_SEA else ""),
                how="met",
                zone_key=zone.key,
                zone_name=zone.name,
                step=step,
                ships=_seen(world, enemy.ships),
            ),
        )
        for m in party.movers:
            m.engaged = True
            if m.order is not None and len(m.path) > step and not m.halted:
                ctx.report(
                    [world.code(m.fleet.nation_id)],
                    FleetNoted(
                        text=f"{m.fleet.name} stopped in {zone.name}: {steps_named(world, m.path[step:])} not sailed.",
                        fleet_id=m.fleet.pk,
                        fleet_name=m.fleet.name,
                        code="stopped_by_contact",
                    ),
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
    return ", ".join(f"{n} × {CLASS_NAMES.get(c, c)} ({cond})" for (c, cond), n in sorted(counts.items()))


def _seen(world: SeaWorld, ships: Sequence[Ship]) -> tuple[SeenShip, ...]:
    """The ships as the other side saw them: whose, class and condition (§4), no names."""
    return tuple(
        SeenShip(nation=world.code(s.nation_id), ship_class=s.ship_class, condition=s.condition) for s in ships
    )
