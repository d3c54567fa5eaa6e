"""Plays one turn for one nation with nothing but a client generated from the published schema.

    python generated_client_driver.py --url URL --campaign SLUG --token TOKEN --schema schema.json \
        --package admiralty_client

It runs in a throwaway virtualenv holding openapi-python-client's output (``--package``, importable
from the working directory) and its run-time needs (httpx, attrs); see
tests/api/test_generated_client.py, which generates the package and runs this against a live server
with a real worker. The script:

1. reads the campaigns, the campaign, its zones, ports, fleets, ledger, orders, dispatches and
   battles on the table;
2. orders a move and (if the quota allows) a lay-down, reads each order back, sends a dispatch;
3. marks ready and waits, polling the nation view with ``If-None-Match``, for the turn to resolve;
4. reads the turn report, the battles of the turn and each battle's detail.

Every response is parsed into the generated models, and a parsed body must be of the schema's model
for its status and hold exactly what the schema says: the generator is lenient (unknown keys go to
``additional_properties``, a union that fails to parse keeps the raw value, primitives are not
checked), so each parsed value is checked against the models' type hints, no model that declares
fields may carry extra keys, and ``to_dict()`` must give back the JSON received. Every GET operation
of the schema must have been called (but those in ``GM_ONLY``); the exit status is 1 with each
mismatch named by its operation, else 0.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import json
import re
import sys
import time
import types
import typing
from dataclasses import dataclass, field
from typing import Any

import attrs

# GET operations a player's token cannot call, each with the reason. None today: a player reads every
# GET operation of the API for its own nation.
GM_ONLY: dict[str, str] = {}

OK = (200,)
CREATED = (201,)


class Mismatch(Exception):
    """A response the generated client could not take as the schema describes it."""


def _check_type(value: Any, hint: Any, where: str, models: types.ModuleType) -> list[str]:
    """What is wrong with ``value`` as a value of the generated type ``hint`` (empty: nothing)."""
    origin = typing.get_origin(hint)
    if hint is Any:
        return []
    if origin in (typing.Union, types.UnionType):
        arms_hinted = typing.get_args(hint)
        if type(value) in arms_hinted and attrs.has(type(value)):  # the arm the client chose
            return _check_model(value, type(value), where, models)
        arms = [_check_type(value, arm, where, models) for arm in arms_hinted]
        return [] if any(not a for a in arms) else min(arms, key=len)
    if hint is type(None):
        return [] if value is None else [f"{where}: {value!r} where null was expected"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {type(value).__name__} where a list was expected"]
        (item,) = typing.get_args(hint)
        return [p for i, v in enumerate(value) for p in _check_type(v, item, f"{where}[{i}]", models)]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__} where an object was expected"]
        inner = typing.get_args(hint)[1]
        return [p for k, v in value.items() for p in _check_type(v, inner, f"{where}.{k}", models)]
    if origin is typing.Literal:
        return [] if value in typing.get_args(hint) else [f"{where}: {value!r} is not one of {typing.get_args(hint)}"]
    if hint is float:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
    elif hint is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(hint, type) and attrs.has(hint):
        return _check_model(value, hint, where, models) if isinstance(value, hint) else [_wrong(value, hint, where)]
    else:
        ok = isinstance(value, hint)
    return [] if ok else [_wrong(value, hint, where)]


def _wrong(value: Any, hint: Any, where: str) -> str:
    if attrs.has(type(value)):
        shown = f"a {type(value).__name__}"
    else:
        shown = json.dumps(value, default=str)[:200] if isinstance(value, dict | list) else repr(value)[:200]
    return f"{where}: {shown} is not a {getattr(hint, '__name__', hint)}"


def _check_model(value: Any, cls: type, where: str, models: types.ModuleType) -> list[str]:
    """Every field of a parsed model against its type hint; extra keys only in free-form objects."""
    module = sys.modules[cls.__module__]
    hints = typing.get_type_hints(cls, globalns={**vars(models), **vars(module)})
    declared = [f.name for f in attrs.fields(cls) if f.name != "additional_properties"]
    problems: list[str] = []
    for name in declared:
        problems += _check_type(getattr(value, name), hints[name], f"{where}.{name}", models)
    extra = getattr(value, "additional_properties", {})
    if declared and extra:
        problems.append(f"{where}: keys the schema does not list: {', '.join(sorted(extra))}")
    elif extra:
        problems += _check_type(extra, hints["additional_properties"], where, models)
    return problems


def _same(sent: Any, received: Any, where: str) -> list[str]:
    """``to_dict()`` of the parsed body against the JSON received (times compared as instants)."""
    if isinstance(sent, dict) and isinstance(received, dict):
        if sent.keys() != received.keys():
            return [f"{where}: to_dict() keys {sorted(sent)} differ from the body's {sorted(received)}"]
        return [p for k in sent for p in _same(sent[k], received[k], f"{where}.{k}")]
    if isinstance(sent, list) and isinstance(received, list) and len(sent) == len(received):
        return [p for i, (a, b) in enumerate(zip(sent, received, strict=True)) for p in _same(a, b, f"{where}[{i}]")]
    if sent == received and type(sent) is type(received):
        return []
    if isinstance(sent, str) and isinstance(received, str):
        try:
            if datetime.datetime.fromisoformat(sent) == datetime.datetime.fromisoformat(received):
                return []
        except ValueError:
            pass
    return [f"{where}: to_dict() gives {sent!r}, the body held {received!r}"]


@dataclass
class Driver:
    client: Any
    package: str
    schema: dict[str, Any]
    slug: str
    called: set[str] = field(default_factory=set)
    parsed: int = 0
    problems: list[str] = field(default_factory=list)

    def operations(self) -> dict[str, tuple[str, dict[str, Any]]]:
        """operationId → (method, operation) for every operation of the schema."""
        return {
            op["operationId"]: (method, op)
            for item in self.schema["paths"].values()
            for method, op in item.items()
            if isinstance(op, dict) and "operationId" in op
        }

    def model_for(self, op_id: str, status: int) -> type | None:
        """The generated model the schema names for ``op_id``'s ``status`` (None: no body)."""
        _, op = self.operations()[op_id]
        content = op["responses"].get(str(status), {}).get("content")
        if not content:
            return None
        body = content.get("application/json", next(iter(content.values())))["schema"]
        if "$ref" not in body:
            raise Mismatch(f"{op_id}: the {status} body is not a named component, so it has no model to check")
        name = body["$ref"].rsplit("/", 1)[1]
        models = importlib.import_module(f"{self.package}.models")
        return typing.cast(type, getattr(models, re.sub(r"[^0-9A-Za-z]", "", name)))

    def call(self, op_id: str, expect: tuple[int, ...] = OK, **kwargs: Any) -> Any:
        """Call ``op_id`` through the generated client and check its parsed body; returns it."""
        if op_id not in self.operations():
            raise Mismatch(f"{op_id}: not an operation of the schema")
        tag = re.sub(r"\W+", "_", self.operations()[op_id][1].get("tags", ["default"])[0]).lower()
        module = importlib.import_module(f"{self.package}.api.{tag}.{op_id}")
        try:
            response = module.sync_detailed(client=self.client, **kwargs)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise Mismatch(f"{op_id}: the generated client could not parse the body: {error!r}") from error
        status = int(response.status_code)
        if status not in expect:
            raise Mismatch(f"{op_id}: answered {status} (expected {expect}): {response.content[:600]!r}")
        self.called.add(op_id)
        model = self.model_for(op_id, status)
        if model is None:
            return response
        parsed: Any = response.parsed
        if parsed is None or not isinstance(parsed, model):
            kind = type(parsed).__name__
            raise Mismatch(f"{op_id}: {status} parsed as {kind}, not {model.__name__}: {response.content[:600]!r}")
        models = importlib.import_module(f"{self.package}.models")
        self.problems += [f"{op_id}: {p}" for p in _check_model(parsed, model, model.__name__, models)]
        self.problems += [
            f"{op_id}: {p}" for p in _same(typing.cast(Any, parsed).to_dict(), json.loads(response.content), "")
        ]
        self.parsed += 1
        return response

    def every(self, op_id: str, **kwargs: Any) -> list[Any]:
        """Every row of a paginated list, page by page."""
        rows: list[Any] = []
        page = 1
        while True:
            listed = self.call(op_id, slug=self.slug, page=page, page_size=50, **kwargs).parsed
            rows += listed.results
            if listed.next_ is None:
                return rows
            page += 1

    def not_called(self) -> list[str]:
        gets = [op_id for op_id, (method, _) in self.operations().items() if method == "get"]
        return sorted(op_id for op_id in gets if op_id not in self.called and op_id not in GM_ONLY)


