"""Seeds are text in the API's JSON (issue 30): a battle's seed can exceed 2^53, and a JavaScript client
reading it as a number would round it and replay a different battle.

The one place this happens is :class:`ApiJSONRenderer`, the renderer of every API view: each ``seed``
member holding a whole number is written as its decimal string, wherever it sits (a battle, a stored
report, the simulator's odds). :class:`SeedField` documents it in the schema. Where a seed is input
(the simulator's body), a string of digits is taken as well as a number (:func:`seed_of`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer

SEED_KEY = "seed"
SEED_SCHEMA = {
    "type": "string",
    "pattern": "^[0-9]{1,19}$",
    "description": "A seed of the dice, as a decimal string (it may exceed what a JSON number keeps exact).",
}


def seeds_as_text(data: Any) -> Any:
    """``data`` with every ``seed`` member that is a whole number written as a string."""
    if isinstance(data, Mapping):
        return {
            key: str(value)
            if key == SEED_KEY and isinstance(value, int) and not isinstance(value, bool)
            else seeds_as_text(value)
            for key, value in data.items()
        }
    if isinstance(data, list):
        return [seeds_as_text(item) for item in data]
    return data


class ApiJSONRenderer(JSONRenderer):
    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> bytes:
        return super().render(seeds_as_text(data), accepted_media_type, renderer_context)


@extend_schema_field(SEED_SCHEMA)
class SeedField(serializers.IntegerField):
    """A seed in an answer: a whole number the renderer writes as a string (null where there is none)."""


def seed_of(value: object) -> object:
    """A seed given as input: a string of digits is its number; anything else is left for the caller's
    check (which names what is wrong)."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 19:
        return int(value)
    return value
