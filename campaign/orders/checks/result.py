"""What a per-kind order check is, and what it returns."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from campaign.orders.context import OrderContext
from campaign.orders.errors import OrderCheck
from campaign.orders.schema import Fields
from fleets.models import Fleet

#: (normalised body without "kind", ``Order.fleet``, EP committed).
Checked = tuple[dict[str, Any], Fleet | None, int]
#: A per-kind check: refuses with :class:`~campaign.orders.errors.OrderRefused` or returns :data:`Checked`.
Check = Callable[[OrderContext, OrderCheck, Fields], Checked]
