"""Suite-wide fixtures. Tests run against PostgreSQL and Redis on 127.0.0.1 (config.settings.test)."""

from __future__ import annotations

import contextlib
import gc
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings as hypothesis_settings

from tests.support.flush import flush_by_delete
from tests.web.fog_worlds import FogWorld, fog_world

# pytest rewrites the asserts of every test module as it imports it and keeps the result in
# __pycache__, unless bytecode writing is off: this machine sets PYTHONDONTWRITEBYTECODE=1, so every
# pytest process (three under xdist) rewrote all test modules on every run, 10.6 s of CPU to collect
# instead of 5.1 s. The cache is gitignored; the subprocesses tests start keep the environment's setting.
sys.dont_write_bytecode = False

# Playwright's sync API keeps an event loop running in the test thread; without this every ORM
# call after the first browser test raises SynchronousOnlyOperation (STACK.md).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ROOT = Path(__file__).resolve().parent.parent

# No time limit on a Hypothesis example anywhere (its default is 200 ms): three test processes share
# two cores with workers, Chromium and PostgreSQL, so an example of a pure rule can wait that long
# for a core, and Hypothesis then fails the test as having "unreliable timings". Speed is measured
# by `make bench`, never by a test.
hypothesis_settings.register_profile("admiralty", deadline=None)
hypothesis_settings.load_profile("admiralty")


class WorkerProcess:
    """A real ``celery worker`` subprocess on the test database and the test Redis."""

    def __init__(self, database_url: str, name: str, extra_env: dict[str, str]) -> None:
        from django.conf import settings

        self.nodename = f"{name}@{os.uname().nodename}"
        self.terminating = False
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DATABASE_URL": database_url,
            # The worker consumes every queue (turns, battles, mail) of this pytest process.
            "CELERY_QUEUE_PREFIX": settings.CELERY_QUEUE_PREFIX,
            # Bytecode written (this machine sets PYTHONDONTWRITEBYTECODE=1): the first worker of a
            # fresh checkout compiles the project's modules and the later ones (about twenty a run)
            # read them, 0.3 s of CPU less each.
            "PYTHONDONTWRITEBYTECODE": "",
            **extra_env,
        }
        self.log = open(ROOT / "var" / f"{name}.log", "w")  # noqa: SIM115 — closed in stop()
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool=solo",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "--loglevel=INFO",
                "-n",
                self.nodename,
            ],
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def wait_ready(self, timeout: float = 30.0) -> None:
        from config.celery import app

        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.process.poll() is not None:
                raise RuntimeError(f"worker exited early; see var/{self.log.name}")
            # Short: a ping sent before the worker listens is lost, and the next goes only when
            # this one's wait is over (an answer ends the wait at once).
            if app.control.ping(destination=[self.nodename], timeout=0.1):
                return
        raise RuntimeError(f"worker {self.nodename} did not answer within {timeout} s")

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(10)

    def terminate(self) -> None:
        """Ask once for a warm shutdown (the task in hand finishes) without waiting for it."""
        if self.process.poll() is None and not self.terminating:
            self.process.terminate()
            self.terminating = True

    def stop(self) -> None:
        if self.process.poll() is None:
            self.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.log.close()


@pytest.fixture
def start_worker(django_db_setup: None, django_db_blocker: object) -> Iterator[object]:
    """Start real Celery workers on the test database: ``start_worker(name, **env)``; all stopped after."""
    from django.db import connection

    from config.celery import app

    (ROOT / "var").mkdir(exist_ok=True)
    app.control.purge()
    database = connection.settings_dict
    user, host, port = database["USER"] or "postgres", database["HOST"] or "127.0.0.1", database["PORT"] or 5432
    url = f"postgres://{user}@{host}:{port}/{database['NAME']}"
    workers: list[WorkerProcess] = []

    def start(name: str = "worker", **env: str) -> WorkerProcess:
        worker = WorkerProcess(url, f"test-{name}-{os.getpid()}", env)
        workers.append(worker)
        worker.wait_ready()
        return worker

    yield start
    # A warm shutdown takes about a second of waiting: every worker is told at once, then awaited.
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.stop()
    app.control.purge()


