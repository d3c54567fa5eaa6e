"""Forts and shore batteries on the table (seed 002, Blood, Bilge & Iron Balls), and the port's forts.

Seed 002's "Optional Rule for Forts and Shore Batteries" says, verbatim:

* SIZES — "Forts can be Small, Medium or Large in size although the Large Forts should be reserved
  for the very largest historical precedents in a scenario." "All forts will have a 180 degree
  firing arc that will be divided into four 45 degree sectors. … All forts can fire at any one
  target within EACH of the four sectors; Small Forts have one gun per sector, Medium Forts two guns
  per sector and Large Forts three guns per sector. Each sector has a firing arc of the same 45
  degrees and no gun can fire into the arc of its neighbour."
* FIRING — "Fort Guns fire during their sides Firing Phase with a +1 modifier but have a minimum
  range; they cannot target anything at point blank or Close Range. Also, Extreme Range is extended
  for Fort Guns by six inches to a maximum of thirty inches rather than the usual twenty four. The
  Fort Guns may target a ship in any of the available range bands but must fire at the nearest ship
  in the chosen range band." "Fort Gun hits are dealt with as ordinary ship hits but will also
  inflict three Crew Star hits rather than the usual one, cause a fire and draw the usual Damage
  Card."
* DEFENCE — "Ships firing at Forts must Fourth Rates or above and be at Long Range but, they will
  only hit on a d6 score of 6. Any hits on the Fort will first silence the guns for a turn with
  excess hits destroying them. Firer rolls one d6 per available gun. One 6 = One gun in quadrant
  silenced for one turn. … Two 6's = One gun in quadrant silenced until cleared with roll of 5 or 6.
  … Three 6's = One gun in quadrant destroyed. Four or more 6's = One gun in quadrant destroyed and
  whole fort silenced for one turn"

The port's forts, as the campaign counts them (RULES.md §6 and §7, which win over the seed):
"Coastal forts = Fortification factor (Gibraltar 2 × = 6) [S]; each is 10 broadsides (a light fort,
FF 1, is 5) for tabletop export." The size of each fort is a house mapping [H], documented here and
printed in the pack (:func:`fort_mapping_table`):

* fortification factor 1 — **small** forts (RULES.md's "light fort");
* fortification factor 2 — **medium** forts (the seed: "most games will only require Small or
  Medium Forts");
* fortification factor 3 or more — **large** forts ("reserved for the very largest historical
  precedents": in the 1805 scenario only Gibraltar, Malta, Brest, Kronstadt and Alexandria);
* each artillery battery of the port is one more **small** fort (the seed: "all land based guns
  will be considered to be in forts unless an historical scenario dictates otherwise").

Gibraltar (FF 3) therefore has six large forts. The number of forts uses the campaign ruleset's
Gibraltar multiplier (``guns.coastal_forts_gibraltar_multiplier``) through
:func:`rules.siege.coastal_forts`, so the pack and the automatic battles count the same forts.

House reading of the range bands: the seed names point blank, close, long and extreme range; forts
fire at long and extreme (to 30 inches), ships fire at forts only from long range.

Rolling functions log their dice in a :class:`~rules.strategic_log.StrategicLog` (purposes
``fort_fire_back`` and ``fort_clear``) and return frozen results.

One piece, though over 500 lines: it is the transcription of one seed's rule (002, forts and shore
batteries) — the fort sizes, the firing and hit tables, the rolls that read them and the printed
tables — with the house mapping from a port's fortification to those forts, which reads the same
tables; a reader checks it against the seed's words, quoted above, in one place.

Pure Python: no Django, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from rules import strategic_log as purposes
from rules.dice import Dice
from rules.ruleset import LINE_CLASSES, SHIP_CLASSES, Ruleset
from rules.siege import coastal_forts
from rules.strategic_log import StrategicDie, StrategicLog
from rules.tabletop.printable import PrintableTable, signed

SEED: Final = "002"
SOURCE: Final = "Blood, Bilge & Iron Balls: optional rule for forts and shore batteries"
_D6: Final = 6


class FortSize(StrEnum):
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"

    @property
    def label(self) -> str:
        return self.value.capitalize()


#: "All forts will have a 180 degree firing arc that will be divided into four 45 degree sectors."
ARC_DEGREES: Final = 180
SECTORS: Final = 4
SECTOR_DEGREES: Final = ARC_DEGREES // SECTORS
#: "Small Forts have one gun per sector, Medium Forts two guns per sector and Large Forts three guns
#: per sector."
GUNS_PER_SECTOR: Final = {FortSize.SMALL: 1, FortSize.MEDIUM: 2, FortSize.LARGE: 3}
#: "Fort Guns fire during their sides Firing Phase with a +1 modifier"
FORT_FIRE_MODIFIER: Final = 1
#: "Extreme Range is extended for Fort Guns by six inches to a maximum of thirty inches rather than
#: the usual twenty four."
USUAL_EXTREME_RANGE_INCHES: Final = 24
FORT_EXTREME_EXTENSION_INCHES: Final = 6
FORT_EXTREME_RANGE_INCHES: Final = USUAL_EXTREME_RANGE_INCHES + FORT_EXTREME_EXTENSION_INCHES
#: "will also inflict three Crew Star hits rather than the usual one"
FORT_CREW_STAR_HITS: Final = 3
#: "they will only hit on a d6 score of 6"
SHIP_HITS_FORT_ON: Final = 6
#: "silenced until cleared with roll of 5 or 6"
CLEAR_ON: Final = 5


class RangeBand(StrEnum):
    """The range bands the seed names, nearest first."""

    POINT_BLANK = "point_blank"
    CLOSE = "close"
    LONG = "long"
    EXTREME = "extreme"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ")


@dataclass(frozen=True, slots=True)
class FortProfile:
    """A fort of one size: its guns per 45° sector, its four sectors and its guns in all."""

    size: FortSize
    guns_per_sector: int
    sectors: int = SECTORS
    arc_degrees: int = ARC_DEGREES

    @property
    def guns(self) -> int:
        return self.guns_per_sector * self.sectors


def fort_profile(size: FortSize | str) -> FortProfile:
    """The guns and arc of a fort of ``size`` ("small", "medium" or "large")."""
    try:
        s = FortSize(size)
    except ValueError:
        raise ValueError(f"fort size: {size!r} is not small, medium or large") from None
    return FortProfile(s, GUNS_PER_SECTOR[s])


FORT_PROFILES: Final = tuple(fort_profile(s) for s in FortSize)


@dataclass(frozen=True, slots=True)
class Permission:
    """Whether a shot is allowed, and why (a sentence a player reads)."""

    allowed: bool
    reason: str


def fort_may_fire(band: RangeBand | str, inches: float | None = None) -> Permission:
    """May a fort's gun fire at a ship in ``band`` (and at ``inches``, if given)?

    Seed 002: "they cannot target anything at point blank or Close Range" and extreme range reaches
    "a maximum of thirty inches".
    """
    b = RangeBand(band)
    if b in (RangeBand.POINT_BLANK, RangeBand.CLOSE):
        return Permission(False, f"fort guns cannot target anything at {b.label} range")
    if inches is not None and inches > FORT_EXTREME_RANGE_INCHES:
        return Permission(False, f"fort guns reach {FORT_EXTREME_RANGE_INCHES} inches at most; {inches:g} is beyond")
    return Permission(True, f"fort guns may fire at {b.label} range, at +{FORT_FIRE_MODIFIER}, at the nearest ship")


def ship_may_fire_at_fort(ship_class: str, band: RangeBand | str) -> Permission:
    """May a ship of ``ship_class`` fire at a fort from ``band``?

    Seed 002: "Ships firing at Forts must Fourth Rates or above and be at Long Range". Fourth rates
    or above are the campaign's ships of the line and 4th rates.
    """
    if ship_class not in SHIP_CLASSES:
        raise ValueError(f"ship class: {ship_class!r} is not one of {', '.join(SHIP_CLASSES)}")
    b = RangeBand(band)
    if ship_class not in LINE_CLASSES:
        return Permission(False, "only fourth rates or above may fire at a fort")
    if b is not RangeBand.LONG:
        return Permission(False, f"ships fire at a fort only from long range, not {b.label} range")
    return Permission(True, "fourth rate or above at long range: hits the fort on a 6")


# --- Ships firing at a fort ------------------------------------------------------------------------


class FortHitEffect(StrEnum):
    NONE = "none"
    SILENCED_ONE_TURN = "silenced_one_turn"
    SILENCED_UNTIL_CLEARED = "silenced_until_cleared"
    GUN_DESTROYED = "gun_destroyed"
    GUN_DESTROYED_FORT_SILENCED = "gun_destroyed_fort_silenced"


@dataclass(frozen=True, slots=True)
class FortHitRow:
    """One line of the table of sixes: ``sixes`` (the least number for ``or_more``) and its effect."""

    sixes: int
    or_more: bool
    effect: FortHitEffect
    text: str


#: "One 6 = One gun in quadrant silenced for one turn. … Two 6's = One gun in quadrant silenced until
#: cleared with roll of 5 or 6. … Three 6's = One gun in quadrant destroyed. Four or more 6's = One
#: gun in quadrant destroyed and whole fort silenced for one turn"
FORT_HIT_TABLE: Final = (
    FortHitRow(0, False, FortHitEffect.NONE, "No effect"),
    FortHitRow(1, False, FortHitEffect.SILENCED_ONE_TURN, "One gun in the quadrant silenced for one turn"),
    FortHitRow(
        2,
        False,
        FortHitEffect.SILENCED_UNTIL_CLEARED,
        "One gun in the quadrant silenced until cleared with a roll of 5 or 6",
    ),
    FortHitRow(3, False, FortHitEffect.GUN_DESTROYED, "One gun in the quadrant destroyed"),
    FortHitRow(
        4,
        True,
        FortHitEffect.GUN_DESTROYED_FORT_SILENCED,
        "One gun in the quadrant destroyed and the whole fort silenced for one turn",
    ),
)


def fort_hit_row(sixes: int) -> FortHitRow:
    """The line of the table of sixes for a count of sixes (0 or more)."""
    if isinstance(sixes, bool) or not isinstance(sixes, int) or sixes < 0:
        raise ValueError(f"sixes: a count of sixes is 0 or more, got {sixes!r}")
    for row in FORT_HIT_TABLE:
        if sixes == row.sixes or (row.or_more and sixes >= row.sixes):
            return row
    raise AssertionError(sixes)  # pragma: no cover - the last row is open-ended


@dataclass(frozen=True, slots=True)
class FireAtFort:
    """One ship's fire at a fort: the faces, how many were sixes, and what they did."""

    faces: tuple[int, ...]
    sixes: int
    effect: FortHitEffect
    text: str


