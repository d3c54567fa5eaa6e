"""Inshore battles: tide timing, the tide cycle, the tide-effect table and grounding (seed 001).

Seed 001 is George Smithson's naval set-up for DBM (1998). What it says, verbatim:

* TIDE TIMING — "After setup dice are thrown, if the set die score is for a moonless night (if
  defenders last setup die score is even) then low water will occurred at the hour of the
  attacker's inital set die score ( rolls a 1 then 0100 is low water, a 3 then 0300 is low water
  and so on). If on a night with a moon ( the defenders last setup die score is odd ), defender's
  total die score will be the hour of high water."
* TIDE CYCLE — "A tide cycle consists of 4 phases Low water 2 hours( 8 bounds), Flood tide 4 hours
  15 minutes ( 17 bounds ), High water 2 hours ( 8 bounds), and an Ebb tide last 4 hours 15
  minutes ( 17 bounds ) for a 25 hour cycle of 2 tides a day."
* TIDE EFFECT — "After terrain set up a die is rolled by the attacker and compared to the chart
  below to determine the effect of the tide cycle. The result determines the nature of the shoal
  waters, reefs and tidal marsh in that tide cycle. … At the end of the first tide cycle a die is
  rolled to determine the effect of the next tide cycle." Modifiers: "+1 Passage between mainland
  and island", "+1 Adjacent mainland shore is dune or marsh or River mouth", "+1 Calm", "+1 Strong
  wind blowing onshore", "-1 Strong wind blowing offshore", "-1 Adjacent shore rocky or steep".
* GROUNDING — "In GGo* naval elements run aground if the number on the chart below and the result
  of a die roll is greater than 6. If aground in Stong wind the element is destroyed (wrecked.).
  Grounded ships may become unstuck if they make their number in the tide level they grounded or a
  higher tide." with the chart "Shp(S) 4 Shp(O), Gy(S) 3 Shp(I,X), Gy(O) 2 Gy( F), Bt(S) 1
  Bt(O,I,X) 0" and "-1 Aground in Low water or Flood • +1 Aground in Ebb • +2 Aground at High water".
* FLOODED MARSH — "Boats may pass thru Flooded marshes moving in DGo as indicated by the die roll
  on the chart below." (1 difficult 45 degrees left … 6 difficult 45 degrees right).

Decisions where the seed is ambiguous or silent (house, [H]); RULES.md says nothing of tides:

* The tide-effect chart arrives as text whose header reads "Tide is High Ebb Flood Low / Terrain is
  Reef Tidal Marsh" over five result columns. It is read as five columns: shoal water at **high
  water**, shoal water at **ebb or flood**, shoal water at **low water**, **reefs**, and **tidal
  marsh** — the seed's own words: "the nature of the shoal waters, reefs and tidal marsh" and "the
  effect of the shoal water section can be modified". Every column then goes one way (the lower
  the tide, the shallower), which the tests check.
* "Low water will occur at the hour" N is taken as the low-water phase *beginning* at N:00 (high
  water likewise), and the cycle repeats every 50 bounds (12 h 30 min) before and after it. A total
  of 24 or more wraps round the clock.
* The seed does not say how many set-up dice the defender throws; the functions take his dice as
  thrown (the last one decides the moon, their total the hour), and the server rolls two for him
  and one for the attacker when asked (:func:`roll_setup_dice`).
* The tide modifiers ("Aground in …") are read as modifiers to the roll to get *unstuck* — the only
  roll the seed makes for a ship already aground — and "make their number" as die + modifier ≥ the
  element's chart number. The tide levels rise low water < flood = ebb < high water.
* A bound is fifteen minutes (8 bounds = 2 hours).
* Campaign ship classes map to the seed's DBM element types by draught (:data:`CLASS_ELEMENTS`):
  ships of the line and 4th rates Shp(S); heavy frigates, frigates and transports Shp(O); sloops,
  brigs and fireships Shp(I).

Rolling functions log their dice in a :class:`~rules.strategic_log.StrategicLog` (purposes
``setup``, ``tide_effect``, ``grounding``, ``unstick``, ``marsh_passage``) and return frozen results.

The seed's tables build on each other (unsticking reads the grounding chart and the tide cycle's
phases); the package keeps each table with its rolls, by concern: the tide cycle and timing
(:mod:`.cycle`), the tide-effect chart (:mod:`.effect`), grounding (:mod:`.grounding`), the flooded
marsh (:mod:`.marsh`), the printed tables (:mod:`.printed`) and an inshore battle's opening rolls
(:mod:`.inshore`). Callers import from here.

Pure Python: no Django, no I/O.
"""

