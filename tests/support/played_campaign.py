"""Played campaigns for the tests that only *read* one: played once, kept on disk, copied in.

``play`` is the golden test's campaign — europe-1805, seed 1805, three turns of every nation's
deterministic candidate orders. tests/golden plays it for real every run: it is the check that
playing gives that export. The tests that read a played campaign's pages or reports (the words scan,
the report texts) need the same rows but not the ~8 s of CPU it takes to play them again in every
process, so ``played(recipe)`` plays a recipe in the first pytest process that asks, writes the rows
it made under var/played/, and every other process (and later run) copies them in. The file is named
by a fingerprint of everything that can change the result — the project's Python and data files
(the migrations too), the requirements, the recipe's module and this one — so a stale file is never
read: any change to those names another.

Why rows, not ``campaign_export``/``campaign_import``: an import gives the rows new ids but leaves
the ids quoted inside turn reports, phase summaries and battle reports as they were, and the export
leaves out rows the pages read (a battle's engagement, which lists the ships not in the line), so an
imported campaign shows players less than the played one. The rows of every table the recipe wrote
are copied as they were (PostgreSQL ``COPY``), ids included; the game's id sequences are put where
the play left them; and every time stamp is moved by the whole days since the play, so deadlines and
"resolved" times read as after a fresh play ("1 week left", never "0 minutes left").
"""

from __future__ import annotations

import fcntl
import hashlib
import inspect
import json
import os
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from django.apps import apps
from django.core.management.color import no_style
from django.db import connection, transaction
from django.utils import timezone

from campaign.models import Campaign
from campaign.scenario import scenario_load
from tests.support.random_orders import resolve_open_turn, submit_random_orders

ROOT = Path(__file__).resolve().parents[2]
SEED = 1805
TURNS = 3
#: The apps whose rows a campaign is made of; their ids appear in the export.
GAME_APPS = ("campaign", "fleets", "ports", "battles")
#: Files inside the project's packages that can change a played campaign (code, migrations, scenario
#: data, schemas); templates and static files cannot.
SOURCE_SUFFIXES = (".py", ".json", ".csv")


def restart_game_id_sequences() -> None:
    """Every game table's next id back to 1, so ids do not depend on the tests run before."""
    tables = [
        {"table": model._meta.db_table, "column": model._meta.pk.column}
        for app in GAME_APPS
        for model in apps.get_app_config(app).get_models()
        if model._meta.pk is not None and model._meta.pk.get_internal_type() in ("AutoField", "BigAutoField")
    ]
    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_by_name_sql(no_style(), tables):
            cursor.execute(statement)


def play() -> Campaign:
    """europe-1805 played for three turns with every nation's candidate orders, resolved inline."""
    restart_game_id_sequences()
    campaign = scenario_load(name="europe-1805", slug="golden", seed=SEED)
    for number in range(1, TURNS + 1):
        submit_random_orders(campaign)
        assert resolve_open_turn(campaign).number == number
    return campaign


def played(recipe: Callable[[], Campaign]) -> Campaign:
    """The campaign ``recipe()`` makes (from empty game tables, with the game's id sequences restarted
    at 1 first), copied in from var/played/ — the first process to ask plays it and writes it, under a
    lock, so the others wait for it rather than play it too. The recipe must not depend on rows that
    exist before it runs, nor on the time (it may have been played hours ago)."""
    path, lock_path = _files(recipe)
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if path.exists():
            rows = json.loads(path.read_text(encoding="utf-8"))
        else:
            rows = _rows_played(recipe)
            _rows_write(path, rows)
    _rows_copy_in(rows)
    return Campaign.objects.get(pk=rows["campaign"])


def played_for_real(recipe: Callable[[], Campaign]) -> Campaign:
    """``recipe()`` played in this test, always (the golden test is the check that playing gives its
    export); when no file holds its rows yet, they are written on the way, under the lock, so a test
    that asks ``played(recipe)`` while this one plays (the words scan, handed out after the golden test
    in the same run) waits for them rather than plays the campaign a second time in its own process."""
    path, lock_path = _files(recipe)
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.exists():
            rows = _rows_played(recipe, keep=True)
            _rows_write(path, rows)
            return Campaign.objects.get(pk=rows["campaign"])
    return recipe()


def _files(recipe: Callable[[], Campaign]) -> tuple[Path, Path]:
    """Where ``recipe``'s rows are kept for the sources as they are now, and its lock file."""
    folder = ROOT / "var" / "played"
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{recipe.__module__}.{recipe.__qualname__}".replace("<", "").replace(">", "")
    return folder / f"{name}-{_fingerprint(recipe)}.json", folder / f"{name}.lock"


def _rows_write(path: Path, rows: dict[str, Any]) -> None:
    """The rows written whole or not at all (even if this process dies writing them); the files of
    the same recipe from other sources go, never to be read again."""
    for old in path.parent.glob(f"{path.name.rsplit('-', 1)[0]}-*.json"):
        old.unlink()
    partial = path.with_suffix(f".{os.getpid()}.tmp")
    partial.write_text(json.dumps(rows), encoding="utf-8")
    partial.rename(path)


