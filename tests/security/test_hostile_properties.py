"""Property tests: arbitrary input gives a clear refusal, never a crash (issue 9).

Arbitrary text (NUL, lone surrogates, huge numbers, deep nesting included) fed to the API's JSON
parser answers ParseError or data; fed to ``import_campaign`` it exits 2 (or imports a document that
passed every check), and never raises anything else.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import ParseError

from campaign.plumbing.json_text import forbidden_string
from config.parsers import StrictJSONParser
from tests.campaign.test_import_hostile import base_copy

NASTY_TEXT = st.text(alphabet=st.characters(codec=None, blacklist_categories=()), max_size=40) | st.sampled_from(
    ["\x00", "\ud800", "\udfff", "a\x00b", "9" * 5000, "[" * 5000, '{"a":' * 300]
)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | NASTY_TEXT,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(NASTY_TEXT, children, max_size=4),
    max_leaves=20,
)


PLACES = st.lists(
    st.sampled_from(["ships", "nations", "fleets", "ports", "campaign", "ledger", "treasury", "class", 0, 3]),
    min_size=1,
    max_size=3,
)


def _json_text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=True)


@settings(max_examples=200, deadline=None)
@given(st.one_of(NASTY_TEXT, JSON_VALUES.map(_json_text)))
def test_the_strict_parser_refuses_or_returns_storable_data(text: str) -> None:
    raw = text.encode("utf-8", "surrogatepass")
    try:
        data = StrictJSONParser().parse(io.BytesIO(raw), "application/json", {"encoding": "utf-8"})
    except ParseError:
        return
    assert forbidden_string(data) is None


@pytest.mark.django_db
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    path=st.lists(
        st.sampled_from(["ships", "nations", "fleets", "ports", "campaign", "ledger", 0, 3]), min_size=1, max_size=3
    ),
    value=JSON_VALUES,
)
def test_import_exits_2_or_imports_for_any_value_anywhere(tmp_path_factory: Any, path: list[Any], value: Any) -> None:
    document: Any = base_copy()
    target = document
    for part in path[:-1]:
        try:
            target = target[part]
        except (KeyError, IndexError, TypeError):
            break
    with contextlib.suppress(TypeError, IndexError):
        target[path[-1]] = value
    file = Path(tmp_path_factory.mktemp("doc")) / "doc.json"
    file.write_bytes(json.dumps(document).encode("utf-8", "surrogatepass"))
    try:
        call_command("import_campaign", str(file), "--slug", "prop", "--replace", stdout=io.StringIO())
    except CommandError as refused:
        assert refused.returncode == 2
