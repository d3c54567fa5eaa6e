#!/usr/bin/env python3
"""An Admiralty bot that plays from the API alone: python examples/bot.py --url URL --campaign SLUG --token T

Standard library only. Each turn it reads who is at war (nations/), the rule numbers (rules/), the
map (zones/, ports/) and its fleets' legal moves (fleets/<id>/moves/); sends each fleet toward the
nearest port of a nation at war with it, lays down the best ship the treasury pays for, checks the
list with orders/validate/ (dropping what is refused, by its index), stores it with PUT orders/,
marks ready, waits with conditional GETs for the turn to resolve and prints the report.
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


class Api:
    def __init__(self, url: str, token: str, slug: str, nation: str | None) -> None:
        self.base, self.token, self.nation = f"{url.rstrip('/')}/api/v1/campaigns/{slug}/", token, nation

    def call(self, method: str, path: str = "", body: Any = None, etag: str | None = None) -> tuple[int, Any, Any]:
        query = urllib.parse.urlencode({"nation": self.nation} if self.nation else {})
        url = self.base + path + ("&" if "?" in path else "?") + query
        headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
        headers.update({"If-None-Match": etag} if etag else {})
        data = None if body is None else json.dumps(body).encode()
        try:
            with urllib.request.urlopen(urllib.request.Request(url, data, headers, method=method), timeout=30) as r:
                return r.status, json.loads(r.read() or "null"), r.headers
        except urllib.error.HTTPError as error:
            if error.code == 429:  # throttled: wait as told (Retry-After), then again
                time.sleep(float(error.headers.get("Retry-After", "1")))
                return self.call(method, path, body, etag)
            return error.code, json.loads(error.read() or "null"), error.headers

    def get(self, path: str = "") -> Any:
        status, data, _ = self.call("GET", path)
        return data if status == 200 else sys.exit(f"GET {path or 'nation view'}: {status} {data and data['detail']}")

    def every(self, path: str) -> list[Any]:
        return self.get(f"{path}?page_size=500")["results"]  # a campaign has fewer nations, zones, ports


def distances(zones: dict[str, Any], targets: set[str]) -> dict[str, int]:
    """Steps from every zone to the nearest target zone (breadth first from the targets)."""
    far, queue = dict.fromkeys(targets, 0), deque(targets)
    while queue:
        here = queue.popleft()
        for there in zones[here]["adjacent"]:
            if there not in far:
                far[there] = far[here] + 1
                queue.append(there)
    return far


def plan(api: Api, view: dict[str, Any]) -> list[dict[str, Any]]:
    at_war = {n["code"] for n in api.every("nations/") if n["relation"] == "war"}
    rules = api.get("rules/")
    zones = {z["key"]: z for z in api.every("zones/")}
    ports = api.every("ports/")
    print(f"At war with: {', '.join(sorted(at_war)) or 'nobody'}; {rules['movement']['max_steps']} steps a move.")
    far = distances(zones, {p["zone"] for p in ports if p["owner"] in at_war})
    orders: list[dict[str, Any]] = []
    for fleet in api.every("fleets/"):
        status, moves, _ = api.call("GET", f"fleets/{fleet['id']}/moves/") if fleet["own"] else (404, {}, {})
        paths = [p for p in moves.get("paths", []) if p["port"] is None] if status == 200 else []
        best = min(paths, key=lambda p: (far.get(p["zone"], 99), len(p["path"])), default=None)
        if best is not None and far.get(best["zone"], 99) < far.get(fleet["sea_zone"], 99):
            orders.append({"kind": "move", "fleet": fleet["id"], "path": best["path"]})
            print(f"{fleet['name']} heads for {zones[best['zone']]['name']} ({far[best['zone']]} from the enemy).")
    dockyards = [p for p in ports if p["owner"] == view["nation"] and p["can_build"]]
    affordable = [c for c in rules["ship_classes"] if c["cost"] <= view["treasury"] and c["ship_class"] != "transport"]
    if dockyards and affordable:
        best_class = max(affordable, key=lambda c: (c["ship_of_the_line"] and not c["counts_for_quota"], c["cost"]))
        name, port = f"Bot {view['turn']['number']}-{view['nation']}", dockyards[0]["key"]
        orders.append({"kind": "lay_down", "class": best_class["ship_class"], "name": name, "port": port})
        print(f"Laying down a {best_class['name']} ({best_class['cost']} EP) at {dockyards[0]['name']}.")
    return orders


def checked(api: Api, orders: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The orders the server accepts: validated without storing, the refused ones dropped by index."""
    while orders:
        status, answer, _ = api.call("POST", "orders/validate/", orders)
        if status == 200:
            print("\n".join(f"  ordered: {order['description']}" for order in answer["orders"]))
            return orders
        refused = {e["index"] for e in answer["errors"] if e["index"] is not None}
        if status != 400 or not refused:
            raise SystemExit(f"Refused as a whole: {status} {answer['detail']}")
        for error in answer["errors"]:  # the refusal's numbers (cost, available, limit…) are its other members
            numbers = {k: v for k, v in error.items() if k not in ("index", "field", "code", "message")}
            print(f"  refused {error['field']}: {error['code']} {numbers}")
        orders = [o for i, o in enumerate(orders) if i not in refused]
    return orders


def play_turn(api: Api, timeout: float, interval: float) -> bool:
    view = api.get()
    if view["turn"] is None or view["turn"]["status"] != "open":
        print("No turn is open for orders.")
        return False
    number = view["turn"]["number"]
    print(f"{view['nation_name']} ({view['nation']}), turn {number}: {view['treasury']} EP in the treasury.")
    orders = [{**o, "turn": number} for o in checked(api, plan(api, view))]
    status, stored, _ = api.call("PUT", "orders/", orders)
    ready_status, _, _ = api.call("POST", "ready/", {"ready": True, "turn": number})
    if status != 200 or ready_status != 200:
        raise SystemExit(f"Orders {status} {stored}, ready {ready_status}")
    print(f"Stored {len(stored['orders'])} orders; marked ready, waiting for turn {number}.")
    etag, polls, unchanged, ends = None, 0, 0, time.monotonic() + timeout
    while time.monotonic() < ends:
        status, now, headers = api.call("GET", "", etag=etag)
        polls, unchanged = polls + 1, unchanged + (status == 304)
        if status == 200:
            etag = headers.get("ETag")
            if now["turn"] is None or now["turn"]["number"] > number or now["turn"]["status"] == "resolved":
                print(f"Turn {number} resolved ({polls} polls, {unchanged} answered 304 Not Modified).")
                report = api.get(f"turns/{number}/")
                lines = [f"  [phase {e['phase']}] {e['text']}" for e in report["events"]]
                print("\n".join([f"Report of turn {number} ({report['season_name']} {report['year']}):", *lines]))
                return True
        time.sleep(interval)
    raise SystemExit(f"Turn {number} did not resolve within {timeout:.0f} s.")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play turns of an Admiralty campaign through its API.")
    for flag in ("--url", "--campaign", "--token"):
        parser.add_argument(flag, required=True)
    parser.add_argument("--nation", help="The nation's code (a GM must give it)")
    parser.add_argument("--turns", type=int, default=1, help="How many turns to play")
    parser.add_argument("--timeout", type=float, default=600, help="Seconds to wait for each turn")
    parser.add_argument("--interval", type=float, default=2, help="Seconds between polls")
    args = parser.parse_args(argv)
    api = Api(args.url, args.token, args.campaign, args.nation)
    return 0 if all(play_turn(api, args.timeout, args.interval) for _ in range(args.turns)) else 1


if __name__ == "__main__":
    sys.exit(main())
