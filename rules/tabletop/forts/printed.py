"""Seed 002's fort tables as a battle pack prints them, a port's forts, and seed 004's shore batteries
(:class:`~rules.tabletop.printable.PrintableTable`), built from the same constants the rolls read.
"""

from __future__ import annotations

from typing import Final

from rules.ruleset import Ruleset
from rules.tabletop.forts.firing import (
    FORT_CREW_STAR_HITS,
    FORT_EXTREME_EXTENSION_INCHES,
    FORT_EXTREME_RANGE_INCHES,
    FORT_FIRE_MODIFIER,
    FORT_PROFILES,
    SEED,
    SOURCE,
    USUAL_EXTREME_RANGE_INCHES,
)
from rules.tabletop.forts.hits import FORT_HIT_TABLE
from rules.tabletop.forts.port import COASTAL, LARGE_FROM_FF, FortGroup, PortForts
from rules.tabletop.printable import PrintableTable, signed

# --- Printable tables ------------------------------------------------------------------------------


def _count(group: FortGroup) -> str:
    """ "6 coastal forts", "1 artillery battery"."""
    if group.count != 1:
        return f"{group.count} {group.kind}"
    return "1 coastal fort" if group.kind == COASTAL else "1 artillery battery"


def _guns(n: int) -> str:
    return "1 gun" if n == 1 else f"{n} guns"


def fort_sizes_table() -> PrintableTable:
    """The three fort sizes: guns per sector, sectors and arc, guns in all."""
    return PrintableTable(
        key="fort_sizes",
        title="Fort sizes",
        source=SOURCE,
        seed=SEED,
        headers=("Fort", "Guns per 45° sector", "Sectors", "Guns in all"),
        rows=tuple(
            (p.size.label, str(p.guns_per_sector), f"{p.sectors} over {p.arc_degrees}°", str(p.guns))
            for p in FORT_PROFILES
        ),
        notes=(
            "A fort can fire at one target in each of its four sectors; no gun can fire into the arc of its neighbour.",
            "Large forts are reserved for the very largest historical precedents.",
        ),
    )


def fort_firing_table() -> PrintableTable:
    """The fort's firing rules and the ships' fire back, one rule a row."""
    return PrintableTable(
        key="fort_firing",
        title="Fort guns and ships firing at forts",
        source=SOURCE,
        seed=SEED,
        headers=("Rule", "Effect"),
        rows=(
            ("Fort fire modifier", signed(FORT_FIRE_MODIFIER)),
            ("Fort minimum range", "Cannot target anything at point blank or close range"),
            (
                "Fort extreme range",
                f"Extended by {FORT_EXTREME_EXTENSION_INCHES} inches to {FORT_EXTREME_RANGE_INCHES} inches "
                f"(usually {USUAL_EXTREME_RANGE_INCHES})",
            ),
            ("Fort target", "Any range band, but the nearest ship in the chosen band"),
            (
                "Fort gun hits",
                f"As ordinary ship hits, plus {FORT_CREW_STAR_HITS} Crew Star hits (not 1), a fire and the usual "
                "Damage Card",
            ),
            ("Ships firing at a fort", "Fourth rates or above only, at long range only, hitting on a 6"),
            ("Ship's dice", "One d6 per available gun"),
        ),
    )


def fort_hits_table() -> PrintableTable:
    """The table of sixes: what ships' sixes do to a fort."""
    return PrintableTable(
        key="fort_hits",
        title="Ships' hits on a fort (count the sixes)",
        source=SOURCE,
        seed=SEED,
        headers=("Sixes", "Effect"),
        rows=tuple(
            (f"{r.sixes} or more" if r.or_more else str(r.sixes), r.text) for r in FORT_HIT_TABLE if r.sixes > 0
        ),
        notes=("Hits first silence the guns for a turn; excess hits destroy them.",),
    )


def fort_mapping_table(ruleset: Ruleset) -> PrintableTable:
    """How the campaign's fortification factor and batteries become forts on the table."""
    multiplier = ruleset["guns.coastal_forts_gibraltar_multiplier"]
    return PrintableTable(
        key="fort_mapping",
        title="The port's forts on the table",
        source=SOURCE,
        seed=SEED,
        headers=("In the campaign", "On the table"),
        rows=(
            ("Fortification factor 0", "No coastal forts"),
            ("Fortification factor 1", "1 small fort (1 gun per sector)"),
            ("Fortification factor 2", "2 medium forts (2 guns per sector)"),
            (f"Fortification factor {LARGE_FROM_FF} or more", "That many large forts (3 guns per sector)"),
            (
                "Gibraltar",
                f"{multiplier} × its fortification factor in forts of its size "
                f"({multiplier * LARGE_FROM_FF} large forts at {LARGE_FROM_FF})",
            ),
            ("Each artillery battery", "1 small fort"),
        ),
        notes=("The campaign counts one coastal fort per point of fortification factor.",),
    )


def port_forts_table(forts: PortForts, port_name: str) -> PrintableTable:
    """One port's forts as the pack prints them: each group with its guns and origin."""
    rows = tuple(
        (_count(g), g.profile.size.label, _guns(g.profile.guns_per_sector), _guns(g.guns), g.origin)
        for g in forts.groups
    )
    summary = ", ".join(_count(g) for g in forts.groups) or "no forts"
    return PrintableTable(
        key="port_forts",
        title=f"Forts of {port_name}: {summary}",
        source=SOURCE,
        seed=SEED,
        headers=("Forts", "Size", "Guns per sector", "Guns in all", "From"),
        rows=rows,
    )


# --- Shore batteries in the Battle of Grenada rules (seed 004) ---------------------------------------

#: Seed 004: "SHORE BATTERIES Each Gun box represents 8-14 guns."
SHORE_BATTERY_GUNS_PER_BOX: Final = (8, 14)


def shore_battery_table() -> PrintableTable:
    """Seed 004's shore batteries, for groups that fight with the Battle of Grenada rules: "SHORE
    BATTERIES Each Gun box represents 8-14 guns. If the shore battery fires red hot shot score hits
    normally & toss again for EACH hit as for an initial FIRE result."."""
    low, high = SHORE_BATTERY_GUNS_PER_BOX
    return PrintableTable(
        key="shore_batteries",
        title="Shore batteries (Battle of Grenada rules)",
        source="Battle of Grenada rules (MWAN #109)",
        seed="004",
        headers=("Rule", "Effect"),
        rows=(
            ("Gun box", f"Each gun box represents {low}–{high} guns"),
            ("Red hot shot", "Score hits normally, then toss again for each hit as for an initial FIRE result"),
        ),
    )
