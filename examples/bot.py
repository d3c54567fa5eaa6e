#!/usr/bin/env python3
"""A small Admiralty bot: one turn for one nation, through the published API and a personal token.

    python examples/bot.py --url http://127.0.0.1:8000 --campaign demo --token "$TOKEN" [--nation GB]

It needs nothing but the Python standard library and what /api/schema/ documents (it checks that
every operation it uses is there before starting):

1. reads the map (``zones_list``, ``ports_list``), its fleets (``fleets_list``) and its latest turn
   report (``turn_report_retrieve``);
2. moves one fleet one or two steps toward the nearest enemy it knows of — an enemy port, or a
   contact its last report gave (``order_create``, a ``move``);
3. lays down a ship if the quota allows it and a dockyard is free (``order_create``, a ``lay_down``);
4. marks the nation ready (``ready_set``);
5. waits for the turn to resolve, polling the nation view with ``If-None-Match`` (``campaign_retrieve``:
   a bodiless 304 while nothing changes), then prints the turn's report.

A refused order is printed with its problem's code and message (RFC 9457, ``errors``) and the bot
goes on: the GM's rules, not the bot, decide what is legal.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import deque
from typing import Any

OPERATIONS = {
    "campaign_retrieve",
    "zones_list",
    "ports_list",
    "fleets_list",
    "order_create",
    "ready_set",
    "turn_report_retrieve",
}


class ApiError(Exception):
    def __init__(self, status: int, problem: dict[str, Any]) -> None:
        self.status = status
        self.problem = problem
        errors = problem.get("errors") or []
        reasons = "; ".join(f"{e.get('code')}: {e.get('message')}" for e in errors) or problem.get("detail", "")
        super().__init__(f"{status} {problem.get('title', '')}: {reasons}")


class Client:
    def __init__(self, url: str, token: str, campaign: str, nation: str | None) -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.campaign = campaign
        self.nation = nation

    def call(
        self, method: str, path: str, body: Any = None, *, query: dict[str, Any] | None = None, etag: str | None = None
    ) -> tuple[int, Any, dict[str, str]]:
        params = dict(query or {})
        if self.nation and path.startswith(f"/api/v1/campaigns/{self.campaign}/"):
            params["nation"] = self.nation
        url = self.url + path + (f"?{urllib.parse.urlencode(params)}" if params else "")
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if etag:
            headers["If-None-Match"] = etag
        request = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                raw = response.read()
                return response.status, json.loads(raw) if raw else None, dict(response.headers)
        except urllib.error.HTTPError as error:
            if error.code == 304:
                return 304, None, dict(error.headers)
            raw = error.read()
            problem = json.loads(raw) if raw else {"detail": error.reason}
            if error.code == 429:  # throttled: wait as told, then once more
                time.sleep(float(error.headers.get("Retry-After", "1")))
                return self.call(method, path, body, query=query, etag=etag)
            raise ApiError(error.code, problem) from None

    def every(self, path: str) -> list[dict[str, Any]]:
        """All the results of a paginated list."""
        rows: list[dict[str, Any]] = []
        page = 1
        while True:
            _, data, _ = self.call("GET", path, query={"page": page, "page_size": 500})
            rows.extend(data["results"])
            if not data["next"]:
                return rows
            page += 1

    def campaign_path(self, rest: str = "") -> str:
        return f"/api/v1/campaigns/{self.campaign}/{rest}"


def check_schema(client: Client) -> None:
    _, schema, _ = client.call("GET", "/api/schema/", query={"format": "json"})
    found = {op.get("operationId") for path in schema["paths"].values() for op in path.values() if isinstance(op, dict)}
    missing = OPERATIONS - found
    if missing:
        raise SystemExit(f"The server's schema lacks {', '.join(sorted(missing))}: this bot is for another API.")


def known_enemies(
    client: Client, own: str, friends: set[str], ports: list[dict[str, Any]], report: dict[str, Any] | None
) -> dict[str, str]:
    """Sea-zone key → what is there: enemy ports (every nation sees their owners) and contacts of the
    last report."""
    enemies: dict[str, str] = {}
    for port in ports:
        if port["owner"] and port["owner"] not in friends:
            enemies.setdefault(port["zone"], f"{port['owner_name']}'s port {port['name']}")
    for event in (report or {}).get("events", []):
        if event.get("kind") == "contact_made":
            nations = {s.get("nation") for s in event.get("ships", []) if s.get("nation")}
            if nations - friends:
                enemies[event["zone_key"]] = f"ships of {', '.join(sorted(nations - friends))} (sighted)"
    return enemies


def path_to_nearest(start: str, zones: dict[str, dict[str, Any]], targets: dict[str, str]) -> list[str] | None:
    """The shortest list of zone keys from ``start`` (excluded) to the nearest target zone."""
    came_from: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here in targets and here != start:
            path = [here]
            while came_from[path[-1]] != start:
                step = came_from[path[-1]]
                assert step is not None
                path.append(step)
            return list(reversed(path))
        for there in zones[here]["adjacent"]:
            if there not in came_from:
                came_from[there] = here
                queue.append(there)
    return None


def order(client: Client, body: dict[str, Any]) -> bool:
    try:
        _, stored, _ = client.call("POST", client.campaign_path("orders/"), body)
    except ApiError as refused:
        print(f"  refused: {refused}")
        return False
    print(f"  ordered: {stored['description']}")
    return True


def move_toward_enemy(client: Client, nation: str, view: dict[str, Any], report: dict[str, Any] | None) -> None:
    zones = {z["key"]: z for z in client.every(client.campaign_path("zones/"))}
    ports = client.every(client.campaign_path("ports/"))
    fleets = client.every(client.campaign_path("fleets/"))
    friends = {f["nation"] for f in fleets} | {nation}
    enemies = known_enemies(client, nation, friends, ports, report)
    print(f"Map: {len(zones)} sea zones, {len(ports)} ports; {len(enemies)} places with an enemy known.")
    best: tuple[int, dict[str, Any], list[str]] | None = None
    for fleet in fleets:
        if not fleet["own"] or not fleet["ships"] or any(s["in_ordinary"] for s in fleet["ships"]):
            continue
        path = path_to_nearest(fleet["sea_zone"], zones, enemies)
        if path is not None and (best is None or len(path) < best[0]):
            best = (len(path), fleet, path)
    if best is None:
        print("No fleet of ours can reach a known enemy.")
        return
    _, fleet, path = best
    target = path[-1]
    steps = (["sea"] if fleet["port"] else []) + path
    print(f"Fleet {fleet['name']} heads for {zones[target]['name']}: {enemies[target]}.")
    for length in (2, 1):  # the rules allow two steps, one with a disabled ship
        if order(client, {"kind": "move", "fleet": fleet["id"], "path": steps[:length]}):
            return


def lay_down(client: Client, view: dict[str, Any]) -> None:
    quota = view["quota"]
    if not quota["within"] or not quota["dockyards"]:
        print("The quota (or a free dockyard) does not allow a new ship this turn.")
        return
    # A first rate if the quota allows one more, else (or if the treasury cannot pay for it) a 74.
    classes = (["1st"] if quota["big_allowed_now"] > 0 else []) + ["3rd-74"]
    name = f"Bot {view['turn']['number']}-{view['nation']}"
    port = quota["dockyards"][0]
    print(f"Laying down at {port['name']}.")
    for ship_class in classes:
        if order(client, {"kind": "lay_down", "class": ship_class, "name": name, "port": port["key"]}):
            return


def wait_for_resolution(client: Client, number: int, timeout: float, interval: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    etag = None
    polls = not_modified = 0
    while time.monotonic() < deadline:
        status, view, headers = client.call("GET", client.campaign_path(), etag=etag)
        polls += 1
        if status == 304:
            not_modified += 1
        else:
            etag = headers.get("ETag")
            turn = view["turn"]
            if turn is None or turn["number"] > number or (turn["number"] == number and turn["status"] == "resolved"):
                print(f"Turn {number} resolved ({polls} polls, {not_modified} answered 304 Not Modified).")
                return view
        time.sleep(interval)
    raise SystemExit(f"Turn {number} did not resolve within {timeout:.0f} s.")


def print_report(client: Client, number: int) -> None:
    _, report, _ = client.call("GET", client.campaign_path(f"turns/{number}/"))
    print(f"Report of turn {number} ({report['season']} {report['year']}) for {report['nation']}:")
    for event in report["events"]:
        print(f"  [phase {event['phase']}] {event['text']}")
    for battle in report["battles"]:
        winner = battle["winner_name"] or "no winner"
        print(f"  Battle: {battle['kind_name']} at {battle['place_name']}, won by {winner}.")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="The site, e.g. http://127.0.0.1:8000")
    parser.add_argument("--campaign", required=True, help="The campaign's slug")
    parser.add_argument("--token", required=True, help="A personal API token (Settings page)")
    parser.add_argument("--nation", help="The nation's code (a GM must give it)")
    parser.add_argument("--timeout", type=float, default=600, help="Seconds to wait for the turn")
    parser.add_argument("--interval", type=float, default=2, help="Seconds between polls")
    args = parser.parse_args(argv)
    client = Client(args.url, args.token, args.campaign, args.nation)
    try:
        check_schema(client)
        _, view, _ = client.call("GET", client.campaign_path())
        turn = view["turn"]
        if turn is None or turn["status"] != "open":
            print("No turn is open for orders.")
            return 1
        number = turn["number"]
        nation = view["nation"]
        print(f"{view['nation_name']} ({nation}), turn {number}: {view['available_ep']} EP available.")
        report = None
        if number > 1:
            _, report, _ = client.call("GET", client.campaign_path(f"turns/{number - 1}/"))
        move_toward_enemy(client, nation, view, report)
        lay_down(client, view)
        client.call("POST", client.campaign_path("ready/"), {"ready": True})
        print("Marked ready; waiting for the turn to resolve.")
        wait_for_resolution(client, number, args.timeout, args.interval)
        print_report(client, number)
    except ApiError as error:
        print(f"The API refused: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
