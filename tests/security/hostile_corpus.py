"""The hostile-input corpus (issues 9 and 27): inputs a stranger sent, each with the defect it found.

The tests of ``tests/security/test_hostile_corpus.py`` (and the property tests beside it) replay
them; add a case here whenever an attack finds a new way in.
"""

from __future__ import annotations

#: Ship lines of the web simulator that once built millions of ships or crashed ``int()`` (issue 27, 1).
SIMULATOR_SHIP_LINES = [
    "1st x 3000000",
    "1st x 100000000",
    "3rd-74 × " + "9" * 5000,
    "9" * 5000 + " x frigate",
    "frigate x 201",
    "1st x 150\n1st x 51",
    "frigate\n" * 201,
]
#: Other web-simulator fields with counts or sizes from outside.
SIMULATOR_FIELDS = [
    {"port_fortification": "1000000000", "type": "running_the_guns"},
    {"port_batteries": "1000000000", "type": "running_the_guns"},
    {"seed": "9" * 5000},
    {"runs": "9" * 5000},
    {"s0_ships": "frigate  # " + "x" * 20_000},
]
#: API simulator bodies out of bounds, the field each must name.
SIMULATOR_API_BODIES = [
    (
        {"sides": [{"navy": "GB", "ships": [{"name": f"s{i}", "class": "sloop"} for i in range(201)]}, {}]},
        "sides[0].ships",
    ),
    ({"type": "running_the_guns", "port": {"fortification": 10**9}}, "port.fortification"),
    ({"type": "running_the_guns", "port": {"fortification": 3, "batteries": 10**9}}, "port.batteries"),
    ({"dice": [3] * 10_001}, "dice"),
]
#: NUL and other bytes PostgreSQL refuses, in paths and query strings (issue 27, 6).
NUL_PATHS = [
    "/calendar/%00.ics",
    "/calendar/abc%00def.ics",
    "/campaigns/%00/",
    "/campaigns/demo%00/map/",
    "/api/v1/campaigns/%00/",
    "/admin/campaign/campaign/%00/change/",
    "/schemas/%00",
]
NUL_QUERIES = ["?q=%00", "?page=%00", "?zone=a%00b", "?nation=%00", "?turn=1%00", "?%00=1"]
#: Characters refused in a name (a mail header would break, or it would look like another name):
#: issue 27, 9 and 11.
HEADER_BREAKING_NAMES = ["Victory\r\nBcc: all@example.org", "Victory\nX", "Victory\rX", "Vic\x00tory", "Vic\x07tory"]
INVISIBLE_NAMES = ["Vic\u200btory", "\u202eyrotciV", "Victory\u200d", "Victory\ufeff", "Vic\u2066tory"]
#: Names that NFKC folds into another: full-width letters and ligatures.
LOOKALIKE_NAMES = [("Ｖｉｃｔｏｒｙ", "Victory"), ("ﬁrst Fleet", "first Fleet")]
