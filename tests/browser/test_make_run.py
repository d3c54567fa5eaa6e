"""What a newcomer gets from ``make run`` on a fresh clone, in a real browser (issue 24).

``scripts/run_dev.sh`` is started exactly as ``make run`` starts it — no DATABASE_URL, no broker or
cache URL, the dev settings — on a free PORT, with its var/ data in a temporary folder
(ADMIRALTY_VAR_DIR) so as not to touch a developer's. It starts its own PostgreSQL server, migrates,
loads the demo, and serves with a worker and beat. Then: a printed demo login, every player page and
the GM's desk, an order, ready, a turn resolved through the worker, the report — all 200 — and the API
with a token. The development server's connections must stay flat over 200 requests, and Ctrl-C (SIGINT
to the process group) must stop every process, the database server included.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import pytest
from playwright.sync_api import Page, Response, expect

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
PY = str(ROOT / ".venv" / "bin" / "python")
# What the environment of pytest sets that a newcomer's shell does not.
NOT_A_NEWCOMERS = ("DATABASE_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "CACHE_URL", "DJANGO_SETTINGS_MODULE")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class MakeRun:
    process: subprocess.Popen[bytes]
    base: str
    env: dict[str, str]
    var: Path
    log: Path
    logins: dict[str, str] = field(default_factory=dict)

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def manage(self, *args: str) -> str:
        done = subprocess.run(
            [PY, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    def sql(self, query: str) -> list[tuple[object, ...]]:
        with psycopg.connect(host=str(self.var / "postgres"), user="postgres", dbname="admiralty") as db:
            return db.execute(query).fetchall()

    def database_server(self) -> int:
        return int((self.var / "postgres" / "postmaster.pid").read_text().split()[0])

    def descendants(self, database_server: int) -> set[int]:
        """The processes make run started: its process group, and the database server's own session."""
        found = set()
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                pgid = os.getpgid(int(entry.name))
            except ProcessLookupError:
                continue
            if pgid in (self.process.pid, database_server):
                found.add(int(entry.name))
        return found


