"""A corpus of hostile campaign files: each refused by its path, exit 2, nothing written (issue 9).

Before: ``import_campaign`` crashed with a traceback on 14 of 42 bad files (e.g. treasury "abc") and
accepted unknown ship classes, conditions, relations, statuses, seasons and duplicate ids — the
campaign then answered 500. Each case below starts from a valid europe-1805 document, breaks one
thing, and runs the command on the file.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from campaign.scenarios.loading import scenario_document, scenario_read
from tests.support.row_counts import row_counts

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent.parent
Doc = dict[str, Any]


def valid_document() -> Doc:
    data = scenario_read("europe-1805")
    document = scenario_document(
        data, scenario="europe-1805", slug="hostile", display_name=None, seed=1, now=timezone.now()
    )
    return json.loads(json.dumps(document))


BASE = valid_document()
_BASE_TEXT = json.dumps(BASE)


def base_copy() -> Doc:
    """A fresh copy of ``BASE`` to break: parsed from its JSON text (BASE is plain JSON data), which
    is several times cheaper than ``copy.deepcopy`` of a whole europe-1805 document."""
    return json.loads(_BASE_TEXT)


def _set(path: str, value: Any) -> Callable[[Doc], None]:
    """A mutation that sets ``a.b[3].c`` to ``value``."""

    def mutate(doc: Doc) -> None:
        *parents, last = _parts(path)
        target: Any = doc
        for part in parents:
            target = target[part]
        target[last] = value

    return mutate


def _parts(path: str) -> list[str | int]:
    parts: list[str | int] = []
    for piece in path.replace("]", "").split("."):
        name, *indices = piece.split("[")
        parts += [name, *(int(i) for i in indices)]
    return parts


def _duplicate(collection: str, index: int = 0) -> Callable[[Doc], None]:
    def mutate(doc: Doc) -> None:
        doc[collection].append(copy.deepcopy(doc[collection][index]))

    return mutate


def _both(*mutations: Callable[[Doc], None]) -> Callable[[Doc], None]:
    def mutate(doc: Doc) -> None:
        for m in mutations:
            m(doc)

    return mutate


def _second_open_turn(doc: Doc) -> None:
    doc["turns"].append({**doc["turns"][0], "number": 2})


def _nested(depth: int) -> Callable[[Doc], None]:
    def mutate(doc: Doc) -> None:
        body: Any = {}
        for _ in range(depth):
            body = {"x": body}
        doc["turns"][0]["dice_log"] = [body]

    return mutate


def _phase(number: int) -> Callable[[Doc], None]:
    def mutate(doc: Doc) -> None:
        doc["phases"] = [{"turn": 1, "phase": number, "summary": {}}]

    return mutate


GB_SHIP = next(i for i, s in enumerate(BASE["ships"]) if s["nation"] == "GB" and s["fleet"] is not None)
FRIGATE_ID = next(s["id"] for s in BASE["ships"] if s["class"] == "frigate")
A_SETTING = "battle.max_rounds"

# (kind, mutation of a valid document, words the refusal must contain — the path first)
CASES: list[tuple[str, Callable[[Doc], None], str]] = [
    # wrong types
    ("treasury is text", _set("nations[0].treasury", "abc"), "nations[0].treasury: 'abc' is not of type integer"),
    ("treasury is a boolean", _set("nations[0].treasury", True), "nations[0].treasury: True is not of type integer"),
    ("treasury is a fraction", _set("nations[0].treasury", 1.5), "nations[0].treasury: 1.5 is not of type integer"),
    ("ships is an object", _set("ships", {}), "ships: {} is not of type array"),
    ("a ship is a string", _set("ships[3]", "Victory"), "ships[3]: 'Victory' is not of type object"),
    ("fleet id is text", _set("fleets[0].id", "1"), "fleets[0].id: '1' is not of type integer"),
    ("adjacent is a string", _set("sea_zones[0].adjacent", "biscay"), "sea_zones[0].adjacent: 'biscay' is not"),
    ("a report body is a list", _both(_phase(1), _set("phases[0].summary", [])), "phases[0].summary: [] is not"),
    # unknown enums
    ("unknown ship class", _set("ships[17].class", "razee"), "ships[17].class: 'razee' is not a ship class; allowed:"),
    ("unknown condition", _set("ships[0].condition", "afloat"), "ships[0].condition: 'afloat' is not a condition"),
    ("unknown relation", _set("relations[0].state", "truce"), "relations[0].state: 'truce' is not a state"),
    ("unknown campaign status", _set("campaign.status", "running"), "campaign.status: 'running' is not a status"),
    ("unknown season", _set("campaign.season", "monsoon"), "campaign.season: 'monsoon' is not a season"),
    ("unknown turn season", _set("turns[0].season", "dry"), "turns[0].season: 'dry' is not a season"),
    ("unknown turn status", _set("turns[0].status", "done"), "turns[0].status: 'done' is not a status"),
    ("unknown navy", _set("nations[0].navy", "XX"), "nations[0].navy: 'XX' is not a navy"),
    ("unknown grade", _set("admirals[0].grade", "Z"), "admirals[0].grade: 'Z' is not a grade"),
    ("unknown posture", _set("fleets[0].posture", "lurk"), "fleets[0].posture: 'lurk' is not a posture"),
    ("unknown land unit state", _set("land_units[0].state", "asleep"), "land_units[0].state: 'asleep' is not a state"),
    ("unknown ledger kind", _set("ledger[0].kind", "bribe"), "ledger[0].kind: 'bribe' is not a kind"),
    ("unknown zone type", _set("sea_zones[0].type", "lake"), "sea_zones[0].type: 'lake' is not a type"),
    ("a phase beyond 10", _phase(11), "phases[0].phase: 11 is greater than the maximum of 10"),
    # dangling references
    ("ship in no such fleet", _set(f"ships[{GB_SHIP}].fleet", 9999), f"ships[{GB_SHIP}].fleet: 9999 is not a fleet"),
    ("ship of no such nation", _set("ships[0].nation", "XX"), "ships[0].nation: 'XX' is not a nation of this doc"),
    ("port in no such zone", _set("ports[0].sea_zone", "atlantis"), "ports[0].sea_zone: 'atlantis' is not a sea zone"),
    ("fleet in no such port", _set("fleets[0].port", "atlantis"), "fleets[0].port: 'atlantis' is not a port"),
    ("adjacent to no such zone", _set("sea_zones[0].adjacent", ["atlantis"]), "sea_zones[0].adjacent[0]: 'atlantis'"),
    ("relation with no such nation", _set("relations[0].a", "XX"), "relations[0].a: 'XX' is not a nation"),
    ("ledger of no such nation", _set("ledger[0].nation", "XX"), "ledger[0].nation: 'XX' is not a nation"),
    ("admiral of no such fleet", _set("admirals[0].fleet", 9999), "admirals[0].fleet: 9999 is not a fleet"),
    (
        "order in no such turn",
        _set(
            "orders",
            [
                {
                    "turn": 7,
                    "nation": "GB",
                    "position": 1,
                    "kind": "move",
                    "body": {},
                    "fleet": None,
                    "outcome": "pending",
                    "outcome_note": "",
                }
            ],
        ),
        "orders[0].turn: 7 is not a turn",
    ),
    # duplicate ids and keys
    ("duplicate ship id", _set("ships[1].id", BASE["ships"][0]["id"]), "ships[1]: id 1 is already used by [0]"),
    ("duplicate nation code", _duplicate("nations"), "is already used by [0]"),
    ("duplicate port key", _set("ports[1].key", BASE["ports"][0]["key"]), "ports[1]: key"),
    ("duplicate fleet id", _set("fleets[1].id", BASE["fleets"][0]["id"]), "fleets[1]: id 1 is already used by [0]"),
    ("duplicate zone key", _set("sea_zones[1].key", BASE["sea_zones"][0]["key"]), "sea_zones[1]: key"),
    ("duplicate land unit id", _set("land_units[1].id", 1), "land_units[1]: id 1 is already used by [0]"),
    ("duplicate turn", _duplicate("turns"), "turns[1]: number 1 is already used by [0]"),
    # treasuries and the ledger
    ("negative treasury", _set("nations[0].treasury", -5), "nations[0].treasury: -5 is less than the minimum of 0"),
    ("treasury is not the ledger's sum", _set("nations[0].treasury", 1), "nations[0].treasury: 1 EP differs"),
    ("a ledger line of 0", _set("ledger[0].amount", 0), "ledger[0].amount"),
    ("a negative balance", _set("ledger[0].balance", -1), "ledger[0].balance: -1 is less than the minimum of 0"),
    ("a balance that does not follow", _set("ledger[0].balance", 3), "ledger[0].balance: 3 EP, but"),
    ("treasury beyond 32 bits", _set("nations[0].treasury", 2**40), "nations[0].treasury: 1099511627776 is greater"),
    # huge integers, long and odd strings
    ("seed beyond 64 bits", _set("campaign.seed", 10**30), "campaign.seed: 1000000000000000000000000000000 is greater"),
    ("negative seed", _set("campaign.seed", -1), "campaign.seed: -1 is less than the minimum of 0"),
    ("year beyond its column", _set("campaign.year", 70000), "campaign.year: 70000 is greater than the maximum"),
    ("ship name too long", _set("ships[0].name", "x" * 81), "ships[0].name: 'xxxx"),
    ("empty ship name", _set("ships[0].name", ""), "ships[0].name: '' should be non-empty"),
    ("slug with capitals", _set("campaign.slug", "Bad Slug"), "campaign.slug: 'Bad Slug' does not match"),
    ("colour that is not one", _set("nations[0].color", "red"), "nations[0].color: 'red' does not match"),
    ("bad deadline", _set("turns[0].deadline", "tomorrow"), "turns[0].deadline: 'tomorrow' is not an ISO 8601"),
    ("impossible date", _set("turns[0].deadline", "2026-13-45T99:00:00"), "turns[0].deadline"),
    # structure
    ("missing ship class", lambda d: d["ships"][0].pop("class"), "ships[0]: 'class' is missing"),
    ("missing nations", lambda d: d.pop("nations"), "(document): 'nations' is missing"),
    ("unknown field", _set("ships[0].guns", 74), "ships[0]: Additional properties are not allowed ('guns'"),
    ("unknown top-level field", _set("admins", ["mallory"]), "(document): Additional properties are not allowed"),
    ("wrong format", _set("format", 99), "format: unsupported export format 99; expected 1"),
    (
        "unknown ruleset key",
        lambda d: d["ruleset"].update({"cheat.gold": 1}),
        "ruleset: Additional properties are not allowed",
    ),
    (
        "ruleset value out of range",
        lambda d: d["ruleset"].update({A_SETTING: -1}),
        f"ruleset.{A_SETTING}: -1 is less than",
    ),
    # rules between fields (the database's constraints)
    ("afloat without a fleet", _set(f"ships[{GB_SHIP}].fleet", None), f"ships[{GB_SHIP}].fleet: a ship afloat"),
    ("blockade without a port", _set("fleets[0].blockade_port", None), "fleets[0].blockade_port: a port to block"),
    ("fleet in a port of another zone", _set("fleets[0].port", "portsmouth"), "fleets[0].port: 'portsmouth' is not"),
    ("relation with itself", _set("relations[0].b", BASE["relations"][0]["a"]), "relations[0]: a nation has no rel"),
    ("two open turns", _second_open_turn, "turns: only one turn may be open or resolving"),
    ("unit in garrison without a port", _set("land_units[0].port", None), "land_units[0].port: a unit has a port"),
    (
        "cargo on a frigate",
        _both(
            _set("land_units[0].state", "embarked"),
            _set("land_units[0].port", None),
            _set("land_units[0].transport", FRIGATE_ID),
        ),
        f"land_units[0].transport: ship {FRIGATE_ID} is not a transport",
    ),
    # what the decoder and the database cannot take
    ("NUL in a ship name", _set("ships[0].name", "Vic\x00tory"), "$.ships[0].name contains a NUL character"),
    ("lone surrogate in a name", _set("nations[0].name", "Brit\ud800"), "$.nations[0].name contains an unpaired"),
    ("NUL in a report", _set("turns[0].dice_log", [{"d": "\x00"}]), "contains a NUL character"),
    ("deep nesting", _nested(500), "nested deeper than 64 levels"),
]


def _database_state() -> dict[str, int]:
    """The row count of every model of the product's apps and of users (in one query)."""
    models = [m for app in ("campaign", "fleets", "ports", "battles") for m in apps.get_app_config(app).get_models()]
    return dict(row_counts([*models, get_user_model()]))


