"""The typed view of a campaign's ruleset: :class:`Ruleset`, a frozen dataclass of plain values and
read-only mappings built only through :meth:`Ruleset.from_flat` (so every instance has passed validation),
with the lookups rule code reads like the rules; and :data:`DEFAULT_RULESET`, RULES.md's defaults."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from rules.ruleset.settings import DEFAULTS, RulesetError, validate_flat
from rules.ruleset.vocabulary import NAVIES, NAVY_LIST_ALIASES, QUOTA_PERIODS, SEASONS, ZONE_TYPES

_SECTIONS: Final = ("grade.modifier.", "grade.admiral_dice.", "ship.cost.", "ship.build_turns.")
_PER_NAVY: Final = ("nationality.initiative.", "nationality.combat.", "nationality.boarding.")
#: (flat key, key in its section) per section of the typed view in the flat view's order, and each navy's
#: (period, quota key): picking them out of ~250 keys by prefix was most of building a ruleset, which is
#: done on every campaign read. Vocabulary, not campaign data.
_SECTION_KEYS: Final = {p: tuple((k, k[len(p) :]) for k in DEFAULTS if k.startswith(p)) for p in _SECTIONS + _PER_NAVY}
_QUOTA_KEYS: Final = {
    n: tuple((p, f"quota.pct.{NAVY_LIST_ALIASES.get(n, n)}.{p}") for p in QUOTA_PERIODS) for n in NAVIES
}


def _ro(d: Mapping[str, int]) -> Mapping[str, int]:
    return MappingProxyType(dict(d))


@dataclass(frozen=True, slots=True)
class Ruleset:
    """Immutable typed view of a campaign's settings; build it with :meth:`from_flat`."""

    flat: Mapping[str, int]
    grade_modifier: Mapping[str, int] = field(repr=False)
    admiral_dice: Mapping[str, int] = field(repr=False)
    initiative_nationality: Mapping[str, int] = field(repr=False)
    combat_nationality: Mapping[str, int] = field(repr=False)
    boarding_nationality: Mapping[str, int] = field(repr=False)
    ship_cost: Mapping[str, int] = field(repr=False)
    ship_build_turns: Mapping[str, int] = field(repr=False)
    quota_pct: Mapping[str, Mapping[str, int]] = field(repr=False)

    @classmethod
    def from_flat(cls, overrides: Mapping[str, object] | None = None) -> Ruleset:
        """Defaults of RULES.md with ``overrides`` applied; raises :class:`RulesetError`."""
        clean = validate_flat(overrides or {})
        v = {**DEFAULTS, **clean}

        def section(prefix: str) -> dict[str, int]:
            return {short: v[key] for key, short in _SECTION_KEYS[prefix]}

        def per_navy(prefix: str) -> dict[str, int]:
            table = section(prefix)
            for alias, target in NAVY_LIST_ALIASES.items():
                table[alias] = table[target]
            return table

        quota: dict[str, Mapping[str, int]] = {
            navy: _ro({period: v[key] for period, key in keys}) for navy, keys in _QUOTA_KEYS.items()
        }
        return cls(
            flat=_ro(v),
            grade_modifier=_ro(section("grade.modifier.")),
            admiral_dice=_ro(section("grade.admiral_dice.")),
            initiative_nationality=_ro(per_navy("nationality.initiative.")),
            combat_nationality=_ro(per_navy("nationality.combat.")),
            boarding_nationality=_ro(per_navy("nationality.boarding.")),
            ship_cost=_ro(section("ship.cost.")),
            ship_build_turns=_ro(section("ship.build_turns.")),
            quota_pct=MappingProxyType(quota),
        )

    # -- scalar access -----------------------------------------------------------------------
    def __getitem__(self, key: str) -> int:
        """``ruleset["battle.max_rounds"]`` — any flat setting by its key."""
        try:
            return self.flat[key]
        except KeyError:
            raise RulesetError(f"{key}: unknown setting") from None

    def overrides(self) -> dict[str, int]:
        """Only the settings that differ from RULES.md's defaults."""
        return {k: val for k, val in self.flat.items() if DEFAULTS[k] != val}

    # -- lookups that read like the rules -------------------------------------------------------
    def grade_mod(self, grade: str | None) -> int:
        """§0 grade modifier; no admiral (None) is 0."""
        return 0 if grade is None else self.grade_modifier[grade]

    def admiral_extra_dice(self, grade: str | None) -> int:
        return 0 if grade is None else self.admiral_dice[grade]

    def initiative_nat(self, navy: str) -> int:
        """§0: unlisted navies get 0."""
        return self.initiative_nationality.get(navy, 0)

    def combat_nat(self, navy: str) -> int:
        return self.combat_nationality.get(navy, 0)

    def boarding_nat(self, navy: str) -> int:
        return self.boarding_nationality.get(navy, 0)

    def quota_period(self, year: int) -> str:
        """§1 "The turn's year picks the column"."""
        if year >= self["quota.period_start.1809"]:
            return "1809"
        if year >= self["quota.period_start.1800"]:
            return "1800"
        if year >= self["quota.period_start.1792"]:
            return "1792"
        return "pre1792"

    def quota_percent(self, navy: str, year: int) -> int:
        table = self.quota_pct.get(navy) or self.quota_pct["OT"]  # unlisted navies use OT's [H]
        return table[self.quota_period(year)]

    def is_gale_season(self, season: str) -> bool:
        if season not in SEASONS:
            raise RulesetError(f"season: {season!r} is not one of {', '.join(SEASONS)}")
        return bool(self[f"calendar.gale_{season}"])

    def sighting_target(self, zone_type: str) -> int:
        if zone_type not in ZONE_TYPES:
            raise RulesetError(f"zone type: {zone_type!r} is not one of {', '.join(ZONE_TYPES)}")
        return self[f"sighting.{zone_type}"]


DEFAULT_RULESET: Final = Ruleset.from_flat()