def _start(var: Path, port: int, log: Path) -> MakeRun:
    """``scripts/run_dev.sh`` as ``make run`` starts it, on its var/ folder; returned once it serves."""
    env = {k: v for k, v in os.environ.items() if k not in NOT_A_NEWCOMERS}
    env.update({"PORT": str(port), "ADMIRALTY_VAR_DIR": str(var), "TURN_SWEEP_SECONDS": "2"})
    env.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with log.open("wb") as out:
        process = subprocess.Popen(
            ["bash", "scripts/run_dev.sh"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            # SIGINT as a terminal gives it: a suite started in the background of a non-interactive shell
            # ignores SIGINT, and its children would inherit that and never stop on Ctrl-C.
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
    run = MakeRun(
        process, f"http://127.0.0.1:{port}", {**env, "DJANGO_SETTINGS_MODULE": "config.settings.dev"}, var, log
    )
    try:
        deadline = time.monotonic() + 240
        while True:
            assert process.poll() is None, "make run stopped:\n" + run.output()[-4000:]
            if "Admiralty is at" in run.output():
                try:
                    urllib.request.urlopen(run.base + "/", timeout=5)
                    break
                except OSError:
                    pass
            assert time.monotonic() < deadline, "make run did not serve in time:\n" + run.output()[-4000:]
            time.sleep(0.2)
    except BaseException:
        _stop(run)
        raise
    for username, password in re.findall(r"^  (\S+)\s+(\S+)\s+(?:player|game master)", run.output(), re.M):
        run.logins[username] = password
    return run


def _stop(run: MakeRun) -> None:
    if run.process.poll() is None:
        os.killpg(run.process.pid, signal.SIGINT)
        run.process.wait(timeout=60)


@pytest.fixture(scope="module")
def make_run() -> Iterator[MakeRun]:
    # Not under pytest's own temporary folder: any pytest started meanwhile on the machine resets that
    # folder's root to 0700, and the database server's account (config/dev_database.py) then can no
    # longer reach its data folder (a PANIC on shutdown, seen with eight checkouts testing at once).
    var = Path(tempfile.mkdtemp(prefix="admiralty-make-run-var-"))
    run = _start(var, _free_port(), var / "make-run.log")
    try:
        yield run
    finally:
        _stop(run)  # only if the Ctrl-C test did not stop it
        shutil.rmtree(var, ignore_errors=True)


def _login(page: Page, base: str, username: str, password: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    expect(page.get_by_role("button", name=re.compile("log out", re.I))).to_be_visible()


def test_a_newcomer_plays_a_turn_on_what_make_run_gives(make_run: MakeRun, page: Page) -> None:
    errors: list[str] = []
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 500 else None)
    assert {"gm", "player-gb"} <= set(make_run.logins), make_run.output()[-3000:]
    base = make_run.base
    (turn_number,) = make_run.sql(
        "SELECT t.number FROM campaign_turn t JOIN campaign_campaign c ON c.id = t.campaign_id"
        " WHERE c.slug = 'demo' AND t.status = 'open'"
    )[0]

    def visit(path: str) -> Response:
        response = page.goto(base + path)
        assert response is not None and response.status == 200, f"{path}: {response and response.status}"
        return response

    _login(page, base, "player-gb", make_run.logins["player-gb"])
    for path in ("", "map/", "orders/", "rules/", "turns/", "battles/", "dispatches/", "simulator/", "mail/"):
        visit(f"/campaigns/demo/{path}")
    visit("/settings/")

    visit("/campaigns/demo/orders/")
    page.get_by_role("link", name="Lay down a ship").click()
    page.locator("input[name=class][value='frigate']").check()
    page.locator("#id_name").fill("Newcomer")
    page.get_by_role("button", name="Add the order").click()
    expect(page.locator(".message")).to_contain_text("Added order")
    visit("/campaigns/demo/")
    page.get_by_role("button", name="Mark ready").click()
    expect(page.locator("body")).to_contain_text(re.compile("ready", re.I))

    # Through the worker make run started (the filesystem broker), as a deadline would.
    summary = make_run.manage("resolve_turn", "demo", "--timeout", "90")
    assert "resolved" in summary.lower(), summary
    visit(f"/campaigns/demo/turns/{turn_number}/")
    expect(page.locator("body")).to_contain_text("Newcomer")

    page.context.clear_cookies()
    _login(page, base, "gm", make_run.logins["gm"])
    (campaign_id,) = make_run.sql("SELECT id FROM campaign_campaign WHERE slug = 'demo'")[0]
    visit(f"/admin/campaign/campaign/{campaign_id}/desk/")
    visit("/admin/")

    token = make_run.manage("api_token", "player-gb", "--name", "make-run test").strip().splitlines()[-1]
    for path in ("campaigns/", "campaigns/demo/zones/", "campaigns/demo/ports/", "campaigns/demo/fleets/"):
        request = urllib.request.Request(f"{base}/api/v1/{path}", headers={"Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert answer.status == 200, path
    assert errors == []


def test_the_development_server_keeps_no_connection_per_request(make_run: MakeRun) -> None:
    token = make_run.manage("api_token", "player-gb", "--name", "connections test").strip().splitlines()[-1]
    backends = "SELECT count(*) FROM pg_stat_activity WHERE datname = 'admiralty' AND pid <> pg_backend_pid()"

    def get() -> None:
        request = urllib.request.Request(
            f"{make_run.base}/api/v1/campaigns/demo/zones/", headers={"Authorization": f"Bearer {token}"}
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert answer.status == 200

    get()
    (before,) = make_run.sql(backends)[0]
    for _ in range(200):
        get()
    (after,) = make_run.sql(backends)[0]
    # The worker's children and beat keep theirs (one each, at most 3); each request's thread none.
    assert isinstance(before, int) and isinstance(after, int)
    assert after <= before + 1, f"{before} backends before 200 requests, {after} after"


def test_printed_links_follow_the_port(make_run: MakeRun) -> None:
    """SITE_URL defaults to http://127.0.0.1:$PORT: invite_player's printed link (built as the mail's
    are, campaign.mail.content.absolute) points at the port make run serves on, and answers there."""
    printed = make_run.manage("invite_player", "demo", "--nation", "US", "--email", "newcomer@example.org")
    link = re.search(r"https?://\S+", printed)
    assert link is not None, printed
    assert link.group(0).startswith(f"{make_run.base}/invitations/"), printed
    with urllib.request.urlopen(link.group(0), timeout=30) as answer:
        assert answer.status == 200


def test_ctrl_c_stops_every_process_make_run_started(make_run: MakeRun) -> None:
    server = make_run.database_server()
    started = make_run.descendants(server)
    assert server in started and len(started) >= 5, started  # script, worker, beat, runserver, database
    os.killpg(make_run.process.pid, signal.SIGINT)
    make_run.process.wait(timeout=60)
    deadline = time.monotonic() + 20
    while make_run.descendants(server) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = {}
    for pid in make_run.descendants(server):
        try:
            left[pid] = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")[:120]
        except OSError:
            continue
    assert left == {}, f"still running after Ctrl-C: {left}"
    assert not (make_run.var / "postgres" / "postmaster.pid").exists()


def test_a_second_make_run_skips_the_set_up_and_still_prints_the_logins(make_run: MakeRun) -> None:
    """The database is marked set up for these migrations (config/dev_database.py): the second start
    runs no setup_demo (a whole start of Django), prints the same logins, serves, and Ctrl-C stops it."""
    assert "database migrated, demo ready" in make_run.output()
    again = _start(make_run.var, _free_port(), make_run.var / "make-run-again.log")
    try:
        output = again.output()
        assert "database already migrated for these migrations, demo already loaded" in output, output[-3000:]
        assert "Demo campaign" not in output, output[-3000:]  # setup_demo's line: it did not run
        assert again.logins == make_run.logins, output[-3000:]
        assert again.sql("SELECT count(*) FROM campaign_campaign WHERE slug = 'demo'") == [(1,)]
    finally:
        _stop(again)
    assert not (make_run.var / "postgres" / "postmaster.pid").exists()