def fire_at_fort_for(faces: tuple[int, ...] | list[int]) -> FireAtFort:
    """The effect of one ship's fire at a fort from its d6 faces ("one d6 per available gun")."""
    for n, face in enumerate(faces, start=1):
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= _D6:
            raise ValueError(f"fire at a fort: die {n} is {face!r}, but a d6 shows 1..6")
    sixes = sum(1 for f in faces if f >= SHIP_HITS_FORT_ON)
    row = fort_hit_row(sixes)
    return FireAtFort(tuple(faces), sixes, row.effect, row.text)


def roll_fire_at_fort(
    dice: Dice,
    log: StrategicLog,
    *,
    place: str,
    ship_class: str,
    band: RangeBand | str,
    guns: int,
    subject: str | None = None,
) -> FireAtFort:
    """Roll one ship's fire at a fort: one d6 per available gun, each logged as ``fort_fire_back``.

    Refused without rolling (a :class:`ValueError` naming why) when the ship may not fire at a fort
    (:func:`ship_may_fire_at_fort`) or has no gun to fire.
    """
    permission = ship_may_fire_at_fort(ship_class, band)
    if not permission.allowed:
        raise ValueError(f"fire at a fort: {permission.reason}")
    if isinstance(guns, bool) or not isinstance(guns, int) or guns < 1:
        raise ValueError(f"fire at a fort: the ship needs at least one available gun, got {guns!r}")
    rolled: list[StrategicDie] = [
        log.roll(dice, purpose=purposes.FORT_FIRE_BACK, place=place, die="d6", subject=subject, detail=f"gun {n}")
        for n in range(1, guns + 1)
    ]
    return fire_at_fort_for([d.raw for d in rolled])