from rules.tabletop.tides.cycle import (
    BOUND_MINUTES,
    CYCLE_BOUNDS,
    CYCLE_MINUTES,
    DEFENDER_SETUP_DICE,
    SEED,
    SOURCE,
    TIDE_CYCLE,
    CyclePhase,
    SetupDice,
    TidePeriod,
    TidePhase,
    TideState,
    TideTiming,
    clock,
    roll_setup_dice,
    tide_timing_for,
)
from rules.tabletop.tides.effect import (
    HIGHEST_SCORE,
    LOWEST_SCORE,
    TIDE_EFFECT,
    TIDE_MODIFIERS,
    Going,
    TideConditions,
    TideEffect,
    TideEffectRow,
    TideModifier,
    Wind,
    roll_tide_effect,
    tide_effect_for,
    tide_effect_row,
)
from rules.tabletop.tides.grounding import (
    AGROUND_ABOVE,
    CLASS_ELEMENTS,
    GROUNDING_CHART,
    GROUNDING_NUMBER,
    LOW_DRAFT_NUMBER,
    UNSTICK_MODIFIERS,
    Element,
    Grounding,
    GroundingRow,
    Unstick,
    element_for_class,
    grounding_check_needed,
    grounding_for,
    low_draft,
    may_try_unstick,
    roll_grounding,
    roll_unstick,
    unstick_for,
)
from rules.tabletop.tides.inshore import (
    InshoreSetup,
    roll_inshore_setup,
    setup_dice_table,
    tide_effect_result_table,
)
from rules.tabletop.tides.marsh import (
    MARSH_PASSAGE_TABLE,
    MarshRow,
    marsh_passage_for,
    roll_marsh_passage,
)
from rules.tabletop.tides.printed import (
    grounding_table,
    marsh_passage_table,
    tide_cycle_table,
    tide_effect_table,
    tide_modifiers_table,
    tide_schedule_table,
    tide_timing_table,
)

__all__ = [
    "AGROUND_ABOVE",
    "BOUND_MINUTES",
    "CLASS_ELEMENTS",
    "CYCLE_BOUNDS",
    "CYCLE_MINUTES",
    "DEFENDER_SETUP_DICE",
    "GROUNDING_CHART",
    "GROUNDING_NUMBER",
    "HIGHEST_SCORE",
    "LOWEST_SCORE",
    "LOW_DRAFT_NUMBER",
    "MARSH_PASSAGE_TABLE",
    "SEED",
    "SOURCE",
    "TIDE_CYCLE",
    "TIDE_EFFECT",
    "TIDE_MODIFIERS",
    "UNSTICK_MODIFIERS",
    "CyclePhase",
    "Element",
    "Going",
    "Grounding",
    "GroundingRow",
    "InshoreSetup",
    "MarshRow",
    "SetupDice",
    "TideConditions",
    "TideEffect",
    "TideEffectRow",
    "TideModifier",
    "TidePeriod",
    "TidePhase",
    "TideState",
    "TideTiming",
    "Unstick",
    "Wind",
    "clock",
    "element_for_class",
    "grounding_check_needed",
    "grounding_for",
    "grounding_table",
    "low_draft",
    "marsh_passage_for",
    "marsh_passage_table",
    "may_try_unstick",
    "roll_grounding",
    "roll_inshore_setup",
    "roll_marsh_passage",
    "roll_setup_dice",
    "roll_tide_effect",
    "roll_unstick",
    "setup_dice_table",
    "tide_cycle_table",
    "tide_effect_for",
    "tide_effect_result_table",
    "tide_effect_row",
    "tide_effect_table",
    "tide_modifiers_table",
    "tide_schedule_table",
    "tide_timing_for",
    "tide_timing_table",
    "unstick_for",
]
