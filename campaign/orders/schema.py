"""The shape of an order body (README "Orders JSON"): the keys each kind takes, the JSON type of every
key, and the typed reads that refuse a malformed body naming the key.

Nothing here reads the database: a body is refused for its form (wrong type, unknown key, NUL in a
string, an id beyond what the database holds) before any query is made with it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NoReturn

from campaign.models import Order, Relation
from campaign.orders.errors import OrderCheck, OrderRefused, RefusalCode
from campaign.plumbing.json_text import text_fault
from rules.names import name_fault, name_normalised

#: kind → (required keys, optional keys), besides "kind".
SCHEMA: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    Order.Kind.MOVE: (frozenset({"fleet", "path"}), frozenset()),
    Order.Kind.POSTURE: (frozenset({"fleet", "posture"}), frozenset({"port"})),
    Order.Kind.BATTLE_ORDERS: (frozenset({"fleet", "after_battle"}), frozenset({"retreat_port", "retreat_zone"})),
    Order.Kind.LINE_ORDER: (frozenset({"fleet", "ships"}), frozenset()),
    Order.Kind.RUN_GUNS: (frozenset({"fleet", "port"}), frozenset()),
    Order.Kind.SALLY: (frozenset({"fleet"}), frozenset()),
    Order.Kind.FIRESHIPS: (frozenset({"fleet", "port"}), frozenset()),
    Order.Kind.LAY_DOWN: (frozenset({"class", "name", "port"}), frozenset()),
    Order.Kind.RAISE: (frozenset({"unit", "port"}), frozenset()),
    Order.Kind.REPAIR: (frozenset({"ship"}), frozenset({"on"})),
    Order.Kind.LAY_UP: (frozenset({"ship"}), frozenset()),
    Order.Kind.RECOMMISSION: (frozenset({"ship"}), frozenset()),
    Order.Kind.TRANSFER: (frozenset({"ships", "to_fleet"}), frozenset()),
    Order.Kind.FORM_FLEET: (frozenset({"ships", "name"}), frozenset()),
    Order.Kind.MERGE: (frozenset({"fleet", "into"}), frozenset()),
    Order.Kind.APPOINT: (frozenset({"admiral", "fleet"}), frozenset()),
    Order.Kind.EMBARK: (frozenset({"fleet", "port", "units"}), frozenset()),
    Order.Kind.LAND: (frozenset({"fleet", "port", "units"}), frozenset()),
    Order.Kind.DECLARE_WAR: (frozenset({"nation"}), frozenset()),
    Order.Kind.OFFER_PEACE: (frozenset({"nation"}), frozenset()),
    Order.Kind.PROPOSE_ALLIANCE: (frozenset({"nation"}), frozenset()),
    Order.Kind.LEAVE_ALLIANCE: (frozenset({"nation"}), frozenset()),
}
assert set(SCHEMA) == set(Order.Kind.values), "every Order.Kind needs a schema"

#: The body key naming the fleet an order is about (``Order.fleet``; one order of a kind per fleet
#: per turn). A transfer is about the fleet receiving the ships, so one fleet can be split in several
#: transfers; form_fleet and the ship orders name no fleet, so a fleet's ships can each be repaired.
FLEET_KEY: dict[str, str] = {
    Order.Kind.MOVE: "fleet",
    Order.Kind.POSTURE: "fleet",
    Order.Kind.BATTLE_ORDERS: "fleet",
    Order.Kind.LINE_ORDER: "fleet",
    Order.Kind.RUN_GUNS: "fleet",
    Order.Kind.SALLY: "fleet",
    Order.Kind.FIRESHIPS: "fleet",
    Order.Kind.MERGE: "fleet",
    Order.Kind.APPOINT: "fleet",
    Order.Kind.EMBARK: "fleet",
    Order.Kind.LAND: "fleet",
    Order.Kind.TRANSFER: "to_fleet",
}

#: Ship orders: one per ship and group per turn (laying up and recommissioning one ship contradict).
SHIP_ORDER_GROUP: dict[str, str] = {
    Order.Kind.REPAIR: "repair",
    Order.Kind.LAY_UP: "commission",
    Order.Kind.RECOMMISSION: "commission",
}

DIPLOMACY_KINDS = (
    Order.Kind.DECLARE_WAR,
    Order.Kind.OFFER_PEACE,
    Order.Kind.PROPOSE_ALLIANCE,
    Order.Kind.LEAVE_ALLIANCE,
)

#: RULES.md §10: the relation each diplomatic order starts from.
DIPLOMACY_FROM: dict[str, tuple[str, ...]] = {
    Order.Kind.DECLARE_WAR: (Relation.State.PEACE, Relation.State.ALLIANCE),
    Order.Kind.OFFER_PEACE: (Relation.State.WAR,),
    Order.Kind.PROPOSE_ALLIANCE: (Relation.State.PEACE,),
    Order.Kind.LEAVE_ALLIANCE: (Relation.State.ALLIANCE,),
}

RAISE_UNITS = ("land_unit", "siege_train")
RAISE_COST_KEY = {"land_unit": "economy.raise_land_unit_cost", "siege_train": "economy.raise_siege_train_cost"}
FLEET_NAME_MAX = 80
#: Ids are PostgreSQL bigints (BigAutoField, from 1); counts fit a PostgreSQL integer.
MAX_ID = 2**63 - 1
MAX_COUNT = 2**31 - 1


def json_type(value: object) -> str:
    """A value as a refusal names it ("the string 'x'", "a list", "null"…)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def clean_name(name: str) -> str:
    """A ship or fleet name in the form names are stored and compared in (rules.names)."""
    return name_normalised(name)


