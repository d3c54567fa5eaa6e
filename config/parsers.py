"""The API's JSON parser: bounded in size and depth, no NUL or unpaired surrogate in any string.

DRF's own parser hands the body to ``json.load``: a document nested a thousand levels deep ends in
a ``RecursionError``, and ``"\\u0000"`` or a lone ``"\\ud800"`` decode into strings PostgreSQL
cannot store — each a 500 on every JSON endpoint (issue 9). This parser refuses all three with a
400 that names the problem and where it is, before any view sees the data.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.utils import json as drf_json

from campaign.plumbing.json_text import forbidden_string, json_depth

# Deep enough for every document the API takes (an order's body is two levels); shallow enough
# that the decoder's recursion never comes near Python's limit.
MAX_JSON_DEPTH = 32


def json_body_problem(text: str, *, strict_constants: bool = True) -> tuple[str | None, Any]:
    """(problem, data) for a JSON text: a readable problem, or None and the decoded document.

    Decoding errors are problems too; the depth is measured before decoding, so no document
    reaches the decoder's recursion.
    """
    if json_depth(text) > MAX_JSON_DEPTH:
        return f"the document is nested deeper than {MAX_JSON_DEPTH} levels", None
    try:
        data = drf_json.loads(text, parse_constant=drf_json.strict_constant if strict_constants else None)
    except ValueError as exc:
        return str(exc), None
    return forbidden_string(data), data


class StrictJSONParser(JSONParser):
    """``application/json`` within DATA_UPLOAD_MAX_MEMORY_SIZE, MAX_JSON_DEPTH, and storable text."""

    def parse(
        self, stream: IO[Any], media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = b"" if stream is None else stream.read(-1 if limit is None else limit + 1)
        if limit is not None and len(raw) > limit:
            raise ParseError(f"JSON parse error - the body is larger than {limit} bytes.")
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = raw.decode(encoding)
        except (UnicodeDecodeError, LookupError) as exc:
            raise ParseError(f"JSON parse error - the body is not {encoding} text.") from exc
        problem, data = json_body_problem(text, strict_constants=self.strict)
        if problem:
            raise ParseError(f"JSON parse error - {problem}.")
        return data
