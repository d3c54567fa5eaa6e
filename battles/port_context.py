"""What a port action of phase 5 is given and gives back, and the small pieces the three actions
share: the port and its ships as the engine sees them, the nation codes, the strategic dice, the
Battle row and the losses as words (RULES.md §3, §4, §6, §9).

The campaign layer decides who may attack and whom (orders, diplomacy) and passes it in; the
battles app does not import the campaign app, so nations travel as :class:`Belligerent` and
diplomacy as a :class:`~battles.selectors.Relations`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from battles.engine import BattleReport, PortSpec, ShipSpec
from battles.models import Battle
from battles.results import battle_record
from battles.selectors import Relations
from fleets.models import Ship
from ports.models import Port
from rules.dice import SeededDice
from rules.ruleset import Ruleset
from rules.strategic_log import PURPOSES, StrategicDie, StrategicLog


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


def port_spec(port: Port, *, hostile: bool) -> PortSpec:
    """The port as the engine sees it; its fortification and batteries fire only when ``hostile``."""
    return PortSpec(
        fortification=port.fortification if hostile else 0,
        name=port.name,
        batteries=port.batteries if hostile else 0,
        gibraltar=port.gibraltar,
    )


def ship_spec(ship: Ship, name: str, ctx: PortActionContext) -> ShipSpec:
    """A ship for the engine: its own navy's modifiers and crew, its condition, its id as ``ref``."""
    return ShipSpec(
        name=name,
        cls=ship.ship_class,
        navy=ctx.nations[ship.nation_id].navy,
        crew=ship.crew,
        condition=ship.condition,
        ref=ship.pk,
    )


def unique_names(ships: Sequence[Ship]) -> dict[int, str]:
    """Ship names for one battle: names repeat across navies, and the engine wants them unique."""
    counts = Counter(s.name for s in ships)
    return {s.pk: s.name if counts[s.name] == 1 else f"{s.name} #{s.pk}" for s in ships}


def nation_codes(ctx: PortActionContext, nation_ids: set[int]) -> list[str]:
    return sorted(ctx.nations[n].code for n in nation_ids)


def strategic_dice_append(log: StrategicLog, report: BattleReport, place: str) -> None:
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


def port_battle_record(
    ctx: PortActionContext, port: Port, kind: str, *, sides: list[dict[str, Any]], winner: int | None, report: Any
) -> Battle:
    """One Battle row at ``port`` (its ``sequence`` counts the actions of this kind there this turn,
    so a second attacking side gets its own row), seen by the nations of its sides and their allies
    this turn."""
    fought = {code for side in sides for code in side["nations"]}
    fought_ids = [n.id for n in ctx.nations.values() if n.code in fought]
    allies = {n.code for n in ctx.nations.values() if any(ctx.relations.allied(n.id, f) for f in fought_ids)}
    return battle_record(
        campaign_id=ctx.campaign_id,
        turn_id=ctx.turn_id,
        kind=kind,
        sea_zone_id=port.sea_zone_id,
        port_id=port.pk,
        place=port.key,
        sequence=None,
        seed=ctx.dice.seed,
        sides=sides,
        winner=winner,
        report=report,
        seen_by=fought | allies,
    )


def losses_text(losses: Mapping[str, Counter[str]], names: Mapping[str, str] | None = None) -> str:
    """Each nation's losses ("Great Britain 1 captured, 2 sunk"); ``names`` gives a code's nation name."""
    if not losses:
        return "no ship was hit"
    parts = []
    for code in sorted(losses):
        counts = losses[code]
        what = ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items()))
        parts.append(f"{(names or {}).get(code, code)} {what}")
    return "; ".join(parts)
