"""Plays one turn for one nation with nothing but a client generated from the published schema.

    python generated_client_driver.py --url URL --campaign SLUG --token TOKEN --rival-token TOKEN \
        --gm-token TOKEN --schema schema.json --package admiralty_client

It runs in a throwaway virtualenv holding openapi-python-client's output (``--package``, importable
from the working directory) and its run-time needs (httpx, attrs); see
tests/api/test_generated_client.py, which generates the package and runs this against a live server
with a real worker. ``--token`` is the player's, ``--rival-token`` a player's of another nation (it
answers the dispatch and confirms the table's result), ``--gm-token`` the GM's (it approves it). The
script:

1. reads the campaigns, the campaign, its nations, rules, turns, zones, ports, fleets, ledger, orders,
   dispatches and battles on the table; fights a battle in the simulator once (a report) and twenty
   times (odds);
2. orders a move, a fireship attack (a fleet at sea with fireships, at an enemy port in its zone)
   and, if the quota allows, a lay-down; then changes the move (order_update), reverses the list
   (orders_reorder), withdraws the last order (order_withdraw), validates the whole list
   (orders_validate) and puts it back (orders_replace), reading each order back; the move is one of
   the fleet's legal paths (fleet_moves_list); sends a dispatch, and the rival answers with one;
3. marks ready and polls the nation view with ``If-None-Match`` until the turn resolves; when it
   waits for a battle on the table, enters its result, the rival confirms it and the GM approves it;
4. reads the turn report, the battles of the turn and each battle's detail (naming the kinds of
   stored report read), and marks the rival's dispatch read;
5. registers a webhook, finds it listed (without its secret) and deletes it.

Every response is parsed into the generated models and checked by generated_client_checks.py: of
the schema's model for its status (an arm of it, for a oneOf), key for key, and ``to_dict()`` giving
back the JSON received. Every operation of the schema, of every method, must have been called (but
those in ``SKIPPED``); the exit status is 1 with each mismatch named by its operation, else 0.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import sys
import time
import types
import typing
from dataclasses import dataclass, field
from typing import Any

from generated_client_checks import check_model, same  # beside this file, run as a script

# Operations the driver does not call, each with the reason. None today: Britain's player calls every
# GET and every write a player may make, France's player confirms the table's result, the GM approves it.
SKIPPED: dict[str, str] = {}

OK = (200,)
CREATED = (201,)
NO_CONTENT = (204,)


class Mismatch(Exception):
    """A response the generated client could not take as the schema describes it."""


@dataclass
class Driver:
    client: Any
    package: str
    schema: dict[str, Any]
    slug: str
    rival: Any = None
    gm: Any = None
    called: set[str] = field(default_factory=set)
    parsed: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def models(self) -> types.ModuleType:
        return importlib.import_module(f"{self.package}.models")

    def operations(self) -> dict[str, tuple[str, dict[str, Any]]]:
        """operationId → (method, operation) for every operation of the schema."""
        return {
            op["operationId"]: (method, op)
            for item in self.schema["paths"].values()
            for method, op in item.items()
            if isinstance(op, dict) and "operationId" in op
        }

    def models_for(self, op_id: str, status: int) -> tuple[type, ...] | None:
        """The generated models the schema names for ``op_id``'s ``status`` (None: no body): the one
        component, or each arm of a oneOf component."""
        _, op = self.operations()[op_id]
        content = op["responses"].get(str(status), {}).get("content")
        if not content:
            return None
        body = content.get("application/json", next(iter(content.values())))["schema"]
        if "$ref" not in body:
            raise Mismatch(f"{op_id}: the {status} body is not a named component, so it has no model to check")
        name = body["$ref"].rsplit("/", 1)[1]
        arms = self.schema["components"]["schemas"][name].get("oneOf")
        names = [arm["$ref"].rsplit("/", 1)[1] for arm in arms] if arms else [name]
        return tuple(typing.cast(type, getattr(self.models, re.sub(r"[^0-9A-Za-z]", "", n))) for n in names)

    def call(self, op_id: str, expect: tuple[int, ...] = OK, by: Any = None, **kwargs: Any) -> Any:
        """Call ``op_id`` through the generated client (as ``by``, default the player) and check its
        parsed body; returns the response."""
        if op_id not in self.operations():
            raise Mismatch(f"{op_id}: not an operation of the schema")
        tag = re.sub(r"\W+", "_", self.operations()[op_id][1].get("tags", ["default"])[0]).lower()
        module = importlib.import_module(f"{self.package}.api.{tag}.{op_id}")
        try:
            response = module.sync_detailed(client=by or self.client, **kwargs)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise Mismatch(f"{op_id}: the generated client could not parse the body: {error!r}") from error
        status = int(response.status_code)
        if status not in expect:
            raise Mismatch(f"{op_id}: answered {status} (expected {expect}): {response.content[:600]!r}")
        self.called.add(op_id)
        models = self.models_for(op_id, status)
        if models is None:
            return response
        parsed: Any = response.parsed
        if parsed is None or not isinstance(parsed, models):
            kind, wanted = type(parsed).__name__, " or ".join(m.__name__ for m in models)
            raise Mismatch(f"{op_id}: {status} parsed as {kind}, not {wanted}: {response.content[:600]!r}")
        name = type(parsed).__name__
        self.problems += [f"{op_id}: {p}" for p in check_model(parsed, type(parsed), name, self.models)]
        self.problems += [
            f"{op_id}: {p}" for p in same(typing.cast(Any, parsed).to_dict(), json.loads(response.content), "")
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
        """Each operation of the schema not called and not skipped, with its method."""
        return [
            f"{op_id}: never called (a {method.upper()} operation of the schema)"
            for op_id, (method, _) in sorted(self.operations().items())
            if op_id not in self.called and op_id not in SKIPPED
        ]


def read_the_board(d: Driver) -> Any:
    """Everything a player reads before ordering; returns the nation view."""
    campaigns = d.call("campaigns_list", page=1, page_size=50).parsed
    if d.slug not in [c.slug for c in campaigns.results]:
        raise Mismatch(f"campaigns_list: {d.slug} is not among the caller's campaigns")
    view = d.call("campaign_retrieve", slug=d.slug).parsed
    if view.turn is None or view.turn.status != "open":
        raise Mismatch(f"campaign_retrieve: no turn of {d.slug} is open for orders")
    for op_id in ("zones_list", "ports_list", "fleets_list", "ledger_list", "dispatches_list", "turns_list"):
        d.every(op_id)
    nations = d.every("nations_list")
    if [n.relation for n in nations if n.code == view.nation] != ["self"]:
        raise Mismatch(f"nations_list: the caller's nation {view.nation} is not listed as 'self'")
    rules = d.call("rules_retrieve", slug=d.slug).parsed
    if rules.movement.max_steps < 1 or not rules.ship_classes:
        raise Mismatch(f"rules_retrieve: no movement or ship classes in {rules.to_dict()}")
    d.call("orders_list", slug=d.slug)
    return view


def fight_in_the_simulator(d: Driver) -> None:
    """Two ships a side, fought once with a seed (a battle report) and twenty times (the odds)."""
    m = d.models

    def side(navy: str, name: str) -> Any:
        ships = [m.ShipSpec(name=f"{name} {k}", class_=m.ShipClassEnum("3rd-74")) for k in (1, 2)]
        return m.SideSpec(navy=m.NavyEnum(navy), ships=ships, name=name)

    sides = [side("GB", "British"), side("FR", "French")]
    # Seeds are strings (a JavaScript number would round one beyond 2^53).
    once = m.SimulatorRequest(type_=m.BattleTypeEnum.FLEET_ACTION, sides=sides, seed="1805")
    report = d.call("simulator_run", body=once).parsed
    if not isinstance(report, m.BattleReport) or report.seed != "1805" or len(report.ships) != 4:
        raise Mismatch(f"simulator_run: fought once with seed 1805, it gave {report!r}")
    odds = d.call("simulator_run", body=m.SimulatorRequest.from_dict({**once.to_dict(), "runs": 20})).parsed
    if not isinstance(odds, m.Odds) or odds.runs != 20 or len(odds.win) != 2:
        raise Mismatch(f"simulator_run: fought twenty times, it gave {odds!r}")


def orders_wanted(d: Driver, view: Any, ports: list[Any]) -> tuple[Any, list[Any]]:
    """The orders for the turn: a move of a fleet (one in port if any: the fleets at sea keep their
    blockades), a lay-down if the quota allows, and a fireship attack by a fleet at sea with
    fireships on an enemy port in its zone if there is one; and a first draft of the move, which
    order_update turns into the wanted one."""
    m = d.models
    zones = {z.key: z for z in d.every("zones_list")}
    fleets = [f for f in d.every("fleets_list") if f.own and f.ships and not any(s.in_ordinary for s in f.ships)]
    fire = next((f for f in fleets if f.port is None and any(s.ship_class == "fireship" for s in f.ships)), None)
    movers = [f for f in fleets if f.port] or [f for f in fleets if f is not fire]
    if not movers:
        raise Mismatch("fleets_list: the nation has no fleet that can sail")
    fleet, first = movers[0], (["sea"] if movers[0].port else [])
    adjacent = zones[fleet.sea_zone].adjacent
    legal = [p.path for p in d.call("fleet_moves_list", slug=d.slug, fleet_id=fleet.id).parsed.paths]
    if [*first, adjacent[0]] not in legal:
        raise Mismatch(f"fleet_moves_list: {[*first, adjacent[0]]} is not among {fleet.name}'s paths {legal}")
    draft = m.MoveOrder(kind=m.MoveOrderKindEnum.MOVE, fleet=fleet.id, path=[*first, adjacent[-1]])
    wanted = [m.MoveOrder(kind=m.MoveOrderKindEnum.MOVE, fleet=fleet.id, path=[*first, adjacent[0]])]
    if view.quota.within and view.quota.dockyards:
        name, port = f"Generated {view.turn.number}", view.quota.dockyards[0].key
        kind, ship_class = m.LayDownOrderKindEnum.LAY_DOWN, m.ShipClassEnum("3rd-74")
        wanted.append(m.LayDownOrder(kind=kind, class_=ship_class, name=name, port=port))
    if fire is not None:
        enemy = [p.key for p in ports if p.zone == fire.sea_zone and p.owner != view.nation]
        target = fire.blockade_port if fire.blockade_port in enemy else next(iter(enemy), None)
        if target is not None:
            wanted.append(m.FireshipsOrder(kind=m.FireshipsOrderKindEnum.FIRESHIPS, fleet=fire.id, port=target))
    return draft, wanted


def work_the_list(d: Driver, draft: Any, wanted: list[Any]) -> None:
    """Every write on the list of orders, leaving ``wanted`` stored in that order: each created
    (the move as ``draft``), the move changed in place, the list reversed, the last order withdrawn,
    the whole list replaced; each answer checked against what was asked."""
    m = d.models
    created = [d.call("order_create", CREATED, slug=d.slug, body=b).parsed for b in (draft, *wanted[1:])]
    ids = [o.id for o in created]
    moved = d.call("order_update", slug=d.slug, order_id=ids[0], body=wanted[0]).parsed
    if moved.id != ids[0] or moved.position != created[0].position or moved.body.path != wanted[0].path:
        raise Mismatch(f"order_update: asked for path {wanted[0].path} in place, got {moved.to_dict()}")
    reordered = d.call("orders_reorder", slug=d.slug, body=m.PatchedOrderReorder(order=ids[::-1])).parsed
    if [o.id for o in reordered.orders] != ids[::-1]:
        raise Mismatch(f"orders_reorder: asked for {ids[::-1]}, got {[o.id for o in reordered.orders]}")
    d.call("order_withdraw", NO_CONTENT, slug=d.slug, order_id=ids[-1])
    left = [o.id for o in d.call("orders_list", slug=d.slug).parsed.orders]
    if left != ids[-2::-1]:
        raise Mismatch(f"order_withdraw: withdrew {ids[-1]} of {ids[::-1]}, and the list is {left}")
    checked = d.call("orders_validate", slug=d.slug, body=wanted).parsed
    if [o.position for o in checked.orders] != list(range(1, len(wanted) + 1)):
        raise Mismatch(f"orders_validate: sent {[b.to_dict() for b in wanted]}, got {checked.to_dict()}")
    replaced = d.call("orders_replace", slug=d.slug, body=wanted).parsed
    stored = [(o.position, o.body.to_dict()) for o in replaced.orders]
    if stored != [(k, b.to_dict()) for k, b in enumerate(wanted, 1)]:
        raise Mismatch(f"orders_replace: sent {[b.to_dict() for b in wanted]}, stored {stored}")
    for order in d.call("orders_list", slug=d.slug).parsed.orders:
        d.call("order_retrieve", slug=d.slug, order_id=order.id)


def give_orders(d: Driver, view: Any) -> None:
    """The turn's orders (see :func:`work_the_list`); a dispatch to another nation and the rival's
    answer, each read back; the battles on the table, read."""
    m = d.models
    ports = d.every("ports_list")
    work_the_list(d, *orders_wanted(d, view, ports))
    others = sorted({p.owner for p in ports} - {view.nation})
    if others:
        letter = m.Send(body="Compliments of the season.", to=[others[0]], subject="From a generated client")
        d.call("dispatches_send", CREATED, slug=d.slug, body=letter)
    if d.rival is not None:
        rival = d.call("campaign_retrieve", slug=d.slug, by=d.rival).parsed
        answer = m.Send(body=f"{rival.nation_name} returns them.", to=[view.nation], subject="An answer")
        d.call("dispatches_send", CREATED, slug=d.slug, body=answer, by=d.rival)
    for dispatch in d.every("dispatches_list"):
        d.call("dispatches_retrieve", slug=d.slug, dispatch_id=dispatch.id)
    for table in d.every("table_battles_list"):
        d.call("table_battle_retrieve", slug=d.slug, table_id=table.id)


def settle_the_table(d: Driver) -> None:
    """Each battle of ours waiting at the table: every ship came through, neither side held the
    field; entered by the player, confirmed by the rival, approved by the GM."""
    m = d.models
    waiting = [t for t in d.every("table_battles_list") if t.status == "waiting"]
    if not waiting:
        return  # the other side's, or already settled: the GM's approval resumes the turn
    if d.rival is None or d.gm is None:
        raise Mismatch("table_result_confirm: a battle waits at the table; give --rival-token and --gm-token")
    for table in waiting:
        state = d.call("table_battle_retrieve", slug=d.slug, table_id=table.id).parsed
        if state.my_side is None:
            raise Mismatch(f"table_battle_retrieve: the caller has no side in the battle at {state.place}")
        if state.kind == "storming":
            # The port held: no unit lost on either side.
            storming = m.StormingResult(garrison_lost=0, port_taken=False)
            entered = d.call("table_storming_result_enter", slug=d.slug, table_id=table.id, body=storming)
            rows = []
        else:
            rows = [m.TableResultEntry(ship=s.id, fate=m.FateEnum.INTACT) for s in state.ships]
            result = m.TableResult(ships=rows, held_field=None, admirals_lost=[])
            entered = d.call("table_result_enter", slug=d.slug, table_id=table.id, body=result)
        steps = [
            entered.parsed.status,
            d.call("table_result_confirm", slug=d.slug, table_id=table.id, by=d.rival).parsed.status,
            d.call("table_result_approve", slug=d.slug, table_id=table.id, by=d.gm).parsed.status,
        ]
        if steps != ["entered", "confirmed", "applied"]:
            raise Mismatch(f"table_result_approve: the result at {state.place} went {steps}")
        what = "storming of" if state.kind == "storming" else "battle at"
        print(f"The {what} {state.place} was settled at the table: {len(rows)} ships.")


def play_the_turn(d: Driver, number: int, timeout: float, interval: float) -> None:
    """Ready, then poll the nation view with If-None-Match until turn ``number`` has resolved,
    settling the battles that wait at the table on the way."""
    d.call("ready_set", slug=d.slug, body=d.models.Ready(ready=True))
    deadline = time.monotonic() + timeout
    etag = None
    polls = not_modified = 0
    waits_at_table = False
    while time.monotonic() < deadline:
        kwargs: dict[str, str] = {"if_none_match": etag} if etag else {}
        answer = d.call("campaign_retrieve", (200, 304), slug=d.slug, **kwargs)
        polls += 1
        if int(answer.status_code) == 304:
            not_modified += 1
            # Still at the table: the campaign reads the same whether it waits for the battle just
            # settled or for the next thing held there (a storming after phase 6), so look again.
            if waits_at_table:
                settle_the_table(d)
        else:
            etag = answer.headers.get("ETag")
            turn = answer.parsed.turn
            if turn is None or turn.number > number or turn.status == "resolved":
                print(f"Turn {number} resolved: {polls} polls, {not_modified} answered 304.")
                return
            waits_at_table = turn.status == "table"
            if waits_at_table:
                settle_the_table(d)
        time.sleep(interval)
    raise Mismatch(f"campaign_retrieve: turn {number} did not resolve within {timeout:.0f} s")


def read_the_results(d: Driver, number: int) -> None:
    """The turn's report and battles, each battle's detail; the rival's dispatches marked read."""
    report = d.call("turn_report_retrieve", slug=d.slug, number=number).parsed
    battles = d.every("battles_list", turn=number)
    kinds = [type(d.call("battle_retrieve", slug=d.slug, battle_id=b.id).parsed.report).__name__ for b in battles]
    d.every("ledger_list", turn=number)
    print(f"Report of turn {number}: {len(report.events)} events, {len(battles)} battles.")
    print(f"Stored reports read: {', '.join(sorted(kinds))}.")
    for letter in [x for x in d.every("dispatches_list") if not x.own]:
        read = d.call("dispatches_mark_read", slug=d.slug, dispatch_id=letter.id).parsed
        if read.dispatch != letter.id or read.read is not True:
            raise Mismatch(f"dispatches_mark_read: marked {letter.id} read, the answer was {read.to_dict()}")


