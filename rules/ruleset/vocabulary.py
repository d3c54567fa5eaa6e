"""The ruleset's vocabulary (RULES.md §0–§4): the names of grades, navies, ship classes, zone types,
seasons and quota periods — names, not numbers; the numbers are the settings of :mod:`rules.ruleset.settings`."""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

GRADES: Final = ("A", "B", "C", "D", "E", "F", "G", "H")
GRADE_CHOICES: Final = tuple((g, g) for g in GRADES)
NAVIES: Final = ("GB", "FR", "ES", "RU", "OT", "NL", "DK", "SE", "PT", "NA", "US", "PR", "AT", "EG")
NAVY_NAMES: Final = MappingProxyType(
    {
        "GB": "Great Britain",
        "FR": "France",
        "ES": "Spain",
        "RU": "Russia",
        "OT": "Ottoman Empire",
        "NL": "Netherlands",
        "DK": "Denmark",
        "SE": "Sweden",
        "PT": "Portugal",
        "NA": "Naples",
        "US": "United States",
        "PR": "Prussia",
        "AT": "Austria",
        "EG": "Egypt",
    }
)
#: RULES.md §0: "EG (Egypt; uses the OT lists)".
NAVY_LIST_ALIASES: Final = MappingProxyType({"EG": "OT"})

SHIP_CLASSES: Final = (
    "four-decker",
    "1st",
    "2nd",
    "3rd-74",
    "3rd-64",
    "4th",
    "heavy-frigate",
    "frigate",
    "sloop",
    "brig",
    "fireship",
    "transport",
)
#: The classes as players read them (the same words as ``fleets.models.ShipClass``'s labels, which a
#: test keeps equal): messages say "3rd rate (74/80)", never the key "3rd-74".
SHIP_CLASS_NAMES: Final = MappingProxyType(
    {
        "four-decker": "Four-decker",
        "1st": "1st rate",
        "2nd": "2nd rate",
        "3rd-74": "3rd rate (74/80)",
        "3rd-64": "3rd rate (64)",
        "4th": "4th rate (50–60)",
        "heavy-frigate": "Heavy frigate",
        "frigate": "Frigate",
        "sloop": "Sloop",
        "brig": "Brig / cutter",
        "fireship": "Fireship",
        "transport": "Transport",
    }
)
#: RULES.md §1: classes that count as ships of the line.
SOL_CLASSES: Final = frozenset({"four-decker", "1st", "2nd", "3rd-74", "3rd-64"})
#: RULES.md §1 quota: "1st rate, 2nd rate or four-decker".
BIG_CLASSES: Final = frozenset({"four-decker", "1st", "2nd"})
#: RULES.md §4: "Ships of the line and 4th rates form the line".
LINE_CLASSES: Final = SOL_CLASSES | {"4th"}
#: RULES.md §4 sighting: the scouting classes.
LIGHT_CLASSES: Final = frozenset({"heavy-frigate", "frigate", "sloop", "brig"})

ZONE_TYPES: Final = ("narrows", "coastal", "open", "ocean")
SEASONS: Final = ("winter", "spring", "summer", "high_summer", "autumn")
QUOTA_PERIODS: Final = ("pre1792", "1792", "1800", "1809")
