"""A quick yes of the campaign document's JSON Schema: a predicate compiled once from the schema.

jsonschema's generic validator walks a document one keyword at a time through a new validator
object per value (``descend``/``evolve``): a played campaign's export with its snapshots costs
~0.6 s of CPU to check, and every import, every scenario load and every revert checks one. Almost
every document checked is valid, and a valid one needs no messages — only the verdict.

:func:`schema_predicate` turns the schema into nested closures, specialised for the shapes the
schema is made of (a record of fields, a list of records, a bounded integer, a string, an enum).
The predicate is **conservative**: it answers True only when jsonschema would report no error;
on anything it is unsure of (a float where an integer is expected, a dict subclass, …) it answers
False, and :func:`campaign.backup.schemas.checks.schema_problems` then runs jsonschema itself, so every
verdict and every message is jsonschema's own. Keywords that must be evaluated exactly (``not``,
``if``) are compiled by :func:`_exact`, which knows only the few forms the schema uses.

The schema is code, not campaign state: the predicate is built once per process (issue 14 allows
it; nothing of a request or a campaign is kept).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

Predicate = Callable[[Any], bool]

# Keywords that assert nothing when no format checker is given (jsonschema's default): notes for
# readers of the schema, not checks.
_ANNOTATIONS = frozenset({"$schema", "$id", "title", "description", "format"})

# JSON Schema type → the Python types that certainly are of it. Narrower than jsonschema's
# (``1.0`` is an integer there, a dict subclass an object): narrower only sends a document to the
# full check.
_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}


_NOT_NUMBERS = frozenset({str, list, dict, type(None)})
_NOT_STRINGS = frozenset({int, float, bool, list, dict, type(None)})


class UnsupportedSchema(ValueError):
    """The schema uses a keyword (or a form of one) this compiler does not know: extend it."""


def schema_predicate(schema: dict[str, Any]) -> Predicate:
    """A predicate that is True only for instances ``schema`` (draft 2020-12) accepts; ``$ref`` may
    only name the root (``#``), as the campaign document's snapshots do."""
    root: list[Predicate] = []

    def by_reference(instance: Any) -> bool:
        return root[0](instance)

    root.append(_compile(schema, by_reference))
    return root[0]


def subschema_predicates(schema: dict[str, Any]) -> Callable[[dict[str, Any]], Predicate]:
    """For a subschema of ``schema`` (the very dict inside it), a predicate that is True only for
    instances that subschema accepts — ``$ref: "#"`` inside it meaning ``schema``, as for
    jsonschema. Built on first asking, kept by the subschema's identity (the dicts are kept too, so
    an identity is never reused): jsonschema's own listing of a refused document can then skip the
    items of a list that are certainly valid, and walk only the others."""
    root = schema_predicate(schema)
    built: dict[int, tuple[dict[str, Any], Predicate]] = {}

    def predicate(subschema: dict[str, Any]) -> Predicate:
        found = built.get(id(subschema))
        if found is None:
            found = built[id(subschema)] = (subschema, _compile(subschema, root))
        return found[1]

    return predicate


def _compile(schema: dict[str, Any], root: Predicate) -> Predicate:
    keys = set(schema) - _ANNOTATIONS
    unknown = keys - _COMPILERS.keys() - {"then", "else"}
    if unknown:
        raise UnsupportedSchema(f"no quick check for {sorted(unknown)}")
    keys -= {"then", "else"}  # read by "if"
    if schema.get("type") in ("integer", ["integer", "null"]) and keys <= {"type", "minimum", "maximum"}:
        return _integer(schema)
    if schema.get("type") in ("string", ["string", "null"]) and keys <= {"type", "maxLength", "minLength", "pattern"}:
        return _string(schema)
    if keys == {"enum"}:
        return _enum(schema["enum"])
    if keys >= {"type", "properties"} and schema["type"] in ("object", ["object", "null"]):
        record = _record(schema, root)
        if keys <= {"type", "properties", "required", "additionalProperties"}:
            return record
        rest = _all([_COMPILERS[k](schema, root) for k in sorted(keys - _RECORD_KEYWORDS)])
        return lambda instance: record(instance) and rest(instance)
    return _all([_COMPILERS[k](schema, root) for k in sorted(keys)])


def _all(checks: list[Predicate]) -> Predicate:
    if len(checks) == 1:
        return checks[0]
    return lambda instance: all(check(instance) for check in checks)


def _type_of(schema: dict[str, Any]) -> tuple[type, ...]:
    names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
    return tuple(t for name in names for t in _TYPES[name])


def _is_type(schema: dict[str, Any], _root: Predicate) -> Predicate:
    # type(x) in …, not isinstance: bool is an int in Python but not an integer in JSON Schema.
    types = frozenset(_type_of(schema))
    return lambda instance: type(instance) in types


def _integer(schema: dict[str, Any]) -> Predicate:
    low, high = schema.get("minimum", -(2**256)), schema.get("maximum", 2**256)
    if schema["type"] == "integer":
        return lambda instance: type(instance) is int and low <= instance <= high
    return lambda instance: instance is None or (type(instance) is int and low <= instance <= high)


def _string(schema: dict[str, Any]) -> Predicate:
    nullable = schema["type"] != "string"
    shortest, longest = schema.get("minLength", 0), schema.get("maxLength", 2**63)
    # jsonschema matches a pattern with re.search, so must this (``$`` also matches before a final newline).
    search = re.compile(schema["pattern"]).search if "pattern" in schema else None

    def check(instance: Any) -> bool:
        if type(instance) is not str:
            return nullable and instance is None
        return shortest <= len(instance) <= longest and (search is None or search(instance) is not None)

    return check


def _enum(values: list[Any]) -> Predicate:
    # (type, value) pairs: 1, 1.0 and True are one value to ==, three to JSON Schema's enum.
    allowed = frozenset((type(v), v) for v in values if type(v) in (str, int, bool, type(None)))
    return lambda instance: type(instance) in (str, int, bool, type(None)) and (type(instance), instance) in allowed


_RECORD_KEYWORDS = frozenset({"type", "properties", "required", "additionalProperties"})


def _record(schema: dict[str, Any], root: Predicate) -> Predicate:
    """An object (or null) with known properties, some required, others allowed or not."""
    nullable = schema["type"] != "object"
    fields = {name: _compile(sub, root) for name, sub in schema["properties"].items()}
    required = frozenset(schema.get("required", ()))
    extra = schema.get("additionalProperties", True)
    other: Predicate | None = None if extra is True or extra is False else _compile(extra, root)

    def check(instance: Any) -> bool:
        if type(instance) is not dict:
            return nullable and instance is None
        if not instance.keys() >= required or (extra is False and not instance.keys() <= fields.keys()):
            return False
        for name, value in instance.items():
            field = fields.get(name, other)
            if field is not None and not field(value):
                return False
        return True

    return check


def _properties(schema: dict[str, Any], root: Predicate) -> Predicate:
    record = _record({"type": ["object", "null"], **schema, "additionalProperties": True}, root)
    return lambda instance: type(instance) is not dict or record(instance)


def _additional(schema: dict[str, Any], root: Predicate) -> Predicate:
    if "properties" in schema:
        raise UnsupportedSchema("additionalProperties with properties but no type")
    extra = schema["additionalProperties"]
    if extra is True:
        return lambda instance: True
    if extra is False:
        return lambda instance: type(instance) is not dict or not instance
    check = _compile(extra, root)
    return lambda instance: type(instance) is not dict or all(check(v) for v in instance.values())


def _required(schema: dict[str, Any], _root: Predicate) -> Predicate:
    required = frozenset(schema["required"])
    return lambda instance: type(instance) is not dict or instance.keys() >= required


def _dependent_required(schema: dict[str, Any], _root: Predicate) -> Predicate:
    pairs = [(name, frozenset(needs)) for name, needs in schema["dependentRequired"].items()]
    return lambda instance: (
        type(instance) is not dict or all(name not in instance or instance.keys() >= needs for name, needs in pairs)
    )


def _property_names(schema: dict[str, Any], root: Predicate) -> Predicate:
    check = _compile(schema["propertyNames"], root)
    return lambda instance: type(instance) is not dict or all(check(name) for name in instance)


def _max_properties(schema: dict[str, Any], _root: Predicate) -> Predicate:
    most = schema["maxProperties"]
    return lambda instance: type(instance) is not dict or len(instance) <= most


def _items(schema: dict[str, Any], root: Predicate) -> Predicate:
    check = _compile(schema["items"], root)
    return lambda instance: type(instance) is not list or all(check(item) for item in instance)


def _max_items(schema: dict[str, Any], _root: Predicate) -> Predicate:
    most = schema["maxItems"]
    return lambda instance: type(instance) is not list or len(instance) <= most


def _unique_items(schema: dict[str, Any], _root: Predicate) -> Predicate:
    if schema["uniqueItems"] is not True:
        return lambda instance: True

    def check(instance: Any) -> bool:
        if type(instance) is not list:
            return True
        # Strings or whole numbers only: a set tells them apart as JSON Schema does; anything else
        # (True beside 1, lists, objects) goes to the full check.
        kinds = {type(item) for item in instance}
        return (kinds <= {str} or kinds <= {int}) and len(set(instance)) == len(instance)

    return check


def _bound(keyword: str) -> Callable[[dict[str, Any], Predicate], Predicate]:
    def build(schema: dict[str, Any], _root: Predicate) -> Predicate:
        limit = schema[keyword]
        # A bound applies to one type and lets the others pass; a bool (a number to Python, not to
        # JSON Schema) or any type not listed goes to the full check.
        if keyword in ("minimum", "maximum"):
            ok = (lambda x: x >= limit) if keyword == "minimum" else (lambda x: x <= limit)
            return lambda instance: ok(instance) if type(instance) in (int, float) else type(instance) in _NOT_NUMBERS
        ok = (lambda n: n >= limit) if keyword == "minLength" else (lambda n: n <= limit)
        return lambda instance: ok(len(instance)) if type(instance) is str else type(instance) in _NOT_STRINGS

    return build


def _pattern(schema: dict[str, Any], _root: Predicate) -> Predicate:
    search = re.compile(schema["pattern"]).search
    return lambda instance: type(instance) is not str or search(instance) is not None


def _enum_keyword(schema: dict[str, Any], _root: Predicate) -> Predicate:
    return _enum(schema["enum"])


def _const(schema: dict[str, Any], _root: Predicate) -> Predicate:
    return _enum([schema["const"]])


def _ref(schema: dict[str, Any], root: Predicate) -> Predicate:
    if schema["$ref"] != "#":
        raise UnsupportedSchema(f"$ref {schema['$ref']!r}: only the root")
    return root


def _not(schema: dict[str, Any], _root: Predicate) -> Predicate:
    inner = _exact(schema["not"])
    return lambda instance: inner(instance) is False


def _if(schema: dict[str, Any], root: Predicate) -> Predicate:
    condition = _exact(schema["if"])
    then = _compile(schema["then"], root) if "then" in schema else None
    otherwise = _compile(schema["else"], root) if "else" in schema else None

    def check(instance: Any) -> bool:
        verdict = condition(instance)
        if verdict is None:
            return False
        branch = then if verdict else otherwise
        return branch is None or branch(instance)

    return check


def _exact(schema: dict[str, Any]) -> Callable[[Any], bool | None]:
    """Whether ``instance`` passes ``schema``, exactly (``None``: cannot tell — send it to the full
    check); for ``not`` and ``if``, whose verdict turns a no into a yes. Knows ``const`` of a string
    or a whole number, and ``properties`` and ``required`` made of those."""
    keys = set(schema) - _ANNOTATIONS
    if keys == {"const"} and type(schema["const"]) in (str, int):
        value = schema["const"]
        plain = (str, int)
        return lambda instance: instance == value if type(instance) in plain else None
    if keys and keys <= {"properties", "required"}:
        fields = {name: _exact(sub) for name, sub in schema.get("properties", {}).items()}
        required = frozenset(schema.get("required", ()))

        def check(instance: Any) -> bool | None:
            if type(instance) is not dict:
                return None
            verdict: bool | None = instance.keys() >= required
            for name, field in fields.items():
                if name in instance and verdict is not None:
                    one = field(instance[name])
                    verdict = None if one is None else verdict and one
            return verdict

        return check
    raise UnsupportedSchema(f"no exact check for {schema!r}")


_COMPILERS: dict[str, Callable[[dict[str, Any], Predicate], Predicate]] = {
    "type": _is_type,
    "properties": _properties,
    "additionalProperties": _additional,
    "required": _required,
    "dependentRequired": _dependent_required,
    "propertyNames": _property_names,
    "maxProperties": _max_properties,
    "items": _items,
    "maxItems": _max_items,
    "uniqueItems": _unique_items,
    "minimum": _bound("minimum"),
    "maximum": _bound("maximum"),
    "minLength": _bound("minLength"),
    "maxLength": _bound("maxLength"),
    "pattern": _pattern,
    "enum": _enum_keyword,
    "const": _const,
    "$ref": _ref,
    "not": _not,
    "if": _if,
}