class SMTPInbox:
    """Messages received by a real SMTP server (aiosmtpd) running for the test."""

    def __init__(self) -> None:
        self.messages: list[object] = []

    async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
        import email

        message = email.message_from_bytes(envelope.content)  # type: ignore[attr-defined]
        message["X-Envelope-To"] = ", ".join(envelope.rcpt_tos)  # type: ignore[attr-defined]
        self.messages.append(message)
        return "250 Message accepted for delivery"


class SMTPServer:
    """A real SMTP server (aiosmtpd) on a fixed port of 127.0.0.1 that a test can stop and start again
    (a mail provider's outage); ``inbox`` keeps what it received across restarts."""

    def __init__(self) -> None:
        import socket

        # The port stays ours while the server is down: a socket bound to it but not listening
        # (so a connection is refused, as from a stopped mail server) keeps other test processes'
        # servers, which ask for any free port, from taking it. SO_REUSEADDR on both lets the
        # server's own listening socket bind beside it.
        self._reserved = socket.socket()
        self._reserved.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._reserved.bind(("127.0.0.1", 0))
        self.port: int = self._reserved.getsockname()[1]
        self.inbox = SMTPInbox()
        self._controller: Any = None

    def start(self) -> None:
        from aiosmtpd.controller import Controller

        self._controller = Controller(self.inbox, hostname="127.0.0.1", port=self.port)
        self._controller.start()

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    def close(self) -> None:
        """Stop the server and give its port back."""
        self.stop()
        self._reserved.close()

    @property
    def worker_env(self) -> dict[str, str]:
        """What a worker needs (``start_worker(**server.worker_env)``) to send its mail here."""
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": "127.0.0.1",
            "EMAIL_PORT": str(self.port),
            "EMAIL_USE_TLS": "false",
            "EMAIL_TIMEOUT": "5",
        }


@pytest.fixture
def smtp_server(settings: Any) -> Iterator[SMTPServer]:
    """A real SMTP server, started, with Django's SMTP backend pointed at it; ``stop()``/``start()``
    it to play an outage."""
    server = SMTPServer()
    server.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = server.port
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_TIMEOUT = 5
    yield server
    server.close()


@pytest.fixture
def smtp_inbox(smtp_server: SMTPServer) -> SMTPInbox:
    """The messages a real SMTP server on 127.0.0.1 received (Django's SMTP backend points at it)."""
    return smtp_server.inbox


#: Markers of tests that take seconds each: an xdist process starts them first (see below).
LONG_RUNNING = ("slow", "worker", "browser")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist, the long tests first: the scheduler hands tests out in collection order,
    and a two-minute test handed out last would leave the other processes idle while it runs.

    Every xdist process collects the same list and sorts it the same way (a stable sort on a
    marker), as xdist requires; a plain ``pytest`` run keeps the files' order.
    """
    if os.environ.get("PYTEST_XDIST_WORKER"):
        items.sort(key=lambda item: not any(item.get_closest_marker(name) for name in LONG_RUNNING))


def pytest_collection_finish(session: pytest.Session) -> None:
    """Fewer garbage collections: what is loaded by now (Django, the apps, the test modules: several
    hundred thousand objects) lives as long as the process, so it is frozen out of the collector's
    reach, and the youngest generation is collected every 10,000 allocations rather than 700. The
    ORM makes objects by the hundred thousand in a played campaign; the collector took 3.2 s of the
    30 s of CPU of the fuzz and order-page tests, and 0.8 s after this."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 100)