def read_the_board(d: Driver) -> Any:
    """Everything a player reads before ordering; returns the nation view."""
    campaigns = d.call("campaigns_list", page=1, page_size=50).parsed
    if d.slug not in [c.slug for c in campaigns.results]:
        raise Mismatch(f"campaigns_list: {d.slug} is not among the caller's campaigns")
    view = d.call("campaign_retrieve", slug=d.slug).parsed
    if view.turn is None or view.turn.status != "open":
        raise Mismatch(f"campaign_retrieve: no turn of {d.slug} is open for orders")
    for op_id in ("zones_list", "ports_list", "fleets_list", "ledger_list", "dispatches_list"):
        d.every(op_id)
    d.call("orders_list", slug=d.slug)
    return view


def give_orders(d: Driver, view: Any) -> None:
    """A move of the first fleet of ours that can sail to an adjacent zone, a lay-down if the quota
    allows, each read back; a dispatch to another nation, read back."""
    models = importlib.import_module(f"{d.package}.models")
    zones = {z.key: z for z in d.every("zones_list")}
    fleets = [f for f in d.every("fleets_list") if f.own and f.ships and not any(s.in_ordinary for s in f.ships)]
    if not fleets:
        raise Mismatch("fleets_list: the nation has no fleet that can sail")
    fleet = fleets[0]
    path = (["sea"] if fleet.port else []) + [zones[fleet.sea_zone].adjacent[0]]
    move = models.MoveOrder(kind=models.MoveOrderKindEnum.MOVE, fleet=fleet.id, path=path)
    d.call("order_create", CREATED, slug=d.slug, body=move)
    if view.quota.within and view.quota.dockyards:
        keel = models.LayDownOrder(
            kind=models.LayDownOrderKindEnum.LAY_DOWN,
            class_=models.ShipClassEnum("3rd-74"),
            name=f"Generated {view.turn.number}",
            port=view.quota.dockyards[0].key,
        )
        d.call("order_create", CREATED, slug=d.slug, body=keel)
    for order in d.call("orders_list", slug=d.slug).parsed.orders:
        d.call("order_retrieve", slug=d.slug, order_id=order.id)
    others = sorted({p.owner for p in d.every("ports_list")} - {view.nation})
    if others:
        letter = models.Send(body="Compliments of the season.", to=[others[0]], subject="From a generated client")
        d.call("dispatches_send", CREATED, slug=d.slug, body=letter)
    for dispatch in d.every("dispatches_list"):
        d.call("dispatches_retrieve", slug=d.slug, dispatch_id=dispatch.id)
    if "table_battles_list" in d.operations():
        for table in d.every("table_battles_list"):
            d.call("table_battle_retrieve", slug=d.slug, table_id=table.id)


