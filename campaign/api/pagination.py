"""The API's paginator: DRF's page numbers, with a page parameter that is present but not a page
number refused (404, as DRF answers any other page that does not exist) instead of read as page 1."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request


class StrictPageNumberPagination(PageNumberPagination):
    def get_page_number(self, request: Request, paginator: Paginator) -> Any:
        raw = request.query_params.get(self.page_query_param)
        if raw is not None and raw not in self.last_page_strings and not (raw.isascii() and raw.isdigit()):
            raise NotFound(f"Invalid page {raw!r}: give a page number from 1, or 'last'.")
        return super().get_page_number(request, paginator)