@dataclass(frozen=True, slots=True)
class ClearGun:
    face: int
    cleared: bool


def clear_gun_for(face: int) -> ClearGun:
    """Whether a gun "silenced until cleared" is cleared by a d6 face: on 5 or 6."""
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= _D6:
        raise ValueError(f"clear a silenced gun: a d6 shows 1..6, got {face!r}")
    return ClearGun(face, face >= CLEAR_ON)


def roll_clear_gun(dice: Dice, log: StrategicLog, *, place: str, subject: str | None = None) -> ClearGun:
    """Roll to clear a gun silenced until cleared (logged as ``fort_clear``): cleared on 5 or 6."""
    die = log.roll(dice, purpose=purposes.FORT_CLEAR, place=place, die="d6", subject=subject, detail="clear gun")
    return clear_gun_for(die.raw)


# --- The port's forts ------------------------------------------------------------------------------

#: House: the fortification factor from which a port's forts are large, and the one for medium.
LARGE_FROM_FF: Final = 3
MEDIUM_FROM_FF: Final = 2
#: House: each artillery battery is one small fort ("all land based guns will be considered to be in
#: forts").
BATTERY_FORT_SIZE: Final = FortSize.SMALL


def fort_size_for(fortification: int) -> FortSize | None:
    """The size of a port's coastal forts for its fortification factor (house mapping above); None
    for a port without coastal forts (factor 0)."""
    if isinstance(fortification, bool) or not isinstance(fortification, int) or fortification < 0:
        raise ValueError(f"fortification factor: a whole number 0 or more, got {fortification!r}")
    if fortification == 0:
        return None
    if fortification >= LARGE_FROM_FF:
        return FortSize.LARGE
    if fortification >= MEDIUM_FROM_FF:
        return FortSize.MEDIUM
    return FortSize.SMALL