@pytest.fixture(scope="session", autouse=True)
def _test_database_dropped_by_force(django_db_setup: None) -> Iterator[None]:
    """The test database is dropped WITH (FORCE) at the end: under xdist a process sometimes still
    holds an idle second session on it then (not one of Django's connections of this thread: closing
    those and collecting garbage first did not help), PostgreSQL refused the plain DROP ("being
    accessed by other users") and every such run left a database of about 35 MB behind."""
    yield
    from django.db import connection

    def destroy(test_database_name: str, verbosity: int) -> None:
        with connection._nodb_cursor() as cursor:
            cursor.execute(f"DROP DATABASE IF EXISTS {connection.ops.quote_name(test_database_name)} WITH (FORCE)")

    # Django's creation drops it (DatabaseCreation._destroy_test_db); the same, with FORCE.
    setattr(connection.creation, "_destroy_test_db", destroy)  # noqa: B010 — not in Django's stubs


@pytest.fixture(scope="session", autouse=True)
def _flush_by_delete() -> Iterator[None]:
    """A transactional test's teardown empties the database by DELETE, not TRUNCATE
    (tests/support/flush.py): about 1 s less per worker, browser and live-server test."""
    with flush_by_delete():
        yield


@pytest.fixture
def fw() -> FogWorld:
    """The players' campaign of tests/web/fog_worlds.py (fog of war, past turns, reports), for the
    page and API tests; the test's ``django_db`` mark gives it the database."""
    return fog_world()


def _migrations_fingerprint() -> str:
    """What the migrated schema depends on: our migrations and the pinned packages (theirs)."""
    import hashlib

    digest = hashlib.sha1()
    for path in sorted(ROOT.glob("*/migrations/*.py")):
        digest.update(path.relative_to(ROOT).as_posix().encode())
        digest.update(path.read_bytes())
    digest.update((ROOT / "requirements.txt").read_bytes())
    return digest.hexdigest()[:16]


def _template_database_ensure(settings_dict: dict[str, Any]) -> str:
    """A migrated database to copy each test database from (``CREATE DATABASE … TEMPLATE``), made once
    per set of migrations: every pytest process would otherwise run all migrations itself (about 8 s
    of CPU each). The process that finds it missing makes it under an advisory lock; the others wait."""
    import psycopg

    name = f"admiralty_tmpl_{_migrations_fingerprint()}"
    server = (
        f"{settings_dict['USER'] or 'postgres'}@{settings_dict['HOST'] or '127.0.0.1'}:{settings_dict['PORT'] or 5432}"
    )
    maintenance = f"postgresql://{server}/postgres"
    with psycopg.connect(maintenance, autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(1805001)")
        try:
            if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
                return name
            # Other checkouts (branches with other migrations) keep theirs; only the oldest go.
            older = conn.execute(
                "SELECT datname FROM pg_database WHERE datname LIKE 'admiralty_tmpl_%' ORDER BY oid DESC OFFSET 4"
            ).fetchall()
            for (old,) in older:
                # One being copied right now by another run goes next time.
                with contextlib.suppress(psycopg.errors.ObjectInUse):
                    conn.execute(f'DROP DATABASE IF EXISTS "{old}"')
            building = f"{name}_building"
            conn.execute(f'DROP DATABASE IF EXISTS "{building}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{building}"')
            url = f"postgres://{server}/{building}"
            env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "config.settings.test"}
            subprocess.run(
                [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"], cwd=ROOT, env=env, check=True
            )
            # Renamed only once complete: a run killed half-way leaves no half-migrated template.
            conn.execute(f'ALTER DATABASE "{building}" RENAME TO "{name}"')
            return name
        finally:
            conn.execute("SELECT pg_advisory_unlock(1805001)")


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix: None) -> None:
    """Each test database is copied from the migrated template; Django's migrate then finds nothing
    left to apply."""
    from django.conf import settings

    default = settings.DATABASES["default"]
    if default["ENGINE"].endswith("postgresql"):
        default.setdefault("TEST", {})["TEMPLATE"] = _template_database_ensure(default)
