"""Played campaigns for the tests that only *read* one: played once, kept on disk, copied in.

``play`` is the golden test's campaign — europe-1805, seed 1805, three turns of every nation's
deterministic candidate orders. tests/golden plays it for real every run: it is the check that
playing gives that export. The tests that read a played campaign's pages or reports (the words scan,
the report texts) need the same rows but not the ~8 s of CPU it takes to play them again in every
process, so ``played(recipe)`` plays a recipe in the first pytest process that asks, writes the rows
it made under ~/.cache/admiralty/played/ (``PLAYED``, shared by the machine's checkouts), and every
other process (and later run, and fresh clone) copies them in. The file is named by a fingerprint
of everything that can change the result — the project's Python and data files
(the migrations too), the requirements, the recipe's module and this one — so a stale file is never
read: any change to those names another.

Why rows, not ``campaign_export``/``campaign_import``: an import gives the rows new ids but leaves
the ids quoted inside turn reports, phase summaries and battle reports as they were, and the export
leaves out rows the pages read (a battle's engagement, which lists the ships not in the line), so an
imported campaign shows players less than the played one. The rows of every table the recipe wrote
are copied as they were (PostgreSQL ``COPY``), ids included; the game's id sequences are put where
the play left them; and every time stamp is moved by the whole days since the play, so deadlines and
"resolved" times read as after a fresh play ("1 week left", never "0 minutes left").

``kept(recipe)`` is the same for any recipe, played or not (the fog world of the page tests, a
scenario just loaded): it returns what ``recipe()`` returned — a model, or dataclasses and tuples of
them — rebuilt from the copied rows by primary key; ``shift="exact"`` moves the time stamps by the
exact time since the recipe ran, so a world built "now" (a deadline a week away) reads as built now.
When the tables the recipe writes already hold rows (a test that made some first), the recipe runs
for real instead: the copied ids could collide with them.
"""

from __future__ import annotations

import dataclasses
import fcntl
import functools
import hashlib
import importlib
import inspect
import json
import os
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Literal, TypeVar, cast

from django.apps import apps
from django.core.management.color import no_style
from django.db import connection, transaction
from django.db.models import Model
from django.utils import timezone

from campaign.models import Campaign
from campaign.scenarios.loading import scenario_load
from tests.support.random_orders import resolve_open_turn, submit_random_orders

ROOT = Path(__file__).resolve().parents[2]
#: Where the rows are kept: per user, not per checkout, so that a fresh clone (CI's) copies in what any
#: checkout of the machine played from the same sources (the file's name is their fingerprint).
PLAYED = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "admiralty" / "played"
#: How many files of a recipe from other sources stay beside the current one.
KEEP_OTHER_SOURCES = 3
SEED = 1805
TURNS = 3
#: The apps whose rows a campaign is made of; their ids appear in the export.
GAME_APPS = ("campaign", "fleets", "ports", "battles")
#: Files inside the project's packages that can change a played campaign (code, migrations, scenario
#: data, schemas); templates and static files cannot.
SOURCE_SUFFIXES = (".py", ".json", ".csv")
#: The tables a recipe's rows go into besides the game's: a world's players.
USER_TABLES = ("auth_user",)