def register_a_webhook(d: Driver) -> None:
    """A webhook registered (the answer carries its secret), listed without it, and deleted. It is
    deleted before any event: nothing is ever posted to its address (a closed port of 127.0.0.1)."""
    body = d.models.WebhookCreate.from_dict({"url": "http://127.0.0.1:9/driver", "events": ["turn.resolved"]})
    made = d.call("webhooks_create", CREATED, slug=d.slug, body=body).parsed
    if len(made.secret) < 32:
        raise Mismatch(f"webhooks_create: the secret {made.secret!r} is too short to sign with")
    listed = [hook.id for hook in d.every("webhooks_list")]
    if made.id not in listed:
        raise Mismatch(f"webhooks_list: the hook {made.id} just registered is not among {listed}")
    d.call("webhooks_destroy", NO_CONTENT, slug=d.slug, hook_id=made.id)
    if made.id in [hook.id for hook in d.every("webhooks_list")]:
        raise Mismatch(f"webhooks_destroy: the hook {made.id} is still listed")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--campaign", required=True)
    parser.add_argument("--token", required=True, help="The player's API token")
    parser.add_argument("--rival-token", help="A player's of another nation: answers, confirms the table's result")
    parser.add_argument("--gm-token", help="The campaign's GM's: approves the table's result")
    parser.add_argument("--schema", required=True, help="The OpenAPI document (JSON) the package was made from")
    parser.add_argument("--package", required=True, help="The generated package's import name")
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--interval", type=float, default=0.5)
    args = parser.parse_args(argv)
    package = importlib.import_module(args.package)

    def client(token: str | None) -> Any:
        return None if token is None else package.AuthenticatedClient(base_url=args.url, token=token)

    with open(args.schema, encoding="utf-8") as schema:
        d = Driver(client(args.token), args.package, json.load(schema), args.campaign)
    d.rival, d.gm = client(args.rival_token), client(args.gm_token)
    try:
        view = read_the_board(d)
        fight_in_the_simulator(d)
        give_orders(d, view)
        play_the_turn(d, view.turn.number, args.timeout, args.interval)
        read_the_results(d, view.turn.number)
        register_a_webhook(d)
    except Mismatch as error:
        d.problems.append(str(error))
    d.problems += d.not_called()
    print(f"{len(d.called)} operations called, {d.parsed} bodies parsed and checked.")
    for problem in d.problems:
        print(f"MISMATCH {problem}")
    return 1 if d.problems else 0


if __name__ == "__main__":
    sys.exit(main())
