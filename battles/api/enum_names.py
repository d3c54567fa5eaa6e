"""Names for enum values a program cannot spell as identifiers (issue 12).

A client generator names each member of a schema enum after its value; ``"3rd-74"`` has no such name,
so openapi-python-client made ``VALUE_3`` of it. The post-processing hook :func:`name_enum_members`
adds the ``x-enum-varnames`` extension (read by openapi-python-client and openapi-generator) to every
enum component with such a value, from :data:`MEMBER_NAMES`; a new value without a name there stops
the schema's generation, so it cannot slip back to a numbered member.
"""

from __future__ import annotations

from typing import Any

MEMBER_NAMES = {
    "1st": "first_rate",
    "2nd": "second_rate",
    "3rd-74": "third_rate_74",
    "3rd-64": "third_rate_64",
    "4th": "fourth_rate",
    # The quota table's columns (rules.ruleset.QUOTA_PERIODS), by their first year.
    "1792": "from_1792",
    "1800": "from_1800",
    "1809": "from_1809",
}


def _needs_name(value: Any) -> bool:
    return isinstance(value, str) and not value[:1].isalpha()


def name_enum_members(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Schema post-processing: ``x-enum-varnames`` beside every enum with a value that is no identifier."""
    for name, component in result.get("components", {}).get("schemas", {}).items():
        values = component.get("enum") or []
        if not any(_needs_name(v) for v in values):
            continue
        unnamed = [v for v in values if _needs_name(v) and v not in MEMBER_NAMES]
        if unnamed:
            raise ValueError(f"{name}: give {unnamed} a member name in battles.api.enum_names.MEMBER_NAMES")
        component["x-enum-varnames"] = [MEMBER_NAMES.get(v, str(v).replace("-", "_")) for v in values]
    return result
