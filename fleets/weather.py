"""What storms, attrition and lost transports do to ships (RULES.md §4, §7, §8), and each fleet's
supply as phase 7 decides it: bulk writes on the fleets app's models."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from fleets.models import Fleet, Ship
from ports.models import LandUnit
from ports.services import land_units_lose
from rules.supply import Supply, out_of_supply_streak
from rules.weather import Effect, ShipWeatherResult


def transports_cargo_lose(*, campaign_id: int) -> list[LandUnit]:
    """RULES.md §4/§7: "A lost or captured transport loses its unit."

    Every land unit aboard a transport that is sunk (or otherwise gone), or now owned by a nation
    other than the unit's, is lost and the transport's cargo cleared. Returns the units lost.
    """
    ships = list(
        Ship.objects.filter(campaign_id=campaign_id, cargo__isnull=False).select_related("cargo__nation").order_by("id")
    )
    gone = [s for s in ships if s.cargo is not None and (s.condition in Ship.GONE or s.nation_id != s.cargo.nation_id)]
    units = [s.cargo for s in gone if s.cargo is not None]
    Ship.objects.filter(pk__in=[s.pk for s in gone]).update(cargo=None)
    land_units_lose(unit_ids=[u.pk for u in units])
    return units


@dataclass(frozen=True)
class WeatherApplied:
    """What a batch of storm or attrition results did: ship ids damaged and lost, land units lost."""

    damaged: tuple[int, ...]
    lost: tuple[int, ...]
    units_lost: tuple[int, ...]


def weather_outcome(*, results: Iterable[ShipWeatherResult], units_lost: Iterable[int]) -> WeatherApplied:
    """What storm or attrition results do (RULES.md §8), without writing it: the ships damaged, the
    ships lost, and the land units lost — those named, and those aboard a lost transport."""
    damaged, lost = [], []
    drowned = set(units_lost)
    for r in results:
        if r.effect is Effect.DAMAGED:
            damaged.append(r.ship_id)
        elif r.effect is Effect.LOST:
            lost.append(r.ship_id)
            if r.land_unit_lost is not None:
                drowned.add(r.land_unit_lost)
    return WeatherApplied(tuple(damaged), tuple(lost), tuple(sorted(drowned)))


def ships_weather_apply(
    *, results: Iterable[ShipWeatherResult], units_lost: Iterable[int], turn: int
) -> WeatherApplied:
    """Apply storm or attrition results (RULES.md §8): a damaged ship becomes damaged; a lost ship is
    sunk — it leaves its fleet, stays in history with ``lost_turn`` — and a lost transport's land
    unit is lost with it. Bulk writes: a few queries however many ships, and however many zones
    the results come from (phase 7 applies all its storms at once, then all its attrition)."""
    outcome = weather_outcome(results=results, units_lost=units_lost)
    if outcome.damaged:
        Ship.objects.filter(pk__in=outcome.damaged).update(condition=Ship.Condition.DAMAGED)
    if outcome.lost:
        Ship.objects.filter(pk__in=outcome.lost).update(
            condition=Ship.Condition.SUNK, fleet=None, cargo=None, lost_turn=turn
        )
    land_units_lose(unit_ids=outcome.units_lost)
    return outcome


def fleets_supply_record(*, fleets: Iterable[Fleet], verdicts: Mapping[int, Supply]) -> dict[int, int]:
    """Store each fleet's supply (RULES.md §8, decided once in phase 7): ``in_supply`` and its
    consecutive turns out of supply. Returns fleet id → the new count."""
    changed, streaks = [], {}
    for fleet in fleets:
        verdict = verdicts[fleet.pk]
        streak = out_of_supply_streak(fleet.out_of_supply_turns, verdict.in_supply)
        streaks[fleet.pk] = streak
        if fleet.in_supply != verdict.in_supply or fleet.out_of_supply_turns != streak:
            fleet.in_supply = verdict.in_supply
            fleet.out_of_supply_turns = streak
            changed.append(fleet)
    Fleet.objects.bulk_update(changed, ["in_supply", "out_of_supply_turns"], batch_size=500)
    return streaks
