"""The pure battle engine of RULES.md §4–§6: plain data in, a report out, dice injected.

Fast Fleet Action (§5) one day at a time or as a multi-day engagement with pursuit, Running the Guns
(§6), the garrison guns (§4), the contact rolls that lead to battles (§4), text and JSON reports and
Monte-Carlo odds. Nothing here imports Django, Celery or the apps, and nothing uses module-level
randomness: every die comes from the :class:`~rules.dice.Dice` passed in.

Typical use::

    from battles.engine import SeededDice, fight_day, parse_spec
    report = fight_day(parse_spec(body), SeededDice(42))
    report.to_json()           # CONTRACT.md's battle report
"""

from rules.dice import Dice, DiceError, ScriptedDice, SeededDice, derive_seed
from rules.ruleset import DEFAULT_RULESET, Ruleset

from .contacts import (
    ContactDie,
    ContactSide,
    GaugeResult,
    InterceptResult,
    SightingResult,
    intercept_roll,
    sighting_roll,
    weather_gauge_roll,
)
from .engagement import (
    EngagementContext,
    EngagementDay,
    EngagementReport,
    EngagementSide,
    Pursuit,
    fight_engagement,
)
from .fleet_action import fight_day
from .montecarlo import Odds, fight, render_odds, run_seed, simulate_odds
from .report import (
    BattleReport,
    Event,
    IntegrityCheck,
    RoundLines,
    ShipResult,
    SideSummary,
)
from .running_guns import barrage_dice, coastal_forts, garrison_barrage, run_the_guns
from .spec import (
    BATTLE_TYPES,
    FLEET_ACTION,
    GARRISON_GUNS,
    RUNNING_THE_GUNS,
    AdmiralSpec,
    BattleSpec,
    PortSpec,
    ShipSpec,
    SideSpec,
    SpecError,
    line_eligible,
    parse_spec,
    spec_to_json,
)
from .text import render_engagement, render_report

__all__ = [
    "BATTLE_TYPES",
    "DEFAULT_RULESET",
    "FLEET_ACTION",
    "GARRISON_GUNS",
    "RUNNING_THE_GUNS",
    "AdmiralSpec",
    "BattleReport",
    "BattleSpec",
    "ContactDie",
    "ContactSide",
    "Dice",
    "DiceError",
    "EngagementContext",
    "EngagementDay",
    "EngagementReport",
    "EngagementSide",
    "Event",
    "GaugeResult",
    "IntegrityCheck",
    "InterceptResult",
    "Odds",
    "PortSpec",
    "Pursuit",
    "RoundLines",
    "Ruleset",
    "ScriptedDice",
    "SeededDice",
    "ShipResult",
    "ShipSpec",
    "SideSpec",
    "SideSummary",
    "SightingResult",
    "SpecError",
    "barrage_dice",
    "coastal_forts",
    "derive_seed",
    "fight",
    "fight_day",
    "fight_engagement",
    "garrison_barrage",
    "intercept_roll",
    "line_eligible",
    "parse_spec",
    "render_engagement",
    "render_odds",
    "render_report",
    "run_seed",
    "run_the_guns",
    "sighting_roll",
    "simulate_odds",
    "spec_to_json",
    "weather_gauge_roll",
]
