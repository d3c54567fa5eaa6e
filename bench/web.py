"""Web latency under load: 50 players browsing and entering orders against gunicorn and PostgreSQL.

``python -m bench web`` prepares a PostgreSQL database of its own (migrate, five europe-1805 campaigns
loaded with ``load_scenario``, one player account per nation: 55 accounts for 50 simulated players),
starts gunicorn on a free port against it, runs ``bench/locust_players.py`` headless for
``BENCH_WEB_SECONDS`` (default 60) with 50 users, and prints each request's median and 95th
percentile and the totals. Goal (issue 5): p95 ≤ 150 ms on this machine. gunicorn keeps its database
connections as in production (``DATABASE_CONN_MAX_AGE``). The database is dropped afterwards.
Latencies are measured by locust on the same machine, so they include its own CPU share.
"""

from __future__ import annotations

import csv
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATABASE = "admiralty_bench_web"
SERVER = "postgres://postgres@127.0.0.1:5432"
USERS = 50
CAMPAIGNS = 5
GOAL_P95_MS = 150

_PLAYERS = """
import sys
from django.contrib.auth import get_user_model
from campaign.models import Nation
users = get_user_model()
out = []
for nation in Nation.objects.select_related("campaign").order_by("campaign__slug", "code"):
    name = f"{nation.campaign.slug}-{nation.code.lower()}"
    user = users.objects.create_user(name, f"{name}@example.org", PASSWORD)
    nation.player = user
    nation.save(update_fields=["player"])
    out.append(f"{name}\\t{PASSWORD}\\t{nation.campaign.slug}")
open(TARGET, "w").write("\\n".join(out) + "\\n")
"""


def _env() -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",  # DEBUG off, fast password hashing
        "DATABASE_URL": f"{SERVER}/{DATABASE}",
        # Each gunicorn worker keeps its PostgreSQL connection, as production does (base settings:
        # 60 s); the test settings' default of a new connection per request, kept for the tests,
        # cost every request a connection and a new server process (p50 57 -> 38 ms, p95 270 -> 190 ms).
        "DATABASE_CONN_MAX_AGE": "60",
    }


def _manage(*args: str, code: str | None = None) -> None:
    command = [sys.executable, "manage.py", *args]
    if code is not None:
        command += ["-c", code]
    subprocess.run(command, cwd=ROOT, env=_env(), check=True, stdout=subprocess.DEVNULL)


