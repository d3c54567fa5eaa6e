"""Locust scenario: players browsing their campaign and entering orders (issue 5's load test).

Each simulated player logs in with one of the accounts listed in the file named by
``BENCH_WEB_USERS`` (lines ``username<TAB>password<TAB>campaign slug``, written by ``bench/web.py``),
then, reading each page for 2–6 s, opens the dashboard, the map, the order page and its forms, the
battle list and the simulator page, and submits orders: a posture order added and withdrawn again (so
the list stays short and every submission is validated against the whole list).

Run by ``python -m bench web``; by hand: ``locust -f bench/locust_players.py --host http://...``.
"""

from __future__ import annotations

import itertools
import os
import re
from pathlib import Path

from locust import HttpUser, between, task

_ACCOUNTS = [
    line.split("\t")
    for line in Path(os.environ.get("BENCH_WEB_USERS", "var/bench-web-users.txt")).read_text().splitlines()
    if line.strip()
]
_NEXT = itertools.count()
_CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
_FLEET = re.compile(r'<select[^>]*name="fleet"[^>]*>\s*<option value="(\d+)"')
_WITHDRAW = re.compile(r'action="(/campaigns/[^"]+/orders/\d+/withdraw/)"')


class Player(HttpUser):
    # A player reads each page for a few seconds before the next click.
    wait_time = between(2.0, 6.0)

    def on_start(self) -> None:
        self.username, password, self.slug = _ACCOUNTS[next(_NEXT) % len(_ACCOUNTS)]
        page = self.client.get("/accounts/login/", name="login form")
        token = _CSRF.search(page.text)
        self.client.post(
            "/accounts/login/",
            {"username": self.username, "password": password, "csrfmiddlewaretoken": token.group(1) if token else ""},
            name="login",
        )
        self.base = f"/campaigns/{self.slug}"

    def _get(self, path: str, name: str) -> str:
        with self.client.get(path, name=name, catch_response=True) as response:
            if response.status_code != 200:
                response.failure(f"{response.status_code} for {path}")
            return response.text or ""

    @task(3)
    def dashboard(self) -> None:
        self._get(f"{self.base}/", "dashboard")

    @task(2)
    def map(self) -> None:
        self._get(f"{self.base}/map/", "map")

    @task(3)
    def orders(self) -> None:
        self._get(f"{self.base}/orders/", "orders")

    @task(1)
    def lay_down_form(self) -> None:
        self._get(f"{self.base}/orders/?kind=lay_down", "orders: lay-down form")

    @task(1)
    def battles(self) -> None:
        self._get(f"{self.base}/battles/", "battle list")

    @task(1)
    def simulator_page(self) -> None:
        self._get("/simulator/", "simulator page")

    @task(2)
    def submit_and_withdraw(self) -> None:
        page = self._get(f"{self.base}/orders/?kind=posture", "orders: posture form")
        token, fleet = _CSRF.search(page), _FLEET.search(page)
        if token is None or fleet is None:
            return
        # Each request is timed on its own, as a browser makes them: the POST, then the page it
        # redirects to (302 when stored; 200 with the refusal next to the field otherwise).
        with self.client.post(
            f"{self.base}/orders/",
            {
                "csrfmiddlewaretoken": token.group(1),
                "kind": "posture",
                "fleet": fleet.group(1),
                "posture": "avoid",
                "port": "",
            },
            name="orders: add",
            allow_redirects=False,
            catch_response=True,
        ) as response:
            if response.status_code not in (200, 302):
                response.failure(f"{response.status_code} adding an order")
            text = response.text or ""
        if response.status_code == 302:
            text = self._get(f"{self.base}/orders/?kind=posture", "orders: posture form")
        withdraw = _WITHDRAW.findall(text)
        token = _CSRF.search(text)
        if withdraw and token is not None:
            with self.client.post(
                withdraw[-1],
                {"csrfmiddlewaretoken": token.group(1)},
                name="orders: withdraw",
                allow_redirects=False,
                catch_response=True,
            ) as response:
                if response.status_code != 302:
                    response.failure(f"{response.status_code} withdrawing an order")
