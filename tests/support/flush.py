"""Emptying the test database after a transactional test (workers, browsers, live servers) by DELETE
instead of Django's one TRUNCATE of every table.

PostgreSQL's TRUNCATE gives each of the ~60 tables new files (table, indexes, TOAST) whether it holds
a row or not: about 0.6 to 2 s a test here, mostly spent on tables the test never wrote. A DELETE of
an empty or small table costs well under a millisecond. The database ends just as empty: every row of
every table Django lists is gone, and the foreign keys (all deferrable, as Django makes them) are
checked at the end of the flush's transaction, so a row left pointing at a deleted one still fails
loudly. Sequences are kept, as TRUNCATE without RESTART IDENTITY keeps them.

A table with a row trigger of ours (the append-only audit log refuses DELETE) is still truncated: a
TRUNCATE does not fire row triggers. Flushes that reset sequences or cascade keep Django's statement.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db.backends.postgresql.operations import DatabaseOperations

_truncate_every_table = DatabaseOperations.sql_flush


def _tables_with_row_triggers(operations: DatabaseOperations) -> set[str]:
    with operations.connection.cursor() as cursor:
        cursor.execute(
            "SELECT DISTINCT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal"
        )
        return {name for (name,) in cursor.fetchall()}


def sql_flush_by_delete(
    self: DatabaseOperations,
    style: Any,
    tables: list[str],
    *,
    reset_sequences: bool = False,
    allow_cascade: bool = False,
) -> list[str]:
    """``DatabaseOperations.sql_flush`` that deletes rather than truncates (see the module's docstring)."""
    if not tables or reset_sequences or allow_cascade:
        return _truncate_every_table(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
    guarded = _tables_with_row_triggers(self)
    statements = ["SET CONSTRAINTS ALL DEFERRED;"]
    truncated = [table for table in tables if table in guarded]
    if truncated:
        statements.append(f"TRUNCATE {', '.join(self.quote_name(table) for table in truncated)};")
    statements += [f"DELETE FROM {self.quote_name(table)};" for table in tables if table not in guarded]
    return statements


@contextmanager
def flush_by_delete() -> Iterator[None]:
    """While open, Django's flush (a transactional test's teardown) deletes rows instead of truncating."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(DatabaseOperations, "sql_flush", sql_flush_by_delete)
        yield