def _psql(sql: str) -> None:
    import psycopg

    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(sql.encode())


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _prepare(users_file: Path) -> None:
    _psql(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
    _psql(f"CREATE DATABASE {DATABASE}")
    _manage("migrate", "--noinput", "-v", "0")
    for k in range(CAMPAIGNS):
        _manage("load_scenario", "europe-1805", "--start", "--slug", f"bench-{k + 1}", "--seed", str(k + 1))
    password = secrets.token_urlsafe(12)
    code = _PLAYERS.replace("PASSWORD", repr(password)).replace("TARGET", repr(str(users_file)))
    _manage("shell", code=code)


def _wait_for(url: str, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"gunicorn did not answer at {url}")


def _warm_up(base: str, users_file: Path, rounds: int) -> None:
    """Load every worker's templates and code once (a worker's first pages are slow), as one player."""
    import http.cookiejar
    import re
    import urllib.parse

    name, password, slug = users_file.read_text().splitlines()[0].split("\t")
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    page = opener.open(f"{base}/accounts/login/").read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    data = {"username": name, "password": password, "csrfmiddlewaretoken": token.group(1) if token else ""}
    opener.open(f"{base}/accounts/login/", urllib.parse.urlencode(data).encode())
    campaign = f"/campaigns/{slug}"
    pages = ["/", "/simulator/", f"{campaign}/", f"{campaign}/map/", f"{campaign}/orders/", f"{campaign}/battles/"]
    pages += [f"{campaign}/orders/?kind=lay_down", f"{campaign}/orders/?kind=posture"]
    for _ in range(rounds):
        for path in pages:
            with opener.open(f"{base}{path}"):
                pass


def _report(stats: Path) -> None:
    rows = list(csv.DictReader(stats.open()))
    print(f"{'request':<28} {'count':>7} {'fail':>5} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7}")
    total = None
    for row in rows:
        if row["Name"] == "Aggregated":
            total = row
            continue
        print(
            f"{row['Name'][:28]:<28} {row['Request Count']:>7} {row['Failure Count']:>5} "
            f"{row['50%']:>7} {row['95%']:>7} {float(row['Max Response Time']):>7.0f}"
        )
    if total is not None:
        p95 = float(total["95%"])
        print(
            f"{'all requests':<28} {total['Request Count']:>7} {total['Failure Count']:>5} "
            f"{total['50%']:>7} {total['95%']:>7} {float(total['Max Response Time']):>7.0f}"
        )
        verdict = "meets" if p95 <= GOAL_P95_MS else "misses"
        print(f"p95 {p95:.0f} ms {verdict} the goal of {GOAL_P95_MS} ms; {float(total['Requests/s']):.1f} requests/s")


def _report_server_times(access_log: Path, start: int) -> None:
    """The same requests as gunicorn timed them, from request in to response out (its access log from
    byte ``start``, past the warm-up). Locust's figures add the wait for a free worker and locust's
    own share of the two cores; the goal is judged on locust's. A post that redirects (a login, an order
    added or withdrawn) is one request to locust and two here."""
    if not access_log.exists():
        return
    with access_log.open("rb") as log:
        log.seek(start)
        lines = log.read().decode(errors="replace").splitlines()
    # The last field of each line is the time in microseconds (``%(D)s``).
    fields = [line.rsplit(" ", 1)[-1] for line in lines]
    times = sorted(int(field) / 1000 for field in fields if field.isdigit())
    if not times:
        return
    # p95 as bench/fleet_of_campaigns.py takes it.
    p50, p95 = statistics.median(times), times[max(0, round(0.95 * len(times)) - 1)]
    print(
        f"inside gunicorn: p50 {p50:.0f} ms, p95 {p95:.0f} ms, max {times[-1]:.0f} ms "
        f"over {len(times)} requests (locust's figures add the wait for a worker and locust's own CPU)"
    )


def main() -> None:
    seconds = int(os.environ.get("BENCH_WEB_SECONDS", "60"))
    workers = int(os.environ.get("BENCH_WEB_WORKERS", str(2 * (os.cpu_count() or 2) + 1)))
    var = ROOT / "var"
    var.mkdir(exist_ok=True)
    users_file = var / "bench-web-users.txt"
    prefix = var / "bench-web"
    access_log = var / "bench-web-access.log"
    access_log.unlink(missing_ok=True)
    t0 = time.perf_counter()
    _prepare(users_file)
    print(f"prepared {CAMPAIGNS} europe-1805 campaigns and their players in {time.perf_counter() - t0:.1f} s")
    port = _free_port()
    env = _env()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--log-level",
            "warning",
            # Each request (method, path, status) and its time inside gunicorn in µs, to tell it from locust's.
            "--access-logfile",
            str(access_log),
            "--access-logformat",
            "%(m)s %(U)s %(s)s %(D)s",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        _wait_for(f"http://127.0.0.1:{port}/accounts/login/")
        _warm_up(f"http://127.0.0.1:{port}", users_file, rounds=3 * workers)
        print(f"gunicorn: {workers} workers; locust: {USERS} players for {seconds} s")
        warm_up_end = access_log.stat().st_size if access_log.exists() else 0
        subprocess.run(
            [
                sys.executable,
                "-m",
                "locust",
                "-f",
                str(ROOT / "bench" / "locust_players.py"),
                "--headless",
                "--users",
                str(USERS),
                "--spawn-rate",
                "10",
                "--run-time",
                f"{seconds}s",
                "--host",
                f"http://127.0.0.1:{port}",
                "--csv",
                str(prefix),
                "--only-summary",
                "--loglevel",
                "WARNING",
            ],
            cwd=ROOT,
            env={**env, "BENCH_WEB_USERS": str(users_file)},
            check=False,
            stdout=subprocess.DEVNULL,
        )
        _report(Path(f"{prefix}_stats.csv"))
        _report_server_times(access_log, warm_up_end)
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
        _psql(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")


if __name__ == "__main__":
    main()