def _import_text(tmp_path: Path, text: str | bytes, *args: str) -> CommandError:
    path = tmp_path / "campaign.json"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    before = _database_state()
    with pytest.raises(CommandError) as refused:
        call_command("import_campaign", str(path), *args)
    assert refused.value.returncode == 2
    assert _database_state() == before
    return refused.value


def test_the_corpus_has_at_least_42_kinds() -> None:
    assert len(CASES) + len(RAW_CASES) >= 42
    assert len({kind for kind, _, _ in CASES}) == len(CASES)


def test_the_base_document_imports() -> None:
    """The corpus starts from a valid file: else every case would pass for the wrong reason."""
    from campaign.backup.document import campaign_import

    assert campaign_import(document=base_copy()).slug == "hostile"


@pytest.mark.parametrize(("kind", "mutate", "words"), CASES, ids=[c[0] for c in CASES])
def test_a_hostile_file_is_refused_by_path_with_nothing_written(
    tmp_path: Path, kind: str, mutate: Callable[[Doc], None], words: str
) -> None:
    document = base_copy()
    mutate(document)
    refused = _import_text(tmp_path, json.dumps(document))
    assert words in str(refused), str(refused)


RAW_CASES = {
    "not JSON": (b"{nope", "is not JSON"),
    "not UTF-8": (b'{"format": "\xff"}', "is not UTF-8 text"),
    "a top-level array": (b"[1, 2]", "(document): [1, 2] is not of type object"),
    "NaN": (b'{"format": NaN}', "NaN is not a number JSON allows"),
    "an integer too long to convert": (b'{"format": ' + b"9" * 5000 + b"}", "is not JSON"),
    "brackets 100000 deep": (b"[" * 100000 + b"]" * 100000, "nested deeper than 64 levels"),
    "empty file": (b"", "is not JSON"),
}


@pytest.mark.parametrize("kind", sorted(RAW_CASES))
def test_a_file_that_is_not_a_document_is_refused(tmp_path: Path, kind: str) -> None:
    text, words = RAW_CASES[kind]
    assert words in str(_import_text(tmp_path, text))


def test_an_oversized_document_is_refused_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from campaign.management.commands import import_campaign

    monkeypatch.setattr(import_campaign, "MAX_DOCUMENT_BYTES", 1000)
    assert "is larger than 1000 bytes" in str(_import_text(tmp_path, json.dumps(BASE)))


def test_many_problems_are_listed_and_counted(tmp_path: Path) -> None:
    document = base_copy()
    for ship in document["ships"]:
        ship["class"] = "razee"
    message = str(_import_text(tmp_path, json.dumps(document)))
    assert message.count("is not a ship class") == 50 and "more problems" in message


def test_the_command_line_exits_2_without_a_traceback(tmp_path: Path) -> None:
    document = base_copy()
    document["ships"][17]["class"] = "razee"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document))
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "import_campaign", str(path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert "ships[17].class: 'razee' is not a ship class; allowed: four-decker, 1st" in result.stderr
