"""Row counts of many tables in one query, for the tests that prove a refused request or import wrote
nothing: one ``count()`` a model was some forty round trips each time, and property tests take the
counts before and after every example."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection
from django.db.models import Model


def row_counts(models: Iterable[type[Model]]) -> tuple[tuple[str, int], ...]:
    """``(model label, rows in its table)`` for each model, in the order given."""
    models = list(models)
    if not models:
        return ()
    counts = ", ".join(f"(SELECT count(*) FROM {connection.ops.quote_name(m._meta.db_table)})" for m in models)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {counts}")
        row = cursor.fetchone()
    return tuple(zip((m._meta.label for m in models), row, strict=True))
