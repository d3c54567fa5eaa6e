"""What a body parsed by the generated client must be: of the schema's model, key for key.

The generator is lenient (unknown keys go to ``additional_properties``, a union that fails to parse
keeps the raw value, primitives are not checked), so :func:`check_model` walks a parsed value against
the models' type hints (no model that declares fields may carry extra keys) and :func:`same` compares
``to_dict()`` with the JSON received. Used by generated_client_driver.py, in the generator's
virtualenv: nothing here imports the project.
"""

from __future__ import annotations

import datetime
import json
import sys
import types
import typing
from typing import Any

import attrs


def check_type(value: Any, hint: Any, where: str, models: types.ModuleType) -> list[str]:
    """What is wrong with ``value`` as a value of the generated type ``hint`` (empty: nothing)."""
    origin = typing.get_origin(hint)
    if hint is Any:
        return []
    if origin in (typing.Union, types.UnionType):
        arms_hinted = typing.get_args(hint)
        if type(value) in arms_hinted and attrs.has(type(value)):  # the arm the client chose
            return check_model(value, type(value), where, models)
        arms = [check_type(value, arm, where, models) for arm in arms_hinted]
        return [] if any(not a for a in arms) else min(arms, key=len)
    if hint is type(None):
        return [] if value is None else [f"{where}: {value!r} where null was expected"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {type(value).__name__} where a list was expected"]
        (item,) = typing.get_args(hint)
        return [p for i, v in enumerate(value) for p in check_type(v, item, f"{where}[{i}]", models)]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__} where an object was expected"]
        inner = typing.get_args(hint)[1]
        return [p for k, v in value.items() for p in check_type(v, inner, f"{where}.{k}", models)]
    if origin is typing.Literal:
        return [] if value in typing.get_args(hint) else [f"{where}: {value!r} is not one of {typing.get_args(hint)}"]
    if hint is float:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
    elif hint is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(hint, type) and attrs.has(hint):
        return check_model(value, hint, where, models) if isinstance(value, hint) else [_wrong(value, hint, where)]
    else:
        ok = isinstance(value, hint)
    return [] if ok else [_wrong(value, hint, where)]


def _wrong(value: Any, hint: Any, where: str) -> str:
    if attrs.has(type(value)):
        shown = f"a {type(value).__name__}"
    else:
        shown = json.dumps(value, default=str)[:200] if isinstance(value, dict | list) else repr(value)[:200]
    return f"{where}: {shown} is not a {getattr(hint, '__name__', hint)}"


def check_model(value: Any, cls: type, where: str, models: types.ModuleType) -> list[str]:
    """Every field of a parsed model against its type hint; extra keys only in free-form objects."""
    module = sys.modules[cls.__module__]
    hints = typing.get_type_hints(cls, globalns={**vars(models), **vars(module)})
    declared = [f.name for f in attrs.fields(cls) if f.name != "additional_properties"]
    problems: list[str] = []
    for name in declared:
        problems += check_type(getattr(value, name), hints[name], f"{where}.{name}", models)
    extra = getattr(value, "additional_properties", {})
    if declared and extra:
        problems.append(f"{where}: keys the schema does not list: {', '.join(sorted(extra))}")
    elif extra:
        problems += check_type(extra, hints["additional_properties"], where, models)
    return problems


def same(sent: Any, received: Any, where: str) -> list[str]:
    """``to_dict()`` of the parsed body against the JSON received (times compared as instants)."""
    if isinstance(sent, dict) and isinstance(received, dict):
        if sent.keys() != received.keys():
            return [f"{where}: to_dict() keys {sorted(sent)} differ from the body's {sorted(received)}"]
        return [p for k in sent for p in same(sent[k], received[k], f"{where}.{k}")]
    if isinstance(sent, list) and isinstance(received, list) and len(sent) == len(received):
        return [p for i, (a, b) in enumerate(zip(sent, received, strict=True)) for p in same(a, b, f"{where}[{i}]")]
    if sent == received and type(sent) is type(received):
        return []
    if isinstance(sent, str) and isinstance(received, str):
        try:
            if datetime.datetime.fromisoformat(sent) == datetime.datetime.fromisoformat(received):
                return []
        except ValueError:
            pass
    return [f"{where}: to_dict() gives {sent!r}, the body held {received!r}"]