def play_the_turn(d: Driver, number: int, timeout: float, interval: float) -> None:
    """Ready, then poll the nation view with If-None-Match until turn ``number`` has resolved."""
    models = importlib.import_module(f"{d.package}.models")
    d.call("ready_set", slug=d.slug, body=models.Ready(ready=True))
    deadline = time.monotonic() + timeout
    etag = None
    polls = not_modified = 0
    while time.monotonic() < deadline:
        kwargs: dict[str, str] = {"if_none_match": etag} if etag else {}
        answer = d.call("campaign_retrieve", (200, 304), slug=d.slug, **kwargs)
        polls += 1
        if int(answer.status_code) == 304:
            not_modified += 1
        else:
            etag = answer.headers.get("ETag")
            turn = answer.parsed.turn
            if turn is None or turn.number > number or turn.status == "resolved":
                print(f"Turn {number} resolved: {polls} polls, {not_modified} answered 304.")
                return
        time.sleep(interval)
    raise Mismatch(f"campaign_retrieve: turn {number} did not resolve within {timeout:.0f} s")


def read_the_results(d: Driver, number: int) -> None:
    report = d.call("turn_report_retrieve", slug=d.slug, number=number).parsed
    battles = d.every("battles_list", turn=number)
    for battle in battles:
        d.call("battle_retrieve", slug=d.slug, battle_id=battle.id)
    d.every("ledger_list", turn=number)
    print(f"Report of turn {number}: {len(report.events)} events, {len(battles)} battles.")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--campaign", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--schema", required=True, help="The OpenAPI document (JSON) the package was made from")
    parser.add_argument("--package", required=True, help="The generated package's import name")
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--interval", type=float, default=0.5)
    args = parser.parse_args(argv)
    package = importlib.import_module(args.package)
    with open(args.schema, encoding="utf-8") as schema:
        d = Driver(
            package.AuthenticatedClient(base_url=args.url, token=args.token),
            args.package,
            json.load(schema),
            args.campaign,
        )
    try:
        view = read_the_board(d)
        give_orders(d, view)
        play_the_turn(d, view.turn.number, args.timeout, args.interval)
        read_the_results(d, view.turn.number)
    except Mismatch as error:
        d.problems.append(str(error))
    d.problems += [f"{op_id}: never called (a GET operation of the schema)" for op_id in d.not_called()]
    print(f"{len(d.called)} operations called, {d.parsed} bodies parsed and checked.")
    for problem in d.problems:
        print(f"MISMATCH {problem}")
    return 1 if d.problems else 0


if __name__ == "__main__":
    sys.exit(main())
