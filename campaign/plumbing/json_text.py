"""Checks on JSON from outside (API bodies, campaign files) that the decoder and PostgreSQL need.

Python's decoder recurses once per level of nesting, so a document nested thousands of levels deep
ends in a ``RecursionError``; ``"\\u0000"`` and a lone ``"\\ud800"`` decode into strings that
PostgreSQL cannot store (no NUL in text or jsonb) or that cannot be encoded as UTF-8 at all. These
functions find all three before anything is decoded or written.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from itertools import accumulate
from typing import Any

# Written as "unrolled loops" (runs of plain characters between escapes, not one alternation per
# character): the same matches, four times faster on a campaign file of several megabytes.
_STRING_LITERAL = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_A_BRACKET = re.compile(r"[^\[\]{}]+")
_FORBIDDEN_CHARACTER = re.compile("[\x00\ud800-\udfff]")
_BRACKET_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in a JSON text (brackets inside strings ignored)."""
    brackets = _NOT_A_BRACKET.sub("", _STRING_LITERAL.sub("", text))
    # The depth after each bracket is the running sum of +1/-1; its highest value is the answer.
    # Summed in C (accumulate over map): a campaign file has tens of thousands of brackets, and a
    # Python loop over them was the slowest part of reading one.
    return max(0, max(accumulate(map(_BRACKET_STEP.__getitem__, brackets)), default=0))


def text_fault(text: str) -> str | None:
    """What makes ``text`` unstorable — "a NUL character (U+0000)" or "an unpaired surrogate
    (U+D800–U+DFFF)" — or None. The one test of it, for API bodies, campaign files and orders alike."""
    found = _FORBIDDEN_CHARACTER.search(text)
    if found is None:
        return None
    return "a NUL character (U+0000)" if found.group() == "\x00" else "an unpaired surrogate (U+D800–U+DFFF)"


def find_forbidden_string(value: Any, path: str = "$") -> tuple[str, str] | None:
    """(path, what) of the first string (key or value) holding a NUL or an unpaired surrogate.

    ``path`` names where ``value`` is (``$`` the whole document); the answer gives the string's own
    path, e.g. ``("$.orders[0].name", "a NUL character")``. Only call it on a document whose depth
    was checked: it recurses once per level.
    """
    if isinstance(value, str):
        fault = text_fault(value)
        return None if fault is None else (path, fault)
    if isinstance(value, Mapping):
        for key, item in value.items():
            problem = find_forbidden_string(key, f"{path} (a key)") or find_forbidden_string(item, f"{path}.{key}")
            if problem:
                return problem
    elif isinstance(value, list):
        for index, item in enumerate(value):
            problem = find_forbidden_string(item, f"{path}[{index}]")
            if problem:
                return problem
    return None


def forbidden_string(value: Any, path: str = "$") -> str | None:
    """:func:`find_forbidden_string` as a sentence: ``the string at $.name contains a NUL character``."""
    found = find_forbidden_string(value, path)
    return f"the string at {found[0]} contains {found[1]}" if found else None
