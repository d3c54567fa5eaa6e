"""The strategic dice log (RULES.md §3 "Strategic dice").

"Every roll outside battles (sighting, intercept, gauge, sieges, storms, attrition, garrison
barrages, fireships) is stored in the turn's dice log with purpose, place, die, raw, modifier and
result, seeded from (campaign seed, turn, phase, place)."

:class:`StrategicDie` is one such stored roll; :class:`StrategicLog` collects them in the order
they were rolled. The rule modules (:mod:`rules.siege`, :mod:`rules.weather`,
:mod:`rules.fireships`) append to a log the caller passes in, so one turn's phase can gather every
die of every place into one list, and the raw faces of a log fed back through
:class:`~rules.dice.ScriptedDice` replay it exactly.

Pure Python: no Django, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final, Literal

from rules.dice import Dice

DieKind = Literal["d6", "d10"]

#: How many faces each die kind has (the kind's name says so; this is not a rule number).
DIE_SIDES: Final[Mapping[str, int]] = MappingProxyType({"d6": 6, "d10": 10})

# Purposes, one per kind of strategic roll. The battle-side names (sighting, intercept, gauge and
# the garrison barrage's fortification, battery, hot shot and explosion dice) are listed so that
# the engine's strategic rolls land in the same log under the same vocabulary as CONTRACT.md's
# battle purposes.
SIGHTING: Final = "sighting"
INTERCEPT: Final = "intercept"
GAUGE: Final = "gauge"
SIEGE: Final = "siege"
STORM: Final = "storm"
STORM_DAMAGE: Final = "storm_damage"
ATTRITION: Final = "attrition"
ATTRITION_UNIT: Final = "attrition_unit"
FIRESHIP_FORT: Final = "fireship_fort"
FIRESHIP: Final = "fireship"
BARRAGE_FORT: Final = "barrage_fort"
BARRAGE_BATTERY: Final = "barrage_battery"
HOT_SHOT: Final = "hot_shot"
EXPLOSION: Final = "explosion"
EXPLOSION_FIRE: Final = "explosion_fire"
# Tabletop battles (rules/tabletop/): the dice the server rolls for a battle pack when the group
# asks it to, stored in the same log so a GM can see and replay them like any other roll.
WIND_INITIAL: Final = "wind_initial"
WIND_CHANGE: Final = "wind_change"
WIND_SPEED: Final = "wind_speed"
SETUP: Final = "setup"
TIDE_EFFECT: Final = "tide_effect"
GROUNDING: Final = "grounding"
UNSTICK: Final = "unstick"
MARSH_PASSAGE: Final = "marsh_passage"
FORT_FIRE_BACK: Final = "fort_fire_back"
FORT_CLEAR: Final = "fort_clear"
FIRE_COMBAT: Final = "fire_combat"

PURPOSES: Final = frozenset(
    {
        SIGHTING,
        INTERCEPT,
        GAUGE,
        SIEGE,
        STORM,
        STORM_DAMAGE,
        ATTRITION,
        ATTRITION_UNIT,
        FIRESHIP_FORT,
        FIRESHIP,
        BARRAGE_FORT,
        BARRAGE_BATTERY,
        HOT_SHOT,
        EXPLOSION,
        EXPLOSION_FIRE,
        WIND_INITIAL,
        WIND_CHANGE,
        WIND_SPEED,
        SETUP,
        TIDE_EFFECT,
        GROUNDING,
        UNSTICK,
        MARSH_PASSAGE,
        FORT_FIRE_BACK,
        FORT_CLEAR,
        FIRE_COMBAT,
    }
)


class StrategicLogError(ValueError):
    """A record with an unknown purpose or die kind, or a raw face the die does not have."""


@dataclass(frozen=True, slots=True)
class StrategicDie:
    """One strategic die as stored in the turn's dice log.

    ``place`` is the key of the sea zone or port the roll belongs to. ``raw`` is the face shown,
    ``mod`` the sum of the modifiers applied and ``result`` the value the rule acted on — normally
    ``raw + mod``, except where a rule makes a natural face decisive (a fireship's natural 10 is
    recorded as the sinking result it applied). ``subject`` names what the die was rolled for in
    the caller's ids (``"ship:12"``, ``"unit:7"``, ``"fireship:3>ship:12"``); ``detail`` is a short
    readable note (``"gale season: storm on 5+"``).
    """

    purpose: str
    place: str
    die: DieKind
    raw: int
    mod: int
    result: int
    subject: str | None = None
    detail: str | None = None

    def __post_init__(self) -> None:
        if self.purpose not in PURPOSES:
            raise StrategicLogError(f"purpose: {self.purpose!r} is not one of {', '.join(sorted(PURPOSES))}")
        sides = DIE_SIDES.get(self.die)
        if sides is None:
            raise StrategicLogError(f"die: {self.die!r} is not 'd6' or 'd10'")
        if not 1 <= self.raw <= sides:
            raise StrategicLogError(f"raw: a {self.die} shows 1..{sides}, got {self.raw}")

    def to_dict(self) -> dict[str, object]:
        """The record as a JSON-ready mapping (the shape the turn's dice log stores)."""
        return {
            "purpose": self.purpose,
            "place": self.place,
            "die": self.die,
            "raw": self.raw,
            "mod": self.mod,
            "result": self.result,
            "subject": self.subject,
            "detail": self.detail,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> StrategicDie:
        """Inverse of :meth:`to_dict`; raises :class:`StrategicLogError` on a malformed record."""
        try:
            die = data["die"]
            if die not in DIE_SIDES:
                raise StrategicLogError(f"die: {die!r} is not 'd6' or 'd10'")
            return cls(
                purpose=_as_str(data["purpose"], "purpose"),
                place=_as_str(data["place"], "place"),
                die="d6" if die == "d6" else "d10",
                raw=_as_int(data["raw"], "raw"),
                mod=_as_int(data["mod"], "mod"),
                result=_as_int(data["result"], "result"),
                subject=_as_optional_str(data.get("subject"), "subject"),
                detail=_as_optional_str(data.get("detail"), "detail"),
            )
        except KeyError as missing:
            raise StrategicLogError(f"{missing.args[0]}: missing") from None


def _as_str(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise StrategicLogError(f"{name}: must be text, got {value!r}")
    return value


def _as_optional_str(value: object, name: str) -> str | None:
    return None if value is None else _as_str(value, name)


def _as_int(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise StrategicLogError(f"{name}: must be a whole number, got {value!r}")
    return value


class StrategicLog:
    """An append-only, ordered collection of :class:`StrategicDie` records.

    Not thread-safe and not meant to be: one log belongs to one task resolving one phase. The
    order of the records is the order the dice were rolled, which is the canonical order of
    RULES.md §3 when the rule functions are called as their docstrings require. Like any
    container an empty log is falsy: test ``log is None``, never ``log or StrategicLog()``.
    """

    __slots__ = ("_records",)

    def __init__(self, records: tuple[StrategicDie, ...] | list[StrategicDie] = ()) -> None:
        self._records: list[StrategicDie] = list(records)

    def append(self, record: StrategicDie) -> StrategicDie:
        """Add one record at the end and return it."""
        self._records.append(record)
        return record

    def roll(
        self,
        dice: Dice,
        *,
        purpose: str,
        place: str,
        die: DieKind,
        mod: int = 0,
        subject: str | None = None,
        detail: str | None = None,
    ) -> StrategicDie:
        """Roll one die from ``dice``, record it with ``result = raw + mod`` and return the record.

        The face is drawn before the record is validated, so a purpose typo still consumes the
        die and fails loudly rather than silently shifting every later roll.
        """
        raw = dice.roll(DIE_SIDES[die])
        return self.append(
            StrategicDie(
                purpose=purpose,
                place=place,
                die=die,
                raw=raw,
                mod=mod,
                result=raw + mod,
                subject=subject,
                detail=detail,
            )
        )

    @property
    def records(self) -> tuple[StrategicDie, ...]:
        """Every record so far, in rolling order."""
        return tuple(self._records)

    def faces(self) -> list[int]:
        """The raw faces in order: ``ScriptedDice(log.faces())`` replays the same rolls."""
        return [r.raw for r in self._records]

    def for_place(self, place: str) -> tuple[StrategicDie, ...]:
        """The records of one zone or port, in rolling order."""
        return tuple(r for r in self._records if r.place == place)

    def to_list(self) -> list[dict[str, object]]:
        """JSON-ready list of every record (see :meth:`StrategicDie.to_dict`)."""
        return [r.to_dict() for r in self._records]

    def __len__(self) -> int:
        return len(self._records)

    def __iter__(self) -> Iterator[StrategicDie]:
        return iter(tuple(self._records))

    def __repr__(self) -> str:
        return f"StrategicLog({len(self._records)} dice)"