@dataclass(frozen=True, slots=True)
class FortGroup:
    """Forts of one size at a port: how many, their profile, and where they come from (a sentence)."""

    kind: str
    count: int
    profile: FortProfile
    origin: str

    @property
    def guns(self) -> int:
        return self.count * self.profile.guns


@dataclass(frozen=True, slots=True)
class PortForts:
    """A port's forts on the table: the coastal forts, then the batteries, each as a group."""

    fortification: int
    gibraltar: bool
    batteries: int
    coastal_forts: int
    groups: tuple[FortGroup, ...]

    @property
    def forts(self) -> int:
        return sum(g.count for g in self.groups)

    @property
    def guns(self) -> int:
        return sum(g.guns for g in self.groups)


#: FortGroup kinds: the port's coastal forts, and its artillery batteries fought as small forts.
COASTAL: Final = "coastal forts"
BATTERIES: Final = "artillery batteries"


def _forts(n: int) -> str:
    return "1 fort" if n == 1 else f"{n} forts"


def port_forts(*, fortification: int, gibraltar: bool, batteries: int, ruleset: Ruleset) -> PortForts:
    """The forts a port puts on the table: its coastal forts as the campaign counts them (FF;
    Gibraltar the ruleset's multiple of FF), sized by :func:`fort_size_for`, and one small fort per
    artillery battery. Returns the groups with a sentence each saying where they come from."""
    size = fort_size_for(fortification)
    if isinstance(batteries, bool) or not isinstance(batteries, int) or batteries < 0:
        raise ValueError(f"batteries: a whole number 0 or more, got {batteries!r}")
    count = coastal_forts(fortification, gibraltar, ruleset)
    groups: list[FortGroup] = []
    if size is not None and count:
        rule = (
            f"{ruleset['guns.coastal_forts_gibraltar_multiplier']} × fortification factor {fortification} (Gibraltar)"
            if gibraltar
            else f"fortification factor {fortification}"
        )
        why = {
            FortSize.SMALL: "small for factor 1",
            FortSize.MEDIUM: "medium for factor 2",
            FortSize.LARGE: f"large for factor {LARGE_FROM_FF} or more",
        }[size]
        groups.append(FortGroup(COASTAL, count, fort_profile(size), f"{rule}; {why}"))
    if batteries:
        groups.append(FortGroup(BATTERIES, batteries, fort_profile(BATTERY_FORT_SIZE), "one small fort per battery"))
    return PortForts(fortification, gibraltar, batteries, count, tuple(groups))


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
