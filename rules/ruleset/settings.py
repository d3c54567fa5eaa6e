"""The flat view of a campaign's ruleset: every number of RULES.md as a named, validated :class:`Setting`
(key, default, lowest, highest, help) — :data:`SETTINGS`, :data:`DEFAULTS` — and :func:`validate_flat`,
which checks a campaign's stored overrides against them."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from rules.ruleset.table import TABLE_SETTINGS
from rules.ruleset.vocabulary import GRADES, NAVIES, NAVY_LIST_ALIASES, NAVY_NAMES, QUOTA_PERIODS


class RulesetError(ValueError):
    """A setting is unknown, of the wrong type, or out of its allowed range."""


@dataclass(frozen=True, slots=True)
class Setting:
    key: str
    default: int
    minimum: int
    maximum: int
    help: str

    @property
    def section(self) -> str:
        return self.key.split(".", 1)[0]


def _grade_settings() -> list[Setting]:
    modifiers = {"A": 2, "B": 1, "C": 1, "D": 0, "E": 0, "F": 0, "G": -1, "H": -1}
    dice = {"A": 4, "B": 3, "C": 3, "D": 2, "E": 2, "F": 2, "G": 1, "H": 1}
    out = [
        Setting(
            f"grade.modifier.{g}",
            modifiers[g],
            -5,
            5,
            f"§0 grade {g}: modifier to initiative, morale, boarding, integrity and gauge.",
        )
        for g in GRADES
    ]
    out += [
        Setting(f"grade.admiral_dice.{g}", dice[g], 0, 10, f"§0 admiral grade {g}: extra d10 per round.")
        for g in GRADES
    ]
    return out


def _nationality_settings() -> list[Setting]:
    lists = {
        "initiative": {"GB": 1, "US": 1, "ES": -1, "RU": -1, "OT": -2, "PR": -3, "AT": -3},
        "combat": {"GB": 1, "US": 1, "ES": -1, "PR": -2, "AT": -2},
        "boarding": {"GB": 1, "US": 1, "OT": 1},
    }
    out = []
    for roll, values in lists.items():
        for navy in NAVIES:
            if navy in NAVY_LIST_ALIASES:
                continue  # EG reads OT's entry
            out.append(
                Setting(
                    f"nationality.{roll}.{navy}",
                    values.get(navy, 0),
                    -5,
                    5,
                    f"§0 {roll} nationality modifier for {NAVY_NAMES[navy]}.",
                )
            )
    return out


_SHIP_COST = {
    "four-decker": 30,
    "1st": 20,
    "2nd": 15,
    "3rd-74": 10,
    "3rd-64": 8,
    "4th": 6,
    "heavy-frigate": 5,
    "frigate": 4,
    "sloop": 2,
    "brig": 1,
    "fireship": 1,
    "transport": 1,
}


def _ship_settings() -> list[Setting]:
    out = [Setting(f"ship.cost.{c}", ep, 0, 1000, f"§1 EP cost to lay down a {c}.") for c, ep in _SHIP_COST.items()]
    out += [
        Setting(
            f"ship.build_turns.{c}",
            math.ceil(ep / 5),
            1,
            40,
            f"§1 turns a {c} spends building.",
        )
        for c, ep in _SHIP_COST.items()
    ]
    return out


def _quota_settings() -> list[Setting]:
    pct = {
        "GB": (20, 20, 20, 25),
        "FR": (10, 10, 10, 15),
        "RU": (10, 10, 15, 20),
        "ES": (15, 15, 20, 20),
    }
    default = (10, 10, 10, 15)  # "OT (and every unlisted navy) [H]"
    out = [
        Setting("quota.period_start.1792", 1792, 1000, 3000, "§1 first year of the 1792–1799 quota column."),
        Setting("quota.period_start.1800", 1800, 1000, 3000, "§1 first year of the 1800–1808 quota column."),
        Setting("quota.period_start.1809", 1809, 1000, 3000, "§1 first year of the 1809-on quota column."),
        Setting("quota.four_decker_limit", 1, 0, 10, "§1 four-deckers a nation may own (not captured)."),
    ]
    for navy in NAVIES:
        if navy in NAVY_LIST_ALIASES:
            continue
        values = pct.get(navy, default)
        for period, value in zip(QUOTA_PERIODS, values, strict=True):
            out.append(
                Setting(
                    f"quota.pct.{navy}.{period}",
                    value,
                    0,
                    100,
                    f"§1 largest % of {NAVY_NAMES[navy]}'s SOL that may be 1st/2nd rates or "
                    f"four-deckers ({period} column).",
                )
            )
    return out


_SCALARS: tuple[Setting, ...] = (
    # §2 economy
    Setting("economy.upkeep_divisor", 20, 1, 1000, "§2 upkeep = ceil(Σ class EP of commissioned ships / this)."),
    Setting("economy.repair_damaged_pct", 10, 0, 100, "§2 repair of a damaged ship: ceil(this % of class EP)."),
    Setting("economy.repair_disabled_pct", 25, 0, 100, "§2 repair of a disabled ship: ceil(this % of class EP)."),
    Setting("economy.port_ep_value", 1, 0, 100, "§2 scenario balance: EP value of a port."),
    Setting("economy.port_ep_value_dockyard", 2, 0, 100, "§2 scenario balance: EP value of a port with a dockyard."),
    Setting("economy.balance_min_margin", 2, 0, 1000, "§2 scenario balance: income margin is at least this."),
    Setting("economy.balance_sol_per_margin", 10, 1, 1000, "§2 scenario balance: margin = ceil(SOL / this)."),
    Setting("economy.starting_treasury_turns", 2, 0, 100, "§2 starting treasury = this × total income per turn."),
    Setting("economy.raise_land_unit_cost", 3, 0, 1000, "§7 EP to raise a land unit."),
    Setting("economy.raise_siege_train_cost", 5, 0, 1000, "§7 EP to raise a siege train."),
    # §3 calendar
    Setting("calendar.turn_length_days", 7, 1, 365, "§3 days between one turn's resolution and the next deadline."),
    Setting("calendar.deadline_hour_utc", 20, 0, 23, "§3 deadlines are rounded up to this hour (UTC)."),
    Setting("calendar.gale_winter", 1, 0, 1, "§3 Winter is a gale season (1 yes, 0 no)."),
    Setting("calendar.gale_spring", 0, 0, 1, "§3 Spring is a gale season (1 yes, 0 no)."),
    Setting("calendar.gale_summer", 0, 0, 1, "§3 Summer is a gale season (1 yes, 0 no)."),
    Setting("calendar.gale_high_summer", 0, 0, 1, "§3 High Summer is a gale season (1 yes, 0 no)."),
    Setting("calendar.gale_autumn", 1, 0, 1, "§3 Autumn is a gale season (1 yes, 0 no)."),
    Setting(
        "orders.keep_ready",
        0,
        0,
        1,
        "§3 house option: a nation that changes its orders after marking ready stays ready (1), or is no "
        "longer ready until it marks ready again (0).",
    ),
    # §4 movement and contacts
    Setting("movement.max_steps", 2, 1, 10, "§4 steps in a move order."),
    Setting("movement.max_steps_with_disabled", 1, 0, 10, "§4 steps for a fleet with a disabled ship."),
    Setting("movement.port_ships_per_capacity", 10, 1, 1000, "§4 ships a port holds per point of capacity."),
    Setting("sighting.narrows", 3, 1, 7, "§4 d6 needed to sight in narrows."),
    Setting("sighting.coastal", 4, 1, 7, "§4 d6 needed to sight in a coastal zone."),
    Setting("sighting.open", 5, 1, 7, "§4 d6 needed to sight on the open sea."),
    Setting("sighting.ocean", 6, 1, 7, "§4 d6 needed to sight on the ocean."),
    Setting("sighting.port_move", 3, 1, 7, "§4 d6 needed against a fleet entering/leaving port or a besieged port."),
    Setting("sighting.light_ships_needed", 3, 0, 100, "§4 light ships at sea for the +1 search bonus."),
    Setting("sighting.light_ships_bonus", 1, -5, 5, "§4 modifier with enough light ships."),
    Setting("sighting.no_light_ships", -1, -5, 5, "§4 modifier with no light ships."),
    Setting("sighting.large_target_ships", 20, 0, 1000, "§4 target above this many ships at sea: +1."),
    Setting("sighting.large_target_bonus", 1, -5, 5, "§4 modifier against a large target or one escorting transports."),
    Setting("sighting.admiral_a_bonus", 1, -5, 5, "§4 modifier for a searching grade-A admiral."),
    Setting("sighting.admiral_gh_penalty", -1, -5, 5, "§4 modifier for a searching grade G–H admiral."),
    Setting("sighting.gale_penalty", -1, -5, 5, "§4 modifier in a gale season."),
    Setting("sighting.pursuit_bonus", 1, -5, 5, "§5 a pursuer re-sights at this modifier."),
    Setting("besieged_port.sighting_bonus", 2, -5, 5, "§4 [S] besieged-port engagement sighting modifier."),
    Setting("besieged_port.at_anchor_on", 6, 1, 12, "§4 [S] modified sighting that catches them at anchor."),
    Setting("besieged_port.intercept_bonus", 1, -5, 5, "§4 [S] intercept modifier unless they sally."),
    Setting("besieged_port.gauge_bonus", 2, -5, 5, "§4 [S] weather gauge modifier for the fleet at sea."),
    Setting("intercept.out_of_supply", -1, -5, 5, "§4 intercept modifier when out of supply."),
    Setting("gauge.british_bonus", 1, -5, 5, "§4 weather gauge modifier for the British."),
    Setting("gauge.interceptor_bonus", 1, -5, 5, "§4 weather gauge modifier for the side that intercepted."),
    Setting("gauge.initiative_bonus", 1, -5, 5, "§4 the gauge's initiative modifier, all day."),
    Setting("battle.max_days", 3, 1, 10, "§5 battle days per zone per turn."),
    # Tabletop battles (issue 15), house options
    *(Setting(*values) for values in TABLE_SETTINGS),
    # §5 fast fleet action
    Setting("battle.max_rounds", 6, 1, 50, "§5 rounds in a Naval Day."),
    Setting("battle.max_attackers_per_ship", 2, 1, 10, "§5 attackers one ship can face."),
    Setting("battle.division_size", 20, 1, 1000, "§5 ships per division in the text report."),
    Setting("battle.out_of_supply_initiative", -1, -5, 5, "§5 [S] initiative modifier out of supply."),
    Setting("battle.at_anchor_penalty", -1, -5, 5, "§5 round-1 d10 modifier for a side at anchor."),
    Setting("battle.chart_damaged", 4, 1, 11, "§5 lowest d10 result that damages."),
    Setting("battle.chart_boarding", 8, 1, 11, "§5 d10 result that boards."),
    Setting("battle.chart_disabled", 9, 1, 11, "§5 d10 result that disables."),
    Setting("battle.chart_sunk", 10, 1, 11, "§5 lowest d10 result that sinks."),
    Setting("battle.explosion_on", 6, 1, 7, "§5 d6 after a sinking that makes it explode."),
    Setting("battle.explosion_dice", 2, 0, 10, "§5 unmodified d10s the firer gets from an explosion."),
    Setting("battle.integrity_threshold_num", 1, 0, 100, "§5 integrity checks start at L ≥ num/den."),
    Setting("battle.integrity_threshold_den", 4, 1, 100, "§5 integrity checks start at L ≥ num/den."),
    Setting("battle.integrity_step_pct", 10, 1, 100, "§5 −1 per this many % of L above the threshold."),
    Setting("battle.integrity_hold", 4, -10, 20, "§5 d6 total that holds."),
    Setting("battle.integrity_retire", 2, -10, 20, "§5 lowest d6 total that retires (below: breaks)."),
    Setting("battle.integrity_flagship_lost", -1, -5, 5, "§5 integrity modifier when the flagship is lost."),
    Setting("battle.integrity_out_of_supply", -1, -5, 5, "§5 integrity modifier when out of supply."),
    Setting("battle.towing_sunk_on", 10, 1, 11, "§5/§6 unmodified d10 that sinks a damaged ship leaving."),
    # §6 running the guns
    Setting("guns.barrage_per_ff", 5, 0, 100, "§6 [S] barrage dice per fortification factor."),
    Setting("guns.barrage_per_ff_gibraltar", 10, 0, 100, "§6 [S] barrage dice per FF at Gibraltar."),
    Setting("guns.ships_per_barrage_die", 4, 1, 100, "§6 [S] defender's ships in port per barrage die."),
    Setting("guns.fort_modifier", 1, -5, 5, "§6 [S] coastal forts' d10 modifier."),
    Setting("guns.hot_shot_on", 6, 1, 7, "§6 d6 after a fort's damaging hit that disables instead."),
    Setting("guns.coastal_forts_gibraltar_multiplier", 2, 1, 10, "§6 [S] Gibraltar's coastal forts = FF × this."),
    Setting("guns.stay_loss_num", 1, 0, 100, "§6 the attacker stays for another round only while its L < num/den."),
    Setting("guns.stay_loss_den", 4, 1, 100, "§6 the attacker stays for another round only while its L < num/den."),
    # §7 sieges
    Setting("siege.gibraltar_garrison_multiplier", 5, 1, 100, "§7 [S] Gibraltar's garrison counts × this."),
    Setting("siege.roll_ratio", 2, 1, 100, "§7 a siege rolls only if this × B ≥ G."),
    Setting("siege.superiority_2", 1, -10, 10, "§7 modifier if B ≥ 2G."),
    Setting("siege.superiority_3", 2, -10, 10, "§7 modifier if B ≥ 3G."),
    Setting("siege.superiority_4", 3, -10, 10, "§7 modifier if B ≥ 4G."),
    Setting("siege.per_turn_bonus", 1, 0, 10, "§7 modifier per earlier consecutive besieged turn."),
    Setting("siege.per_turn_max", 4, 0, 20, "§7 most the consecutive-turn modifier can add."),
    Setting("siege.blockaded_bonus", 2, -10, 10, "§7 modifier if blockaded against the owner."),
    Setting("siege.not_blockaded_penalty", -2, -10, 10, "§7 modifier if not blockaded against the owner."),
    Setting("siege.siege_train_bonus", 1, -10, 10, "§7 modifier with a siege train."),
    Setting("siege.commander_penalty", -1, -10, 10, "§7 modifier if the garrison commander is A–C."),
    Setting("siege.besieger_lost_max", 3, -20, 30, "§7 siege result at most this: one besieging unit lost."),
    Setting("siege.nothing_max", 6, -20, 30, "§7 siege result at most this: nothing."),
    Setting("siege.garrison_lost_max", 8, -20, 30, "§7 siege result at most this: one garrison unit lost."),
    Setting("siege.taken_exact", 9, -20, 30, "§7 siege result: garrison removed and port taken."),
    # §8 storms, supply, attrition
    Setting("storm.on", 6, 1, 7, "§8 zone d6 for a storm."),
    Setting("storm.on_gale", 5, 1, 7, "§8 zone d6 for a storm in a gale season."),
    Setting("storm.ship_damaged_or_lost", 1, 0, 10, "§8 ship d10 at most this: damaged, or lost if already hit."),
    Setting("storm.ship_damaged", 2, 0, 10, "§8 ship d10 at most this: damaged."),
    Setting("storm.blockade_lift_pct", 50, 0, 100, "§4 a storm hitting this % of a blockading fleet lifts it."),
    Setting("supply.range_steps", 2, 0, 20, "§8 adjacency steps to a supply point."),
    Setting("supply.left_port_turns", 2, 0, 20, "§8 previous turns after leaving port a fleet stays in supply."),
    Setting("attrition.ship_on", 1, 0, 10, "§8 attrition d10 at most this hits an out-of-supply ship."),
    Setting("attrition.ship_on_prolonged", 2, 0, 10, "§8 the same from the third consecutive turn."),
    Setting("attrition.unit_on", 1, 0, 10, "§8 attrition d10 at most this loses a land unit."),
    Setting("attrition.unit_on_prolonged", 2, 0, 10, "§8 the same from the third consecutive turn."),
    Setting("attrition.prolonged_from_turn", 3, 1, 20, "§8 consecutive out-of-supply turn that is prolonged."),
    # §9 fireships
    Setting("fireship.fort_modifier", 1, -5, 5, "§9 fortification die against a fireship: modifier."),
    Setting("fireship.fort_stops_on", 4, 1, 11, "§9 fortification die total that stops a fireship."),
    Setting("fireship.big_fort_ff", 3, 0, 100, "§9 FF from which the fireship's d10 is penalised."),
    Setting("fireship.big_fort_penalty", -2, -10, 10, "§9 fireship d10 modifier against a big fort."),
    Setting("fireship.damaged_min", 6, 1, 11, "§9 fireship d10 from this: damaged."),
    Setting("fireship.disabled_min", 9, 1, 11, "§9 fireship d10 from this: disabled."),
    Setting("fireship.sunk_min", 10, 1, 11, "§9 fireship d10 from this (or a natural 10): sunk."),
)

SETTINGS: Final[tuple[Setting, ...]] = tuple(
    _grade_settings() + _nationality_settings() + _ship_settings() + _quota_settings() + list(_SCALARS)
)
SETTINGS_BY_KEY: Final = MappingProxyType({s.key: s for s in SETTINGS})
DEFAULTS: Final = MappingProxyType({s.key: s.default for s in SETTINGS})

assert len(SETTINGS_BY_KEY) == len(SETTINGS), "duplicate setting key"


def validate_flat(values: Mapping[str, object]) -> dict[str, int]:
    """Check a flat mapping of overrides and return it as ``{key: int}``.

    Raises :class:`RulesetError` naming every bad key, what was wrong and what is allowed.
    """
    errors: list[str] = []
    clean: dict[str, int] = {}
    for key, value in values.items():
        setting = SETTINGS_BY_KEY.get(key)
        if setting is None:
            errors.append(f"{key}: unknown setting")
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            errors.append(f"{key}: must be a whole number, got {value!r}")
            continue
        if not setting.minimum <= value <= setting.maximum:
            errors.append(f"{key}: {value} is outside {setting.minimum}..{setting.maximum}")
            continue
        clean[key] = value
    merged = {**DEFAULTS, **clean}
    errors += _cross_checks(merged)
    if errors:
        raise RulesetError("; ".join(errors))
    return clean


def _cross_checks(v: Mapping[str, int]) -> list[str]:
    errors = []
    starts = [v["quota.period_start.1792"], v["quota.period_start.1800"], v["quota.period_start.1809"]]
    if starts != sorted(starts):
        errors.append("quota.period_start.*: the periods must start in increasing years")
    chart = [v["battle.chart_damaged"], v["battle.chart_boarding"], v["battle.chart_disabled"], v["battle.chart_sunk"]]
    if chart != sorted(chart):
        errors.append("battle.chart_*: damaged ≤ boarding ≤ disabled ≤ sunk is required")
    if v["battle.integrity_retire"] > v["battle.integrity_hold"]:
        errors.append("battle.integrity_retire must not exceed battle.integrity_hold")
    siege = [v["siege.besieger_lost_max"], v["siege.nothing_max"], v["siege.garrison_lost_max"], v["siege.taken_exact"]]
    if siege != sorted(siege) or len(set(siege)) != len(siege):
        errors.append("siege.*: besieger_lost_max < nothing_max < garrison_lost_max < taken_exact is required")
    fire = [v["fireship.damaged_min"], v["fireship.disabled_min"], v["fireship.sunk_min"]]
    if fire != sorted(fire):
        errors.append("fireship.*_min: damaged ≤ disabled ≤ sunk is required")
    return errors