T = TypeVar("T")


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
    at 1 first), copied in from ``PLAYED`` — the first process to ask plays it and writes it, under a
    lock, so the others wait for it rather than play it too. The recipe must not depend on rows that
    exist before it runs, nor on the time (it may have been played hours ago)."""
    return kept(recipe)


def kept(recipe: Callable[[], T], *, shift: Literal["days", "exact"] = "days", fresh_ids: bool = False) -> T:
    """What ``recipe()`` returns, its rows copied in from ``PLAYED`` as ``played`` does (written by
    the first process to ask), its models fetched again by primary key. The time stamps move by the
    whole days since the recipe ran (``"days"``: a played campaign's deadlines stay on the ruleset's
    hour) or by the exact time (``"exact"``: a world built with ``timezone.now()``). ``fresh_ids``
    gives every row a new id from its table's sequence, as a build would (for a recipe whose rows
    quote no ids inside their JSON): a copy at the same ids test after test leaves PostgreSQL dead
    versions of those keys to wade through. The recipe runs for real when game or user rows exist
    already, or its tables hold rows."""
    path, lock_path = _files(recipe)
    rows = _rows_read.get(path)
    if rows is None:
        with open(lock_path, "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if path.exists():
                rows = json.loads(path.read_text(encoding="utf-8"))
            else:
                if _rows_exist(_game_tables()):
                    return recipe()
                rows = _rows_played(recipe)
                if rows is None:
                    return recipe()
                _rows_write(path, rows)
        _rows_read[path] = rows
    if _rows_exist([*_game_tables(), *(t["table"] for t in rows["tables"])]):
        return recipe()
    ids = _rows_copy_in(rows, shift, fresh_ids)
    return cast(T, _handles_rebuilt(rows["handles"], ids))


#: The rows of each file this process read: a file is never rewritten under the same name.
_rows_read: dict[Path, dict[str, Any]] = {}


def played_for_real(recipe: Callable[[], Campaign]) -> Campaign:
    """``recipe()`` played in this test, always (the golden test is the check that playing gives its
    export); when no file holds its rows yet, they are written on the way, under the lock, so a test
    that asks ``played(recipe)`` while this one plays (the words scan, handed out after the golden test
    in the same run) waits for them rather than plays the campaign a second time in its own process."""
    path, lock_path = _files(recipe)
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.exists() and not _rows_exist(_game_tables()):
            rows = _rows_played(recipe, keep=True)
            if rows is not None:
                _rows_write(path, rows)
                return Campaign.objects.get(pk=rows["handles"]["pk"])
    return recipe()


def _game_tables() -> list[str]:
    """The game's tables and the users': a recipe's copied ids could collide with rows in them."""
    return [*(m._meta.db_table for app in GAME_APPS for m in apps.get_app_config(app).get_models()), *USER_TABLES]


def _rows_exist(tables: list[str]) -> bool:
    if not tables:
        return False
    quote = connection.ops.quote_name
    found = " OR ".join(f"EXISTS (SELECT 1 FROM {quote(t)})" for t in sorted(set(tables)))
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {found}")
        row = cursor.fetchone()
    return bool(row and row[0])


