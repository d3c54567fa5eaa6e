"""Writing many rows' fields in one UPDATE, grouped by value — instead of Django's ``bulk_update``.

``bulk_update`` builds a ``WHEN id = … THEN …`` (and, on PostgreSQL, a cast that Django deep-copies)
for every row and field: for a phase's fleets or a fight's ships, building that statement cost more
than running it. The rows a turn writes together share few values (a zone, a fleet, a condition),
so :func:`rows_update` groups the ids by value — ``CASE WHEN id IN (…) THEN v … ELSE <the value most
rows have>`` per field, or a plain ``SET f = v`` when every row has the same — and the statement stays
small whatever the rows.
Used by the turn (fleets, ships) and by battle results; it lives here, the rightmost app that has
those models, so that both may import it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection
from django.db.models import Case, Field, Model, Value, When
from django.db.models.functions import Cast


def rows_update(model: type[Model], rows: Sequence[Model], fields: Iterable[str]) -> None:
    """One UPDATE setting ``fields`` of ``rows`` (instances of ``model``) to their values in memory.

    The fields' values must be hashable (columns and foreign keys, not JSON). Nothing is sent for no rows.
    """
    if not rows:
        return
    casting = connection.features.requires_casted_case_in_updates
    values: dict[str, Any] = {}
    for name in dict.fromkeys(fields):
        field = model._meta.get_field(name)
        assert isinstance(field, Field)  # a concrete column, never a reverse relation
        ids_by_value: dict[Any, list[Any]] = defaultdict(list)
        for row in rows:
            ids_by_value[getattr(row, field.attname)].append(row.pk)
        # The value most rows share is the CASE's ELSE (every row updated is one of ``rows``): only the
        # others' ids are listed, and compiling each listed id is most of the statement's cost.
        common = max(ids_by_value, key=lambda value: len(ids_by_value[value]))
        commons = ids_by_value[common]
        if len(ids_by_value) == 1:
            values[field.attname] = Value(common, output_field=field)
            continue
        case = Case(
            *(
                When(pk__in=ids, then=Value(value, output_field=field))
                for value, ids in ids_by_value.items()
                if ids is not commons
            ),
            default=Value(common, output_field=field),
            output_field=field,
        )
        values[field.attname] = Cast(case, output_field=field) if casting else case
    model._default_manager.filter(pk__in=[row.pk for row in rows]).update(**values)