def checked_name(chk: OrderCheck, f: Fields) -> str:
    """The order's ``name``, refused if it holds a control, invisible or text-direction character
    (issue 27, 9: it would reach mail headers), else cleaned (:func:`clean_name`)."""
    raw = f.text("name")
    fault = name_fault(raw)
    if fault is not None:
        chk.refuse(f"the name cannot be used: {fault}", code=RefusalCode.BAD_NAME, field="name")
    return clean_name(raw)


# --- text that cannot be stored ------------------------------------------------------------------------


def _first_fault(value: object) -> str | None:
    """The first unstorable text anywhere in ``value`` (keys and strings of nested lists and objects).
    Iterative: a body nested as deep as a JSON parser allows must not exhaust the stack."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            fault = text_fault(item)
            if fault:
                return fault
        elif isinstance(item, Mapping):
            pending.extend(item.values())
            pending.extend(key for key in item if isinstance(key, str))
        elif isinstance(item, list | tuple):
            pending.extend(item)
    return None


def text_check(position: int, body: Mapping[Any, Any]) -> None:
    """Refuse a body with a NUL character or an unpaired surrogate in any key or string (``bad_text``,
    naming the key it is under), before anything else reads it."""
    for key, value in body.items():
        fault = (text_fault(key) if isinstance(key, str) else None) or _first_fault(value)
        if fault:
            name = key if isinstance(key, str) and text_fault(key) is None else None
            where = f'"{name}"' if name is not None else f"the key {key!a}"
            raise OrderRefused(
                f"Order {position}: {where} holds {fault}; order text cannot contain NUL characters or "
                "unpaired surrogates.",
                code=RefusalCode.BAD_TEXT,
                field=name,
            )


# --- typed reads -----------------------------------------------------------------------------------------


class Fields:
    """Typed reads of a body's fields; a wrong type refuses the order naming the field."""

    def __init__(self, chk: OrderCheck, body: Mapping[str, Any]) -> None:
        self.chk = chk
        self.body = body

    def _refuse(self, key: str, reason: str, code: RefusalCode = RefusalCode.WRONG_TYPE) -> NoReturn:
        self.chk.refuse(reason, code=code, field=key)

    def integer(self, key: str, *, minimum: int | None = None, maximum: int = MAX_ID) -> int:
        value = self.body.get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            self._refuse(key, f'"{key}" must be a whole number, not {json_type(value)}')
        if minimum is not None and value < minimum:
            self._refuse(key, f'"{key}" must be at least {minimum}, not {value}', RefusalCode.OUT_OF_RANGE)
        if value > maximum:
            self._refuse(key, f'"{key}" must be at most {maximum}, not {value}', RefusalCode.OUT_OF_RANGE)
        return value

    def id(self, key: str) -> int:
        """A reference to a row: a whole number from 1 to :data:`MAX_ID`."""
        return self.integer(key, minimum=1)

    def count(self, key: str) -> int:
        """A number of things: a whole number from 1 to :data:`MAX_COUNT`."""
        return self.integer(key, minimum=1, maximum=MAX_COUNT)

    def text(self, key: str) -> str:
        value = self.body.get(key)
        if not isinstance(value, str) or not value.strip():
            self._refuse(key, f'"{key}" must be a non-empty string, not {json_type(value)}')
        return value.strip()

    def optional_text(self, key: str) -> str | None:
        if self.body.get(key) is None:
            return None
        return self.text(key)

    def boolean(self, key: str, *, default: bool) -> bool:
        value = self.body.get(key, default)
        if not isinstance(value, bool):
            self._refuse(key, f'"{key}" must be true or false, not {json_type(value)}')
        return value

    def choice(self, key: str, choices: Sequence[str]) -> str:
        value = self.body.get(key)
        if not isinstance(value, str) or value not in choices:
            self._refuse(
                key, f'"{key}" must be one of {", ".join(choices)}; got {json_type(value)}', RefusalCode.NOT_A_CHOICE
            )
        return value

    def _list(self, key: str) -> list[Any]:
        value = self.body.get(key)
        if not isinstance(value, list) or not value:
            self._refuse(key, f'"{key}" must be a non-empty list, not {json_type(value)}')
        return value

    def integers(self, key: str) -> list[int]:
        values = self._list(key)
        for value in values:
            if isinstance(value, bool) or not isinstance(value, int):
                self._refuse(key, f'"{key}" must list whole numbers (ids); it holds {json_type(value)}')
            if not 1 <= value <= MAX_ID:
                self._refuse(
                    key, f'"{key}" must list ids from 1 to {MAX_ID}; it holds {value}', RefusalCode.OUT_OF_RANGE
                )
        repeated = sorted(v for v, n in Counter(values).items() if n > 1)
        if repeated:
            self._refuse(key, f'"{key}" lists {", ".join(map(str, repeated))} more than once', RefusalCode.REPEATED)
        return values

    def texts(self, key: str) -> list[str]:
        values = self._list(key)
        for value in values:
            if not isinstance(value, str) or not value:
                self._refuse(key, f'"{key}" must list non-empty strings; it holds {json_type(value)}')
        return values


