"""The API's one paginator, for every list: DRF's page numbers (``count``, ``next``, ``previous``,
``results``), ``?page_size=`` up to :attr:`max_page_size`, and a page parameter that is present but
not a page number refused (404, as DRF answers any other page that does not exist) instead of read
as page 1. In ``battles.api`` so that both API packages can use it (see :mod:`battles.api.problems`)."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request

from battles.api.problems import Problem, ProblemEntry

#: A page holds every zone and port of the largest scenario, so a map is one request.
MAX_PAGE_SIZE = 500


class StrictPageNumberPagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = MAX_PAGE_SIZE

    def get_page_number(self, request: Request, paginator: Paginator) -> Any:
        raw = request.query_params.get(self.page_query_param)
        if raw is not None and raw not in self.last_page_strings and not (raw.isascii() and raw.isdigit()):
            raise NotFound(f"Invalid page {raw!r}: give a page number from 1, or 'last'.")
        return super().get_page_number(request, paginator)

    def get_page_size(self, request: Request) -> int | None:
        raw = request.query_params.get(self.page_size_query_param)
        if raw is not None and not (raw.isascii() and raw.isdigit() and 1 <= int(raw) <= MAX_PAGE_SIZE):
            message = f"page_size must be a whole number from 1 to {MAX_PAGE_SIZE}, got {raw!r}."
            raise Problem(400, message, errors=[ProblemEntry("page_size", "out_of_range", message)])
        return super().get_page_size(request)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        """The documented parameters with their real bounds (a fuzzer sends what the schema allows)."""
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_query_param:
                parameter["schema"] = {"type": "integer", "minimum": 1}
            elif parameter["name"] == self.page_size_query_param:
                parameter["schema"] = {"type": "integer", "minimum": 1, "maximum": MAX_PAGE_SIZE}
        return parameters
