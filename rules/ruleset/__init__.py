"""The campaign ruleset: every number of RULES.md as a named, validated setting.

RULES.md says "every number below is a named setting of the campaign's ruleset that a GM can change
per campaign; the defaults are exactly these". This package is the single home of those numbers.

Two views of the same data:

* the **flat view** — ``{"battle.max_rounds": 6, "nationality.initiative.GB": 1, ...}`` — is what a
  campaign stores (a JSON object) and what the GM edits, one validated integer per key;
* the **typed view** — :class:`Ruleset`, a frozen dataclass of plain values and read-only mappings —
  is what rule code receives. It is built only through :meth:`Ruleset.from_flat`, so every
  instance has passed validation.

Pure Python: no Django, no I/O.

The package holds the vocabulary (:mod:`.vocabulary`), the flat settings (:mod:`.settings`, with the
table's house options from :mod:`.table`) and the typed view (:mod:`.typed`); callers import from here.
"""

from rules.ruleset.settings import DEFAULTS, SETTINGS, SETTINGS_BY_KEY, RulesetError, Setting, validate_flat
from rules.ruleset.typed import DEFAULT_RULESET, Ruleset
from rules.ruleset.vocabulary import (
    BIG_CLASSES,
    GRADE_CHOICES,
    GRADES,
    LIGHT_CLASSES,
    LINE_CLASSES,
    NAVIES,
    NAVY_LIST_ALIASES,
    NAVY_NAMES,
    QUOTA_PERIODS,
    SEASONS,
    SHIP_CLASS_NAMES,
    SHIP_CLASSES,
    SOL_CLASSES,
    ZONE_TYPES,
)

__all__ = [
    "BIG_CLASSES",
    "DEFAULTS",
    "DEFAULT_RULESET",
    "GRADES",
    "GRADE_CHOICES",
    "LIGHT_CLASSES",
    "LINE_CLASSES",
    "NAVIES",
    "NAVY_LIST_ALIASES",
    "NAVY_NAMES",
    "QUOTA_PERIODS",
    "SEASONS",
    "SETTINGS",
    "SETTINGS_BY_KEY",
    "SHIP_CLASSES",
    "SHIP_CLASS_NAMES",
    "SOL_CLASSES",
    "ZONE_TYPES",
    "Ruleset",
    "RulesetError",
    "Setting",
    "validate_flat",
]