#: The JSON type of every body field (RULES.md §3 order bodies; the README's "Orders JSON").
FIELD_KIND: dict[str, str] = {
    "fleet": "id",
    "to_fleet": "id",
    "into": "id",
    "ship": "id",
    "units": "count",
    "path": "texts",
    "ships": "ids",
    "port": "text",
    "retreat_port": "optional_text",
    "retreat_zone": "optional_text",
    "name": "text",
    "admiral": "text",
    "nation": "text",
    "posture": "text",
    "after_battle": "text",
    "class": "text",
    "unit": "text",
    "on": "bool",
}
FIELD_READS: dict[str, Callable[[Fields, str], object]] = {
    "id": lambda f, key: f.id(key),
    "count": lambda f, key: f.count(key),
    "texts": lambda f, key: f.texts(key),
    "ids": lambda f, key: f.integers(key),
    "text": lambda f, key: f.text(key),
    "optional_text": lambda f, key: f.optional_text(key),
    "bool": lambda f, key: f.boolean(key, default=True),
}
assert {key for required, optional in SCHEMA.values() for key in required | optional} == set(FIELD_KIND)


def field_kind(kind: str, key: str) -> str:
    """The JSON type of ``key`` in an order of ``kind`` (a posture's port may be null)."""
    return "optional_text" if (kind, key) == (Order.Kind.POSTURE, "port") else FIELD_KIND[key]


def shape_check(position: int, body: object) -> tuple[OrderCheck, Fields]:
    """Refuse a body for its form — not an object, NUL or surrogates, no or an unknown kind, unknown or
    missing keys, any field of the wrong type — before any lookup; return the check that names it."""
    if not isinstance(body, Mapping):
        raise OrderRefused(
            f'Order {position}: an order is a JSON object with a "kind", not {json_type(body)}.',
            code=RefusalCode.NOT_AN_OBJECT,
        )
    text_check(position, body)
    kind = body.get("kind")
    if not isinstance(kind, str) or kind not in SCHEMA:
        what = 'has no "kind"' if kind is None else f"has an unknown kind {json_type(kind)}"
        raise OrderRefused(
            f"Order {position} {what}; the kinds are: {', '.join(SCHEMA)}.", code=RefusalCode.UNKNOWN_KIND, field="kind"
        )
    chk = OrderCheck(position, kind)
    required, optional = SCHEMA[kind]
    unknown = sorted(k if isinstance(k, str) else repr(k) for k in body if k not in required | optional | {"kind"})
    if unknown:
        takes = ", ".join(sorted(required | optional))
        chk.refuse(
            f"unknown key{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}; a {kind} order takes {takes}",
            code=RefusalCode.UNKNOWN_KEY,
            field=unknown[0],  # the first unknown key (the message names them all)
        )
    missing = sorted(required - set(body))
    if missing:
        chk.refuse(f"missing {', '.join(missing)}", code=RefusalCode.MISSING_KEY, field=missing[0])
    fields = Fields(chk, body)
    for key in body:
        if key != "kind":
            FIELD_READS[field_kind(kind, key)](fields, key)
    return chk, fields