def _handles(value: Any) -> Any:
    """``value`` as JSON that ``_handles_rebuilt`` turns back into it: models by label and primary
    key, dataclasses field by field, tuples, lists, dicts and plain values as they are."""
    if isinstance(value, Model):
        return {"model": value._meta.label_lower, "pk": value.pk}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        kind = type(value)
        fields = {f.name: _handles(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"dataclass": f"{kind.__module__}:{kind.__qualname__}", "fields": fields}
    if isinstance(value, tuple):
        return {"tuple": [_handles(v) for v in value]}
    if isinstance(value, list):
        return {"list": [_handles(v) for v in value]}
    if isinstance(value, dict):
        assert all(isinstance(k, str) for k in value), "only a dict with str keys can be kept"
        return {"dict": {k: _handles(v) for k, v in value.items()}}
    assert value is None or isinstance(value, (str, int, float, bool)), f"cannot keep a {type(value)}"
    return {"value": value}


def _handles_rebuilt(handles: Any, ids: dict[str, dict[str, str]]) -> Any:
    """The values ``_handles`` described, each model fetched once (one query a model class), so
    two handles on the same row are the same object, as they were in the recipe; a row by the new
    id ``ids`` gives it (by table, then old id)."""
    wanted: dict[str, set[Any]] = {}

    def pk(h: dict[str, Any]) -> Any:
        new = ids.get(apps.get_model(h["model"])._meta.db_table, {}).get(str(h["pk"]))
        return h["pk"] if new is None else int(new)

    def collect(h: dict[str, Any]) -> None:
        if "model" in h:
            wanted.setdefault(h["model"], set()).add(pk(h))
        for child in h.get("tuple", h.get("list", [])):
            collect(child)
        for child in h.get("fields", h.get("dict", {})).values():
            collect(child)

    collect(handles)
    fetched = {label: apps.get_model(label)._default_manager.in_bulk(pks) for label, pks in wanted.items()}

    def build(h: dict[str, Any]) -> Any:
        if "model" in h:
            return fetched[h["model"]][pk(h)]
        if "dataclass" in h:
            module, name = h["dataclass"].split(":")
            kind = getattr(importlib.import_module(module), name)
            return kind(**{k: build(v) for k, v in h["fields"].items()})
        if "tuple" in h:
            return tuple(build(v) for v in h["tuple"])
        if "list" in h:
            return [build(v) for v in h["list"]]
        if "dict" in h:
            return {k: build(v) for k, v in h["dict"].items()}
        return h["value"]

    return build(handles)


@functools.cache
def _files(recipe: Callable[[], Any]) -> tuple[Path, Path]:
    """Where ``recipe``'s rows are kept for the sources as they are now, and its lock file: worked out
    once a process (the digest reads every source file, 0.02 s; they do not change during a run)."""
    folder = PLAYED
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{recipe.__module__}.{recipe.__qualname__}".replace("<", "").replace(">", "")
    return folder / f"{name}-{_fingerprint(recipe)}.json", folder / f"{name}.lock"


def _rows_write(path: Path, rows: dict[str, Any]) -> None:
    """The rows written whole or not at all (even if this process dies writing them); the files of
    the same recipe from other sources go but the newest few (other checkouts of the machine)."""
    others = sorted(path.parent.glob(f"{path.name.rsplit('-', 1)[0]}-*.json"), key=lambda p: p.stat().st_mtime)
    # Other checkouts of the machine (branches, CI's clone) may still read the newest few.
    for old in others[:-KEEP_OTHER_SOURCES] if KEEP_OTHER_SOURCES else others:
        old.unlink(missing_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.tmp")
    partial.write_text(json.dumps(rows), encoding="utf-8")
    partial.rename(path)


def _fingerprint(recipe: Callable[[], Any]) -> str:
    """A digest of every file that can change what ``recipe`` gives: the Python and data files of the
    project's packages (tests and bench aside), the pinned requirements, the recipe's module and the
    tests' helper modules (every one not a test file: the worlds, the factories, this one; the
    database's rows are written in the migrations' schema, also hashed)."""
    files = {ROOT / "requirements.txt", Path(__file__), Path(inspect.getfile(recipe))}
    files.update(p for p in (ROOT / "tests").rglob("*.py") if not p.name.startswith(("test_", "conftest")))
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


def _references() -> dict[str, dict[str, str]]:
    """Each table's columns that hold another table's id (its foreign keys), with that table."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.conrelid::regclass::text, a.attname, c.confrelid::regclass::text FROM pg_constraint c"
            " JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)"
            " WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace ORDER BY 1, 2"
        )
        found: dict[str, dict[str, str]] = {}
        for table, column, target in cursor.fetchall():
            found.setdefault(table, {})[column] = target
    return found


def _sequence(table: str) -> str | None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_get_serial_sequence(%s, a.attname) FROM pg_attribute a WHERE a.attrelid = %s::regclass"
            " AND a.attnum > 0 AND pg_get_serial_sequence(%s, a.attname) IS NOT NULL LIMIT 1",
            [table, connection.ops.quote_name(table), table],
        )
        row = cursor.fetchone()
    return row[0] if row else None


def _rows_played(recipe: Callable[[], Any], keep: bool = False) -> dict[str, Any] | None:
    """Every row ``recipe`` writes, table by table, in COPY's text format, with the time it was played,
    where it left the id sequences and the handles on what it returned; what it wrote is rolled back
    unless ``keep``. None (and nothing kept) when it wrote into a table that held rows before it."""
    tables = _tables()
    before = _row_counts(tables)
    with transaction.atomic():
        restart_game_id_sequences()
        made = recipe()
        played_at = timezone.now()
        after = _row_counts(tables)
        written = [t for t in tables if after[t] != before[t]]
        # Only rows a table did not hold before can be told apart from the database's own.
        if any(before[t] for t in written):
            transaction.set_rollback(True)
            return None
        out: list[dict[str, Any]] = []
        references = _references()
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
                out[-1]["references"] = references.get(table, {})
                out[-1] |= {"sequence": sequence, "at": position}
        transaction.set_rollback(not keep)
    return {"handles": _handles(made), "played_at": played_at.isoformat(), "tables": out}


def _rows_copy_in(
    rows: dict[str, Any], shift: Literal["days", "exact"] = "days", fresh_ids: bool = False
) -> dict[str, dict[str, str]]:
    """Write the rows ``_rows_played`` read, time stamps moved by the days (or exact time) since the
    play, users under new ids (returned, by their old ones); the game's sequences where the play left
    them, the others past the ids copied in."""
    since = timezone.now() - datetime.fromisoformat(rows["played_at"])
    # Whole days: a deadline falls on the ruleset's hour of the day, as after a real play.
    moved_by = since if shift == "exact" else timedelta(days=round(since / timedelta(days=1)))
    game_tables = set(_game_tables()) - set(USER_TABLES)
    quote = connection.ops.quote_name
    sequences: list[str] = []
    values: list[Any] = []
    # In one transaction even in a test without one (a live server's): the foreign keys are checked
    # at its end, so the tables may be copied in any order.
    with transaction.atomic(), connection.cursor() as cursor:
        ids = _ids_new(cursor, rows, every=fresh_ids)
        for t in rows["tables"]:
            names = ", ".join(quote(c) for c in t["columns"])
            with cursor.copy(f"COPY {quote(t['table'])} ({names}) FROM STDIN") as copy:
                copy.write(_rows_moved(t, moved_by, ids))
            if t["table"] in ids:
                continue  # its sequence moved past the new ids already
            if t["sequence"] is not None:
                last, called = t["at"]
                if t["table"] in game_tables:
                    sequences.append("setval(%s, %s, %s)")
                else:
                    sequences.append(f"setval(%s, GREATEST(%s, (SELECT last_value FROM {t['sequence']})), %s)")
                values += [t["sequence"], last, called]
        if sequences:
            cursor.execute(f"SELECT {', '.join(sequences)}", values)
        # The foreign keys are checked now rather than never (the test's transaction is rolled back).
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE; SET CONSTRAINTS ALL DEFERRED")
    return ids


def _ids_new(cursor: Any, rows: dict[str, Any], every: bool) -> dict[str, dict[str, str]]:
    """New ids for the rows copied in — the users' always, every table's if ``every`` — taken from
    each table's sequence as a build would take them, by table and old id (in the same order). A
    user's id is never the same twice: the API's throttle counts a user's requests by id in the
    cache, across tests, and a copy's users would otherwise inherit the last test's requests."""
    tables = [t for t in rows["tables"] if t["sequence"] is not None and (every or t["table"] == "auth_user")]
    if not tables:
        return {}
    old = {}
    for t in tables:
        at = t["columns"].index("id")
        old[t["table"]] = sorted(int(line.split("\t")[at]) for line in t["data"].split("\n") if line)
    blocks = ", ".join(f"setval('{t['sequence']}', nextval('{t['sequence']}') + %s - 1)" for t in tables)
    cursor.execute(f"SELECT {blocks}", [len(old[t["table"]]) for t in tables])
    ids: dict[str, dict[str, str]] = {}
    for t, last in zip(tables, cursor.fetchone(), strict=True):
        first = last - len(old[t["table"]]) + 1
        ids[t["table"]] = {str(o): str(first + n) for n, o in enumerate(old[t["table"]])}
    return ids


def _rows_moved(table: dict[str, Any], by: timedelta, ids: dict[str, dict[str, str]]) -> str:
    """COPY's text rows of ``table`` with every time stamp moved ``by`` and every id (its own, and
    those its foreign keys hold) changed as ``ids`` says. Moved here rather than by an UPDATE in the
    database: the audit log's trigger refuses UPDATEs, and a temporary table for each table to move
    them in cost PostgreSQL more than the copy itself."""
    columns, data = table["columns"], table["data"]
    times = [columns.index(c) for c in table["times"]] if by else []
    targets = {"id": table["table"], **table["references"]}
    changed = [(columns.index(c), ids[target]) for c, target in targets.items() if target in ids and c in columns]
    if not times and not changed:
        return cast(str, data)
    lines = data.split("\n")
    for n, line in enumerate(lines):
        if not line:
            continue
        fields = line.split("\t")
        for i in times:
            if fields[i] != "\\N":
                fields[i] = (datetime.fromisoformat(fields[i]) + by).isoformat(sep=" ")
        for i, new in changed:
            fields[i] = new.get(fields[i], fields[i])
        lines[n] = "\t".join(fields)
    return "\n".join(lines)