def _fingerprint(recipe: Callable[[], Campaign]) -> str:
    """A digest of every file that can change what ``recipe`` gives: the Python and data files of the
    project's packages (tests and bench aside), the pinned requirements, the recipe's module, this
    module and the orders' (the database's rows are written in the migrations' schema, also hashed)."""
    files = {ROOT / "requirements.txt", Path(__file__), ROOT / "tests" / "support" / "random_orders.py"}
    files.add(Path(inspect.getfile(recipe)))
    for package in (p.parent for p in ROOT.glob("*/__init__.py")):
        if package.name not in ("tests", "bench"):
            files.update(p for p in package.rglob("*") if p.suffix in SOURCE_SUFFIXES and "__pycache__" not in p.parts)
    digest = hashlib.sha1()
    for path in sorted(files):
        digest.update(path.resolve().relative_to(ROOT).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _tables() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace ORDER BY 1"
        )
        return [name for (name,) in cursor.fetchall()]


def _row_counts(tables: list[str]) -> dict[str, int]:
    counts = ", ".join(f"(SELECT count(*) FROM {connection.ops.quote_name(t)})" for t in tables)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {counts}")
        return dict(zip(tables, cursor.fetchone() or (), strict=True))


def _columns(table: str) -> tuple[list[str], list[str]]:
    """The table's columns that can be written (not generated), and those that are time stamps."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'public' AND"
            " table_name = %s AND is_generated = 'NEVER' ORDER BY ordinal_position",
            [table],
        )
        found = cursor.fetchall()
    return [c for c, _ in found], [c for c, kind in found if kind == "timestamp with time zone"]


def _sequence(table: str) -> str | None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_get_serial_sequence(%s, a.attname) FROM pg_attribute a WHERE a.attrelid = %s::regclass"
            " AND a.attnum > 0 AND pg_get_serial_sequence(%s, a.attname) IS NOT NULL LIMIT 1",
            [table, connection.ops.quote_name(table), table],
        )
        row = cursor.fetchone()
    return row[0] if row else None


def _rows_played(recipe: Callable[[], Campaign], keep: bool = False) -> dict[str, Any]:
    """Every row ``recipe`` writes, table by table, in COPY's text format, with the time it was played
    and where it left the id sequences; what it wrote is rolled back unless ``keep``."""
    tables = _tables()
    before = _row_counts(tables)
    with transaction.atomic():
        restart_game_id_sequences()
        campaign = recipe()
        played_at = timezone.now()
        after = _row_counts(tables)
        written = [t for t in tables if after[t] != before[t]]
        # Only rows a table did not hold before can be told apart from the database's own.
        held = [t for t in written if before[t]]
        assert not held, f"the recipe wrote into tables that held rows before it: {held}"
        out: list[dict[str, Any]] = []
        with connection.cursor() as cursor:
            for table in written:
                columns, times = _columns(table)
                names = ", ".join(connection.ops.quote_name(c) for c in columns)
                with cursor.copy(f"COPY {connection.ops.quote_name(table)} ({names}) TO STDOUT") as copy:
                    data = b"".join(bytes(block) for block in copy).decode()
                sequence = _sequence(table)
                position = None
                if sequence is not None:
                    cursor.execute(f"SELECT last_value, is_called FROM {sequence}")
                    position = list(cursor.fetchone() or ())
                out.append({"table": table, "columns": columns, "times": times, "data": data})
                out[-1] |= {"sequence": sequence, "at": position}
        transaction.set_rollback(not keep)
    return {"campaign": campaign.pk, "played_at": played_at.isoformat(), "tables": out}


def _rows_copy_in(rows: dict[str, Any]) -> None:
    """Write the rows ``_rows_played`` read, time stamps moved by the days since the play; the game's
    sequences where the play left them, the others past the ids copied in."""
    # Whole days: a deadline falls on the ruleset's hour of the day, as after a real play.
    days = round((timezone.now() - datetime.fromisoformat(rows["played_at"])) / timedelta(days=1))
    game_tables = {m._meta.db_table for app in GAME_APPS for m in apps.get_app_config(app).get_models()}
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        for t in rows["tables"]:
            names = ", ".join(quote(c) for c in t["columns"])
            target = quote(t["table"])
            if t["times"]:
                # Through a copy of the table's shape: the audit log's trigger refuses UPDATEs.
                cursor.execute(f"CREATE TEMPORARY TABLE played_rows AS SELECT {names} FROM {target} WITH NO DATA")
                target = "played_rows"
            with cursor.copy(f"COPY {target} ({names}) FROM STDIN") as copy:
                copy.write(t["data"])
            if t["times"]:
                moved = ", ".join(f"{quote(c)} = {quote(c)} + %s * interval '1 day'" for c in t["times"])
                cursor.execute(f"UPDATE played_rows SET {moved}", [days] * len(t["times"]))
                cursor.execute(f"INSERT INTO {quote(t['table'])} ({names}) SELECT {names} FROM played_rows")
                cursor.execute("DROP TABLE played_rows")
            if t["sequence"] is not None:
                last, called = t["at"]
                if t["table"] not in game_tables:
                    cursor.execute(f"SELECT last_value FROM {t['sequence']}")
                    last = max(last, cursor.fetchone()[0])
                cursor.execute("SELECT setval(%s, %s, %s)", [t["sequence"], last, called])
        # The foreign keys are checked now rather than never (the test's transaction is rolled back).
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
