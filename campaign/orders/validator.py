"""The order validator: one body checked against the campaign as it stands and the orders listed
before it — first its form (:func:`~campaign.orders.schema.shape_check`), then the rules of its kind
(the table :data:`~campaign.orders.checks.CHECKS`). Reads the database, writes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from campaign.models import Nation, Turn
from campaign.orders.checks import CHECKS
from campaign.orders.context import OrderContext
from campaign.orders.errors import OrderRefused
from campaign.orders.schema import shape_check
from fleets.models import Fleet


@dataclass(frozen=True)
class CleanOrder:
    """A validated order: its normalised body (defaults filled in, names cleaned) ready to store."""

    position: int
    kind: str
    body: dict[str, Any]
    fleet: Fleet | None
    cost: int
    label: str

    @property
    def order_fleet_id(self) -> int | None:
        return self.fleet.pk if self.fleet is not None else None


def order_check(ctx: OrderContext, body: object) -> CleanOrder:
    """Check ``body`` as the next order of ``ctx``'s list (it is not absorbed: the caller decides)."""
    position = ctx.listed.count + 1
    chk, fields = shape_check(position, body)
    clean, fleet, cost = CHECKS[chk.kind](ctx, chk, fields)
    return CleanOrder(
        position=position, kind=chk.kind, body={"kind": chk.kind, **clean}, fleet=fleet, cost=cost, label=chk.label
    )


@transaction.atomic
def order_validate(
    *, nation: Nation, turn: Turn, body: object, earlier: Sequence[Mapping[str, Any]] = ()
) -> CleanOrder:
    """Check one order body; return it cleaned or raise :class:`OrderRefused` naming it and the reason.

    ``earlier``: the bodies of the nation's orders listed before it this turn (its position is
    ``len(earlier) + 1``): their lay-downs and raises are committed against the treasury, their
    keels count for quota and four-deckers, their ship and fleet names are taken, and their fleet
    organisation and moves are taken into account. Reads the database, writes nothing.
    """
    ctx = OrderContext(nation=nation, turn=turn)
    for listed in earlier:
        ctx.absorb(listed)
    return order_check(ctx, body)


def orders_validate(
    *, nation: Nation, turn: Turn, bodies: Sequence[object]
) -> tuple[list[CleanOrder | None], list[OrderRefused | None]]:
    """Check a whole list in listed order: per position the clean order or the refusal."""
    return orders_check(OrderContext(nation=nation, turn=turn), bodies)


def orders_check(
    ctx: OrderContext, bodies: Sequence[object]
) -> tuple[list[CleanOrder | None], list[OrderRefused | None]]:
    """Check a whole list in listed order against ``ctx`` (with no order listed yet): per position the
    clean order or the refusal. One context reads the board, fleets and ships once for the whole list."""
    cleans: list[CleanOrder | None] = []
    refusals: list[OrderRefused | None] = []
    for index, body in enumerate(bodies):
        try:
            clean = order_check(ctx, body)
        except OrderRefused as refused:
            refused.index = index  # its place in the submitted list, for the API's refusal
            cleans.append(None)
            refusals.append(refused)
            ctx.absorb(body, accepted=False)
        else:
            cleans.append(clean)
            refusals.append(None)
            ctx.absorb(clean.body)
    return cleans, refusals
