"""Pages of a list that can grow (the ledger, the resolved turns): any page number a visitor types is
answered, never with a server error."""

from __future__ import annotations

from typing import Any, TypeVar

from django.db.models import QuerySet
from django.http import Http404

Row = TypeVar("Row")

#: No campaign has this many pages of anything (a million pages of ledger lines is centuries of weekly
#: turns); a larger number names no page, and is answered 404 before the database is asked for an offset
#: it cannot take (PostgreSQL's OFFSET is a 64-bit integer).
MAX_PAGE = 1_000_000


def page_of(rows: QuerySet[Any, Row], *, page: int, size: int) -> tuple[list[Row], int, bool]:
    """Page ``page`` (counted from 1) of ``rows``: its rows, the page number shown and whether a next
    page follows (one query). A page before the first is the first; a page past the end is empty;
    a page beyond :data:`MAX_PAGE` raises Http404.
    """
    if page > MAX_PAGE:
        raise Http404("No such page.")
    page = max(1, page)
    found = list(rows[(page - 1) * size : page * size + 1])
    return found[:size], page, len(found) > size


__all__ = ["MAX_PAGE", "page_of"]
